#pragma once
// Intra-op parallelism: parallel_for splits [begin, end) into one contiguous
// chunk per thread when the range is worth it (more than grain_size items).
// The threads come from one of two backends inside libtorch_cpu, chosen at
// build time (USE_OPENMP): OpenMP where the compiler has it (GCC on Linux;
// ParallelOpenMP.cpp), and otherwise ATen's own pool of native threads (the
// zig-built macOS and Windows wheels; ParallelNative.cpp). Both cut the range
// the same way, so results do not depend on the backend, and this header
// needs neither: an extension calling parallel_for compiles without -fopenmp.
#include <c10/macros/Export.h>

#include <algorithm>
#include <cstdint>

namespace at {

TORCH_API int get_num_threads();
TORCH_API void set_num_threads(int n);
TORCH_API bool in_parallel_region();
// "OpenMP" or "native thread pool": which backend this build runs the chunks on.
TORCH_API const char* parallel_backend();

constexpr int64_t kGrainSize = 32768;

namespace internal {
// One parallel_for's body, borrowed for the call.
struct ChunkFn {
  const void* body;
  void (*call)(const void* body, int64_t begin, int64_t end);
};
// Runs fn over [begin, end) cut into one contiguous chunk per thread, on at
// most `threads` threads, the calling thread among them; rethrows the first
// exception a chunk threw.
TORCH_API void parallel_run(int64_t begin, int64_t end, int threads, ChunkFn fn);
}  // namespace internal

template <typename F>
void parallel_for(int64_t begin, int64_t end, int64_t grain_size, const F& f) {
  if (begin >= end) return;
  const int64_t n = end - begin;
  const int max_threads = n > grain_size ? get_num_threads() : 1;
  if (max_threads <= 1 || in_parallel_region()) {
    f(begin, end);
    return;
  }
  const int64_t threads = std::min<int64_t>(max_threads, (n + grain_size - 1) / grain_size);
  internal::parallel_run(begin, end, static_cast<int>(threads),
                         {&f, [](const void* body, int64_t b, int64_t e) { (*static_cast<const F*>(body))(b, e); }});
}

}  // namespace at
