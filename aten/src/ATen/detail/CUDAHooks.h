#pragma once
// What libtorch_cpu may ask of CUDA without linking it: device count,
// current device, synchronisation... A CUDA build's libtorch_cuda registers
// an implementation when it loads; without one, every question has the
// answer of a machine without CUDA and every request raises
// "Torch not compiled with CUDA enabled".
#include <c10/macros/Export.h>

#include <cstdint>
#include <string>

namespace at::detail {

struct TORCH_API CUDAHooksInterface {
  virtual ~CUDAHooksInterface() = default;
  virtual bool compiled_with_cuda() const { return false; }
  virtual int device_count() const { return 0; }
  virtual int current_device() const;
  virtual void set_device(int device) const;
  virtual void synchronize(int device) const;
  virtual std::string device_name(int device) const;
  virtual int64_t memory_allocated(int device) const;
  virtual void manual_seed(uint64_t seed) const;
  // The TORCH_CUDA_ARCH_LIST libtorch_cuda was compiled for ("" without CUDA).
  virtual std::string arch_list() const { return ""; }
  // Returns cached, unused device memory to the driver.
  virtual void empty_cache() const {}
};

TORCH_API const CUDAHooksInterface& cuda_hooks();
// Called by libtorch_cuda's static initialiser; `hooks` must live forever.
TORCH_API void set_cuda_hooks(const CUDAHooksInterface* hooks);

[[noreturn]] TORCH_API void raise_no_cuda();

}  // namespace at::detail
