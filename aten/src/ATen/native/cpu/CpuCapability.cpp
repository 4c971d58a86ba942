#include <ATen/native/cpu/CpuCapability.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace at::native {

namespace {

CpuCapability supported() {
#if TORCH_CPU_MULTIVERSION
  // Every wide path converts float16 with F16C; AVX2's loops also use FMA
  // where contraction is allowed.
  if (!__builtin_cpu_supports("f16c")) return CpuCapability::Default;
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq")) {
    return CpuCapability::Avx512;
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return CpuCapability::Avx2;
#endif
  return CpuCapability::Default;
}

// The cap ATEN_CPU_CAPABILITY asks for; no cap when it is unset, empty or
// not a value this build knows (said once on stderr, as PyTorch warns).
CpuCapability requested_cap() {
  const char* value = std::getenv("ATEN_CPU_CAPABILITY");
  if (value == nullptr || *value == '\0') return CpuCapability::Avx512;
  if (std::strcmp(value, "default") == 0) return CpuCapability::Default;
  if (std::strcmp(value, "avx2") == 0) return CpuCapability::Avx2;
  if (std::strcmp(value, "avx512") == 0) return CpuCapability::Avx512;
  std::fprintf(stderr,
               "Warning: ignoring invalid value for ATEN_CPU_CAPABILITY: '%s' (expected default, avx2 or avx512)\n",
               value);
  return CpuCapability::Avx512;
}

}  // namespace

CpuCapability detail::compute_cpu_capability() {
  const CpuCapability cpu = supported(), cap = requested_cap();
  return static_cast<int>(cap) < static_cast<int>(cpu) ? cap : cpu;
}

const char* cpu_capability_name() {
  switch (cpu_capability()) {
    case CpuCapability::Avx512:
      return "AVX512";
    case CpuCapability::Avx2:
      return "AVX2";
    case CpuCapability::Default:
      break;
  }
  return "DEFAULT";
}

}  // namespace at::native
