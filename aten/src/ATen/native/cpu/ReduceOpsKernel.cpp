// CPU loops of the reductions and row scans. Floats accumulate in double and
// integers in int64, so long sums stay accurate; a single long row is split
// across threads and the partial results combined.
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/native/ReduceFunctors.h>
#include <ATen/native/ReduceOps.h>
#include <ATen/native/ScanColumns.h>
#include <ATen/native/cpu/VecMath.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

namespace at::native {
inline namespace CPU_CAPABILITY {
namespace {

template <typename T>
using acc_t = std::conditional_t<c10::is_floating_v<T>, double, int64_t>;

template <typename T, bool Max>
int64_t arg_extreme(const T* x, int64_t n);

// Sum of f(x[i]). float sums run in 16 float lanes (vectorised) over blocks
// of 4096 elements whose totals add up in double: as fast as a float sum,
// nearly as accurate as a double one. Other types use 8 scalar partial sums.
template <typename T, typename F>
acc_t<T> sum_of(const T* x, int64_t n, F f) {
  if constexpr (std::is_same_v<T, float>) {
    constexpr int64_t kLanes = 16, kBlock = 4096;
    double total = 0;
    for (int64_t start = 0; start < n; start += kBlock) {
      const int64_t end = std::min(n, start + kBlock);
      float lanes[kLanes] = {};
      int64_t i = start;
      for (; i + kLanes <= end; i += kLanes)
        for (int64_t k = 0; k < kLanes; ++k) lanes[k] += static_cast<float>(f(x[i + k]));
      float tail = 0;
      for (; i < end; ++i) tail += static_cast<float>(f(x[i]));
      double block = tail;
      for (int64_t k = 0; k < kLanes; ++k) block += lanes[k];
      total += block;
    }
    return total;
  } else {
    acc_t<T> s[8] = {};
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
      for (int k = 0; k < 8; ++k) s[k] += f(static_cast<acc_t<T>>(x[i + k]));
    for (; i < n; ++i) s[0] += f(static_cast<acc_t<T>>(x[i]));
    return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
  }
}

// The plain sum of x[0..n): vectorised for float and the 16-bit floating
// types (widened to float lanes), sum_of's loops otherwise.
template <typename T>
acc_t<T> sum_plain(const T* x, int64_t n) {
  if constexpr (std::is_same_v<T, float>) {
    return vec::sum(x, n);
  } else if constexpr (std::is_same_v<T, c10::Half>) {
    return vec::sum_float16(reinterpret_cast<const uint16_t*>(x), n);
  } else if constexpr (std::is_same_v<T, c10::BFloat16>) {
    return vec::sum_bfloat16(reinterpret_cast<const uint16_t*>(x), n);
  } else {
    return sum_of(x, n, [](acc_t<T> v) { return v; });
  }
}

// Writes a sum into out[i]: in T, or in float32 where a float16/bfloat16
// input is summed for mean (ReduceParams::float_out).
template <typename T>
void store_sum(const ReduceParams& params, const Tensor& out, int64_t i, acc_t<T> value) {
  if (params.float_out) {
    static_cast<float*>(out.data_ptr())[i] = static_cast<float>(value);
  } else if (params.long_out) {
    static_cast<int64_t*>(out.data_ptr())[i] = static_cast<int64_t>(value);
  } else {
    out.data_ptr<T>()[i] = static_cast<T>(value);
  }
}

// max (or min) of x[0..n) without its index; NaN if any element is NaN.
template <typename T, bool Max>
T extreme_of(const T* x, int64_t n) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    return Max ? vec::max(x, n) : vec::min(x, n);
  } else if constexpr (std::is_integral_v<T>) {
    constexpr int64_t kLanes = 16;
    T lanes[kLanes];
    for (int64_t k = 0; k < kLanes; ++k) lanes[k] = x[0];
    int64_t i = 0;
    for (; i + kLanes <= n; i += kLanes) {
      for (int64_t k = 0; k < kLanes; ++k) {
        const T v = x[i + k];
        lanes[k] = Max ? (v > lanes[k] ? v : lanes[k]) : (v < lanes[k] ? v : lanes[k]);
      }
    }
    T best = lanes[0];
    for (int64_t k = 1; k < kLanes; ++k) best = Max ? (lanes[k] > best ? lanes[k] : best) : (lanes[k] < best ? lanes[k] : best);
    for (; i < n; ++i) best = Max ? (x[i] > best ? x[i] : best) : (x[i] < best ? x[i] : best);
    return best;
  } else {
    return x[arg_extreme<T, Max>(x, n)];
  }
}

// Index of the max (or min) of x[0..n); the first NaN wins, as in PyTorch.
template <typename T, bool Max>
int64_t arg_extreme(const T* x, int64_t n) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    // The extreme in vector lanes, then the first position holding it (or
    // the first NaN): two passes that vectorise, where one pass carrying the
    // index is a dependent chain of compares and selects.
    if (n == 0) return 0;
    const T m = Max ? vec::max(x, n) : vec::min(x, n);
    int64_t i = 0;
    if (m != m) {
      while (x[i] == x[i]) ++i;
    } else {
      while (x[i] != m) ++i;
    }
    return i;
  }
  using M = c10::opmath_t<T>;
  int64_t best = 0;
  M bv = x[0];
  if (is_nan_value(bv)) return 0;
  for (int64_t i = 1; i < n; ++i) {
    const M v = x[i];
    if (extreme_replaces(v, bv, Max)) {
      bv = v;
      best = i;
      if (is_nan_value(bv)) return best;  // nothing replaces a NaN
    }
  }
  return best;
}

