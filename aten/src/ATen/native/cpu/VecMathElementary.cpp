// log, log2, log1p, expm1, exp2, sin, cos, tan, sinh, cosh, atanh and pow of
// dense float32 arrays: VecMathLanes.h's
// branch-free functions in a loop the compiler vectorises, then <cmath> for
// the few elements outside their domains (zero, negatives, subnormals,
// infinities, NaN, |x| > 65536 for sin and cos), found per block by a
// vectorised test so that ordinary data pays nothing for them.
#include <ATen/native/cpu/VecMath.h>
#include <ATen/native/cpu/VecMathChecked.h>
#include <ATen/native/cpu/VecMathLanes.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace at::native::vec {
inline namespace CPU_CAPABILITY {
namespace {

constexpr float kMinNormal = std::numeric_limits<float>::min();
constexpr float kMax = std::numeric_limits<float>::max();

#if defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)
// pow(x, y) for a normal finite x of either sign and finite y: |x|^y, and
// for negative x NaN unless y is an integer, negated for odd y (floats of
// 2^24 and beyond are even integers). Random data is half negative, and
// <cmath>'s pow is slow on each such element.
inline float pow_signed(float x, float y) {
  const float magnitude = lanes::pow_positive(x < 0 ? -x : x, y);
  const float ay = y < 0 ? -y : y;
  const bool integer = std::trunc(y) == y;
  const bool odd = ay < 16777216.0f && (static_cast<int32_t>(ay < 16777216.0f ? y : 0.0f) & 1);
  const float negative = integer ? (odd ? -magnitude : magnitude) : std::numeric_limits<float>::quiet_NaN();
  return x < 0 ? negative : magnitude;
}

inline bool pow_domain(float x, float y) {
  const float ax = x < 0 ? -x : x;
  return ax >= kMinNormal && ax <= kMax && y >= -kMax && y <= kMax;
}
#endif

}  // namespace

void log(const float* x, float* y, int64_t n) {
  map_checked(
      x, y, n, [](float v) { return lanes::log(v); }, [](float v) { return v >= kMinNormal && v <= kMax; },
      [](float v) { return std::log(v); });
}

// Outside the lanes' domain without the C runtime's log2f (one platform
// difference fewer to test): zeros, infinities, NaN and negatives by
// definition, subnormals scaled into the normal range first.
inline float log2_outside(float v) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  if (v != v) return v;
  if (v == 0.0f) return -kInf;
  if (v < 0.0f) return std::numeric_limits<float>::quiet_NaN();
  if (v == kInf) return kInf;
  return lanes::log2(v * 8388608.0f) - 23.0f;  // subnormal: times 2^23
}

void log2(const float* x, float* y, int64_t n) {
  map_checked(
      x, y, n, [](float v) { return lanes::log2(v); }, [](float v) { return v >= kMinNormal && v <= kMax; },
      log2_outside);
}

// Below -1 the result is NaN in the lanes too: random data has many such
// elements, and <cmath>'s domain-error path is slow.
void log1p(const float* x, float* y, int64_t n) {
  constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
  map_checked(
      x, y, n, [](float v) { return v < -1.0f ? kNaN : lanes::log1p(v); },
      [](float v) { return v < -1.0f || (v > -1.0f && v <= kMax); }, [](float v) { return std::log1p(v); });
}

void exp2(const float* x, float* y, int64_t n) {
  map_checked(
      x, y, n, [](float v) { return lanes::exp2(v); }, [](float v) { return v >= -126.0f && v <= 127.0f; },
      [](float v) { return std::exp2(v); });
}

// sinh |x| = (t + t / (t + 1)) / 2 with t = expm1(|x|): no cancellation near
// 0, where sinh x is x. Within 3 ulp.
void sinh(const float* x, float* y, int64_t n) {
  map_checked(
      x, y, n,
      [](float v) {
        const float t = lanes::expm1(v < 0 ? -v : v);
        return lanes::with_sign_of(0.5f * (t + t / (t + 1.0f)), v);
      },
      [](float v) { return v > -88.0f && v < 88.0f; }, [](float v) { return std::sinh(v); });
}

// cosh x = (e + 1 / e) / 2 with e = exp(|x|), within 3 ulp.
void cosh(const float* x, float* y, int64_t n) {
  map_checked(
      x, y, n,
      [](float v) {
        const float e = lanes::exp(v < 0 ? -v : v);
        return 0.5f * e + 0.5f / e;
      },
      [](float v) { return v > -88.0f && v < 88.0f; }, [](float v) { return std::cosh(v); });
}

// atanh |x| = log1p(2|x| / (1 - |x|)) / 2, its argument written
// 2|x| + 2|x|^2 / (1 - |x|) below 1/2 (as glibc does) to keep small x
// accurate. Within 3 ulp. +-1 (+-inf) and beyond (NaN) are answered in the
// lanes too: random data has many elements beyond, a bool or 0/1 mask
// half of them at 1, and <cmath>'s pole and domain-error paths are slow.
// NaN from <cmath>.
void atanh(const float* x, float* y, int64_t n) {
  constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
  constexpr float kInf = std::numeric_limits<float>::infinity();
  map_checked(
      x, y, n,
      [](float v) {
        const float a = v < 0 ? -v : v;
        const float small = 2.0f * a + 2.0f * a * a / (1.0f - a);
        const float big = 2.0f * a / (1.0f - a);
        const float magnitude = a == 1.0f ? kInf : 0.5f * lanes::log1p(a < 0.5f ? small : big);
        return a > 1.0f ? kNaN : lanes::with_sign_of(magnitude, v);
      },
      [](float v) { return v == v; }, [](float v) { return std::atanh(v); });
}

void expm1(const float* x, float* y, int64_t n) {
  map_checked(
      x, y, n, [](float v) { return lanes::expm1(v); }, [](float v) { return v > -87.0f && v < 88.0f; },
      [](float v) { return std::expm1(v); });
}

void sin(const float* x, float* y, int64_t n) {
  map_checked(
      x, y, n, [](float v) { return lanes::sin(v); },
      [](float v) { return v >= -lanes::kTrigMax && v <= lanes::kTrigMax; }, [](float v) { return std::sin(v); });
}

void cos(const float* x, float* y, int64_t n) {
  map_checked(
      x, y, n, [](float v) { return lanes::cos(v); },
      [](float v) { return v >= -lanes::kTrigMax && v <= lanes::kTrigMax; }, [](float v) { return std::cos(v); });
}

void tan(const float* x, float* y, int64_t n) {
  map_checked(
      x, y, n, [](float v) { return lanes::tan(v); },
      [](float v) { return v >= -lanes::kTrigMax && v <= lanes::kTrigMax; }, [](float v) { return std::tan(v); });
}

void pow(const float* x, const float* y, int64_t y_step, float* out, int64_t n) {
#if defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)
  map2_checked(x, 1, y, y_step, out, n, pow_signed, pow_domain, [](float a, float b) { return std::pow(a, b); });
#else
  // SSE2 has no fast double lanes for pow_positive: libm's scalar pow is
  // quicker there.
  for (int64_t i = 0; i < n; ++i) out[i] = std::pow(x[i], y[i * y_step]);
#endif
}

}  // namespace CPU_CAPABILITY
}  // namespace at::native::vec
