#pragma once
// A tensor a node keeps for its backward. It holds a detached alias (same
// storage and version counter, no autograd history), so saving an op's own
// output creates no reference cycle; unpack() checks that nobody modified
// the tensor in place since it was saved.
//
// A backward pass that records itself (create_graph, grad mode on) needs the
// saved tensors with their history: an input is then the tensor itself (kept
// when it requires grad), an output a new alias made an output of its node
// again (held weakly, as the node owns this SavedVariable).
#include <ATen/core/TensorBody.h>

#include <memory>
#include <string>

namespace at::autograd {

struct Node;

class TORCH_API SavedVariable {
 public:
  SavedVariable() = default;
  SavedVariable(const Tensor& t, bool is_output);
  // `node`: the name used in the error message.
  Tensor unpack(const char* node) const;
  void reset_data();
  bool defined() const { return was_defined_; }

 private:
  Tensor data_;
  Tensor original_;                 // an input that requires grad, for create_graph
  std::weak_ptr<Node> grad_fn_;     // an output's node, for create_graph
  uint32_t output_nr_ = 0;
  uint32_t saved_version_ = 0;
  bool was_defined_ = false;
  bool released_ = false;
  bool is_output_ = false;
};

}  // namespace at::autograd
