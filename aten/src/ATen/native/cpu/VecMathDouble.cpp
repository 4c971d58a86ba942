// The float64 elementary and gamma functions of dense arrays, and float32
// lgamma, digamma and hypot computed through them: VecMathLanes64.h's
// branch-free functions in a loop the compiler vectorises, then <cmath>
// (or SpecialFunctions.h) for the few elements outside their domains,
// found per block by a vectorised test (VecMathChecked.h).
#include <ATen/native/SpecialFunctions.h>
#include <ATen/native/cpu/VecMath.h>
#include <ATen/native/cpu/VecMathChecked.h>
#include <ATen/native/cpu/VecMathLanes64.h>

#include <cmath>
#include <limits>

namespace at::native::vec {
inline namespace CPU_CAPABILITY {
namespace {

constexpr double kMinNormal = std::numeric_limits<double>::min();
constexpr double kMax = std::numeric_limits<double>::max();

// Where lanes64::lgamma and lanes64::digamma hold: not a pole (zero or a
// negative integer), nothing so small that a step divides into a
// subnormal, nothing so large that Stirling's product overflows.
inline bool gamma_domain(double v) {
  const bool positive = v >= 1e-290 && v < 1e300;
  const bool negative = v <= -1e-290 && v > -2251799813685248.0 && v != lanes64::round_to_integer(v);
  return positive || negative;
}

// float32 through the double lanes, in blocks: widen, map, narrow.
template <typename Map>
inline void through_double(const float* x, float* y, int64_t n, Map map) {
  constexpr int64_t kBlock = 512;
  double buffer[kBlock];
  for (int64_t start = 0; start < n; start += kBlock) {
    const int64_t len = std::min(kBlock, n - start);
    for (int64_t i = 0; i < len; ++i) buffer[i] = x[start + i];
    map(buffer, buffer, len);
    for (int64_t i = 0; i < len; ++i) y[start + i] = static_cast<float>(buffer[i]);
  }
}

}  // namespace

void exp(const double* x, double* y, int64_t n) {
  map_checked(
      x, y, n, [](double v) { return lanes64::exp(v); }, [](double v) { return v <= 709.7; },
      [](double v) { return std::exp(v); });
}

void expm1(const double* x, double* y, int64_t n) {
  map_checked(
      x, y, n, [](double v) { return lanes64::expm1(v); }, [](double v) { return v <= 700.0; },
      [](double v) { return std::expm1(v); });
}

void exp2(const double* x, double* y, int64_t n) {
  map_checked(
      x, y, n, [](double v) { return lanes64::exp2(v); }, [](double v) { return v >= -1075.0 && v <= 1023.0; },
      [](double v) { return std::exp2(v); });
}

void log(const double* x, double* y, int64_t n) {
  map_checked(
      x, y, n, [](double v) { return lanes64::log(v); }, [](double v) { return v >= kMinNormal && v <= kMax; },
      [](double v) { return std::log(v); });
}

// Below -1 the result is NaN in the lanes too (random data has many such
// elements, and <cmath>'s domain-error path is slow).
void log1p(const double* x, double* y, int64_t n) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  map_checked(
      x, y, n, [](double v) { return v < -1.0 ? kNaN : lanes64::log1p(v); },
      [](double v) { return v < -1.0 || (v > -1.0 && v <= kMax); }, [](double v) { return std::log1p(v); });
}

void sin(const double* x, double* y, int64_t n) {
  map_checked(
      x, y, n, [](double v) { return lanes64::sin(v); },
      [](double v) { return v >= -lanes64::kTrigMax && v <= lanes64::kTrigMax; }, [](double v) { return std::sin(v); });
}

void cos(const double* x, double* y, int64_t n) {
  map_checked(
      x, y, n, [](double v) { return lanes64::cos(v); },
      [](double v) { return v >= -lanes64::kTrigMax && v <= lanes64::kTrigMax; }, [](double v) { return std::cos(v); });
}

// atanh |x| = log1p(2|x| / (1 - |x|)) / 2 as the float32 form
// (VecMathElementary.cpp); +-1 and beyond in the lanes too, NaN from <cmath>.
void atanh(const double* x, double* y, int64_t n) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  constexpr double kInf = std::numeric_limits<double>::infinity();
  map_checked(
      x, y, n,
      [](double v) {
        const double a = v < 0 ? -v : v;
        const double small = 2.0 * a + 2.0 * a * a / (1.0 - a);
        const double big = 2.0 * a / (1.0 - a);
        const double magnitude = a == 1.0 ? kInf : 0.5 * lanes64::log1p(a < 0.5 ? small : big);
        return a > 1.0 ? kNaN : lanes64::with_sign_of(magnitude, v);
      },
      [](double v) { return v == v; }, [](double v) { return std::atanh(v); });
}

