#include <ATen/native/cpu/VecMath.h>
#include <ATen/native/cpu/VecMathAvx512.h>
#include <ATen/native/cpu/VecMathLanes.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#if defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)
#include <immintrin.h>
#endif

namespace at::native::vec {
inline namespace CPU_CAPABILITY {
namespace {

using lanes::bits_to_float;

inline float float16_to_float(uint16_t h) {
  const int32_t sign = static_cast<int32_t>(h & 0x8000u) << 16;
  const int32_t magnitude = h & 0x7fff;
  // Exponent and mantissa moved into float's places; multiplying by 2^112
  // rebiases the exponent (15 -> 127) and scales subnormals right too.
  const float finite = bits_to_float(magnitude << 13) * 0x1p112f;
  int32_t bits;
  std::memcpy(&bits, &finite, sizeof bits);
  if (magnitude >= 0x7c00) bits = (magnitude << 13) | 0x7f800000;  // inf, NaN (payload kept)
  return bits_to_float(bits | sign);
}

inline float bfloat16_to_float(uint16_t b) { return bits_to_float(static_cast<int32_t>(b) << 16); }

template <typename T, typename Widen>
inline double blocked_sum(const T* x, int64_t n, Widen widen) {
  // 64 lanes: four AVX-512 (eight AVX2) additions in flight, so a short
  // row that sits in L1 is not bound by one chain of add latencies. The
  // lanes fold pairwise (vector adds) to 8, which are added in double.
  constexpr int64_t kLanes = 64, kBlock = 4096;
  double total = 0;
  for (int64_t start = 0; start < n; start += kBlock) {
    const int64_t end = n < start + kBlock ? n : start + kBlock;
    float lanes[kLanes] = {};
    int64_t i = start;
    for (; i + kLanes <= end; i += kLanes)
      for (int64_t k = 0; k < kLanes; ++k) lanes[k] += widen(x[i + k]);
    for (int64_t k = 0; k < 32; ++k) lanes[k] += lanes[k + 32];
    for (int64_t k = 0; k < 16; ++k) lanes[k] += lanes[k + 16];
    for (int64_t k = 0; k < 8; ++k) lanes[k] += lanes[k + 8];
    double block = 0;
    for (; i < end; ++i) block += widen(x[i]);
    for (int64_t k = 0; k < 8; ++k) block += lanes[k];
    total += block;
  }
  return total;
}

inline float exp1(float x) { return lanes::exp(x); }

inline float tanh1(float x) {
  const float a = x < 0 ? -x : x;
  const float z = x * x;
  float p = -5.70498872745e-3f;
  p = p * z + 2.06390887954e-2f;
  p = p * z - 5.37397155531e-2f;
  p = p * z + 1.33314422036e-1f;
  p = p * z - 3.33332819422e-1f;
  const float small = x + x * z * p;
  const float big = 1.0f - 2.0f / (exp1(2.0f * a) + 1.0f);  // NaN stays NaN
  return a < 0.625f ? small : (x < 0 ? -big : big);
}

// erf's Taylor series to x^17: within 3 ulp for |x| < 0.9. x (1 + z s)
// keeps erf(-0) = -0.
inline float erf_taylor(float x) {
  const float z = x * x;
  float s = 1.0f / 685440.0f;
  s = s * z - 1.0f / 75600.0f;
  s = s * z + 1.0f / 9360.0f;
  s = s * z - 1.0f / 1320.0f;
  s = s * z + 1.0f / 216.0f;
  s = s * z - 1.0f / 42.0f;
  s = s * z + 1.0f / 10.0f;
  s = s * z - 1.0f / 3.0f;
  return 1.12837916709551257f * x * (1.0f + z * s);  // 2/sqrt(pi) (x - x^3/3 + ...)
}

// erf(x) by Abramowitz and Stegun's 7.1.26 alone: absolute error under
// 1.5e-7 (10 ulp near 0.3), the approximation PyTorch's vectorised CPU erf
// and gelu use everywhere. gelu takes it as it is, as PyTorch does.
inline float erf_abramowitz_stegun(float x) {
  const float a = x < 0 ? -x : x;
  const float t = 1.0f / (1.0f + 0.3275911f * a);
  const float p = lanes::horner(t, {1.061405429f, -1.453152027f, 1.421413741f, -0.284496736f, 0.254829592f});
  const float big = 1.0f - p * t * exp1(-x * x);
  return a == a ? (x < 0 ? -big : big) : x;  // NaN stays NaN
}

// erf(x) for one float: the series below 0.9, 7.1.26 above (within 5 ulp).
inline float erf1(float x) {
  const float a = x < 0 ? -x : x;
  return a < 0.9f ? erf_taylor(x) : erf_abramowitz_stegun(x);
}

// erfc(x) for one float. Below |x| = 0.5, 1 - erf(x) by the series (the
// result lies in (0.47, 1.53), where the series' error stays under an
// ulp). Beyond, erfc(z) = t exp(-z^2) exp(g(t)) with t = 1 / (1 + z / 2)
// and g a degree-9 polynomial fitted for this kernel (least squares
// reweighted towards minimax over [0, 10.05], error 5e-8); z^2 = p + e
// exactly (fma), so exp(-p) exp(-e) keeps its relative accuracy where z^2
// nears 100. A negative x takes 2 - erfc(|x|); past 10.1 the result is 0
// (or 2), as erfcf's underflow; NaN stays NaN.
inline float erfc1(float x) {
  const float z = x < 0 ? -x : x;
  const float t = 1.0f / (1.0f + 0.5f * z);
  const float g = lanes::horner(t, {0.11202023178339005f, -0.504302978515625f, 0.7486855387687683f,
                                    -0.16447117924690247f, -0.5093178153038025f, 0.22262084484100342f,
                                    -0.03812643885612488f, 0.40125516057014465f, 0.9970088601112366f,
                                    -1.2653721570968628f});
  const float p = z * z;
  const float e = std::fma(z, z, -p);
  const float tail = t * exp1(-p) * exp1(g - e);
  const float big = x < 0 ? 2.0f - tail : tail;
  const float beyond = x < 0 ? 2.0f : 0.0f;
  return z < 0.5f ? 1.0f - erf_taylor(x) : (z <= 10.1f ? big : (x == x ? beyond : x));
}

}  // namespace


void atan2(const float* y, const float* x, float* out, int64_t n) {
  // Blocks through a buffer, so that out may alias x or y: the second pass
  // still reads the inputs.
  constexpr int64_t kBlock = 256;
  float buffer[kBlock];
  for (int64_t start = 0; start < n; start += kBlock) {
    const int64_t m = std::min(kBlock, n - start);
    const float* yb = y + start;
    const float* xb = x + start;
    // The octant from |y| / |x| <= 1, then mirrored into place: a loop
    // without calls, which the compiler widens.
    for (int64_t i = 0; i < m; ++i) {
      const float ax = std::fabs(xb[i]), ay = std::fabs(yb[i]);
      const bool steep = ay > ax;
      const float t = steep ? ax / ay : ay / ax;
      float a = lanes::atan_unit(t);
      a = steep ? 1.5707963267948966f - a : a;
      a = xb[i] < 0 ? 3.1415926535897932f - a : a;
      buffer[i] = std::copysign(a, yb[i]);
    }
    // Zeros, infinities and NaN (signed zeros, the quadrant of each
    // infinity) as <cmath> gives them: rare, so a second pass.
    for (int64_t i = 0; i < m; ++i) {
      if (!(std::isfinite(xb[i]) && std::isfinite(yb[i])) || xb[i] == 0 || yb[i] == 0) {
        buffer[i] = std::atan2(yb[i], xb[i]);
      }
    }
    std::memcpy(out + start, buffer, m * sizeof(float));
  }
}

void erf(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = erf1(x[i]);
}

void erfc(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = erfc1(x[i]);
}

void gelu(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = 0.5f * x[i] * (1.0f + erf_abramowitz_stegun(x[i] * 0.70710678118654752f));
}

void gelu_backward(const float* g, const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const float cdf = 0.5f * (1.0f + erf_abramowitz_stegun(x[i] * 0.70710678118654752f));
    const float pdf = exp1(-0.5f * x[i] * x[i]) * 0.39894228040143268f;
    y[i] = g[i] * (cdf + x[i] * pdf);
  }
}

void gelu_tanh(const float* x, float* y, int64_t n) {
  constexpr float kBeta = 0.7978845608028654f, kKappa = 0.044715f;
  for (int64_t i = 0; i < n; ++i) {
    const float v = x[i];
    y[i] = 0.5f * v * (1.0f + tanh1(kBeta * (v + kKappa * v * v * v)));
  }
}

// d/dx: (1 + t) / 2 + x (1 - t^2) beta (1 + 3 kappa x^2) / 2, t the tanh.
void gelu_tanh_backward(const float* g, const float* x, float* y, int64_t n) {
  constexpr float kBeta = 0.7978845608028654f, kKappa = 0.044715f;
  for (int64_t i = 0; i < n; ++i) {
    const float v = x[i], v2 = v * v;
    const float t = tanh1(kBeta * (v + kKappa * v2 * v));
    const float d = 0.5f * (1.0f + t) + 0.5f * v * (1.0f - t * t) * kBeta * (1.0f + 3.0f * kKappa * v2);
    y[i] = g[i] * d;
  }
}

namespace {

void tanh_loop(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = tanh1(x[i]);
}

void exp_loop(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = exp1(x[i]);
}

void sigmoid_loop(const float* x, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = 1.0f / (1.0f + exp1(-x[i]));
}

// The sum of exp(x[i] - shift), storing each in y when Store (softmax;
// log_softmax only sums). Blocks of 512: the exps into a buffer (a loop
// the compiler widens), then summed in 16 float lanes into a double; the
// two steps fused in one loop stayed scalar on AVX2.
template <bool Store>
double exp_shifted_blocks(const float* x, float shift, float* y, int64_t n) {
  constexpr int64_t kBlock = 512, kLanes = 16;
  float buffer[kBlock];
  double total = 0;
  for (int64_t start = 0; start < n; start += kBlock) {
    const int64_t len = std::min(kBlock, n - start);
    float* e = Store ? y + start : buffer;
    for (int64_t i = 0; i < len; ++i) e[i] = exp1(x[start + i] - shift);
    float lanes[kLanes] = {};
    int64_t i = 0;
    for (; i + kLanes <= len; i += kLanes) {
      for (int64_t k = 0; k < kLanes; ++k) lanes[k] += e[i + k];
    }
    double block = 0;
    for (; i < len; ++i) block += e[i];
    for (int64_t k = 0; k < kLanes; ++k) block += lanes[k];
    total += block;
  }
  return total;
}

double exp_shifted_loop(const float* x, float shift, float* y, int64_t n) {
  return y ? exp_shifted_blocks<true>(x, shift, y, n) : exp_shifted_blocks<false>(x, shift, nullptr, n);
}

// y[i] *= s
void scale(float* y, float s, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] *= s;
}

// y[i] = (x[i] - a) - b, in that order (log_softmax: a the max, b log(sum)).
void subtract2(const float* x, float a, float b, float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) y[i] = (x[i] - a) - b;
}

