// conv1d, conv2d and conv3d as im2col plus one batched matrix product (OpenBLAS on
// the CPU, cuBLAS on CUDA): the input, padded, is viewed as the patches each
// output element sees (as_strided), copied into columns, and multiplied by
// the weight per group. Written over at:: ops, so every device runs it.
#include <ATen/native/Convolution.h>

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/native/Blas.h>

#include <algorithm>
#include <string>
#include <vector>

namespace at::native {
namespace {

bool dilation_of(IntArrayRef dilation) {
  for (int64_t d : dilation)
    if (d != 1) return true;
  return false;
}

// One convolution's sizes. Spatial dims are (depth, height, width); a
// conv2d has a depth of 1 with kernel 1, stride 1, padding 0, dilation 1,
// so that one set of loops serves conv2d and conv3d.
struct Geometry {
  int64_t n, c, o, groups, spatial;
  int64_t size[3], k[3], s[3], p[3], dl[3], out[3];
  int64_t positions() const { return out[0] * out[1] * out[2]; }
  int64_t taps() const { return k[0] * k[1] * k[2]; }
  int64_t padded(int i) const { return size[i] + 2 * p[i]; }
  bool has_padding() const { return p[0] || p[1] || p[2]; }
  // The spatial part of a shape: the last `spatial` entries of a 3-vector.
  std::vector<int64_t> dims(const int64_t (&v)[3]) const { return {v + 3 - spatial, v + 3}; }
  std::vector<int64_t> shape(int64_t batch, int64_t channels, const int64_t (&v)[3]) const {
    std::vector<int64_t> r{batch, channels};
    for (int64_t x : dims(v)) r.push_back(x);
    return r;
  }
};

// One value per spatial dim, from an int or a list of `spatial` ints.
std::vector<int64_t> per_dim(IntArrayRef v, const char* name, int64_t spatial) {
  TORCH_CHECK(v.size() == 1 || static_cast<int64_t>(v.size()) == spatial, "expected ", name,
              " to be a single integer value or a list of ", spatial, " values to match the convolution dimensions, "
              "but got ", name, "=", v);
  return v.size() == 1 ? std::vector<int64_t>(spatial, v[0]) : v.vec();
}

std::string joined(const std::vector<int64_t>& v) {
  std::string r;
  for (size_t i = 0; i < v.size(); ++i) r += (i ? " x " : "") + std::to_string(v[i]);
  return r;
}

// input [N, C, (D,) H, W], weight [O, C/groups, (kD,) kH, kW].
Geometry geometry(const Tensor& input, const Tensor& weight, IntArrayRef stride, IntArrayRef padding,
                  IntArrayRef dilation, int64_t groups) {
  const int64_t spatial = weight.dim() - 2;
  TORCH_CHECK(spatial == 2 || spatial == 3, "weight should have 4 or 5 dimensions");
  TORCH_CHECK(input.dim() == spatial + 2, "Expected ", spatial + 1, "D (unbatched) or ", spatial + 2,
              "D (batched) input to conv", spatial, "d, but got input of size: ", input.sizes());
  TORCH_CHECK(groups > 0, "non-positive groups is not supported");
  const auto s = per_dim(stride, "stride", spatial), p = per_dim(padding, "padding", spatial),
             d = per_dim(dilation, "dilation", spatial);
  Geometry g{input.size(0), input.size(1), weight.size(0), groups, spatial, {1, 1, 1}, {1, 1, 1}, {1, 1, 1},
             {0, 0, 0}, {1, 1, 1}, {1, 1, 1}};
  for (int64_t i = 0; i < spatial; ++i) {
    const int64_t at = 3 - spatial + i;
    TORCH_CHECK(s[i] > 0, "non-positive stride is not supported");
    TORCH_CHECK(p[i] >= 0, "negative padding is not supported");
    // A zero dilation is the kernels' error (below); empty inputs never reach one.
    TORCH_CHECK(d[i] >= 0, "dilation should be greater than zero");
    g.size[at] = input.size(2 + i);
    g.k[at] = weight.size(2 + i);
    g.s[at] = s[i];
    g.p[at] = p[i];
    g.dl[at] = d[i];
  }
  TORCH_CHECK(g.c == weight.size(1) * groups, "Given groups=", groups, ", weight of size ", weight.sizes(),
              ", expected input", input.sizes(), " to have ", weight.size(1) * groups, " channels, but got ", g.c,
              " channels instead");
  TORCH_CHECK(g.o % groups == 0, "Given groups=", groups, ", expected weight to be divisible by ", groups,
              " at dimension 0, but got weight of size ", weight.sizes(), " instead");
  std::vector<int64_t> padded_size, kernel_size;
  bool fits = true;
  for (int i = 3 - spatial; i < 3; ++i) {
    const int64_t eff = (g.k[i] - 1) * g.dl[i] + 1;
    padded_size.push_back(g.padded(i));
    kernel_size.push_back(eff);
    fits = fits && g.padded(i) >= eff;
    g.out[i] = (g.padded(i) - eff) / g.s[i] + 1;
  }
  TORCH_CHECK(fits, "Calculated padded input size per channel: (", joined(padded_size), "). Kernel size: (",
              joined(kernel_size), "). Kernel size can't be greater than actual input size");
  return g;
}

Tensor padded(const Tensor& input, const Geometry& g) {
  if (!g.has_padding()) return input.contiguous();
  const int64_t padded_size[3] = {g.padded(0), g.padded(1), g.padded(2)};
  Tensor out = at::zeros(g.shape(g.n, g.c, padded_size), input.scalar_type(), input.device());
  Tensor inner = out;
  for (int64_t i = 0; i < g.spatial; ++i) {
    const int at = 3 - g.spatial + i;
    inner = inner.narrow(2 + i, g.p[at], g.size[at]);
  }
  inner.copy_(input);
  return out;
}

// The input's interior within a padded [N, C, spatial...] tensor.
Tensor unpadded(const Tensor& x, const Geometry& g) {
  Tensor inner = x;
  for (int64_t i = 0; i < g.spatial; ++i) {
    const int at = 3 - g.spatial + i;
    inner = inner.narrow(2 + i, g.p[at], g.size[at]);
  }
  return inner;
}

// The columns of one image on the CPU, for channels [c_lo, c_hi) and the
// output rows [t_lo, t_hi) (a row is one output depth and height, ow
// positions): cols[(c * taps + tap) * ld + (t - t_lo) * ow + j]. One pass
// over each input volume, the padding written as zeros (no padded copy), a
// run per output row. With the generic pad, view and copy, conv2d of
// 32x8x8x8 by 16 3x3 filters with padding 1 took 143 us on two threads;
// with this, 77-80 us.
template <typename T>
void im2col_rows(const T* image, T* cols, const Geometry& g, int64_t c_lo, int64_t c_hi, int64_t t_lo, int64_t t_hi,
                 int64_t ld) {
  const int64_t volume = g.size[0] * g.size[1] * g.size[2];
  const int64_t oh = g.out[1], ow = g.out[2], h = g.size[1], w = g.size[2];
  for (int64_t c = c_lo; c < c_hi; ++c) {
    const T* src = image + c * volume;
    for (int64_t a = 0; a < g.k[0]; ++a) {
      for (int64_t b = 0; b < g.k[1]; ++b) {
        for (int64_t e = 0; e < g.k[2]; ++e) {
          T* dst = cols + (((c * g.k[0] + a) * g.k[1] + b) * g.k[2] + e) * ld;
          const int64_t shift = e * g.dl[2] - g.p[2];  // input column = j * sw + shift
          // Output columns whose input column lies inside [0, w). (A tap
          // right of the last input column has none: C++'s division
          // truncates toward zero, so a negative span must not reach it.)
          const int64_t j_lo = shift >= 0 ? 0 : std::min(ow, (-shift + g.s[2] - 1) / g.s[2]);
          const int64_t j_hi = w - 1 - shift < 0 ? j_lo : std::max(j_lo, std::min(ow, (w - 1 - shift) / g.s[2] + 1));
          const int64_t r_first = b * g.dl[1] - g.p[1], z_first = a * g.dl[0] - g.p[0];
          // Zeros once for the whole block when any of it may be padding, then the runs.
          if (j_lo > 0 || j_hi < ow || g.p[0] || g.p[1]) std::fill(dst, dst + (t_hi - t_lo) * ow, T(0));
          for (int64_t t = t_lo; t < t_hi; ++t, dst += ow) {
            const int64_t z = (t / oh) * g.s[0] + z_first, r = (t % oh) * g.s[1] + r_first;
            if (z < 0 || z >= g.size[0] || r < 0 || r >= h) continue;
            const T* from = src + (z * h + r) * w + (j_lo * g.s[2] + shift);  // input column of output j_lo
            if (g.s[2] == 1) {
              std::copy(from, from + (j_hi - j_lo), dst + j_lo);
            } else {
              for (int64_t j = j_lo; j < j_hi; ++j) dst[j] = from[(j - j_lo) * g.s[2]];
            }
          }
        }
      }
    }
  }
}

// [N, C * taps, positions] for a CPU float/double input, a task per (image, channel).
template <typename T>
void im2col_cpu(const T* x, T* cols, const Geometry& g) {
  const int64_t positions = g.positions(), volume = g.size[0] * g.size[1] * g.size[2];
  parallel_for(0, g.n * g.c, std::max<int64_t>(1, 16384 / std::max<int64_t>(g.taps() * positions, 1)),
               [&](int64_t lo, int64_t hi) {
    for (int64_t plane = lo; plane < hi; ++plane) {
      const int64_t image = plane / g.c, c = plane % g.c;
      im2col_rows(x + image * g.c * volume, cols + image * g.c * g.taps() * positions, g, c, c + 1, 0,
                  g.out[0] * g.out[1], positions);
    }
  });
}

// The whole forward on the CPU for float/double: each task takes one image
// and a block of its output rows, builds those columns in a buffer of its
// own (about 256 KiB, so they stay in cache between their writing and the
// product) and multiplies each group's weight into its slice of `out`
// directly. All the columns at once (conv3d of 4x8x16^3 by 3x3x3: 14 MiB)
// ran 3x PyTorch; this way each is read from cache.
template <typename T>
void conv_cpu(const T* x, const T* weight, T* out, const Geometry& g) {
  const int64_t rows = g.out[0] * g.out[1], ow = g.out[2], positions = g.positions();
  const int64_t k = (g.c / g.groups) * g.taps(), og = g.o / g.groups;
  const int64_t block = std::max<int64_t>(1, (256 * 1024 / sizeof(T)) / std::max<int64_t>(g.c * g.taps() * ow, 1));
  const int64_t blocks = (rows + block - 1) / block, volume = g.size[0] * g.size[1] * g.size[2];
  parallel_for(0, g.n * blocks, 1, [&](int64_t lo, int64_t hi) {
    std::vector<T> cols(static_cast<size_t>(g.c * g.taps() * std::min(block, rows) * ow));
    for (int64_t task = lo; task < hi; ++task) {
      const int64_t image = task / blocks, t_lo = (task % blocks) * block, t_hi = std::min(rows, t_lo + block);
      const int64_t ld = (t_hi - t_lo) * ow;
      im2col_rows(x + image * g.c * volume, cols.data(), g, 0, g.c, t_lo, t_hi, ld);
      for (int64_t gr = 0; gr < g.groups; ++gr) {
        cpublas::gemm<T>(false, false, og, ld, k, T(1), weight + gr * og * k, k, cols.data() + gr * k * ld, ld, T(0),
                         out + (image * g.o + gr * og) * positions + t_lo * ow, positions);
      }
    }
  });
}

// [N, groups, C/groups * taps, positions]: the patch under each output element.
Tensor columns(const Tensor& input, const Geometry& g) {
  const ScalarType dtype = input.scalar_type();
  if (input.device().is_cpu() && (dtype == ScalarType::Float || dtype == ScalarType::Double)) {
    const Tensor x = input.contiguous();
    Tensor cols = at::empty({g.n, g.groups, (g.c / g.groups) * g.taps(), g.positions()}, dtype, input.device());
    if (dtype == ScalarType::Float) {
      im2col_cpu(x.data_ptr<float>(), cols.data_ptr<float>(), g);
    } else {
      im2col_cpu(x.data_ptr<double>(), cols.data_ptr<double>(), g);
    }
    return cols;
  }
  const Tensor x = padded(input, g);
  const auto st = x.strides();
  // [N, C, taps per dim..., outputs per dim...] over the padded input.
  std::vector<int64_t> sizes{g.n, g.c}, strides{st[0], st[1]};
  for (int64_t i = 0; i < g.spatial; ++i) {
    sizes.push_back(g.k[3 - g.spatial + i]);
    strides.push_back(st[2 + i] * g.dl[3 - g.spatial + i]);
  }
  for (int64_t i = 0; i < g.spatial; ++i) {
    sizes.push_back(g.out[3 - g.spatial + i]);
    strides.push_back(st[2 + i] * g.s[3 - g.spatial + i]);
  }
  return x.as_strided(sizes, strides).reshape({g.n, g.groups, (g.c / g.groups) * g.taps(), g.positions()});
}

Tensor conv_forward(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                    IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  const Geometry g = geometry(input, weight, stride, padding, dilation, groups);
  if (bias && bias->defined()) {
    TORCH_CHECK(bias->dim() == 1 && bias->size(0) == g.o, "Given weight of size ", weight.sizes(),
                ", expected bias to be 1-dimensional with ", g.o, " elements, but got bias of size ", bias->sizes(),
                " instead");
    TORCH_CHECK(bias->scalar_type() == input.scalar_type(), "Input type (", c10::cppTypeName(input.scalar_type()),
                ") and bias type (", c10::cppTypeName(bias->scalar_type()), ") should be the same");
  }
  // An empty batch or no channels has a result without any kernel (so none
  // of the kernels' checks below); any other empty input (a zero-length
  // spatial dim, padded) is refused, as PyTorch does.
  const bool no_kernel = g.n == 0 || g.c == 0;
  TORCH_CHECK(no_kernel || input.numel() != 0,
              "Only zero batch or zero channel inputs are supported, but got input shape: ", input.sizes());
  if (g.spatial == 2) {
    TORCH_CHECK(no_kernel || (g.k[1] > 0 && g.k[2] > 0), "kernel size should be greater than zero, but got "
                "kernel_height: ", g.k[1], " kernel_width: ", g.k[2]);
  } else {
    TORCH_CHECK(no_kernel || (g.k[0] > 0 && g.k[1] > 0 && g.k[2] > 0), "kernel size should be greater than zero, "
                "but got kT: ", g.k[0], " kH: ", g.k[1], " kW: ", g.k[2]);
  }
  TORCH_CHECK(no_kernel || (g.dl[0] > 0 && g.dl[1] > 0 && g.dl[2] > 0), "dilation should be greater than zero, but "
              "got ", dilation);
  // After the shapes and the bias, PyTorch's CPU kernels dispatch on the
  // input's dtype before they look at the weight's: bool has no kernel.
  const bool dilated = dilation_of(dilation);
  const char* kernel = dilated ? "\"slow_conv_dilated<>\"" : g.spatial == 2 ? "\"slow_conv2d_cpu\"" : "\"slow_conv3d_cpu\"";
  TORCH_CHECK_NOT_IMPLEMENTED(input.scalar_type() != ScalarType::Bool || no_kernel, kernel,
                              " not implemented for 'Bool'");
  // Integer convolutions run as PyTorch's slow_conv2d does; its dilated
  // kernel has no integer type but int64 (an empty batch needs no kernel).
  const bool int_dilated = dilated && !input.is_floating_point() && input.scalar_type() != ScalarType::Long;
  TORCH_CHECK_NOT_IMPLEMENTED(!int_dilated || no_kernel, "\"slow_conv_dilated<>\" not implemented for '",
                              input.scalar_type(), "'");
  TORCH_CHECK(input.scalar_type() == weight.scalar_type(), "expected scalar type ", input.scalar_type(),
              " but found ", weight.scalar_type());
  const std::vector<int64_t> out_shape = g.shape(g.n, g.o, g.out);
  if (g.n == 0) return at::empty(out_shape, input.scalar_type(), input.device());
  Tensor out;
  const ScalarType dtype = input.scalar_type();
  if (input.device().is_cpu() && (dtype == ScalarType::Float || dtype == ScalarType::Double) && g.o > 0 && g.c > 0) {
    const Tensor x = input.contiguous(), w = weight.contiguous();
    out = at::empty(out_shape, dtype, input.device());
    if (dtype == ScalarType::Float) {
      conv_cpu(x.data_ptr<float>(), w.data_ptr<float>(), out.data_ptr<float>(), g);
    } else {
      conv_cpu(x.data_ptr<double>(), w.data_ptr<double>(), out.data_ptr<double>(), g);
    }
  } else {
    const Tensor cols = columns(input, g);
    const Tensor w = weight.reshape({1, g.groups, g.o / g.groups, -1});
    out = at::matmul(w, cols).reshape(out_shape);
  }
  if (bias && bias->defined()) {
    std::vector<int64_t> bias_shape(out_shape.size(), 1);
    bias_shape[1] = g.o;
    out = out.add(bias->view(bias_shape));
  }
  return out;
}

// The col2im sum as one loop per (image, channel) volume on the CPU:
// gx (padded, [N, C, (D + 2pd,) H + 2ph, W + 2pw], zeroed) += every tap's column values.
void col2im_cpu(const Tensor& gcols, const Tensor& gx, const Geometry& g) {
  const int64_t pd = g.padded(0), ph = g.padded(1), pw = g.padded(2);
  const int64_t od = g.out[0], oh = g.out[1], ow = g.out[2];
  auto run = [&](auto tag) {
    using T = decltype(tag);
    const T* cols = gcols.data_ptr<T>();
    T* out = gx.data_ptr<T>();
    parallel_for(0, g.n * g.c, std::max<int64_t>(1, 16384 / std::max<int64_t>(pd * ph * pw, 1)),
                 [&](int64_t lo, int64_t hi) {
      for (int64_t plane = lo; plane < hi; ++plane) {
        const T* vals = cols + plane * g.taps() * g.positions();
        T* dst = out + plane * pd * ph * pw;
        for (int64_t a = 0; a < g.k[0]; ++a) {
          for (int64_t i = 0; i < g.k[1]; ++i) {
            for (int64_t j = 0; j < g.k[2]; ++j) {
              for (int64_t q = 0; q < od; ++q) {
                T* slab = dst + (q * g.s[0] + a * g.dl[0]) * ph * pw;
                for (int64_t y = 0; y < oh; ++y, vals += ow) {
                  T* row = slab + (y * g.s[1] + i * g.dl[1]) * pw + j * g.dl[2];
                  for (int64_t x = 0; x < ow; ++x) row[x * g.s[2]] += vals[x];
                }
              }
            }
          }
        }
      }
    });
  };
  if (gx.scalar_type() == ScalarType::Float) {
    run(float{});
  } else {
    run(double{});
  }
}

// conv1d runs as conv2d over a height of 1: its arguments with the height's
// stride 1, padding 0, dilation 1 put first. Named vectors, because a braced
// {0, n} would bind ArrayRef's (pointer, length) constructor with a null pointer.
struct As2d {
  std::vector<int64_t> stride, padding, dilation;
  As2d(IntArrayRef s, IntArrayRef p, IntArrayRef d)
      : stride{1, one(s, "stride")}, padding{0, one(p, "padding")}, dilation{1, one(d, "dilation")} {}
  static int64_t one(IntArrayRef v, const char* name) {
    TORCH_CHECK(v.size() == 1, "expected ", name, " to be a single integer value or a list of 1 value");
    return v[0];
  }
};

}  // namespace

// A batched input; a 3-D weight is a conv1d, run as conv2d over a height of 1;
// a 5-D one a conv3d.
Tensor _convolution_batched(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                            IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  if (weight.dim() == 3) {
    const As2d a(stride, padding, dilation);
    return conv_forward(input.unsqueeze(2), weight.unsqueeze(2), bias, a.stride, a.padding, a.dilation, groups)
        .squeeze(2);
  }
  return conv_forward(input, weight, bias, stride, padding, dilation, groups);
}

namespace {

// conv1d/2d/3d: an unbatched input is a batch of one, squeezed after (PyTorch's batchify).
Tensor conv_nd(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
               IntArrayRef padding, IntArrayRef dilation, int64_t groups, int64_t spatial) {
  TORCH_CHECK(input.dim() == spatial + 1 || input.dim() == spatial + 2, "Expected ", spatial + 1, "D (unbatched) or ",
              spatial + 2, "D (batched) input to conv", spatial, "d, but got input of size: ", input.sizes());
  TORCH_CHECK(weight.dim() == spatial + 2, "weight should have ", spatial + 2, " dimensions");
  const bool batched = input.dim() == spatial + 2;
  const Tensor out = at::_convolution_batched(batched ? input : input.unsqueeze(0), weight, bias, stride, padding,
                                              dilation, groups);
  return batched ? out : out.squeeze(0);
}

}  // namespace

Tensor conv1d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  return conv_nd(input, weight, bias, stride, padding, dilation, groups, 1);
}

