#include <ATen/autograd/Node.h>

#include <ATen/autograd/Variable.h>

namespace at::autograd {
namespace {
std::atomic<uint64_t> next_sequence_nr{0};
}

Node::Node() : sequence_nr_(next_sequence_nr.fetch_add(1, std::memory_order_relaxed)) {}

void Node::add_input(const Tensor& t) {
  next_edges_.push_back(t.defined() ? gradient_edge(t) : Edge{});
  InputMetadata meta;
  if (t.defined()) {
    meta.sizes.assign(t.sizes().begin(), t.sizes().end());
    meta.dtype = t.scalar_type();
    meta.device = t.device();
  }
  input_metadata_.push_back(std::move(meta));
}

void Node::add_input_list(TensorList ts) {
  for (const Tensor& t : ts) add_input(t);
}

void Node::add_pre_hook(uint32_t output_nr, Hook hook) { pre_hooks_.emplace_back(output_nr, std::move(hook)); }

variable_list NotImplementedBackward::apply(variable_list&&) {
  const bool custom_op = op_.find("::") != std::string::npos && op_.rfind("aten::", 0) != 0;
  TORCH_CHECK_NOT_IMPLEMENTED(false, "the derivative for '", op_, "' is not implemented.",
                              custom_op ? " Register one with torch.library.register_autograd." : "");
}

variable_list DelayedError::apply(variable_list&&) { TORCH_CHECK_NOT_IMPLEMENTED(false, message_); }

}  // namespace at::autograd
