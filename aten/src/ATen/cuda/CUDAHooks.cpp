// libtorch_cuda's answers to what libtorch_cpu asks of CUDA
// (ATen/detail/CUDAHooks.h), registered with the CUDA allocator when this
// library loads: torch/__init__.py loads it when the wheel has it.
#include <ATen/cuda/CUDACachingAllocator.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/PhiloxRNG.h>
#include <ATen/detail/CUDAHooks.h>

#include <mutex>
#include <string>

#ifndef TORCH_CUDA_ARCH_LIST
#define TORCH_CUDA_ARCH_LIST ""
#endif

namespace at::cuda {
namespace {

std::mutex philox_mutex;
PhiloxSeed philox_state{67280421310721ull, 0};  // PyTorch's default CUDA seed

void check_device(int device) {
  const int count = device_count();
  TORCH_CHECK(count > 0, "No CUDA GPUs are available: this is a CUDA build of torch, but no NVIDIA driver or "
              "device was found (torch.cuda.is_available() is False)");
  TORCH_CHECK(device >= 0 && device < count, "CUDA error: invalid device ordinal: device ", device,
              " requested, but this machine has ", count, " CUDA device(s)");
}

struct CUDAHooks final : at::detail::CUDAHooksInterface {
  bool compiled_with_cuda() const override { return true; }
  int device_count() const override { return at::cuda::device_count(); }
  int current_device() const override {
    check_device(0);
    return at::cuda::current_device();
  }
  void set_device(int device) const override {
    check_device(device);
    C10_CUDA_CHECK(cudaSetDevice(device));
  }
  void synchronize(int device) const override {
    check_device(device);
    CUDAGuard guard(device);
    C10_CUDA_CHECK(cudaDeviceSynchronize());
  }
  std::string device_name(int device) const override {
    check_device(device);
    cudaDeviceProp prop{};
    C10_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    return prop.name;
  }
  int64_t memory_allocated(int device) const override {
    if (device_count() == 0) return 0;
    check_device(device);
    return at::cuda::memory_allocated(device);
  }
  void manual_seed(uint64_t seed) const override { philox_manual_seed(seed); }
  std::string arch_list() const override { return TORCH_CUDA_ARCH_LIST; }
  void empty_cache() const override {
    if (device_count() > 0) at::cuda::empty_cache();
  }
};

const CUDAHooks hooks;
const bool registered = [] {
  c10::SetAllocator(c10::DeviceType::CUDA, caching_allocator());
  at::detail::set_cuda_hooks(&hooks);
  return true;
}();

}  // namespace

void philox_manual_seed(uint64_t seed) {
  std::lock_guard<std::mutex> lock(philox_mutex);
  philox_state = PhiloxSeed{seed, 0};
}

PhiloxSeed philox_next_launch() {
  std::lock_guard<std::mutex> lock(philox_mutex);
  PhiloxSeed s = philox_state;
  philox_state.offset++;
  return s;
}

}  // namespace at::cuda
