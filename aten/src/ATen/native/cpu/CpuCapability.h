#pragma once
// Which of the hand-dispatched x86-64 code paths this process takes: the
// pointwise loops' wide copies (Loops.h), the AVX-512 exp/softmax/layer_norm
// kernels (VecMathAvx512) and the F16C float16 sum. It is what the CPU
// supports, capped by ATEN_CPU_CAPABILITY (PyTorch's variable: "default",
// "avx2" or "avx512"), read once. VecMath's auto-vectorised loops are GCC
// target_clones, which GCC's resolver picks by the CPU alone.
#include <ATen/native/cpu/Multiversion.h>
#include <c10/macros/Export.h>

namespace at::native {

enum class CpuCapability { Default = 0, Avx2 = 1, Avx512 = 2 };

namespace detail {
TORCH_API CpuCapability compute_cpu_capability();
}

// Inline, so that the pointwise loops' per-row test is a load and a compare.
inline CpuCapability cpu_capability() {
  static const CpuCapability chosen = detail::compute_cpu_capability();
  return chosen;
}

// "DEFAULT", "AVX2" or "AVX512", as torch.backends.cpu.get_cpu_capability()
// names them.
TORCH_API const char* cpu_capability_name();

}  // namespace at::native
