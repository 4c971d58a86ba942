#pragma once
// Elementary functions of one double, branch-free like VecMathLanes.h's
// float ones so that a loop of them vectorises (4 lanes in the AVX2 copy, 8
// in the AVX-512 one). Each is valid on a stated domain; VecMathDouble.cpp
// runs the loop over every element and recomputes the few outside it with
// <cmath>. Polynomials are Taylor series unless said otherwise; the
// constants that are not are derived by tools/vec_math_constants.py.
// Accuracy is checked against numpy and math.lgamma by
// tests/test_vec_math_double.py.
#include <cmath>
#include <cstdint>
#include <cstring>

namespace at::native::vec {
inline namespace CPU_CAPABILITY {
namespace lanes64 {

inline double bits_to_double(int64_t b) {
  double d;
  std::memcpy(&d, &b, sizeof d);
  return d;
}

inline int64_t double_to_bits(double d) {
  int64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

// The sign of s replaced by x's (a select on the sign bit; vectorises and
// keeps -0).
inline double with_sign_of(double s, double x) {
  constexpr int64_t kSign = static_cast<int64_t>(0x8000000000000000ULL);
  return bits_to_double((double_to_bits(s) & ~kSign) | (double_to_bits(x) & kSign));
}

// Round to the nearest integer (ties to even) for |x| < 2^51: adding
// 1.5 * 2^52 leaves no fraction bits.
inline double round_to_integer(double x) {
  constexpr double kRound = 6755399441055744.0;
  return (x + kRound) - kRound;
}

// 2^n for an integer n in [-1022, 1023], by its exponent bits (shifted
// unsigned: a lane that is discarded, such as NaN's, may hold any n).
inline double two_to(double n) {
  const uint64_t biased = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(n)) + 1023);
  return bits_to_double(static_cast<int64_t>(biased << 52));
}

// ln 2 in two parts: kLn2Hi has 32 significant bits, so n * kLn2Hi is exact
// for every exponent n a double has.
constexpr double kLn2Hi = 0.6931471806019545, kLn2Lo = -4.2009150726810846e-11;
constexpr double kLog2e = 1.4426950408889634;

// exp(r) - 1 - r for |r| <= ln2 / 2: r^2 times the series 1/2 + r/6 + ...
// to r^13 / 13! (truncation below 5e-18 relative).
inline double expm1_tail(double r) {
  double p = 1.0 / 6227020800.0;
  p = p * r + 1.0 / 479001600.0;
  p = p * r + 1.0 / 39916800.0;
  p = p * r + 1.0 / 3628800.0;
  p = p * r + 1.0 / 362880.0;
  p = p * r + 1.0 / 40320.0;
  p = p * r + 1.0 / 5040.0;
  p = p * r + 1.0 / 720.0;
  p = p * r + 1.0 / 120.0;
  p = p * r + 1.0 / 24.0;
  p = p * r + 1.0 / 6.0;
  p = p * r + 0.5;
  return r * r * p;
}

// exp(hi + lo) for |lo| below an ulp of hi (pow's product y log x): lo
// joins the reduced argument, so a result that is a double (2^3) comes out
// exactly. Beyond [-746, 1000] the result is 0 or inf.
inline double exp_pair(double hi, double lo) {
  const bool inside = hi > -746.0 && hi < 1000.0;
  const double xc = hi < -746.0 ? -746.0 : (hi > 1000.0 ? 1000.0 : hi);
  const double n = round_to_integer(xc * kLog2e);
  const double r = ((xc - n * kLn2Hi) - n * kLn2Lo) + (inside ? lo : 0.0);
  const double p = 1.0 + (r + expm1_tail(r));
  const double n1 = round_to_integer(n * 0.5);
  return p * two_to(n1) * two_to(n - n1);
}

// exp(x) for x in [-745.2, 709.7] (0 below; the caller takes larger x and
// NaN elsewhere), within 1 ulp: x = n ln2 + r, exp(r) by its series, 2^n
// in two factors so that subnormal results come out right.
inline double exp(double x) { return exp_pair(x, 0.0); }

// expm1(x) for x in [-inf, 700], within 2 ulp: 2^n expm1(r) + (2^n - 1),
// the second term exact for the n that matter; below -60 the result is -1
// (exp(x) is under half an ulp of 1 there).
inline double expm1(double x) {
  const double xc = x < -60.0 ? -60.0 : x;
  const double n = round_to_integer(xc * kLog2e);
  const double r = (xc - n * kLn2Hi) - n * kLn2Lo;
  const double em1 = r + expm1_tail(r);
  const double t = two_to(n);
  const double result = t * em1 + (t - 1.0);
  return x == 0.0 ? x : result;  // keeps -0
}

// x = 2^e (1 + f) with 1 + f in [sqrt(1/2), sqrt(2)) for normal positive
// finite x; returns f (exact) and sets *e.
inline double log_reduce(double x, double* e) {
  const int64_t bits = double_to_bits(x);
  const double m = bits_to_double((bits & 0x000fffffffffffffLL) | 0x3ff0000000000000LL);  // [1, 2)
  const double exponent = static_cast<double>(static_cast<int32_t>(bits >> 52) - 1023);
  const bool high = m > 1.4142135623730951;
  *e = high ? exponent + 1.0 : exponent;
  return (high ? m * 0.5 : m) - 1.0;
}

// log(x) for normal positive finite x, within 1 ulp (fdlibm's scheme):
// x = 2^e (1 + f) with 1 + f in [sqrt(1/2), sqrt(2)), s = f / (2 + f),
// log(1 + f) = f - (f^2/2 - s (f^2/2 + R)) with R = 2 atanh(s) / s - 2 by its
// series in s^2 (|s| <= 0.172: truncation below 2e-18).
inline double log(double x) {
  double e = 0.0;
  const double f = log_reduce(x, &e);
  const double s = f / (2.0 + f);
  const double z = s * s;
  double R = 2.0 / 23;
  R = R * z + 2.0 / 21;
  R = R * z + 2.0 / 19;
  R = R * z + 2.0 / 17;
  R = R * z + 2.0 / 15;
  R = R * z + 2.0 / 13;
  R = R * z + 2.0 / 11;
  R = R * z + 2.0 / 9;
  R = R * z + 2.0 / 7;
  R = R * z + 2.0 / 5;
  R = R * z + 2.0 / 3;
  R = R * z;
  const double hfsq = 0.5 * f * f;
  return e * kLn2Hi - ((hfsq - (s * (hfsq + R) + e * kLn2Lo)) - f);
}

// log(x) as hi + *lo for normal positive finite x, to about 2^-100 relative
// (pow's logarithm; needs a fused multiply-add): log's reduction, the
// division's remainder by fma, the series' leading 2 s^3 / 3 and the sums
// carried as pairs, the rest of the series in double (below 2^-60 of it).
inline double log_pair(double x, double* lo) {
  constexpr double kTwoThirds = 0.6666666666666666, kTwoThirdsLo = 3.700743415417188e-17;
  double e = 0.0;
  const double f = log_reduce(x, &e);
  const double d = 2.0 + f;
  const double d_lo = (2.0 - d) + f;  // exact: |f| < 2
  const double s = f / d;
  const double s_lo = (std::fma(-s, d, f) - s * d_lo) / d;  // s + s_lo = f / (2 + f)
  // 2 atanh(s) = 2 s + (2/3) s^3 + 2 s^5 (1/5 + z/7 + ...), z = s^2 <= 0.0295.
  const double z = s * s, z_lo = std::fma(s, s, -z);
  const double c = z * s, c_lo = std::fma(z, s, -c) + z_lo * s;  // s^3
  const double t = kTwoThirds * c;
  const double t_lo = std::fma(kTwoThirds, c, -t) + (kTwoThirds * c_lo + kTwoThirdsLo * c);
  double q = 2.0 / 25;
  q = q * z + 2.0 / 23;
  q = q * z + 2.0 / 21;
  q = q * z + 2.0 / 19;
  q = q * z + 2.0 / 17;
  q = q * z + 2.0 / 15;
  q = q * z + 2.0 / 13;
  q = q * z + 2.0 / 11;
  q = q * z + 2.0 / 9;
  q = q * z + 2.0 / 7;
  q = q * z + 2.0 / 5;
  const double rest = c * z * q + 2.0 * z * s_lo;  // s_lo's share of (2/3) s^3 too
  // e ln2 + 2 s + t: each sum's rounding error kept (Fast2Sum: the larger first).
  const double a = e * kLn2Hi;  // exact
  const double b = 2.0 * s;
  const double sum1 = a + b;
  const double err1 = (a - sum1) + b;
  const double sum2 = sum1 + t;
  const double err2 = (sum1 - sum2) + t;
  const double low = err1 + err2 + (e * kLn2Lo + (2.0 * s_lo + (t_lo + rest)));
  const double hi = sum2 + low;
  *lo = low - (hi - sum2);
  return hi;
}

// |x|^y for normal finite x != 0 and finite y: exp(y log|x|) with both
// carried as pairs; within 1 ulp (tests/test_vec_math_double.py).
inline double pow_positive(double x, double y) {
  double log_lo = 0.0;
  const double log_hi = log_pair(x < 0 ? -x : x, &log_lo);
  const double p = y * log_hi;
  const double p_lo = std::fma(y, log_hi, -p) + y * log_lo;
  return exp_pair(p, p_lo);
}

// log1p(x) for x > -1 with 1 + x finite, within 2 ulp: log(u) x / (u - 1)
// with u = 1 + x rounded, which cancels u's rounding error (Goldberg).
inline double log1p(double x) {
  const double u = 1.0 + x;
  const double d = u - 1.0;
  const double r = lanes64::log(u) * (x / (d == 0.0 ? 1.0 : d));
  return d == 0.0 ? x : r;
}

// sin(r) and cos(r) for |r| <= pi/4 by their series to r^17 and r^18
// (truncation below 1e-19).
inline double sin_reduced(double r) {
  const double z = r * r;
  double p = 1.0 / 355687428096000.0;
  p = p * z - 1.0 / 1307674368000.0;
  p = p * z + 1.0 / 6227020800.0;
  p = p * z - 1.0 / 39916800.0;
  p = p * z + 1.0 / 362880.0;
  p = p * z - 1.0 / 5040.0;
  p = p * z + 1.0 / 120.0;
  p = p * z - 1.0 / 6.0;
  return r + r * (z * p);
}

inline double cos_reduced(double r) {
  const double z = r * r;
  double p = 1.0 / 6402373705728000.0;
  p = p * z - 1.0 / 20922789888000.0;
  p = p * z + 1.0 / 87178291200.0;
  p = p * z - 1.0 / 479001600.0;
  p = p * z + 1.0 / 3628800.0;
  p = p * z - 1.0 / 40320.0;
  p = p * z + 1.0 / 720.0;
  p = p * z - 1.0 / 24.0;
  return (1.0 - 0.5 * z) - (z * z) * p;
}

// x = q pi/2 + r with |r| <= pi/4, pi/2 in three parts of which the first
// two have 33 significant bits: for |q| < 2^20 their products with q are
// exact, and x - q kHalfPi1 and the next subtraction cancel exactly, so r
// keeps its accuracy next to a multiple of pi/2. Beyond kTrigMax the
// caller takes <cmath>'s full reduction.
constexpr double kHalfPi1 = 1.5707963267341256, kHalfPi2 = 6.077100506303966e-11,
                 kHalfPi3 = 2.0222662487959506e-21;
constexpr double kTrigMax = 1e5;

inline double reduce_quarter_turns(double x, int32_t* quadrant) {
  const double xc = x <= kTrigMax && x >= -kTrigMax ? x : 0.0;
  const double q = round_to_integer(xc * 0.63661977236758134);  // 2 / pi
  *quadrant = static_cast<int32_t>(q) & 3;
  return ((xc - q * kHalfPi1) - q * kHalfPi2) - q * kHalfPi3;
}

// sin(x) for |x| <= kTrigMax, within 2 ulp.
inline double sin(double x) {
  int32_t quadrant;
  const double r = reduce_quarter_turns(x, &quadrant);
  const double v = (quadrant & 1) ? cos_reduced(r) : sin_reduced(r);
  const double result = (quadrant & 2) ? -v : v;
  return x == 0.0 ? x : result;  // keeps -0
}

// cos(x) for |x| <= kTrigMax, within 2 ulp.
inline double cos(double x) {
  int32_t quadrant;
  const double r = reduce_quarter_turns(x, &quadrant);
  const double v = (quadrant & 1) ? sin_reduced(r) : cos_reduced(r);
  return ((quadrant + 1) & 2) ? -v : v;
}

// lgamma(2 + t) / t for t in [-3/4, 1/2]: a least-squares polynomial of
// degree 22 at 200 Chebyshev nodes (tools/vec_math_constants.py), within
// 3e-17 relative. Its value at 0 is 1 - Euler's gamma.
inline double lgamma_near_two(double t) {
  constexpr double c[23] = {
      -4.078534068052586e-08,  -3.4479731556290396e-08, -3.935367409100538e-09, 1.0494396669769736e-07,
      -9.14935328797869e-08,   1.8260106722411254e-07,  -4.601314619834736e-07, 9.63306867869914e-07,
      -2.0349770372134926e-06, 4.373549250121044e-06,   -9.440379833236786e-06, 2.050733646452371e-05,
      -4.4926124966965185e-05, 9.945750655015098e-05,   -0.00022315476687909385, 0.0005096695248665068,
      -0.001192753911338867,   0.0028905103307426553,   -0.007385551028682022,  0.02058080842778449,
      -0.06735230105319803,    0.3224670334241132,      0.42278433509846713};
  double p = c[0];
  // Unrolled in full, so the loop that calls this vectorises (GCC's own
  // limit for complete unrolling is 16 iterations).
#pragma GCC unroll 23
  for (int k = 1; k < 23; ++k) p = p * t + c[k];
  return t * p;
}

// Stirling's series of lgamma(a) - (a - 1/2) log a + a - log(2 pi) / 2 for
// a >= 10: the Bernoulli terms B_2k / (2k (2k - 1) a^(2k-1)) to k = 8
// (truncation below 2e-18 of the result).
inline double stirling_tail(double a) {
  const double s = 1.0 / a;
  const double z = s * s;
  double p = -0.029550653594771242;
  p = p * z + 0.00641025641025641;
  p = p * z - 0.0019175269175269176;
  p = p * z + 0.0008417508417508417;
  p = p * z - 0.0005952380952380953;
  p = p * z + 0.0007936507936507937;
  p = p * z - 0.002777777777777778;
  p = p * z + 0.08333333333333333;
  return s * p;
}

// log|Gamma(x)| for finite x with 1e-290 <= |x| < 1e300 that is not a
// non-positive integer, and |x| < 2^51 when negative. For a = x > 0 below
// 10 the recurrence moves a into [1.25, 2.5) (up to 2 steps up, dividing by
// the product of the steps, or 8 down, multiplying), where t = a - k is
// exact next to 1 and 2, so lgamma keeps its relative accuracy at those
// zeros; from 10 Stirling's series. Negative x by the reflection
// lgamma(x) = log(pi / |sin(pi x)|) - lgamma(1 - x), whose difference loses
// relative accuracy next to the zeros of lgamma on the negative axis (as
// every vector lgamma does; 2e-15 absolute there). Within 3 ulp for x > 0.
inline double lgamma(double x) {
  const bool negative = x < 0.0;
  const double a = negative ? 1.0 - x : x;
  const bool big = a >= 10.0;
  // The recurrence, on a value kept in range when a is big.
  double y = big ? 2.0 : a;
  double up = 1.0, down = 1.0, shift = 2.0;
  for (int k = 0; k < 2; ++k) {
    const bool step = y < 1.25;
    up = step ? up * y : up;
    y = step ? y + 1.0 : y;
    shift = step ? shift - 1.0 : shift;
  }
  for (int k = 0; k < 8; ++k) {
    const bool step = y >= 2.5;
    y = step ? y - 1.0 : y;
    down = step ? down * y : down;
    shift = step ? shift + 1.0 : shift;
  }
  const bool stepped_up = shift < 2.0;
  const double small_a = big ? 2.0 : a;
  const double t = small_a - shift;  // exact from a = 1/2 up (Sterbenz): next to the zeros 1 and 2
  const double logged = lanes64::log(big ? a : (stepped_up ? up : down));
  const double small = lgamma_near_two(t) + (stepped_up ? -logged : logged);
  constexpr double kHalfLog2Pi = 0.9189385332046728;
  const double large = ((a - 0.5) * logged - a) + (kHalfLog2Pi + stirling_tail(big ? a : 10.0));
  const double positive = big ? large : small;
  // |sin(pi x)| from x's distance to the nearest integer, r in [0, 1/2].
  const double xr = negative ? x : 0.5;
  double r = xr - round_to_integer(xr);
  r = r < 0.0 ? -r : r;
  constexpr double kPi = 3.141592653589793;
  const double sine = r <= 0.25 ? sin_reduced(kPi * r) : cos_reduced(kPi * (0.5 - r));
  constexpr double kLogPi = 1.1447298858494002;
  return negative ? (kLogPi - lanes64::log(sine)) - positive : positive;
}

// 2^x for x in [-1075, 1023], within 2 ulp: x = n + f with n an integer
// and |f| <= 1/2 (f exact), 2^f = exp(f ln2) by the series, 2^n in two
// factors as in exp. Integers give powers of two exactly.
inline double exp2(double x) {
  const double n = round_to_integer(x);
  const double r = (x - n) * 0.6931471805599453;
  const double p = 1.0 + (r + expm1_tail(r));
  const double n1 = round_to_integer(n * 0.5);
  return p * two_to(n1) * two_to(n - n1);
}

// pi / tan(pi x) for x that is not an integer, |x| < 2^51: from r, x's
// signed distance to the nearest integer, by sin and cos of pi |r| or of
// pi (1/2 - |r|), whichever argument is at most pi/4.
inline double pi_over_tan_pi(double x) {
  const double r = x - round_to_integer(x);
  const double ar = r < 0.0 ? -r : r;
  constexpr double kPi = 3.141592653589793;
  const bool near = ar <= 0.25;
  const double angle = kPi * (near ? ar : 0.5 - ar);
  const double s = sin_reduced(angle), c = cos_reduced(angle);
  const double magnitude = near ? kPi * c / s : kPi * s / c;
  return r < 0.0 ? -magnitude : magnitude;
}

// digamma(x) for 1e-290 <= |x| < 1e300 that is not a non-positive
// integer (and |x| < 2^51 when negative), as SpecialFunctions.h's scalar
// psi: the recurrence psi(a) = psi(a + 1) - 1/a up to a >= 10 (its sum kept
// as one fraction, so one division), then the asymptotic series; the
// reflection psi(1 - x) - pi / tan(pi x) below 0. Next to psi's zero at
// 1.4616 the recurrence cancels, as the scalar's does (1e-16 absolute).
inline double digamma(double x) {
  const bool negative = x < 0.0;
  const double a = negative ? 1.0 - x : x;
  double y = a, num = 0.0, den = 1.0;
  for (int k = 0; k < 10; ++k) {
    const bool step = y < 10.0;
    num = step ? num * y + den : num;  // num / den + 1 / y
    den = step ? den * y : den;
    y = step ? y + 1.0 : y;
  }
  const double z = 1.0 / (y * y);
  double series = 1.0 / 12;
  series = series * z - 691.0 / 32760;
  series = series * z + 1.0 / 132;
  series = series * z - 1.0 / 240;
  series = series * z + 1.0 / 252;
  series = series * z - 1.0 / 120;
  series = series * z + 1.0 / 12;
  const double positive = ((lanes64::log(y) - 0.5 / y) - z * series) - num / den;
  return negative ? positive - pi_over_tan_pi(x) : positive;
}

// ---- inverse trigonometric functions -----------------------------------
// pi/4, pi/2 and pi as a double and its remainder (tools/vec_math_constants.py):
// adding the remainder last keeps the bits a sum with the constant would lose.
constexpr double kQuarterPi = 0.7853981633974483, kQuarterPiLo = 3.061616997868383e-17;
constexpr double kHalfPi = 1.5707963267948966, kHalfPiLo = 6.123233995736766e-17;
constexpr double kPi = 3.141592653589793, kPiLo = 1.2246467991473532e-16;

// asin(x) for |x| <= 1/2: x + x z P(z), z = x^2, P a least-squares
// polynomial of degree 12 (tools/vec_math_constants.py), within 6e-18 relative.
inline double asin_half(double x) {
  constexpr double c[13] = {0.028878362746452394, -0.015032162599250314, 0.01751883397953867,
                            0.005413184483715509, 0.01033337215296726,   0.011477517005507167,
                            0.01397138708310213,  0.017352380709839098,  0.022372173467043486,
                            0.03038194412500875,  0.04464285714653523,   0.0749999999999834,
                            0.16666666666666669};
  const double z = x * x;
  double p = c[0];
#pragma GCC unroll 13
  for (int k = 1; k < 13; ++k) p = p * z + c[k];
  return x + x * z * p;
}

// atan(x) for |x| <= tan(pi/8): x + x z Q(z), z = x^2, Q of degree 10
// (tools/vec_math_constants.py), within 7e-18 relative.
inline double atan_eighth(double x) {
  constexpr double c[11] = {-0.01920252926841228, 0.039253696320618564, -0.05086254885823143, 0.05858311810501153,
                            -0.06664531369805009, 0.07692184699371778,  -0.0909090464769568,  0.11111111017100327,
                            -0.1428571428469138,  0.19999999999995652,  -0.3333333333333333};
  const double z = x * x;
  double p = c[0];
#pragma GCC unroll 11
  for (int k = 1; k < 11; ++k) p = p * z + c[k];
  return x + x * z * p;
}

// asin |x| for |x| <= 1 in Cephes' reduction: asin_half(|x|) up to 1/2;
// above, asin |x| = pi/2 - 2 asin(s) with s = sqrt((1 - |x|) / 2) <= 1/2,
// where 1 - |x| is exact. `big` tells which; returns asin_half's value.
inline double asin_reduced(double x, bool* big) {
  const double a = x < 0 ? -x : x;
  *big = a > 0.5;
  return asin_half(*big ? std::sqrt(0.5 * (1.0 - a)) : a);
}

// asin x for |x| <= 1 (the caller takes NaN and |x| > 1).
inline double asin(double x) {
  bool big = false;
  const double r = asin_reduced(x, &big);
  return with_sign_of(big ? (kHalfPi - 2.0 * r) + kHalfPiLo : r, x);
}

// acos x for |x| <= 1: pi/2 - asin x in the middle, 2 asin(s) above 1/2 and
// pi - 2 asin(s) below -1/2, so nothing cancels near +-1.
inline double acos(double x) {
  bool big = false;
  const double r = asin_reduced(x, &big);
  const double middle = kHalfPi + (kHalfPiLo - with_sign_of(r, x));
  const double outer = x > 0 ? 2.0 * r : kPi + (kPiLo - 2.0 * r);
  return big ? outer : middle;
}

// atan x for every x but NaN: |x| > 1 as pi/2 - atan(1 / |x|), then above
// tan(pi/8) as pi/4 + atan((t - 1) / (t + 1)), whose argument lies in
// [-tan(pi/8), 0]; atan_eighth of what is left.
inline double atan(double x) {
  constexpr double kTanEighthPi = 0.41421356237309503;
  const double a = x < 0 ? -x : x;
  const bool big = a > 1.0;
  const double t = big ? 1.0 / a : a;
  const bool mid = t > kTanEighthPi;
  const double r = atan_eighth(mid ? (t - 1.0) / (t + 1.0) : t);
  const double unit = mid ? kQuarterPi + (kQuarterPiLo + r) : r;
  return with_sign_of(big ? kHalfPi + (kHalfPiLo - unit) : unit, x);
}

}  // namespace lanes64
}  // namespace CPU_CAPABILITY
}  // namespace at::native::vec
