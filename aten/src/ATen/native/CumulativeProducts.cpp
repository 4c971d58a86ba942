// cumprod: the running product along a dim, one pass per line, and its
// gradient, which must not divide by the zeros of the input: along a line
// whose first zero is at k,
//   d/dx_i = sum_{j >= i} g_j out_j / x_i            for i < k,
//   d/dx_k = out_{k-1} sum_{j >= k} g_j prod_{k < l <= j} x_l,
//   d/dx_i = 0                                       for i > k
// (every product past k holds x_k = 0). A CUDA tensor runs on the CPU and
// the result is copied back.
#include <ATen/native/CumulativeProducts.h>

#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>

#include <c10/util/Half.h>

#include <algorithm>

namespace at::native {
namespace {

const Device kCPU{DeviceType::CPU};

// self with each line along `dim` contiguous, on the CPU.
Tensor lines_of(const Tensor& t, int64_t dim) { return t.to(kCPU, std::nullopt).transpose(dim, -1).contiguous(); }

Tensor back_from_lines(const Tensor& lines, int64_t dim, const Tensor& like) {
  Tensor out = lines.transpose(dim, -1).contiguous();
  return like.is_cpu() ? out : out.to(like.device(), std::nullopt);
}

// Along a dim with more than one element after it: contiguous x as [outer,
// n, trailing], the columns side by side (each row of `trailing` running
// products is one contiguous step), in blocks whose products stay in L1.
// Each column's products are the line kernel's, in the same order.
Tensor cumprod_columns(const Tensor& x, int64_t d, int64_t trailing) {
  Tensor out = at::empty(x.sizes(), x.scalar_type(), kCPU);
  const int64_t n = x.size(d);
  if (x.numel() == 0) return out;
  constexpr int64_t kBlock = 512;
  const int64_t outer = x.numel() / (n * trailing), blocks = (trailing + kBlock - 1) / kBlock;
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(x.scalar_type(), "cumprod_out_cpu", [&] {
    using acc_t = c10::opmath_t<scalar_t>;
    const scalar_t* src = x.data_ptr<scalar_t>();
    scalar_t* dst = out.data_ptr<scalar_t>();
    at::parallel_for(0, outer * blocks, std::max<int64_t>(1, 32768 / std::max<int64_t>(n * kBlock, 1)),
                     [&](int64_t begin, int64_t end) {
      acc_t p[kBlock];
      for (int64_t task = begin; task < end; ++task) {
        const int64_t first = (task % blocks) * kBlock, width = std::min(kBlock, trailing - first);
        const int64_t offset = (task / blocks) * n * trailing + first;
        std::fill(p, p + width, acc_t(1));
        for (int64_t k = 0; k < n; ++k) {
          const scalar_t* xk = src + offset + k * trailing;
          scalar_t* yk = dst + offset + k * trailing;
          for (int64_t j = 0; j < width; ++j) {
            p[j] = static_cast<acc_t>(p[j] * static_cast<acc_t>(xk[j]));
            yk[j] = static_cast<scalar_t>(p[j]);
          }
        }
      }
    });
  });
  return out;
}

}  // namespace

Tensor cumprod(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  const int64_t d = c10::maybe_wrap_dim(dim, std::max<int64_t>(self.dim(), 1));
  // Integers and bool multiply in int64 unless told otherwise, as PyTorch's.
  const ScalarType t = dtype ? *dtype : (isIntegralType(self.scalar_type(), true) ? ScalarType::Long
                                                                                   : self.scalar_type());
  // A bool product has no kernel in PyTorch (the default for bool input is
  // int64), which an empty input never reaches.
  if (self.numel() == 0) return at::empty(self.sizes(), t, self.device());
  TORCH_CHECK_NOT_IMPLEMENTED(t != ScalarType::Bool, "\"cumprod_out_cpu\" not implemented for 'Bool'");
  const Tensor x = self.to(t);
  if (x.dim() == 0) return x.clone();
  int64_t trailing = 1;
  for (int64_t i = d + 1; i < x.dim(); ++i) trailing *= x.size(i);
  if (self.is_cpu() && trailing > 1) return cumprod_columns(x.contiguous(), d, trailing);
  const Tensor in = lines_of(x, d);
  Tensor out = at::empty(in.sizes(), t, kCPU);
  const int64_t n = in.size(-1), count = n == 0 ? 0 : in.numel() / n;
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(t, "cumprod_out_cpu", [&] {
    using acc_t = c10::opmath_t<scalar_t>;
    const scalar_t* src = in.data_ptr<scalar_t>();
    scalar_t* dst = out.data_ptr<scalar_t>();
    at::parallel_for(0, count, std::max<int64_t>(1, 4096 / std::max<int64_t>(n, 1)), [&](int64_t begin, int64_t end) {
      for (int64_t line = begin; line < end; ++line) {
        acc_t p = 1;
        for (int64_t i = 0; i < n; ++i) {
          p = static_cast<acc_t>(p * static_cast<acc_t>(src[line * n + i]));
          dst[line * n + i] = static_cast<scalar_t>(p);
        }
      }
    });
  });
  return back_from_lines(out, d, self);
}

Tensor cumprod_backward(const Tensor& grad, const Tensor& self, int64_t dim, const Tensor& result) {
  if (!grad.defined()) return Tensor();
  if (self.dim() == 0) return grad.to(self.scalar_type());
  const int64_t d = c10::maybe_wrap_dim(dim, self.dim());
  // A line of one element is the input itself (PyTorch returns the gradient
  // as it is; the formula below would divide an infinite x by itself).
  if (self.size(d) == 1) return grad.to(self.scalar_type());
  const ScalarType t = result.scalar_type();
  const Tensor x = lines_of(self.to(t), d), out = lines_of(result, d), g = lines_of(grad.to(t), d);
  Tensor gx = at::empty(x.sizes(), t, kCPU);
  const int64_t n = x.size(-1), count = n == 0 ? 0 : x.numel() / n;
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(t, "cumprod_backward_cpu", [&] {
    using acc_t = c10::opmath_t<scalar_t>;
    const scalar_t* xs = x.data_ptr<scalar_t>();
    const scalar_t* os = out.data_ptr<scalar_t>();
    const scalar_t* gs = g.data_ptr<scalar_t>();
    scalar_t* r = gx.data_ptr<scalar_t>();
    at::parallel_for(0, count, std::max<int64_t>(1, 4096 / std::max<int64_t>(n, 1)), [&](int64_t begin, int64_t end) {
      for (int64_t line = begin; line < end; ++line) {
        const scalar_t* xl = xs + line * n;
        const scalar_t* ol = os + line * n;
        const scalar_t* gl = gs + line * n;
        scalar_t* rl = r + line * n;
        int64_t k = 0;
        while (k < n && static_cast<acc_t>(xl[k]) != acc_t(0)) ++k;
        // i < k: the suffix sums of g out, divided by x_i (out is 0 from k on).
        acc_t suffix = 0;
        for (int64_t j = n - 1; j >= k; --j) suffix += static_cast<acc_t>(gl[j]) * static_cast<acc_t>(ol[j]);
        for (int64_t i = k - 1; i >= 0; --i) {
          suffix += static_cast<acc_t>(gl[i]) * static_cast<acc_t>(ol[i]);
          rl[i] = static_cast<scalar_t>(suffix / static_cast<acc_t>(xl[i]));
        }
        if (k < n) {
          // i = k: out_{k-1} times sum_{j >= k} g_j prod_{k < l <= j} x_l.
          acc_t running = 1, total = 0;
          for (int64_t j = k; j < n; ++j) {
            if (j > k) running *= static_cast<acc_t>(xl[j]);
            total += static_cast<acc_t>(gl[j]) * running;
          }
          rl[k] = static_cast<scalar_t>((k == 0 ? acc_t(1) : static_cast<acc_t>(ol[k - 1])) * total);
          for (int64_t i = k + 1; i < n; ++i) rl[i] = scalar_t(0);
        }
      }
    });
  });
  return back_from_lines(gx, d, self);
}

}  // namespace at::native
