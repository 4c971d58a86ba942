#include <ATen/autograd/FunctionsManual.h>

#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/ExpandUtils.h>
#include <ATen/ScalarOps.h>
#include <ATen/autograd/GradMode.h>
#include <ATen/autograd/Variable.h>
#include <ATen/native/Activation.h>
#include <ATen/native/Convolution.h>
#include <ATen/native/Loss.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace at::autograd {
namespace {

Tensor scalar(double v, const Tensor& like) { return at::scalar_tensor(v, like.scalar_type()); }

// The reduced dims of a `sizes`-shaped tensor (all when absent or empty).
std::vector<int64_t> reduced(IntArrayRef sizes, OptionalIntArrayRef dims) {
  std::vector<int64_t> out;
  const int64_t nd = static_cast<int64_t>(sizes.size());
  // A 0-d tensor accepts dim 0 and -1 (the forward checked them) but has no
  // dimension to index: nothing was reduced, and sizes[0] would read past the end.
  if (nd == 0) return out;
  if (!dims || dims->empty()) {
    for (int64_t d = 0; d < nd; ++d) out.push_back(d);
  } else {
    for (int64_t d : *dims) out.push_back(c10::maybe_wrap_dim(d, nd));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A reduction's result (or gradient) with the reduced dims put back as size 1.
Tensor unsqueeze_reduced(const Tensor& t, IntArrayRef sizes, OptionalIntArrayRef dims, bool keepdim) {
  if (keepdim || sizes.empty()) return t;
  Tensor out = t;
  for (int64_t d : reduced(sizes, dims)) out = out.unsqueeze(d);
  return out;
}

}  // namespace

bool is_expandable_to(IntArrayRef shape, IntArrayRef desired) {
  if (shape.size() > desired.size()) return false;
  for (size_t i = 1; i <= shape.size(); ++i) {
    const int64_t s = shape[shape.size() - i], d = desired[desired.size() - i];
    if (s != d && s != 1) return false;
  }
  return true;
}

Tensor sum_to(const Tensor& grad, IntArrayRef shape) {
  if (grad.sizes().equals(shape)) return grad;
  const int64_t lead = grad.dim() - static_cast<int64_t>(shape.size());
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < lead; ++d) dims.push_back(d);
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 1 && grad.size(lead + i) != 1) dims.push_back(lead + static_cast<int64_t>(i));
  }
  Tensor out = dims.empty() ? grad : at::sum(grad, dims, true, std::nullopt);
  return lead > 0 || !out.sizes().equals(shape) ? out.reshape(shape) : out;
}

Tensor zeros_for(const Tensor& grad, IntArrayRef sizes) { return at::zeros(sizes, grad.scalar_type(), grad.device()); }

Tensor refuse_second_derivative(const Tensor& grad, const char* op) {
  if (!GradMode::is_enabled() || !grad.defined() || !grad.is_floating_point()) return grad;
  auto node = std::make_shared<DelayedError>(std::string("the second derivative through '") + op +
                                             "' is not implemented: its gradient comes from a kernel that records "
                                             "nothing, so create_graph=True cannot differentiate it again");
  set_history(grad, node, 0);
  return grad;
}

Tensor gelu_double_backward(const Tensor& grad, const Tensor& grad_output, const Tensor& self,
                            std::string_view approximate) {
  const Tensor x = self;
  if (approximate == "tanh") {
    // gelu = x (1 + tanh u) / 2 with u = k (x + c x^3):
    // gelu'' = (1 - t^2) (u' + x (u'' - 2 t u'^2) / 2), t = tanh u.
    const double k = std::sqrt(2.0 / M_PI), c = 0.044715;
    const Tensor x2 = x.mul(x);
    const Tensor t = x.add(x2.mul(x).mul(scalar(c, x))).mul(scalar(k, x)).tanh();
    const Tensor du = x2.mul(scalar(3 * c * k, x)).add(scalar(k, x));
    const Tensor ddu = x.mul(scalar(6 * c * k, x));
    const Tensor sech2 = scalar(1, t).sub(t.mul(t));
    const Tensor inner = du.add(x.mul(ddu.sub(t.mul(du).mul(du).mul(scalar(2, t)))).mul(scalar(0.5, x)));
    return grad.mul(grad_output).mul(sech2.mul(inner));
  }
  // gelu = x Phi(x): gelu'' = phi(x) (2 - x^2).
  const Tensor phi = x.mul(x).mul(scalar(-0.5, x)).exp().mul(scalar(1.0 / std::sqrt(2.0 * M_PI), x));
  return grad.mul(grad_output).mul(phi.mul(scalar(2, x).sub(x.mul(x))));
}

Tensor sum_backward(const Tensor& grad, IntArrayRef sizes, OptionalIntArrayRef dims, bool keepdim) {
  return unsqueeze_reduced(grad, sizes, dims, keepdim).expand(sizes);
}

namespace {

// x_0 * ... * x_i along dim for every i, by doubling steps (each a shifted
// multiply): composite, so a second derivative goes through it.
Tensor inclusive_products(const Tensor& x, int64_t dim) {
  const int64_t n = x.size(dim);
  Tensor p = x;
  for (int64_t s = 1; s < n; s *= 2) {
    std::vector<int64_t> ones_shape = x.sizes().vec();
    ones_shape[dim] = s;
    p = p.mul(at::cat({at::ones(ones_shape, x.scalar_type(), x.device()), p.narrow(dim, 0, n - s)}, dim));
  }
  return p;
}

// The product of the other elements of each one's slice along dim, without
// dividing (exact with zeros, NaN and inf): exclusive prefix times suffix.
Tensor products_of_others(const Tensor& x, int64_t dim) {
  const int64_t n = x.size(dim);
  std::vector<int64_t> one_shape = x.sizes().vec();
  one_shape[dim] = 1;
  const Tensor one = at::ones(one_shape, x.scalar_type(), x.device());
  if (n == 1) return one;
  const std::vector<int64_t> flip_dim{dim};
  const Tensor prefix = at::cat({one, inclusive_products(x, dim).narrow(dim, 0, n - 1)}, dim);
  const Tensor suffix = at::cat({one, inclusive_products(x.flip(flip_dim), dim).narrow(dim, 0, n - 1)}, dim).flip(flip_dim);
  return prefix.mul(suffix);
}

}  // namespace

