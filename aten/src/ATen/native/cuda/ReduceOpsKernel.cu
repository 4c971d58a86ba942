// CUDA reductions and row scans over the contiguous rows ReduceOps.cpp
// prepares: one block of threads per row (or column). Each thread folds a
// strided share of the row, then the block combines the partial results in
// shared memory. Accumulation as on the CPU: double for floats, int64 for
// integers; NaN handling and first-index ties as in PyTorch.
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/native/ReduceFunctors.h>
#include <ATen/native/ReduceOps.h>
#include <ATen/native/cuda/Loops.cuh>

#include <cmath>
#include <limits>
#include <type_traits>

namespace at::native {
namespace {

template <typename T>
using acc_t = std::conditional_t<c10::is_floating_v<T>, double, int64_t>;

// Every thread of the block gets op over all threads' `v` (blockDim.x == kThreadsPerBlock).
template <typename A, typename Op>
__device__ A block_reduce(A v, Op op) {
  __shared__ A buf[kThreadsPerBlock];
  buf[threadIdx.x] = v;
  __syncthreads();
  for (int s = kThreadsPerBlock / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) buf[threadIdx.x] = op(buf[threadIdx.x], buf[threadIdx.x + s]);
    __syncthreads();
  }
  const A result = buf[0];
  __syncthreads();  // buf is reused by the next call
  return result;
}

struct Plus {
  template <typename A> __device__ A operator()(A a, A b) const { return a + b; }
};
struct Times {
  template <typename A> __device__ A operator()(A a, A b) const { return a * b; }
};
// max that lets NaN through (norm with p = +-inf).
struct NanMax {
  __device__ double operator()(double a, double b) const { return (::isnan(a) || ::isnan(b)) ? NAN : (a < b ? b : a); }
};
struct NanMin {
  __device__ double operator()(double a, double b) const { return (::isnan(a) || ::isnan(b)) ? NAN : (b < a ? b : a); }
};

// A candidate for max/min/argmax/argmin: value and index (-1: none yet).
template <typename M>
struct Candidate {
  M value;
  int64_t index;
};

template <typename M, bool Max>
struct PickExtreme {
  __device__ Candidate<M> operator()(Candidate<M> a, Candidate<M> b) const {
    if (a.index < 0) return b;
    if (b.index < 0) return a;
    // The CPU's sequential rule (ReduceFunctors.h), applied in index order.
    const Candidate<M>& first = a.index < b.index ? a : b;
    const Candidate<M>& later = a.index < b.index ? b : a;
    return extreme_replaces(later.value, first.value, Max) ? later : first;
  }
};

// Element k of row `row`: rows are [outer, inner] (or columns of [inner, outer]).
template <typename T>
struct RowView {
  const T* x;
  int64_t row_stride, elem_stride;
  __device__ T at(int64_t row, int64_t k) const { return x[row * row_stride + k * elem_stride]; }
};

// op over map(element) for the whole row, starting from init; every thread gets the result.
template <typename T, typename A, typename Map, typename Op>
__device__ A fold_row(const RowView<T>& v, int64_t row, int64_t n, A init, Map map, Op op) {
  A a = init;
  for (int64_t k = threadIdx.x; k < n; k += blockDim.x) a = op(a, static_cast<A>(map(v.at(row, k))));
  return block_reduce(a, op);
}

struct KeepMax {  // NaN is skipped, as std::max on the CPU does
  __device__ double operator()(double a, double b) const { return a < b ? b : a; }
};

template <typename T, bool Max>
__device__ Candidate<c10::opmath_t<T>> extreme_of_row(const RowView<T>& v, int64_t row, int64_t n) {
  using M = c10::opmath_t<T>;
  Candidate<M> c{M(), -1};
  const PickExtreme<M, Max> pick;
  for (int64_t k = threadIdx.x; k < n; k += blockDim.x) c = pick(c, Candidate<M>{static_cast<M>(v.at(row, k)), k});
  return block_reduce(c, pick);
}

template <typename T>
__global__ void reduce_rows_kernel(RowView<T> view, int64_t outer, int64_t n, ReduceParams p, T* out,
                                   bool* out_bool, int64_t* indices) {
  using A = acc_t<T>;
  for (int64_t row = blockIdx.x; row < outer; row += gridDim.x) {
    const bool first = threadIdx.x == 0;
    switch (p.op) {
      case ReduceOp::Sum: {
        const A s = fold_row(view, row, n, A(0), [](T x) { return static_cast<A>(x); }, Plus{});
        if (first) out[row] = static_cast<T>(s);
        break;
      }
      case ReduceOp::Prod: {
        const A s = fold_row(view, row, n, A(1), [](T x) { return static_cast<A>(x); }, Times{});
        if (first) out[row] = static_cast<T>(s);
        break;
      }
      case ReduceOp::Max:
      case ReduceOp::ArgMax:
      case ReduceOp::Min:
      case ReduceOp::ArgMin: {
        const bool is_max = p.op == ReduceOp::Max || p.op == ReduceOp::ArgMax;
        const auto c = is_max ? extreme_of_row<T, true>(view, row, n) : extreme_of_row<T, false>(view, row, n);
        if (first) {
          if (out != nullptr) out[row] = static_cast<T>(c.value);
          if (indices != nullptr) indices[row] = c.index;
        }
        break;
      }
      case ReduceOp::Any:
      case ReduceOp::All: {
        const bool want = p.op == ReduceOp::Any;
        const auto hit = [want](T x) -> int64_t {
          return (static_cast<c10::opmath_t<T>>(x) != c10::opmath_t<T>(0)) == want ? 1 : 0;
        };
        const int64_t hits = fold_row(view, row, n, int64_t(0), hit, Plus{});
        if (first) out_bool[row] = hits > 0 ? want : !want;
        break;
      }
      case ReduceOp::Norm: {
        const double q = p.p;
        double r;
        if (::isinf(q)) {
          const auto mag = [](T x) { return ::fabs(static_cast<double>(x)); };
          r = q > 0 ? fold_row(view, row, n, 0.0, mag, NanMax{})
                    : fold_row(view, row, n, static_cast<double>(INFINITY), mag, NanMin{});
        } else if (q == 0) {
          r = fold_row(view, row, n, 0.0, [](T x) { return static_cast<double>(x) != 0 ? 1.0 : 0.0; }, Plus{});
        } else if (q == 1) {
          r = fold_row(view, row, n, 0.0, [](T x) { return ::fabs(static_cast<double>(x)); }, Plus{});
        } else if (q == 2) {
          r = ::sqrt(fold_row(view, row, n, 0.0, [](T x) { const double v = x; return v * v; }, Plus{}));
        } else {
          r = norm_finish(fold_row(view, row, n, 0.0, [q](T x) { return norm_term(static_cast<double>(x), q); }, Plus{}),
                          q);
        }
        if (first) out[row] = static_cast<T>(r);
        break;
      }
      case ReduceOp::Var: {
        const double sum = fold_row(view, row, n, 0.0, [](T x) { return static_cast<double>(x); }, Plus{});
        const double mean = n > 0 ? sum / static_cast<double>(n) : NAN;
        const double m2 =
            fold_row(view, row, n, 0.0, [mean](T x) { const double d = static_cast<double>(x) - mean; return d * d; },
                     Plus{});
        if (first) out[row] = static_cast<T>(var_finish(m2, static_cast<double>(n), p.correction, p.sqrt));
        break;
      }
      case ReduceOp::LogSumExp: {
        // NaN is skipped by the max (as std::max on the CPU) and comes back through the sum.
        const double m =
            fold_row(view, row, n, static_cast<double>(-INFINITY), [](T x) { return static_cast<double>(x); }, KeepMax{});
        double r = m;
        if (!::isinf(m)) {
          r = m + ::log(fold_row(view, row, n, 0.0, [m](T x) { return ::exp(static_cast<double>(x) - m); }, Plus{}));
        }
        if (first) out[row] = static_cast<T>(r);
        break;
      }
    }
  }
}

void reduce_rows_kernel_cuda(const Tensor& out, const Tensor& indices, const Tensor& in, int64_t outer, int64_t inner,
                             const ReduceParams& params) {
  cuda::CUDAGuard guard(in.device().index);
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(in.scalar_type(), "reduce_cuda", [&] {
    const RowView<scalar_t> view{static_cast<const scalar_t*>(in.data_ptr()), params.columns ? 1 : inner,
                                 params.columns ? outer : 1};
    const bool bool_out = params.op == ReduceOp::Any || params.op == ReduceOp::All;
    scalar_t* o = (!bool_out && out.defined()) ? static_cast<scalar_t*>(out.data_ptr()) : nullptr;
    bool* ob = bool_out ? static_cast<bool*>(out.data_ptr()) : nullptr;  // bool or uint8 (any/all of uint8)
    int64_t* idx = indices.defined() ? indices.data_ptr<int64_t>() : nullptr;
    const unsigned int blocks = static_cast<unsigned int>(std::min<int64_t>(outer, 65535));
    reduce_rows_kernel<scalar_t><<<blocks, kThreadsPerBlock, 0, cuda::current_stream()>>>(view, outer, inner, params,
                                                                                         o, ob, idx);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

template <typename T>
__global__ void cumsum_kernel(const T* x, T* y, int64_t outer, int64_t n) {
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t row = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; row < outer; row += step) {
    acc_t<T> s = 0;
    for (int64_t k = 0; k < n; ++k) {
      s += static_cast<acc_t<T>>(x[row * n + k]);
      y[row * n + k] = static_cast<T>(s);
    }
  }
}

// One thread per row, in double as on the CPU (PyTorch's _log_add_exp_helper).
template <typename T>
__global__ void logcumsumexp_kernel(const T* x, T* y, int64_t outer, int64_t n) {
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t row = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; row < outer; row += step) {
    double r = -INFINITY;
    for (int64_t k = 0; k < n; ++k) {
      const double v = static_cast<double>(x[row * n + k]);
      const double lo = ::isnan(r) ? r : (r < v ? r : v);  // std::min(v, r): a NaN v stays
      const double hi = ::isnan(r) ? r : (v < r ? r : v);
      r = (lo != hi || ::isfinite(lo)) ? hi + ::log1p(::exp(lo - hi)) : v;
      y[row * n + k] = static_cast<T>(r);
    }
  }
}

template <typename T>
__global__ void softmax_kernel(const T* x, T* y, int64_t outer, int64_t n, bool log_softmax) {
  for (int64_t row = blockIdx.x; row < outer; row += gridDim.x) {
    const RowView<T> view{x, n, 1};
    double m = fold_row(view, row, n, static_cast<double>(-INFINITY), [](T v) { return static_cast<double>(v); },
                        KeepMax{});
    if (m == -INFINITY) m = 0;  // a +inf max stays: its row is NaN, as on the CPU and in PyTorch
    const double total =
        fold_row(view, row, n, 0.0, [m](T v) { return ::exp(static_cast<double>(v) - m); }, Plus{});
    const double log_total = ::log(total);
    for (int64_t k = threadIdx.x; k < n; k += blockDim.x) {
      const double v = static_cast<double>(x[row * n + k]);
      y[row * n + k] = static_cast<T>(log_softmax ? (v - m) - log_total : ::exp(v - m) / total);
    }
  }
}

void scan_rows_kernel_cuda(const Tensor& out, const Tensor& in, int64_t outer, int64_t inner, ScanOp op) {
  cuda::CUDAGuard guard(in.device().index);
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(in.scalar_type(), "scan_cuda", [&] {
    const scalar_t* x = static_cast<const scalar_t*>(in.data_ptr());
    scalar_t* y = out.data_ptr<scalar_t>();
    if (op == ScanOp::CumSum) {
      cumsum_kernel<<<grid_for(outer), kThreadsPerBlock, 0, cuda::current_stream()>>>(x, y, outer, inner);
    } else if constexpr (c10::is_floating_v<scalar_t>) {
      if (op == ScanOp::LogCumSumExp) {
        logcumsumexp_kernel<<<grid_for(outer), kThreadsPerBlock, 0, cuda::current_stream()>>>(x, y, outer, inner);
        C10_CUDA_KERNEL_LAUNCH_CHECK();
        return;
      }
      const unsigned int blocks = static_cast<unsigned int>(std::min<int64_t>(outer, 65535));
      softmax_kernel<<<blocks, kThreadsPerBlock, 0, cuda::current_stream()>>>(x, y, outer, inner,
                                                                             op == ScanOp::LogSoftmax);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(reduce_rows_stub, &reduce_rows_kernel_cuda);
REGISTER_CUDA_DISPATCH(scan_rows_stub, &scan_rows_kernel_cuda);

}  // namespace at::native
