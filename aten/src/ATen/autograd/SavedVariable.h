#pragma once
// A tensor a node keeps for its backward. It holds a detached alias (same
// storage and version counter, no autograd history), so saving an op's own
// output creates no reference cycle; unpack() checks that nobody modified
// the tensor in place since it was saved.
#include <ATen/core/TensorBody.h>

#include <string>

namespace at::autograd {

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
  uint32_t saved_version_ = 0;
  bool was_defined_ = false;
  bool released_ = false;
  bool is_output_ = false;
};

}  // namespace at::autograd