// PyTorch's rule: without a zero anywhere in self, prod / x_i; with one, the
// product of the others (NaN and inf stay where they are); over every
// element with two zeros or more, 0 (unless a second derivative is wanted).
Tensor prod_backward(const Tensor& grad, const Tensor& self, const Tensor& result, std::optional<int64_t> dim,
                     bool keepdim) {
  if (self.dim() == 0) return grad;
  if (self.numel() == 0) return zeros_for(grad, self.sizes());
  if (grad.scalar_type() != self.scalar_type()) {  // prod(x, dtype=...): in that dtype, as the forward ran
    return prod_backward(grad, self.to(grad.scalar_type()), result, dim, keepdim).to(self.scalar_type());
  }
  OptionalIntArrayRef dims = dim ? OptionalIntArrayRef(IntArrayRef(*dim)) : std::nullopt;
  const Tensor g = unsqueeze_reduced(grad, self.sizes(), dims, keepdim || !dim ? keepdim : false);
  const int64_t zeros = self.eq(scalar(0, self)).sum().item().toLong();
  if (zeros == 0) {
    const Tensor r = unsqueeze_reduced(result, self.sizes(), dims, keepdim || !dim ? keepdim : false);
    return g.mul(r.div(self));
  }
  if (!dim) {
    if (zeros > 1 && !GradMode::is_enabled()) return zeros_for(grad, self.sizes());
    return products_of_others(self.reshape({-1}), 0).view(self.sizes()).mul(g);
  }
  return products_of_others(self, c10::maybe_wrap_dim(*dim, self.dim())).mul(g);
}

Tensor clamp_self_backward(const Tensor& grad, const Tensor& self, const std::optional<Tensor>& min,
                           const std::optional<Tensor>& max) {
  Tensor keep;
  if (min && min->defined()) keep = self.ge(*min);
  if (max && max->defined()) keep = keep.defined() ? keep.logical_and(self.le(*max)) : self.le(*max);
  return at::where(keep, grad, zeros_for(grad, {}));
}

Tensor clamp_self_backward(const Tensor& grad, const Tensor& self, const std::optional<Scalar>& min,
                           const std::optional<Scalar>& max) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  if (Tensor out = native::activation_backward(native::clamp_backward_stub, grad, self, min ? min->toDouble() : -inf,
                                               max ? max->toDouble() : inf);
      out.defined()) {
    return out;
  }
  std::optional<Tensor> lo, hi;
  if (min) lo = wrapped_scalar_tensor(*min);
  if (max) hi = wrapped_scalar_tensor(*max);
  return clamp_self_backward(grad, self, lo, hi);
}

// A bound takes the gradient where it was the answer: min where self < min,
// max where self > max, and with both, where min > max, max wins (PyTorch's rule).
std::tuple<Tensor, Tensor> clamp_bounds_backward(const Tensor& grad, const Tensor& self, const std::optional<Tensor>& min,
                                                 const std::optional<Tensor>& max) {
  const bool has_min = min && min->defined(), has_max = max && max->defined();
  const Tensor zero = zeros_for(grad, {});
  Tensor gmin, gmax;
  if (has_min && has_max) {
    gmin = at::where(self.lt(*min).logical_and(min->lt(*max)), grad, zero);
    gmax = at::where(self.gt(*max).logical_or(max->lt(*min)), grad, zero);
  } else if (has_min) {
    gmin = at::where(self.lt(*min), grad, zero);
  } else if (has_max) {
    gmax = at::where(self.gt(*max), grad, zero);
  }
  return {gmin, gmax};
}

Tensor var_backward(const Tensor& grad, const Tensor& self, OptionalIntArrayRef dims,
                    const std::optional<Scalar>& correction, bool keepdim) {
  const double corr = correction ? correction->toDouble() : 1.0;
  int64_t n = 1;
  for (int64_t d : reduced(self.sizes(), dims)) n *= self.size(d);
  const Tensor mean = at::mean(self, dims, true, std::nullopt);
  const Tensor g = unsqueeze_reduced(grad, self.sizes(), dims, keepdim);
  // PyTorch's formula: over every element (no dim given) with no degrees of
  // freedom left, inf (NaN where x is the mean); otherwise 2 / (N - correction),
  // negative when the correction exceeds N.
  const double dof = static_cast<double>(n) - corr;
  if (!dims && dof <= 0) {
    const Tensor special = at::where(self.eq(mean), scalar(std::numeric_limits<double>::quiet_NaN(), self),
                                     scalar(std::numeric_limits<double>::infinity(), self));
    return special.mul(g);
  }
  return self.sub(mean).mul(g).mul(scalar(2.0 / dof, self));
}

// d std = d var / (2 std); where std is 0 the gradient is 0 (as PyTorch masks it).
Tensor std_backward(const Tensor& result, const Tensor& grad, const Tensor& self, OptionalIntArrayRef dims,
                    const std::optional<Scalar>& correction, bool keepdim) {
  const Tensor safe = at::where(result.eq(scalar(0, result)), scalar(1, result), result);
  const Tensor g = at::where(result.eq(scalar(0, result)), scalar(0, grad), grad.div(safe.mul(scalar(2, safe))));
  return var_backward(g, self, dims, correction, keepdim);
}

Tensor norm_backward(const Tensor& grad, const Tensor& self, const Scalar& ord, const Tensor& result,
                     OptionalIntArrayRef dims, bool keepdim) {
  const double p = ord.toDouble();
  if (p == 0) return Tensor();  // as PyTorch: no gradient at all (.grad stays None), not zeros
  if (grad.scalar_type() != self.scalar_type()) {  // dtype=: the gradient comes back in self's dtype
    return norm_backward(grad, self.to(grad.scalar_type()), ord, result, dims, keepdim).to(self.scalar_type());
  }
  const Tensor g = unsqueeze_reduced(grad, self.sizes(), dims, keepdim);
  const Tensor r = unsqueeze_reduced(result, self.sizes(), dims, keepdim);
  if (p == 1) return self.sign().mul(g);
  if (std::isinf(p)) return evenly_distribute_backward(grad, self.abs(), result, dims, keepdim, true).mul(self.sign());
  if (p == 2) return at::where(r.eq(scalar(0, r)), scalar(0, self), self.div(r)).mul(g);
  // PyTorch's three forms: below 1 a zero element gets 0 (|x|^(p-1) is inf
  // there); between 1 and 2 sign(x) |x|^(p-1); above 2 x |x|^(p-2); scaled by
  // the norm's power, 0 where the norm is 0.
  if (p < 1) {
    const Tensor scaled = self.sign().mul(self.abs().pow(p - 1).masked_fill(self.eq(scalar(0, self)), 0));
    return scaled.mul(g).mul(r.pow(1 - p));
  }
  const Tensor scaled = p < 2 ? self.sign().mul(self.abs().pow(p - 1)) : self.mul(self.abs().pow(p - 2));
  return scaled.mul(g.div(r.pow(p - 1)).masked_fill(r.eq(scalar(0, r)), 0));
}

