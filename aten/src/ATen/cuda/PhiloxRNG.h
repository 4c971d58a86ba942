#pragma once
// Random numbers on the GPU: Philox4x32-10, a counter-based generator
// (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3"). Element i
// of a launch draws philox((i, offset), seed): no per-thread state, and the
// same seed gives the same tensor whatever the launch shape.
#include <c10/macros/Export.h>

#include <cstdint>
#include <cuda_runtime.h>

namespace at::cuda {

struct PhiloxSeed {
  uint64_t seed;
  uint64_t offset;
};

// The CUDA generator (one for all devices): torch.cuda.manual_seed sets
// the seed; every launch takes the next offset.
TORCH_API void philox_manual_seed(uint64_t seed);
TORCH_API PhiloxSeed philox_next_launch();

#if defined(__CUDACC__)

__device__ inline uint4 philox4x32_10(uint4 counter, uint2 key) {
  constexpr uint32_t kMul0 = 0xD2511F53u, kMul1 = 0xCD9E8D57u;
  constexpr uint32_t kWeyl0 = 0x9E3779B9u, kWeyl1 = 0xBB67AE85u;
  for (int round = 0; round < 10; ++round) {
    const uint32_t hi0 = __umulhi(kMul0, counter.x), lo0 = kMul0 * counter.x;
    const uint32_t hi1 = __umulhi(kMul1, counter.z), lo1 = kMul1 * counter.z;
    counter = make_uint4(hi1 ^ counter.y ^ key.x, lo1, hi0 ^ counter.w ^ key.y, lo0);
    key.x += kWeyl0;
    key.y += kWeyl1;
  }
  return counter;
}

// Four random 32-bit words for element `i` of the launch `s`.
__device__ inline uint4 philox_draw(PhiloxSeed s, uint64_t i) {
  return philox4x32_10(make_uint4(static_cast<uint32_t>(i), static_cast<uint32_t>(i >> 32),
                                  static_cast<uint32_t>(s.offset), static_cast<uint32_t>(s.offset >> 32)),
                       make_uint2(static_cast<uint32_t>(s.seed), static_cast<uint32_t>(s.seed >> 32)));
}

// Uniform on [0, 1) from 24 (float) or 53 (double) random bits.
__device__ inline float uniform_float(uint32_t a) { return (a >> 8) * (1.0f / 16777216.0f); }
__device__ inline double uniform_double(uint32_t a, uint32_t b) {
  return ((static_cast<uint64_t>(a) << 21) ^ (b >> 11)) * (1.0 / 9007199254740992.0);
}

#endif  // __CUDACC__

}  // namespace at::cuda
