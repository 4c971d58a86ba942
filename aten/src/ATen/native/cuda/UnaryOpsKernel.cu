// CUDA loops of the unary pointwise ops, from the formulas of
// native/UnaryFunctors.h that the CPU kernels use too.
#include <ATen/Dispatch.h>
#include <ATen/native/UnaryFunctors.h>
#include <ATen/native/UnaryOps.h>
#include <ATen/native/cuda/Loops.cuh>

#include <limits>
#include <optional>

namespace at::native {
namespace {

void neg_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(iter.common_dtype(), "neg_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x) -> scalar_t { return -x; });
  });
}

void abs_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(iter.common_dtype(), "abs_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x) -> scalar_t { return abs_value(x); });
  });
}

void relu_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(iter.common_dtype(), "relu_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x) -> scalar_t { return relu_of(x); });
  });
}

// The shared formulas (native/UnaryFunctors.h) in the CUDA loop, computed in
// float for float16/bfloat16.
template <typename Formula>
void float_unary_loop(TensorIterator& iter, const char* name) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), name, [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x) -> scalar_t { return apply_formula<Formula>(x); });
  });
}

void exp_kernel_cuda(TensorIterator& iter) { float_unary_loop<exp_formula>(iter, "exp_cuda"); }
void log_kernel_cuda(TensorIterator& iter) { float_unary_loop<log_formula>(iter, "log_cuda"); }
void sqrt_kernel_cuda(TensorIterator& iter) { float_unary_loop<sqrt_formula>(iter, "sqrt_cuda"); }
void reciprocal_kernel_cuda(TensorIterator& iter) { float_unary_loop<reciprocal_formula>(iter, "reciprocal_cuda"); }
void sigmoid_kernel_cuda(TensorIterator& iter) { float_unary_loop<sigmoid_formula>(iter, "sigmoid_cuda"); }
void tanh_kernel_cuda(TensorIterator& iter) { float_unary_loop<tanh_formula>(iter, "tanh_cuda"); }
void log1p_kernel_cuda(TensorIterator& iter) { float_unary_loop<log1p_formula>(iter, "log1p_cuda"); }
void expm1_kernel_cuda(TensorIterator& iter) { float_unary_loop<expm1_formula>(iter, "expm1_cuda"); }
void rsqrt_kernel_cuda(TensorIterator& iter) { float_unary_loop<rsqrt_formula>(iter, "rsqrt_cuda"); }
void sin_kernel_cuda(TensorIterator& iter) { float_unary_loop<sin_formula>(iter, "sin_cuda"); }
void cos_kernel_cuda(TensorIterator& iter) { float_unary_loop<cos_formula>(iter, "cos_cuda"); }
void gelu_kernel_cuda(TensorIterator& iter) { float_unary_loop<gelu_formula>(iter, "gelu_cuda"); }
void gelu_tanh_kernel_cuda(TensorIterator& iter) { float_unary_loop<gelu_tanh_formula>(iter, "gelu_tanh_cuda"); }
void sinc_kernel_cuda(TensorIterator& iter) { float_unary_loop<sinc_formula>(iter, "sinc_cuda"); }
void special_entr_kernel_cuda(TensorIterator& iter) { float_unary_loop<special_entr_formula>(iter, "entr_cuda"); }
void lgamma_kernel_cuda(TensorIterator& iter) { float_unary_loop<lgamma_formula>(iter, "lgamma_cuda"); }
void digamma_kernel_cuda(TensorIterator& iter) { float_unary_loop<digamma_formula>(iter, "digamma_cuda"); }
void erfinv_kernel_cuda(TensorIterator& iter) { float_unary_loop<erfinv_formula>(iter, "erfinv_cuda"); }
void tan_kernel_cuda(TensorIterator& iter) { float_unary_loop<tan_formula>(iter, "tan_cuda"); }
void asin_kernel_cuda(TensorIterator& iter) { float_unary_loop<asin_formula>(iter, "asin_cuda"); }
void acos_kernel_cuda(TensorIterator& iter) { float_unary_loop<acos_formula>(iter, "acos_cuda"); }
void atan_kernel_cuda(TensorIterator& iter) { float_unary_loop<atan_formula>(iter, "atan_cuda"); }
void sinh_kernel_cuda(TensorIterator& iter) { float_unary_loop<sinh_formula>(iter, "sinh_cuda"); }
void cosh_kernel_cuda(TensorIterator& iter) { float_unary_loop<cosh_formula>(iter, "cosh_cuda"); }
void asinh_kernel_cuda(TensorIterator& iter) { float_unary_loop<asinh_formula>(iter, "asinh_cuda"); }
void acosh_kernel_cuda(TensorIterator& iter) { float_unary_loop<acosh_formula>(iter, "acosh_cuda"); }
void atanh_kernel_cuda(TensorIterator& iter) { float_unary_loop<atanh_formula>(iter, "atanh_cuda"); }
void erf_kernel_cuda(TensorIterator& iter) { float_unary_loop<erf_formula>(iter, "erf_cuda"); }
void erfc_kernel_cuda(TensorIterator& iter) { float_unary_loop<erfc_formula>(iter, "erfc_cuda"); }
void log2_kernel_cuda(TensorIterator& iter) { float_unary_loop<log2_formula>(iter, "log2_cuda"); }
void log10_kernel_cuda(TensorIterator& iter) { float_unary_loop<log10_formula>(iter, "log10_cuda"); }
void exp2_kernel_cuda(TensorIterator& iter) { float_unary_loop<exp2_formula>(iter, "exp2_cuda"); }
void deg2rad_kernel_cuda(TensorIterator& iter) { float_unary_loop<deg2rad_formula>(iter, "deg2rad_cuda"); }
void rad2deg_kernel_cuda(TensorIterator& iter) { float_unary_loop<rad2deg_formula>(iter, "rad2deg_cuda"); }
void angle_kernel_cuda(TensorIterator& iter) { float_unary_loop<angle_formula>(iter, "angle_cuda"); }
void frac_kernel_cuda(TensorIterator& iter) { float_unary_loop<frac_formula>(iter, "frac_cuda"); }

