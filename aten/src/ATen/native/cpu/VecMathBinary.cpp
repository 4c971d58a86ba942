// fmod, remainder, floor_divide, logaddexp and logaddexp2 of float32 arrays,
// one operand possibly a single number: a branch-free body per element that
// the compiler vectorises, then BinaryFunctors.h's scalar definition for the
// few elements outside its domain (found per block, as in
// VecMathElementary.cpp), so both paths give the same answers.
#include <ATen/native/BinaryFunctors.h>
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

constexpr float kMax = std::numeric_limits<float>::max();

// fmod(a, b), exactly, for finite a, finite nonzero b and |a / b| < 2^28:
// the double quotient is then within 2^-25 of the true one, whose distance
// from an integer is 0 or at least 2^-24 (a - q b is a multiple of the
// smaller operand's ulp), so its truncation is the true one; q b and
// a - q b are exact in double.
inline float fmod_lane(float a, float b) {
  double q = static_cast<double>(a) / static_cast<double>(b);
  q = q > 3e8 ? 3e8 : (q < -3e8 ? -3e8 : (q == q ? q : 0.0));  // keeps the cast below defined
  const double t = static_cast<double>(static_cast<int32_t>(q));
  const float r = static_cast<float>(static_cast<double>(a) - t * static_cast<double>(b));
  return lanes::with_sign_of(r, a);
}

inline bool fmod_domain(float a, float b) {
  const float fa = a < 0 ? -a : a, fb = b < 0 ? -b : b;
  return fa <= kMax && fb <= kMax && fb != 0.0f && fa < 268435456.0f * fb;
}

inline float remainder_lane(float a, float b) {
  const float r = fmod_lane(a, b);
  return (r != 0.0f && ((r < 0.0f) != (b < 0.0f))) ? r + b : r;
}

// floor_divide as BinaryFunctors.h's floor_divide computes it (numpy's way).
inline float floor_divide_lane(float a, float b) {
  const float mod = fmod_lane(a, b);
  float div = (a - mod) / b;
  div = (mod != 0.0f && ((b < 0.0f) != (mod < 0.0f))) ? div - 1.0f : div;
  float floordiv = std::floor(div);
  floordiv = div - floordiv > 0.5f ? floordiv + 1.0f : floordiv;
  return div == 0.0f ? lanes::with_sign_of(0.0f, a / b) : floordiv;
}

inline bool both_finite(float a, float b) {
  return a >= -kMax && a <= kMax && b >= -kMax && b <= kMax;
}

// log(e^a + e^b) = max + log1p(e^-|a - b|), finite a and b.
inline float logaddexp_lane(float a, float b) {
  const float m = a < b ? b : a, d = a < b ? a - b : b - a;
  return m + lanes::log1p(lanes::exp(d));
}

inline float logaddexp2_lane(float a, float b) {
  const float m = a < b ? b : a, d = a < b ? a - b : b - a;
  return m + lanes::log1p(lanes::exp2(d)) * 1.44269504088896341f;
}

}  // namespace

void fmod(const float* x, int64_t x_step, const float* y, int64_t y_step, float* out, int64_t n) {
  map2_checked(x, x_step, y, y_step, out, n, fmod_lane, fmod_domain, [](float a, float b) { return fmod_of(a, b); });
}

void remainder(const float* x, int64_t x_step, const float* y, int64_t y_step, float* out, int64_t n) {
  map2_checked(x, x_step, y, y_step, out, n, remainder_lane, fmod_domain,
               [](float a, float b) { return remainder_of(a, b); });
}

void floor_divide(const float* x, int64_t x_step, const float* y, int64_t y_step, float* out, int64_t n) {
  map2_checked(x, x_step, y, y_step, out, n, floor_divide_lane, fmod_domain,
               [](float a, float b) { return at::native::floor_divide(a, b); });
}

void logaddexp(const float* x, int64_t x_step, const float* y, int64_t y_step, float* out, int64_t n) {
  map2_checked(x, x_step, y, y_step, out, n, logaddexp_lane, both_finite,
               [](float a, float b) { return logaddexp_of<false>(a, b); });
}

void logaddexp2(const float* x, int64_t x_step, const float* y, int64_t y_step, float* out, int64_t n) {
  map2_checked(x, x_step, y, y_step, out, n, logaddexp2_lane, both_finite,
               [](float a, float b) { return logaddexp_of<true>(a, b); });
}

}  // namespace CPU_CAPABILITY
}  // namespace at::native::vec
