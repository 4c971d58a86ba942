#pragma once
// Which copy of the CPU kernels this process runs. Every file under
// native/cpu/ is compiled once per capability (cmake/CpuCapabilities.cmake):
// DEFAULT everywhere, plus AVX2 and AVX512 on x86-64, each with that
// capability's compiler flags and in its own namespace, registering into its
// slot of each DispatchStub. The level is what the CPU supports (cpuid, read
// once in CpuCapability.cpp, the only place that looks at CPU features),
// capped by ATEN_CPU_CAPABILITY (PyTorch's variable: "default", "avx2" or
// "avx512").
#include <c10/macros/Export.h>

namespace at::native {

enum class CpuCapability { Default = 0, Avx2 = 1, Avx512 = 2 };

namespace detail {
TORCH_API CpuCapability compute_cpu_capability();
}

// Inline, so that a stub's choice is a load and a compare.
inline CpuCapability cpu_capability() {
  static const CpuCapability chosen = detail::compute_cpu_capability();
  return chosen;
}

// "DEFAULT", "AVX2" or "AVX512", as torch.backends.cpu.get_cpu_capability()
// names them.
TORCH_API const char* cpu_capability_name();

}  // namespace at::native
