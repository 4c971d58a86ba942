#pragma once
// What every source of libtorch_cuda needs: CUDA error checks, the current
// device and stream, a device guard and the cuBLAS handle.
//
// Streams: work runs on each device's legacy default stream, which orders it
// after everything else queued on the device; the caching allocator relies on
// that (a freed block can be reused at once).
#include <c10/macros/Export.h>
#include <c10/util/Exception.h>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#define C10_CUDA_CHECK(expr)                                                                   \
  do {                                                                                         \
    const cudaError_t err_ = (expr);                                                           \
    TORCH_CHECK(err_ == cudaSuccess, "CUDA error: ", cudaGetErrorString(err_), " (", #expr, ")"); \
  } while (0)

// After a kernel launch: a bad launch configuration or an earlier
// asynchronous fault surfaces here as a RuntimeError.
#define C10_CUDA_KERNEL_LAUNCH_CHECK() C10_CUDA_CHECK(cudaGetLastError())

#define TORCH_CUDABLAS_CHECK(expr)                                                          \
  do {                                                                                      \
    const cublasStatus_t status_ = (expr);                                                  \
    TORCH_CHECK(status_ == CUBLAS_STATUS_SUCCESS, "CUDA error: ", cublasGetStatusString(status_), \
                " when calling `", #expr, "`");                                             \
  } while (0)

namespace at::cuda {

TORCH_API int device_count();
TORCH_API int current_device();
TORCH_API cudaStream_t current_stream();
// This thread's cuBLAS handle for the current device, bound to current_stream().
TORCH_API cublasHandle_t cublas_handle();

// PyTorch's spelling of the stream work runs on, for extensions:
// kernel<<<grid, block, 0, at::cuda::getCurrentCUDAStream()>>>(...).
class CUDAStream {
 public:
  explicit CUDAStream(cudaStream_t stream) : stream_(stream) {}
  operator cudaStream_t() const { return stream_; }  // NOLINT: implicit, as in PyTorch
  cudaStream_t stream() const { return stream_; }
  void synchronize() const { C10_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

 private:
  cudaStream_t stream_;
};

// The stream of `device` (the current device when -1): each device's default stream here.
inline CUDAStream getCurrentCUDAStream(int device = -1) {
  (void)device;
  return CUDAStream(current_stream());
}
inline CUDAStream getDefaultCUDAStream(int device = -1) { return getCurrentCUDAStream(device); }
inline cublasHandle_t getCurrentCUDABlasHandle() { return cublas_handle(); }

// Makes `device` current for a scope (a no-op when it already is).
class CUDAGuard {
 public:
  explicit CUDAGuard(int device) {
    C10_CUDA_CHECK(cudaGetDevice(&previous_));
    if (device >= 0 && device != previous_) C10_CUDA_CHECK(cudaSetDevice(device));
    else previous_ = -1;
  }
  ~CUDAGuard() {
    if (previous_ >= 0) cudaSetDevice(previous_);
  }
  CUDAGuard(const CUDAGuard&) = delete;
  CUDAGuard& operator=(const CUDAGuard&) = delete;

 private:
  int previous_ = -1;
};

}  // namespace at::cuda