// sum((x[i] - mean)^2), in float lanes added up in double.
double sum_squared_deviation(const float* x, float mean, int64_t n) {
  return blocked_sum(x, n, [mean](float v) { return (v - mean) * (v - mean); });
}

// y[i] = (x[i] - mean) * rstd * w[i] + b[i]; w and b may be null (absent).
void normalize(const float* x, float mean, float rstd, const float* w, const float* b, float* y,
                                int64_t n) {
  if (w && b) {
    for (int64_t i = 0; i < n; ++i) y[i] = (x[i] - mean) * rstd * w[i] + b[i];
  } else if (w) {
    for (int64_t i = 0; i < n; ++i) y[i] = (x[i] - mean) * rstd * w[i];
  } else if (b) {
    for (int64_t i = 0; i < n; ++i) y[i] = (x[i] - mean) * rstd + b[i];
  } else {
    for (int64_t i = 0; i < n; ++i) y[i] = (x[i] - mean) * rstd;
  }
}

}  // namespace

// The exp family: the AVX-512 kernels in the AVX512 copy, else the loops.
#ifdef CPU_CAPABILITY_AVX512
#define TORCH_VEC_PREFER_AVX512(call) return avx512::call
#else
#define TORCH_VEC_PREFER_AVX512(call)
#endif

