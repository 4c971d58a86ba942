// CPU loops of the unary pointwise ops; the scalar math is in
// native/UnaryFunctors.h, shared with the CUDA kernels.
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/native/UnaryFunctors.h>
#include <ATen/native/UnaryOps.h>
#include <ATen/native/cpu/Loops.h>
#include <ATen/native/cpu/Select.h>
#include <ATen/native/cpu/VecMath.h>

#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

namespace at::native {
inline namespace CPU_CAPABILITY {
namespace {

// The shared formulas (native/UnaryFunctors.h) in the CPU loop, computed in
// float for float16/bfloat16. exp, log, log2, log1p, expm1, exp2, sin, cos,
// tan, sinh, cosh, atanh, atan, asin, acos, erfinv, erfc, sigmoid, tanh and gelu
// (both forms) get a
// vectorised float32 path below, and exp, log, log1p, expm1, exp2, sin, cos,
// atanh, lgamma and digamma a float64 one; these are their generic loops.
template <typename Formula>
void float_unary_loop(TensorIterator& iter, const char* name) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), name, [&] {
    cpu_kernel(iter, [](scalar_t x) -> scalar_t { return apply_formula<Formula>(x); });
  });
}

void exp_generic_kernel(TensorIterator& iter) { float_unary_loop<exp_formula>(iter, "exp"); }
void log_generic_kernel(TensorIterator& iter) { float_unary_loop<log_formula>(iter, "log"); }
void sqrt_kernel(TensorIterator& iter) { float_unary_loop<sqrt_formula>(iter, "sqrt"); }
void reciprocal_kernel(TensorIterator& iter) { float_unary_loop<reciprocal_formula>(iter, "reciprocal"); }
void sigmoid_generic_kernel(TensorIterator& iter) { float_unary_loop<sigmoid_formula>(iter, "sigmoid"); }
void tanh_generic_kernel(TensorIterator& iter) { float_unary_loop<tanh_formula>(iter, "tanh"); }
void log1p_generic_kernel(TensorIterator& iter) { float_unary_loop<log1p_formula>(iter, "log1p"); }
void expm1_generic_kernel(TensorIterator& iter) { float_unary_loop<expm1_formula>(iter, "expm1"); }
void rsqrt_kernel(TensorIterator& iter) { float_unary_loop<rsqrt_formula>(iter, "rsqrt"); }
void sin_generic_kernel(TensorIterator& iter) { float_unary_loop<sin_formula>(iter, "sin"); }
void cos_generic_kernel(TensorIterator& iter) { float_unary_loop<cos_formula>(iter, "cos"); }
void gelu_generic_kernel(TensorIterator& iter) { float_unary_loop<gelu_formula>(iter, "gelu"); }
void gelu_tanh_generic_kernel(TensorIterator& iter) { float_unary_loop<gelu_tanh_formula>(iter, "gelu_tanh"); }
void sinc_kernel(TensorIterator& iter) { float_unary_loop<sinc_formula>(iter, "sinc"); }
void special_entr_kernel(TensorIterator& iter) { float_unary_loop<special_entr_formula>(iter, "entr"); }
void lgamma_generic_kernel(TensorIterator& iter) { float_unary_loop<lgamma_formula>(iter, "lgamma"); }
void digamma_generic_kernel(TensorIterator& iter) { float_unary_loop<digamma_formula>(iter, "digamma"); }
void trigamma_kernel(TensorIterator& iter) { float_unary_loop<trigamma_formula>(iter, "polygamma"); }
void erfinv_generic_kernel(TensorIterator& iter) { float_unary_loop<erfinv_formula>(iter, "erfinv"); }
void tan_generic_kernel(TensorIterator& iter) { float_unary_loop<tan_formula>(iter, "tan"); }
void asin_generic_kernel(TensorIterator& iter) { float_unary_loop<asin_formula>(iter, "asin"); }
void acos_generic_kernel(TensorIterator& iter) { float_unary_loop<acos_formula>(iter, "acos"); }
void atan_generic_kernel(TensorIterator& iter) { float_unary_loop<atan_formula>(iter, "atan"); }
void sinh_generic_kernel(TensorIterator& iter) { float_unary_loop<sinh_formula>(iter, "sinh"); }
void cosh_generic_kernel(TensorIterator& iter) { float_unary_loop<cosh_formula>(iter, "cosh"); }
void asinh_kernel(TensorIterator& iter) { float_unary_loop<asinh_formula>(iter, "asinh"); }
void acosh_kernel(TensorIterator& iter) { float_unary_loop<acosh_formula>(iter, "acosh"); }
void atanh_generic_kernel(TensorIterator& iter) { float_unary_loop<atanh_formula>(iter, "atanh"); }
void erf_generic_kernel(TensorIterator& iter) { float_unary_loop<erf_formula>(iter, "erf"); }
void erfc_generic_kernel(TensorIterator& iter) { float_unary_loop<erfc_formula>(iter, "erfc"); }
void log2_generic_kernel(TensorIterator& iter) { float_unary_loop<log2_formula>(iter, "log2"); }
void log10_kernel(TensorIterator& iter) { float_unary_loop<log10_formula>(iter, "log10"); }
void exp2_generic_kernel(TensorIterator& iter) { float_unary_loop<exp2_formula>(iter, "exp2"); }
void deg2rad_kernel(TensorIterator& iter) { float_unary_loop<deg2rad_formula>(iter, "deg2rad"); }
void rad2deg_kernel(TensorIterator& iter) { float_unary_loop<rad2deg_formula>(iter, "rad2deg"); }
void angle_kernel(TensorIterator& iter) { float_unary_loop<angle_formula>(iter, "angle"); }
void frac_kernel(TensorIterator& iter) { float_unary_loop<frac_formula>(iter, "frac_cpu"); }

