#include <ATen/core/Generator.h>

namespace at {

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