void tanh(const float* x, float* y, int64_t n) {
  TORCH_VEC_PREFER_AVX512(tanh(x, y, n));
  tanh_loop(x, y, n);
}

void exp(const float* x, float* y, int64_t n) {
  TORCH_VEC_PREFER_AVX512(exp(x, y, n));
  exp_loop(x, y, n);
}

void sigmoid(const float* x, float* y, int64_t n) {
  TORCH_VEC_PREFER_AVX512(sigmoid(x, y, n));
  sigmoid_loop(x, y, n);
}

void softmax_rows(const float* x, float* y, int64_t rows, int64_t n, bool log) {
  TORCH_VEC_PREFER_AVX512(softmax_rows(x, y, rows, n, log));
  for (int64_t r = 0; r < rows; ++r, x += n, y += n) {
    const float row_max = max(x, n);
    const float shift = row_max == -std::numeric_limits<float>::infinity() ? 0.0f : row_max;
    if (log) {
      subtract2(x, shift, static_cast<float>(std::log(exp_shifted_loop(x, shift, nullptr, n))), y, n);
    } else {
      scale(y, static_cast<float>(1.0 / exp_shifted_loop(x, shift, y, n)), n);
    }
  }
}

namespace {

// Written with GCC vector types: a max- (or min-) reduction with NaN
// tracking that the auto-vectoriser would otherwise leave scalar. Two
// vectors in flight: 32-byte ones in the AVX2/AVX-512 copies, 16-byte ones
// in the baseline copy (SSE2 has no 32-byte registers: wider vector types
// there become a scalar loop through the stack, 10x slower).
#if defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)
constexpr int kVectorBytes = 32;
#else
constexpr int kVectorBytes = 16;
#endif

template <typename T, bool Max>
T extreme_lanes(const T* x, int64_t n) {
  typedef T vT __attribute__((vector_size(kVectorBytes)));
  using I = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
  typedef I vI __attribute__((vector_size(kVectorBytes)));
  constexpr int64_t kWidth = kVectorBytes / sizeof(T);
  if (n == 0) return Max ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
  int64_t i = 0;
  T best = x[0];
  bool any_nan = false;
  if (n >= 2 * kWidth) {
    vT b0, b1;
    std::memcpy(&b0, x, sizeof b0);
    std::memcpy(&b1, x + kWidth, sizeof b1);
    vI nan = {};
    for (i = 2 * kWidth; i + 2 * kWidth <= n; i += 2 * kWidth) {
      vT v0, v1;
      std::memcpy(&v0, x + i, sizeof v0);
      std::memcpy(&v1, x + i + kWidth, sizeof v1);
      if constexpr (Max) {
        b0 = v0 > b0 ? v0 : b0;
        b1 = v1 > b1 ? v1 : b1;
      } else {
        b0 = v0 < b0 ? v0 : b0;
        b1 = v1 < b1 ? v1 : b1;
      }
      nan |= (v0 != v0) | (v1 != v1);
    }
    nan |= (b0 != b0) | (b1 != b1);
    for (int64_t k = 0; k < kWidth; ++k) {
      best = (Max ? b0[k] > best : b0[k] < best) ? b0[k] : best;
      best = (Max ? b1[k] > best : b1[k] < best) ? b1[k] : best;
      any_nan |= nan[k] != 0;
    }
  }
  for (; i < n; ++i) {
    best = (Max ? x[i] > best : x[i] < best) ? x[i] : best;
    any_nan |= x[i] != x[i];
  }
  return any_nan ? std::numeric_limits<T>::quiet_NaN() : best;
}

}  // namespace