template <typename Formula>
void rounding_loop(TensorIterator& iter, const char* name) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(iter.common_dtype(), name, [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x) -> scalar_t { return round_with<Formula>(x); });
  });
}

void floor_kernel_cuda(TensorIterator& iter) { rounding_loop<floor_formula>(iter, "floor_cuda"); }
void ceil_kernel_cuda(TensorIterator& iter) { rounding_loop<ceil_formula>(iter, "ceil_cuda"); }
void round_kernel_cuda(TensorIterator& iter) { rounding_loop<round_formula>(iter, "round_cuda"); }
void trunc_kernel_cuda(TensorIterator& iter) { rounding_loop<trunc_formula>(iter, "trunc_cuda"); }

void sign_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), "sign_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x) -> scalar_t { return sign_of(x); });
  });
}

void bitwise_not_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_INTEGRAL_TYPES_AND_BOOL(iter.common_dtype(), "bitwise_not_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x) -> scalar_t { return bitwise_not_of(x); });
  });
}

template <typename Formula>
void predicate_loop(TensorIterator& iter, const char* name) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), name, [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x) -> bool { return float_predicate<Formula>(x); });
  });
}

void isnan_kernel_cuda(TensorIterator& iter) { predicate_loop<isnan_formula>(iter, "isnan_cuda"); }
void isfinite_kernel_cuda(TensorIterator& iter) { predicate_loop<isfinite_formula>(iter, "isfinite_cuda"); }
void isinf_kernel_cuda(TensorIterator& iter) { predicate_loop<isinf_formula>(iter, "isinf_cuda"); }
void signbit_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), "signbit_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x) -> bool { return sign_bit_of(x); });
  });
}

void nan_to_num_kernel_cuda(TensorIterator& iter, double nan, std::optional<double> posinf,
                            std::optional<double> neginf) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.dtype(0), "nan_to_num_cuda", [&] {
    if constexpr (c10::is_floating_v<scalar_t>) {
      using M = c10::opmath_t<scalar_t>;
      const scalar_t n = static_cast<scalar_t>(static_cast<M>(nan));
      const scalar_t p =
          posinf ? static_cast<scalar_t>(static_cast<M>(*posinf)) : std::numeric_limits<scalar_t>::max();
      const scalar_t m =
          neginf ? static_cast<scalar_t>(static_cast<M>(*neginf)) : std::numeric_limits<scalar_t>::lowest();
      gpu_kernel(iter, [n, p, m] GPU_LAMBDA(scalar_t x) -> scalar_t { return nan_to_num_of(x, n, p, m); });
    } else {
      gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x) -> scalar_t { return x; });
    }
  });
}

