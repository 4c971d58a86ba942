// Linear interpolation along one dim, F.interpolate's linear, bilinear and
// trilinear modes one dim at a time (torch/nn/_layers.py picks each output
// position's source low_j and weight w_j, as PyTorch does):
//   out[.., j, ..] = x[.., low_j, ..] (1 - w_j) + x[.., high_j, ..] w_j,
// high_j = min(low_j + 1, n - 1); and its gradient, which gives g (1 - w_j)
// and g w_j back to low_j and high_j. On the CPU one pass over rows of the
// trailing dims (a contiguous run the compiler widens); other devices
// compose index_select and index_add.
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/NativeFunctions.h>
#include <ATen/Parallel.h>
#include <ATen/native/Interpolation.h>

#include <algorithm>
#include <vector>

namespace at::native {
namespace {

// x viewed as [outer, n, inner] around dim.
struct Around {
  int64_t outer = 1, n = 1, inner = 1;
};

Around around(IntArrayRef sizes, int64_t dim) {
  Around a;
  for (int64_t d = 0; d < dim; ++d) a.outer *= sizes[d];
  a.n = sizes[dim];
  for (size_t d = dim + 1; d < sizes.size(); ++d) a.inner *= sizes[d];
  return a;
}

void check_interp(IntArrayRef sizes, ScalarType dtype, int64_t dim, const Tensor& low, const Tensor& weight) {
  TORCH_CHECK(low.scalar_type() == ScalarType::Long && low.dim() == 1, "_interp_linear: low must be a 1-D int64 tensor");
  TORCH_CHECK(weight.dim() == 1 && weight.numel() == low.numel() && weight.scalar_type() == dtype,
              "_interp_linear: weight must be a 1-D tensor of the input's dtype, one per output position");
  const Tensor lo = low.cpu();
  TORCH_CHECK(lo.numel() == 0 || (lo.min().item().toLong() >= 0 && lo.max().item().toLong() < sizes[dim]),
              "_interp_linear: a source position is out of range for dim ", dim, " of size ", sizes[dim]);
}

// Each output position's two sources and weights, computed once: 1 - w in
// the dtype, as the composite on other devices rounds it.
template <typename M>
struct Taps {
  std::vector<int64_t> lo, hi;
  std::vector<M> w0, w1;
  template <typename T>
  Taps(const int64_t* low, const T* w, int64_t m, int64_t n) : lo(low, low + m), hi(m), w0(m), w1(m) {
    for (int64_t j = 0; j < m; ++j) {
      hi[j] = std::min(low[j] + 1, n - 1);
      w0[j] = M(T(1) - w[j]);
      w1[j] = M(w[j]);
    }
  }
};

Tensor high_of(const Tensor& low, int64_t n) { return low.add(wrapped_scalar_tensor(1)).clamp(std::nullopt, Scalar(n - 1)); }

}  // namespace

Tensor _interp_linear(const Tensor& self, int64_t dim, const Tensor& low, const Tensor& weight) {
  TORCH_CHECK(self.dim() > 0, "_interp_linear: expected a tensor with a dim to interpolate");
  const int64_t d = c10::maybe_wrap_dim(dim, self.dim());
  TORCH_CHECK(self.is_floating_point(), "_interp_linear: expected a floating point input, got ", self.scalar_type());
  check_interp(self.sizes(), self.scalar_type(), d, low, weight);
  if (!self.is_cpu()) {
    std::vector<int64_t> shape(self.dim(), 1);
    shape[d] = -1;
    const Tensor w = weight.view(shape);
    return self.index_select(d, low).mul(w.neg().add(wrapped_scalar_tensor(1)))
        .add(self.index_select(d, high_of(low, self.size(d))).mul(w));
  }
  const Tensor x = self.contiguous(), lo = low.contiguous(), wt = weight.contiguous();
  const Around a = around(x.sizes(), d);
  const int64_t m = lo.numel();
  std::vector<int64_t> out_sizes = x.sizes().vec();
  out_sizes[d] = m;
  Tensor out = at::empty(out_sizes, x.scalar_type(), x.device());
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(x.scalar_type(), "_interp_linear", [&] {
    using M = c10::opmath_t<scalar_t>;
    const scalar_t* xv = x.data_ptr<scalar_t>();
    const scalar_t* w = wt.data_ptr<scalar_t>();
    const int64_t* l = lo.data_ptr<int64_t>();
    scalar_t* y = out.data_ptr<scalar_t>();
    const Taps<M> taps(l, w, m, a.n);
    const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(1, m * a.inner));
    at::parallel_for(0, a.outer, grain, [&](int64_t begin, int64_t end) {
      for (int64_t o = begin; o < end; ++o) {
        const scalar_t* row = xv + o * a.n * a.inner;
        scalar_t* r = y + o * m * a.inner;
        if (a.inner == 1) {  // along the last dim: a gather per output
          for (int64_t j = 0; j < m; ++j) {
            r[j] = scalar_t(M(row[taps.lo[j]]) * taps.w0[j] + M(row[taps.hi[j]]) * taps.w1[j]);
          }
          continue;
        }
        for (int64_t j = 0; j < m; ++j, r += a.inner) {
          const scalar_t* p = row + taps.lo[j] * a.inner;
          const scalar_t* q = row + taps.hi[j] * a.inner;
          const M w0 = taps.w0[j], w1 = taps.w1[j];
          for (int64_t k = 0; k < a.inner; ++k) r[k] = scalar_t(M(p[k]) * w0 + M(q[k]) * w1);
        }
      }
    });
  });
  return out;
}

