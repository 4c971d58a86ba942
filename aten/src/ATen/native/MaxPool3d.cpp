// max_pool3d_with_indices: the largest value of each 3-D window and its flat
// index in the (unpadded) input volume, behind F.max_pool3d with
// return_indices or a gradient (without either, torch.nn pools depth after
// height and width with two 2-D pools, which is faster). CPU tensors of any
// real dtype take the direct loop (cpu/MaxPool3dKernel.cpp); other devices
// the windows as an as_strided view of the input padded with the lowest
// value, over at:: ops.
#include <ATen/ATen.h>
#include <ATen/ScalarOps.h>
#include <ATen/native/Pooling.h>

#include <cstdint>
#include <limits>

namespace at::native {

DEFINE_DISPATCH(max_pool3d_loop_stub);

namespace {

std::vector<int64_t> triple(IntArrayRef v, const std::vector<int64_t>& fallback, const char* message) {
  if (v.empty()) return fallback;
  TORCH_CHECK(v.size() == 1 || v.size() == 3, "max_pool3d: ", message);
  return v.size() == 1 ? std::vector<int64_t>{v[0], v[0], v[0]} : std::vector<int64_t>{v[0], v[1], v[2]};
}

// Other devices: the windows as a view, their max and argmax over at:: ops.
std::tuple<Tensor, Tensor> max_pool3d_windows(const Tensor& x, const Pool3dWindow& win, const int64_t out[3]) {
  if (!x.is_floating_point() && x.scalar_type() != ScalarType::Long) {
    // Narrow integers in int64, whose minimum pads below every value.
    auto [values, indices] = max_pool3d_windows(x.to(ScalarType::Long), win, out);
    return {values.to(x.scalar_type()), indices};
  }
  const int64_t n = x.size(0), c = x.size(1);
  std::vector<int64_t> padded_sizes{n, c};
  for (int i = 0; i < 3; ++i) {
    const int64_t in = x.size(2 + i);
    const int64_t reach = (out[i] - 1) * win.s[i] + win.d[i] * (win.k[i] - 1) + 1 - win.p[i];
    padded_sizes.push_back(std::max<int64_t>(in + win.p[i], reach) + win.p[i]);
  }
  Tensor padded = at::full(padded_sizes,
                           x.is_floating_point() ? Scalar(-std::numeric_limits<double>::infinity())
                                                 : Scalar(std::numeric_limits<int64_t>::min()),
                           x.scalar_type(), x.device());
  padded.narrow(2, win.p[0], x.size(2)).narrow(3, win.p[1], x.size(3)).narrow(4, win.p[2], x.size(4)).copy_(x);
  const auto st = padded.strides();
  const Tensor windows =
      padded
          .as_strided({n, c, out[0], out[1], out[2], win.k[0], win.k[1], win.k[2]},
                      {st[0], st[1], st[2] * win.s[0], st[3] * win.s[1], st[4] * win.s[2], st[2] * win.d[0],
                       st[3] * win.d[1], st[4] * win.d[2]})
          .reshape({n, c, out[0], out[1], out[2], win.k[0] * win.k[1] * win.k[2]});
  auto [values, arg] = at::max(windows, -1, false);
  // The window position -> the flat index in the unpadded input volume.
  Tensor flat = at::zeros({}, ScalarType::Long, x.device());
  Tensor outside = at::zeros({}, ScalarType::Bool, x.device());  // a window of padding only: -1
  Tensor rest = arg;
  for (int i = 2; i >= 0; --i) {
    const Tensor offset = rest.remainder(wrapped_scalar_tensor(win.k[i]));
    rest = rest.div(wrapped_scalar_tensor(win.k[i]), "floor");
    std::vector<int64_t> shape(3, 1);
    shape[i] = out[i];
    const Tensor pos = at::arange(out[i], ScalarType::Long, x.device()).view(shape).mul(wrapped_scalar_tensor(win.s[i]))
                           .add(offset.mul(wrapped_scalar_tensor(win.d[i]))).sub(wrapped_scalar_tensor(win.p[i]));
    int64_t scale = 1;
    for (int j = i + 1; j < 3; ++j) scale *= x.size(2 + j);
    flat = flat.add(pos.mul(wrapped_scalar_tensor(scale)));
    outside = outside.logical_or(pos.lt(wrapped_scalar_tensor(0)))
                  .logical_or(pos.ge(wrapped_scalar_tensor(x.size(2 + i))));
  }
  return {values, flat.masked_fill(outside, -1)};
}

}  // namespace

std::tuple<Tensor, Tensor> max_pool3d_with_indices(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                                                   IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  TORCH_CHECK(kernel_size.size() == 1 || kernel_size.size() == 3,
              "max_pool3d: kernel_size must either be a single int, or a tuple of three ints");
  const auto k = triple(kernel_size, {}, "kernel_size must either be a single int, or a tuple of three ints");
  const auto s = triple(stride, k, "stride must either be omitted, a single int, or a tuple of three ints");
  const auto p = triple(padding, {0, 0, 0}, "padding must either be a single int, or a tuple of three ints");
  const auto d = triple(dilation, {1, 1, 1}, "dilation must be either a single int, or a tuple of three ints");
  TORCH_CHECK(k[0] > 0 && k[1] > 0 && k[2] > 0, "kernel size should be greater than zero, but got kT: ", k[0],
              " kH: ", k[1], " kW: ", k[2]);
  TORCH_CHECK(s[0] > 0 && s[1] > 0 && s[2] > 0, "stride should be greater than zero, but got dT: ", s[0], " dH: ",
              s[1], " dW: ", s[2]);
  TORCH_CHECK(d[0] > 0 && d[1] > 0 && d[2] > 0, "dilation should be greater than zero, but got dilationT: ", d[0],
              " dilationH: ", d[1], " dilationW: ", d[2]);
  TORCH_CHECK(self.dim() == 4 || self.dim() == 5, "non-empty 4D or 5D (batch mode) tensor expected for input");
  for (int64_t i = self.dim() - 4; i < self.dim(); ++i) {
    TORCH_CHECK(self.size(i) > 0,
                "max_pool3d_with_indices_out_cpu_template(): Expected input's non-batch dimensions to have positive "
                "length, but input has a shape of ", self.sizes(), " and non-batch dimension ", i,
                " has length zero!");
  }
  TORCH_CHECK(p[0] >= 0 && p[1] >= 0 && p[2] >= 0, "pad must be non-negative, but got pad: ", p[0]);
  TORCH_CHECK(p[0] <= k[0] / 2 && p[1] <= k[1] / 2 && p[2] <= k[2] / 2,
              "pad should be at most half of effective kernel size, but got pad=", p[0], ", kernel_size=", k[0],
              " and dilation=", d[0]);
  TORCH_CHECK_NOT_IMPLEMENTED(self.scalar_type() != ScalarType::Bool, "\"max_pool3d\" not implemented for 'Bool'");
  TORCH_CHECK_NOT_IMPLEMENTED(!isComplexType(self.scalar_type()), "\"max_pool3d\" not implemented for '",
                              c10::toString(self.scalar_type()), "'");
  const bool batched = self.dim() == 5;
  const Tensor x = batched ? self : self.unsqueeze(0);
  const int64_t in[3] = {x.size(2), x.size(3), x.size(4)};
  int64_t out[3];
  for (int i = 0; i < 3; ++i) out[i] = pooled_size(in[i], k[i], p[i], s[i], d[i], ceil_mode);
  TORCH_CHECK(out[0] > 0 && out[1] > 0 && out[2] > 0, "Given input size: (", x.size(1), "x", in[0], "x", in[1], "x",
              in[2], "). Calculated output size: (", x.size(1), "x", out[0], "x", out[1], "x", out[2],
              "). Output size is too small");
  const Pool3dWindow win{{k[0], k[1], k[2]}, {s[0], s[1], s[2]}, {p[0], p[1], p[2]}, {d[0], d[1], d[2]}};
  Tensor values, indices;
  if (x.device().is_cpu()) {
    const Tensor contiguous = x.contiguous();
    values = at::empty({x.size(0), x.size(1), out[0], out[1], out[2]}, x.scalar_type(), x.device());
    indices = at::empty(values.sizes(), ScalarType::Long, x.device());
    max_pool3d_loop_stub(c10::DeviceType::CPU, x.scalar_type(), contiguous.data_ptr(), values.data_ptr(),
                         indices.data_ptr<int64_t>(), x.size(0) * x.size(1), in, out, win);
  } else {
    std::tie(values, indices) = max_pool3d_windows(x, win, out);
  }
  if (batched) return {values, indices};
  return {values.squeeze(0), indices.squeeze(0)};
}

}  // namespace at::native
