// max_pool2d's CPU loops (native/Pooling.h), compiled per capability.
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/native/Pooling.h>
#include <ATen/native/cpu/Select.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace at::native {
inline namespace CPU_CAPABILITY {
namespace {

// The windows of an unpadded, undilated pooling that all lie inside the
// plane (so no bounds checks), KH x KW unrolled where those are given (> 0).
// The maximum first (maxss: `v > m ? v : m` keeps the first of equal
// values), then its index as the first position holding that value, found
// with selects from the last position back. A loop that branches on each
// comparison mispredicts half the time on random data (70 cycles an output;
// this way about 10). A window with NaNs gives its last NaN, as PyTorch's
// CPU kernel does (every NaN replaces the maximum there).
template <typename T, int KH, int KW>
void max_pool2d_inside(const T* in, T* values, int64_t* indices, int64_t w, int64_t oh, int64_t ow,
                       const PoolWindow& win) {
  const int64_t kh = KH > 0 ? KH : win.kh, kw = KW > 0 ? KW : win.kw, sh = win.sh, sw = win.sw;
  for (int64_t i = 0; i < oh; ++i) {
    for (int64_t j = 0; j < ow; ++j) {
      const int64_t first = i * sh * w + j * sw;
      T m = in[first];
      bool nan = false;
      for (int64_t a = 0; a < kh; ++a) {
        for (int64_t b = 0; b < kw; ++b) {
          const T v = in[first + a * w + b];
          m = v > m ? v : m;
          nan |= v != v;
        }
      }
      int64_t best = first;
      if (!nan && indices == nullptr) {
        values[i * ow + j] = m;  // values only (no gradient to route): no index search
        continue;
      }
      if (!nan) {
        for (int64_t a = kh - 1; a >= 0; --a) {
          for (int64_t b = kw - 1; b >= 0; --b) {
            const int64_t at = first + a * w + b;
            best = in[at] == m ? at : best;
          }
        }
      } else {
        for (int64_t k = 0; k < kh * kw; ++k) {
          const int64_t at = first + (k / kw) * w + k % kw;
          if (in[at] != in[at]) best = at;
        }
        m = in[best];
      }
      values[i * ow + j] = m;
      if (indices != nullptr) indices[i * ow + j] = best;
    }
  }
}

// One-row windows (max_pool1d, kernel 1 x kw) inside the plane: for each
// window offset b a pass over the whole output row that takes x where it is
// greater or NaN, branch-free, so the compiler widens it over outputs.
// Strictly greater keeps the first of equal values; once the maximum is NaN
// nothing replaces it but a later NaN (PyTorch's last NaN).
// SW > 0: the stride as a constant, so that the compiler turns the strided
// reads into whole-vector loads and shuffles (stride 2, max_pool1d's usual
// kernel 2, runs twice as fast on AVX2 that way).
template <typename T, int SW>
void max_pool_rows_values(const T* in, T* v, int64_t ow, int64_t kw, int64_t stride) {
  const int64_t sw = SW > 0 ? SW : stride;
  for (int64_t j = 0; j < ow; ++j) v[j] = in[j * sw];
  for (int64_t b = 1; b < kw; ++b) {
    for (int64_t j = 0; j < ow; ++j) {
      const T x = in[j * sw + b], m = v[j];
      v[j] = select_bits((x > m) | (x != x), x, m);
    }
  }
}

template <typename T>
void max_pool_rows_inside(const T* in, T* values, int64_t* indices, int64_t w, int64_t oh, int64_t ow,
                          const PoolWindow& win) {
  const int64_t kw = win.kw, sw = win.sw;
  for (int64_t i = 0; i < oh; ++i) {
    const int64_t row = i * win.sh * w;
    T* v = values + i * ow;
    if (indices == nullptr) {  // values only: the same selects without the index lane
      if (sw == 2) {
        max_pool_rows_values<T, 2>(in + row, v, ow, kw, sw);
      } else {
        max_pool_rows_values<T, 0>(in + row, v, ow, kw, sw);
      }
      continue;
    }
    int64_t* idx = indices + i * ow;
    for (int64_t j = 0; j < ow; ++j) {
      v[j] = in[row + j * sw];
      idx[j] = row + j * sw;
    }
    for (int64_t b = 1; b < kw; ++b) {
      for (int64_t j = 0; j < ow; ++j) {
        const int64_t at = row + j * sw + b;
        const T x = in[at], m = v[j];
        const bool take = (x > m) | (x != x);
        v[j] = select_bits(take, x, m);  // a branch here mispredicts on random data
        idx[j] = select_bits(take, at, idx[j]);
      }
    }
  }
}

// values/indices [N*C, oh, ow] from x [N*C, h, w] (contiguous); a window's
// last NaN wins, as in PyTorch's CPU kernel.
template <typename T>
void max_pool2d_cpu_loop(const T* x, T* values, int64_t* indices, int64_t planes, int64_t h, int64_t w, int64_t oh,
                         int64_t ow, const PoolWindow& win) {
  const bool inside = win.ph == 0 && win.pw == 0 && win.dh == 1 && win.dw == 1 &&
                      (oh - 1) * win.sh + win.kh <= h && (ow - 1) * win.sw + win.kw <= w;
  parallel_for(0, planes, std::max<int64_t>(1, 16384 / std::max<int64_t>(h * w, 1)), [&](int64_t lo, int64_t hi) {
    for (int64_t plane = lo; plane < hi; ++plane) {
      const T* in = x + plane * h * w;
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        if (inside) {
          T* v = values + plane * oh * ow;
          int64_t* idx = indices == nullptr ? nullptr : indices + plane * oh * ow;
          if (win.kh == 1) {
            max_pool_rows_inside<T>(in, v, idx, w, oh, ow, win);
          } else if (win.kh == 2 && win.kw == 2) {
            max_pool2d_inside<T, 2, 2>(in, v, idx, w, oh, ow, win);
          } else if (win.kh == 3 && win.kw == 3) {
            max_pool2d_inside<T, 3, 3>(in, v, idx, w, oh, ow, win);
          } else {
            max_pool2d_inside<T, 0, 0>(in, v, idx, w, oh, ow, win);
          }
          continue;
        }
      }
      for (int64_t i = 0; i < oh; ++i) {
        for (int64_t j = 0; j < ow; ++j) {
          T best = -std::numeric_limits<T>::infinity();
          int64_t best_index = -1;
          for (int64_t a = 0; a < win.kh; ++a) {
            const int64_t r = i * win.sh - win.ph + a * win.dh;
            if (r < 0 || r >= h) continue;
            for (int64_t b = 0; b < win.kw; ++b) {
              const int64_t c = j * win.sw - win.pw + b * win.dw;
              if (c < 0 || c >= w) continue;
              const T v = in[r * w + c];
              if (best_index < 0 || v > best || std::isnan(v)) {  // the last NaN wins
                best = v;
                best_index = r * w + c;
              }
            }
          }
          values[(plane * oh + i) * ow + j] = best;
          if (indices != nullptr) indices[(plane * oh + i) * ow + j] = best_index;
        }
      }
    }
  });
}

void max_pool2d_loop(c10::ScalarType type, const void* x, void* values, int64_t* indices, int64_t planes, int64_t h,
                     int64_t w, int64_t oh, int64_t ow, const PoolWindow& win) {
  AT_DISPATCH_FLOATING_TYPES(type, "max_pool2d", [&] {
    max_pool2d_cpu_loop<scalar_t>(static_cast<const scalar_t*>(x), static_cast<scalar_t*>(values), indices, planes,
                                  h, w, oh, ow, win);
  });
}

}  // namespace

REGISTER_CPU_DISPATCH(max_pool2d_loop_stub, &max_pool2d_loop);

}  // namespace CPU_CAPABILITY
}  // namespace at::native
