#pragma once
// The CPU random number generator behind rand/randn/randint and manual_seed:
// a 64-bit Mersenne Twister, so a seed gives the same numbers on every
// platform and in every Python version.
#include <ATen/core/MersenneTwister.h>
#include <c10/macros/Export.h>

#include <cstdint>
#include <mutex>
#include <string>

namespace at {

class TORCH_API CPUGenerator {
 public:
  static constexpr uint64_t kDefaultSeed = 67280421310721ULL;

  explicit CPUGenerator(uint64_t seed = kDefaultSeed) { set_seed(seed); }
  void set_seed(uint64_t seed) {
    seed_ = seed;
    engine_.seed_with(seed);
  }
  uint64_t seed() const { return seed_; }
  uint64_t random64() { return engine_(); }
  // The next n numbers random64() would give, in one call (kernels draw in blocks).
  void fill64(uint64_t* out, int64_t n) { engine_.fill(out, n); }
  // Uniform on [0, 1) with the full precision of double.
  // (Through int64: 53 bits convert the same, and x86 without AVX-512 has
  // no direct uint64 to double conversion.)
  double uniform() { return static_cast<double>(static_cast<int64_t>(random64() >> 11)) * 0x1.0p-53; }
  // The whole state (seed and engine) as text, and back: torch.get_rng_state
  // and torch.Generator objects save and restore streams with it.
  std::string state() const;
  // Throws c10::Error (leaving the state as it was) for text state() did not write.
  void set_state(const std::string& state);
  // Kernels hold this while they draw, so that concurrent callers each get
  // a distinct, reproducible run of numbers.
  std::mutex& mutex() { return mutex_; }

 private:
  uint64_t seed_ = kDefaultSeed;
  MersenneTwister64 engine_;
  std::mutex mutex_;
};

TORCH_API CPUGenerator& default_cpu_generator();
TORCH_API void manual_seed(uint64_t seed);

}  // namespace at