Tensor evenly_distribute_backward(const Tensor& grad, const Tensor& self, const Tensor& result,
                                  OptionalIntArrayRef dims, bool keepdim, bool nan_matches) {
  const Tensor r = unsqueeze_reduced(result, self.sizes(), dims, keepdim);
  const Tensor g = unsqueeze_reduced(grad, self.sizes(), dims, keepdim);
  // max()/min() (and norm's inf order) give a NaN result's gradient to the
  // NaN elements, as PyTorch; for amax/amin (nan_matches false) a NaN result
  // matches no element, and the slice's gradient is NaN (0 / 0), as PyTorch.
  const Tensor mask = nan_matches ? self.eq(r).logical_or(self.isnan().logical_and(r.isnan())) : self.eq(r);
  const Tensor count = mask.sum(dims, true, std::nullopt).to(self.scalar_type());
  return mask.to(self.scalar_type()).mul(g.div(count));
}

Tensor value_selecting_backward(const Tensor& grad, int64_t dim, const Tensor& indices, IntArrayRef sizes,
                                bool keepdim) {
  if (sizes.empty()) return grad;
  const Tensor g = keepdim ? grad : grad.unsqueeze(dim);
  const Tensor idx = keepdim ? indices : indices.unsqueeze(dim);
  return zeros_for(grad, sizes).scatter_(dim, idx, g);
}

Tensor logsumexp_backward(const Tensor& grad, const Tensor& self, const Tensor& result, IntArrayRef dims,
                          bool keepdim) {
  const Tensor g = unsqueeze_reduced(grad, self.sizes(), dims, keepdim);
  const Tensor r = unsqueeze_reduced(result, self.sizes(), dims, keepdim);
  return g.mul(self.sub(r).exp());
}

Tensor cummaxmin_backward(const Tensor& grad, const Tensor& self, const Tensor& indices, int64_t dim) {
  if (self.dim() == 0) return grad;
  if (self.numel() == 0) return at::zeros_like(self);  // its dim is never read, as in the forward
  // Several positions may share a source element: their gradients add up there.
  return at::zeros_like(self).scatter_add(c10::maybe_wrap_dim(dim, self.dim()), indices, grad);
}

Tensor cumsum_backward(const Tensor& grad, int64_t dim) {
  if (grad.dim() == 0) return grad;
  return grad.flip({dim}).cumsum(dim, std::nullopt).flip({dim});
}

// d self_i = sum_{j >= i} grad_j exp(self_i - result_j), PyTorch's formula:
// the positive and negative parts of grad each summed in log space by a
// reversed logcumsumexp, so no exp overflows. Composed of differentiable ops
// (double backward follows).
Tensor logcumsumexp_backward(const Tensor& grad, const Tensor& self, const Tensor& result, int64_t dim) {
  if (grad.dim() == 0 || grad.numel() == 0) return grad;
  const Tensor lowest = AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(grad.scalar_type(), "logcumsumexp_backward", [&] {
    return scalar_tensor_of(Scalar(std::numeric_limits<scalar_t>::lowest()), grad.scalar_type()).to(grad.device(), std::nullopt);
  });
  auto reversed_logcumsumexp = [dim](const Tensor& x) { return x.flip({dim}).logcumsumexp(dim).flip({dim}); };
  const Tensor log_abs_grad = grad.abs().log();
  const Tensor log_positive = at::where(grad.gt(wrapped_scalar_tensor(0)), log_abs_grad, lowest);
  const Tensor log_negative = at::where(grad.lt(wrapped_scalar_tensor(0)), log_abs_grad, lowest);
  const Tensor positive = reversed_logcumsumexp(log_positive.sub(result)).add(self).exp();
  const Tensor negative = reversed_logcumsumexp(log_negative.sub(result)).add(self).exp();
  return positive.sub(negative);
}

// float16/bfloat16 softmax gradients are computed in float and rounded once,
// as PyTorch's kernels compute them: rounding exp(output), the product and
// the difference each to 16 bits leaves noise where the terms cancel (the
// gradient through an expanded row of equal values is exactly 0).
namespace {
bool is_reduced_float(const Tensor& t) {
  return t.scalar_type() == ScalarType::Half || t.scalar_type() == ScalarType::BFloat16;
}
}  // namespace

Tensor softmax_backward(const Tensor& grad, const Tensor& output, int64_t dim) {
  if (is_reduced_float(output)) {
    return softmax_backward(grad.to(ScalarType::Float), output.to(ScalarType::Float), dim).to(output.scalar_type());
  }
  const Tensor dot = grad.mul(output).sum(IntArrayRef(dim), true, std::nullopt);
  return output.mul(grad.sub(dot));
}

Tensor log_softmax_backward(const Tensor& grad, const Tensor& output, int64_t dim) {
  if (is_reduced_float(output)) {
    return log_softmax_backward(grad.to(ScalarType::Float), output.to(ScalarType::Float), dim)
        .to(output.scalar_type());
  }
  return grad.sub(output.exp().mul(grad.sum(IntArrayRef(dim), true, std::nullopt)));
}

Tensor pow_self_backward(const Tensor& grad, const Tensor& self, const Tensor& exponent) {
  // exponent * self^(exponent - 1); 0 where the exponent is 0 (PyTorch's
  // Scalar.equal(0.0) is false for a bool, so False ** gives 0 * x^-1 there).
  // e - 1 in the exponent's own floating dtype, as PyTorch (a bfloat16
  // exponent rounds there); integer exponents in the result's dtype (PyTorch
  // wraps int8 -128 - 1 to 127: a documented deviation).
  if (exponent.unsafeGetTensorImpl()->is_wrapped_number() && exponent.scalar_type() != ScalarType::Bool &&
      self.is_floating_point() && exponent.item().toDouble() == 2.0) {
    return self.mul(scalar(2, self)).mul(grad);  // x ** 2 and square: 2 x, one pass
  }
  const Tensor e = exponent.to(self.scalar_type());
  const Tensor e_minus_1 = exponent.is_floating_point() ? exponent.sub(scalar(1, exponent)).to(self.scalar_type())
                                                        : e.sub(scalar(1, e));
  const Tensor d = e.mul(self.pow(e_minus_1));
  if (exponent.scalar_type() == ScalarType::Bool) return d.mul(grad);
  return at::where(e.eq(scalar(0, e)), scalar(0, self), d).mul(grad);
}

