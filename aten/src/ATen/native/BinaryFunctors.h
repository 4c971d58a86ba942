#pragma once
// The scalar math of the binary pointwise ops, shared by the CPU kernels
// (native/cpu/BinaryOpsKernel.cpp) and the CUDA ones
// (native/cuda/BinaryOpsKernel.cu): compiled for host and device, so the
// CPU tests check the arithmetic both run.
#include <ATen/native/SpecialFunctions.h>
#include <c10/macros/Macros.h>
#include <c10/util/Exception.h>
#include <c10/util/Half.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace at::native {

// <op>_formula()(x, y): the comparisons and logical ops, on the operands
// widened to opmath_t; bool results. Each device's kernel file has one line
// per op that runs it in that device's loop.
#define AT_BINARY_PREDICATE_FORMULA(op, expr)                                        \
  struct op##_formula {                                                              \
    template <typename M> C10_HOST_DEVICE bool operator()(M x, M y) const { return expr; } \
  };
AT_BINARY_PREDICATE_FORMULA(eq, x == y)
AT_BINARY_PREDICATE_FORMULA(ne, x != y)
AT_BINARY_PREDICATE_FORMULA(lt, x < y)
AT_BINARY_PREDICATE_FORMULA(le, x <= y)
AT_BINARY_PREDICATE_FORMULA(gt, x > y)
AT_BINARY_PREDICATE_FORMULA(ge, x >= y)
// & and | rather than && and ||: both sides are evaluated anyway, and without
// the short circuit's branch the compiler keeps a float64 loop in vector lanes.
AT_BINARY_PREDICATE_FORMULA(logical_and, (x != M(0)) & (y != M(0)))
AT_BINARY_PREDICATE_FORMULA(logical_or, (x != M(0)) | (y != M(0)))
AT_BINARY_PREDICATE_FORMULA(logical_xor, (x != M(0)) != (y != M(0)))
#undef AT_BINARY_PREDICATE_FORMULA

template <typename Formula, typename T>
C10_HOST_DEVICE bool apply_predicate(T x, T y) {
  return Formula{}(static_cast<c10::opmath_t<T>>(x), static_cast<c10::opmath_t<T>>(y));
}

// -x in two's complement, wrapping at the type's minimum (INT_MIN / -1 would
// trap the CPU with SIGFPE; PyTorch's floor division gives INT_MIN).
template <typename T>
C10_HOST_DEVICE T wrapping_negate(T x) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(U(0) - static_cast<U>(x));
}

// Integer division by zero: a Python ZeroDivisionError on the CPU. A GPU
// thread cannot raise; its result is unspecified there, as in PyTorch.
C10_HOST_DEVICE inline void zero_division() {
#if !defined(__CUDA_ARCH__)
  TORCH_CHECK(false, "ZeroDivisionError");
#endif
}

// For bool, * is "and" (PyTorch's bool mul); spelled out to stay a bool.
template <typename T>
C10_HOST_DEVICE T multiply(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a && b;
  } else {
    return a * b;
  }
}

template <typename T>
C10_HOST_DEVICE T trunc_divide(T x, T y) {
  if constexpr (c10::is_floating_v<T>) {
    // The quotient rounds to T first, as PyTorch's kernels divide in T:
    // bfloat16 -22.98 is -23 before it is truncated.
    using M = c10::opmath_t<T>;
    return std::trunc(M(T(M(x) / M(y))));
  } else {
    if (y == 0) {
      zero_division();
      return T(0);
    }
    if constexpr (std::is_signed_v<T> && !std::is_same_v<T, bool>) {
      if (y == -1) return wrapping_negate(x);
    }
    return x / y;
  }
}

// Python's floor division, computed as numpy does for floats so that
// results agree at the edges (x / y rounding up to an integer).
template <typename T>
C10_HOST_DEVICE T floor_divide(T x_, T y_) {
  if constexpr (!c10::is_floating_v<T>) {
    const T x = x_, y = y_;
    if (y == 0) {
      zero_division();
      return T(0);
    }
    if constexpr (std::is_signed_v<T>) {
      if (y == -1) return wrapping_negate(x);
      const T q = x / y;
      return (x % y != 0 && ((x < 0) != (y < 0))) ? q - 1 : q;
    } else {
      return x / y;
    }
  } else {
    using M = c10::opmath_t<T>;
    const M x = x_, y = y_;
    if (y == 0) return x / y;
    const M mod = std::fmod(x, y);
    M div = (x - mod) / y;
    if (mod != 0 && ((y < 0) != (mod < 0))) div -= 1;
    if (div == 0) return std::copysign(M(0), x / y);
    M floordiv = std::floor(div);
    if (div - floordiv > M(0.5)) floordiv += 1;
    return floordiv;
  }
}