Tensor interp_linear_backward(const Tensor& grad, IntArrayRef self_sizes, int64_t dim, const Tensor& low,
                              const Tensor& weight) {
  const int64_t d = c10::maybe_wrap_dim(dim, static_cast<int64_t>(self_sizes.size()));
  if (!grad.is_cpu()) {
    std::vector<int64_t> shape(self_sizes.size(), 1);
    shape[d] = -1;
    const Tensor w = weight.view(shape);
    return at::zeros(self_sizes, grad.scalar_type(), grad.device())
        .index_add(d, low, grad.mul(w.neg().add(wrapped_scalar_tensor(1))))
        .index_add(d, high_of(low, self_sizes[d]), grad.mul(w));
  }
  const Tensor g = grad.contiguous(), lo = low.contiguous(), wt = weight.contiguous();
  const Around a = around(self_sizes, d);
  const int64_t m = lo.numel();
  // Sums in the compute type (float for float16/bfloat16), rounded once.
  const bool reduced = g.scalar_type() == ScalarType::Half || g.scalar_type() == ScalarType::BFloat16;
  const ScalarType acc_type = reduced ? ScalarType::Float : g.scalar_type();
  Tensor acc = at::zeros(self_sizes, acc_type, g.device());
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(g.scalar_type(), "_interp_linear_backward", [&] {
    using M = c10::opmath_t<scalar_t>;
    const scalar_t* gv = g.data_ptr<scalar_t>();
    const scalar_t* w = wt.data_ptr<scalar_t>();
    const int64_t* l = lo.data_ptr<int64_t>();
    M* s = acc.data_ptr<M>();
    const Taps<M> taps(l, w, m, a.n);
    // Each block of outer rows is one thread's: neighbouring j share rows.
    const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(1, m * a.inner));
    at::parallel_for(0, a.outer, grain, [&](int64_t begin, int64_t end) {
      for (int64_t o = begin; o < end; ++o) {
        for (int64_t j = 0; j < m; ++j) {
          M* p = s + (o * a.n + taps.lo[j]) * a.inner;
          M* q = s + (o * a.n + taps.hi[j]) * a.inner;
          const M w0 = taps.w0[j], w1 = taps.w1[j];
          const scalar_t* gr = gv + (o * m + j) * a.inner;
          for (int64_t k = 0; k < a.inner; ++k) p[k] += M(gr[k]) * w0;
          for (int64_t k = 0; k < a.inner; ++k) q[k] += M(gr[k]) * w1;
        }
      }
    });
  });
  return acc_type == g.scalar_type() ? acc : acc.to(g.scalar_type());
}

}  // namespace at::native
