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
AT_TENSOR_BINARY_OPERATOR(%, remainder)
AT_TENSOR_BINARY_OPERATOR(&, bitwise_and)
AT_TENSOR_BINARY_OPERATOR(|, bitwise_or)
AT_TENSOR_BINARY_OPERATOR(^, bitwise_xor)
AT_TENSOR_BINARY_OPERATOR(<, lt)
AT_TENSOR_BINARY_OPERATOR(<=, le)
AT_TENSOR_BINARY_OPERATOR(>, gt)
AT_TENSOR_BINARY_OPERATOR(>=, ge)
AT_TENSOR_BINARY_OPERATOR(==, eq)
AT_TENSOR_BINARY_OPERATOR(!=, ne)
#undef AT_TENSOR_BINARY_OPERATOR

inline Tensor operator-(const Tensor& a) { return at::neg(a); }
inline Tensor operator~(const Tensor& a) { return at::bitwise_not(a); }

// In place: x += y writes into x (as x.add_(y)), and x keeps sharing its storage.
#define AT_TENSOR_COMPOUND_OPERATOR(op, fn)                                                            \
  inline const Tensor& operator op(const Tensor& a, const Tensor& b) { return at::fn(a, b); }           \
  inline const Tensor& operator op(const Tensor& a, const Scalar& b) { return at::fn(a, wrapped_scalar_tensor(b)); }

AT_TENSOR_COMPOUND_OPERATOR(+=, add_)
AT_TENSOR_COMPOUND_OPERATOR(-=, sub_)
AT_TENSOR_COMPOUND_OPERATOR(*=, mul_)
AT_TENSOR_COMPOUND_OPERATOR(/=, div_)
#undef AT_TENSOR_COMPOUND_OPERATOR

}  // namespace at
