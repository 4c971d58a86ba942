#include <ATen/native/cpu/VecMathAvx512.h>


#ifdef CPU_CAPABILITY_AVX512
// GCC 12 warns that the intrinsics' own "undefined" pass-through operand
// (may) be uninitialised (GCC bug 105593, fixed in 13); it is never read.
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>

#include <cmath>
#include <limits>

namespace at::native::vec {
inline namespace CPU_CAPABILITY {
namespace avx512 {


namespace {

// The lanes of a vector that holds the next `left` elements: all 16 when
// at least 16 are left, else the low `left`.
inline __mmask16 tail_mask(int64_t left) {
  return left >= 16 ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << left) - 1);
}

// exp of 16 floats: x = n ln2 + r with |r| <= ln2/2, exp(r) by Cephes'
// polynomial, then exp(r) * 2^n by vscalefps (one rounding, so subnormal
// results are as exact as the scalar two-factor form).
inline __m512 exp16(__m512 x) {
  // max(lo, x) and min(hi, .) return their second operand for NaN: NaN passes.
  const __m512 xc = _mm512_min_ps(_mm512_set1_ps(88.8f), _mm512_max_ps(_mm512_set1_ps(-104.0f), x));
  const __m512 n = _mm512_roundscale_ps(_mm512_mul_ps(xc, _mm512_set1_ps(1.44269504088896341f)),
                                        _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), xc);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
  __m512 p = _mm512_set1_ps(1.9875691500e-4f);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.3981999507e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
  p = _mm512_fmadd_ps(_mm512_mul_ps(p, r), r, _mm512_add_ps(r, _mm512_set1_ps(1.0f)));
  // At x = -104, 2^-150 * p rounds to 0, as exp(-104) does; -inf clamps there.
  return _mm512_scalef_ps(p, n);
}

inline __m512 sigmoid16(__m512 x) {
  const __m512 one = _mm512_set1_ps(1.0f);
  return _mm512_div_ps(one, _mm512_add_ps(one, exp16(_mm512_sub_ps(_mm512_setzero_ps(), x))));
}

// VecMath's tanh1: an odd polynomial below 0.625, else 1 - 2 / (exp(2|x|) + 1).
inline __m512 tanh16(__m512 x) {
  const __m512 a = _mm512_abs_ps(x);
  const __m512 z = _mm512_mul_ps(x, x);
  __m512 p = _mm512_set1_ps(-5.70498872745e-3f);
  p = _mm512_fmadd_ps(p, z, _mm512_set1_ps(2.06390887954e-2f));
  p = _mm512_fmadd_ps(p, z, _mm512_set1_ps(-5.37397155531e-2f));
  p = _mm512_fmadd_ps(p, z, _mm512_set1_ps(1.33314422036e-1f));
  p = _mm512_fmadd_ps(p, z, _mm512_set1_ps(-3.33332819422e-1f));
  const __m512 small = _mm512_fmadd_ps(_mm512_mul_ps(x, z), p, x);
  const __m512 one = _mm512_set1_ps(1.0f);
  const __m512 e = exp16(_mm512_add_ps(a, a));
  const __m512 big = _mm512_sub_ps(one, _mm512_div_ps(_mm512_set1_ps(2.0f), _mm512_add_ps(e, one)));
  // The sign of x onto big (NaN stays NaN: its lanes fail the < compare below).
  const __m512i sign = _mm512_and_epi32(_mm512_castps_si512(x), _mm512_set1_epi32(INT32_MIN));
  const __m512 signed_big = _mm512_castsi512_ps(_mm512_or_epi32(_mm512_castps_si512(big), sign));
  const __mmask16 is_small = _mm512_cmp_ps_mask(a, _mm512_set1_ps(0.625f), _CMP_LT_OQ);
  return _mm512_mask_blend_ps(is_small, signed_big, small);
}

struct Exp {
  __m512 operator()(__m512 v) const { return exp16(v); }
};
struct Sigmoid {
  __m512 operator()(__m512 v) const { return sigmoid16(v); }
};
struct Tanh {
  __m512 operator()(__m512 v) const { return tanh16(v); }
};

// Applies f to x[0..n) into y, the last partial vector through masks.
template <typename F>
inline void map16(const float* x, float* y, int64_t n, F f) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(y + i, f(_mm512_loadu_ps(x + i)));
  if (i < n) {
    const __mmask16 m = tail_mask(n - i);
    _mm512_mask_storeu_ps(y + i, m, f(_mm512_maskz_loadu_ps(m, x + i)));
  }
}