Tensor conv2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  return conv_nd(input, weight, bias, stride, padding, dilation, groups, 2);
}

Tensor conv3d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  return conv_nd(input, weight, bias, stride, padding, dilation, groups, 3);
}

namespace {

// padding='valid' or 'same' (PyTorch's _convolution_mode): 'same' pads
// d * (k - 1) in total per spatial dim, the extra one (an odd total) on the
// far side, through a zero-padded copy of the input in that case.
Tensor convolution_mode(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                        IntArrayRef stride, std::string_view padding, IntArrayRef dilation, int64_t groups,
                        int64_t spatial) {
  const bool batched = input.dim() == spatial + 2;
  TORCH_CHECK(batched || input.dim() == spatial + 1, "Expected ", spatial + 1, "D (unbatched) or ", spatial + 2,
              "D (batched) input to conv", spatial, "d, but got input of size: ", input.sizes());
  // The bias takes the input's dtype on this path, as in PyTorch (no type error).
  const std::optional<Tensor> b = bias && bias->defined() ? std::optional<Tensor>(bias->to(input.scalar_type())) : bias;
  auto run = [&](const Tensor& x, IntArrayRef pad) {
    // Unbatched: a batch of one, squeezed after (PyTorch's batchify).
    const Tensor xb = batched ? x : x.unsqueeze(0);
    const Tensor out = spatial == 1   ? at::conv1d(xb, weight, b, stride, pad, dilation, groups)
                       : spatial == 2 ? at::conv2d(xb, weight, b, stride, pad, dilation, groups)
                                      : at::conv3d(xb, weight, b, stride, pad, dilation, groups);
    return batched ? out : out.squeeze(0);
  };
  if (padding == "valid") return run(input, std::vector<int64_t>(spatial, 0));
  TORCH_CHECK(padding == "same", "Invalid padding string: '", padding, "'");
  TORCH_CHECK(weight.dim() == spatial + 2, "weight should have ", spatial + 2, " dimensions");
  for (int64_t s : stride) TORCH_CHECK(s == 1, "padding='same' is not supported for strided convolutions");
  TORCH_CHECK(dilation.size() == 1 || static_cast<int64_t>(dilation.size()) == spatial, "dilation cannot broadcast to ",
              spatial, " dimensions");
  std::vector<int64_t> left(spatial);
  Tensor x = input;
  for (int64_t i = 0; i < spatial; ++i) {
    const int64_t d = dilation.size() == 1 ? dilation[0] : dilation[i];
    const int64_t total = d * (weight.size(2 + i) - 1);
    left[i] = total / 2;
    if (total % 2) {  // one more zero at the end of this dim
      const int64_t dim = x.dim() - spatial + i;
      std::vector<int64_t> zeros_shape = x.sizes().vec();
      zeros_shape[dim] = 1;
      x = at::cat({x, at::zeros(zeros_shape, x.scalar_type(), x.device())}, dim);
    }
  }
  return run(x, left);
}

}  // namespace

