#pragma once
// A DispatchStub is a per-device table of kernel function pointers. The
// operator (native/X.cpp) declares and calls the stub; each device's kernel
// file (native/cpu/XKernel.cpp, native/cuda/...) registers its entry. This
// keeps shape/dtype logic in one place and inner loops per device.
//
// The CPU has one slot per capability: a kernel file under native/cpu/ is
// compiled once per capability (CPU_CAPABILITY is DEFAULT, AVX2 or AVX512
// in each copy) and REGISTER_CPU_DISPATCH fills the slot of the copy being
// compiled. A call takes the widest filled slot at or below cpu_capability().
// The wide copies hold the floating loops only (native/cpu/Loops.h): a
// TensorIterator kernel whose operands are not all floating point (integer,
// bool, comparison and mixed loops) runs the DEFAULT copy, as it did before
// the copies were split, at a third of the kernel files' build time.
#include <ATen/native/CpuCapability.h>
#include <c10/core/Device.h>
#include <c10/util/Exception.h>

#include <type_traits>
#include <utility>

namespace at {
class TensorIterator;
}

namespace at::native {

// Whether every operand of the iterator has a floating dtype.
TORCH_API bool floating_operands_only(const TensorIterator& iter);

template <typename FnPtr>
struct DispatchStub {
  const char* name;
  FnPtr cpu_default = nullptr;
  FnPtr cpu_avx2 = nullptr;
  FnPtr cpu_avx512 = nullptr;
  FnPtr cuda = nullptr;

  FnPtr cpu() const {
    switch (cpu_capability()) {
      case CpuCapability::Avx512:
        if (cpu_avx512) return cpu_avx512;
        [[fallthrough]];
      case CpuCapability::Avx2:
        if (cpu_avx2) return cpu_avx2;
        [[fallthrough]];
      case CpuCapability::Default:
        break;
    }
    return cpu_default;
  }

  // The slot for these arguments: a TensorIterator kernel with operands
  // that are not all floating takes the DEFAULT copy.
  template <typename First, typename... Rest>
  FnPtr cpu_for(const First& first, const Rest&...) const {
    if constexpr (std::is_same_v<First, TensorIterator>) {
      if (cpu_capability() != CpuCapability::Default && !floating_operands_only(first)) return cpu_default;
    }
    return cpu();
  }

  template <typename... Args>
  auto operator()(c10::DeviceType device, Args&&... args) const {
    FnPtr fn = device == c10::DeviceType::CPU ? cpu_for(args...) : cuda;
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
#if defined(CPU_CAPABILITY_AVX512)
#define TORCH_CPU_DISPATCH_SLOT cpu_avx512
#elif defined(CPU_CAPABILITY_AVX2)
#define TORCH_CPU_DISPATCH_SLOT cpu_avx2
#elif defined(CPU_CAPABILITY_DEFAULT)
#define TORCH_CPU_DISPATCH_SLOT cpu_default
#endif
#ifdef TORCH_CPU_DISPATCH_SLOT
#define REGISTER_CPU_DISPATCH(stub, fn) REGISTER_DISPATCH_(stub, TORCH_CPU_DISPATCH_SLOT, fn)
#else
#define REGISTER_CPU_DISPATCH(stub, fn) \
  static_assert(false, "REGISTER_CPU_DISPATCH belongs in native/cpu/, whose files are built once per CPU capability")
#endif
#define REGISTER_CUDA_DISPATCH(stub, fn) REGISTER_DISPATCH_(stub, cuda, fn)