Tensor pow_exponent_backward(const Tensor& grad, const Tensor& self, const Tensor& exponent, const Tensor& result) {
  // result * log(self); 0 where self is 0 and the exponent non-negative. A
  // number base's log is taken in double, as PyTorch's Scalar.log() (log of
  // 3.5e38 is finite, though 3.5e38 is not a float32).
  const Tensor s = self.to(result.scalar_type());
  const Tensor log_base = self.unsafeGetTensorImpl()->is_wrapped_number()
                              ? wrapped_scalar_tensor(Scalar(std::log(self.item().toDouble())))
                              : s.log();
  const Tensor d = result.mul(log_base);
  const Tensor zero_base = s.eq(scalar(0, s)).logical_and(exponent.ge(wrapped_scalar_tensor(0)));
  return at::where(zero_base, scalar(0, result), d).mul(grad);
}

Tensor threshold_backward(const Tensor& grad, const Tensor& result, double threshold) {
  if (Tensor out = native::activation_backward(native::threshold_backward_stub, grad, result, threshold); out.defined()) {
    return out;
  }
  return grad.masked_fill(result.le(scalar(threshold, result)), 0);
}

Tensor leaky_relu_backward(const Tensor& grad, const Tensor& self, const Scalar& negative_slope) {
  if (Tensor out = native::activation_backward(native::leaky_relu_backward_stub, grad, self, negative_slope.toDouble());
      out.defined()) {
    return out;
  }
  // float16 and bfloat16 multiply in float, as PyTorch's kernel: a slope past
  // their range still gives a finite product.
  const bool reduced = grad.scalar_type() == ScalarType::Half || grad.scalar_type() == ScalarType::BFloat16;
  const Tensor g = reduced ? grad.to(ScalarType::Float) : grad;
  const Tensor scaled = g.mul(scalar(negative_slope.toDouble(), g));
  return at::where(self.gt(scalar(0, self)), grad, reduced ? scaled.to(grad.scalar_type()) : scaled);
}

Tensor shrink_backward(const Tensor& grad, const Tensor& self, const Scalar& lambd) {
  const double l = lambd.toDouble();
  if (Tensor out = native::activation_backward(native::shrink_backward_stub, grad, self, l); out.defined()) return out;
  // Inside is -lambd <= x <= lambd: a NaN (or a NaN lambd) is never inside, as in PyTorch.
  return grad.masked_fill(self.ge(scalar(-l, self)).logical_and(self.le(scalar(l, self))), 0);
}

Tensor softplus_backward(const Tensor& grad, const Tensor& self, const Scalar& beta, const Scalar& threshold) {
  if (Tensor out = native::activation_backward(native::softplus_backward_stub, grad, self, beta.toDouble(),
                                               threshold.toDouble());
      out.defined()) {
    return out;
  }
  const Tensor scaled = self.mul(scalar(beta.toDouble(), self));
  const Tensor z = at::exp(scaled);
  return at::where(scaled.gt(scalar(threshold.toDouble(), self)), grad, grad.mul(z).div(z.add(scalar(1, z))));
}

Tensor hardsigmoid_backward(const Tensor& grad, const Tensor& self) {
  if (Tensor out = native::activation_backward(native::hardsigmoid_backward_stub, grad, self, 0); out.defined()) {
    return out;
  }
  const Tensor inside = self.gt(scalar(-3, self)).logical_and(self.lt(scalar(3, self)));
  return at::where(inside, grad.div(scalar(6, grad)), zeros_for(grad, {}));
}

Tensor hardswish_backward(const Tensor& grad, const Tensor& self) {
  if (Tensor out = native::activation_backward(native::hardswish_backward_stub, grad, self, 0); out.defined()) {
    return out;
  }
  const Tensor ramp = grad.mul(self.div(scalar(3, self)).add(scalar(0.5, self)));
  return at::where(self.le(scalar(-3, self)), zeros_for(grad, {}), at::where(self.ge(scalar(3, self)), grad, ramp));
}

Tensor extremum_backward(const Tensor& grad, const Tensor& self, const Tensor& other, bool self_wins_when_greater) {
  // PyTorch's rule: ties share the gradient equally; self gets none only
  // where it lost outright, so at a NaN both sides get all of it.
  const Tensor lost = self_wins_when_greater ? self.lt(other) : self.gt(other);
  return at::where(self.eq(other), grad.mul(scalar(0.5, grad)), grad).masked_fill(lost, 0);
}

Tensor select_backward(const Tensor& grad, IntArrayRef sizes, int64_t dim, int64_t index) {
  Tensor out = zeros_for(grad, sizes);
  out.select(dim, index).copy_(grad);
  return out;
}

Tensor copysign_self_backward(const Tensor& grad, const Tensor& self, const Tensor& result) {
  Tensor ratio = result.div(self);
  return grad.mul(ratio.masked_fill(self.eq(wrapped_scalar_tensor(0)), 0));
}

Tensor not_implemented(const char* what) {
  TORCH_CHECK_NOT_IMPLEMENTED(false, "the ", what, " is not implemented");
  return Tensor();
}

// d sinc / dx = (t cos t - sin t) / (pi x^2), t = pi x. The numerator
// cancels near 0 (a last-bit error in sin or cos is 1% of it at |x| = 0.01
// in float32), so it is computed in double, and for |t| < 0.1 as its Taylor
// series pi (-t/3 + t^3/30 - t^5/840 + t^7/45360 - t^9/3991680), whose next
// term is below double's precision there.
Tensor sinc_backward(const Tensor& grad, const Tensor& self) {
  const bool widen = isFloatingType(self.scalar_type()) && self.scalar_type() != ScalarType::Double;
  const Tensor x = widen ? self.to(ScalarType::Double) : self;
  const Tensor t = x.mul(wrapped_scalar_tensor(3.14159265358979323846));
  const Tensor t2 = t.mul(t);
  Tensor series = wrapped_scalar_tensor(-1.0 / 3991680);
  for (double c : {1.0 / 45360, -1.0 / 840, 1.0 / 30, -1.0 / 3}) series = series.mul(t2).add(wrapped_scalar_tensor(c));
  series = series.mul(t).mul(wrapped_scalar_tensor(3.14159265358979323846));
  const Tensor denom = t.mul(x);
  const Tensor formula = t.mul(t.cos()).sub(t.sin()).div(denom).masked_fill(denom.eq(wrapped_scalar_tensor(0)), 0);
  const Tensor d = at::where(t.abs().lt(wrapped_scalar_tensor(0.1)), series, formula);
  return grad.mul(widen ? d.to(grad.scalar_type()) : d);
}