// Sums f(x) in double throughout: for squares and the like, whose float
// partial sums would overflow where the result fits (the std of [0, 3e19]).
template <typename T, typename F>
double sum_in_double(const T* x, int64_t n, F f) {
  double s[8] = {};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int k = 0; k < 8; ++k) s[k] += f(static_cast<double>(x[i + k]));
  for (; i < n; ++i) s[0] += f(static_cast<double>(x[i]));
  return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}

// sum(x^2): for float in float lanes (blocks added in double), four times
// the double loop's speed; again in double when the float squares overflowed
// or the total is so small that they may have underflowed, so the 2-norm of
// [3e19] or [1e-25] stays exact.
template <typename T>
double sum_of_squares(const T* x, int64_t n) {
  if constexpr (std::is_same_v<T, float>) {
    const double fast = sum_of(x, n, [](float v) { return v * v; });
    if (std::isfinite(fast) && fast >= 1e-30) return fast;
  }
  return sum_in_double(x, n, [](double v) { return v * v; });
}

template <typename T>
double norm_of(const T* x, int64_t n, double p) {
  if (std::isinf(p)) {
    double best = p > 0 ? 0.0 : std::numeric_limits<double>::infinity();
    for (int64_t i = 0; i < n; ++i) {
      const double a = std::abs(static_cast<double>(x[i]));
      if (std::isnan(a)) return a;
      best = p > 0 ? std::max(best, a) : std::min(best, a);
    }
    return best;
  }
  if (p == 0) return static_cast<double>(sum_of(x, n, [](double v) { return v != 0 ? 1.0 : 0.0; }));
  if (p == 1) return sum_of(x, n, [](double v) { return std::abs(v); });
  if (p == 2) return std::sqrt(sum_of_squares(x, n));
  // Other orders are scaled by the largest |x| (the smallest for p < 0), so
  // that |x|^p neither overflows nor vanishes for large |p|: the norm of one
  // element is that element's |x| whatever p is, as in PyTorch.
  double scale = p > 0 ? 0.0 : std::numeric_limits<double>::infinity();
  for (int64_t i = 0; i < n; ++i) {
    const double a = std::abs(static_cast<double>(x[i]));
    scale = p > 0 ? std::max(scale, a) : std::min(scale, a);
  }
  if (!(scale > 0) || std::isinf(scale)) {
    return norm_finish(sum_in_double(x, n, [p](double v) { return norm_term(v, p); }), p);
  }
  return scale * norm_finish(sum_in_double(x, n, [p, scale](double v) { return norm_term(v / scale, p); }), p);
}

template <typename T>
double var_of(const T* x, int64_t n, double correction, bool sqrt) {
  if (n == 0) return std::numeric_limits<double>::quiet_NaN();  // whatever the correction, as PyTorch
  double mean = sum_in_double(x, n, [](double v) { return v; }) / static_cast<double>(n);
  // The corrected two-pass mean: the rounding left in the first pass is added
  // back, so equal values have exactly their value as mean and a variance of 0.
  mean += sum_in_double(x, n, [mean](double v) { return v - mean; }) / static_cast<double>(n);
  const double m2 = sum_in_double(x, n, [mean](double v) { return (v - mean) * (v - mean); });
  return var_finish(m2, static_cast<double>(n), correction, sqrt);
}

