// im2col and col2im: the sliding blocks of an image as columns (F.unfold)
// and the columns summed back into the image (F.fold), each the other's
// gradient. Input [N, C, H, W] (or [C, H, W]) against columns
// [N, C * kh * kw, blocks] (or without N). One pass over the CPU tensors:
// for each kernel offset and block row, the span of blocks that lands
// inside the image is copied (or added) in one run, the rest is padding.
#include <ATen/ATen.h>
#include <ATen/autograd/Variable.h>
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <utility>

namespace at::native {
namespace {

struct Windows {
  int64_t kh, kw, dh, dw, ph, pw, sh, sw;
  int64_t height, width;   // the image
  int64_t rows, cols;      // blocks along each dim
};

// PyTorch's checks, in its order: each list's length, then kernel, stride,
// dilation and padding.
void check_lengths(IntArrayRef kernel, IntArrayRef dilation, IntArrayRef padding, IntArrayRef stride) {
  TORCH_CHECK(kernel.size() == 2, "It is expected kernel_size equals to 2, but got size ", kernel.size());
  TORCH_CHECK(dilation.size() == 2, "It is expected dilation equals to 2, but got size ", dilation.size());
  TORCH_CHECK(padding.size() == 2, "It is expected padding equals to 2, but got size ", padding.size());
  TORCH_CHECK(stride.size() == 2, "It is expected stride equals to 2, but got size ", stride.size());
}

Windows windows(int64_t height, int64_t width, IntArrayRef kernel, IntArrayRef dilation, IntArrayRef padding,
                IntArrayRef stride) {
  Windows w{kernel[0], kernel[1], dilation[0], dilation[1], padding[0], padding[1], stride[0], stride[1],
            height, width, 0, 0};
  TORCH_CHECK(w.kh > 0 && w.kw > 0, "kernel size should be greater than zero, but got kernel_height: ", w.kh,
              " kernel_width: ", w.kw);
  TORCH_CHECK(w.sh > 0 && w.sw > 0, "stride should be greater than zero, but got stride_height: ", w.sh,
              " stride_width: ", w.sw);
  TORCH_CHECK(w.dh > 0 && w.dw > 0, "dilation should be greater than zero, but got dilation_height: ", w.dh,
              " dilation_width: ", w.dw);
  TORCH_CHECK(w.ph >= 0 && w.pw >= 0, "padding should be non-negative, but got pad_height: ", w.ph,
              " pad_width: ", w.pw);
  w.rows = (height + 2 * w.ph - w.dh * (w.kh - 1) - 1) / w.sh + 1;
  w.cols = (width + 2 * w.pw - w.dw * (w.kw - 1) - 1) / w.sw + 1;
  return w;
}

int64_t ceil_div(int64_t a, int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

// The blocks b in [0, blocks) whose position b * stride - pad + offset lies in [0, size).
std::pair<int64_t, int64_t> inside(int64_t blocks, int64_t size, int64_t stride, int64_t pad, int64_t offset) {
  const int64_t lo = std::clamp<int64_t>(ceil_div(pad - offset, stride), 0, blocks);
  const int64_t hi = std::clamp<int64_t>(ceil_div(size + pad - offset, stride), lo, blocks);
  return {lo, hi};
}

// f(plane, column row, ki, kj) for every (n, c) plane in parallel and every kernel offset.
template <typename F>
void for_each_offset(const Windows& w, int64_t planes, F f) {
  const int64_t work = std::max<int64_t>(1, w.kh * w.kw * w.rows * w.cols);
  parallel_for(0, planes, std::max<int64_t>(1, 32768 / work), [&](int64_t begin, int64_t end) {
    for (int64_t p = begin; p < end; ++p)
      for (int64_t ki = 0; ki < w.kh; ++ki)
        for (int64_t kj = 0; kj < w.kw; ++kj) f(p, (p * w.kh + ki) * w.kw + kj, ki, kj);
  });
}

void check_floating(const Tensor& t, const char* name) {
  TORCH_CHECK_NOT_IMPLEMENTED(t.is_floating_point(), "\"", name, "_out_cpu\" not implemented for '",
                              t.scalar_type(), "'");
}

}  // namespace

Tensor im2col(const Tensor& self, IntArrayRef kernel_size, IntArrayRef dilation, IntArrayRef padding,
              IntArrayRef stride) {
  // PyTorch's autograd wrapper reads the spatial sizes (saved for the
  // gradient) before its kernel checks the argument lengths: an IndexError
  // for a 1-D input that requires grad, the length error otherwise.
  if (autograd::requires_grad(self)) (void)self.size(-2);
  check_lengths(kernel_size, dilation, padding, stride);
  const bool spatial = self.size(1) != 0 && self.size(2) != 0;
  TORCH_CHECK((self.dim() == 3 && self.size(0) != 0 && spatial) || (self.dim() == 4 && spatial && self.size(3) != 0),
              "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions for ",
              "input, but got: ", self.sizes());
  const Windows w = windows(self.size(-2), self.size(-1), kernel_size, dilation, padding, stride);
  TORCH_CHECK(w.rows >= 1 && w.cols >= 1, "Given input with spatial size (", w.height, ", ", w.width,
              "), kernel_size=(", w.kh, ", ", w.kw, "), dilation=(", w.dh, ", ", w.dw, "), padding=(", w.ph, ", ",
              w.pw, "), calculated shape of the array of sliding blocks as (", w.rows, ", ", w.cols,
              "), but its components must be at least one.");
  check_floating(self, "im2col");
  const bool batched = self.dim() == 4;
  const Tensor x = (batched ? self : self.unsqueeze(0)).to(Device(DeviceType::CPU), std::nullopt).contiguous();
  const int64_t n = x.size(0), c = x.size(1);
  const int64_t blocks = w.rows * w.cols;
  Tensor out = at::empty({n, c * w.kh * w.kw, blocks}, x.options());
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(x.scalar_type(), "im2col_out_cpu", [&] {
    const scalar_t* in = x.data_ptr<scalar_t>();
    scalar_t* o = out.data_ptr<scalar_t>();
    for_each_offset(w, n * c, [&](int64_t plane, int64_t row, int64_t ki, int64_t kj) {
      const scalar_t* image = in + plane * w.height * w.width;
      scalar_t* column = o + row * blocks;
      const auto [lo, hi] = inside(w.cols, w.width, w.sw, w.pw, kj * w.dw);
      for (int64_t bi = 0; bi < w.rows; ++bi) {
        scalar_t* dst = column + bi * w.cols;
        const int64_t y = bi * w.sh - w.ph + ki * w.dh;
        if (y < 0 || y >= w.height || lo == hi) {
          std::fill(dst, dst + w.cols, scalar_t(0));
          continue;
        }
        std::fill(dst, dst + lo, scalar_t(0));
        const scalar_t* src = image + y * w.width - w.pw + kj * w.dw;
        for (int64_t bj = lo; bj < hi; ++bj) dst[bj] = src[bj * w.sw];
        std::fill(dst + hi, dst + w.cols, scalar_t(0));
      }
    });
  });
  const Tensor result = batched ? out : out.squeeze(0);
  return self.is_cpu() ? result : result.to(self.device(), std::nullopt);
}

Tensor col2im(const Tensor& self, IntArrayRef output_size, IntArrayRef kernel_size, IntArrayRef dilation,
              IntArrayRef padding, IntArrayRef stride) {
  TORCH_CHECK(output_size.size() == 2, "It is expected output_size equals to 2, but got size ", output_size.size());
  check_lengths(kernel_size, dilation, padding, stride);
  const Windows w = windows(output_size[0], output_size[1], kernel_size, dilation, padding, stride);
  const bool nonempty =
      self.dim() >= 2 && self.size(1) != 0 && (self.dim() == 2 ? self.size(0) != 0 : self.size(2) != 0);
  TORCH_CHECK((self.dim() == 2 || self.dim() == 3) && nonempty, "Expected 2D or 3D (batch mode) tensor for input ",
              "with possibly 0 batch size and non-zero dimensions for input, but got: ", self.sizes());
  const int64_t kernel = w.kh * w.kw, blocks = w.rows * w.cols;
  TORCH_CHECK(self.size(-2) % kernel == 0, "Expected size of input's dimension 1 to be divisible by the product of ",
              "kernel_size, but got input.size(1)=", self.size(-2), " and kernel_size=(", w.kh, ", ", w.kw, ")");
  TORCH_CHECK(w.rows >= 1 && w.cols >= 1 && self.size(-1) == blocks, "Given output_size=(", w.height, ", ", w.width,
              "), kernel_size=(", w.kh, ", ", w.kw, "), dilation=(", w.dh, ", ", w.dw, "), padding=(", w.ph, ", ",
              w.pw, "), stride=(", w.sh, ", ", w.sw, "), expected size of input's dimension 2 to match the calculated ",
              "number of sliding blocks ", w.rows, " * ", w.cols, " = ", w.rows * w.cols, ", but got input.size(2)=",
              self.size(-1), ".");
  check_floating(self, "col2im");
  const bool batched = self.dim() == 3;
  const Tensor x = (batched ? self : self.unsqueeze(0)).to(Device(DeviceType::CPU), std::nullopt).contiguous();
  const int64_t n = x.size(0), c = x.size(1) / kernel;
  Tensor out = at::zeros({n, c, w.height, w.width}, x.options());
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(x.scalar_type(), "col2im_out_cpu", [&] {
    using M = c10::opmath_t<scalar_t>;
    const scalar_t* in = x.data_ptr<scalar_t>();
    scalar_t* o = out.data_ptr<scalar_t>();
    for_each_offset(w, n * c, [&](int64_t plane, int64_t row, int64_t ki, int64_t kj) {
      scalar_t* image = o + plane * w.height * w.width;
      const scalar_t* column = in + row * blocks;
      const auto [lo, hi] = inside(w.cols, w.width, w.sw, w.pw, kj * w.dw);
      for (int64_t bi = 0; bi < w.rows; ++bi) {
        const int64_t y = bi * w.sh - w.ph + ki * w.dh;
        if (y < 0 || y >= w.height) continue;
        const scalar_t* src = column + bi * w.cols;
        scalar_t* dst = image + y * w.width - w.pw + kj * w.dw;
        for (int64_t bj = lo; bj < hi; ++bj)
          dst[bj * w.sw] = static_cast<scalar_t>(static_cast<M>(dst[bj * w.sw]) + static_cast<M>(src[bj]));
      }
    });
  });
  const Tensor result = batched ? out : out.squeeze(0);
  return self.is_cpu() ? result : result.to(self.device(), std::nullopt);
}

}  // namespace at::native
