// CPU loops of the binary pointwise ops. Operands arrive in one dtype
// (TensorIterator promoted them), so each kernel is one dispatch.
#include <ATen/Dispatch.h>
#include <ATen/native/BinaryOps.h>
#include <ATen/native/cpu/Loops.h>

#include <cmath>
#include <functional>
#include <limits>
#include <type_traits>

namespace at::native {
namespace {

// For bool, * is "and" (PyTorch's bool mul); spelled out to stay a bool.
template <typename T>
T multiply(T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    return a && b;
  } else {
    return a * b;
  }
}

void add_kernel(TensorIterator& iter, const Scalar& alpha) {
  AT_DISPATCH_ALL_TYPES_AND_BOOL(iter.common_dtype(), "add", [&] {
    const scalar_t a = std::is_same_v<scalar_t, bool> ? scalar_t(alpha.toBool()) : alpha.to<scalar_t>();
    if (a == scalar_t(1)) {
      cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return x + y; });
    } else {
      cpu_kernel(iter, [a](scalar_t x, scalar_t y) -> scalar_t { return x + multiply(a, y); });
    }
  });
}

void mul_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES_AND_BOOL(iter.common_dtype(), "mul", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return multiply(x, y); });
  });
}

void div_true_kernel(TensorIterator& iter) {
  AT_DISPATCH_FLOATING_TYPES(iter.common_dtype(), "div_true", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return x / y; });
  });
}

[[noreturn]] void zero_division() { TORCH_CHECK(false, "ZeroDivisionError"); }

template <typename T>
T trunc_divide(T x, T y) {
  if constexpr (c10::is_floating_v<T>) {
    using M = c10::opmath_t<T>;
    return std::trunc(M(x) / M(y));
  } else {
    if (y == 0) zero_division();
    return x / y;
  }
}

void div_trunc_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES(iter.common_dtype(), "div_trunc", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return trunc_divide(x, y); });
  });
}

// Python's floor division, computed as numpy does for floats so that
// results agree at the edges (x / y rounding up to an integer).
template <typename T>
T floor_divide(T x_, T y_) {
  if constexpr (!c10::is_floating_v<T>) {
    const T x = x_, y = y_;
    if (y == 0) zero_division();
    if constexpr (std::is_signed_v<T>) {
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

void div_floor_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES(iter.common_dtype(), "div_floor", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return floor_divide(x, y); });
  });
}

// Integer powers by squaring; a negative exponent gives 1 / base^-exp
// truncated, as PyTorch does.
template <typename T>
T power(T base, T exp) {
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

void pow_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES(iter.common_dtype(), "pow", [&] {
    const bool squared = iter.is_scalar(2) && c10::is_floating_v<scalar_t> &&
                         *static_cast<const scalar_t*>(iter.input(1).data_ptr()) == scalar_t(2);
    if (squared) {
      cpu_kernel(iter, [](scalar_t b, scalar_t) -> scalar_t { return b * b; });
    } else {
      cpu_kernel(iter, [](scalar_t b, scalar_t e) -> scalar_t { return power(b, e); });
    }
  });
}

// Python's modulo: the result takes the divisor's sign.
template <typename T>
T remainder_of(T x, T y) {
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
    if (y == 0) zero_division();
    T r = x % y;
    if constexpr (std::is_signed_v<T>) {
      if (r != 0 && ((r < 0) != (y < 0))) r += y;
    }
    return r;
  }
}

void remainder_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES(iter.common_dtype(), "remainder", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return remainder_of(x, y); });
  });
}

// NaN wins, as in PyTorch's minimum/maximum.
template <typename T, bool Max>
T extremum(T x, T y) {
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

void minimum_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES_AND_BOOL(iter.common_dtype(), "minimum", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return extremum<scalar_t, false>(x, y); });
  });
}

void maximum_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES_AND_BOOL(iter.common_dtype(), "maximum", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return extremum<scalar_t, true>(x, y); });
  });
}

// Bitwise ops exist for integers and bool (where they are the logical ones);
// floats are rejected before dispatch.
template <typename T, typename Op>
T bitwise(T x, T y, Op op) {
  if constexpr (c10::is_floating_v<T>) {
    return x;
  } else {
    return static_cast<T>(op(x, y));
  }
}

