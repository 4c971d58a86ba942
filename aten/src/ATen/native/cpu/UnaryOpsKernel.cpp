// CPU loops of the unary pointwise ops.
#include <ATen/Dispatch.h>
#include <ATen/native/UnaryOps.h>
#include <ATen/native/cpu/Loops.h>
#include <ATen/native/cpu/VecMath.h>

#include <cmath>
#include <type_traits>

namespace at::native {
namespace {

void neg_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES(iter.common_dtype(), "neg", [&] {
    cpu_kernel(iter, [](scalar_t x) -> scalar_t { return -x; });
  });
}

template <typename T>
T abs_value(T x) {
  if constexpr (std::is_unsigned_v<T> || std::is_same_v<T, bool>) {
    return x;
  } else {
    const c10::opmath_t<T> v = x;
    return v < 0 ? -v : v;
  }
}

void abs_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES_AND_BOOL(iter.common_dtype(), "abs", [&] {
    cpu_kernel(iter, [](scalar_t x) -> scalar_t { return abs_value(x); });
  });
}

void relu_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES(iter.common_dtype(), "relu", [&] {
    // NaN propagates, as in PyTorch: NaN > 0 is false but the ternary keeps x.
    cpu_kernel(iter, [](scalar_t x) -> scalar_t { return x < scalar_t(0) ? scalar_t(0) : x; });
  });
}

// Computed in float for float16/bfloat16 (x is the widened value).
#define FLOAT_UNARY_KERNEL(name, expr)                                      \
  void name##_kernel(TensorIterator& iter) {                                \
    AT_DISPATCH_FLOATING_TYPES(iter.common_dtype(), #name, [&] {            \
      cpu_kernel(iter, [](scalar_t x_) -> scalar_t {                        \
        const c10::opmath_t<scalar_t> x = x_;                               \
        return expr;                                                        \
      });                                                                   \
    });                                                                     \
  }

FLOAT_UNARY_KERNEL(exp_generic, std::exp(x))
FLOAT_UNARY_KERNEL(log, std::log(x))
FLOAT_UNARY_KERNEL(sqrt, std::sqrt(x))
FLOAT_UNARY_KERNEL(reciprocal, scalar_t(1) / x)
FLOAT_UNARY_KERNEL(sigmoid_generic, scalar_t(1) / (scalar_t(1) + std::exp(-x)))
FLOAT_UNARY_KERNEL(tanh, std::tanh(x))
FLOAT_UNARY_KERNEL(log1p, std::log1p(x))
FLOAT_UNARY_KERNEL(expm1, std::expm1(x))
FLOAT_UNARY_KERNEL(rsqrt, scalar_t(1) / std::sqrt(x))
FLOAT_UNARY_KERNEL(sin, std::sin(x))
FLOAT_UNARY_KERNEL(cos, std::cos(x))
// 0.5 x (1 + erf(x / sqrt 2)) and its tanh approximation, as PyTorch's GELU.
FLOAT_UNARY_KERNEL(gelu, 0.5f * x * (1.0f + std::erf(x * static_cast<c10::opmath_t<scalar_t>>(M_SQRT1_2))))
FLOAT_UNARY_KERNEL(gelu_tanh, 0.5f * x * (1.0f + std::tanh(static_cast<c10::opmath_t<scalar_t>>(0.7978845608028654) *
                                                          (x + 0.044715f * x * x * x))))

#undef FLOAT_UNARY_KERNEL

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

void exp_kernel(TensorIterator& iter) { float32_fast_path<&vec::exp, &exp_generic_kernel>(iter); }
void sigmoid_kernel(TensorIterator& iter) { float32_fast_path<&vec::sigmoid, &sigmoid_generic_kernel>(iter); }

