// max_pool2d_with_indices: the largest value of each window and its flat
// index in the (unpadded) input plane, which the backward scatters into.
// Windows are an as_strided view of the input padded with -inf; written over
// at:: ops, so every device runs it. Float and double CPU tensors take a
// direct loop instead (cpu/PoolingKernel.cpp: one pass, a thread per block
// of planes, in the widest capability's copy).
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/ScalarOps.h>
#include <ATen/native/Pooling.h>

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <limits>

namespace at::native {

DEFINE_DISPATCH(max_pool2d_loop_stub);

namespace {

std::vector<int64_t> pair(IntArrayRef v, int64_t fallback_a, int64_t fallback_b, const char* name) {
  if (v.empty()) return {fallback_a, fallback_b};
  TORCH_CHECK(v.size() == 1 || v.size() == 2, "max_pool2d: ", name,
              " must either be a single int, or a tuple of two ints");
  return v.size() == 1 ? std::vector<int64_t>{v[0], v[0]} : std::vector<int64_t>{v[0], v[1]};
}

}  // namespace

namespace {

// with_indices false: the CPU loop writes the values alone (indices left
// undefined); other paths compute both.
std::tuple<Tensor, Tensor> max_pool2d_impl(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                                           IntArrayRef padding, IntArrayRef dilation, bool ceil_mode,
                                           bool with_indices) {
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
    Tensor indices = with_indices ? at::empty({n, c, oh, ow}, ScalarType::Long, x.device()) : Tensor();
    const PoolWindow win{k[0], k[1], s[0], s[1], p[0], p[1], d[0], d[1]};
    max_pool2d_loop_stub(c10::DeviceType::CPU, x.scalar_type(), in.data_ptr(), values.data_ptr(),
                         with_indices ? indices.data_ptr<int64_t>() : nullptr, n * c, h, w, oh, ow, win);
    if (batched) return {values, indices};
    return {values.squeeze(0), with_indices ? indices.squeeze(0) : indices};
  }
  // Narrow integers are pooled in int64, so the padding (the int64 minimum)
  // is below every value and never chosen; the values return to their dtype.
  if (!x.is_floating_point() && x.scalar_type() != ScalarType::Long) {
    auto [values, indices] = max_pool2d_impl(self.to(ScalarType::Long), kernel_size, stride, padding, dilation,
                                             ceil_mode, with_indices);
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
  // A window of padding only (dilation can make one) has no source: -1, as the CPU loop gives.
  const Tensor outside = row.lt(wrapped_scalar_tensor(0)).logical_or(row.ge(wrapped_scalar_tensor(h)))
                             .logical_or(col.lt(wrapped_scalar_tensor(0))).logical_or(col.ge(wrapped_scalar_tensor(w)));
  const Tensor indices = row.mul(wrapped_scalar_tensor(w)).add(col).masked_fill(outside, -1);
  return batched ? std::tuple<Tensor, Tensor>{values, indices}
                 : std::tuple<Tensor, Tensor>{values.squeeze(0), indices.squeeze(0)};
}

}  // namespace

std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                                                   IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  return max_pool2d_impl(self, kernel_size, stride, padding, dilation, ceil_mode, true);
}

// The values alone, for F.max_pool1d/2d when no gradient is wanted (no
// derivative: torch.nn.functional calls it only then).
Tensor _max_pool2d_values(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                          IntArrayRef dilation, bool ceil_mode) {
  return std::get<0>(max_pool2d_impl(self, kernel_size, stride, padding, dilation, ceil_mode, false));
}

}  // namespace at::native
