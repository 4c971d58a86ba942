#include <ATen/autograd/SavedVariable.h>

#include <ATen/autograd/Variable.h>

namespace at::autograd {

SavedVariable::SavedVariable(const Tensor& t, bool is_output) : was_defined_(t.defined()), is_output_(is_output) {
  if (!t.defined()) return;
  data_ = detach(t);
  saved_version_ = t.unsafeGetTensorImpl()->version();
  if (!requires_grad(t)) return;
  if (!is_output) {
    original_ = t;
  } else if (const AutogradMeta* m = get_meta(t); m && m->grad_fn) {
    grad_fn_ = m->grad_fn;
    output_nr_ = m->output_nr;
  }
}

Tensor SavedVariable::unpack(const char* node) const {
  if (!was_defined_) return Tensor();
  TORCH_CHECK(!released_, "Trying to backward through the graph a second time (or directly access saved tensors "
              "after they have already been freed). Saved intermediate values of the graph are freed when you call "
              ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a "
              "second time or if you need to access saved tensors after calling backward.");
  const uint32_t now = data_.unsafeGetTensorImpl()->version();
  if (now != saved_version_) {
    std::ostringstream sizes;
    sizes << data_.sizes();
    TORCH_CHECK(false, "one of the variables needed for gradient computation has been modified by an inplace "
                "operation: [torch.", c10::toString(data_.scalar_type()), "Tensor ", sizes.str(), "]",
                is_output_ ? std::string(", which is output 0 of ") + node + "," : std::string(),
                " is at version ", now, "; expected version ", saved_version_,
                " instead. Hint: the backtrace further above can help find the operation that failed to compute its "
                "gradient. The variable in question was changed in there or anywhere later. Good luck!");
  }
  if (GradMode::is_enabled()) {  // a backward pass that records itself
    if (original_.defined()) return original_;
    if (auto fn = grad_fn_.lock()) {
      Tensor alias = detach(data_);
      set_history(alias, fn, output_nr_);
      return alias;
    }
  }
  return data_;
}

void SavedVariable::reset_data() {
  data_ = Tensor();
  original_ = Tensor();
  grad_fn_.reset();
  released_ = true;
}

}  // namespace at::autograd
