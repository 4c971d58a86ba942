// max_pool2d_with_indices: the largest value of each window and its flat
// index in the (unpadded) input plane, which the backward scatters into.
// Windows are an as_strided view of the input padded with -inf; written over
// at:: ops, so every device runs it. Float and double CPU tensors take a
// direct loop instead (one pass, a thread per block of planes).
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/ScalarOps.h>
#include <ATen/native/cpu/Select.h>

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <limits>

namespace at::native {
namespace {

std::vector<int64_t> pair(IntArrayRef v, int64_t fallback_a, int64_t fallback_b, const char* name) {
  if (v.empty()) return {fallback_a, fallback_b};
  TORCH_CHECK(v.size() == 1 || v.size() == 2, "max_pool2d: ", name,
              " must either be a single int, or a tuple of two ints");
  return v.size() == 1 ? std::vector<int64_t>{v[0], v[0]} : std::vector<int64_t>{v[0], v[1]};
}

int64_t pooled_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil_mode) {
  const int64_t eff = dil * (k - 1) + 1;
  // Rounded toward -inf (PyTorch's div_rtn): a window larger than the input gives 0, not 1.
  const int64_t span = in + 2 * pad - eff + (ceil_mode ? stride - 1 : 0);
  int64_t out = (span >= 0 ? span / stride : -((-span + stride - 1) / stride)) + 1;
  // A last window that would start in the padding is dropped (PyTorch's rule).
  if (ceil_mode && (out - 1) * stride >= in + pad) --out;
  return out;
}

struct Window {
  int64_t kh, kw, sh, sw, ph, pw, dh, dw;
};

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
                       const Window& win) {
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
      indices[i * ow + j] = best;
    }
  }
}

// One-row windows (max_pool1d, kernel 1 x kw) inside the plane: for each
// window offset b a pass over the whole output row that takes x where it is
// greater or NaN, branch-free, so the compiler widens it over outputs.
// Strictly greater keeps the first of equal values; once the maximum is NaN
// nothing replaces it but a later NaN (PyTorch's last NaN).
template <typename T>
void max_pool_rows_inside(const T* in, T* values, int64_t* indices, int64_t w, int64_t oh, int64_t ow,
                          const Window& win) {
  const int64_t kw = win.kw, sw = win.sw;
  for (int64_t i = 0; i < oh; ++i) {
    const int64_t row = i * win.sh * w;
    T* v = values + i * ow;
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
                         int64_t ow, const Window& win) {
  const bool inside = win.ph == 0 && win.pw == 0 && win.dh == 1 && win.dw == 1 &&
                      (oh - 1) * win.sh + win.kh <= h && (ow - 1) * win.sw + win.kw <= w;
  parallel_for(0, planes, std::max<int64_t>(1, 16384 / std::max<int64_t>(h * w, 1)), [&](int64_t lo, int64_t hi) {
    for (int64_t plane = lo; plane < hi; ++plane) {
      const T* in = x + plane * h * w;
      if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        if (inside) {
          T* v = values + plane * oh * ow;
          int64_t* idx = indices + plane * oh * ow;
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
          indices[(plane * oh + i) * ow + j] = best_index;
        }
      }
    }
  });
}

}  // namespace

