#pragma once
// float16 and bfloat16 storage types. They convert implicitly to and from
// float, so a kernel written for scalar_t computes in float and rounds once
// when it stores: `return x + y;` works for every floating dtype.
#include <c10/macros/Macros.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <ostream>
#include <type_traits>

namespace c10 {
namespace detail {

C10_HOST_DEVICE inline float bits_to_float(uint32_t bits) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(bits);
#else
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
#endif
}

C10_HOST_DEVICE inline uint32_t float_to_bits(float f) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(f);
#else
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
#endif
}

C10_HOST_DEVICE inline float fp16_to_fp32(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f) return bits_to_float(sign | 0x7f800000u | (mant << 13));  // inf, nan
  if (exp == 0) {
    if (mant == 0) return bits_to_float(sign);
    // Subnormal: normalise the mantissa.
    exp = 127 - 15 + 1;
    while (!(mant & 0x400u)) {
      mant <<= 1;
      exp--;
    }
    return bits_to_float(sign | (exp << 23) | ((mant & 0x3ffu) << 13));
  }
  return bits_to_float(sign | ((exp + 127 - 15) << 23) | (mant << 13));
}

// Round to nearest, ties to even, as IEEE 754 (and numpy) do.
C10_HOST_DEVICE inline uint16_t fp32_to_fp16(float f) {
  uint32_t x = float_to_bits(f);
  const uint32_t sign = (x >> 16) & 0x8000u;
  x &= 0x7fffffffu;
  if (x >= 0x7f800000u) return static_cast<uint16_t>(sign | (x > 0x7f800000u ? 0x7e00u : 0x7c00u));
  if (x >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds past 65504: inf
  if (x < 0x38800000u) {
    // Below the smallest normal half: a multiple of 2^-24, rounded by the FPU.
    const float scaled = bits_to_float(x) * 16777216.0f;
    const float rounded = scaled + 8388608.0f - 8388608.0f;  // nearest-even at integer precision
    return static_cast<uint16_t>(sign | static_cast<uint32_t>(rounded));
  }
  const uint32_t mant_odd = (x >> 13) & 1u;
  x += 0xc8000fffu + mant_odd;  // rebias the exponent (-112 << 23) and round
  return static_cast<uint16_t>(sign | (x >> 13));
}

C10_HOST_DEVICE inline float bf16_to_fp32(uint16_t b) { return bits_to_float(static_cast<uint32_t>(b) << 16); }

C10_HOST_DEVICE inline uint16_t fp32_to_bf16(float f) {
  uint32_t x = float_to_bits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);  // quiet nan
  x += 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>(x >> 16);
}

}  // namespace detail

struct alignas(2) Half {
  uint16_t x = 0;
  Half() = default;
  C10_HOST_DEVICE Half(float f) : x(detail::fp32_to_fp16(f)) {}  // NOLINT: implicit on purpose
  C10_HOST_DEVICE operator float() const { return detail::fp16_to_fp32(x); }  // NOLINT
  C10_HOST_DEVICE static Half from_bits(uint16_t bits) {
    Half h;
    h.x = bits;
    return h;
  }
};

struct alignas(2) BFloat16 {
  uint16_t x = 0;
  BFloat16() = default;
  C10_HOST_DEVICE BFloat16(float f) : x(detail::fp32_to_bf16(f)) {}  // NOLINT
  C10_HOST_DEVICE operator float() const { return detail::bf16_to_fp32(x); }  // NOLINT
  C10_HOST_DEVICE static BFloat16 from_bits(uint16_t bits) {
    BFloat16 b;
    b.x = bits;
    return b;
  }
};

inline std::ostream& operator<<(std::ostream& out, Half h) { return out << static_cast<float>(h); }
inline std::ostream& operator<<(std::ostream& out, BFloat16 b) { return out << static_cast<float>(b); }

// Floating point in the sense of the dtype system (float16/bfloat16 included).
template <typename T>
constexpr bool is_floating_v = std::is_floating_point_v<T> || std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

// The type to compute a T in: float for the 16-bit floats, T otherwise.
template <typename T>
using opmath_t = std::conditional_t<std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>, float, T>;

}  // namespace c10

namespace std {
template <>
class numeric_limits<c10::Half> : public numeric_limits<float> {
 public:
  static c10::Half lowest() { return c10::Half::from_bits(0xfbff); }
  static c10::Half max() { return c10::Half::from_bits(0x7bff); }
  static c10::Half infinity() { return c10::Half::from_bits(0x7c00); }
  static c10::Half quiet_NaN() { return c10::Half::from_bits(0x7e00); }
};
template <>
class numeric_limits<c10::BFloat16> : public numeric_limits<float> {
 public:
  static c10::BFloat16 lowest() { return c10::BFloat16::from_bits(0xff7f); }
  static c10::BFloat16 max() { return c10::BFloat16::from_bits(0x7f7f); }
  static c10::BFloat16 infinity() { return c10::BFloat16::from_bits(0x7f80); }
  static c10::BFloat16 quiet_NaN() { return c10::BFloat16::from_bits(0x7fc0); }
};
}  // namespace std