#define BITWISE_KERNEL(name, op)                                                     \
  void name##_kernel(TensorIterator& iter) {                                         \
    AT_DISPATCH_ALL_TYPES_AND_BOOL(iter.common_dtype(), #name, [&] {                 \
      cpu_kernel(iter, [](scalar_t x, scalar_t y) -> scalar_t { return bitwise(x, y, op{}); }); \
    });                                                                              \
  }

BITWISE_KERNEL(bitwise_and, std::bit_and<>)
BITWISE_KERNEL(bitwise_or, std::bit_or<>)
BITWISE_KERNEL(bitwise_xor, std::bit_xor<>)
#undef BITWISE_KERNEL

// Bool results computed on the promoted inputs.
#define PREDICATE_KERNEL(name, expr)                                                 \
  void name##_kernel(TensorIterator& iter) {                                         \
    AT_DISPATCH_ALL_TYPES_AND_BOOL(iter.common_dtype(), #name, [&] {                 \
      cpu_kernel(iter, [](scalar_t x_, scalar_t y_) -> bool {                        \
        const c10::opmath_t<scalar_t> x = x_, y = y_;                                \
        return expr;                                                                 \
      });                                                                            \
    });                                                                              \
  }

PREDICATE_KERNEL(eq, x == y)
PREDICATE_KERNEL(ne, x != y)
PREDICATE_KERNEL(lt, x < y)
PREDICATE_KERNEL(le, x <= y)
PREDICATE_KERNEL(gt, x > y)
PREDICATE_KERNEL(ge, x >= y)
PREDICATE_KERNEL(logical_and, static_cast<bool>(x) && static_cast<bool>(y))
PREDICATE_KERNEL(logical_or, static_cast<bool>(x) || static_cast<bool>(y))
PREDICATE_KERNEL(logical_xor, static_cast<bool>(x) != static_cast<bool>(y))
#undef PREDICATE_KERNEL

void where_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES_AND_BOOL(iter.dtype(1), "where", [&] {
    cpu_kernel(iter, [](scalar_t a, scalar_t b, bool c) -> scalar_t { return c ? a : b; });
  });
}

void masked_fill_kernel(TensorIterator& iter, const Scalar& value) {
  AT_DISPATCH_ALL_TYPES_AND_BOOL(iter.dtype(0), "masked_fill", [&] {
    const scalar_t v = std::is_same_v<scalar_t, bool> ? scalar_t(value.toBool()) : value.to<scalar_t>();
    cpu_kernel(iter, [v](scalar_t x, bool m) -> scalar_t { return m ? v : x; });
  });
}

}  // namespace

REGISTER_CPU_DISPATCH(remainder_stub, &remainder_kernel);
REGISTER_CPU_DISPATCH(minimum_stub, &minimum_kernel);
REGISTER_CPU_DISPATCH(maximum_stub, &maximum_kernel);
REGISTER_CPU_DISPATCH(bitwise_and_stub, &bitwise_and_kernel);
REGISTER_CPU_DISPATCH(bitwise_or_stub, &bitwise_or_kernel);
REGISTER_CPU_DISPATCH(bitwise_xor_stub, &bitwise_xor_kernel);
REGISTER_CPU_DISPATCH(logical_and_stub, &logical_and_kernel);
REGISTER_CPU_DISPATCH(logical_or_stub, &logical_or_kernel);
REGISTER_CPU_DISPATCH(logical_xor_stub, &logical_xor_kernel);
REGISTER_CPU_DISPATCH(eq_stub, &eq_kernel);
REGISTER_CPU_DISPATCH(ne_stub, &ne_kernel);
REGISTER_CPU_DISPATCH(lt_stub, &lt_kernel);
REGISTER_CPU_DISPATCH(le_stub, &le_kernel);
REGISTER_CPU_DISPATCH(gt_stub, &gt_kernel);
REGISTER_CPU_DISPATCH(ge_stub, &ge_kernel);
REGISTER_CPU_DISPATCH(where_stub, &where_kernel);
REGISTER_CPU_DISPATCH(masked_fill_stub, &masked_fill_kernel);
REGISTER_CPU_DISPATCH(add_stub, &add_kernel);
REGISTER_CPU_DISPATCH(mul_stub, &mul_kernel);
REGISTER_CPU_DISPATCH(div_true_stub, &div_true_kernel);
REGISTER_CPU_DISPATCH(div_trunc_stub, &div_trunc_kernel);
REGISTER_CPU_DISPATCH(div_floor_stub, &div_floor_kernel);
REGISTER_CPU_DISPATCH(pow_stub, &pow_kernel);

}  // namespace at::native