// The 16 lanes of v added up in double.
inline double sum_in_double(__m512 v) {
  const __m512d lo = _mm512_cvtps_pd(_mm512_castps512_ps256(v));
  const __m512d hi = _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1)));
  return _mm512_reduce_add_pd(_mm512_add_pd(lo, hi));
}

// The sum of exp(x[i] - shift), storing each in y unless y is null. Two
// accumulators; their 16 lanes are added up in double.
inline double exp_shifted(const float* x, float shift, float* y, int64_t n) {
  const __m512 s = _mm512_set1_ps(shift);
  __m512 acc0 = _mm512_setzero_ps(), acc1 = _mm512_setzero_ps();
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m512 e0 = exp16(_mm512_sub_ps(_mm512_loadu_ps(x + i), s));
    const __m512 e1 = exp16(_mm512_sub_ps(_mm512_loadu_ps(x + i + 16), s));
    if (y) {
      _mm512_storeu_ps(y + i, e0);
      _mm512_storeu_ps(y + i + 16, e1);
    }
    acc0 = _mm512_add_ps(acc0, e0);
    acc1 = _mm512_add_ps(acc1, e1);
  }
  for (; i < n; i += 16) {
    const __mmask16 m = tail_mask(n - i);
    const __m512 e = exp16(_mm512_sub_ps(_mm512_maskz_loadu_ps(m, x + i), s));
    if (y) _mm512_mask_storeu_ps(y + i, m, e);
    acc0 = _mm512_mask_add_ps(acc0, m, acc0, e);
  }
  return sum_in_double(_mm512_add_ps(acc0, acc1));
}

// The largest x[i] of a row, or -inf for an empty one. A NaN may or may not
// come out (vmaxps passes its second operand on NaN); softmax does not need
// it to, since exp(NaN - max) makes the row's total, and so the row, NaN.
inline float row_max(const float* x, int64_t n) {
  __m512 m0 = _mm512_set1_ps(-std::numeric_limits<float>::infinity()), m1 = m0;
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    m0 = _mm512_max_ps(m0, _mm512_loadu_ps(x + i));
    m1 = _mm512_max_ps(m1, _mm512_loadu_ps(x + i + 16));
  }
  for (; i < n; i += 16) {
    const __mmask16 m = tail_mask(n - i);
    m0 = _mm512_mask_max_ps(m0, m, m0, _mm512_maskz_loadu_ps(m, x + i));
  }
  return _mm512_reduce_max_ps(_mm512_max_ps(m0, m1));
}

struct Scale {
  __m512 s;
  __m512 operator()(__m512 v) const { return _mm512_mul_ps(v, s); }
};
// (v - a) - b, in that order.
struct Subtract2 {
  __m512 a, b;
  __m512 operator()(__m512 v) const { return _mm512_sub_ps(_mm512_sub_ps(v, a), b); }
};

}  // namespace

void exp(const float* x, float* y, int64_t n) { map16(x, y, n, Exp{}); }

void sigmoid(const float* x, float* y, int64_t n) {
  map16(x, y, n, Sigmoid{});
}

void tanh(const float* x, float* y, int64_t n) { map16(x, y, n, Tanh{}); }

