#include <ATen/core/Generator.h>

#include <c10/util/Exception.h>

#include <sstream>

namespace at {

namespace {
constexpr const char* kStateTag = "mt19937_64";
}

std::string CPUGenerator::state() const {
  std::ostringstream out;
  out << kStateTag << ' ' << seed_ << ' ';
  engine_.write(out);
  return out.str();
}

void CPUGenerator::set_state(const std::string& state) {
  std::istringstream in(state);
  std::string tag;
  uint64_t seed = 0;
  MersenneTwister64 engine;
  in >> tag >> seed;
  TORCH_CHECK(in && tag == kStateTag && engine.read(in), "set_rng_state: the state is not one that get_rng_state returned (",
              state.size(), " bytes)");
  seed_ = seed;
  engine_ = engine;
}

CPUGenerator& default_cpu_generator() {
  static CPUGenerator gen;
  return gen;
}

void manual_seed(uint64_t seed) {
  auto& gen = default_cpu_generator();
  std::lock_guard<std::mutex> lock(gen.mutex());
  gen.set_seed(seed);
}

}  // namespace at