template <typename T>
double logsumexp_of(const T* x, int64_t n) {
  if constexpr (std::is_same_v<T, float>) {
    // float32: the max and the shifted exps in vector lanes.
    const float m = vec::max(x, n);
    if (std::isnan(m)) return m;
    if (std::isinf(m)) return m;  // all -inf, or some +inf
    return static_cast<double>(m) + std::log(vec::sum_exp_shifted(x, m, n));
  }
  double m = -std::numeric_limits<double>::infinity();
  bool nan = false;
  for (int64_t i = 0; i < n; ++i) {
    m = std::max(m, static_cast<double>(x[i]));
    nan = nan || std::isnan(static_cast<double>(x[i]));
  }
  if (nan) return std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(m)) return m;  // all -inf, or some +inf
  return m + std::log(sum_in_double(x, n, [m](double v) { return std::exp(v - m); }));
}

// The product of x[0..n). Floats multiply in their own precision (float for
// the 16-bit types), as PyTorch does: 3e38 * 3e38 * -0 is NaN there, not the
// -0 of a double product. A long row multiplies in 16 independent lanes (one
// chain of multiply latencies would bound it otherwise), as PyTorch's
// vectorised reduction does; short rows keep the plain left-to-right order.
template <typename T>
auto prod_of(const T* x, int64_t n) {
  using P = std::conditional_t<c10::is_floating_v<T>, c10::opmath_t<T>, acc_t<T>>;
  constexpr int64_t kLanes = 16;
  int64_t i = 0;
  P p = 1;
  if (n >= 4 * kLanes) {
    P lanes[kLanes];
    for (int64_t k = 0; k < kLanes; ++k) lanes[k] = 1;
    for (; i + kLanes <= n; i += kLanes)
      for (int64_t k = 0; k < kLanes; ++k) lanes[k] *= static_cast<P>(x[i + k]);
    for (int64_t k = 0; k < kLanes; ++k) p *= lanes[k];
  }
  for (; i < n; ++i) p *= static_cast<P>(x[i]);
  return p;
}

// any (want true) or all (want false) of x's elements being nonzero: blocks
// of 256 elements with no branch per element, each OR-ed into an
// accumulator of the element's width so the compiler widens the loop,
// stopping after the first block that decides. Integers and bool OR their
// values; float16/bfloat16 test their bits without the sign (+-0 is zero,
// NaN is not).
template <typename T>
bool any_or_all(const T* x, int64_t n, bool want) {
  for (int64_t lo = 0; lo < n; lo += 256) {
    const int64_t hi = std::min<int64_t>(n, lo + 256);
    bool hit;
    if constexpr (std::is_integral_v<T>) {
      // The raw bits; v != 0 is the top bit of v | -v (no compare, which
      // 64-bit lanes lack before SSE4.1).
      using U = std::make_unsigned_t<std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>>;
      const U* u = reinterpret_cast<const U*>(x);
      U acc = 0;
      if (want) {
        for (int64_t k = lo; k < hi; ++k) acc |= u[k];
      } else {
        for (int64_t k = lo; k < hi; ++k) {
          const U v = u[k];
          acc |= static_cast<U>((static_cast<U>(v | static_cast<U>(-v)) >> (8 * sizeof(U) - 1)) ^ 1U);
        }
      }
      hit = acc != 0;
    } else if constexpr (sizeof(T) == 2) {
      const uint16_t* bits = reinterpret_cast<const uint16_t*>(x);
      uint16_t acc = 0;
      if (want) {
        for (int64_t k = lo; k < hi; ++k) acc |= bits[k] & 0x7fff;
      } else {
        for (int64_t k = lo; k < hi; ++k) acc |= static_cast<uint16_t>((bits[k] & 0x7fff) == 0);
      }
      hit = acc != 0;
    } else {
      int acc = 0;
      if (want) {
        for (int64_t k = lo; k < hi; ++k) acc |= x[k] != T(0);
      } else {
        for (int64_t k = lo; k < hi; ++k) acc |= x[k] == T(0);
      }
      hit = acc != 0;
    }
    if (hit) return want;
  }
  return !want;
}

