#pragma once
// A number that is not a tensor: a Python bool/int/float crossing into C++.
// It remembers its category so type promotion can treat 2 and 2.0 differently.
#include <c10/core/ScalarType.h>

#include <cstdint>
#include <type_traits>

namespace c10 {

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

  template <typename T>
  T to() const {
    if (tag_ == Tag::Double) return static_cast<T>(v_.d);
    return static_cast<T>(v_.i);
  }
  double toDouble() const { return to<double>(); }
  int64_t toLong() const { return to<int64_t>(); }
  bool toBool() const { return tag_ == Tag::Double ? v_.d != 0 : v_.i != 0; }

  // The dtype a tensor made from this number gets: float64, int64 or bool.
  ScalarType type() const {
    return tag_ == Tag::Double ? ScalarType::Double
                               : (tag_ == Tag::Long ? ScalarType::Long : ScalarType::Bool);
  }
  Scalar operator-() const {
    if (tag_ == Tag::Double) return Scalar(-v_.d);
    return Scalar(-v_.i);
  }

 private:
  Tag tag_;
  union {
    double d;
    int64_t i;
  } v_;
};

}  // namespace c10
