// max_pool3d's CPU loop (native/Pooling.h), compiled per capability: a
// thread per block of planes. Windows all inside the volume go a row of
// outputs at a time, vectorised over the row; otherwise each window's
// in-bounds range is worked out once, so the inner loop has no bounds checks
// and no branch on the data.
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/native/Pooling.h>
#include <ATen/native/cpu/Select.h>

#include <algorithm>
#include <cstdint>
#include <limits>

namespace at::native {
inline namespace CPU_CAPABILITY {
namespace {

// The window offsets [lo, hi) of one dim whose input position
// start + offset * dil lies in [0, size).
inline void window_range(int64_t start, int64_t size, int64_t k, int64_t dil, int64_t& lo, int64_t& hi) {
  lo = start < 0 ? (-start + dil - 1) / dil : 0;
  hi = std::min<int64_t>(k, start < size ? (size - start + dil - 1) / dil : 0);
}

// One output row (fixed depth and height) of windows that all lie inside
// the volume, undilated: the first window position taken for every output,
// then for each other position a pass over the row that takes it where it is
// greater or NaN, branch-free, so that the compiler widens each pass over
// the outputs (SW > 0: the width stride as a constant, turning the strided
// reads into whole-vector loads and shuffles). Positions in increasing order
// with strictly greater keep the first maximum, and a later NaN replaces an
// earlier one: the serial loop's choices.
template <typename T, int SW>
void max_pool3d_row_inside(const T* src, T* v, int64_t* idx, int64_t first, int64_t ih, int64_t iw, int64_t ow,
                           const Pool3dWindow& win) {
  const int64_t sw = SW > 0 ? SW : win.s[2];
  for (int64_t l = 0; l < ow; ++l) {
    v[l] = src[first + l * sw];
    idx[l] = first + l * sw;
  }
  for (int64_t a = 0; a < win.k[0]; ++a) {
    for (int64_t b = 0; b < win.k[1]; ++b) {
      for (int64_t c = 0; c < win.k[2]; ++c) {
        if (a == 0 && b == 0 && c == 0) continue;
        const int64_t offset = first + (a * ih + b) * iw + c;
        const T* in = src + offset;
        for (int64_t l = 0; l < ow; ++l) {
          const T x = in[l * sw], m = v[l];
          const bool take = (x > m) | (x != x);
          v[l] = select_bits(take, x, m);
          idx[l] = select_bits(take, offset + l * sw, idx[l]);
        }
      }
    }
  }
}

// The first maximum of each window (strictly greater replaces it), and
// its last NaN where it has NaNs, as PyTorch's CPU kernel; a window of
// -inf (or the dtype's lowest) alone gives its first position.
template <typename T>
void max_pool3d_cpu_loop(const T* x, T* values, int64_t* indices, int64_t planes, const int64_t in[3],
                         const int64_t out[3], const Pool3dWindow& win) {
  const int64_t id = in[0], ih = in[1], iw = in[2], od = out[0], oh = out[1], ow = out[2];
  const int64_t in_plane = id * ih * iw, out_plane = od * oh * ow;
  T lowest = std::numeric_limits<T>::lowest();
  if constexpr (std::numeric_limits<T>::has_infinity) lowest = static_cast<T>(-std::numeric_limits<float>::infinity());
  bool inside = true;  // every window in the volume, undilated: no bounds to check
  for (int t = 0; t < 3; ++t)
    inside &= win.p[t] == 0 && win.d[t] == 1 && (out[t] - 1) * win.s[t] + win.k[t] <= in[t];
  parallel_for(0, planes, std::max<int64_t>(1, 32768 / std::max<int64_t>(in_plane, 1)), [&](int64_t lo, int64_t hi) {
    for (int64_t plane = lo; plane < hi; ++plane) {
      const T* src = x + plane * in_plane;
      T* v = values + plane * out_plane;
      int64_t* idx = indices + plane * out_plane;
      if (inside) {
        for (int64_t i = 0; i < od; ++i) {
          for (int64_t j = 0; j < oh; ++j) {
            const int64_t first = (i * win.s[0] * ih + j * win.s[1]) * iw, o = (i * oh + j) * ow;
            if (win.s[2] == 2) {
              max_pool3d_row_inside<T, 2>(src, v + o, idx + o, first, ih, iw, ow, win);
            } else {
              max_pool3d_row_inside<T, 0>(src, v + o, idx + o, first, ih, iw, ow, win);
            }
          }
        }
        continue;
      }
      for (int64_t i = 0; i < od; ++i) {
        const int64_t d0 = i * win.s[0] - win.p[0];
        int64_t alo, ahi;
        window_range(d0, id, win.k[0], win.d[0], alo, ahi);
        for (int64_t j = 0; j < oh; ++j) {
          const int64_t h0 = j * win.s[1] - win.p[1];
          int64_t blo, bhi;
          window_range(h0, ih, win.k[1], win.d[1], blo, bhi);
          for (int64_t l = 0; l < ow; ++l) {
            const int64_t w0 = l * win.s[2] - win.p[2];
            int64_t clo, chi;
            window_range(w0, iw, win.k[2], win.d[2], clo, chi);
            T best = lowest;
            // A window of padding only (dilation can make one) has no source: -1, as the 2-D pool gives.
            const bool empty = ahi <= alo || bhi <= blo || chi <= clo;
            int64_t best_at =
                empty ? -1 : ((d0 + alo * win.d[0]) * ih + h0 + blo * win.d[1]) * iw + w0 + clo * win.d[2];
            for (int64_t a = alo; a < ahi; ++a) {
              for (int64_t b = blo; b < bhi; ++b) {
                const int64_t row = ((d0 + a * win.d[0]) * ih + h0 + b * win.d[1]) * iw + w0;
                for (int64_t c = clo; c < chi; ++c) {
                  const int64_t at = row + c * win.d[2];
                  const T val = src[at];
                  const bool take = (val > best) | (val != val);
                  best = select_bits(take, val, best);
                  best_at = select_bits(take, at, best_at);
                }
              }
            }
            const int64_t o = (i * oh + j) * ow + l;
            v[o] = best;
            idx[o] = best_at;
          }
        }
      }
    }
  });
}

void max_pool3d_loop(c10::ScalarType type, const void* x, void* values, int64_t* indices, int64_t planes,
                     const int64_t in[3], const int64_t out[3], const Pool3dWindow& win) {
  AT_DISPATCH_ALL_TYPES_AND2(c10::ScalarType::Half, c10::ScalarType::BFloat16, type, "max_pool3d", [&] {
    max_pool3d_cpu_loop<scalar_t>(static_cast<const scalar_t*>(x), static_cast<scalar_t*>(values), indices, planes,
                                  in, out, win);
  });
}

}  // namespace

REGISTER_CPU_DISPATCH(max_pool3d_loop_stub, &max_pool3d_loop);

}  // namespace CPU_CAPABILITY
}  // namespace at::native
