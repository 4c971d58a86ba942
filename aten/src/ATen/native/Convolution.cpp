// conv1d and conv2d as im2col plus one batched matrix product (OpenBLAS on
// the CPU, cuBLAS on CUDA): the input, padded, is viewed as the patches each
// output element sees (as_strided), copied into columns, and multiplied by
// the weight per group. Written over at:: ops, so every device runs it.
#include <ATen/native/Convolution.h>

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <algorithm>

namespace at::native {
namespace {

bool dilation_of(IntArrayRef dilation) {
  for (int64_t d : dilation)
    if (d != 1) return true;
  return false;
}

struct Geometry {
  int64_t n, c, h, w, o, kh, kw, groups, sh, sw, ph, pw, dh, dw, oh, ow;
};

std::vector<int64_t> pair(IntArrayRef v, const char* name) {
  TORCH_CHECK(v.size() == 1 || v.size() == 2, "expected ", name, " to be a single integer value or a list of 2 values");
  return v.size() == 1 ? std::vector<int64_t>{v[0], v[0]} : std::vector<int64_t>{v[0], v[1]};
}

// input [N, C, H, W], weight [O, C/groups, kH, kW].
Geometry geometry(const Tensor& input, const Tensor& weight, IntArrayRef stride, IntArrayRef padding,
                  IntArrayRef dilation, int64_t groups) {
  TORCH_CHECK(input.dim() == 4, "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got input of size: ",
              input.sizes());
  TORCH_CHECK(weight.dim() == 4, "weight should have 4 dimensions");
  TORCH_CHECK(groups > 0, "non-positive groups is not supported");
  const auto s = pair(stride, "stride"), p = pair(padding, "padding"), d = pair(dilation, "dilation");
  TORCH_CHECK(s[0] > 0 && s[1] > 0, "non-positive stride is not supported");
  TORCH_CHECK(p[0] >= 0 && p[1] >= 0, "negative padding is not supported");
  // A zero dilation is the kernels' error (below); empty inputs never reach one.
  TORCH_CHECK(d[0] >= 0 && d[1] >= 0, "dilation should be greater than zero");
  Geometry g{input.size(0), input.size(1), input.size(2), input.size(3), weight.size(0), weight.size(2),
             weight.size(3), groups, s[0], s[1], p[0], p[1], d[0], d[1], 0, 0};
  TORCH_CHECK(g.c == weight.size(1) * groups, "Given groups=", groups, ", weight of size ", weight.sizes(),
              ", expected input", input.sizes(), " to have ", weight.size(1) * groups, " channels, but got ", g.c,
              " channels instead");
  TORCH_CHECK(g.o % groups == 0, "Given groups=", groups, ", expected weight to be divisible by ", groups,
              " at dimension 0, but got weight of size ", weight.sizes(), " instead");
  const int64_t eff_h = (g.kh - 1) * g.dh + 1, eff_w = (g.kw - 1) * g.dw + 1;
  TORCH_CHECK(g.h + 2 * g.ph >= eff_h && g.w + 2 * g.pw >= eff_w, "Calculated padded input size per channel: (",
              g.h + 2 * g.ph, " x ", g.w + 2 * g.pw, "). Kernel size: (", eff_h, " x ", eff_w,
              "). Kernel size can't be greater than actual input size");
  g.oh = (g.h + 2 * g.ph - eff_h) / g.sh + 1;
  g.ow = (g.w + 2 * g.pw - eff_w) / g.sw + 1;
  return g;
}

Tensor padded(const Tensor& input, const Geometry& g) {
  if (g.ph == 0 && g.pw == 0) return input.contiguous();
  Tensor out = at::zeros({g.n, g.c, g.h + 2 * g.ph, g.w + 2 * g.pw}, input.scalar_type(), input.device());
  out.narrow(2, g.ph, g.h).narrow(3, g.pw, g.w).copy_(input);
  return out;
}

// columns() for a CPU float/double input: one pass over each input plane,
// the padding written as zeros (no padded copy), a run per output row. With
// the generic pad, view and copy, conv2d of 32x8x8x8 by 16 3x3 filters with
// padding 1 took 143 us on two threads; with this, 77-80 us.
template <typename T>
void im2col_cpu(const T* x, T* cols, const Geometry& g) {
  const int64_t positions = g.oh * g.ow;
  parallel_for(0, g.n * g.c, std::max<int64_t>(1, 16384 / std::max<int64_t>(g.kh * g.kw * positions, 1)),
               [&](int64_t lo, int64_t hi) {
    for (int64_t plane = lo; plane < hi; ++plane) {
      const T* src = x + plane * g.h * g.w;
      for (int64_t a = 0; a < g.kh; ++a) {
        for (int64_t b = 0; b < g.kw; ++b) {
          T* dst = cols + ((plane * g.kh + a) * g.kw + b) * positions;
          const int64_t shift = b * g.dw - g.pw;  // input column = j * sw + shift
          // Output columns whose input column lies inside [0, w).
          const int64_t j_lo = shift >= 0 ? 0 : std::min(g.ow, (-shift + g.sw - 1) / g.sw);
          const int64_t j_hi = std::max(j_lo, std::min(g.ow, (g.w - 1 - shift) / g.sw + 1));
          // Zeros once for the whole block when any of it is padding, then the runs.
          const int64_t r_first = a * g.dh - g.ph, r_last = (g.oh - 1) * g.sh + r_first;
          if (j_lo > 0 || j_hi < g.ow || r_first < 0 || r_last >= g.h) std::fill(dst, dst + positions, T(0));
          for (int64_t i = 0; i < g.oh; ++i, dst += g.ow) {
            const int64_t r = i * g.sh + r_first;
            if (r < 0 || r >= g.h) continue;
            const T* from = src + r * g.w + (j_lo * g.sw + shift);  // input column of output j_lo
            if (g.sw == 1) {
              std::copy(from, from + (j_hi - j_lo), dst + j_lo);
            } else {
              for (int64_t j = j_lo; j < j_hi; ++j) dst[j] = from[(j - j_lo) * g.sw];
            }
          }
        }
      }
    }
  });
}

// [N, groups, C/groups * kH * kW, oH * oW]: the patch under each output element.
Tensor columns(const Tensor& input, const Geometry& g) {
  const ScalarType dtype = input.scalar_type();
  if (input.device().is_cpu() && (dtype == ScalarType::Float || dtype == ScalarType::Double)) {
    const Tensor x = input.contiguous();
    Tensor cols = at::empty({g.n, g.groups, (g.c / g.groups) * g.kh * g.kw, g.oh * g.ow}, dtype, input.device());
    if (dtype == ScalarType::Float) {
      im2col_cpu(x.data_ptr<float>(), cols.data_ptr<float>(), g);
    } else {
      im2col_cpu(x.data_ptr<double>(), cols.data_ptr<double>(), g);
    }
    return cols;
  }
  const Tensor x = padded(input, g);
  const auto st = x.strides();
  const Tensor patches = x.as_strided({g.n, g.c, g.kh, g.kw, g.oh, g.ow},
                                      {st[0], st[1], st[2] * g.dh, st[3] * g.dw, st[2] * g.sh, st[3] * g.sw});
  return patches.reshape({g.n, g.groups, (g.c / g.groups) * g.kh * g.kw, g.oh * g.ow});
}

Tensor conv2d_forward(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
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
  TORCH_CHECK(no_kernel || (g.kh > 0 && g.kw > 0), "kernel size should be greater than zero, but got kernel_height: ",
              g.kh, " kernel_width: ", g.kw);
  TORCH_CHECK(no_kernel || (g.dh > 0 && g.dw > 0), "dilation should be greater than zero, but got [", g.dh, ", ",
              g.dw, "]");
  // After the shapes and the bias, PyTorch's CPU kernels dispatch on the
  // input's dtype before they look at the weight's: bool has no kernel.
  TORCH_CHECK_NOT_IMPLEMENTED(input.scalar_type() != ScalarType::Bool || no_kernel,
                              dilation_of(dilation) ? "\"slow_conv_dilated<>\"" : "\"slow_conv2d_cpu\"",
                              " not implemented for 'Bool'");
  // Integer convolutions run as PyTorch's slow_conv2d does; its dilated
  // kernel has no integer type but int64 (an empty batch needs no kernel).
  const bool int_dilated = (g.dh != 1 || g.dw != 1) && !input.is_floating_point() &&
                           input.scalar_type() != ScalarType::Long;
  TORCH_CHECK_NOT_IMPLEMENTED(!int_dilated || no_kernel, "\"slow_conv_dilated<>\" not implemented for '",
                              input.scalar_type(), "'");
  TORCH_CHECK(input.scalar_type() == weight.scalar_type(), "expected scalar type ", input.scalar_type(),
              " but found ", weight.scalar_type());
  const Tensor cols = columns(input, g);
  const Tensor w = weight.reshape({1, g.groups, g.o / g.groups, -1});
  if (g.n == 0) return at::empty({0, g.o, g.oh, g.ow}, input.scalar_type(), input.device());
  Tensor out = at::matmul(w, cols).reshape({g.n, g.o, g.oh, g.ow});
  if (bias && bias->defined()) out = out.add(bias->view({1, g.o, 1, 1}));
  return out;
}

// The col2im sum as one loop per (image, channel) plane on the CPU:
// gx (padded, [N, C, H + 2ph, W + 2pw], zeroed) += every tap's column values.
void col2im_cpu(const Tensor& gcols, const Tensor& gx, const Geometry& g) {
  const int64_t ph = g.h + 2 * g.ph, pw = g.w + 2 * g.pw;
  auto run = [&](auto tag) {
    using T = decltype(tag);
    const T* cols = gcols.data_ptr<T>();
    T* out = gx.data_ptr<T>();
    parallel_for(0, g.n * g.c, std::max<int64_t>(1, 16384 / std::max<int64_t>(ph * pw, 1)), [&](int64_t lo, int64_t hi) {
      for (int64_t plane = lo; plane < hi; ++plane) {
        const T* src = cols + plane * g.kh * g.kw * g.oh * g.ow;
        T* dst = out + plane * ph * pw;
        for (int64_t i = 0; i < g.kh; ++i) {
          for (int64_t j = 0; j < g.kw; ++j) {
            for (int64_t y = 0; y < g.oh; ++y) {
              T* row = dst + (y * g.sh + i * g.dh) * pw + j * g.dw;
              const T* vals = src + ((i * g.kw + j) * g.oh + y) * g.ow;
              for (int64_t x = 0; x < g.ow; ++x) row[x * g.sw] += vals[x];
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

// A batched input; a 3-D weight is a conv1d, run as conv2d over a height of 1.
Tensor _convolution_batched(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias,
                            IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  if (weight.dim() == 3) {
    const As2d a(stride, padding, dilation);
    return conv2d_forward(input.unsqueeze(2), weight.unsqueeze(2), bias, a.stride, a.padding, a.dilation, groups)
        .squeeze(2);
  }
  return conv2d_forward(input, weight, bias, stride, padding, dilation, groups);
}

Tensor conv2d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  TORCH_CHECK(input.dim() == 3 || input.dim() == 4, "Expected 3D (unbatched) or 4D (batched) input to conv2d, but got "
              "input of size: ", input.sizes());
  TORCH_CHECK(weight.dim() == 4, "weight should have 4 dimensions");
  const bool batched = input.dim() == 4;  // else a batch of one, squeezed after (PyTorch's batchify)
  const Tensor out = at::_convolution_batched(batched ? input : input.unsqueeze(0), weight, bias, stride, padding,
                                              dilation, groups);
  return batched ? out : out.squeeze(0);
}

Tensor conv1d(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  TORCH_CHECK(input.dim() == 2 || input.dim() == 3, "Expected 2D (unbatched) or 3D (batched) input to conv1d, but got "
              "input of size: ", input.sizes());
  TORCH_CHECK(weight.dim() == 3, "weight should have 3 dimensions");
  const bool batched = input.dim() == 3;
  const Tensor out = at::_convolution_batched(batched ? input : input.unsqueeze(0), weight, bias, stride, padding,
                                              dilation, groups);
  return batched ? out : out.squeeze(0);
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
    const Tensor out = spatial == 1 ? at::conv1d(xb, weight, b, stride, pad, dilation, groups)
                                    : at::conv2d(xb, weight, b, stride, pad, dilation, groups);
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

// ---- gradients (FunctionsManual calls these) ----

Tensor conv2d_backward_input(const Tensor& grad, const Tensor& input, const Tensor& weight, IntArrayRef stride,
                             IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  const bool batched = input.dim() == 4;
  const Tensor x = batched ? input : input.unsqueeze(0);
  const Tensor go = batched ? grad : grad.unsqueeze(0);
  const Geometry g = geometry(x, weight, stride, padding, dilation, groups);
  // Columns' gradient: weight^T @ grad, per group.
  const Tensor w = weight.reshape({1, g.groups, g.o / g.groups, -1});
  const Tensor gcols = at::matmul(w.transpose(-1, -2), go.reshape({g.n, g.groups, g.o / g.groups, g.oh * g.ow}))
                           .reshape({g.n, g.c, g.kh, g.kw, g.oh, g.ow});
  // col2im: each kernel tap adds its slice of the padded input. On the CPU,
  // float16/bfloat16 taps are summed in float32 and rounded once.
  const ScalarType dtype = grad.scalar_type();
  const bool reduced = dtype == ScalarType::Half || dtype == ScalarType::BFloat16;
  if (grad.device().is_cpu() && (dtype == ScalarType::Float || dtype == ScalarType::Double || reduced)) {
    const ScalarType acc = reduced ? ScalarType::Float : dtype;
    Tensor gx = at::zeros({g.n, g.c, g.h + 2 * g.ph, g.w + 2 * g.pw}, acc, grad.device());
    col2im_cpu(gcols.to(acc).contiguous(), gx, g);
    Tensor out = gx.narrow(2, g.ph, g.h).narrow(3, g.pw, g.w);
    if (reduced) out = out.to(dtype);
    return batched ? out : out.squeeze(0);
  }
  Tensor gx = at::zeros({g.n, g.c, g.h + 2 * g.ph, g.w + 2 * g.pw}, dtype, grad.device());
  for (int64_t i = 0; i < g.kh; ++i) {
    for (int64_t j = 0; j < g.kw; ++j) {
      Tensor target = gx.slice(2, i * g.dh, i * g.dh + g.sh * (g.oh - 1) + 1, g.sh)
                          .slice(3, j * g.dw, j * g.dw + g.sw * (g.ow - 1) + 1, g.sw);
      target.add_(gcols.select(3, j).select(2, i));
    }
  }
  Tensor out = gx.narrow(2, g.ph, g.h).narrow(3, g.pw, g.w);
  return batched ? out : out.squeeze(0);
}

Tensor conv2d_backward_weight(const Tensor& grad, const Tensor& input, const Tensor& weight, IntArrayRef stride,
                              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  const bool batched = input.dim() == 4;
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
    return at::matmul(go.reshape({g.n, g.groups, g.o / g.groups, g.oh * g.ow}), cols.transpose(-1, -2))
        .sum(IntArrayRef{0}, false, std::nullopt)
        .reshape(weight.sizes());
  }
  // One product per group whose reduction runs over the batch and the
  // positions together ([G, O/G, N*L] @ [G, N*L, K]): float16/bfloat16
  // accumulate in float32 and round once, as PyTorch's weight gradient does.
  const Tensor go2 = go.reshape({g.n, g.groups, g.o / g.groups, g.oh * g.ow}).permute({1, 2, 0, 3})
                         .reshape({g.groups, g.o / g.groups, g.n * g.oh * g.ow});
  const Tensor cols2 = cols.permute({1, 0, 3, 2}).reshape({g.groups, g.n * g.oh * g.ow, cols.size(2)});
  return at::matmul(go2, cols2).reshape(weight.sizes());
}

Tensor conv1d_backward_input(const Tensor& grad, const Tensor& input, const Tensor& weight, IntArrayRef stride,
                             IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  const bool batched = input.dim() == 3;
  const Tensor x = (batched ? input : input.unsqueeze(0)).unsqueeze(2);
  const Tensor go = (batched ? grad : grad.unsqueeze(0)).unsqueeze(2);
  const As2d a(stride, padding, dilation);
  const Tensor gx = conv2d_backward_input(go, x, weight.unsqueeze(2), a.stride, a.padding, a.dilation, groups).squeeze(2);
  return batched ? gx : gx.squeeze(0);
}

Tensor conv1d_backward_weight(const Tensor& grad, const Tensor& input, const Tensor& weight, IntArrayRef stride,
                              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  const bool batched = input.dim() == 3;
  const Tensor x = (batched ? input : input.unsqueeze(0)).unsqueeze(2);
  const Tensor go = (batched ? grad : grad.unsqueeze(0)).unsqueeze(2);
  const As2d a(stride, padding, dilation);
  return conv2d_backward_weight(go, x, weight.unsqueeze(2), a.stride, a.padding, a.dilation, groups).squeeze(2);
}

}  // namespace at::native
