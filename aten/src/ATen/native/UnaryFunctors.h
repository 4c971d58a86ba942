#pragma once
// The scalar math of the unary pointwise ops, shared by the CPU kernels
// (native/cpu/UnaryOpsKernel.cpp) and the CUDA ones
// (native/cuda/UnaryOpsKernel.cu). The X-macro lists give each op's formula
// once; each device's kernel file expands them with its own loop.
#include <c10/macros/Macros.h>
#include <c10/util/Half.h>

#include <cmath>
#include <type_traits>

// _(name, expression of `x`, the input widened to M = opmath_t<scalar_t>):
// ops computed in floating point (integer inputs were promoted).
#define AT_FOR_EACH_FLOAT_UNARY_OP(_)                                                             \
  _(exp, std::exp(x))                                                                             \
  _(log, std::log(x))                                                                             \
  _(sqrt, std::sqrt(x))                                                                           \
  _(reciprocal, M(1) / x)                                                                         \
  _(sigmoid, M(1) / (M(1) + std::exp(-x)))                                                        \
  _(tanh, std::tanh(x))                                                                           \
  _(log1p, std::log1p(x))                                                                         \
  _(expm1, std::expm1(x))                                                                         \
  _(rsqrt, M(1) / std::sqrt(x))                                                                   \
  _(sin, std::sin(x))                                                                             \
  _(cos, std::cos(x))                                                                             \
  /* 0.5 x (1 + erf(x / sqrt 2)) and its tanh approximation, as PyTorch's GELU. */                \
  _(gelu, M(0.5) * x * (M(1) + std::erf(x * M(0.70710678118654752440))))                          \
  _(gelu_tanh, M(0.5) * x * (M(1) + std::tanh(M(0.7978845608028654) * (x + M(0.044715) * x * x * x))))

// _(name, functor): rounding ops; round_with<functor>(x) is the identity on
// integers (PyTorch returns a copy).
#define AT_FOR_EACH_ROUNDING_OP(_) \
  _(floor, FloorOp)                \
  _(ceil, CeilOp)                  \
  _(round, RoundOp)                \
  _(trunc, TruncOp)

// _(name, functor): bool results; float_predicate<functor>(x) gives the
// functor's `for_integers` answer for integer and bool inputs.
#define AT_FOR_EACH_FLOAT_PREDICATE(_) \
  _(isnan, IsNanOp)                    \
  _(isfinite, IsFiniteOp)              \
  _(isinf, IsInfOp)

namespace at::native {

#define AT_FLOAT_FUNCTOR_(Name, result, expr)                                      \
  struct Name {                                                                   \
    template <typename M> C10_HOST_DEVICE result operator()(M v) const { return expr; } \
  };
AT_FLOAT_FUNCTOR_(FloorOp, M, std::floor(v))
AT_FLOAT_FUNCTOR_(CeilOp, M, std::ceil(v))
AT_FLOAT_FUNCTOR_(RoundOp, M, std::nearbyint(v))  // half to even, like torch.round
AT_FLOAT_FUNCTOR_(TruncOp, M, std::trunc(v))
#undef AT_FLOAT_FUNCTOR_

struct IsNanOp {
  static constexpr bool for_integers = false;
  template <typename M> C10_HOST_DEVICE bool operator()(M v) const { return std::isnan(v); }
};
struct IsFiniteOp {
  static constexpr bool for_integers = true;
  template <typename M> C10_HOST_DEVICE bool operator()(M v) const { return std::isfinite(v); }
};
struct IsInfOp {
  static constexpr bool for_integers = false;
  template <typename M> C10_HOST_DEVICE bool operator()(M v) const { return std::isinf(v); }
};

template <typename Op, typename T>
C10_HOST_DEVICE T round_with(T x) {
  if constexpr (c10::is_floating_v<T>) {
    return Op{}(static_cast<c10::opmath_t<T>>(x));
  } else {
    return x;
  }
}

template <typename Op, typename T>
C10_HOST_DEVICE bool float_predicate(T x) {
  if constexpr (c10::is_floating_v<T>) {
    return Op{}(static_cast<c10::opmath_t<T>>(x));
  } else {
    (void)x;
    return Op::for_integers;
  }
}

template <typename T>
C10_HOST_DEVICE T abs_value(T x) {
  if constexpr (std::is_unsigned_v<T> || std::is_same_v<T, bool>) {
    return x;
  } else {
    const c10::opmath_t<T> v = x;
    return v < 0 ? -v : v;
  }
}

// NaN propagates, as in PyTorch: NaN < 0 is false, so x itself comes back.
template <typename T>
C10_HOST_DEVICE T relu_of(T x) {
  return x < T(0) ? T(0) : x;
}

template <typename T>
C10_HOST_DEVICE T sign_of(T x) {
  if constexpr (std::is_same_v<T, bool>) {
    return x;
  } else {
    using M = c10::opmath_t<T>;
    const M v = x;
    return static_cast<M>((M(0) < v) - (v < M(0)));
  }
}

template <typename T>
C10_HOST_DEVICE T bitwise_not_of(T x) {
  if constexpr (std::is_same_v<T, bool>) {
    return !x;
  } else if constexpr (c10::is_floating_v<T>) {
    return x;  // rejected before dispatch
  } else {
    return static_cast<T>(~x);
  }
}

template <typename T>
C10_HOST_DEVICE bool logical_not_of(T x) {
  return !static_cast<bool>(static_cast<c10::opmath_t<T>>(x));
}

// copy_'s conversion between dtypes: to bool means "is not zero".
template <typename dst_t, typename src_t>
C10_HOST_DEVICE dst_t convert(src_t v) {
  if constexpr (std::is_same_v<dst_t, bool>) {
    return static_cast<c10::opmath_t<src_t>>(v) != c10::opmath_t<src_t>(0);
  } else if constexpr (std::is_same_v<src_t, c10::Half> || std::is_same_v<src_t, c10::BFloat16>) {
    return static_cast<dst_t>(static_cast<float>(v));
  } else {
    return static_cast<dst_t>(v);
  }
}

}  // namespace at::native