// Integer powers by squaring; a negative exponent gives 1 / base^-exp
// truncated, as PyTorch does.
template <typename T>
C10_HOST_DEVICE T power(T base, T exp) {
  if constexpr (c10::is_floating_v<T>) {
    using M = c10::opmath_t<T>;
    return std::pow(M(base), M(exp));
  } else {
    if constexpr (std::is_signed_v<T>) {
      if (exp < 0) {
        if (base == 1) return 1;
        if (base == -1) return (exp % 2 == 0) ? 1 : -1;
        return 0;
      }
    }
    T result = 1;
    while (exp) {
      if (exp & 1) result *= base;
      exp >>= 1;
      base *= base;
    }
    return result;
  }
}

// Python's modulo: the result takes the divisor's sign.
template <typename T>
C10_HOST_DEVICE T remainder_of(T x, T y) {
  if constexpr (c10::is_floating_v<T>) {
    using M = c10::opmath_t<T>;
    const M a = x, b = y;
    M r = std::fmod(a, b);
    if (r != 0 && ((r < 0) != (b < 0))) r += b;
    return r;
  } else if constexpr (std::is_same_v<T, bool>) {
    (void)y;
    return x;
  } else {
    if (y == 0) {
      zero_division();
      return T(0);
    }
    if constexpr (std::is_signed_v<T>) {
      if (y == -1) return T(0);  // INT_MIN % -1 traps the CPU; every x % -1 is 0
    }
    T r = x % y;
    if constexpr (std::is_signed_v<T>) {
      if (r != 0 && ((r < 0) != (y < 0))) r += y;
    }
    return r;
  }
}

// NaN wins, as in PyTorch's minimum/maximum.
template <typename T, bool Max>
C10_HOST_DEVICE T extremum(T x, T y) {
  using M = c10::opmath_t<T>;
  const M a = x, b = y;
  if constexpr (c10::is_floating_v<T>) {
    if (std::isnan(a) || std::isnan(b)) return std::numeric_limits<M>::quiet_NaN();
  }
  if constexpr (Max) {
    return a < b ? y : x;
  } else {
    return b < a ? y : x;
  }
}

// clamp: min(max(x, lo), hi), so hi wins when lo > hi; a NaN anywhere gives
// NaN, as in PyTorch. A missing bound is the dtype's lowest or highest value.
template <typename T>
C10_HOST_DEVICE T clamp_value(T x, T lo, T hi) {
  using M = c10::opmath_t<T>;
  const M a = x, l = lo, h = hi;
  if constexpr (c10::is_floating_v<T>) {
    if (std::isnan(a)) return x;
    if (std::isnan(l)) return lo;
    if (std::isnan(h)) return hi;
  }
  const M up = a < l ? l : a;
  return static_cast<T>(up > h ? h : up);
}

// Bitwise ops exist for integers and bool (where they are the logical ones);
// floats are rejected before dispatch.
struct BitAnd {
  template <typename T> C10_HOST_DEVICE T operator()(T x, T y) const { return x & y; }
};
struct BitOr {
  template <typename T> C10_HOST_DEVICE T operator()(T x, T y) const { return x | y; }
};
struct BitXor {
  template <typename T> C10_HOST_DEVICE T operator()(T x, T y) const { return x ^ y; }
};

template <typename T, typename Op>
C10_HOST_DEVICE T bitwise(T x, T y, Op op) {
  if constexpr (c10::is_floating_v<T>) {
    return x;
  } else {
    return static_cast<T>(op(x, y));
  }
}

