#pragma once
// A Python number in an expression (t + 2) becomes a 0-d "wrapped number"
// tensor, which ranks below real tensors in type promotion.
#include <ATen/Functions.h>

namespace at {

inline Tensor wrapped_scalar_tensor(const Scalar& s) {
  Tensor t = at::scalar_tensor(s, s.type());
  t.unsafeGetTensorImpl()->set_wrapped_number(true);
  return t;
}

}  // namespace at