double sum_exp_shifted(const float* x, float shift, int64_t n) { return exp_shifted_loop(x, shift, nullptr, n); }

float max(const float* x, int64_t n) { return extreme_lanes<float, true>(x, n); }
float min(const float* x, int64_t n) { return extreme_lanes<float, false>(x, n); }
double max(const double* x, int64_t n) { return extreme_lanes<double, true>(x, n); }
double min(const double* x, int64_t n) { return extreme_lanes<double, false>(x, n); }

double sum(const float* x, int64_t n) {
  return blocked_sum(x, n, [](float v) { return v; });
}

namespace {

[[maybe_unused]] double sum_float16_portable(const uint16_t* bits, int64_t n) {
  return blocked_sum(bits, n, float16_to_float);
}

#if defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)
// F16C converts eight halves in one instruction (vcvtph2ps), which the
// vectoriser never emits for the portable conversion.
double sum_float16_f16c(const uint16_t* bits, int64_t n) {
  constexpr int64_t kBlock = 4096;
  double total = 0;
  for (int64_t start = 0; start < n; start += kBlock) {
    const int64_t end = n < start + kBlock ? n : start + kBlock;
    __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();
    int64_t i = start;
    for (; i + 16 <= end; i += 16) {
      a0 = _mm256_add_ps(a0, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(bits + i))));
      a1 = _mm256_add_ps(a1, _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(bits + i + 8))));
    }
    alignas(32) float lanes[8];
    _mm256_store_ps(lanes, _mm256_add_ps(a0, a1));
    double block = 0;
    for (float v : lanes) block += v;
    for (; i < end; ++i) block += float16_to_float(bits[i]);
    total += block;
  }
  return total;
}
#endif

}  // namespace