Tensor logit_backward(const Tensor& grad, const Tensor& self, std::optional<double> eps) {
  const Tensor d = grad.div(self.mul(self.neg().add(wrapped_scalar_tensor(1))));
  if (eps && *eps >= 0) {
    const Tensor outside = self.lt(wrapped_scalar_tensor(*eps)).logical_or(self.gt(wrapped_scalar_tensor(1 - *eps)));
    return d.masked_fill(outside, 0);
  }
  const Tensor outside = self.lt(wrapped_scalar_tensor(0)).logical_or(self.gt(wrapped_scalar_tensor(1)));
  return d.masked_fill(outside, std::numeric_limits<double>::quiet_NaN());
}

Tensor atan2_backward(const Tensor& grad, const Tensor& self, const Tensor& other, bool for_self) {
  // Each square in its own dtype (an integer other wraps, as in PyTorch); where the
  // sum of squares is 0 (both 0, or underflowed) the reciprocal counts as 0.
  const Tensor squares = self.mul(self).add(other.mul(other));
  const Tensor recip = squares.reciprocal().masked_fill(squares.eq(wrapped_scalar_tensor(0)), 0);
  return for_self ? grad.mul(other).mul(recip) : grad.mul(self.neg()).mul(recip);
}

Tensor elu_backward(const Tensor& grad, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale,
                    const Tensor& self) {
  const double negative_coef = alpha.toDouble() * scale.toDouble() * input_scale.toDouble();
  if (Tensor out = native::activation_backward(native::elu_backward_stub, grad, self, negative_coef, scale.toDouble(),
                                               input_scale.toDouble());
      out.defined()) {
    return out;
  }
  const bool reduced = self.scalar_type() == ScalarType::Half || self.scalar_type() == ScalarType::BFloat16;
  const Tensor x = reduced ? self.to(ScalarType::Float) : self;
  const Tensor g = reduced ? grad.to(ScalarType::Float) : grad;
  // Clamped before exp, so the branch not taken cannot overflow into NaN.
  const Tensor negative = g.mul(wrapped_scalar_tensor(negative_coef))
                              .mul(at::exp(at::clamp(x, std::nullopt, Scalar(0)).mul(wrapped_scalar_tensor(input_scale))));
  // NaN takes the negative branch (its exp gives NaN), 0 too, as PyTorch's backward.
  const Tensor result = at::where(x.gt(wrapped_scalar_tensor(0)), g.mul(wrapped_scalar_tensor(scale)), negative);
  return reduced ? result.to(self.scalar_type()) : result;
}

Tensor mvlgamma_backward(const Tensor& grad, const Tensor& self, int64_t p) {
  const Tensor offsets = at::arange(Scalar(-0.5 * p + 0.5), Scalar(0.5), Scalar(0.5), self.scalar_type(), self.device());
  return grad.mul(at::digamma(self.unsqueeze(-1).add(offsets)).sum(IntArrayRef{-1}, false, std::nullopt));
}

Tensor roll_backward(const Tensor& grad, IntArrayRef shifts, IntArrayRef dims) {
  std::vector<int64_t> back(shifts.size());
  for (size_t i = 0; i < shifts.size(); ++i) back[i] = -shifts[i];
  return grad.roll(back, dims);
}

Tensor pad_by_mode(const Tensor& t, IntArrayRef pad, int64_t mode) {
  if (mode == 2) return at::_pad_circular(t, pad);
  const bool reflect = mode == 0;
  switch (pad.size()) {
    case 2: return reflect ? at::reflection_pad1d(t, pad) : at::replication_pad1d(t, pad);
    case 4: return reflect ? at::reflection_pad2d(t, pad) : at::replication_pad2d(t, pad);
    case 6: return reflect ? at::reflection_pad3d(t, pad) : at::replication_pad3d(t, pad);
    default: TORCH_CHECK(false, "padding of ", pad.size(), " values: reflect and replicate take 2, 4 or 6");
  }
}

Tensor constant_pad_nd_backward(const Tensor& grad, IntArrayRef pad) {
  std::vector<int64_t> back(pad.size());
  for (size_t i = 0; i < pad.size(); ++i) back[i] = -pad[i];
  return at::constant_pad_nd(grad, back, 0);
}

Tensor diagonal_backward(const Tensor& grad, IntArrayRef sizes, int64_t offset, int64_t dim1, int64_t dim2) {
  Tensor out = zeros_for(grad, sizes);
  out.diagonal(offset, dim1, dim2).copy_(grad);
  return out;
}

Tensor trace_backward(const Tensor& grad, IntArrayRef sizes) {
  Tensor out = zeros_for(grad, sizes);
  out.diagonal().copy_(grad);
  return out;
}

Tensor slice_backward(const Tensor& grad, IntArrayRef sizes, int64_t dim, std::optional<int64_t> start,
                      std::optional<int64_t> end, int64_t step) {
  Tensor out = zeros_for(grad, sizes);
  out.slice(dim, start, end, step).copy_(grad);
  return out;
}

Tensor permute_backward(const Tensor& grad, IntArrayRef dims) {
  std::vector<int64_t> inverse(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) inverse[c10::maybe_wrap_dim(dims[i], dims.size())] = static_cast<int64_t>(i);
  return grad.permute(inverse);
}

Tensor squeeze_backward(const Tensor& grad, IntArrayRef sizes) { return grad.reshape(sizes); }

// The storage position of every element of a view with this geometry.
Tensor storage_positions(IntArrayRef sizes, IntArrayRef strides, int64_t offset, Device device) {
  Tensor pos = at::full({}, offset, ScalarType::Long, device);
  for (size_t d = 0; d < sizes.size(); ++d) {
    std::vector<int64_t> shape(sizes.size(), 1);
    shape[d] = sizes[d];
    pos = pos.add(at::arange(sizes[d], ScalarType::Long, device).mul(wrapped_scalar_tensor(strides[d])).view(shape));
  }
  return pos.expand(sizes);
}