void logical_not_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), "logical_not_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x) -> bool { return logical_not_of(x); });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(neg_stub, &neg_kernel_cuda);
REGISTER_CUDA_DISPATCH(abs_stub, &abs_kernel_cuda);
REGISTER_CUDA_DISPATCH(relu_stub, &relu_kernel_cuda);
REGISTER_CUDA_DISPATCH(exp_stub, &exp_kernel_cuda);
REGISTER_CUDA_DISPATCH(log_stub, &log_kernel_cuda);
REGISTER_CUDA_DISPATCH(sqrt_stub, &sqrt_kernel_cuda);
REGISTER_CUDA_DISPATCH(reciprocal_stub, &reciprocal_kernel_cuda);
REGISTER_CUDA_DISPATCH(sigmoid_stub, &sigmoid_kernel_cuda);
REGISTER_CUDA_DISPATCH(tanh_stub, &tanh_kernel_cuda);
REGISTER_CUDA_DISPATCH(log1p_stub, &log1p_kernel_cuda);
REGISTER_CUDA_DISPATCH(expm1_stub, &expm1_kernel_cuda);
REGISTER_CUDA_DISPATCH(rsqrt_stub, &rsqrt_kernel_cuda);
REGISTER_CUDA_DISPATCH(sin_stub, &sin_kernel_cuda);
REGISTER_CUDA_DISPATCH(cos_stub, &cos_kernel_cuda);
REGISTER_CUDA_DISPATCH(gelu_stub, &gelu_kernel_cuda);
REGISTER_CUDA_DISPATCH(gelu_tanh_stub, &gelu_tanh_kernel_cuda);
REGISTER_CUDA_DISPATCH(sinc_stub, &sinc_kernel_cuda);
REGISTER_CUDA_DISPATCH(special_entr_stub, &special_entr_kernel_cuda);
REGISTER_CUDA_DISPATCH(lgamma_stub, &lgamma_kernel_cuda);
REGISTER_CUDA_DISPATCH(digamma_stub, &digamma_kernel_cuda);
REGISTER_CUDA_DISPATCH(erfinv_stub, &erfinv_kernel_cuda);
REGISTER_CUDA_DISPATCH(tan_stub, &tan_kernel_cuda);
REGISTER_CUDA_DISPATCH(asin_stub, &asin_kernel_cuda);
REGISTER_CUDA_DISPATCH(acos_stub, &acos_kernel_cuda);
REGISTER_CUDA_DISPATCH(atan_stub, &atan_kernel_cuda);
REGISTER_CUDA_DISPATCH(sinh_stub, &sinh_kernel_cuda);
REGISTER_CUDA_DISPATCH(cosh_stub, &cosh_kernel_cuda);
REGISTER_CUDA_DISPATCH(asinh_stub, &asinh_kernel_cuda);
REGISTER_CUDA_DISPATCH(acosh_stub, &acosh_kernel_cuda);
REGISTER_CUDA_DISPATCH(atanh_stub, &atanh_kernel_cuda);
REGISTER_CUDA_DISPATCH(erf_stub, &erf_kernel_cuda);
REGISTER_CUDA_DISPATCH(erfc_stub, &erfc_kernel_cuda);
REGISTER_CUDA_DISPATCH(log2_stub, &log2_kernel_cuda);
REGISTER_CUDA_DISPATCH(log10_stub, &log10_kernel_cuda);
REGISTER_CUDA_DISPATCH(exp2_stub, &exp2_kernel_cuda);
REGISTER_CUDA_DISPATCH(deg2rad_stub, &deg2rad_kernel_cuda);
REGISTER_CUDA_DISPATCH(rad2deg_stub, &rad2deg_kernel_cuda);
REGISTER_CUDA_DISPATCH(angle_stub, &angle_kernel_cuda);
REGISTER_CUDA_DISPATCH(frac_stub, &frac_kernel_cuda);
REGISTER_CUDA_DISPATCH(floor_stub, &floor_kernel_cuda);
REGISTER_CUDA_DISPATCH(ceil_stub, &ceil_kernel_cuda);
REGISTER_CUDA_DISPATCH(round_stub, &round_kernel_cuda);
REGISTER_CUDA_DISPATCH(trunc_stub, &trunc_kernel_cuda);
REGISTER_CUDA_DISPATCH(isnan_stub, &isnan_kernel_cuda);
REGISTER_CUDA_DISPATCH(nan_to_num_stub, &nan_to_num_kernel_cuda);
REGISTER_CUDA_DISPATCH(isfinite_stub, &isfinite_kernel_cuda);
REGISTER_CUDA_DISPATCH(isinf_stub, &isinf_kernel_cuda);
REGISTER_CUDA_DISPATCH(signbit_stub, &signbit_kernel_cuda);
REGISTER_CUDA_DISPATCH(sign_stub, &sign_kernel_cuda);
REGISTER_CUDA_DISPATCH(bitwise_not_stub, &bitwise_not_kernel_cuda);
REGISTER_CUDA_DISPATCH(logical_not_stub, &logical_not_kernel_cuda);

}  // namespace at::native