template <typename T>
void reduce_row(const ReduceParams& params, const T* x, int64_t n, const Tensor& out, const Tensor& indices,
                int64_t i) {
  switch (params.op) {
    case ReduceOp::Sum:
      store_sum<T>(params, out, i, sum_plain(x, n));
      return;
    case ReduceOp::NanSum:  // a select in the lanes, so float's loop still vectorises
      store_sum<T>(params, out, i, sum_of(x, n, [](auto v) { return v == v ? v : decltype(v)(0); }));
      return;
    case ReduceOp::Prod: {
      out.data_ptr<T>()[i] = static_cast<T>(prod_of(x, n));
      return;
    }
    case ReduceOp::Max:
    case ReduceOp::ArgMax:
    case ReduceOp::Min:
    case ReduceOp::ArgMin: {
      const bool is_max = params.op == ReduceOp::Max || params.op == ReduceOp::ArgMax;
      if (!indices.defined()) {
        out.data_ptr<T>()[i] = is_max ? extreme_of<T, true>(x, n) : extreme_of<T, false>(x, n);
        return;
      }
      const int64_t k = is_max ? arg_extreme<T, true>(x, n) : arg_extreme<T, false>(x, n);
      if (out.defined()) out.data_ptr<T>()[i] = x[k];
      indices.data_ptr<int64_t>()[i] = k;
      return;
    }
    case ReduceOp::Any:
    case ReduceOp::All: {
      const bool want = params.op == ReduceOp::Any;
      const bool result = any_or_all(x, n, want);
      static_cast<bool*>(out.data_ptr())[i] = result;  // bool or uint8 (any/all of uint8)
      return;
    }
    case ReduceOp::Norm:
      out.data_ptr<T>()[i] = static_cast<T>(norm_of(x, n, params.p));
      return;
    case ReduceOp::Var:
      out.data_ptr<T>()[i] = static_cast<T>(var_of(x, n, params.correction, params.sqrt));
      return;
    case ReduceOp::LogSumExp:
      out.data_ptr<T>()[i] = static_cast<T>(logsumexp_of(x, n));
      return;
  }
}

// The accumulator of a column reduction: float for float and the 16-bit
// floating types (a column is usually short), acc_t otherwise.
template <typename T>
using column_acc_t = std::conditional_t<std::is_same_v<T, float> || std::is_same_v<T, c10::Half> ||
                                            std::is_same_v<T, c10::BFloat16>,
                                        float, acc_t<T>>;

// acc[0..w) += the rows [0, rows) of x (row stride `stride`), w columns.
template <typename T, typename A>
void add_rows(const T* x, int64_t rows, int64_t stride, A* acc, int64_t w) {
  if constexpr (std::is_same_v<T, float>) {
    vec::add_rows(x, rows, stride, acc, w);
  } else {
    for (int64_t r = 0; r < rows; ++r) {
      const T* row = x + r * stride;
      for (int64_t j = 0; j < w; ++j) acc[j] += static_cast<A>(row[j]);
    }
  }
}

// Column sums with the rows split across threads: each thread streams one
// contiguous block of rows into its own row of accumulators, and the
// per-thread rows are added at the end. Splitting the columns instead has
// every thread hop from row to row, which the prefetchers follow less well
// (sum(dim=0) of 1000x10000 float on two threads: 1.3 ms that way, 0.75 ms
// this way). Only where the accumulators stay in cache.
template <typename T>
bool sum_columns_split_rows(const T* x, int64_t rows, int64_t cols, T* y) {
  using A = column_acc_t<T>;
  if (cols * static_cast<int64_t>(sizeof(A)) > (256 << 10)) return false;
  const bool parallel = rows * cols > 2 * kGrainSize && !in_parallel_region();
  const int64_t threads = parallel ? std::max<int64_t>(1, std::min<int64_t>(get_num_threads(), rows / 8)) : 1;
  std::vector<A> acc(threads * cols, A(0));
  parallel_for(0, threads, 1, [&](int64_t tb, int64_t te) {
    for (int64_t t = tb; t < te; ++t) {
      const int64_t per = (rows + threads - 1) / threads;
      const int64_t r0 = std::min(rows, t * per), r1 = std::min(rows, r0 + per);
      add_rows(x + r0 * cols, r1 - r0, cols, acc.data() + t * cols, cols);
    }
  });
  for (int64_t j = 0; j < cols; ++j) {
    A s = acc[j];
    for (int64_t t = 1; t < threads; ++t) s += acc[t * cols + j];
    y[j] = static_cast<T>(s);
  }
  return true;
}