// Shifts as PyTorch defines them past the type's width: a shift left by a
// negative amount or by the width or more gives 0; a shift right by such an
// amount fills with the sign (-1 or 0). The left shift runs on the unsigned
// bits, so overflow wraps.
// Written with masks, neither branches nor selects, so that the loops
// vectorise at -O2 (x << 2 took 2.4x PyTorch's time with a branch); the
// amount is masked into range first, so no C++ shift is ever undefined.
template <typename T>
C10_HOST_DEVICE T shift_left(T a, T b) {
  constexpr int64_t kBits = sizeof(T) * 8;
  using U = std::make_unsigned_t<T>;
  const bool in_range = !(std::is_signed_v<T> && b < 0) && static_cast<int64_t>(b) < kBits;
  const U keep = U(0) - static_cast<U>(in_range);  // all ones in range, else 0
  return static_cast<T>(static_cast<U>(static_cast<U>(a) << (static_cast<U>(b) & (kBits - 1))) & keep);
}

template <typename T>
C10_HOST_DEVICE T shift_right(T a, T b) {
  constexpr int64_t kBits = sizeof(T) * 8;
  using U = std::make_unsigned_t<T>;
  const bool in_range = !(std::is_signed_v<T> && b < 0) && static_cast<int64_t>(b) < kBits;
  const U keep = U(0) - static_cast<U>(in_range);
  // Past the width a signed type shifts by width - 1 (the sign fill, -1 or
  // 0); an unsigned one gives 0.
  const T amount = static_cast<T>((static_cast<U>(b) & keep) | (static_cast<U>(kBits - 1) & ~keep));
  const T shifted = static_cast<T>(a >> amount);
  if constexpr (std::is_signed_v<T>) return shifted;
  return static_cast<T>(static_cast<U>(shifted) & keep);
}

// Euclid's algorithm on |a| and |b|, PyTorch's: the minimum of a signed
// type keeps its sign (gcd(-2**63, 6) is -2). x % -1 is 0, written out
// because the CPU traps on INT_MIN % -1.
template <typename T>
C10_HOST_DEVICE T gcd_of(T a_in, T b_in) {
  T a = a_in, b = b_in;
  if constexpr (std::is_signed_v<T>) {
    a = a < 0 ? wrapping_negate(a) : a;
    b = b < 0 ? wrapping_negate(b) : b;
  }
  while (a != 0) {
    const T c = a;
    a = (std::is_signed_v<T> && a == T(-1)) ? T(0) : static_cast<T>(b % a);
    b = c;
  }
  return b;
}

// |a / g * b| in C++'s promoted arithmetic (int for the small types), cast
// back to T after the absolute value, as PyTorch computes it: lcm(4, 127)
// in int8 is |508| = 508, which wraps to -4.
template <typename T>
C10_HOST_DEVICE T lcm_of(T a, T b) {
  const T g = gcd_of(a, b);
  if (g == 0) return T(0);
  using W = decltype(a / g * b);
  const W q = (std::is_signed_v<W> && g == T(-1)) ? wrapping_negate(static_cast<W>(a)) : static_cast<W>(a / g);
  const W m = static_cast<W>(q * static_cast<W>(b));
  if constexpr (std::is_signed_v<W>) return static_cast<T>(m < 0 ? wrapping_negate(m) : m);
  return static_cast<T>(m);
}

// a + alpha * b, with alpha in opmath_t<T>: float16/bfloat16 compute in
// float and round once, as PyTorch's kernels do (rounding alpha * b to
// bfloat16 first loses the difference of two close values).
template <typename T, typename M>
C10_HOST_DEVICE T add_scaled(T x, T y, M alpha) {
  if constexpr (std::is_same_v<T, M>) {
    return x + multiply(alpha, y);
  } else {
    return T(M(x) + alpha * M(y));
  }
}

// gelu's derivative times the incoming gradient, in one pass (the backward
// of gelu): d/dx [x Phi(x)] = Phi(x) + x phi(x), or the tanh form's.
template <typename T>
C10_HOST_DEVICE T gelu_grad(T g_, T x_, bool tanh_form) {
  using M = c10::opmath_t<T>;
  const M g = g_, x = x_;
  if (tanh_form) {
    const M k = M(0.7978845608028654), c = M(0.044715);
    const M t = std::tanh(k * (x + c * x * x * x));
    const M dinner = k * (M(1) + M(3) * c * x * x);
    return g * (M(0.5) * (M(1) + t) + M(0.5) * x * (M(1) - t * t) * dinner);
  }
  const M cdf = M(0.5) * (M(1) + std::erf(x * M(0.70710678118654752440)));
  const M pdf = std::exp(M(-0.5) * x * x) * M(0.39894228040143267794);
  return g * (cdf + x * pdf);
}


