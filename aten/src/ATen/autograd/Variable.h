#pragma once
// Autograd's view of a tensor: requires_grad, .grad, .grad_fn, leaves and
// their AccumulateGrad nodes, and how op results get their history.
#include <ATen/autograd/GradMode.h>
#include <ATen/autograd/Node.h>

#include <memory>
#include <mutex>
#include <vector>

namespace at::autograd {

// A retained gradient, shared by a non-leaf tensor and the hook that fills it.
struct GradSlot {
  Tensor grad;
};

struct TORCH_API AutogradMeta : c10::AutogradMetaInterface {
  // Guards grad, grad_accumulator, retained and hooks: threads running forward
  // or backward passes over the same leaves (one model, several threads) meet here.
  mutable std::mutex mutex;
  Tensor grad;                            // leaves: accumulated by AccumulateGrad
  std::shared_ptr<Node> grad_fn;          // non-leaves: the node that made it
  std::weak_ptr<Node> grad_accumulator;   // leaves: their AccumulateGrad
  uint32_t output_nr = 0;
  bool requires_grad = false;             // leaves only
  std::shared_ptr<GradSlot> retained;     // non-leaves after retain_grad()
  // Views: the version counter when grad_fn was set. An in-place op on the
  // base or on another view of it bumps the shared counter, and grad_fn then
  // reads from the base's new history (refresh_view_history).
  uint32_t view_version = 0;
  std::vector<Hook> hooks;                // leaves: run by AccumulateGrad
};

// The metadata of `t`, created on first use.
TORCH_API AutogradMeta* materialize_meta(const Tensor& t);
inline AutogradMeta* get_meta(const Tensor& t) {
  return static_cast<AutogradMeta*>(t.unsafeGetTensorImpl()->autograd_meta());
}

TORCH_API bool requires_grad(const Tensor& t);
TORCH_API void set_requires_grad(const Tensor& t, bool requires_grad);
TORCH_API bool is_leaf(const Tensor& t);
TORCH_API std::shared_ptr<Node> grad_fn(const Tensor& t);
TORCH_API Tensor grad(const Tensor& t);
TORCH_API void set_grad(const Tensor& t, const Tensor& grad);
TORCH_API void retain_grad(const Tensor& t);
TORCH_API bool retains_grad(const Tensor& t);
TORCH_API void register_hook(const Tensor& t, Hook hook);
// A new tensor sharing t's data and version counter, without history.
TORCH_API Tensor detach(const Tensor& t);

// Where the gradient of `t` must go: its grad_fn's output, or its leaf accumulator.
TORCH_API Edge gradient_edge(const Tensor& t);
TORCH_API std::shared_ptr<Node> grad_accumulator(const Tensor& t);

// Whether any of these tensors needs its op recorded (grad mode on, and a
// floating point input requiring grad).
TORCH_API bool any_requires_grad(std::initializer_list<const Tensor*> tensors);
TORCH_API bool any_requires_grad(TensorList tensors);
// Refuses a result that would need a gradient but cannot hold one (an
// integer sum of floats that require grad): "Autograd not support dtype".
TORCH_API void check_differentiable(const Tensor& result);
// Makes `result` output `output_nr` of `fn`.
TORCH_API void set_history(const Tensor& result, const std::shared_ptr<Node>& fn, uint32_t output_nr = 0);
// Before an in-place op: refuses what autograd cannot represent (a leaf that
// requires grad, or a view of one).
TORCH_API void check_inplace(const Tensor& self, const char* op, bool metadata_only = false);
// After an in-place op: `self` now comes from `fn`. For a view, the history
// of its base is rebased instead (CopySlices) and the view reads from it.
TORCH_API void rebase_history(const Tensor& self, const std::shared_ptr<Node>& fn);

// The new history of a base after an in-place op on one of its views: the
// gradient of the base, with the view's region replaced by what the op's node
// makes of that region's gradient.
struct TORCH_API CopySlices : Node {
  CopySlices(const Tensor& base, const Tensor& view, std::shared_ptr<Node> fn);
  variable_list apply(variable_list&& grads) override;
  std::string name() const override { return "CopySlices"; }
  void release_variables() override { fn_->release_variables(); }

 private:
  std::vector<int64_t> sizes_, strides_;
  int64_t offset_;
  std::shared_ptr<Node> fn_;
};

// A view's history after its base was rebased: the view's region of the base.
struct TORCH_API AsStridedBackward : Node {
  AsStridedBackward(const Tensor& base, const Tensor& view);
  variable_list apply(variable_list&& grads) override;
  std::string name() const override { return "AsStridedBackward0"; }

 private:
  std::vector<int64_t> base_sizes_, sizes_, strides_;
  int64_t offset_;
  ScalarType dtype_;
};

// Applies a leaf's gradient: runs its hooks, then adds into .grad.
struct TORCH_API AccumulateGrad : Node {
  explicit AccumulateGrad(Tensor variable);
  variable_list apply(variable_list&& grads) override;
  std::string name() const override { return "AccumulateGrad"; }
  Tensor variable;
};

}  // namespace at::autograd