// Reduces the columns of x [rows, cols] into out[cols] (T, or bool for Any
// and All): each pass over a row updates a contiguous run of accumulators,
// which vectorises.
template <typename T>
void reduce_columns(const ReduceParams& params, const T* x, int64_t rows, int64_t cols, void* out) {
  using A = column_acc_t<T>;
  if (params.op == ReduceOp::Sum && !std::is_same_v<T, bool> &&
      sum_columns_split_rows(x, rows, cols, static_cast<T*>(out))) {
    return;
  }
  parallel_for(0, cols, std::max<int64_t>(16, kGrainSize / std::max<int64_t>(rows, 1)), [&](int64_t b, int64_t e) {
    const int64_t w = e - b;
    if (params.op == ReduceOp::Any || params.op == ReduceOp::All) {
      const bool want = params.op == ReduceOp::Any;
      bool* y = static_cast<bool*>(out) + b;
      for (int64_t j = 0; j < w; ++j) y[j] = !want;
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t j = 0; j < w; ++j)
          if ((static_cast<c10::opmath_t<T>>(x[r * cols + b + j]) != 0) == want) y[j] = want;
      return;
    }
    T* y = static_cast<T*>(out) + b;
    if (params.op == ReduceOp::Max || params.op == ReduceOp::Min) {
      const bool is_max = params.op == ReduceOp::Max;
      for (int64_t j = 0; j < w; ++j) y[j] = x[b + j];
      for (int64_t r = 1; r < rows; ++r) {
        const T* row = x + r * cols + b;
        for (int64_t j = 0; j < w; ++j) {
          using M = c10::opmath_t<T>;
          const M v = row[j], cur = y[j];
          if (extreme_replaces(v, cur, is_max)) y[j] = row[j];
        }
      }
      return;
    }
    std::vector<A> acc(w, params.op == ReduceOp::Prod ? A(1) : A(0));
    if (params.op == ReduceOp::Sum) {
      add_rows(x + b, rows, cols, acc.data(), w);
    } else {
      for (int64_t r = 0; r < rows; ++r) {
        const T* row = x + r * cols + b;
        for (int64_t j = 0; j < w; ++j) acc[j] *= static_cast<A>(row[j]);
      }
    }
    for (int64_t j = 0; j < w; ++j) y[j] = static_cast<T>(acc[j]);
  });
}

// One long row split across threads: partial results per chunk, combined.
template <typename T>
bool reduce_long_row(const ReduceParams& params, const T* x, int64_t n, const Tensor& out) {
  if constexpr (std::is_same_v<T, bool>) {
    return false;
  } else {
  const bool sum = params.op == ReduceOp::Sum, sq = params.op == ReduceOp::Norm && params.p == 2;
  const bool ext = params.op == ReduceOp::Max || params.op == ReduceOp::Min;
  if (!(sum || sq || ext) || n <= 2 * kGrainSize || get_num_threads() <= 1) return false;
  if (!c10::is_floating_v<T> && !ext) return false;  // integer sums stay exact in one pass
  const int64_t chunks = std::min<int64_t>(get_num_threads(), n / kGrainSize);
  const int64_t per = (n + chunks - 1) / chunks;
  std::vector<double> partial(chunks);
  std::vector<T> best(chunks);
  parallel_for(0, chunks, 1, [&](int64_t b, int64_t e) {
    for (int64_t c = b; c < e; ++c) {
      const int64_t lo = c * per, len = std::min(n, lo + per) - lo;
      if (len <= 0) {
        best[c] = x[0];
        continue;
      }
      if (ext) {
        best[c] = params.op == ReduceOp::Max ? extreme_of<T, true>(x + lo, len) : extreme_of<T, false>(x + lo, len);
      } else if (sum) {
        partial[c] = static_cast<double>(sum_plain(x + lo, len));
      } else {
        partial[c] = sum_of_squares(x + lo, len);
      }
    }
  });
  T* y = params.float_out ? nullptr : out.data_ptr<T>();
  if (ext) {
    y[0] = params.op == ReduceOp::Max ? extreme_of<T, true>(best.data(), chunks)
                                      : extreme_of<T, false>(best.data(), chunks);
  } else {
    double total = 0;
    for (double p : partial) total += p;
    if (sum) {
      store_sum<T>(params, out, 0, total);
    } else {
      y[0] = static_cast<T>(std::sqrt(total));
    }
  }
  return true;
  }
}

// The sum of one short row: under 16 elements a plain loop in row order;
// up to kShortRow, 8 partial sums (float ones for float, as PyTorch's
// vectorised inner reduction), folded pairwise, so that the adds are not
// one chain of latencies (sum(-1) of [8192, 16] was 6x PyTorch's time).
constexpr int64_t kShortRow = 256;

