#pragma once
// Device guards as PyTorch spells them:
//   const at::cuda::OptionalCUDAGuard device_guard(device_of(input));
//   c10::cuda::CUDAGuard guard(tensor.device());
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>

#include <optional>

namespace c10::cuda {

// Makes a CUDA device current for a scope.
class CUDAGuard {
 public:
  explicit CUDAGuard(int8_t device_index) : guard_(device_index) {}
  explicit CUDAGuard(c10::Device device) : guard_(checked_index(device)) {}

 private:
  static int checked_index(c10::Device device) {
    TORCH_CHECK(device.is_cuda(), "CUDAGuard: expected a CUDA device, got ", device);
    return device.index();
  }
  at::cuda::CUDAGuard guard_;
};

// As CUDAGuard, doing nothing for no device or a CPU one.
class OptionalCUDAGuard {
 public:
  explicit OptionalCUDAGuard(std::optional<c10::Device> device) {
    if (device && device->is_cuda()) guard_.emplace(device->index());
  }

 private:
  std::optional<at::cuda::CUDAGuard> guard_;
};

}  // namespace c10::cuda

namespace at {
// The device of a tensor, or none for an undefined one (the argument of OptionalCUDAGuard).
inline std::optional<Device> device_of(const Tensor& t) {
  return t.defined() ? std::optional<Device>(t.device()) : std::nullopt;
}
namespace cuda {
using c10::cuda::OptionalCUDAGuard;
}  // namespace cuda
}  // namespace at