// Dense float32 goes through the vectorised loops of VecMath.
template <void (*Fast)(const float*, float*, int64_t), void (*Generic)(TensorIterator&)>
void float32_fast_path(TensorIterator& iter) {
  if (iter.common_dtype() != ScalarType::Float || !iter.is_contiguous() || iter.dtype(0) != ScalarType::Float) {
    Generic(iter);
    return;
  }
  iter.for_each([](char** data, const int64_t*, int64_t n, int64_t) {
    Fast(reinterpret_cast<const float*>(data[1]), reinterpret_cast<float*>(data[0]), n);
  });
}

// Dense float32 and float64 both: the float64 lanes of VecMathDouble.cpp.
template <void (*Fast)(const float*, float*, int64_t), void (*Fast64)(const double*, double*, int64_t),
          void (*Generic)(TensorIterator&)>
void float_fast_path(TensorIterator& iter) {
  if (iter.common_dtype() == ScalarType::Double && iter.is_contiguous() && iter.dtype(0) == ScalarType::Double) {
    iter.for_each([](char** data, const int64_t*, int64_t n, int64_t) {
      Fast64(reinterpret_cast<const double*>(data[1]), reinterpret_cast<double*>(data[0]), n);
    });
    return;
  }
  float32_fast_path<Fast, Generic>(iter);
}

void exp_kernel(TensorIterator& iter) {
  float_fast_path<&vec::exp, &vec::exp, &exp_generic_kernel>(iter);
}
void sigmoid_kernel(TensorIterator& iter) { float32_fast_path<&vec::sigmoid, &sigmoid_generic_kernel>(iter); }
void tanh_kernel(TensorIterator& iter) { float32_fast_path<&vec::tanh, &tanh_generic_kernel>(iter); }
void gelu_kernel(TensorIterator& iter) { float32_fast_path<&vec::gelu, &gelu_generic_kernel>(iter); }
void log_kernel(TensorIterator& iter) {
  float_fast_path<&vec::log, &vec::log, &log_generic_kernel>(iter);
}
void log1p_kernel(TensorIterator& iter) {
  float_fast_path<&vec::log1p, &vec::log1p, &log1p_generic_kernel>(iter);
}
void expm1_kernel(TensorIterator& iter) {
  float_fast_path<&vec::expm1, &vec::expm1, &expm1_generic_kernel>(iter);
}
void sin_kernel(TensorIterator& iter) {
  float_fast_path<&vec::sin, &vec::sin, &sin_generic_kernel>(iter);
}
void cos_kernel(TensorIterator& iter) {
  float_fast_path<&vec::cos, &vec::cos, &cos_generic_kernel>(iter);
}
void erf_kernel(TensorIterator& iter) { float32_fast_path<&vec::erf, &erf_generic_kernel>(iter); }
void erfc_kernel(TensorIterator& iter) { float32_fast_path<&vec::erfc, &erfc_generic_kernel>(iter); }
void tan_kernel(TensorIterator& iter) { float32_fast_path<&vec::tan, &tan_generic_kernel>(iter); }
void gelu_tanh_kernel(TensorIterator& iter) { float32_fast_path<&vec::gelu_tanh, &gelu_tanh_generic_kernel>(iter); }
void sinh_kernel(TensorIterator& iter) { float32_fast_path<&vec::sinh, &sinh_generic_kernel>(iter); }
void cosh_kernel(TensorIterator& iter) { float32_fast_path<&vec::cosh, &cosh_generic_kernel>(iter); }
void atanh_kernel(TensorIterator& iter) {
  float_fast_path<&vec::atanh, &vec::atanh, &atanh_generic_kernel>(iter);
}
void log2_kernel(TensorIterator& iter) { float32_fast_path<&vec::log2, &log2_generic_kernel>(iter); }
void exp2_kernel(TensorIterator& iter) {
  float_fast_path<&vec::exp2, &vec::exp2, &exp2_generic_kernel>(iter);
}
void atan_kernel(TensorIterator& iter) {
  float_fast_path<&vec::atan, &vec::atan, &atan_generic_kernel>(iter);
}
void asin_kernel(TensorIterator& iter) {
  float_fast_path<&vec::asin, &vec::asin, &asin_generic_kernel>(iter);
}
void acos_kernel(TensorIterator& iter) {
  float_fast_path<&vec::acos, &vec::acos, &acos_generic_kernel>(iter);
}
void erfinv_kernel(TensorIterator& iter) { float32_fast_path<&vec::erfinv, &erfinv_generic_kernel>(iter); }
void lgamma_kernel(TensorIterator& iter) { float_fast_path<&vec::lgamma, &vec::lgamma, &lgamma_generic_kernel>(iter); }
void digamma_kernel(TensorIterator& iter) {
  float_fast_path<&vec::digamma, &vec::digamma, &digamma_generic_kernel>(iter);
}

