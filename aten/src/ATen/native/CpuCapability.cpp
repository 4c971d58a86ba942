// The one place that reads the CPU's features: cpuid and the OS's enabled
// register state (XCR0), with every x86-64 compiler's spelling of both. This
// file is compiled for the baseline CPU only.
#include <ATen/native/CpuCapability.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#if defined(__x86_64__) || defined(_M_X64)
#define TORCH_CPU_X86_64 1
#if defined(_MSC_VER) && !defined(__clang__)
#include <immintrin.h>
#include <intrin.h>
#else
#include <cpuid.h>
#endif
#endif

namespace at::native {

namespace {

#ifdef TORCH_CPU_X86_64
struct CpuidRegisters {
  uint32_t eax = 0, ebx = 0, ecx = 0, edx = 0;
};

CpuidRegisters cpuid(uint32_t leaf, uint32_t subleaf) {
  CpuidRegisters r;
#if defined(_MSC_VER) && !defined(__clang__)
  int regs[4];
  __cpuidex(regs, static_cast<int>(leaf), static_cast<int>(subleaf));
  r.eax = regs[0], r.ebx = regs[1], r.ecx = regs[2], r.edx = regs[3];
#else
  __cpuid_count(leaf, subleaf, r.eax, r.ebx, r.ecx, r.edx);
#endif
  return r;
}

// Which register state the OS saves across context switches (XCR0). Only
// read when cpuid says OSXSAVE, so xgetbv is known to exist.
uint64_t enabled_register_state() {
#if defined(_MSC_VER) && !defined(__clang__)
  return _xgetbv(0);
#else
  uint32_t lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (static_cast<uint64_t>(hi) << 32) | lo;
#endif
}

bool bit(uint32_t word, int i) { return ((word >> i) & 1u) != 0; }

CpuCapability supported() {
  if (cpuid(0, 0).eax < 7) return CpuCapability::Default;
  const CpuidRegisters leaf1 = cpuid(1, 0), leaf7 = cpuid(7, 0);
  // Every wide copy converts float16 with F16C and is built with FMA.
  const bool fma = bit(leaf1.ecx, 12), osxsave = bit(leaf1.ecx, 27), avx = bit(leaf1.ecx, 28),
             f16c = bit(leaf1.ecx, 29);
  if (!(fma && osxsave && avx && f16c)) return CpuCapability::Default;
  const uint64_t xcr0 = enabled_register_state();
  if ((xcr0 & 0x6) != 0x6) return CpuCapability::Default;  // XMM and YMM state
  if (!bit(leaf7.ebx, 5)) return CpuCapability::Default;   // AVX2
  // AVX-512 F, DQ, BW, VL, and the OS saving opmask and ZMM state. (macOS
  // enables ZMM state lazily, on first use: there XCR0 may say no, and such
  // a Mac runs the AVX2 copy.)
  const bool avx512 = bit(leaf7.ebx, 16) && bit(leaf7.ebx, 17) && bit(leaf7.ebx, 30) && bit(leaf7.ebx, 31);
  if (avx512 && (xcr0 & 0xe0) == 0xe0) return CpuCapability::Avx512;
  return CpuCapability::Avx2;
}
#else
// Only the DEFAULT copy is built for other processors.
CpuCapability supported() { return CpuCapability::Default; }
#endif

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
