// CPU loops of the reductions and row scans. Floats accumulate in double and
// integers in int64, so long sums stay accurate; a single long row is split
// across threads and the partial results combined.
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/native/ReduceOps.h>

#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

namespace at::native {
namespace {

template <typename T>
using acc_t = std::conditional_t<c10::is_floating_v<T>, double, int64_t>;

template <typename T>
bool is_nan(T v) {
  if constexpr (c10::is_floating_v<T>) {
    return std::isnan(static_cast<double>(v));
  } else {
    return false;
  }
}

// Sum of f(x[i]) with independent partial sums, so additions overlap.
template <typename T, typename F>
acc_t<T> sum_of(const T* x, int64_t n, F f) {
  acc_t<T> s[8] = {};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int k = 0; k < 8; ++k) s[k] += f(static_cast<acc_t<T>>(x[i + k]));
  for (; i < n; ++i) s[0] += f(static_cast<acc_t<T>>(x[i]));
  return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}

// Index of the max (or min) of x[0..n); the first NaN wins, as in PyTorch.
template <typename T, bool Max>
int64_t arg_extreme(const T* x, int64_t n) {
  using M = c10::opmath_t<T>;
  int64_t best = 0;
  M bv = x[0];
  if (is_nan(bv)) return 0;
  for (int64_t i = 1; i < n; ++i) {
    const M v = x[i];
    if (is_nan(v)) return i;
    if (Max ? v > bv : v < bv) {
      bv = v;
      best = i;
    }
  }
  return best;
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
  if (p == 2) return std::sqrt(sum_of(x, n, [](double v) { return v * v; }));
  return std::pow(sum_of(x, n, [p](double v) { return std::pow(std::abs(v), p); }), 1.0 / p);
}

template <typename T>
double var_of(const T* x, int64_t n, double correction) {
  const double mean = n > 0 ? sum_of(x, n, [](double v) { return v; }) / static_cast<double>(n)
                            : std::numeric_limits<double>::quiet_NaN();
  const double m2 = sum_of(x, n, [mean](double v) { return (v - mean) * (v - mean); });
  return m2 / std::max(0.0, static_cast<double>(n) - correction);
}

template <typename T>
double logsumexp_of(const T* x, int64_t n) {
  double m = -std::numeric_limits<double>::infinity();
  for (int64_t i = 0; i < n; ++i) m = std::max(m, static_cast<double>(x[i]));
  if (std::isinf(m)) return m;  // all -inf, or some +inf
  return m + std::log(sum_of(x, n, [m](double v) { return std::exp(v - m); }));
}

template <typename T>
void reduce_row(const ReduceParams& params, const T* x, int64_t n, const Tensor& out, const Tensor& indices,
                int64_t i) {
  switch (params.op) {
    case ReduceOp::Sum:
      out.data_ptr<T>()[i] = static_cast<T>(sum_of(x, n, [](acc_t<T> v) { return v; }));
      return;
    case ReduceOp::Prod: {
      acc_t<T> p = 1;
      for (int64_t k = 0; k < n; ++k) p *= static_cast<acc_t<T>>(x[k]);
      out.data_ptr<T>()[i] = static_cast<T>(p);
      return;
    }
    case ReduceOp::Max:
    case ReduceOp::ArgMax:
    case ReduceOp::Min:
    case ReduceOp::ArgMin: {
      const bool is_max = params.op == ReduceOp::Max || params.op == ReduceOp::ArgMax;
      const int64_t k = is_max ? arg_extreme<T, true>(x, n) : arg_extreme<T, false>(x, n);
      if (out.defined()) out.data_ptr<T>()[i] = x[k];
      if (indices.defined()) indices.data_ptr<int64_t>()[i] = k;
      return;
    }
    case ReduceOp::Any:
    case ReduceOp::All: {
      const bool want = params.op == ReduceOp::Any;
      bool result = !want;
      for (int64_t k = 0; k < n; ++k) {
        if ((static_cast<double>(x[k]) != 0) == want) {
          result = want;
          break;
        }
      }
      out.data_ptr<bool>()[i] = result;
      return;
    }
    case ReduceOp::Norm:
      out.data_ptr<T>()[i] = static_cast<T>(norm_of(x, n, params.p));
      return;
    case ReduceOp::Var:
      out.data_ptr<T>()[i] = static_cast<T>(var_of(x, n, params.correction));
      return;
    case ReduceOp::LogSumExp:
      out.data_ptr<T>()[i] = static_cast<T>(logsumexp_of(x, n));
      return;
  }
}

void reduce_rows_kernel(const Tensor& out, const Tensor& indices, const Tensor& in, int64_t outer, int64_t inner,
                        const ReduceParams& params) {
  AT_DISPATCH_ALL_TYPES_AND_BOOL(in.scalar_type(), "reduce", [&] {
    const scalar_t* x = static_cast<const scalar_t*>(in.data_ptr());
    const bool splittable = params.op == ReduceOp::Sum || params.op == ReduceOp::Norm && params.p == 2;
    if (outer == 1 && splittable && inner > 2 * kGrainSize && get_num_threads() > 1) {
      // One long row: partial sums per thread, combined here.
      const int64_t chunks = std::min<int64_t>(get_num_threads(), inner / kGrainSize);
      std::vector<double> partial(chunks);
      const int64_t per = (inner + chunks - 1) / chunks;
      const bool squares = params.op == ReduceOp::Norm;
      parallel_for(0, chunks, 1, [&](int64_t b, int64_t e) {
        for (int64_t c = b; c < e; ++c) {
          const int64_t lo = c * per, hi = std::min(inner, lo + per);
          partial[c] = lo >= hi ? 0.0
                       : squares ? static_cast<double>(sum_of(x + lo, hi - lo, [](acc_t<scalar_t> v) { return v * v; }))
                                 : static_cast<double>(sum_of(x + lo, hi - lo, [](acc_t<scalar_t> v) { return v; }));
        }
      });
      double total = 0;
      for (double p : partial) total += p;
      if constexpr (!c10::is_floating_v<scalar_t>) {
        // Integer sums are exact in int64: redo them serially rather than trust doubles.
        out.data_ptr<scalar_t>()[0] = static_cast<scalar_t>(sum_of(x, inner, [](acc_t<scalar_t> v) { return v; }));
      } else {
        out.data_ptr<scalar_t>()[0] = static_cast<scalar_t>(squares ? std::sqrt(total) : total);
      }
      return;
    }
    const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(inner, 1));
    parallel_for(0, outer, grain, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) reduce_row<scalar_t>(params, x + i * inner, inner, out, indices, i);
    });
  });
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
    case ScanOp::Softmax:
    case ScanOp::LogSoftmax: {
      if constexpr (c10::is_floating_v<T>) {
        double m = -std::numeric_limits<double>::infinity();
        for (int64_t k = 0; k < n; ++k) m = std::max(m, static_cast<double>(x[k]));
        double total = 0;
        for (int64_t k = 0; k < n; ++k) total += std::exp(static_cast<double>(x[k]) - m);
        if (op == ScanOp::Softmax) {
          for (int64_t k = 0; k < n; ++k) y[k] = static_cast<T>(std::exp(static_cast<double>(x[k]) - m) / total);
        } else {
          const double lse = m + std::log(total);
          for (int64_t k = 0; k < n; ++k) y[k] = static_cast<T>(static_cast<double>(x[k]) - lse);
        }
      }
      return;
    }
  }
}

void scan_rows_kernel(const Tensor& out, const Tensor& in, int64_t outer, int64_t inner, ScanOp op) {
  AT_DISPATCH_ALL_TYPES(in.scalar_type(), "scan", [&] {
    const scalar_t* x = static_cast<const scalar_t*>(in.data_ptr());
    scalar_t* y = out.data_ptr<scalar_t>();
    const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(inner, 1));
    parallel_for(0, outer, grain, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) scan_row<scalar_t>(op, x + i * inner, y + i * inner, inner);
    });
  });
}

}  // namespace

REGISTER_CPU_DISPATCH(reduce_rows_stub, &reduce_rows_kernel);
REGISTER_CPU_DISPATCH(scan_rows_stub, &scan_rows_kernel);

}  // namespace at::native
