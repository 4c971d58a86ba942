// torch::cuda (torch/cuda.h): PyTorch's C++ spellings, answered by the CUDA
// hooks that libtorch_cuda installs when it is loaded.
#include <torch/cuda.h>

#include <ATen/detail/CUDAHooks.h>

namespace torch::cuda {

size_t device_count() { return static_cast<size_t>(at::detail::cuda_hooks().device_count()); }

bool is_available() { return device_count() > 0; }

void synchronize(int64_t device_index) {
  const auto& hooks = at::detail::cuda_hooks();
  hooks.synchronize(device_index < 0 ? hooks.current_device() : static_cast<int>(device_index));
}

}  // namespace torch::cuda