std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                                                   IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  TORCH_CHECK(self.dim() == 3 || self.dim() == 4, "non-empty 3D or 4D (batch mode) tensor expected for input");
  const auto k = pair(kernel_size, 0, 0, "kernel_size");
  const auto s = pair(stride, k[0], k[1], "stride");
  const auto p = pair(padding, 0, 0, "padding");
  const auto d = pair(dilation, 1, 1, "dilation");
  TORCH_CHECK(k[0] > 0 && k[1] > 0, "max_pool2d: kernel_size must be greater than zero");
  TORCH_CHECK(s[0] > 0 && s[1] > 0, "max_pool2d: stride must be greater than zero");
  TORCH_CHECK(d[0] > 0 && d[1] > 0, "max_pool2d: dilation must be greater than zero");
  // Only the batch dim of a 4-D input may be empty.
  const bool planes_nonempty = self.size(-3) != 0 && self.size(-2) != 0 && self.size(-1) != 0;
  TORCH_CHECK(planes_nonempty, "Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but got:",
              self.sizes());
  TORCH_CHECK(p[0] <= k[0] / 2 && p[1] <= k[1] / 2, "pad should be at most half of effective kernel size, but got pad=",
              p[0], ", kernel_size=", k[0], " and dilation=", d[0]);
  const bool batched = self.dim() == 4;
  const Tensor x = batched ? self : self.unsqueeze(0);
  const int64_t n = x.size(0), c = x.size(1), h = x.size(2), w = x.size(3);
  const int64_t oh = pooled_size(h, k[0], p[0], s[0], d[0], ceil_mode);
  const int64_t ow = pooled_size(w, k[1], p[1], s[1], d[1], ceil_mode);
  TORCH_CHECK(oh > 0 && ow > 0, "Given input size: (", c, "x", h, "x", w, "). Calculated output size: (", c, "x", oh,
              "x", ow, "). Output size is too small");
  TORCH_CHECK_NOT_IMPLEMENTED(x.scalar_type() != ScalarType::Bool, "\"max_pool2d\" not implemented for 'Bool'");
  if (x.device().is_cpu() && (x.scalar_type() == ScalarType::Float || x.scalar_type() == ScalarType::Double)) {
    const Tensor in = x.contiguous();
    Tensor values = at::empty({n, c, oh, ow}, x.scalar_type(), x.device());
    Tensor indices = at::empty({n, c, oh, ow}, ScalarType::Long, x.device());
    const Window win{k[0], k[1], s[0], s[1], p[0], p[1], d[0], d[1]};
    AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(x.scalar_type(), "max_pool2d", [&] {
      max_pool2d_cpu_loop<scalar_t>(in.data_ptr<scalar_t>(), values.data_ptr<scalar_t>(),
                                    indices.data_ptr<int64_t>(), n * c, h, w, oh, ow, win);
    });
    return batched ? std::tuple<Tensor, Tensor>{values, indices}
                   : std::tuple<Tensor, Tensor>{values.squeeze(0), indices.squeeze(0)};
  }
  // Narrow integers are pooled in int64, so the padding (the int64 minimum)
  // is below every value and never chosen; the values return to their dtype.
  if (!x.is_floating_point() && x.scalar_type() != ScalarType::Long) {
    auto [values, indices] = native::max_pool2d_with_indices(self.to(ScalarType::Long), kernel_size, stride, padding, dilation,
                                                     ceil_mode);
    return {values.to(self.scalar_type()), indices};
  }
  // Pad with -inf (ceil_mode may read one stride past the end too).
  const int64_t ph = std::max<int64_t>(h + p[0], (oh - 1) * s[0] + d[0] * (k[0] - 1) + 1 - p[0]);
  const int64_t pw = std::max<int64_t>(w + p[1], (ow - 1) * s[1] + d[1] * (k[1] - 1) + 1 - p[1]);
  Tensor padded = at::full({n, c, ph + p[0], pw + p[1]},
                           x.is_floating_point() ? Scalar(-std::numeric_limits<double>::infinity())
                                                 : Scalar(std::numeric_limits<int64_t>::min()),
                           x.scalar_type(), x.device());
  padded.narrow(2, p[0], h).narrow(3, p[1], w).copy_(x);
  const auto st = padded.strides();
  const Tensor windows = padded.as_strided({n, c, oh, ow, k[0], k[1]},
                                           {st[0], st[1], st[2] * s[0], st[3] * s[1], st[2] * d[0], st[3] * d[1]})
                             .reshape({n, c, oh, ow, k[0] * k[1]});
  auto [values, arg] = at::max(windows, -1, false);
  // The window position -> the flat index in the unpadded input plane.
  const Tensor ki = arg.div(wrapped_scalar_tensor(k[1]), "floor"), kj = arg.remainder(wrapped_scalar_tensor(k[1]));
  const Tensor row = at::arange(oh, ScalarType::Long, x.device()).view({oh, 1}).mul(wrapped_scalar_tensor(s[0]))
                         .add(ki.mul(wrapped_scalar_tensor(d[0]))).sub(wrapped_scalar_tensor(p[0]));
  const Tensor col = at::arange(ow, ScalarType::Long, x.device()).view({1, ow}).mul(wrapped_scalar_tensor(s[1]))
                         .add(kj.mul(wrapped_scalar_tensor(d[1]))).sub(wrapped_scalar_tensor(p[1]));
  const Tensor indices = row.mul(wrapped_scalar_tensor(w)).add(col);
  return batched ? std::tuple<Tensor, Tensor>{values, indices}
                 : std::tuple<Tensor, Tensor>{values.squeeze(0), indices.squeeze(0)};
}

}  // namespace at::native