// Rounding ops: identity on integers (PyTorch returns a copy).
#define ROUNDING_KERNEL(name, fn)                                                  \
  void name##_kernel(TensorIterator& iter) {                                       \
    AT_DISPATCH_ALL_TYPES(iter.common_dtype(), #name, [&] {                        \
      cpu_kernel(iter, [](scalar_t x) -> scalar_t {                                \
        if constexpr (c10::is_floating_v<scalar_t>) {                              \
          return fn(static_cast<c10::opmath_t<scalar_t>>(x));                      \
        } else {                                                                   \
          return x;                                                                \
        }                                                                          \
      });                                                                          \
    });                                                                            \
  }

ROUNDING_KERNEL(floor, std::floor)
ROUNDING_KERNEL(ceil, std::ceil)
ROUNDING_KERNEL(round, std::nearbyint)  // half to even, like torch.round
ROUNDING_KERNEL(trunc, std::trunc)

#undef ROUNDING_KERNEL

template <typename T>
T sign_of(T x) {
  if constexpr (std::is_same_v<T, bool>) {
    return x;
  } else {
    using M = c10::opmath_t<T>;
    const M v = x;
    return static_cast<M>((M(0) < v) - (v < M(0)));
  }
}

void sign_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES_AND_BOOL(iter.common_dtype(), "sign", [&] {
    cpu_kernel(iter, [](scalar_t x) -> scalar_t { return sign_of(x); });
  });
}

template <typename T>
T bitwise_not_of(T x) {
  if constexpr (std::is_same_v<T, bool>) {
    return !x;
  } else if constexpr (c10::is_floating_v<T>) {
    return x;  // rejected before dispatch
  } else {
    return static_cast<T>(~x);
  }
}

void bitwise_not_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES_AND_BOOL(iter.common_dtype(), "bitwise_not", [&] {
    cpu_kernel(iter, [](scalar_t x) -> scalar_t { return bitwise_not_of(x); });
  });
}

// Bool results: the input keeps its dtype, the output is bool.
#define PREDICATE_KERNEL(name, float_expr, int_value)                              \
  void name##_kernel(TensorIterator& iter) {                                       \
    AT_DISPATCH_ALL_TYPES_AND_BOOL(iter.common_dtype(), #name, [&] {               \
      cpu_kernel(iter, [](scalar_t x) -> bool {                                    \
        if constexpr (c10::is_floating_v<scalar_t>) {                              \
          const c10::opmath_t<scalar_t> v = x;                                     \
          return float_expr;                                                       \
        } else {                                                                   \
          (void)x;                                                                 \
          return int_value;                                                        \
        }                                                                          \
      });                                                                          \
    });                                                                            \
  }

PREDICATE_KERNEL(isnan, std::isnan(v), false)
PREDICATE_KERNEL(isfinite, std::isfinite(v), true)
PREDICATE_KERNEL(isinf, std::isinf(v), false)

#undef PREDICATE_KERNEL

void logical_not_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES_AND_BOOL(iter.common_dtype(), "logical_not", [&] {
    cpu_kernel(iter, [](scalar_t x) -> bool { return !static_cast<bool>(static_cast<c10::opmath_t<scalar_t>>(x)); });
  });
}

}  // namespace

REGISTER_CPU_DISPATCH(neg_stub, &neg_kernel);
REGISTER_CPU_DISPATCH(abs_stub, &abs_kernel);
REGISTER_CPU_DISPATCH(relu_stub, &relu_kernel);
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
REGISTER_CPU_DISPATCH(sign_stub, &sign_kernel);
REGISTER_CPU_DISPATCH(floor_stub, &floor_kernel);
REGISTER_CPU_DISPATCH(ceil_stub, &ceil_kernel);
REGISTER_CPU_DISPATCH(round_stub, &round_kernel);
REGISTER_CPU_DISPATCH(trunc_stub, &trunc_kernel);
REGISTER_CPU_DISPATCH(bitwise_not_stub, &bitwise_not_kernel);
REGISTER_CPU_DISPATCH(isnan_stub, &isnan_kernel);
REGISTER_CPU_DISPATCH(isfinite_stub, &isfinite_kernel);
REGISTER_CPU_DISPATCH(isinf_stub, &isinf_kernel);
REGISTER_CPU_DISPATCH(logical_not_stub, &logical_not_kernel);

}  // namespace at::native