Tensor conv1d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
              std::string_view padding, IntArrayRef dilation, int64_t groups) {
  return convolution_mode(input, weight, bias, stride, padding, dilation, groups, 1);
}

Tensor conv2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
              std::string_view padding, IntArrayRef dilation, int64_t groups) {
  return convolution_mode(input, weight, bias, stride, padding, dilation, groups, 2);
}

Tensor conv3d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
              std::string_view padding, IntArrayRef dilation, int64_t groups) {
  return convolution_mode(input, weight, bias, stride, padding, dilation, groups, 3);
}

// ---- gradients (FunctionsManual calls these) ----

Tensor conv_backward_input(const Tensor& grad, const Tensor& input, const Tensor& weight, IntArrayRef stride,
                           IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  const bool batched = input.dim() == weight.dim();
  const Tensor x = batched ? input : input.unsqueeze(0);
  const Tensor go = batched ? grad : grad.unsqueeze(0);
  const Geometry g = geometry(x, weight, stride, padding, dilation, groups);
  // Columns' gradient: weight^T @ grad, per group, as [N, C, taps, positions].
  const Tensor w = weight.reshape({1, g.groups, g.o / g.groups, -1});
  const Tensor gcols = at::matmul(w.transpose(-1, -2), go.reshape({g.n, g.groups, g.o / g.groups, g.positions()}))
                           .reshape({g.n, g.c, g.k[0], g.k[1], g.k[2], g.out[0], g.out[1], g.out[2]});
  const int64_t padded_size[3] = {g.padded(0), g.padded(1), g.padded(2)};
  // col2im: each kernel tap adds its slice of the padded input. On the CPU,
  // float16/bfloat16 taps are summed in float32 and rounded once.
  const ScalarType dtype = grad.scalar_type();
  const bool reduced = dtype == ScalarType::Half || dtype == ScalarType::BFloat16;
  if (grad.device().is_cpu() && (dtype == ScalarType::Float || dtype == ScalarType::Double || reduced)) {
    const ScalarType acc = reduced ? ScalarType::Float : dtype;
    Tensor gx = at::zeros(g.shape(g.n, g.c, padded_size), acc, grad.device());
    col2im_cpu(gcols.to(acc).contiguous(), gx, g);
    Tensor out = unpadded(gx, g);
    if (reduced) out = out.to(dtype);
    return batched ? out : out.squeeze(0);
  }
  // Elsewhere one strided add per tap, over a [N, C, D, H, W] view (a depth of 1 for conv2d).
  Tensor gx = at::zeros(g.shape(g.n, g.c, padded_size), dtype, grad.device());
  const Tensor gx5 = g.spatial == 3 ? gx : gx.unsqueeze(2);
  for (int64_t a = 0; a < g.k[0]; ++a) {
    for (int64_t i = 0; i < g.k[1]; ++i) {
      for (int64_t j = 0; j < g.k[2]; ++j) {
        Tensor target = gx5.slice(2, a * g.dl[0], a * g.dl[0] + g.s[0] * (g.out[0] - 1) + 1, g.s[0])
                            .slice(3, i * g.dl[1], i * g.dl[1] + g.s[1] * (g.out[1] - 1) + 1, g.s[1])
                            .slice(4, j * g.dl[2], j * g.dl[2] + g.s[2] * (g.out[2] - 1) + 1, g.s[2]);
        target.add_(gcols.select(4, j).select(3, i).select(2, a));
      }
    }
  }
  Tensor out = unpadded(gx, g);
  return batched ? out : out.squeeze(0);
}

