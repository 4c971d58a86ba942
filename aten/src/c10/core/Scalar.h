#pragma once
// A number that is not a tensor: a Python bool/int/float crossing into C++.
// It remembers its category so type promotion can treat 2 and 2.0 differently.
#include <c10/core/ScalarType.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <ostream>
#include <type_traits>

namespace c10 {

namespace detail {
// The C++ name PyTorch's overflow message gives each element type.
template <typename T>
constexpr const char* scalar_type_name() {
  if constexpr (std::is_same_v<T, uint8_t>) return "uint8_t";
  else if constexpr (std::is_same_v<T, int8_t>) return "int8_t";
  else if constexpr (std::is_same_v<T, int16_t>) return "int16_t";
  else if constexpr (std::is_same_v<T, int32_t>) return "int";
  else if constexpr (std::is_same_v<T, int64_t>) return "int64_t";
  else if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, Half>) return "c10::Half";
  else if constexpr (std::is_same_v<T, BFloat16>) return "c10::BFloat16";
  else return "scalar";
}

// Whether a Python number does not fit T, by PyTorch's rules (c10's
// `overflows`): integers must be in T's range, except that negative ones may
// wrap into an unsigned T down to -max (uint8 takes -255..255); floating
// numbers must be finite for an integer T and in range for a floating T,
// where inf and nan pass (an int into float16 too: 70000 does not fit).
template <typename T>
bool int_overflows(int64_t v) {
  using limit = std::numeric_limits<T>;
  if constexpr (is_floating_v<T>) {  // only float16's range is narrower than int64's
    const double d = static_cast<double>(v);
    return d < static_cast<double>(static_cast<float>(limit::lowest())) ||
           d > static_cast<double>(static_cast<float>(limit::max()));
  } else if constexpr (!limit::is_signed) {
    return v > static_cast<int64_t>(limit::max()) || v < -static_cast<int64_t>(limit::max());
  } else {
    return v < static_cast<int64_t>(limit::lowest()) || v > static_cast<int64_t>(limit::max());
  }
}

template <typename T>
bool double_overflows(double v) {
  using limit = std::numeric_limits<T>;
  if constexpr (is_floating_v<T>) {
    if (std::isinf(v) || std::isnan(v)) return false;
    return v < static_cast<double>(static_cast<float>(limit::lowest())) ||
           v > static_cast<double>(static_cast<float>(limit::max()));
  } else {
    if (std::isnan(v) || std::isinf(v)) return true;
    return v < static_cast<double>(limit::lowest()) || v > static_cast<double>(limit::max());
  }
}
}  // namespace detail

class C10_API Scalar {
 public:
  enum class Tag : uint8_t { Double, Long, Bool };

  Scalar() : Scalar(int64_t(0)) {}
  Scalar(double v) : tag_(Tag::Double) { v_.d = v; }  // NOLINT: implicit on purpose
  Scalar(float v) : Scalar(static_cast<double>(v)) {}  // NOLINT
  Scalar(bool v) : tag_(Tag::Bool) { v_.i = v; }      // NOLINT
  template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  Scalar(T v) : tag_(Tag::Long) { v_.i = static_cast<int64_t>(v); }  // NOLINT

  bool isFloatingPoint() const { return tag_ == Tag::Double; }
  bool isIntegral(bool includeBool) const {
    return tag_ == Tag::Long || (includeBool && tag_ == Tag::Bool);
  }
  bool isBoolean() const { return tag_ == Tag::Bool; }

  // The number as a T, refusing one that does not fit (PyTorch's checked
  // conversion: `fill_(300)` on uint8 is an error, not 44). A bool takes any
  // number's truth value.
  template <typename T>
  T to() const {
    if constexpr (std::is_same_v<T, bool>) {
      return toBool();
    } else {
      const bool overflow = tag_ == Tag::Double ? detail::double_overflows<T>(v_.d) : detail::int_overflows<T>(v_.i);
      TORCH_CHECK(!overflow, "value cannot be converted to type ", detail::scalar_type_name<T>(), " without overflow");
      return to_unchecked<T>();
    }
  }
  // The C++ conversion, wrapping or saturating as it may: for the cases
  // where PyTorch converts without a check (a number in `t + 300`).
  template <typename T>
  T to_unchecked() const {
    if constexpr (std::is_same_v<T, bool>) {
      return toBool();
    } else {
      if (tag_ == Tag::Double) return static_cast<T>(v_.d);
      return static_cast<T>(v_.i);
    }
  }
  double toDouble() const { return to_unchecked<double>(); }
  int64_t toLong() const { return to_unchecked<int64_t>(); }
  bool toBool() const { return tag_ == Tag::Double ? v_.d != 0 : v_.i != 0; }

  // The dtype a tensor made from this number gets: float64, int64 or bool.
  ScalarType type() const {
    return tag_ == Tag::Double ? ScalarType::Double
                               : (tag_ == Tag::Long ? ScalarType::Long : ScalarType::Bool);
  }
  Scalar operator-() const {  // an integer wraps (the minimum stays itself), as int64 arithmetic does
    if (tag_ == Tag::Double) return Scalar(-v_.d);
    return Scalar(static_cast<int64_t>(0ULL - static_cast<uint64_t>(v_.i)));
  }

 private:
  Tag tag_;
  union {
    double d;
    int64_t i;
  } v_;
};

// In messages, as PyTorch prints one: -1, -1.5, inf, true.
inline std::ostream& operator<<(std::ostream& out, const Scalar& s) {
  if (s.isFloatingPoint()) return out << s.toDouble();
  if (s.isBoolean()) return out << (s.toBool() ? "true" : "false");
  return out << s.toLong();
}

}  // namespace c10
