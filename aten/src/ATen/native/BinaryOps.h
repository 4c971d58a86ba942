#pragma once
#include <ATen/TensorIterator.h>
#include <ATen/native/DispatchStub.h>

namespace at::native {

using binary_fn = void (*)(TensorIterator& iter);
using binary_alpha_fn = void (*)(TensorIterator& iter, const Scalar& alpha);

DECLARE_DISPATCH(binary_alpha_fn, add_stub);  // a + alpha * b
DECLARE_DISPATCH(binary_fn, mul_stub);
DECLARE_DISPATCH(binary_fn, div_true_stub);
DECLARE_DISPATCH(binary_fn, div_trunc_stub);
DECLARE_DISPATCH(binary_fn, div_floor_stub);
DECLARE_DISPATCH(binary_fn, pow_stub);
DECLARE_DISPATCH(binary_fn, remainder_stub);
DECLARE_DISPATCH(binary_fn, atan2_stub);
DECLARE_DISPATCH(binary_fn, special_zeta_stub);
DECLARE_DISPATCH(binary_fn, fmod_stub);
DECLARE_DISPATCH(binary_fn, hypot_stub);
DECLARE_DISPATCH(binary_fn, copysign_stub);
DECLARE_DISPATCH(binary_fn, fmax_stub);
DECLARE_DISPATCH(binary_fn, fmin_stub);
DECLARE_DISPATCH(binary_fn, logaddexp_stub);
DECLARE_DISPATCH(binary_fn, logaddexp2_stub);
DECLARE_DISPATCH(binary_fn, xlogy_stub);
DECLARE_DISPATCH(binary_fn, nextafter_stub);
DECLARE_DISPATCH(binary_fn, heaviside_stub);
DECLARE_DISPATCH(binary_fn, minimum_stub);
DECLARE_DISPATCH(binary_fn, maximum_stub);
// iter: output, self, min, max (a missing bound is the dtype's lowest/highest value).
DECLARE_DISPATCH(binary_fn, clamp_stub);
DECLARE_DISPATCH(binary_fn, bitwise_and_stub);
DECLARE_DISPATCH(binary_fn, bitwise_or_stub);
DECLARE_DISPATCH(binary_fn, bitwise_xor_stub);
DECLARE_DISPATCH(binary_fn, bitwise_left_shift_stub);
DECLARE_DISPATCH(binary_fn, bitwise_right_shift_stub);
DECLARE_DISPATCH(binary_fn, gcd_stub);
DECLARE_DISPATCH(binary_fn, lcm_stub);
// iter: output, grad, self; the flag picks the tanh approximation.
using gelu_backward_fn = void (*)(TensorIterator& iter, bool tanh_form);
DECLARE_DISPATCH(gelu_backward_fn, gelu_backward_stub);
// Bool results.
DECLARE_DISPATCH(binary_fn, logical_and_stub);
DECLARE_DISPATCH(binary_fn, logical_or_stub);
DECLARE_DISPATCH(binary_fn, logical_xor_stub);
DECLARE_DISPATCH(binary_fn, eq_stub);
DECLARE_DISPATCH(binary_fn, ne_stub);
DECLARE_DISPATCH(binary_fn, lt_stub);
DECLARE_DISPATCH(binary_fn, le_stub);
DECLARE_DISPATCH(binary_fn, gt_stub);
DECLARE_DISPATCH(binary_fn, ge_stub);
// iter: output, self, other, condition (bool).
DECLARE_DISPATCH(binary_fn, where_stub);
using masked_fill_fn = void (*)(TensorIterator& iter, const Scalar& value);
// iter: output (self, in place), self, mask (bool).
DECLARE_DISPATCH(masked_fill_fn, masked_fill_stub);

}  // namespace at::native
