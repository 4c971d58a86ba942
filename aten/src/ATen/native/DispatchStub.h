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
// The wide copies hold the floating, contiguous cases only (ATen/Dispatch.h,
// native/cpu/Loops.h): a call whose Tensor or TensorIterator arguments are
// not all floating point (integer, bool, comparison, index and mixed
// kernels), or whose iterator has a strided inner dimension, runs the
// DEFAULT copy, as those loops did before the copies were split. The wide
// copies then cost a cold build a fraction of the DEFAULT one. Two kinds of
// stub widen that (WideOperands): DEFINE_DISPATCH_WITH_BOOL_OPERANDS (isnan
// and kin) also sends iterators with bool operands beside floating inputs
// to the wide copy, as a bool result packed from float64 compares only
// vectorises there (SSE2 has no narrowing GCC uses); and
// DEFINE_DISPATCH_FOR_ANY_OPERANDS the kernels of a file compiled with every
// dtype in its wide copies (TORCH_WIDE_COPY_ANY_DTYPE: comparisons, logical
// and bitwise ops, where, masked_fill), since SSE2 has no 64-bit integer
// compare either.
#include <ATen/native/CpuCapability.h>
#include <c10/core/Device.h>
#include <c10/util/Exception.h>

#include <utility>

namespace at {
class Tensor;
class TensorIterator;
}  // namespace at

namespace at::native {

// Whether an argument lets a wide copy run: an iterator's operands must all
// be floating, and contiguous or broadcast along its inner dimension (the
// rows cpu_kernel's vectorised loop takes); a defined tensor must be
// floating; other arguments always do.
// Which operands a stub's wide copies take: floating ones (the default),
// also bool ones beside a floating input, or any dtype.
enum class WideOperands : uint8_t { Floating, FloatingAndBool, Any };
TORCH_API bool wide_copy_applies(const TensorIterator& iter, WideOperands operands);
TORCH_API bool wide_copy_applies(const Tensor& tensor, WideOperands operands);
template <typename T>
constexpr bool wide_copy_applies(const T&, WideOperands) {
  return true;
}

template <typename FnPtr>
struct DispatchStub {
  const char* name;
  WideOperands wide_operands = WideOperands::Floating;
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

  // The slot for these arguments: DEFAULT's unless every one lets a wide copy run.
  template <typename... Args>
  FnPtr cpu_for(const Args&... args) const {
    if (cpu_capability() != CpuCapability::Default && !(wide_copy_applies(args, wide_operands) && ...)) return cpu_default;
    return cpu();
  }

  template <typename... Args>
  auto operator()(c10::DeviceType device, Args&&... args) const {
    FnPtr fn = device == c10::DeviceType::CPU ? cpu_for(args...) : device == c10::DeviceType::CUDA ? cuda : nullptr;
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
#define DEFINE_DISPATCH_WITH_BOOL_OPERANDS(stub) decltype(stub) stub{#stub, ::at::native::WideOperands::FloatingAndBool}
#define DEFINE_DISPATCH_FOR_ANY_OPERANDS(stub) decltype(stub) stub{#stub, ::at::native::WideOperands::Any}
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
