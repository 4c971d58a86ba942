#pragma once
// The block loops of VecMath's checked maps: a branch-free lane function
// over every element of a block (the loop the compiler vectorises), a
// vectorised test for elements outside its domain, and the exact <cmath>
// (or BinaryFunctors.h) answer recomputed for just those, so that ordinary
// data pays nothing for the rare ones. Blocks are copied in first, so the
// output may alias an input (in-place ops). Included by each capability's
// copy of the VecMath files.
#include <algorithm>
#include <cstdint>
#include <cstring>

namespace at::native::vec {
inline namespace CPU_CAPABILITY {

// y[i] = lane(x[i]) where in_domain(x[i]), exact(x[i]) elsewhere. The block
// is copied first: y may be x (in-place ops), and the exceptional elements
// are recomputed from their inputs.
// T is float or double (VecMathDouble.cpp).
template <typename T, typename Lane, typename InDomain, typename Exact>
inline void map_checked(const T* x, T* y, int64_t n, Lane lane, InDomain in_domain, Exact exact) {
  constexpr int64_t kBlock = 512;
  T in[kBlock];
  for (int64_t start = 0; start < n; start += kBlock) {
    const int64_t len = std::min(kBlock, n - start);
    std::memcpy(in, x + start, static_cast<size_t>(len) * sizeof(T));
    T* out = y + start;
    int outside = 0;
    for (int64_t i = 0; i < len; ++i) {
      out[i] = lane(in[i]);
      outside |= in_domain(in[i]) ? 0 : 1;
    }
    if (outside) {
      for (int64_t i = 0; i < len; ++i) {
        if (!in_domain(in[i])) out[i] = exact(in[i]);
      }
    }
  }
}

// out[i] = lane(x[i x_step], y[i y_step]) where in_domain, exact() elsewhere.
// Blocks are copied in first: out may alias x or y (in-place ops). T is float or double.
template <typename T, typename Lane, typename InDomain, typename Exact>
inline void map2_checked(const T* x, int64_t x_step, const T* y, int64_t y_step, T* out, int64_t n, Lane lane,
                         InDomain in_domain, Exact exact) {
  constexpr int64_t kBlock = 512;
  T xs[kBlock], ys[kBlock];
  for (int64_t start = 0; start < n; start += kBlock) {
    const int64_t len = std::min(kBlock, n - start);
    if (x_step == 0) std::fill(xs, xs + len, *x);
    else std::memcpy(xs, x + start, static_cast<size_t>(len) * sizeof(T));
    if (y_step == 0) std::fill(ys, ys + len, *y);
    else std::memcpy(ys, y + start, static_cast<size_t>(len) * sizeof(T));
    T* o = out + start;
    int outside = 0;
    for (int64_t i = 0; i < len; ++i) {
      o[i] = lane(xs[i], ys[i]);
      outside |= in_domain(xs[i], ys[i]) ? 0 : 1;
    }
    if (outside) {
      for (int64_t i = 0; i < len; ++i) {
        if (!in_domain(xs[i], ys[i])) o[i] = exact(xs[i], ys[i]);
      }
    }
  }
}

}  // namespace CPU_CAPABILITY
}  // namespace at::native::vec