template <typename T>
acc_t<T> short_row_sum(const T* x, int64_t n) {
  acc_t<T> s = 0;
  int64_t k = 0;
  if (n >= 16) {
    using L = std::conditional_t<std::is_same_v<T, float>, float, acc_t<T>>;
    L lanes[8] = {};
    for (; k + 8 <= n; k += 8)
      for (int j = 0; j < 8; ++j) lanes[j] += static_cast<L>(x[k + j]);
    s = static_cast<acc_t<T>>(((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) +
                              ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7])));
  }
  for (; k < n; ++k) s += static_cast<acc_t<T>>(x[k]);
  return s;
}

// Sums of many short rows (x.sum(-1) of [N, 2], a broadcast's gradient;
// the bins of a pooling): a loop per row without reduce_row's per-row
// dispatch (20 ns a row, ten times the work of two adds).
template <typename T>
void sum_short_rows(const ReduceParams& params, const T* x, int64_t outer, int64_t inner, const Tensor& out) {
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(inner, 1));
  void* base = out.data_ptr();
  parallel_for(0, outer, grain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      const acc_t<T> s = short_row_sum(x + i * inner, inner);
      if (params.float_out) {
        static_cast<float*>(base)[i] = static_cast<float>(s);
      } else if (params.long_out) {
        static_cast<int64_t*>(base)[i] = static_cast<int64_t>(s);
      } else {
        static_cast<T*>(base)[i] = static_cast<T>(s);
      }
    }
  });
}

void reduce_rows_kernel(const Tensor& out, const Tensor& indices, const Tensor& in, int64_t outer, int64_t inner,
                        const ReduceParams& params) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(in.scalar_type(), "reduce", [&] {
    const scalar_t* x = static_cast<const scalar_t*>(in.data_ptr());
    if (params.columns) {
      // Each block [inner, cols] into its own cols results; blocks split over
      // threads (a block's own split then runs inline).
      const int64_t blocks = params.column_blocks, cols = outer / std::max<int64_t>(blocks, 1);
      const int64_t out_size = (params.op == ReduceOp::Any || params.op == ReduceOp::All) ? 1 : sizeof(scalar_t);
      char* y = static_cast<char*>(out.data_ptr());
      const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(inner * cols, 1));
      parallel_for(0, blocks, blocks > 1 ? grain : 1, [&](int64_t b, int64_t e) {
        if constexpr (!std::is_same_v<scalar_t, bool>) {
          if (params.op == ReduceOp::Sum && blocks > 1) {
            // One row of accumulators per thread, reused block after block.
            using A = column_acc_t<scalar_t>;
            std::vector<A> acc(cols);
            for (int64_t a = b; a < e; ++a) {
              std::fill(acc.begin(), acc.end(), A(0));
              add_rows(x + a * inner * cols, inner, cols, acc.data(), cols);
              scalar_t* ya = reinterpret_cast<scalar_t*>(y) + a * cols;
              for (int64_t j = 0; j < cols; ++j) ya[j] = static_cast<scalar_t>(acc[j]);
            }
            return;
          }
        }
        for (int64_t a = b; a < e; ++a) {
          reduce_columns<scalar_t>(params, x + a * inner * cols, inner, cols, y + a * cols * out_size);
        }
      });
      return;
    }
    if (params.op == ReduceOp::Sum && inner <= kShortRow && outer > 1) {
      sum_short_rows<scalar_t>(params, x, outer, inner, out);
      return;
    }
    if (outer == 1 && !indices.defined() && reduce_long_row<scalar_t>(params, x, inner, out)) return;
    const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(inner, 1));
    parallel_for(0, outer, grain, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) reduce_row<scalar_t>(params, x + i * inner, inner, out, indices, i);
    });
  });
}

// log(exp(a) + exp(b)) as PyTorch's _log_add_exp_helper: NaN in b wins, and
// two equal infinities stay as they are.
inline double log_add_exp(double a, double b) {
  const double lo = std::isnan(b) ? b : std::min(a, b);
  const double hi = std::isnan(b) ? b : std::max(a, b);
  if (lo != hi || std::isfinite(lo)) return hi + std::log1p(std::exp(lo - hi));
  return a;
}

