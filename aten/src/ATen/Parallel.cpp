// The thread count, asked of OpenMP's runtime or, without it, of ATen's own
// pool (ParallelNative.cpp); ParallelOpenMP.cpp and ParallelNative.cpp run
// the chunks.
#include <ATen/Parallel.h>
#include <ATen/ParallelNative.h>
#include <c10/util/Exception.h>

#include <atomic>
#ifdef _OPENMP
#include <omp.h>
#endif

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
  return internal::default_num_threads();
#endif
}

void set_num_threads(int n) {
  TORCH_CHECK(n > 0, "set_num_threads expects a positive integer, got ", n);
  num_threads.store(n, std::memory_order_relaxed);
#ifdef _OPENMP
  omp_set_num_threads(n);
#endif
}

const char* parallel_backend() {
#ifdef _OPENMP
  return "OpenMP";
#else
  return "native thread pool";
#endif
}

bool in_parallel_region() {
#ifdef _OPENMP
  return omp_in_parallel();
#else
  return internal::in_pool_region();
#endif
}

}  // namespace at
