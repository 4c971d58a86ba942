#pragma once
// The two dtypes of the hand-written CPU loops (LSTM cell, layer norm): other
// dtypes and devices take those ops' composite equations over at:: ops.
#include <ATen/core/TensorBody.h>

namespace at::native {

inline bool is_cpu_float_or_double(const Tensor& t) {
  return t.device().is_cpu() && (t.scalar_type() == ScalarType::Float || t.scalar_type() == ScalarType::Double);
}

// f(float{}) or f(double{}) for a Float or Double `t` (AT_DISPATCH_FLOATING_AND_REDUCED_TYPES would add the half types).
template <typename F>
void for_float_or_double(ScalarType t, F f) {
  if (t == ScalarType::Float) {
    f(float{});
  } else {
    f(double{});
  }
}

}  // namespace at::native