// The sum of f(x[i]) over a row: four 16-lane float accumulators over
// blocks of 4096 elements, each block's lanes added up in double (as
// VecMath's blocked_sum). f is exact float arithmetic, no FMA.
template <typename F>
inline double blocked_row_sum(const float* x, int64_t n, F f) {
  constexpr int64_t kBlock = 4096;
  double total = 0;
  for (int64_t start = 0; start < n; start += kBlock) {
    const int64_t end = n < start + kBlock ? n : start + kBlock;
    __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    int64_t i = start;
    for (; i + 64 <= end; i += 64) {
      a0 = _mm512_add_ps(a0, f(_mm512_loadu_ps(x + i)));
      a1 = _mm512_add_ps(a1, f(_mm512_loadu_ps(x + i + 16)));
      a2 = _mm512_add_ps(a2, f(_mm512_loadu_ps(x + i + 32)));
      a3 = _mm512_add_ps(a3, f(_mm512_loadu_ps(x + i + 48)));
    }
    for (; i < end; i += 16) {
      const __mmask16 m = tail_mask(end - i);
      a0 = _mm512_mask_add_ps(a0, m, a0, f(_mm512_maskz_loadu_ps(m, x + i)));
    }
    total += sum_in_double(_mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)));
  }
  return total;
}

struct Identity {
  __m512 operator()(__m512 v) const { return v; }
};
struct SquaredDeviation {
  __m512 mean;
  __m512 operator()(__m512 v) const {
    const __m512 d = _mm512_sub_ps(v, mean);
    return _mm512_mul_ps(d, d);
  }
};

void softmax_rows(const float* x, float* y, int64_t rows, int64_t n, bool log) {
  for (int64_t r = 0; r < rows; ++r, x += n, y += n) {
    const float max = row_max(x, n);
    const float shift = max == -std::numeric_limits<float>::infinity() ? 0.0f : max;
    if (log) {
      const float log_total = static_cast<float>(std::log(exp_shifted(x, shift, nullptr, n)));
      map16(x, y, n, Subtract2{_mm512_set1_ps(shift), _mm512_set1_ps(log_total)});
    } else {
      const double total = exp_shifted(x, shift, y, n);
      map16(y, y, n, Scale{_mm512_set1_ps(static_cast<float>(1.0 / total))});
    }
  }
}

// (x - mean) * rstd * w + b with each step rounded (no FMA), as the portable
// loop computes it; w and b may be null.
inline void normalize_row(const float* x, float mean, float rstd, const float* w, const float* b,
                                       float* y, int64_t n) {
  const __m512 m = _mm512_set1_ps(mean), r = _mm512_set1_ps(rstd);
  for (int64_t i = 0; i < n; i += 16) {
    const __mmask16 k = tail_mask(n - i);
    __m512 v = _mm512_mul_ps(_mm512_sub_ps(_mm512_maskz_loadu_ps(k, x + i), m), r);
    if (w) v = _mm512_mul_ps(v, _mm512_maskz_loadu_ps(k, w + i));
    if (b) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(k, b + i));
    _mm512_mask_storeu_ps(y + i, k, v);
  }
}

void layer_norm_rows(const float* x, const float* w, const float* b, float* y, float* mean_out,
                                  float* rstd_out, int64_t rows, int64_t n, double eps) {
  for (int64_t r = 0; r < rows; ++r, x += n, y += n) {
    if (r + 2 < rows) {  // the row after next, so its loads overlap this row's arithmetic
      for (int64_t off = 0; off < n; off += 16) __builtin_prefetch(x + 2 * n + off);
    }
    const float mean = static_cast<float>(blocked_row_sum(x, n, Identity{}) / static_cast<double>(n));
    const double var = blocked_row_sum(x, n, SquaredDeviation{_mm512_set1_ps(mean)}) / static_cast<double>(n);
    const float rstd = static_cast<float>(1.0 / std::sqrt(var + eps));
    mean_out[r] = mean;
    rstd_out[r] = rstd;
    normalize_row(x, mean, rstd, w, b, y, n);
  }
}

}  // namespace avx512
}  // namespace CPU_CAPABILITY
}  // namespace at::native::vec

#endif
