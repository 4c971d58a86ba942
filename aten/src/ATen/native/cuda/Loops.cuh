#pragma once
// gpu_kernel(iter, op): runs a scalar __host__ __device__ lambda over a
// TensorIterator on the GPU, one thread per output element (grid-stride).
// Each thread turns its linear index into per-operand byte offsets from the
// iterator's coalesced shape and strides, so any layout (broadcast,
// transposed, sliced) is read in place, as cpu_kernel does on the CPU.
#include <ATen/TensorIterator.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/native/FunctionTraits.h>

#include <algorithm>
#include <utility>

// Lambdas handed to gpu_kernel: host-visible too, so function_traits can read
// their signature.
#define GPU_LAMBDA __host__ __device__

namespace at::native {

constexpr int kMaxIterDims = 25;  // TensorIterator's limit
constexpr int kThreadsPerBlock = 256;

template <int N>
struct OffsetCalculator {
  int ndim;
  int64_t sizes[kMaxIterDims];
  int64_t strides[kMaxIterDims][N];  // bytes

  __device__ void offsets(int64_t linear, int64_t (&out)[N]) const {
#pragma unroll
    for (int k = 0; k < N; ++k) out[k] = 0;
    for (int d = 0; d < ndim; ++d) {
      int64_t idx = linear;  // the outermost dim takes what is left
      if (d + 1 < ndim) {
        idx = linear % sizes[d];
        linear /= sizes[d];
      }
#pragma unroll
      for (int k = 0; k < N; ++k) out[k] += idx * strides[d][k];
    }
  }
};

template <int N>
OffsetCalculator<N> make_offset_calculator(const TensorIterator& iter) {
  TORCH_CHECK(iter.ndim() <= kMaxIterDims, "CUDA kernels support at most ", kMaxIterDims, " dimensions");
  OffsetCalculator<N> calc{};
  calc.ndim = iter.ndim();
  for (int d = 0; d < iter.ndim(); ++d) {
    calc.sizes[d] = iter.shape()[d];
    for (int k = 0; k < N; ++k) calc.strides[d][k] = iter.strides(k)[d];
  }
  return calc;
}

template <int N>
struct OperandPointers {
  char* data[N];
};

namespace detail {

template <typename traits, typename func_t, size_t... I>
__device__ void apply_at(char* const* data, const int64_t* off, const func_t& f, std::index_sequence<I...>) {
  using out_t = typename traits::result_type;
  *reinterpret_cast<out_t*>(data[0] + off[0]) =
      f(*reinterpret_cast<const typename traits::template arg<I>*>(data[I + 1] + off[I + 1])...);
}

template <typename traits, int N, typename func_t>
__global__ void elementwise_kernel(int64_t n, OffsetCalculator<N> calc, OperandPointers<N> ptrs, func_t f) {
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    int64_t off[N];
    calc.offsets(i, off);
    apply_at<traits>(ptrs.data, off, f, std::make_index_sequence<traits::arity>{});
  }
}

}  // namespace detail

// Blocks for n elements (grid-stride loops cover the rest).
inline unsigned int grid_for(int64_t n) {
  return static_cast<unsigned int>(std::min<int64_t>((n + kThreadsPerBlock - 1) / kThreadsPerBlock, 65536));
}

namespace detail {
template <typename F>
__global__ void index_kernel(int64_t n, F f) {
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) f(i);
}
}  // namespace detail

// f(i) for i in [0, n) on the current device and stream, for kernels that
// index their own (contiguous) data: random fills, indexing.
template <typename F>
void gpu_for_each_index(int64_t n, F f) {
  if (n <= 0) return;
  detail::index_kernel<<<grid_for(n), kThreadsPerBlock, 0, cuda::current_stream()>>>(n, f);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

template <typename func_t>
void gpu_kernel(TensorIterator& iter, const func_t& f) {
  using traits = function_traits<func_t>;
  constexpr int N = static_cast<int>(traits::arity) + 1;
  TORCH_INTERNAL_ASSERT(iter.ntensors() == N, "gpu_kernel: the lambda takes ", traits::arity,
                        " inputs, the iterator has ", iter.ninputs());
  const int64_t n = iter.numel();
  if (n == 0) return;
  cuda::CUDAGuard guard(iter.device().index);
  OperandPointers<N> ptrs;
  for (int k = 0; k < N; ++k) ptrs.data[k] = iter.data_ptr(k);
  detail::elementwise_kernel<traits, N><<<grid_for(n), kThreadsPerBlock, 0, cuda::current_stream()>>>(
      n, make_offset_calculator<N>(iter), ptrs, f);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
}

}  // namespace at::native