// Rounding ops: identity on integers (PyTorch returns a copy).
template <typename Formula>
void rounding_loop(TensorIterator& iter, const char* name) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(iter.common_dtype(), name, [&] {
    cpu_kernel(iter, [](scalar_t x) -> scalar_t { return round_with<Formula>(x); });
  });
}

void floor_kernel(TensorIterator& iter) { rounding_loop<floor_formula>(iter, "floor"); }
void ceil_kernel(TensorIterator& iter) { rounding_loop<ceil_formula>(iter, "ceil"); }
void round_kernel(TensorIterator& iter) { rounding_loop<round_formula>(iter, "round"); }
void trunc_kernel(TensorIterator& iter) { rounding_loop<trunc_formula>(iter, "trunc"); }

// Bool results: the input keeps its dtype, the output is bool.
template <typename Formula>
void predicate_loop(TensorIterator& iter, const char* name) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), name, [&] {
    cpu_kernel(iter, [](scalar_t x) -> bool { return float_predicate<Formula>(x); });
  });
}

void isnan_kernel(TensorIterator& iter) { predicate_loop<isnan_formula>(iter, "isnan"); }
void isfinite_kernel(TensorIterator& iter) { predicate_loop<isfinite_formula>(iter, "isfinite"); }
void isinf_kernel(TensorIterator& iter) { predicate_loop<isinf_formula>(iter, "isinf"); }
void signbit_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), "signbit", [&] {
    cpu_kernel(iter, [](scalar_t x) -> bool { return sign_bit_of(x); });
  });
}

void logical_not_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), "logical_not", [&] {
    cpu_kernel(iter, [](scalar_t x) -> bool { return logical_not_of(x); });
  });
}

// The replacements converted to the dtype as PyTorch converts them (a posinf
// beyond float16's range is inf there); three branch-free selects.
void nan_to_num_kernel(TensorIterator& iter, double nan, std::optional<double> posinf,
                       std::optional<double> neginf) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.dtype(0), "nan_to_num", [&] {
    if constexpr (c10::is_floating_v<scalar_t>) {
      using M = c10::opmath_t<scalar_t>;
      constexpr M inf = std::numeric_limits<M>::infinity();
      const scalar_t n = static_cast<scalar_t>(static_cast<M>(nan));
      const scalar_t p = posinf ? static_cast<scalar_t>(static_cast<M>(*posinf)) : std::numeric_limits<scalar_t>::max();
      const scalar_t m =
          neginf ? static_cast<scalar_t>(static_cast<M>(*neginf)) : std::numeric_limits<scalar_t>::lowest();
      cpu_kernel(iter, [=](scalar_t x) -> scalar_t {
        const M v = x;
        const scalar_t r = select_bits(v != v, n, x);
        return select_bits(v == -inf, m, select_bits(v == inf, p, r));
      });
    } else {
      cpu_kernel(iter, [](scalar_t x) -> scalar_t { return x; });
    }
  });
}

