// The max pools' gradient on the CPU (native/Pooling.h), compiled per
// capability: a thread per block of planes, each plane zeroed and then each
// output's gradient added where its maximum came from, in one pass over the
// outputs while the plane is in cache (zeros plus a general scatter_add
// walked the input twice and checked each index against a rank-N shape).
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/native/Pooling.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>

namespace at::native {
inline namespace CPU_CAPABILITY {
namespace {

template <typename T>
bool max_pool_backward_cpu(const T* grad, const int64_t* indices, T* grad_input, int64_t planes, int64_t in_plane,
                           int64_t out_plane) {
  std::atomic<bool> in_bounds{true};
  parallel_for(0, planes, std::max<int64_t>(1, 32768 / std::max<int64_t>(in_plane + out_plane, 1)),
               [&](int64_t lo, int64_t hi) {
    for (int64_t plane = lo; plane < hi; ++plane) {
      T* dst = grad_input + plane * in_plane;
      const T* g = grad + plane * out_plane;
      const int64_t* idx = indices + plane * out_plane;
      std::memset(static_cast<void*>(dst), 0, sizeof(T) * static_cast<size_t>(in_plane));
      bool ok = true;
      // -1: a window of padding only, which sends no gradient anywhere.
      for (int64_t o = 0; o < out_plane; ++o) ok &= (idx[o] >= -1) & (idx[o] < in_plane);
      if (!ok) {
        in_bounds.store(false, std::memory_order_relaxed);
        return;
      }
      for (int64_t o = 0; o < out_plane; ++o)
        if (idx[o] >= 0) dst[idx[o]] += g[o];
    }
  });
  return in_bounds.load();
}

bool max_pool_backward(c10::ScalarType type, const void* grad, const int64_t* indices, void* grad_input,
                       int64_t planes, int64_t in_plane, int64_t out_plane) {
  bool ok = true;
  AT_DISPATCH_FLOATING_TYPES(type, "max_pool_backward", [&] {
    ok = max_pool_backward_cpu<scalar_t>(static_cast<const scalar_t*>(grad), indices,
                                         static_cast<scalar_t*>(grad_input), planes, in_plane, out_plane);
  });
  return ok;
}

}  // namespace

REGISTER_CPU_DISPATCH(max_pool_backward_stub, &max_pool_backward);

}  // namespace CPU_CAPABILITY
}  // namespace at::native
