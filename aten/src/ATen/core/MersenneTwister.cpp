#include <ATen/core/MersenneTwister.h>

#include <algorithm>
#include <istream>
#include <ostream>

namespace at {

namespace {
constexpr int kShift = 156;  // the twist's middle word
constexpr uint64_t kUpper = ~uint64_t{0} << 31, kLower = ~kUpper;
constexpr uint64_t kMatrix = 0xB5026F5AA96619E9ULL;

inline uint64_t mix(uint64_t upper_from, uint64_t lower_from, uint64_t far) {
  const uint64_t y = (upper_from & kUpper) | (lower_from & kLower);
  return far ^ (y >> 1) ^ ((uint64_t{0} - (y & 1)) & kMatrix);  // no branch: the loops vectorise
}
}  // namespace

void MersenneTwister64::seed_with(uint64_t seed) {
  state_[0] = seed;
  for (int i = 1; i < kStateWords; ++i)
    state_[i] = 6364136223846793005ULL * (state_[i - 1] ^ (state_[i - 1] >> 62)) + static_cast<uint64_t>(i);
  next_ = kStateWords;
}

void MersenneTwister64::twist() {
  constexpr int n = kStateWords;
  for (int i = 0; i < n - kShift; ++i) state_[i] = mix(state_[i], state_[i + 1], state_[i + kShift]);
  for (int i = n - kShift; i < n - 1; ++i) state_[i] = mix(state_[i], state_[i + 1], state_[i + kShift - n]);
  state_[n - 1] = mix(state_[n - 1], state_[0], state_[kShift - 1]);
  next_ = 0;
}

void MersenneTwister64::fill(uint64_t* out, int64_t n) {
  while (n > 0) {
    if (next_ >= kStateWords) twist();
    const int64_t run = std::min<int64_t>(n, kStateWords - next_);
    const uint64_t* words = state_ + next_;
    for (int64_t i = 0; i < run; ++i) out[i] = temper(words[i]);
    out += run;
    n -= run;
    next_ += static_cast<int>(run);
  }
}

void MersenneTwister64::write(std::ostream& out) const {
  for (uint64_t word : state_) out << word << ' ';
  out << next_;
}

bool MersenneTwister64::read(std::istream& in) {
  MersenneTwister64 parsed;
  for (uint64_t& word : parsed.state_) in >> word;
  in >> parsed.next_;
  if (!in || parsed.next_ < 0 || parsed.next_ > kStateWords) return false;
  *this = parsed;
  return true;
}

}  // namespace at