double sum_float16(const uint16_t* bits, int64_t n) {
#if defined(CPU_CAPABILITY_AVX2) || defined(CPU_CAPABILITY_AVX512)
  return sum_float16_f16c(bits, n);  // both copies are built with F16C
#else
  return sum_float16_portable(bits, n);
#endif
}

double sum_bfloat16(const uint16_t* bits, int64_t n) {
  return blocked_sum(bits, n, bfloat16_to_float);
}

void add_rows(const float* x, int64_t rows, int64_t stride, float* __restrict acc, int64_t cols) {
  int64_t r = 0;
  for (; r + 4 <= rows; r += 4) {
    const float* __restrict r0 = x + r * stride;
    const float* __restrict r1 = r0 + stride;
    const float* __restrict r2 = r1 + stride;
    const float* __restrict r3 = r2 + stride;
    for (int64_t j = 0; j < cols; ++j) acc[j] += (r0[j] + r1[j]) + (r2[j] + r3[j]);
  }
  for (; r < rows; ++r) {
    const float* __restrict row = x + r * stride;
    for (int64_t j = 0; j < cols; ++j) acc[j] += row[j];
  }
}

void layer_norm_rows(const float* x, const float* w, const float* b, float* y, float* mean_out, float* rstd_out,
                     int64_t rows, int64_t n, double eps) {
  TORCH_VEC_PREFER_AVX512(layer_norm_rows(x, w, b, y, mean_out, rstd_out, rows, n, eps));
  for (int64_t r = 0; r < rows; ++r, x += n, y += n) {
    if (r + 2 < rows) {
      for (int64_t off = 0; off < n; off += 16) __builtin_prefetch(x + 2 * n + off);
    }
    const float mean = static_cast<float>(sum(x, n) / static_cast<double>(n));
    const double var = sum_squared_deviation(x, mean, n) / static_cast<double>(n);
    const float rstd = static_cast<float>(1.0 / std::sqrt(var + eps));
    mean_out[r] = mean;
    rstd_out[r] = rstd;
    normalize(x, mean, rstd, w, b, y, n);
  }
}

REGISTER_CPU_DISPATCH(vec_sigmoid_stub, &sigmoid);
REGISTER_CPU_DISPATCH(vec_tanh_stub, &tanh);
REGISTER_CPU_DISPATCH(vec_layer_norm_rows_stub, &layer_norm_rows);

}  // namespace CPU_CAPABILITY
}  // namespace at::native::vec