template <typename T>
void scan_row(ScanOp op, const T* x, T* y, int64_t n) {
  switch (op) {
    case ScanOp::CumSum: {
      acc_t<T> s = 0;
      for (int64_t k = 0; k < n; ++k) {
        s += static_cast<acc_t<T>>(x[k]);
        y[k] = static_cast<T>(s);
      }
      return;
    }
    case ScanOp::LogCumSumExp: {
      // In double, as PyTorch's CPU kernel (acc_type of float is double).
      if constexpr (c10::is_floating_v<T>) {
        double r = -std::numeric_limits<double>::infinity();
        for (int64_t k = 0; k < n; ++k) {
          r = log_add_exp(static_cast<double>(x[k]), r);
          y[k] = static_cast<T>(r);
        }
      }
      return;
    }
    case ScanOp::Softmax:
    case ScanOp::LogSoftmax: {
      // float rows go to vec::softmax_rows (softmax_float_rows); the other
      // floating types compute as it does, in double.
      if constexpr (c10::is_floating_v<T>) {
        double m = -std::numeric_limits<double>::infinity();
        for (int64_t k = 0; k < n; ++k) m = std::max(m, static_cast<double>(x[k]));
        if (m == -std::numeric_limits<double>::infinity()) m = 0;
        double total = 0;
        for (int64_t k = 0; k < n; ++k) total += std::exp(static_cast<double>(x[k]) - m);
        if (op == ScanOp::Softmax) {
          for (int64_t k = 0; k < n; ++k) y[k] = static_cast<T>(std::exp(static_cast<double>(x[k]) - m) / total);
        } else {
          const double log_total = std::log(total);
          for (int64_t k = 0; k < n; ++k) y[k] = static_cast<T>((static_cast<double>(x[k]) - m) - log_total);
        }
      }
      return;
    }
  }
}

// float softmax rows go to VecMath all at once: one call per thread.
template <typename T>
bool softmax_float_rows(ScanOp op, const T* x, T* y, int64_t rows, int64_t n) {
  if constexpr (std::is_same_v<T, float>) {
    if (op != ScanOp::Softmax && op != ScanOp::LogSoftmax) return false;
    vec::softmax_rows(x, y, rows, n, op == ScanOp::LogSoftmax);
    return true;
  } else {
    return false;
  }
}

// Running sums of kRowGroup rows at once: one row's sum is a chain of
// dependent additions (a double add's latency per element); several rows'
// chains interleave. Each row adds in its own order, as scan_row does.
constexpr int64_t kRowGroup = 8;

template <typename T>
void cumsum_row_group(const T* x, T* y, int64_t n) {
  acc_t<T> s[kRowGroup] = {};
  for (int64_t k = 0; k < n; ++k) {
    for (int64_t r = 0; r < kRowGroup; ++r) {
      s[r] += static_cast<acc_t<T>>(x[r * n + k]);
      y[r * n + k] = static_cast<T>(s[r]);
    }
  }
}

void scan_rows_kernel(const Tensor& out, const Tensor& in, int64_t outer, int64_t inner, ScanOp op) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(in.scalar_type(), "scan", [&] {
    const scalar_t* x = static_cast<const scalar_t*>(in.data_ptr());
    scalar_t* y = out.data_ptr<scalar_t>();
    const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(inner, 1));
    parallel_for(0, outer, grain, [&](int64_t b, int64_t e) {
      if (softmax_float_rows(op, x + b * inner, y + b * inner, e - b, inner)) return;
      int64_t i = b;
      if (op == ScanOp::CumSum) {
        for (; i + kRowGroup <= e; i += kRowGroup) cumsum_row_group<scalar_t>(x + i * inner, y + i * inner, inner);
      }
      for (; i < e; ++i) scan_row<scalar_t>(op, x + i * inner, y + i * inner, inner);
    });
  });
}

// ---- scans along a dim that is not the last: columns side by side ----

// Columns per block: the running values of a block (a double each) and a
// float row stay in L1 while the block's n rows stream past.
constexpr int64_t kScanColumnBlock = 512;

template <typename T>
void cumsum_columns(const T* x, T* y, int64_t n, int64_t inner, int64_t width) {
  acc_t<T> acc[kScanColumnBlock] = {};
  for (int64_t k = 0; k < n; ++k, x += inner, y += inner) {
    for (int64_t j = 0; j < width; ++j) {
      acc[j] += static_cast<acc_t<T>>(x[j]);
      y[j] = static_cast<T>(acc[j]);
    }
  }
}

template <typename T>
void logcumsumexp_columns(const T* x, T* y, int64_t n, int64_t inner, int64_t width) {
  double r[kScanColumnBlock];
  std::fill(r, r + width, -std::numeric_limits<double>::infinity());
  for (int64_t k = 0; k < n; ++k, x += inner, y += inner) {
    for (int64_t j = 0; j < width; ++j) {
      r[j] = log_add_exp(static_cast<double>(x[j]), r[j]);
      y[j] = static_cast<T>(r[j]);
    }
  }
}