// ---- fmod, hypot, copysign, fmax/fmin, logaddexp(2), xlogy, nextafter, heaviside ----
// C's fmod: the result takes the dividend's sign (remainder_of takes the divisor's).
template <typename T>
C10_HOST_DEVICE T fmod_of(T x, T y) {
  if constexpr (c10::is_floating_v<T>) {
    using M = c10::opmath_t<T>;
    return std::fmod(M(x), M(y));
  } else {
    if (y == 0) {
      zero_division();
      return T(0);
    }
    if constexpr (std::is_signed_v<T>) {
      if (y == -1) return T(0);  // INT_MIN % -1 traps the CPU
    }
    return x % y;
  }
}

template <typename T>
C10_HOST_DEVICE T hypot_of(T x, T y) {
  using M = c10::opmath_t<T>;
  return std::hypot(M(x), M(y));
}

template <typename T>
C10_HOST_DEVICE T copysign_of(T x, T y) {
  using M = c10::opmath_t<T>;
  return std::copysign(M(x), M(y));
}

// NaN loses, as numpy's fmax/fmin: the other operand comes back.
template <typename T, bool Max>
C10_HOST_DEVICE T fextremum(T x, T y) {
  using M = c10::opmath_t<T>;
  const M a = x, b = y;
  if constexpr (c10::is_floating_v<T>) {
    if (std::isnan(a)) return y;
    if (std::isnan(b)) return x;
  }
  return Max ? (a < b ? y : x) : (b < a ? y : x);
}

// log(e^x + e^y) (Base2: log2(2^x + 2^y)) without overflow; equal infinities give themselves.
template <bool Base2, typename T>
C10_HOST_DEVICE T logaddexp_of(T x, T y) {
  using M = c10::opmath_t<T>;
  const M a = x, b = y;
  if (std::isinf(a) && a == b) return a;
  const M m = a < b ? b : a, d = -(a < b ? b - a : a - b);
  if constexpr (Base2) {
    return m + std::log1p(std::exp2(d)) * M(1.4426950408889634);
  } else {
    return m + std::log1p(std::exp(d));
  }
}

// x * log(y), 0 where x is 0 (unless y is NaN).
template <typename T>
C10_HOST_DEVICE T xlogy_of(T x, T y) {
  using M = c10::opmath_t<T>;
  const M a = x, b = y;
  if (std::isnan(b)) return b;
  if (a == 0) return M(0);
  return a * std::log(b);
}

// float16/bfloat16 step through their own bit patterns (sign and magnitude).
template <typename T>
C10_HOST_DEVICE T nextafter_of(T x, T y) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    // On the bits, as the half types below: libm's nextafter is a call per
    // element that the loop cannot vectorise.
    using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
    if (x != x || y != y) return x + y;
    if (x == y) return y;
    U bits;
    if (x == T(0)) {
      const U sign = y > T(0) ? U(0) : (U(1) << (sizeof(U) * 8 - 1));
      bits = sign | U(1);  // the smallest subnormal toward y
    } else {
      std::memcpy(&bits, &x, sizeof bits);
      bits = ((x < y) == (x > T(0))) ? bits + 1 : bits - 1;
    }
    T out;
    std::memcpy(&out, &bits, sizeof out);
    return out;
  } else {
    const float a = x, b = y;
    if (std::isnan(a) || std::isnan(b)) return T(a + b);
    if (a == b) return y;
    if (a == 0.0f) return T::from_bits(static_cast<uint16_t>((b > 0 ? 0x0000 : 0x8000) | 1));
    const bool away_from_zero = (a < b) == (a > 0.0f);
    return T::from_bits(static_cast<uint16_t>(away_from_zero ? x.x + 1 : x.x - 1));
  }
}

template <typename T>
C10_HOST_DEVICE T heaviside_of(T x, T y) {
  if constexpr (std::is_same_v<T, bool>) {
    return x ? true : y;
  } else {
    return x == T(0) ? y : static_cast<T>(x > T(0));
  }
}


// In double whatever the type: near the poles float arithmetic loses the digits.
template <typename T>
C10_HOST_DEVICE T zeta_of(T s, T q) {
  return static_cast<T>(special::zeta(static_cast<double>(s), static_cast<double>(q)));
}


template <typename T>
C10_HOST_DEVICE T atan2_of(T y, T x) {
  using M = c10::opmath_t<T>;
  return std::atan2(M(y), M(x));
}

}  // namespace at::native