void frexp_kernel(const Tensor& self, const Tensor& mantissa, const Tensor& exponent) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(self.scalar_type(), "frexp_cpu", [&] {
    using M = c10::opmath_t<scalar_t>;
    const scalar_t* x = self.data_ptr<scalar_t>();
    scalar_t* m = mantissa.data_ptr<scalar_t>();
    int32_t* e = exponent.data_ptr<int32_t>();
    at::parallel_for(0, self.numel(), kGrainSize, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        // C leaves the exponent of an infinity or NaN unspecified (Windows'
        // runtime writes other values than glibc's 0): 0 here on every platform.
        const M v = static_cast<M>(x[i]);
        int ex = 0;
        const bool finite = std::isfinite(v);
        m[i] = finite ? static_cast<scalar_t>(std::frexp(v, &ex)) : x[i];
        e[i] = finite ? ex : 0;
      }
    });
  });
}

}  // namespace

REGISTER_CPU_DISPATCH(frexp_stub, &frexp_kernel);
REGISTER_CPU_DISPATCH(nan_to_num_stub, &nan_to_num_kernel);
REGISTER_CPU_DISPATCH(exp_stub, &exp_kernel);
REGISTER_CPU_DISPATCH(log_stub, &log_kernel);
REGISTER_CPU_DISPATCH(sqrt_stub, &sqrt_kernel);
REGISTER_CPU_DISPATCH(reciprocal_stub, &reciprocal_kernel);
REGISTER_CPU_DISPATCH(sigmoid_stub, &sigmoid_kernel);
REGISTER_CPU_DISPATCH(tanh_stub, &tanh_kernel);
REGISTER_CPU_DISPATCH(log1p_stub, &log1p_kernel);
REGISTER_CPU_DISPATCH(expm1_stub, &expm1_kernel);
REGISTER_CPU_DISPATCH(rsqrt_stub, &rsqrt_kernel);
REGISTER_CPU_DISPATCH(sin_stub, &sin_kernel);
REGISTER_CPU_DISPATCH(cos_stub, &cos_kernel);
REGISTER_CPU_DISPATCH(gelu_stub, &gelu_kernel);
REGISTER_CPU_DISPATCH(gelu_tanh_stub, &gelu_tanh_kernel);
REGISTER_CPU_DISPATCH(sinc_stub, &sinc_kernel);
REGISTER_CPU_DISPATCH(special_entr_stub, &special_entr_kernel);
REGISTER_CPU_DISPATCH(lgamma_stub, &lgamma_kernel);
REGISTER_CPU_DISPATCH(digamma_stub, &digamma_kernel);
REGISTER_CPU_DISPATCH(trigamma_stub, &trigamma_kernel);
REGISTER_CPU_DISPATCH(erfinv_stub, &erfinv_kernel);
REGISTER_CPU_DISPATCH(tan_stub, &tan_kernel);
REGISTER_CPU_DISPATCH(asin_stub, &asin_kernel);
REGISTER_CPU_DISPATCH(acos_stub, &acos_kernel);
REGISTER_CPU_DISPATCH(atan_stub, &atan_kernel);
REGISTER_CPU_DISPATCH(sinh_stub, &sinh_kernel);
REGISTER_CPU_DISPATCH(cosh_stub, &cosh_kernel);
REGISTER_CPU_DISPATCH(asinh_stub, &asinh_kernel);
REGISTER_CPU_DISPATCH(acosh_stub, &acosh_kernel);
REGISTER_CPU_DISPATCH(atanh_stub, &atanh_kernel);
REGISTER_CPU_DISPATCH(erf_stub, &erf_kernel);
REGISTER_CPU_DISPATCH(erfc_stub, &erfc_kernel);
REGISTER_CPU_DISPATCH(log2_stub, &log2_kernel);
REGISTER_CPU_DISPATCH(log10_stub, &log10_kernel);
REGISTER_CPU_DISPATCH(exp2_stub, &exp2_kernel);
REGISTER_CPU_DISPATCH(deg2rad_stub, &deg2rad_kernel);
REGISTER_CPU_DISPATCH(rad2deg_stub, &rad2deg_kernel);
REGISTER_CPU_DISPATCH(angle_stub, &angle_kernel);
REGISTER_CPU_DISPATCH(frac_stub, &frac_kernel);
REGISTER_CPU_DISPATCH(floor_stub, &floor_kernel);
REGISTER_CPU_DISPATCH(ceil_stub, &ceil_kernel);
REGISTER_CPU_DISPATCH(round_stub, &round_kernel);
REGISTER_CPU_DISPATCH(trunc_stub, &trunc_kernel);
REGISTER_CPU_DISPATCH(isnan_stub, &isnan_kernel);
REGISTER_CPU_DISPATCH(isfinite_stub, &isfinite_kernel);
REGISTER_CPU_DISPATCH(isinf_stub, &isinf_kernel);
REGISTER_CPU_DISPATCH(signbit_stub, &signbit_kernel);
REGISTER_CPU_DISPATCH(logical_not_stub, &logical_not_kernel);

}  // namespace CPU_CAPABILITY
}  // namespace at::native
