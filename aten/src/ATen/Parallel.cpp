#include <ATen/Parallel.h>
#include <c10/util/Exception.h>

#include <atomic>
#include <thread>

namespace at {
namespace {
std::atomic<int> num_threads{0};  // 0: not chosen yet
}

int get_num_threads() {
  int n = num_threads.load(std::memory_order_relaxed);
  if (n > 0) return n;
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

void set_num_threads(int n) {
  TORCH_CHECK(n > 0, "set_num_threads expects a positive integer, got ", n);
  num_threads.store(n, std::memory_order_relaxed);
#ifdef _OPENMP
  omp_set_num_threads(n);
#endif
}

bool in_parallel_region() {
#ifdef _OPENMP
  return omp_in_parallel();
#else
  return false;
#endif
}

}  // namespace at
