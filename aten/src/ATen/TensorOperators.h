#pragma once
// C++ arithmetic on tensors, as PyTorch's at::Tensor has it: a + b, x * 2.0,
// 1 - x, -x. A number operand is a wrapped number, so it promotes as a
// Python number does (an int tensor times 2.5 is float).
#include <ATen/Functions.h>
#include <ATen/ScalarOps.h>

namespace at {

#define AT_TENSOR_BINARY_OPERATOR(op, fn)                                                                    \
  inline Tensor operator op(const Tensor& a, const Tensor& b) { return at::fn(a, b); }                     \
  inline Tensor operator op(const Tensor& a, const Scalar& b) { return at::fn(a, wrapped_scalar_tensor(b)); } \
  inline Tensor operator op(const Scalar& a, const Tensor& b) { return at::fn(wrapped_scalar_tensor(a), b); }

AT_TENSOR_BINARY_OPERATOR(+, add)
AT_TENSOR_BINARY_OPERATOR(-, sub)
AT_TENSOR_BINARY_OPERATOR(*, mul)
AT_TENSOR_BINARY_OPERATOR(/, div)
#undef AT_TENSOR_BINARY_OPERATOR

inline Tensor operator-(const Tensor& a) { return at::neg(a); }

}  // namespace at