// The inverse trigonometric functions: |x| <= 1 (asin, acos) or not NaN
// (atan) in the lanes; NaN and |x| > 1 from <cmath>.
void asin(const double* x, double* y, int64_t n) {
  map_checked(
      x, y, n, [](double v) { return lanes64::asin(v); }, [](double v) { return v >= -1.0 && v <= 1.0; },
      [](double v) { return std::asin(v); });
}

void acos(const double* x, double* y, int64_t n) {
  map_checked(
      x, y, n, [](double v) { return lanes64::acos(v); }, [](double v) { return v >= -1.0 && v <= 1.0; },
      [](double v) { return std::acos(v); });
}

void atan(const double* x, double* y, int64_t n) {
  map_checked(
      x, y, n, [](double v) { return lanes64::atan(v); }, [](double v) { return v == v; },
      [](double v) { return std::atan(v); });
}

// pow with a negative base: the magnitude's sign by the parity of an
// integer exponent, NaN for any other, as <cmath>'s.
void pow(const double* x, const double* y, int64_t y_step, double* out, int64_t n) {
#if defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)
  map2_checked(
      x, 1, y, y_step, out, n,
      [](double a, double b) {
        const double magnitude = lanes64::pow_positive(a, b);
        // Parity in double (AVX2 has no double -> int64 conversion): b / 2 is exact.
        const double half = 0.5 * b;
        const bool integer = std::trunc(b) == b;
        const bool odd = integer && std::trunc(half) != half;
        const double negative = integer ? (odd ? -magnitude : magnitude) : std::numeric_limits<double>::quiet_NaN();
        return a < 0 ? negative : magnitude;
      },
      [](double a, double b) {
        const double abs_a = a < 0 ? -a : a;
        return abs_a >= kMinNormal && abs_a <= kMax && b >= -kMax && b <= kMax;
      },
      [](double a, double b) { return std::pow(a, b); });
#else
  // The lanes need a fused multiply-add, which the DEFAULT copy's target may not have.
  for (int64_t i = 0; i < n; ++i) out[i] = std::pow(x[i], y[i * y_step]);
#endif
}

void lgamma(const double* x, double* y, int64_t n) {
  map_checked(
      x, y, n, [](double v) { return lanes64::lgamma(v); }, gamma_domain, [](double v) { return std::lgamma(v); });
}

void digamma(const double* x, double* y, int64_t n) {
  map_checked(
      x, y, n, [](double v) { return lanes64::digamma(v); }, gamma_domain,
      [](double v) { return special::digamma(v); });
}

// float32 in double: lgamma's float result then rounds once. Outside the
// lanes' domain (poles, infinities, NaN) the double <cmath> answer, which
// float's agrees with there.
void lgamma(const float* x, float* y, int64_t n) {
  through_double(x, y, n, [](const double* a, double* b, int64_t m) { vec::lgamma(a, b, m); });
}

// float32 in double too: more accurate than the float scalar psi (which
// PyTorch's kernel computes in float); poles as the scalar gives them.
void digamma(const float* x, float* y, int64_t n) {
  through_double(x, y, n, [](const double* a, double* b, int64_t m) {
    map_checked(
        a, b, m, [](double v) { return lanes64::digamma(v); }, gamma_domain,
        [](double v) { return static_cast<double>(special::digamma(static_cast<float>(v))); });
  });
}

// hypot of float32 in double: x^2 + y^2 cannot overflow or lose bits there,
// so the square root rounds to float once more (within 0.5 ulp but for a
// double rounding); infinities and NaN as <cmath>'s hypot (an infinity wins
// over NaN). out may alias x or y.
void hypot(const float* x, int64_t x_step, const float* y, int64_t y_step, float* out, int64_t n) {
  constexpr float kFloatMax = std::numeric_limits<float>::max();
  map2_checked(
      x, x_step, y, y_step, out, n,
      [](float a, float b) {
        const double da = a, db = b;
        return static_cast<float>(std::sqrt(da * da + db * db));
      },
      [](float a, float b) { return a >= -kFloatMax && a <= kFloatMax && b >= -kFloatMax && b <= kFloatMax; },
      [](float a, float b) { return std::hypot(a, b); });
}

}  // namespace CPU_CAPABILITY
}  // namespace at::native::vec
