// histc: counts of the values in `bins` equal bins over [min, max] (the
// data's own range when min == max), as PyTorch's histogram kernel counts
// them: the bin is (x - min) * bins / (max - min) in the input's dtype, the
// last bin closed, values outside the range and NaN left out. bincount:
// how often each non-negative integer occurs (or its summed weights). One
// pass each on the CPU; a CUDA tensor is counted on the CPU and the counts
// copied back.
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/ScalarOps.h>

#include <algorithm>
#include <limits>
#include <cmath>
#include <optional>

namespace at::native {
namespace {

// Each step rounds to T, as PyTorch's arithmetic on float16/bfloat16 values
// does (a no-op for float and double).
template <typename T>
void count_into(const T* x, int64_t n, T lo, T hi, int64_t bins, T* hist) {
  using M = c10::opmath_t<T>;
  const M left = lo, right = hi;
  const M width = static_cast<T>(right - left), scale = static_cast<T>(static_cast<M>(bins));
  for (int64_t i = 0; i < n; ++i) {
    const M v = x[i];
    if (!(v >= left && v <= right)) continue;
    const M offset = static_cast<T>(v - left);
    const M scaled = static_cast<T>(offset * scale);
    int64_t pos = static_cast<int64_t>(static_cast<M>(static_cast<T>(scaled / width)));
    if (pos >= bins) pos = bins - 1;  // the rightmost bin includes its right edge
    hist[pos] = static_cast<T>(static_cast<M>(hist[pos]) + M(1));
  }
}

}  // namespace

Tensor histc(const Tensor& self, int64_t bins, const Scalar& min, const Scalar& max) {
  TORCH_CHECK(bins > 0, "torch.histogram(): bins must be > 0, but got ", bins, " for dimension 0");
  double lo = min.toDouble(), hi = max.toDouble();
  const Tensor x = self.to(Device(DeviceType::CPU), std::nullopt).contiguous().reshape({-1});
  if (lo == hi && x.numel() > 0) {
    lo = x.min().item().toDouble();
    hi = x.max().item().toDouble();
  }
  if (lo == hi) {
    lo -= 1;
    hi += 1;
  }
  // The final ends become edges in self's dtype (PyTorch's linspace of them), checked as doubles are
  // converted, before its kernel refuses an integer dtype: -1.0 or 300.0 does not fit uint8.
  check_scalar_fits(Scalar(lo), self.scalar_type());
  check_scalar_fits(Scalar(hi), self.scalar_type());
  TORCH_CHECK(std::isfinite(lo) && std::isfinite(hi), "torch.histc: range of [", lo, ", ", hi, "] is not finite");
  TORCH_CHECK(lo < hi, "torch.histc: max must be larger than min");
  // The dtype last, in PyTorch's order: its kernel's dispatch refuses it.
  TORCH_CHECK_NOT_IMPLEMENTED(self.is_floating_point(), "\"histogram_", self.is_cuda() ? "cuda" : "cpu",
                              "\" not implemented for '", self.scalar_type(), "'");
  Tensor hist = at::zeros({bins}, self.scalar_type(), Device(DeviceType::CPU));
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(self.scalar_type(), "histogram_cpu", [&] {
    count_into(x.data_ptr<scalar_t>(), x.numel(), static_cast<scalar_t>(lo), static_cast<scalar_t>(hi), bins,
               hist.data_ptr<scalar_t>());
  });
  return self.is_cpu() ? hist : hist.to(self.device(), std::nullopt);
}

namespace {
// counts[v] += weight of each value v of x (1 without weights).
template <typename I, typename W>
void bin_into(const I* x, int64_t n, const W* weights, W* counts) {
  for (int64_t i = 0; i < n; ++i) counts[x[i]] += weights ? weights[i] : W(1);
}
}  // namespace

Tensor bincount(const Tensor& self, const std::optional<Tensor>& weights_, int64_t minlength) {
  // PyTorch's checks, in its order.
  TORCH_CHECK_NOT_IMPLEMENTED(c10::isIntegralType(self.scalar_type(), false), "\"bincount_cpu\" not implemented "
                              "for '", self.scalar_type(), "'");
  TORCH_CHECK(minlength >= 0, "minlength should be >= 0");
  const Tensor x = self.to(Device(DeviceType::CPU), std::nullopt).contiguous();
  TORCH_CHECK(x.dim() == 1 && (x.numel() == 0 || x.min().item().toLong() >= 0),
              "bincount only supports 1-d non-negative integral inputs.");
  if (x.numel() == 0) return at::zeros({minlength}, ScalarType::Long, self.device());  // weights or not
  const bool weighted = weights_.has_value() && weights_->defined();
  if (weighted) {
    TORCH_CHECK(weights_->dim() == 1 && weights_->size(0) == x.numel(),
                "weights should be 1-d and have the same length as input");
  }
  const int64_t largest = x.max().item().toLong();
  TORCH_CHECK(largest < std::numeric_limits<int64_t>::max(), "maximum value of input overflowed, it should be < ",
              std::numeric_limits<int64_t>::max(), " but got ", largest);
  const int64_t bins = std::max(largest + 1, minlength);
  // Float weights sum in float, every other dtype in double, as PyTorch's kernel.
  const ScalarType type = !weighted ? ScalarType::Long
                          : weights_->scalar_type() == ScalarType::Float ? ScalarType::Float : ScalarType::Double;
  Tensor counts = at::zeros({bins}, type, Device(DeviceType::CPU));
  const Tensor w = weighted ? weights_->to(Device(DeviceType::CPU), type).contiguous() : Tensor();
  AT_DISPATCH_INTEGRAL_TYPES(x.scalar_type(), "bincount_cpu", [&] {
    const scalar_t* xs = x.data_ptr<scalar_t>();
    if (type == ScalarType::Long) bin_into<scalar_t, int64_t>(xs, x.numel(), nullptr, counts.data_ptr<int64_t>());
    else if (type == ScalarType::Float) bin_into(xs, x.numel(), w.data_ptr<float>(), counts.data_ptr<float>());
    else bin_into(xs, x.numel(), w.data_ptr<double>(), counts.data_ptr<double>());
  });
  return self.is_cpu() ? counts : counts.to(self.device(), std::nullopt);
}

namespace {
// The element type as PyTorch's message spells it (C++'s names).
const char* cpp_type_name(ScalarType t) {
  switch (t) {
    case ScalarType::Float: return "float";
    case ScalarType::Double: return "double";
    case ScalarType::Half: return "c10::Half";
    case ScalarType::BFloat16: return "c10::BFloat16";
    case ScalarType::Long: return "long int";
    case ScalarType::Int: return "int";
    default: return c10::toString(t);
  }
}
}  // namespace

const Tensor& histc_out(const Tensor& out, const Tensor& self, int64_t bins, const Scalar& min, const Scalar& max) {
  TORCH_CHECK(out.scalar_type() == self.scalar_type(), "torch.histogram: input tensor and hist tensor should have the ",
              "same dtype, but got input ", cpp_type_name(self.scalar_type()), " and hist ",
              cpp_type_name(out.scalar_type()));
  const Tensor result = at::histc(self, bins, min, max);
  out.resize_(result.sizes());
  out.copy_(result);
  return out;
}

}  // namespace at::native
