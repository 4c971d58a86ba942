#pragma once
// Elementary functions of one float, written branch-free so that a loop of
// them vectorises (in each capability's copy, as wide as its registers).
// Each is valid on a stated domain; VecMathElementary.cpp runs the loop
// over every element and then recomputes the few outside it with <cmath>.
// Accuracy (ulp against a double-precision reference, checked over dense
// samples by tests/test_vec_math.py) is given with each.
#include <cstdint>
#include <cstring>

namespace at::native::vec {
inline namespace CPU_CAPABILITY {
namespace lanes {

inline float bits_to_float(int32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

inline int32_t float_to_bits(float f) {
  int32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

// c[0] t^(N-1) + ... + c[N-1] by Horner's rule, highest coefficient first
// (the loop unrolls: N is a constant).
template <int N>
inline float horner(float t, const float (&c)[N]) {
  float p = c[0];
  for (int k = 1; k < N; ++k) p = p * t + c[k];
  return p;
}

// Round to the nearest integer (ties to even) for |x| < 2^22: adding
// 1.5 * 2^23 leaves no fraction bits.
inline float round_to_integer(float x) {
  constexpr float kRound = 12582912.0f;
  return (x + kRound) - kRound;
}

// exp(r) for |r| <= ln2 / 2: the Cephes polynomial that exp and exp2 share.
inline float exp_reduced(float r) {
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  return p * r * r + r + 1.0f;
}

// exp(x) for x in [-104, 88.8] (outside it: 0 below, and the caller
// clamps above), within 2 ulp; NaN passes through. A Cephes-style range
// reduction x = n ln2 + r and polynomial.
inline float exp(float x) {
  constexpr float kLog2e = 1.44269504088896341f;
  constexpr float kLn2Hi = 0.693359375f, kLn2Lo = -2.12194440e-4f;
  const float xc = x < -104.0f ? -104.0f : (x > 88.8f ? 88.8f : x);  // NaN passes through
  const float n = round_to_integer(xc * kLog2e);
  const float r = (xc - n * kLn2Hi) - n * kLn2Lo;
  const float p = exp_reduced(r);
  // 2^n in two factors, so that n down to -150 and up to 128 stays representable.
  const int32_t ni = static_cast<int32_t>(n);
  const int32_t n1 = ni / 2, n2 = ni - n1;
  const float result = p * bits_to_float((n1 + 127) << 23) * bits_to_float((n2 + 127) << 23);
  return x < -104.0f ? 0.0f : result;
}

// log's reduction for normal positive finite x: x = 2^e m with m in
// [sqrt(1/2), sqrt(2)) and f = m - 1 (exact), so that log(m) = f - f^2/2 +
// f^3 P(f) (Cephes' logf polynomial). Returns f^3 P(f); sets *f and *e.
inline float log_reduce(float x, float* f_out, float* e_out) {
  const int32_t bits = float_to_bits(x);
  float m = bits_to_float((bits & 0x007fffff) | 0x3f800000);  // [1, 2)
  int32_t e = (bits >> 23) - 127;
  const bool high = m > 1.41421356f;
  m = high ? m * 0.5f : m;
  e = high ? e + 1 : e;
  const float f = m - 1.0f;  // exact
  const float z = f * f;
  float p = 7.0376836292e-2f;
  p = p * f - 1.1514610310e-1f;
  p = p * f + 1.1676998740e-1f;
  p = p * f - 1.2420140846e-1f;
  p = p * f + 1.4249322787e-1f;
  p = p * f - 1.6668057665e-1f;
  p = p * f + 2.0000714765e-1f;
  p = p * f - 2.4999993993e-1f;
  p = p * f + 3.3333331174e-1f;
  *f_out = f;
  *e_out = static_cast<float>(e);
  return p * f * z;
}

// log(x) for normal positive finite x, within 1 ulp: log(m) from
// log_reduce, e ln2 added in two parts.
inline float log(float x) {
  float f, fe;
  float y = log_reduce(x, &f, &fe);
  y = y + -2.12194440e-4f * fe;
  y = y + -0.5f * (f * f);
  return (f + y) + 0.693359375f * fe;
}

// log1p(x) for x > -1 with 1 + x finite, within 2 ulp: log(u) * x / (u - 1)
// with u = 1 + x rounded, which cancels u's rounding error (Goldberg).
inline float log1p(float x) {
  const float u = 1.0f + x;
  const float d = u - 1.0f;
  const float r = lanes::log(u) * (x / (d == 0.0f ? 1.0f : d));
  return d == 0.0f ? x : r;
}

// expm1(x) for x in (-87, 88), within 2 ulp: x = n ln2 + r, expm1(r) by its
// Taylor series (|r| <= ln2 / 2), then 2^n expm1(r) + (2^n - 1), where the
// second term is exact for the n that matter.
inline float expm1(float x) {
  constexpr float kLog2e = 1.44269504088896341f;
  constexpr float kLn2Hi = 0.693359375f, kLn2Lo = -2.12194440e-4f;
  const float xc = x > -87.0f ? (x < 88.0f ? x : 88.0f) : -87.0f;
  const float n = round_to_integer(xc * kLog2e);
  const float r = (xc - n * kLn2Hi) - n * kLn2Lo;
  float p = 1.0f / 362880.0f;
  p = p * r + 1.0f / 40320.0f;
  p = p * r + 1.0f / 5040.0f;
  p = p * r + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  const float em1 = r + r * r * p;
  const float t = bits_to_float((static_cast<int32_t>(n) + 127) << 23);
  const float result = t * em1 + (t - 1.0f);
  return x == 0.0f ? x : result;  // keeps -0
}

// The sign of s replaced by x's (a select on the sign bit; vectorises).
inline float with_sign_of(float s, float x) {
  return bits_to_float((float_to_bits(s) & 0x7fffffff) | (float_to_bits(x) & static_cast<int32_t>(0x80000000u)));
}

// 2^x for x in [-151, 128] (0 below, inf above 128 by overflow), within 1
// ulp: x = n + f with n an integer and |f| <= 1/2, 2^f = exp(f ln2) (an
// argument under 0.35, where exp's error stays below 1 ulp), then 2^n in
// two factors as in exp. Integers give powers of two exactly.
inline float exp2(float x) {
  const float xc = x < -151.0f ? -151.0f : (x > 128.0f ? 128.0f : x);  // NaN passes through
  const float n = round_to_integer(xc);
  const float p = exp_reduced((xc - n) * 0.693147180559945309f);  // xc - n is exact, in [-1/2, 1/2]
  const int32_t ni = static_cast<int32_t>(n);
  const int32_t n1 = ni / 2, n2 = ni - n1;
  const float result = p * bits_to_float((n1 + 127) << 23) * bits_to_float((n2 + 127) << 23);
  return x < -151.0f ? 0.0f : result;
}

// log2(x) for normal positive finite x, within 2 ulp: log's reduction
// x = 2^e m and polynomial for log(m), then e + log(m) / ln2, so powers of
// two give their exponent exactly.
inline float log2(float x) {
  float f, fe;
  const float cubic = log_reduce(x, &f, &fe);
  const float tail = cubic - 0.5f * (f * f);  // log(m) = f + tail
  // log(m) / ln2 with 1/ln2 in two parts (kHi has 11 bits, so f * kHi
  // rounds little), then the exponent added last.
  constexpr float kLog2eHi = 1.4423828125f, kLog2eLo = 3.12228389e-4f;
  return fe + (f * kLog2eHi + (f * kLog2eLo + tail * 1.44269504088896341f));
}

// sin(r) and cos(r) for |r| <= pi/4, by their Taylor series (truncation
// below 3e-9 relative).
inline float sin_reduced(float r) {
  const float s = r * r;
  float p = 1.0f / 362880.0f;
  p = p * s - 1.0f / 5040.0f;
  p = p * s + 1.0f / 120.0f;
  p = p * s - 1.0f / 6.0f;
  return r + r * (s * p);
}

inline float cos_reduced(float r) {
  const float s = r * r;
  float p = -1.0f / 3628800.0f;
  p = p * s + 1.0f / 40320.0f;
  p = p * s - 1.0f / 720.0f;
  p = p * s + 1.0f / 24.0f;
  return (1.0f - 0.5f * s) + (s * s) * p;
}

// The reduction x = q pi/2 + r (|r| <= pi/4) runs in double, pi/2 in three
// parts: q * kHalfPiHi is exact (30 significant bits, |q| < 2^23), and
// kHalfPiLo2 is what the double nearest pi/2 lacks (6e-17, 3e-12 once
// multiplied by q = 40000: most of r next to a multiple of pi/2). So r keeps
// its relative accuracy where a float reduction loses hundreds of ulp.
// Beyond kTrigMax the caller takes <cmath>'s full reduction.
constexpr double kHalfPiHi = 1.570796325802803, kHalfPiLo = 9.920935184482005e-10,
                 kHalfPiLo2 = 6.123233995736766e-17;
constexpr float kTrigMax = 65536.0f;

// r, and which quarter turn q mod 4 x lies in.
inline float reduce_quarter_turns(float x, int32_t* quadrant) {
  const double xd = x <= kTrigMax && x >= -kTrigMax ? x : 0.0;
  const float qf = round_to_integer(static_cast<float>(xd * 0.636619772367581343));
  const double q = qf;
  *quadrant = static_cast<int32_t>(qf) & 3;
  return static_cast<float>(((xd - q * kHalfPiHi) - q * kHalfPiLo) - q * kHalfPiLo2);
}

// sin(x) for |x| <= kTrigMax: sin r, cos r, -sin r, -cos r by quadrant.
inline float sin(float x) {
  int32_t quadrant;
  const float r = reduce_quarter_turns(x, &quadrant);
  const float v = (quadrant & 1) ? cos_reduced(r) : sin_reduced(r);
  const float result = (quadrant & 2) ? -v : v;
  return x == 0.0f ? x : result;  // keeps -0
}

// cos(x) for |x| <= kTrigMax: cos r, -sin r, -cos r, sin r by quadrant.
inline float cos(float x) {
  int32_t quadrant;
  const float r = reduce_quarter_turns(x, &quadrant);
  const float v = (quadrant & 1) ? sin_reduced(r) : cos_reduced(r);
  return ((quadrant + 1) & 2) ? -v : v;
}

// tan(x) for |x| <= kTrigMax: sin r / cos r, or -cos r / sin r in odd
// quarter turns (one reduction for both).
inline float tan(float x) {
  int32_t quadrant;
  const float r = reduce_quarter_turns(x, &quadrant);
  const float s = sin_reduced(r), c = cos_reduced(r);
  const float result = (quadrant & 1) ? -c / s : s / c;
  return x == 0.0f ? x : result;  // keeps -0
}

// pow(x, y) for normal positive finite x and finite y, within 1 ulp: 2^t
// with t = y log2(x) carried in double, so the float result rounds once.
// log2(x) = e + log(m) / ln2 with m in [sqrt(1/2), sqrt(2)) and log(m) =
// 2 atanh(s), s = (m - 1) / (m + 1), |s| <= 0.172 (series to s^15, error
// below 1e-12); 2^t = 2^n e^(f ln2), n = round(t), by its Taylor series to
// degree 11 (|f ln2| <= 0.35, error below 3e-13). t is clamped to
// [-160, 130], beyond which the float result is 0 or inf anyway.
inline float pow_positive(float x, float y) {
  const int32_t bits = float_to_bits(x);
  float mf = bits_to_float((bits & 0x007fffff) | 0x3f800000);  // [1, 2)
  int32_t e = (bits >> 23) - 127;
  const bool high = mf > 1.41421356f;
  mf = high ? mf * 0.5f : mf;
  e = high ? e + 1 : e;
  const double m = mf;
  const double s = (m - 1.0) / (m + 1.0);
  const double s2 = s * s;
  double series = 1.0 / 15;
  series = series * s2 + 1.0 / 13;
  series = series * s2 + 1.0 / 11;
  series = series * s2 + 1.0 / 9;
  series = series * s2 + 1.0 / 7;
  series = series * s2 + 1.0 / 5;
  series = series * s2 + 1.0 / 3;
  series = series * s2 + 1.0;
  constexpr double kTwoOverLn2 = 2.8853900817779268;  // 2 / ln 2
  const double log2x = static_cast<double>(e) + kTwoOverLn2 * s * series;
  double t = static_cast<double>(y) * log2x;
  t = t < -160.0 ? -160.0 : (t > 130.0 ? 130.0 : t);
  const double n = static_cast<double>(round_to_integer(static_cast<float>(t)));
  const double g = (t - n) * 0.6931471805599453;  // ln 2
  double p = 1.0 / 39916800;
  p = p * g + 1.0 / 3628800;
  p = p * g + 1.0 / 362880;
  p = p * g + 1.0 / 40320;
  p = p * g + 1.0 / 5040;
  p = p * g + 1.0 / 720;
  p = p * g + 1.0 / 120;
  p = p * g + 1.0 / 24;
  p = p * g + 1.0 / 6;
  p = p * g + 0.5;
  p = p * g + 1.0;
  p = p * g + 1.0;
  const int64_t scale_bits = (static_cast<int64_t>(static_cast<int32_t>(n)) + 1023) << 52;
  double scale;
  std::memcpy(&scale, &scale_bits, sizeof scale);
  return static_cast<float>(p * scale);
}

// atan(t) for 0 <= t <= 1: Cephes' atanf (t beyond tan(pi/8) reduced by
// atan(t) = pi/4 + atan((t - 1) / (t + 1))), within 2 ulp.
inline float atan_unit(float t) {
  const bool reduce = t > 0.41421356237309505f;
  const float r = reduce ? (t - 1.0f) / (t + 1.0f) : t;
  const float z = r * r;
  float p = 8.05374449538e-2f;
  p = p * z - 1.38776856032e-1f;
  p = p * z + 1.99777106478e-1f;
  p = p * z - 3.33329491539e-1f;
  const float a = p * z * r + r;
  return reduce ? a + 0.78539816339744831f : a;
}

// asin(r) for |r| <= 1/2: Cephes' asinf polynomial in r^2, within 2 ulp.
inline float asin_half(float r) {
  const float z = r * r;
  float p = 4.2163199048e-2f;
  p = p * z + 2.4181311049e-2f;
  p = p * z + 4.5470025998e-2f;
  p = p * z + 7.4953002686e-2f;
  p = p * z + 1.6666752422e-1f;
  return p * z * r + r;
}

}  // namespace lanes
}  // namespace CPU_CAPABILITY
}  // namespace at::native::vec
