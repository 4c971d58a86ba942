#pragma once
// The backward graph. Each differentiable op that ran on tensors requiring
// grad leaves a Node; its next_edges point at the nodes of its inputs (or at
// an AccumulateGrad node for a leaf). The engine walks edges from the output.
#include <ATen/core/TensorBody.h>
#include <c10/util/SmallVector.h>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace at::autograd {

struct Node;
using variable_list = std::vector<Tensor>;
// Called with the gradient of a tensor; may return a replacement (or undefined).
using Hook = std::function<Tensor(const Tensor&)>;

struct Edge {
  std::shared_ptr<Node> function;
  uint32_t input_nr = 0;
  bool is_valid() const { return function != nullptr; }
};

// What a gradient flowing into an input must look like: the engine casts
// the dtype and sums away broadcast dims to match.
struct InputMetadata {
  c10::SmallVector<int64_t, 5> sizes;
  ScalarType dtype = ScalarType::Float;
  Device device;
};

struct TORCH_API Node : std::enable_shared_from_this<Node> {
  Node();
  virtual ~Node() = default;
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  // grads[i]: the gradient of output i (undefined when it got none).
  // Returns one gradient per next edge.
  virtual variable_list apply(variable_list&& grads) = 0;
  virtual std::string name() const = 0;
  // Frees saved tensors once a backward pass without retain_graph is done.
  virtual void release_variables() {}

  uint32_t num_outputs() const { return num_outputs_; }
  const std::vector<Edge>& next_edges() const { return next_edges_; }
  const std::vector<InputMetadata>& input_metadata() const { return input_metadata_; }
  uint64_t sequence_nr() const { return sequence_nr_; }
  // Held by the engine around apply() and release_variables(): backward
  // passes on other threads may reach the same node (a shared subgraph).
  std::mutex& mutex() { return mutex_; }

  // Records the inputs: one edge (and one metadata entry) per input.
  void add_input(const Tensor& t);
  void add_input_list(TensorList ts);
  void set_num_outputs(uint32_t n) { num_outputs_ = n; }

  // Hooks on the gradient of output `output_nr`, run before apply().
  void add_pre_hook(uint32_t output_nr, Hook hook);
  const std::vector<std::pair<uint32_t, Hook>>& pre_hooks() const { return pre_hooks_; }
  // retain_grad(): runs after the other hooks, so .grad sees their result.
  void add_retains_grad_hook(uint32_t output_nr, Hook hook) { retains_grad_hooks_.emplace_back(output_nr, std::move(hook)); }
  const std::vector<std::pair<uint32_t, Hook>>& retains_grad_hooks() const { return retains_grad_hooks_; }

 protected:
  std::vector<Edge> next_edges_;
  std::vector<InputMetadata> input_metadata_;
  std::vector<std::pair<uint32_t, Hook>> pre_hooks_;
  std::vector<std::pair<uint32_t, Hook>> retains_grad_hooks_;
  uint32_t num_outputs_ = 1;
  uint64_t sequence_nr_;
  std::mutex mutex_;
};

// Raised by ops that have no derivative formula when a gradient reaches them.
struct TORCH_API NotImplementedBackward : Node {
  explicit NotImplementedBackward(std::string op) : op_(std::move(op)) {}
  variable_list apply(variable_list&& grads) override;
  std::string name() const override { return "torch::autograd::NotImplemented"; }  // as PyTorch names it

 private:
  std::string op_;
};

// The history of a gradient whose formula records nothing, made in a backward
// pass that records itself (create_graph): differentiating it again raises.
struct TORCH_API DelayedError : Node {
  explicit DelayedError(std::string message) : message_(std::move(message)) {}
  variable_list apply(variable_list&& grads) override;
  std::string name() const override { return "torch::autograd::DelayedError"; }  // as PyTorch names it

 private:
  std::string message_;
};

}  // namespace at::autograd
