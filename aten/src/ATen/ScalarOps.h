#pragma once
// A Python number in an expression (t + 2) becomes a 0-d "wrapped number"
// tensor, which ranks below real tensors in type promotion.
#include <ATen/Dispatch.h>
#include <ATen/Functions.h>

namespace at {

// Written directly rather than through fill_: this runs for every `t + 2`.
inline Tensor wrapped_scalar_tensor(const Scalar& s) {
  Tensor t = at::empty({}, s.type());
  void* p = t.data_ptr();
  switch (s.type()) {
    case ScalarType::Double: *static_cast<double*>(p) = s.toDouble(); break;
    case ScalarType::Long: *static_cast<int64_t*>(p) = s.toLong(); break;
    default: *static_cast<bool*>(p) = s.toBool(); break;
  }
  t.unsafeGetTensorImpl()->set_wrapped_number(true);
  return t;
}

// A 0-d tensor of `dtype` holding `s`, written directly (no kernel launch).
inline Tensor scalar_tensor_of(const Scalar& s, ScalarType dtype) {
  Tensor t = at::empty({}, dtype);
  // Unchecked, as PyTorch casts a wrapped number: uint8 `t + 300` adds 44.
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(dtype, "scalar_tensor_of", [&] {
    *static_cast<scalar_t*>(t.data_ptr()) = s.to_unchecked<scalar_t>();
  });
  return t;
}

// Raises PyTorch's "value cannot be converted to type X without overflow"
// when `s` does not fit `dtype` (a clamp bound, a fill value).
inline void check_scalar_fits(const Scalar& s, ScalarType dtype) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(dtype, "check_scalar_fits", [&] { (void)s.to<scalar_t>(); });
}

// The same check as PyTorch's scalar_fill makes it (scalar_tensor, where with
// a number): float16 and bfloat16 take any number (70000 becomes inf).
inline void check_scalar_fits_unless_reduced(const Scalar& s, ScalarType dtype) {
  if (dtype != ScalarType::Half && dtype != ScalarType::BFloat16) check_scalar_fits(s, dtype);
}

}  // namespace at