namespace {

// Whether two elements of a (sizes, strides) geometry may share a position:
// a stride 0, or a dim's stride not past the span of the smaller ones.
bool may_overlap(IntArrayRef sizes, IntArrayRef strides) {
  std::vector<std::pair<int64_t, int64_t>> dims;  // (stride, size) of dims with size > 1
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] > 1) dims.emplace_back(strides[d], sizes[d]);
  }
  std::sort(dims.begin(), dims.end());
  int64_t span = 0;  // the largest position offset the smaller dims reach
  for (const auto& [st, sz] : dims) {
    if (st <= span) return true;
    span += st * (sz - 1);
  }
  return false;
}

// buf[position of element i] += g[i] for the elements of a (sizes, strides,
// offset) geometry in row-major order: the sums of an overlapping
// as_strided's gradient, one pass (index_put_'s accumulation took five).
template <typename T>
void add_at_positions(T* buf, const T* g, IntArrayRef sizes, IntArrayRef strides, int64_t offset) {
  const int64_t nd = static_cast<int64_t>(sizes.size());
  int64_t numel = 1;
  for (int64_t s : sizes) numel *= s;
  const int64_t inner = nd ? sizes[nd - 1] : 1, inner_stride = nd ? strides[nd - 1] : 0;
  std::vector<int64_t> index(std::max<int64_t>(nd, 1), 0);
  int64_t pos = offset;
  for (int64_t done = 0; done < numel; done += inner) {
    for (int64_t k = 0; k < inner; ++k) {
      T& b = buf[pos + k * inner_stride];
      b = static_cast<T>(c10::opmath_t<T>(b) + c10::opmath_t<T>(g[done + k]));
    }
    for (int64_t d = nd - 2; d >= 0; --d) {  // the next row: an odometer over the outer dims
      pos += strides[d];
      if (++index[d] < sizes[d]) break;
      pos -= strides[d] * sizes[d];
      index[d] = 0;
    }
  }
}

// One past the last position a nonempty geometry reads.
int64_t extent(IntArrayRef sizes, IntArrayRef strides, int64_t offset) {
  int64_t last = offset;
  for (size_t d = 0; d < sizes.size(); ++d) last += (sizes[d] - 1) * strides[d];
  return last + 1;
}

}  // namespace

// As PyTorch defines it, over storage positions: each output element's
// gradient goes to the position it read (summed where the output reads one
// position several times), and each input element takes its position's sum,
// shared evenly when several input elements are that position (an expanded
// input). Positions outside the input pass nothing.
Tensor as_strided_backward(const Tensor& grad, const Tensor& self, IntArrayRef size, IntArrayRef stride,
                           std::optional<int64_t> storage_offset) {
  if (self.numel() == 0) return zeros_for(grad, self.sizes());
  // Positions counted from the lower of the two offsets.
  const int64_t out_offset = storage_offset.value_or(self.storage_offset());
  const int64_t base = std::min(out_offset, self.storage_offset());
  const int64_t in_start = self.storage_offset() - base, out_start = out_offset - base;
  int64_t length = extent(self.sizes(), self.strides(), in_start);
  if (grad.numel() > 0) length = std::max(length, extent(size, stride, out_start));
  Tensor summed = zeros_for(grad, {length});
  if (!may_overlap(size, stride)) {
    // Each position read at most once: a copy into the buffer.
    summed.as_strided(size, stride, out_start).copy_(grad);
  } else if (summed.is_cpu() && grad.numel() > 0 && !GradMode::is_enabled()) {
    AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(summed.scalar_type(), "as_strided_backward", [&] {
      add_at_positions(summed.data_ptr<scalar_t>(), grad.contiguous().data_ptr<scalar_t>(), size, stride, out_start);
    });
  } else {
    const std::vector<std::optional<Tensor>> at_out{storage_positions(size, stride, out_start, grad.device()).reshape({-1})};
    summed.index_put_(at_out, grad.reshape({-1}), true);
  }
  if (!may_overlap(self.sizes(), self.strides())) return summed.as_strided(self.sizes(), self.strides(), in_start).contiguous();
  const std::vector<std::optional<Tensor>> at_in{
      storage_positions(self.sizes(), self.strides(), in_start, grad.device()).reshape({-1})};
  const Tensor ones = at::ones({1}, grad.scalar_type(), grad.device()).expand(self.numel());
  const Tensor count = zeros_for(grad, {length}).index_put_(at_in, ones, true);
  return summed.index(at_in).div(count.index(at_in)).view(self.sizes());
}

Tensor index_put_rows_self_backward(const Tensor& grad, const Tensor& index, bool accumulate) {
  if (accumulate) return grad;
  Tensor result = grad.clone();
  at::_index_put_rows_(result, index, zeros_for(grad, {index.numel(), grad.size(1)}), false);
  return result;
}

Tensor index_select_backward(const Tensor& grad, IntArrayRef sizes, int64_t dim, const Tensor& index) {
  Tensor out = zeros_for(grad, sizes);
  if (sizes.empty()) return out.add(grad.reshape({}));
  const int64_t d = c10::maybe_wrap_dim(dim, sizes.size());
  std::vector<std::optional<Tensor>> indices(d);
  indices.emplace_back(index.reshape({-1}));
  return out.index_put_(indices, grad, true);
}

Tensor index_update_source_backward(const Tensor& grad, int64_t dim, const Tensor& index, IntArrayRef source_sizes,
                                    const Scalar& alpha) {
  const Tensor g = grad.dim() == 0 ? grad.view({1}) : grad;
  Tensor picked = g.index_select(c10::maybe_wrap_dim(dim, g.dim()), index.reshape({-1})).reshape(source_sizes);
  return alpha.toDouble() == 1.0 ? picked : picked.mul(scalar(alpha.toDouble(), picked));
}

Tensor index_copy_self_backward(const Tensor& grad, int64_t dim, const Tensor& index) {
  if (index.numel() == 0) return grad;
  const Tensor g = grad.dim() == 0 ? grad.view({1}) : grad;
  const int64_t d = c10::maybe_wrap_dim(dim, g.dim());
  std::vector<int64_t> shape = g.sizes().vec();
  shape[d] = index.numel();
  std::vector<std::optional<Tensor>> indices(d);
  indices.emplace_back(index.reshape({-1}).to(ScalarType::Long));
  Tensor out = g.clone();
  out.index_put_(indices, zeros_for(g, shape), false);
  return grad.dim() == 0 ? out.view(IntArrayRef{}) : out;
}

