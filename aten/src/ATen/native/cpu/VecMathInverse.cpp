// atan, asin, acos and erfinv of dense float32 arrays: VecMathLanes.h's
// branch-free polynomials in a loop the compiler vectorises, <cmath> (or
// special::erfinv) for the elements outside their domains (NaN, |x| > 1,
// erfinv's +-1), as VecMathElementary.cpp does for exp and log.
#include <ATen/native/SpecialFunctions.h>
#include <ATen/native/cpu/VecMath.h>
#include <ATen/native/cpu/VecMathChecked.h>
#include <ATen/native/cpu/VecMathLanes.h>

#include <cmath>

namespace at::native::vec {
inline namespace CPU_CAPABILITY {
namespace {

constexpr float kHalfPi = 1.57079632679489662f;
constexpr float kPi = 3.14159265358979324f;

// asin_half of Cephes' reduced argument: |x| itself up to 1/2, sqrt((1 -
// |x|) / 2) above (*big set), from which asin and acos both rebuild.
inline float asin_reduced(float v, bool* big) {
  const float a = v < 0 ? -v : v;
  *big = a > 0.5f;
  return lanes::asin_half(*big ? std::sqrt(0.5f * (1.0f - a)) : a);
}

}  // namespace

// atan |x|: atan_unit on |x| <= 1, else pi/2 - atan_unit(1 / |x|) (which
// takes +-inf to +-pi/2). Within 3 ulp.
void atan(const float* x, float* y, int64_t n) {
  map_checked(
      x, y, n,
      [](float v) {
        const float a = v < 0 ? -v : v;
        const bool big = a > 1.0f;
        const float r = lanes::atan_unit(big ? 1.0f / a : a);
        return lanes::with_sign_of(big ? kHalfPi - r : r, v);
      },
      [](float v) { return v == v; }, [](float v) { return std::atan(v); });
}

// asin |x|: Cephes' reduction, asin_half below 1/2, pi/2 - 2 asin(sqrt((1 -
// |x|) / 2)) above. Within 3 ulp.
void asin(const float* x, float* y, int64_t n) {
  map_checked(
      x, y, n,
      [](float v) {
        bool big;
        const float p = asin_reduced(v, &big);
        return lanes::with_sign_of(big ? kHalfPi - 2.0f * p : p, v);
      },
      [](float v) { return v >= -1.0f && v <= 1.0f; }, [](float v) { return std::asin(v); });
}

// acos x: pi/2 - asin x in the middle, 2 asin(sqrt((1 - x) / 2)) above 1/2
// and pi - 2 asin(sqrt((1 + x) / 2)) below -1/2 (no cancellation near +-1).
// Within 3 ulp.
void acos(const float* x, float* y, int64_t n) {
  map_checked(
      x, y, n,
      [](float v) {
        bool big;
        const float p = asin_reduced(v, &big);  // asin |x| in the middle
        const float outer = v < 0 ? kPi - 2.0f * p : 2.0f * p;
        return big ? outer : kHalfPi - lanes::with_sign_of(p, v);
      },
      [](float v) { return v >= -1.0f && v <= 1.0f; }, [](float v) { return std::acos(v); });
}

// erfinv x on |x| < 1: Giles' single-precision approximation (2010), a
// polynomial in w = -log(1 - x^2) centred at 2.5 below w = 5 and in
// sqrt(w) - 3 above, times x. Within 4 ulp.
void erfinv(const float* x, float* y, int64_t n) {
  map_checked(
      x, y, n,
      [](float v) {
        const float w = -lanes::log((1.0f - v) * (1.0f + v));
        const bool centre = w < 5.0f;
        const float c = w - 2.5f, t = std::sqrt(w) - 3.0f;
        float pc = 2.81022636e-08f;
        pc = pc * c + 3.43273939e-07f;
        pc = pc * c - 3.5233877e-06f;
        pc = pc * c - 4.39150654e-06f;
        pc = pc * c + 0.00021858087f;
        pc = pc * c - 0.00125372503f;
        pc = pc * c - 0.00417768164f;
        pc = pc * c + 0.246640727f;
        pc = pc * c + 1.50140941f;
        float pt = -0.000200214257f;
        pt = pt * t + 0.000100950558f;
        pt = pt * t + 0.00134934322f;
        pt = pt * t - 0.00367342844f;
        pt = pt * t + 0.00573950773f;
        pt = pt * t - 0.0076224613f;
        pt = pt * t + 0.00943887047f;
        pt = pt * t + 1.00167406f;
        pt = pt * t + 2.83297682f;
        return (centre ? pc : pt) * v;
      },
      // lanes::log wants a normal positive argument: 1 - x^2 is one below |x| = 1
      // (and 1 for tiny x, where w = 0 and the product is x).
      [](float v) { return v > -1.0f && v < 1.0f; }, [](float v) { return special::erfinv(v); });
}

}  // namespace CPU_CAPABILITY
}  // namespace at::native::vec
