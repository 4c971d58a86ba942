// parallel_for's OpenMP backend (USE_OPENMP builds; ParallelNative.cpp is
// the other): one parallel region per call, a chunk per OpenMP thread.
#include <ATen/Parallel.h>

#ifdef _OPENMP

#include <exception>
#include <omp.h>

namespace at::internal {

void parallel_run(int64_t begin, int64_t end, int threads, ChunkFn fn) {
  const int64_t n = end - begin;
  std::exception_ptr error;
#pragma omp parallel num_threads(threads)
  {
    // The threads OpenMP gave, which may be fewer than asked for.
    const int64_t tid = omp_get_thread_num(), nt = omp_get_num_threads();
    const int64_t chunk = (n + nt - 1) / nt;
    const int64_t b = begin + tid * chunk, e = std::min(end, b + chunk);
    if (b < e) {
      try {
        fn.call(fn.body, b, e);
      } catch (...) {
#pragma omp critical
        if (!error) error = std::current_exception();
      }
    }
  }
  if (error) std::rethrow_exception(error);
}

}  // namespace at::internal

#endif  // _OPENMP
