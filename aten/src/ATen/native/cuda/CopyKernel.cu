// copy_ between dtypes and devices, and fill_, on CUDA.
#include <ATen/Dispatch.h>
#include <ATen/native/Copy.h>
#include <ATen/native/UnaryFunctors.h>
#include <ATen/native/cuda/Loops.cuh>

namespace at::native {
namespace {

// Reads one element of a runtime dtype as dst_t: one kernel per destination
// dtype instead of one per (destination, source) pair.
template <typename dst_t>
__device__ dst_t fetch_as(const char* p, ScalarType src) {
  switch (src) {
#define FETCH_CASE(cpp_type, name, _) \
  case ScalarType::name:              \
    return convert<dst_t>(*reinterpret_cast<const cpp_type*>(p));
    C10_FORALL_SCALAR_TYPES_WITH_STORAGE(FETCH_CASE)
#undef FETCH_CASE
    default:
      return dst_t(0);
  }
}

template <typename dst_t>
__global__ void cast_kernel(int64_t n, OffsetCalculator<2> calc, OperandPointers<2> ptrs, ScalarType src) {
  const int64_t step = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += step) {
    int64_t off[2];
    calc.offsets(i, off);
    *reinterpret_cast<dst_t*>(ptrs.data[0] + off[0]) = fetch_as<dst_t>(ptrs.data[1] + off[1], src);
  }
}

void copy_kernel_cuda(TensorIterator& iter) {
  const ScalarType dst = iter.dtype(0), src = iter.dtype(1);
  const int64_t n = iter.numel();
  if (n == 0) return;
  cuda::CUDAGuard guard(iter.device().index);
  if (dst == src && iter.is_contiguous()) {
    C10_CUDA_CHECK(cudaMemcpyAsync(iter.data_ptr(0), iter.data_ptr(1), n * c10::elementSize(dst),
                                   cudaMemcpyDeviceToDevice, cuda::current_stream()));
    return;
  }
  OperandPointers<2> ptrs{{iter.data_ptr(0), iter.data_ptr(1)}};
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(dst, "copy_cuda", [&] {
    cast_kernel<scalar_t><<<grid_for(n), kThreadsPerBlock, 0, cuda::current_stream()>>>(
        n, make_offset_calculator<2>(iter), ptrs, src);
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  });
}

void fill_kernel_cuda(TensorIterator& iter, const Scalar& value) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.dtype(0), "fill_cuda", [&] {
    const scalar_t v = value.to<scalar_t>();
    gpu_kernel(iter, [v] GPU_LAMBDA() -> scalar_t { return v; });
  });
}

// Dense bytes between host and device or between devices. Synchronous, so a
// host buffer can be read (or freed) as soon as copy_ returns.
void copy_bytes_cuda(void* dst, Device dst_device, const void* src, Device src_device, size_t nbytes) {
  cuda::CUDAGuard guard(dst_device.is_cuda() ? dst_device.index : src_device.index);
  if (dst_device.is_cuda() && src_device.is_cuda() && dst_device.index != src_device.index) {
    C10_CUDA_CHECK(cudaMemcpyPeer(dst, dst_device.index, src, src_device.index, nbytes));
    return;
  }
  const cudaMemcpyKind kind = !dst_device.is_cuda() ? cudaMemcpyDeviceToHost
                              : !src_device.is_cuda() ? cudaMemcpyHostToDevice
                                                      : cudaMemcpyDeviceToDevice;
  C10_CUDA_CHECK(cudaMemcpy(dst, src, nbytes, kind));
}

}  // namespace

REGISTER_CUDA_DISPATCH(copy_stub, &copy_kernel_cuda);
REGISTER_CUDA_DISPATCH(fill_stub, &fill_kernel_cuda);
REGISTER_CUDA_DISPATCH(copy_bytes_stub, &copy_bytes_cuda);

}  // namespace at::native
