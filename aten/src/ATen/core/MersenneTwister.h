#pragma once
// MT19937-64 (Matsumoto and Nishimura's 64-bit Mersenne Twister), written
// out so that kernels can draw a block of numbers in one call: fill()
// tempers whole runs of the state (a loop that vectorises) where
// std::mt19937_64 returns one number per call, which is what made rand and
// randn slower than PyTorch's. The sequence is the standard one, the same
// as std::mt19937_64's for the same seed (the 10000th number from the
// default seed 5489 is 9981545732273789042), and the state reads and
// writes as libstdc++ prints that engine, so saved states stay valid.
#include <c10/macros/Export.h>

#include <cstdint>
#include <iosfwd>

namespace at {

class TORCH_API MersenneTwister64 {
 public:
  static constexpr int kStateWords = 312;

  explicit MersenneTwister64(uint64_t seed = 5489) { seed_with(seed); }
  void seed_with(uint64_t seed);

  uint64_t operator()() {
    if (next_ >= kStateWords) twist();
    return temper(state_[next_++]);
  }
  // The next n numbers, in the order operator() would give them.
  void fill(uint64_t* out, int64_t n);

  // The 312 state words and the position of the next one, space-separated.
  void write(std::ostream& out) const;
  // False (and the engine unchanged) unless `in` holds what write() wrote.
  bool read(std::istream& in);

 private:
  static uint64_t temper(uint64_t z) {
    z ^= (z >> 29) & 0x5555555555555555ULL;
    z ^= (z << 17) & 0x71D67FFFEDA60000ULL;
    z ^= (z << 37) & 0xFFF7EEE000000000ULL;
    return z ^ (z >> 43);
  }
  void twist();

  uint64_t state_[kStateWords];
  int next_ = kStateWords;
};

}  // namespace at
