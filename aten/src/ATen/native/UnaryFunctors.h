#pragma once
// The scalar math of the unary pointwise ops, shared by the CPU kernels
// (native/cpu/UnaryOpsKernel.cpp) and the CUDA ones
// (native/cuda/UnaryOpsKernel.cu). Each op's formula is written once, as
// <op>_formula; each device's kernel file has one line per op that runs it
// in that device's loop (grep an op's name to find all three).
#include <c10/macros/Macros.h>
#include <c10/util/Half.h>
#include <ATen/native/SpecialFunctions.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace at::native {

// <op>_formula()(x): `x` is the input widened to M = opmath_t<scalar_t>;
// ops computed in floating point (integer inputs were promoted).
#define AT_UNARY_FORMULA(op, expr)                                                  \
  struct op##_formula {                                                             \
    template <typename M> C10_HOST_DEVICE M operator()(M x) const { return expr; } \
  };
AT_UNARY_FORMULA(exp, std::exp(x))
AT_UNARY_FORMULA(log, std::log(x))
AT_UNARY_FORMULA(sqrt, std::sqrt(x))
AT_UNARY_FORMULA(reciprocal, M(1) / x)
AT_UNARY_FORMULA(sigmoid, M(1) / (M(1) + std::exp(-x)))
AT_UNARY_FORMULA(tanh, std::tanh(x))
AT_UNARY_FORMULA(log1p, std::log1p(x))
AT_UNARY_FORMULA(expm1, std::expm1(x))
AT_UNARY_FORMULA(rsqrt, M(1) / std::sqrt(x))
AT_UNARY_FORMULA(sin, std::sin(x))
AT_UNARY_FORMULA(cos, std::cos(x))
// 0.5 x (1 + erf(x / sqrt 2)) and its tanh approximation, as PyTorch's GELU.
AT_UNARY_FORMULA(gelu, M(0.5) * x * (M(1) + std::erf(x * M(0.70710678118654752440))))
AT_UNARY_FORMULA(gelu_tanh, M(0.5) * x * (M(1) + std::tanh(M(0.7978845608028654) * (x + M(0.044715) * x * x * x))))
AT_UNARY_FORMULA(tan, std::tan(x))
AT_UNARY_FORMULA(asin, std::asin(x))
AT_UNARY_FORMULA(acos, std::acos(x))
AT_UNARY_FORMULA(atan, std::atan(x))
AT_UNARY_FORMULA(sinh, std::sinh(x))
AT_UNARY_FORMULA(cosh, std::cosh(x))
AT_UNARY_FORMULA(asinh, std::asinh(x))
AT_UNARY_FORMULA(acosh, std::acosh(x))
AT_UNARY_FORMULA(atanh, std::atanh(x))
AT_UNARY_FORMULA(erf, std::erf(x))
AT_UNARY_FORMULA(erfc, std::erfc(x))
// log2(+-0) is -inf, stated here rather than left to each platform's log2.
AT_UNARY_FORMULA(log2, x == M(0) ? -std::numeric_limits<M>::infinity() : std::log2(x))
AT_UNARY_FORMULA(log10, std::log10(x))
AT_UNARY_FORMULA(exp2, std::exp2(x))
AT_UNARY_FORMULA(deg2rad, x * M(0.017453292519943295))
// A real number's angle: pi below zero (not at -0), 0 otherwise, NaN kept.
AT_UNARY_FORMULA(angle, x != x ? x : (x < M(0) ? M(3.141592653589793) : M(0)))
AT_UNARY_FORMULA(rad2deg, x * M(57.29577951308232))
AT_UNARY_FORMULA(frac, x - std::trunc(x))
AT_UNARY_FORMULA(lgamma, std::lgamma(x))
// In double whatever the type: near its poles float arithmetic loses the digits.
AT_UNARY_FORMULA(digamma, static_cast<M>(special::digamma(static_cast<double>(x))))
AT_UNARY_FORMULA(trigamma, static_cast<M>(special::trigamma(x)))
AT_UNARY_FORMULA(erfinv, special::erfinv(x))
AT_UNARY_FORMULA(sinc, x == M(0) ? M(1) : std::sin(M(special::kPi) * x) / (M(special::kPi) * x))
// torch.special.entr: -x log x, 0 at 0, -inf below, NaN kept.
AT_UNARY_FORMULA(special_entr, x != x ? x
                                      : (x > M(0) ? -x * std::log(x)
                                                  : (x == M(0) ? M(0) : -std::numeric_limits<M>::infinity())))
#undef AT_UNARY_FORMULA

// The formula in the element type's arithmetic: float for float16/bfloat16.
template <typename Formula, typename T>
C10_HOST_DEVICE T apply_formula(T x) {
  return static_cast<T>(Formula{}(static_cast<c10::opmath_t<T>>(x)));
}

