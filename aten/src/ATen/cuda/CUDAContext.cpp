#include <ATen/cuda/CUDAContext.h>

#include <mutex>
#include <vector>

namespace at::cuda {

int device_count() {
  // Asked once: without a driver the answer is 0, and asking again costs.
  static const int count = [] {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
      (void)cudaGetLastError();  // clear the sticky "no driver" error
      n = 0;
    }
    return n;
  }();
  return count;
}

int current_device() {
  int device = 0;
  C10_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

cudaStream_t current_stream() { return nullptr; }  // the legacy default stream

cublasHandle_t cublas_handle() {
  // One handle per thread and device (cuBLAS handles are not thread-safe).
  // They live until the process ends: destroying them during exit races
  // with the driver's own teardown.
  thread_local std::vector<cublasHandle_t> handles;
  const int device = current_device();
  if (handles.size() <= static_cast<size_t>(device)) handles.resize(device + 1, nullptr);
  if (handles[device] == nullptr) TORCH_CUDABLAS_CHECK(cublasCreate(&handles[device]));
  TORCH_CUDABLAS_CHECK(cublasSetStream(handles[device], current_stream()));
  return handles[device];
}

}  // namespace at::cuda
