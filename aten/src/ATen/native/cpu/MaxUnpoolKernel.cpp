// max_unpool2d/3d on the CPU (native/Pooling.h), compiled per capability: a
// thread per block of planes, each zeroed and then written at its indices
// (a repeated index keeps the last value, as PyTorch's loop). The indices of
// a plane are checked before it is written; the first one outside the plane
// is reported.
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/native/Pooling.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>

namespace at::native {
inline namespace CPU_CAPABILITY {
namespace {

template <typename T>
bool max_unpool_cpu(const T* values, const int64_t* indices, T* out, int64_t planes, int64_t in_plane,
                    int64_t out_plane, int64_t* bad) {
  // The first bad position over all planes (the lowest plane's, as a serial loop finds it).
  std::atomic<int64_t> first_bad{std::numeric_limits<int64_t>::max()};
  parallel_for(0, planes, std::max<int64_t>(1, 32768 / std::max<int64_t>(in_plane + out_plane, 1)),
               [&](int64_t lo, int64_t hi) {
    for (int64_t plane = lo; plane < hi; ++plane) {
      const T* v = values + plane * in_plane;
      const int64_t* idx = indices + plane * in_plane;
      T* dst = out + plane * out_plane;
      bool ok = true;
      for (int64_t i = 0; i < in_plane; ++i) ok &= static_cast<uint64_t>(idx[i]) < static_cast<uint64_t>(out_plane);
      if (!ok) {
        int64_t at = 0;
        while (static_cast<uint64_t>(idx[at]) < static_cast<uint64_t>(out_plane)) ++at;
        const int64_t position = plane * in_plane + at;
        int64_t seen = first_bad.load();
        while (position < seen && !first_bad.compare_exchange_weak(seen, position)) {
        }
        return;
      }
      std::memset(static_cast<void*>(dst), 0, sizeof(T) * static_cast<size_t>(out_plane));
      for (int64_t i = 0; i < in_plane; ++i) dst[idx[i]] = v[i];
    }
  });
  const int64_t position = first_bad.load();
  if (position == std::numeric_limits<int64_t>::max()) return true;
  *bad = indices[position];
  return false;
}

bool max_unpool(c10::ScalarType type, const void* values, const int64_t* indices, void* out, int64_t planes,
                int64_t in_plane, int64_t out_plane, int64_t* bad) {
  bool ok = true;
  AT_DISPATCH_FLOATING_TYPES_AND2(c10::ScalarType::Half, c10::ScalarType::BFloat16, type, "max_unpool", [&] {
    ok = max_unpool_cpu<scalar_t>(static_cast<const scalar_t*>(values), indices, static_cast<scalar_t*>(out), planes,
                                  in_plane, out_plane, bad);
  });
  return ok;
}

}  // namespace

REGISTER_CPU_DISPATCH(max_unpool_stub, &max_unpool);

}  // namespace CPU_CAPABILITY
}  // namespace at::native
