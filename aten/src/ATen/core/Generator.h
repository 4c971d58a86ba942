#pragma once
// The CPU random number generator behind rand/randn/randint and manual_seed:
// a 64-bit Mersenne Twister, so a seed gives the same numbers on every
// platform and in every Python version.
#include <c10/macros/Export.h>

#include <cstdint>
#include <mutex>
#include <random>
#include <string>

namespace at {

class TORCH_API CPUGenerator {
 public:
  static constexpr uint64_t kDefaultSeed = 67280421310721ULL;

  explicit CPUGenerator(uint64_t seed = kDefaultSeed) { set_seed(seed); }
  void set_seed(uint64_t seed) {
    seed_ = seed;
    engine_.seed(seed);
  }
  uint64_t seed() const { return seed_; }
  uint64_t random64() { return engine_(); }
  // Uniform on [0, 1) with the full precision of double.
  double uniform() { return static_cast<double>(random64() >> 11) * 0x1.0p-53; }
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
  std::mt19937_64 engine_;
  std::mutex mutex_;
};

TORCH_API CPUGenerator& default_cpu_generator();
TORCH_API void manual_seed(uint64_t seed);

}  // namespace at
