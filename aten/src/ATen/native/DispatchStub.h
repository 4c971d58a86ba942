#pragma once
// A DispatchStub is a per-device table of kernel function pointers. The
// operator (native/X.cpp) declares and calls the stub; each device's kernel
// file (native/cpu/XKernel.cpp, native/cuda/...) registers its entry. This
// keeps shape/dtype logic in one place and inner loops per device.
#include <c10/core/Device.h>
#include <c10/util/Exception.h>

#include <utility>

namespace at::native {

template <typename FnPtr>
struct DispatchStub {
  const char* name;
  FnPtr cpu = nullptr;
  FnPtr cuda = nullptr;

  template <typename... Args>
  auto operator()(c10::DeviceType device, Args&&... args) const {
    FnPtr fn = device == c10::DeviceType::CPU ? cpu : cuda;
    TORCH_CHECK_NOT_IMPLEMENTED(fn != nullptr, name, ": no kernel registered for device '",
                                c10::toString(device), "'");
    return fn(std::forward<Args>(args)...);
  }
};

}  // namespace at::native

// In the operator's .cpp: DEFINE_DISPATCH(add_stub); in a header shared with
// the kernel: DECLARE_DISPATCH(binary_fn, add_stub).
#define DECLARE_DISPATCH(fn_type, stub) extern TORCH_API ::at::native::DispatchStub<fn_type> stub
#define DEFINE_DISPATCH(stub) decltype(stub) stub{#stub}
// Static registration; the stub itself is constant-initialised, so order of
// initialisation between translation units does not matter.
#define REGISTER_DISPATCH_(stub, field, fn) \
  static const bool stub##_##field##_registered_ = (::at::native::stub.field = (fn), true)
#define REGISTER_CPU_DISPATCH(stub, fn) REGISTER_DISPATCH_(stub, cpu, fn)
#define REGISTER_CUDA_DISPATCH(stub, fn) REGISTER_DISPATCH_(stub, cuda, fn)
