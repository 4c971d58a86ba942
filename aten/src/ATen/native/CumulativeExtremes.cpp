// cummax and cummin: the running extreme along a dim and where it was
// found, one pass per line. As PyTorch's kernel: a tie moves the index to
// the later element (>= for cummax, <= for cummin), and every NaN becomes
// the running value with its own index (NaN propagates). A CUDA tensor is
// scanned on the CPU and the results copied back.
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <tuple>
#include <type_traits>

namespace at::native {
namespace {

template <typename T>
bool is_nan(T v) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::isnan(v);
  } else if constexpr (std::is_integral_v<T>) {
    return false;
  } else {
    return std::isnan(static_cast<float>(v));
  }
}

// Along a dim with more than one element after it: contiguous x as [outer,
// n, trailing], the columns side by side in blocks of 512 (each step is one
// contiguous row of the block), with the line scan's rule per column.
std::tuple<Tensor, Tensor> running_extreme_columns(const Tensor& x, int64_t d, int64_t trailing, bool maximum,
                                                   const char* name) {
  Tensor values = at::empty(x.sizes(), x.scalar_type(), x.device());
  Tensor indices = at::empty(x.sizes(), ScalarType::Long, x.device());
  constexpr int64_t kBlock = 512;
  const int64_t n = x.size(d), outer = x.numel() / (n * trailing), blocks = (trailing + kBlock - 1) / kBlock;
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(x.scalar_type(), name, [&] {
    const scalar_t* in = x.data_ptr<scalar_t>();
    scalar_t* out = values.data_ptr<scalar_t>();
    int64_t* idx = indices.data_ptr<int64_t>();
    at::parallel_for(0, outer * blocks, std::max<int64_t>(1, 32768 / std::max<int64_t>(n * kBlock, 1)),
                     [&](int64_t begin, int64_t end) {
      scalar_t best[kBlock];
      int64_t where[kBlock];
      for (int64_t task = begin; task < end; ++task) {
        const int64_t first = (task % blocks) * kBlock, width = std::min(kBlock, trailing - first);
        const int64_t offset = (task / blocks) * n * trailing + first;
        for (int64_t j = 0; j < width; ++j) {
          best[j] = in[offset + j];
          where[j] = 0;
        }
        for (int64_t k = 0; k < n; ++k) {
          const scalar_t* xk = in + offset + k * trailing;
          scalar_t* yk = out + offset + k * trailing;
          int64_t* ik = idx + offset + k * trailing;
          for (int64_t j = 0; j < width; ++j) {
            const scalar_t v = xk[j];
            const bool better = maximum ? v >= best[j] : v <= best[j];
            if (is_nan(v) || (!is_nan(best[j]) && better)) {
              best[j] = v;
              where[j] = k;
            }
            yk[j] = best[j];
            ik[j] = where[j];
          }
        }
      }
    });
  });
  return {values, indices};
}

std::tuple<Tensor, Tensor> running_extreme(const Tensor& self, int64_t dim, bool maximum, const char* name) {
  // PyTorch returns an empty input's empty results before it reads dim.
  if (self.numel() == 0) return {at::empty(self.sizes(), self.scalar_type(), self.device()),
                                 at::empty(self.sizes(), ScalarType::Long, self.device())};
  const int64_t d = c10::maybe_wrap_dim(dim, std::max<int64_t>(self.dim(), 1));
  if (self.dim() == 0) return {self.clone(), at::zeros({}, ScalarType::Long, self.device())};
  int64_t trailing = 1;
  for (int64_t i = d + 1; i < self.dim(); ++i) trailing *= self.size(i);
  if (self.is_cpu() && trailing > 1) return running_extreme_columns(self.contiguous(), d, trailing, maximum, name);
  // Each line along `dim` made contiguous: the scan walks memory forward.
  const Tensor lines = self.to(Device(DeviceType::CPU), std::nullopt).transpose(d, -1).contiguous();
  Tensor values = at::empty(lines.sizes(), lines.scalar_type(), Device(DeviceType::CPU));
  Tensor indices = at::empty(lines.sizes(), ScalarType::Long, Device(DeviceType::CPU));
  const int64_t n = self.size(d);
  const int64_t count = n == 0 ? 0 : lines.numel() / n;
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(self.scalar_type(), name, [&] {
    const scalar_t* in = lines.data_ptr<scalar_t>();
    scalar_t* out = values.data_ptr<scalar_t>();
    int64_t* idx = indices.data_ptr<int64_t>();
    at::parallel_for(0, count, std::max<int64_t>(1, 4096 / std::max<int64_t>(n, 1)), [&](int64_t begin, int64_t end) {
      for (int64_t line = begin; line < end; ++line) {
        const scalar_t* x = in + line * n;
        scalar_t best = x[0];
        int64_t at = 0;
        for (int64_t i = 0; i < n; ++i) {
          const scalar_t v = x[i];
          const bool better = maximum ? v >= best : v <= best;
          if (is_nan(v) || (!is_nan(best) && better)) {
            best = v;
            at = i;
          }
          out[line * n + i] = best;
          idx[line * n + i] = at;
        }
      }
    });
  });
  values = values.transpose(d, -1).contiguous();
  indices = indices.transpose(d, -1).contiguous();
  if (!self.is_cpu()) {
    values = values.to(self.device(), std::nullopt);
    indices = indices.to(self.device(), std::nullopt);
  }
  return {values, indices};
}

}  // namespace

std::tuple<Tensor, Tensor> cummax(const Tensor& self, int64_t dim) {
  return running_extreme(self, dim, true, "cummax_cpu");
}

std::tuple<Tensor, Tensor> cummin(const Tensor& self, int64_t dim) {
  return running_extreme(self, dim, false, "cummin_cpu");
}

}  // namespace at::native
