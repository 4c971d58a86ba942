#pragma once
#include <ATen/TensorIterator.h>
#include <ATen/native/DispatchStub.h>

#include <optional>

namespace at::native {

using unary_fn = void (*)(TensorIterator& iter);

// Ops that keep the dtype.
DECLARE_DISPATCH(unary_fn, neg_stub);
DECLARE_DISPATCH(unary_fn, abs_stub);
DECLARE_DISPATCH(unary_fn, relu_stub);
// Ops that compute in floating point (integer inputs are promoted).
DECLARE_DISPATCH(unary_fn, exp_stub);
DECLARE_DISPATCH(unary_fn, log_stub);
DECLARE_DISPATCH(unary_fn, sqrt_stub);
DECLARE_DISPATCH(unary_fn, reciprocal_stub);
DECLARE_DISPATCH(unary_fn, sigmoid_stub);
DECLARE_DISPATCH(unary_fn, tanh_stub);
DECLARE_DISPATCH(unary_fn, log1p_stub);
DECLARE_DISPATCH(unary_fn, expm1_stub);
DECLARE_DISPATCH(unary_fn, rsqrt_stub);
DECLARE_DISPATCH(unary_fn, sin_stub);
DECLARE_DISPATCH(unary_fn, cos_stub);
DECLARE_DISPATCH(unary_fn, tan_stub);
DECLARE_DISPATCH(unary_fn, asin_stub);
DECLARE_DISPATCH(unary_fn, acos_stub);
DECLARE_DISPATCH(unary_fn, atan_stub);
DECLARE_DISPATCH(unary_fn, sinh_stub);
DECLARE_DISPATCH(unary_fn, cosh_stub);
DECLARE_DISPATCH(unary_fn, asinh_stub);
DECLARE_DISPATCH(unary_fn, acosh_stub);
DECLARE_DISPATCH(unary_fn, atanh_stub);
DECLARE_DISPATCH(unary_fn, erf_stub);
DECLARE_DISPATCH(unary_fn, erfc_stub);
DECLARE_DISPATCH(unary_fn, log2_stub);
DECLARE_DISPATCH(unary_fn, log10_stub);
DECLARE_DISPATCH(unary_fn, exp2_stub);
DECLARE_DISPATCH(unary_fn, deg2rad_stub);
DECLARE_DISPATCH(unary_fn, rad2deg_stub);
DECLARE_DISPATCH(unary_fn, angle_stub);
DECLARE_DISPATCH(unary_fn, lgamma_stub);
DECLARE_DISPATCH(unary_fn, digamma_stub);
DECLARE_DISPATCH(unary_fn, erfinv_stub);
DECLARE_DISPATCH(unary_fn, sinc_stub);
DECLARE_DISPATCH(unary_fn, special_entr_stub);
DECLARE_DISPATCH(unary_fn, gelu_stub);
DECLARE_DISPATCH(unary_fn, gelu_tanh_stub);
// Ops that keep the dtype (integers pass through the rounding ones unchanged).
DECLARE_DISPATCH(unary_fn, sign_stub);
DECLARE_DISPATCH(unary_fn, frac_stub);  // floating types only
DECLARE_DISPATCH(unary_fn, floor_stub);
DECLARE_DISPATCH(unary_fn, ceil_stub);
DECLARE_DISPATCH(unary_fn, round_stub);
DECLARE_DISPATCH(unary_fn, trunc_stub);
DECLARE_DISPATCH(unary_fn, bitwise_not_stub);
// Ops with a bool result.
DECLARE_DISPATCH(unary_fn, isnan_stub);
DECLARE_DISPATCH(unary_fn, isfinite_stub);
DECLARE_DISPATCH(unary_fn, isinf_stub);
DECLARE_DISPATCH(unary_fn, signbit_stub);
DECLARE_DISPATCH(unary_fn, logical_not_stub);

// nan_to_num: NaN becomes `nan`, +inf `posinf`, -inf `neginf`; a missing
// infinity replacement is the dtype's largest (lowest) finite value. Other
// elements, and every element of an integer or bool tensor, are copied.
using nan_to_num_fn = void (*)(TensorIterator& iter, double nan, std::optional<double> posinf,
                               std::optional<double> neginf);
DECLARE_DISPATCH(nan_to_num_fn, nan_to_num_stub);

// polygamma(1, x) on the CPU (SpecialOps.cpp): one pass of
// special::trigamma rather than zeta(2, x).
DECLARE_DISPATCH(unary_fn, trigamma_stub);
Tensor trigamma(const Tensor& self);

// frexp: x = mantissa * 2^exponent with |mantissa| in [0.5, 1) (std::frexp
// per element); zeros, infinities and NaN come back as they are with
// exponent 0, on every platform (C leaves the last two unspecified).
// Operands contiguous, exponent int32.
using frexp_fn = void (*)(const Tensor& self, const Tensor& mantissa, const Tensor& exponent);
DECLARE_DISPATCH(frexp_fn, frexp_stub);

}  // namespace at::native