Tensor gather_backward(const Tensor& grad, IntArrayRef sizes, int64_t dim, const Tensor& index) {
  return zeros_for(grad, sizes).scatter_add_(dim, index, grad);
}

std::vector<Tensor> stack_backward(const Tensor& grad, int64_t dim, const std::vector<std::vector<int64_t>>& sizes) {
  const int64_t d = c10::maybe_wrap_dim(dim, grad.dim());
  std::vector<Tensor> out;
  for (size_t i = 0; i < sizes.size(); ++i) out.push_back(grad.select(d, static_cast<int64_t>(i)));
  return out;
}

Tensor repeat_backward(const Tensor& grad, IntArrayRef repeats, IntArrayRef sizes) {
  // grad has shape repeats[i] * padded[i]; split each dim into (repeat, size) and sum the repeats.
  const int64_t lead = static_cast<int64_t>(repeats.size()) - static_cast<int64_t>(sizes.size());
  std::vector<int64_t> split, reduce;
  for (int64_t i = 0; i < static_cast<int64_t>(repeats.size()); ++i) {
    const int64_t size = i < lead ? 1 : sizes[i - lead];
    reduce.push_back(static_cast<int64_t>(split.size()));
    split.push_back(repeats[i]);
    split.push_back(size);
  }
  if (grad.numel() == 0) return at::zeros(sizes, grad.scalar_type(), grad.device());
  return grad.reshape(split).sum(reduce, false, std::nullopt).reshape(sizes);
}

Tensor mean_backward(const Tensor& grad, IntArrayRef sizes, OptionalIntArrayRef dims, bool keepdim) {
  int64_t count = 1;
  for (int64_t d : reduced(sizes, dims)) count *= sizes[d];
  const Tensor g = unsqueeze_reduced(grad, sizes, dims, keepdim).expand(sizes);
  return g.div(scalar(static_cast<double>(count), g));
}

Tensor masked_select_backward(const Tensor& grad, const Tensor& self, const Tensor& mask) {
  const auto shape = infer_size(self.sizes(), mask.sizes());
  Tensor out = at::zeros(shape, grad.scalar_type(), grad.device());
  out.index_put_({std::optional<Tensor>(mask.expand(shape))}, grad, false);
  return out;  // the engine sums it back to self's shape where mask broadcast it
}

std::vector<Tensor> cat_backward(const Tensor& grad, const std::vector<std::vector<int64_t>>& sizes, int64_t dim) {
  std::vector<Tensor> grads;
  int64_t offset = 0;
  for (const auto& s : sizes) {
    if (s.size() == 1 && s[0] == 0) {  // legacy empty input: skipped by cat
      grads.push_back(zeros_for(grad, s));
      continue;
    }
    const int64_t d = c10::maybe_wrap_dim(dim, s.size());
    grads.push_back(grad.narrow(d, offset, s[d]));
    offset += s[d];
  }
  return grads;
}

Tensor mse_loss_backward(const Tensor& grad, const Tensor& self, const Tensor& target, int64_t reduction) {
  // PyTorch's order: the scale (2 / N for a mean) times the difference, then
  // the incoming gradient, so 2 * (3e38 - x) / 4 does not overflow first.
  const double norm = reduction == 1 ? 2.0 / static_cast<double>(self.numel()) : 2.0;
  return self.sub(target).mul(scalar(norm, self)).mul(grad);
}

Tensor piecewise_loss_backward(const Tensor& grad, const Tensor& self, const Tensor& target, int64_t reduction,
                               double width, bool huber) {
  if ((reduction == 1 || reduction == 2) && !GradMode::is_enabled() && grad.numel() == 1 && self.is_cpu() &&
      target.is_cpu() && grad.is_cpu() && self.sizes() == target.sizes() && self.is_floating_point() &&
      self.scalar_type() == target.scalar_type() && (huber || width > 0)) {
    // A reduced loss outside double backward: one pass (cpu/LossKernel.cpp).
    const double norm = reduction == 1 ? 1.0 / static_cast<double>(self.numel()) : 1.0;
    const Tensor x = self.contiguous(), y = target.contiguous();
    Tensor out = at::empty(self.sizes(), self.scalar_type(), self.device());
    native::piecewise_loss_grad_stub(c10::DeviceType::CPU, self.scalar_type(),
                                     huber ? native::PointwiseLoss::Huber : native::PointwiseLoss::SmoothL1,
                                     x.data_ptr(), y.data_ptr(), self.numel(), width,
                                     norm * grad.item().toDouble(), out.data_ptr());
    return out;
  }
  const Tensor d = self.sub(target);
  Tensor slope;
  if (huber) {
    slope = d.clamp(Scalar(-width), Scalar(width));
  } else if (width == 0) {
    slope = d.sign();
  } else {
    slope = at::where(d.abs().lt(scalar(width, d)), d.div(scalar(width, d)), d.sign());
  }
  // PyTorch's norm: 1 / self.numel(), self's count even where the target broadcast it larger.
  if (reduction == 1) slope = slope.div(scalar(static_cast<double>(self.numel()), d));
  return slope.mul(grad);
}

Tensor split_with_sizes_backward(const std::vector<Tensor>& grads, IntArrayRef split_sizes, int64_t dim,
                                 IntArrayRef sizes) {
  dim = c10::maybe_wrap_dim(dim, static_cast<int64_t>(sizes.size()));
  const Tensor* any = nullptr;
  for (const Tensor& g : grads) {
    if (g.defined()) {
      any = &g;
      break;
    }
  }
  if (!any) return Tensor();
  std::vector<Tensor> parts;
  for (size_t i = 0; i < split_sizes.size(); ++i) {
    if (i < grads.size() && grads[i].defined()) {
      parts.push_back(grads[i]);
    } else {
      std::vector<int64_t> shape = sizes.vec();
      shape[dim] = split_sizes[i];
      parts.push_back(at::zeros(shape, any->scalar_type(), any->device()));
    }
  }
  return at::cat(parts, dim);
}

Tensor split_backward(const std::vector<Tensor>& grads, int64_t split_size, int64_t dim, IntArrayRef sizes) {
  dim = c10::maybe_wrap_dim(dim, static_cast<int64_t>(sizes.size()));
  const int64_t size = sizes[dim];
  std::vector<int64_t> split_sizes;
  for (int64_t start = 0; start < size; start += split_size) split_sizes.push_back(std::min(split_size, size - start));
  if (split_sizes.empty()) split_sizes.push_back(0);
  return split_with_sizes_backward(grads, split_sizes, dim, sizes);
}