Tensor conv_backward_weight(const Tensor& grad, const Tensor& input, const Tensor& weight, IntArrayRef stride,
                            IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  const bool batched = input.dim() == weight.dim();
  const Tensor x = batched ? input : input.unsqueeze(0);
  const Tensor go = batched ? grad : grad.unsqueeze(0);
  const Geometry g = geometry(x, weight, stride, padding, dilation, groups);
  const Tensor cols = columns(x, g);  // [N, G, K, L]
  const ScalarType dtype = grad.scalar_type();
  if (dtype == ScalarType::Float || dtype == ScalarType::Double) {
    // One product per image and group against the columns as they lie
    // (BLAS reads them transposed), summed over the images: the batch-major
    // layout below needs two transposing copies, which cost more than the
    // products on the CPU.
    return at::matmul(go.reshape({g.n, g.groups, g.o / g.groups, g.positions()}), cols.transpose(-1, -2))
        .sum(IntArrayRef{0}, false, std::nullopt)
        .reshape(weight.sizes());
  }
  // One product per group whose reduction runs over the batch and the
  // positions together ([G, O/G, N*L] @ [G, N*L, K]): float16/bfloat16
  // accumulate in float32 and round once, as PyTorch's weight gradient does.
  const Tensor go2 = go.reshape({g.n, g.groups, g.o / g.groups, g.positions()}).permute({1, 2, 0, 3})
                         .reshape({g.groups, g.o / g.groups, g.n * g.positions()});
  const Tensor cols2 = cols.permute({1, 0, 3, 2}).reshape({g.groups, g.n * g.positions(), cols.size(2)});
  return at::matmul(go2, cols2).reshape(weight.sizes());
}

Tensor conv1d_backward_input(const Tensor& grad, const Tensor& input, const Tensor& weight, IntArrayRef stride,
                             IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  const bool batched = input.dim() == 3;
  const Tensor x = (batched ? input : input.unsqueeze(0)).unsqueeze(2);
  const Tensor go = (batched ? grad : grad.unsqueeze(0)).unsqueeze(2);
  const As2d a(stride, padding, dilation);
  const Tensor gx = conv_backward_input(go, x, weight.unsqueeze(2), a.stride, a.padding, a.dilation, groups).squeeze(2);
  return batched ? gx : gx.squeeze(0);
}

Tensor conv1d_backward_weight(const Tensor& grad, const Tensor& input, const Tensor& weight, IntArrayRef stride,
                              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  const bool batched = input.dim() == 3;
  const Tensor x = (batched ? input : input.unsqueeze(0)).unsqueeze(2);
  const Tensor go = (batched ? grad : grad.unsqueeze(0)).unsqueeze(2);
  const As2d a(stride, padding, dilation);
  return conv_backward_weight(go, x, weight.unsqueeze(2), a.stride, a.padding, a.dilation, groups).squeeze(2);
}

}  // namespace at::native