// Rounding ops (floor_formula, ...) are the identity on integers: round_with.
// Predicates (isnan_formula, ...) give their `for_integers` answer for
// integer and bool inputs: float_predicate.

struct floor_formula {
  template <typename M> C10_HOST_DEVICE M operator()(M v) const { return std::floor(v); }
};
struct ceil_formula {
  template <typename M> C10_HOST_DEVICE M operator()(M v) const { return std::ceil(v); }
};
struct round_formula {  // half to even, like torch.round
  template <typename M> C10_HOST_DEVICE M operator()(M v) const { return std::nearbyint(v); }
};
struct trunc_formula {
  template <typename M> C10_HOST_DEVICE M operator()(M v) const { return std::trunc(v); }
};

struct isnan_formula {
  static constexpr bool for_integers = false;
  template <typename M> C10_HOST_DEVICE bool operator()(M v) const { return std::isnan(v); }
};
struct isfinite_formula {
  static constexpr bool for_integers = true;
  template <typename M> C10_HOST_DEVICE bool operator()(M v) const { return std::isfinite(v); }
};
struct isinf_formula {
  static constexpr bool for_integers = false;
  template <typename M> C10_HOST_DEVICE bool operator()(M v) const { return std::isinf(v); }
};

// signbit: the sign bit of a float (set for -0.0 and negative NaN), x < 0
// for an integer, false for bool. The float's top bit read directly
// (GCC 12 crashes vectorising std::signbit of float at -O2).
template <typename T>
C10_HOST_DEVICE bool sign_bit_of(T x) {
  if constexpr (c10::is_floating_v<T>) {
    using Bits = std::conditional_t<sizeof(T) == 8, uint64_t, std::conditional_t<sizeof(T) == 4, uint32_t, uint16_t>>;
    Bits bits;
    memcpy(&bits, &x, sizeof bits);
    return (bits >> (8 * sizeof(T) - 1)) != 0;
  } else if constexpr (std::is_signed_v<T>) {
    return x < T(0);
  } else {
    (void)x;
    return false;
  }
}

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

// All ones for a negative signed integer, else zero: a logical shift and a
// negation, which SSE2 has for 64-bit lanes (a compare or an arithmetic
// shift it lacks). Integer kernels run the baseline copy (DispatchStub.h),
// so this keeps abs and relu of int64 vectorised there.
template <typename T>
C10_HOST_DEVICE std::make_unsigned_t<T> sign_mask(T x) {
  using U = std::make_unsigned_t<T>;
  return static_cast<U>(-static_cast<U>(static_cast<U>(x) >> (sizeof(T) * 8 - 1)));
}

template <typename T>
C10_HOST_DEVICE T abs_value(T x) {
  if constexpr (std::is_unsigned_v<T> || std::is_same_v<T, bool>) {
    return x;
  } else if constexpr (std::is_integral_v<T>) {
    // The most negative value wraps to itself, as in PyTorch.
    using U = std::make_unsigned_t<T>;
    const U sign = sign_mask(x);
    return static_cast<T>((static_cast<U>(x) ^ sign) - sign);
  } else {
    const c10::opmath_t<T> v = x;
    return v < 0 ? -v : v;
  }
}

// NaN propagates, as in PyTorch: NaN < 0 is false, so x itself comes back.
template <typename T>
C10_HOST_DEVICE T relu_of(T x) {
  if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(x) & ~sign_mask(x));
  } else {
    return x < T(0) ? T(0) : x;
  }
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

// nan_to_num of one element, the replacements in the element's type
// (integers and bool have nothing to replace).
template <typename T>
C10_HOST_DEVICE T nan_to_num_of(T x, T nan, T posinf, T neginf) {
  if constexpr (c10::is_floating_v<T>) {
    using M = c10::opmath_t<T>;
    const M v = x;
    constexpr M inf = std::numeric_limits<M>::infinity();
    return v != v ? nan : (v == inf ? posinf : (v == -inf ? neginf : x));
  } else {
    return x;
  }
}

// copy_'s conversion between dtypes: to bool means "is not zero".
template <typename dst_t, typename src_t>
C10_HOST_DEVICE dst_t convert(src_t v) {
  if constexpr (std::is_same_v<dst_t, bool>) {
    return static_cast<c10::opmath_t<src_t>>(v) != c10::opmath_t<src_t>(0);
  } else if constexpr (std::is_same_v<dst_t, uint8_t> && c10::is_floating_v<src_t>) {
    // Through int64, as c10's cast does: the direct cast of a negative or
    // large value is undefined (x86 truncates through int32: 3e9 + 1 gave 0).
    return static_cast<uint8_t>(static_cast<int64_t>(static_cast<c10::opmath_t<src_t>>(v)));
  } else if constexpr (std::is_same_v<src_t, c10::Half> || std::is_same_v<src_t, c10::BFloat16>) {
    return static_cast<dst_t>(static_cast<float>(v));
  } else {
    return static_cast<dst_t>(v);
  }
}

}  // namespace at::native