namespace {

// nll_loss's gradient on the CPU in one loop: zeros but for -w[t] * grad
// at each row's target (the loss forward has checked the targets).
Tensor nll_loss_backward_loop(const Tensor& grad, IntArrayRef sizes2d, const Tensor& target, const Tensor& weight,
                              int64_t reduction, int64_t ignore_index) {
  Tensor out = at::zeros(sizes2d, grad.scalar_type(), grad.device());
  const int64_t n = sizes2d[0], classes = sizes2d[1];
  const int64_t* t = target.data_ptr<int64_t>();
  const Tensor g = grad.contiguous();
  const auto run = [&](auto tag) {
    using T = decltype(tag);
    const T* w = weight.defined() ? weight.data_ptr<T>() : nullptr;
    const T* gv = g.data_ptr<T>();
    T* o = out.data_ptr<T>();
    double scale = 1;
    if (reduction == 1) {
      double total = 0;
      for (int64_t i = 0; i < n; ++i)
        if (t[i] != ignore_index) total += w ? static_cast<double>(w[t[i]]) : 1.0;
      scale = 1.0 / total;
    }
    for (int64_t i = 0; i < n; ++i) {
      if (t[i] == ignore_index) continue;
      const T wc = w ? w[t[i]] : T(1);
      const T gi = reduction == 0 && g.numel() == n ? gv[i] : gv[0];
      o[i * classes + t[i]] = -(static_cast<T>(wc * scale) * gi);
    }
  };
  if (grad.scalar_type() == ScalarType::Float) {
    run(float{});
  } else {
    run(double{});
  }
  return out;
}

}  // namespace

Tensor nll_loss_backward(const Tensor& grad, const Tensor& self, const Tensor& target,
                         const std::optional<Tensor>& weight, int64_t reduction, int64_t ignore_index) {
  // d loss / d self[n, target[n]] = -w[target[n]] (divided by the total weight for 'mean').
  const bool batched = self.dim() == 2;
  const Tensor input2d = batched ? self : self.unsqueeze(0);
  const Tensor target1d = batched ? target : target.reshape({1});
  if (self.is_cpu() && (self.scalar_type() == ScalarType::Float || self.scalar_type() == ScalarType::Double) &&
      grad.scalar_type() == self.scalar_type() && target1d.scalar_type() == ScalarType::Long &&
      !GradMode::is_enabled()) {  // the loop records nothing; create_graph takes the ops below
    return nll_loss_backward_loop(grad, input2d.sizes(), target1d.contiguous(),
                                  weight && weight->defined() ? weight->contiguous() : Tensor(), reduction,
                                  ignore_index)
        .view(self.sizes());
  }
  const Tensor valid = target1d.ne(wrapped_scalar_tensor(ignore_index));
  const Tensor safe_target = target1d.masked_fill(valid.logical_not(), 0);
  Tensor w = (weight && weight->defined()) ? weight->index_select(0, safe_target)
                                           : at::ones({target1d.size(0)}, self.scalar_type(), self.device());
  w = w.mul(valid.to(self.scalar_type()));
  Tensor g = grad;
  if (reduction == 0) {
    g = (batched ? g : g.reshape({1})).mul(w);
  } else {
    Tensor coef = w;
    if (reduction == 1) coef = coef.div(w.sum());
    g = coef.mul(g);
  }
  Tensor out = zeros_for(grad, input2d.sizes()).scatter_(1, safe_target.unsqueeze(1), g.neg().unsqueeze(1));
  return batched ? out : out.squeeze(0);
}

Tensor embedding_backward(const Tensor& grad, const Tensor& indices, IntArrayRef weight_sizes, int64_t padding_idx) {
  const Tensor flat = indices.reshape({-1});
  Tensor g = grad.reshape({flat.numel(), weight_sizes[1]});
  if (padding_idx >= 0) g = g.masked_fill(flat.eq(scalar(static_cast<double>(padding_idx), flat)).unsqueeze(1), 0);
  Tensor out = zeros_for(grad, weight_sizes);
  if (flat.numel() > 0) out.index_put_({std::optional<Tensor>(flat)}, g, true);
  return out;
}

Tensor convolution_input_backward(const Tensor& grad, const Tensor& input, const Tensor& weight, IntArrayRef stride,
                                  IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  return weight.dim() == 3 ? native::conv1d_backward_input(grad, input, weight, stride, padding, dilation, groups)
                           : native::conv_backward_input(grad, input, weight, stride, padding, dilation, groups);
}

Tensor convolution_weight_backward(const Tensor& grad, const Tensor& input, const Tensor& weight, IntArrayRef stride,
                                   IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  return weight.dim() == 3 ? native::conv1d_backward_weight(grad, input, weight, stride, padding, dilation, groups)
                           : native::conv_backward_weight(grad, input, weight, stride, padding, dilation, groups);
}

Tensor conv_bias_backward(const Tensor& grad, int64_t spatial_dims) {
  const int64_t channel = grad.dim() - spatial_dims - 1;
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < grad.dim(); ++d)
    if (d != channel) dims.push_back(d);
  return grad.sum(dims, false, std::nullopt);
}

Tensor max_pool_backward(const Tensor& grad, IntArrayRef self_sizes, const Tensor& indices, int64_t nd) {
  return at::_max_pool_backward(grad, indices, self_sizes, nd);
}

// _max_pool_backward's gradient: each output reads the input position its
// maximum came from (a gather within each plane of the last nd dims).
Tensor max_pool_double_backward(const Tensor& grad, const Tensor& indices, int64_t nd) {
  const int64_t lead = indices.dim() - nd;
  std::vector<int64_t> flat(grad.sizes().begin(), grad.sizes().begin() + lead);
  std::vector<int64_t> out_flat(indices.sizes().begin(), indices.sizes().begin() + lead);
  int64_t plane = 1, out_plane = 1;
  for (int64_t d = lead; d < grad.dim(); ++d) plane *= grad.size(d);
  for (int64_t d = lead; d < indices.dim(); ++d) out_plane *= indices.size(d);
  flat.push_back(plane);
  out_flat.push_back(out_plane);
  const Tensor idx = indices.reshape(out_flat);  // -1: a window of padding only, whose output has no source
  return grad.reshape(flat)
      .gather(-1, idx.clamp(Scalar(0), std::nullopt))
      .masked_fill(idx.lt(wrapped_scalar_tensor(0)), 0)
      .view(indices.sizes());
}

}  // namespace at::autograd
