// smooth_l1_loss's, huber_loss's and mse_loss's loop over dense operands (native/Loss.h).
#include <ATen/Dispatch.h>
#include <ATen/native/Loss.h>
#include <ATen/native/cpu/Select.h>
#include <c10/util/Half.h>

#include <algorithm>

namespace at::native {
inline namespace CPU_CAPABILITY {
namespace {

// The loss of one difference: smooth_l1's and huber's both sides
// computed and one selected on the bits (cpu/Select.h): a branch on
// |d| < width mispredicts on every other element of noisy data.
template <typename M, PointwiseLoss Kind>
inline M piecewise_loss(M d, M width) {
  if constexpr (Kind == PointwiseLoss::Squared) return d * d;
  const M a = d < M(0) ? -d : d;
  const M half_sq = M(0.5) * d * d;
  if constexpr (Kind == PointwiseLoss::Huber) {
    const M outside = width * (a - M(0.5) * width);
    return select_bits(a < width, half_sq, outside);
  } else {
    const M outside = a - M(0.5) * width;
    const M inside = half_sq / width;
    return select_bits(a < width, inside, outside);
  }
}

// The losses of x[0..n) against y[0..n) into out, or their double sum: blocks
// of losses computed branch-free, then added up in eight double lanes.
template <typename T, PointwiseLoss Kind>
double piecewise_loss_rows(const T* x, const T* y, int64_t n, double width, T* out) {
  using M = c10::opmath_t<T>;
  const M w = static_cast<M>(width);
  if (out != nullptr) {
    for (int64_t i = 0; i < n; ++i) out[i] = static_cast<T>(piecewise_loss<M, Kind>(M(x[i]) - M(y[i]), w));
    return 0;
  }
  constexpr int64_t kBlock = 512, kLanes = 8;
  M block[kBlock];
  double lanes[kLanes] = {};
  for (int64_t start = 0; start < n; start += kBlock) {
    const int64_t len = std::min(kBlock, n - start);
    for (int64_t k = 0; k < len; ++k) block[k] = piecewise_loss<M, Kind>(M(x[start + k]) - M(y[start + k]), w);
    int64_t k = 0;
    for (; k + kLanes <= len; k += kLanes)
      for (int64_t l = 0; l < kLanes; ++l) lanes[l] += static_cast<double>(block[k + l]);
    for (; k < len; ++k) lanes[0] += static_cast<double>(block[k]);
  }
  double total = 0;
  for (double v : lanes) total += v;
  return total;
}

// PyTorch's backward: -scale or scale outside (times delta for huber), the
// difference scaled inside; selected on the bits.
template <typename T, PointwiseLoss Kind>
void piecewise_loss_grad_rows(const T* x, const T* y, int64_t n, double width, double scale, T* out) {
  using M = c10::opmath_t<T>;
  const M w = static_cast<M>(width), s = static_cast<M>(scale);
  const M edge = Kind == PointwiseLoss::Huber ? s * w : s;
  for (int64_t i = 0; i < n; ++i) {
    const M d = M(x[i]) - M(y[i]);
    const M inside = Kind == PointwiseLoss::Huber ? s * d : s * d / w;
    const M g = select_bits(d <= -w, M(-edge), select_bits(d >= w, edge, inside));
    out[i] = static_cast<T>(g);
  }
}

void piecewise_loss_grad_kernel(c10::ScalarType type, PointwiseLoss kind, const void* x, const void* y, int64_t n,
                                double width, double scale, void* out) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(type, "pointwise_loss_backward", [&] {
    const auto* a = static_cast<const scalar_t*>(x);
    const auto* b = static_cast<const scalar_t*>(y);
    auto* o = static_cast<scalar_t*>(out);
    if (kind == PointwiseLoss::Huber) {
      piecewise_loss_grad_rows<scalar_t, PointwiseLoss::Huber>(a, b, n, width, scale, o);
    } else {
      piecewise_loss_grad_rows<scalar_t, PointwiseLoss::SmoothL1>(a, b, n, width, scale, o);
    }
  });
}

double piecewise_loss_kernel(c10::ScalarType type, PointwiseLoss kind, const void* x, const void* y, int64_t n,
                             double width, void* out) {
  return AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(type, "pointwise_loss", [&] {
    const auto* a = static_cast<const scalar_t*>(x);
    const auto* b = static_cast<const scalar_t*>(y);
    auto* o = static_cast<scalar_t*>(out);
    switch (kind) {
      case PointwiseLoss::SmoothL1: return piecewise_loss_rows<scalar_t, PointwiseLoss::SmoothL1>(a, b, n, width, o);
      case PointwiseLoss::Huber: return piecewise_loss_rows<scalar_t, PointwiseLoss::Huber>(a, b, n, width, o);
      case PointwiseLoss::Squared: break;
    }
    return piecewise_loss_rows<scalar_t, PointwiseLoss::Squared>(a, b, n, width, o);
  });
}

}  // namespace

REGISTER_CPU_DISPATCH(piecewise_loss_stub, &piecewise_loss_kernel);
REGISTER_CPU_DISPATCH(piecewise_loss_grad_stub, &piecewise_loss_grad_kernel);

}  // namespace CPU_CAPABILITY
}  // namespace at::native
