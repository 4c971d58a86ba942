// log, log1p, expm1, sin, cos, tan and pow of dense float32 arrays: VecMathLanes.h's
// branch-free functions in a loop the compiler vectorises, then <cmath> for
// the few elements outside their domains (zero, negatives, subnormals,
// infinities, NaN, |x| > 65536 for sin and cos), found per block by a
// vectorised test so that ordinary data pays nothing for them.
#include <ATen/native/cpu/VecMath.h>
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

// y[i] = lane(x[i]) where in_domain(x[i]), exact(x[i]) elsewhere. The block
// is copied first: y may be x (in-place ops), and the exceptional elements
// are recomputed from their inputs.
template <typename Lane, typename InDomain, typename Exact>
inline void map_checked(const float* x, float* y, int64_t n, Lane lane, InDomain in_domain, Exact exact) {
  constexpr int64_t kBlock = 512;
  float in[kBlock];
  for (int64_t start = 0; start < n; start += kBlock) {
    const int64_t len = std::min(kBlock, n - start);
    std::memcpy(in, x + start, static_cast<size_t>(len) * sizeof(float));
    float* out = y + start;
    int outside = 0;
    for (int64_t i = 0; i < len; ++i) {
      out[i] = lane(in[i]);
      outside |= in_domain(in[i]) ? 0 : 1;
    }
    if (outside) {
      for (int64_t i = 0; i < len; ++i) {
        if (!in_domain(in[i])) out[i] = exact(in[i]);
      }
    }
  }
}

}  // namespace

void log(const float* x, float* y, int64_t n) {
  map_checked(
      x, y, n, [](float v) { return lanes::log(v); }, [](float v) { return v >= kMinNormal && v <= kMax; },
      [](float v) { return std::log(v); });
}

void log1p(const float* x, float* y, int64_t n) {
  map_checked(
      x, y, n, [](float v) { return lanes::log1p(v); }, [](float v) { return v > -1.0f && v <= kMax; },
      [](float v) { return std::log1p(v); });
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
  constexpr int64_t kBlock = 512;
  float xs[kBlock], ys[kBlock];
  for (int64_t start = 0; start < n; start += kBlock) {
    const int64_t len = std::min(kBlock, n - start);
    std::memcpy(xs, x + start, static_cast<size_t>(len) * sizeof(float));
    if (y_step == 0) {
      std::fill(ys, ys + len, *y);
    } else {
      std::memcpy(ys, y + start, static_cast<size_t>(len) * sizeof(float));
    }
    float* o = out + start;
    int outside = 0;
    for (int64_t i = 0; i < len; ++i) {
      o[i] = lanes::pow_positive(xs[i], ys[i]);
      outside |= (xs[i] >= kMinNormal && xs[i] <= kMax && ys[i] >= -kMax && ys[i] <= kMax) ? 0 : 1;
    }
    if (outside) {
      for (int64_t i = 0; i < len; ++i) {
        if (!(xs[i] >= kMinNormal && xs[i] <= kMax && ys[i] >= -kMax && ys[i] <= kMax)) o[i] = std::pow(xs[i], ys[i]);
      }
    }
  }
#else
  // SSE2 has no fast double lanes for pow_positive: libm's scalar pow is
  // quicker there.
  for (int64_t i = 0; i < n; ++i) out[i] = std::pow(x[i], y[i * y_step]);
#endif
}

}  // namespace CPU_CAPABILITY
}  // namespace at::native::vec
