#pragma once
// Intra-op parallelism on OpenMP: parallel_for splits [begin, end) into one
// chunk per thread when the range is worth it (more than grain_size items).
#include <c10/macros/Export.h>

#include <algorithm>
#include <cstdint>
#include <exception>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace at {

TORCH_API int get_num_threads();
TORCH_API void set_num_threads(int n);
TORCH_API bool in_parallel_region();

constexpr int64_t kGrainSize = 32768;

template <typename F>
void parallel_for(int64_t begin, int64_t end, int64_t grain_size, const F& f) {
  if (begin >= end) return;
#ifdef _OPENMP
  const int64_t n = end - begin;
  const int max_threads = get_num_threads();
  if (n > grain_size && max_threads > 1 && !in_parallel_region()) {
    const int64_t threads = std::min<int64_t>(max_threads, (n + grain_size - 1) / grain_size);
    std::exception_ptr error;
#pragma omp parallel num_threads(static_cast<int>(threads))
    {
      const int64_t tid = omp_get_thread_num(), nt = omp_get_num_threads();
      const int64_t chunk = (n + nt - 1) / nt;
      const int64_t b = begin + tid * chunk, e = std::min(end, b + chunk);
      if (b < e) {
        try {
          f(b, e);
        } catch (...) {
#pragma omp critical
          if (!error) error = std::current_exception();
        }
      }
    }
    if (error) std::rethrow_exception(error);
    return;
  }
#endif
  (void)grain_size;
  f(begin, end);
}

}  // namespace at