// softmax_rows' steps, per column: the max (NaN wins), the shift (0 for an
// all -inf column), exp(x - shift) in float lanes added up in double, then
// the scale by 1 / total or (x - shift) - log(total).
void softmax_float_columns(const float* x, float* y, int64_t n, int64_t inner, int64_t width, bool log) {
  float shift[kScanColumnBlock];
  double total[kScanColumnBlock] = {};
  float row[kScanColumnBlock];
  std::fill(shift, shift + width, -std::numeric_limits<float>::infinity());
  for (int64_t k = 0; k < n; ++k) {
    const float* xk = x + k * inner;
    for (int64_t j = 0; j < width; ++j) shift[j] = (xk[j] > shift[j] || std::isnan(xk[j])) ? xk[j] : shift[j];
  }
  for (int64_t j = 0; j < width; ++j)
    if (shift[j] == -std::numeric_limits<float>::infinity()) shift[j] = 0.0f;
  for (int64_t k = 0; k < n; ++k) {
    const float* xk = x + k * inner;
    float* out = log ? row : y + k * inner;
    for (int64_t j = 0; j < width; ++j) out[j] = xk[j] - shift[j];
    vec::exp(out, out, width);
    for (int64_t j = 0; j < width; ++j) total[j] += static_cast<double>(out[j]);
  }
  if (log) {
    for (int64_t j = 0; j < width; ++j) row[j] = static_cast<float>(std::log(total[j]));
    for (int64_t k = 0; k < n; ++k) {
      const float* xk = x + k * inner;
      float* yk = y + k * inner;
      for (int64_t j = 0; j < width; ++j) yk[j] = (xk[j] - shift[j]) - row[j];
    }
  } else {
    for (int64_t j = 0; j < width; ++j) row[j] = static_cast<float>(1.0 / total[j]);
    for (int64_t k = 0; k < n; ++k) {
      float* yk = y + k * inner;
      for (int64_t j = 0; j < width; ++j) yk[j] *= row[j];
    }
  }
}

template <typename T>
void scan_column_block(ScanOp op, const T* x, T* y, int64_t n, int64_t inner, int64_t width) {
  if (op == ScanOp::CumSum) {
    cumsum_columns(x, y, n, inner, width);
  } else if (op == ScanOp::LogCumSumExp) {
    if constexpr (c10::is_floating_v<T>) logcumsumexp_columns(x, y, n, inner, width);
  } else if constexpr (std::is_same_v<T, float>) {
    softmax_float_columns(x, y, n, inner, width, op == ScanOp::LogSoftmax);
  }
}

void scan_columns_kernel(const Tensor& out, const Tensor& in, int64_t outer, int64_t n, int64_t inner, ScanOp op) {
  const bool softmax = op == ScanOp::Softmax || op == ScanOp::LogSoftmax;
  TORCH_INTERNAL_ASSERT(!softmax || in.scalar_type() == ScalarType::Float, "column softmax is float only");
  TORCH_INTERNAL_ASSERT(op != ScanOp::LogCumSumExp || c10::isFloatingType(in.scalar_type()));
  const int64_t blocks = (inner + kScanColumnBlock - 1) / kScanColumnBlock;
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(in.scalar_type(), "scan_columns", [&] {
    const scalar_t* x = static_cast<const scalar_t*>(in.data_ptr());
    scalar_t* y = out.data_ptr<scalar_t>();
    const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(n * kScanColumnBlock, 1));
    parallel_for(0, outer * blocks, grain, [&](int64_t b, int64_t e) {
      for (int64_t task = b; task < e; ++task) {
        const int64_t o = task / blocks, first = (task % blocks) * kScanColumnBlock;
        const int64_t width = std::min(kScanColumnBlock, inner - first);
        const int64_t offset = o * n * inner + first;
        scan_column_block<scalar_t>(op, x + offset, y + offset, n, inner, width);
      }
    });
  });
}

}  // namespace

REGISTER_CPU_DISPATCH(reduce_rows_stub, &reduce_rows_kernel);
REGISTER_CPU_DISPATCH(scan_rows_stub, &scan_rows_kernel);
REGISTER_CPU_DISPATCH(scan_columns_stub, &scan_columns_kernel);

}  // namespace CPU_CAPABILITY
}  // namespace at::native
