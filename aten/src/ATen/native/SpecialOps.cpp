// Special functions composed from the kernels of native/SpecialFunctions.h
// (digamma, lgamma, special_zeta): polygamma and the multivariate log-gamma.
#include <ATen/ATen.h>
#include <ATen/ScalarOps.h>
#include <ATen/native/SpecialFunctions.h>
#include <ATen/native/UnaryOps.h>

#include <cmath>

namespace at::native {

// psi^(n)(x) = (-1)^(n+1) n! zeta(n + 1, x) for n >= 1; its gradient is
// zeta's in q, which is polygamma(n + 1, x).
Tensor polygamma(int64_t n, const Tensor& self) {
  TORCH_CHECK(n >= 0, "polygamma(n, x) does not support negative n.");
  if (n == 0) return at::digamma(self);
  if (n == 1 && self.is_cpu()) return trigamma(self);  // PyTorch's own n = 1 algorithm, one pass
  const double factorial = std::tgamma(static_cast<double>(n) + 1);
  const double sign = (n % 2) ? 1.0 : -1.0;
  const Tensor x = self.is_floating_point() ? self : self.to(c10::get_default_dtype());
  Tensor result = at::special_zeta(at::full({}, static_cast<double>(n + 1), x.scalar_type(), x.device()), x)
                      .mul(wrapped_scalar_tensor(Scalar(sign * factorial)));
  // PyTorch's trigamma (its n = 1 path, not zeta) gives 0 at +inf.
  if (n == 1) result = result.masked_fill(x.eq(wrapped_scalar_tensor(Scalar(INFINITY))), 0);
  return result;
}

namespace {
// In-place forms of the float-valued ops refuse integer tensors, as PyTorch's do.
void check_inplace_result(const Tensor& self, const Tensor& result) {
  TORCH_CHECK(self.is_floating_point() || !result.is_floating_point(), "result type ", result.scalar_type(),
              " can't be cast to the desired output type ", self.scalar_type());
}
}  // namespace

const Tensor& polygamma_(const Tensor& self, int64_t n) {
  Tensor result = at::polygamma(n, self);
  check_inplace_result(self, result);
  return self.copy_(result);
}

// log Gamma_p(x) = p(p-1)/4 log(pi) + sum_j lgamma(x - j/2), j < p, for x > (p-1)/2.
Tensor mvlgamma(const Tensor& self, int64_t p) {
  TORCH_CHECK(self.scalar_type() != ScalarType::Bool, "The input tensor may not be a boolean tensor.");
  TORCH_CHECK(p >= 1, "p has to be greater than or equal to 1");
  const Tensor x = self.is_floating_point() ? self : self.to(c10::get_default_dtype());
  // -(p-1)/2, ..., -1/2, 0: ending at +0, so x = -0 stays -0 + 0 = +0 as in PyTorch.
  const Tensor offsets = at::arange(Scalar(-0.5 * p + 0.5), Scalar(0.5), Scalar(0.5), x.scalar_type(), x.device());
  const Tensor terms = at::lgamma(x.unsqueeze(-1).add(offsets));
  return terms.sum(IntArrayRef{-1}, false, std::nullopt).add(wrapped_scalar_tensor(Scalar(p * (p - 1) / 4.0 * std::log(special::kPi))));
}

const Tensor& mvlgamma_(const Tensor& self, int64_t p) {
  Tensor result = at::mvlgamma(self, p);
  check_inplace_result(self, result);
  return self.copy_(result);
}

// log(x / (1 - x)), x first clamped to [eps, 1 - eps] when eps is given.
// A negative eps is no eps; an eps above 1/2 sends everything below eps to eps first (PyTorch's order).
Tensor logit(const Tensor& self, std::optional<double> eps) {
  const Tensor x0 = self.is_floating_point() ? self : self.to(c10::get_default_dtype());
  Tensor x = x0;
  if (eps && *eps >= 0) {
    const Tensor lo = wrapped_scalar_tensor(Scalar(*eps)), hi = wrapped_scalar_tensor(Scalar(1 - *eps));
    x = at::where(x0.lt(lo), lo.to(x0.scalar_type()), at::where(x0.gt(hi), hi.to(x0.scalar_type()), x0));
  }
  return x.div(x.neg().add(wrapped_scalar_tensor(Scalar(1)))).log();
}

const Tensor& logit_(const Tensor& self, std::optional<double> eps) {
  Tensor result = at::logit(self, eps);
  check_inplace_result(self, result);
  return self.copy_(result);
}

}  // namespace at::native
