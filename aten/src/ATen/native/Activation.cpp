// threshold, leaky_relu, hardshrink and softshrink: PyTorch's dtype checks
// and formulas; a kernel of their own on the CPU, composed elsewhere.
#include <ATen/ATen.h>
#include <ATen/MemoryOverlap.h>
#include <ATen/NativeFunctions.h>
#include <ATen/ScalarOps.h>
#include <ATen/native/Activation.h>

#include <ATen/autograd/GradMode.h>

#include <limits>

namespace at::native {

DEFINE_DISPATCH(threshold_stub);
DEFINE_DISPATCH(leaky_relu_stub);
DEFINE_DISPATCH(hardshrink_stub);
DEFINE_DISPATCH(softshrink_stub);
DEFINE_DISPATCH(prelu_stub);
DEFINE_DISPATCH(glu_stub);
DEFINE_DISPATCH(glu_backward_stub);
DEFINE_DISPATCH(threshold_backward_stub);
DEFINE_DISPATCH(leaky_relu_backward_stub);
DEFINE_DISPATCH(shrink_backward_stub);
DEFINE_DISPATCH(clamp_backward_stub);
DEFINE_DISPATCH(elu_stub);
DEFINE_DISPATCH(elu_backward_stub);
DEFINE_DISPATCH(softplus_stub);
DEFINE_DISPATCH(hardsigmoid_stub);
DEFINE_DISPATCH(hardswish_stub);
DEFINE_DISPATCH(softplus_backward_stub);
DEFINE_DISPATCH(hardsigmoid_backward_stub);
DEFINE_DISPATCH(hardswish_backward_stub);

namespace {

// "<op>_cpu" not implemented for 'Long', as PyTorch's dispatch names it.
void check_kernel_dtype(const Tensor& self, const char* op, bool integers_too) {
  const ScalarType t = self.scalar_type();
  const bool ok = integers_too ? t != ScalarType::Bool : self.is_floating_point();
  TORCH_CHECK_NOT_IMPLEMENTED(ok, "\"", op, self.is_cuda() ? "_cuda" : "_cpu", "\" not implemented for '", t, "'");
}

Tensor run(const DispatchStub<activation_fn>& stub, const Tensor& self, const Scalar& a, const Scalar& b) {
  auto iter = TensorIteratorConfig().add_output(Tensor()).add_input(self).build();
  stub(iter.device().type, iter, a, b);
  return iter.output();
}

// A 0-d CPU tensor: ops take it beside a tensor of any device.
Tensor scalar_like(const Scalar& s, const Tensor& like) { return scalar_tensor_of(s, like.scalar_type()); }

}  // namespace

Tensor threshold(const Tensor& self, const Scalar& threshold, const Scalar& value) {
  check_kernel_dtype(self, "threshold", true);
  if (self.is_cpu()) return run(threshold_stub, self, threshold, value);
  // x <= threshold ? value : x (NaN stays NaN).
  return at::where(self.le(scalar_like(threshold, self)), scalar_like(value, self), self);
}

Tensor leaky_relu(const Tensor& self, const Scalar& negative_slope) {
  check_kernel_dtype(self, "leaky_relu", false);
  if (self.is_cpu()) return run(leaky_relu_stub, self, negative_slope, 0);
  return at::where(self.gt(scalar_like(0, self)), self, self.mul(scalar_like(negative_slope, self)));
}

// In place in one pass (F.leaky_relu(inplace=True), nn.LeakyReLU(inplace=True)).
const Tensor& leaky_relu_(const Tensor& self, const Scalar& negative_slope) {
  assert_no_internal_overlap(self);  // before the dtype, as PyTorch's checks run
  check_kernel_dtype(self, "leaky_relu", false);
  if (!self.is_cpu()) return self.copy_(at::leaky_relu(self, negative_slope));
  auto iter = TensorIteratorConfig().add_output(self).add_input(self).build();
  leaky_relu_stub(iter.device().type, iter, negative_slope, 0);
  return self;
}

Tensor _prelu_kernel(const Tensor& self, const Tensor& weight) {
  TORCH_CHECK(weight.scalar_type() == self.scalar_type(), "Found dtype ", weight.scalar_type(), " but expected ",
              self.scalar_type());
  check_kernel_dtype(self, "prelu", false);
  if (self.is_cpu() && weight.is_cpu()) {
    auto iter = TensorIteratorConfig().add_output(Tensor()).add_input(self).add_input(weight).build();
    prelu_stub(iter.device().type, iter);
    return iter.output();
  }
  return at::where(self.gt(scalar_like(0, self)), self, self.mul(weight));
}

Tensor hardshrink(const Tensor& self, const Scalar& lambd) {
  check_kernel_dtype(self, "hardshrink", false);
  if (self.is_cpu()) return run(hardshrink_stub, self, lambd, 0);
  const double l = lambd.toDouble();
  return self.masked_fill(self.ge(scalar_like(-l, self)).logical_and(self.le(scalar_like(l, self))), 0);
}

Tensor softshrink(const Tensor& self, const Scalar& lambd) {
  check_kernel_dtype(self, "softshrink", false);
  const double max = AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(self.scalar_type(), "softshrink", [&] {
    return static_cast<double>(std::numeric_limits<scalar_t>::max());
  });
  const double l = lambd.toDouble();
  TORCH_CHECK(l >= 0 && l <= max, "lambda must be in range [0, ", max, "] for input dtype ", self.scalar_type(),
              ", but found ", l);
  if (self.is_cpu()) return run(softshrink_stub, self, lambd, 0);
  const Tensor pos = self.gt(scalar_like(l, self)), neg = self.lt(scalar_like(-l, self));
  return at::where(pos, self.sub(scalar_like(l, self)),
                   at::where(neg, self.add(scalar_like(l, self)), self.mul(scalar_like(0, self))));
}

Tensor softplus(const Tensor& self, const Scalar& beta, const Scalar& threshold) {
  check_kernel_dtype(self, "softplus", false);
  if (self.is_cpu()) return run(softplus_stub, self, beta, threshold);
  const Tensor scaled = self.mul(scalar_like(beta, self));
  return at::where(scaled.gt(scalar_like(threshold, self)), self, at::log1p(at::exp(scaled)).div(scalar_like(beta, self)));
}

Tensor hardsigmoid(const Tensor& self) {
  check_kernel_dtype(self, "hardsigmoid", false);
  if (self.is_cpu()) return run(hardsigmoid_stub, self, 0, 0);
  return self.add(scalar_like(3, self)).clamp(Scalar(0), Scalar(6)).div(scalar_like(6, self));
}

Tensor hardswish(const Tensor& self) {
  check_kernel_dtype(self, "hardswish", false);
  if (self.is_cpu()) return run(hardswish_stub, self, 0, 0);
  return self.mul(self.add(scalar_like(3, self)).clamp(Scalar(0), Scalar(6))).div(scalar_like(6, self));
}

namespace {

// The halves of glu's input along dim, with PyTorch's checks.
std::pair<Tensor, Tensor> glu_halves(const Tensor& self, int64_t dim) {
  TORCH_CHECK(self.dim() > 0, "glu does not support scalars because halving size must be even");
  const int64_t d = c10::maybe_wrap_dim(dim, self.dim());
  const int64_t n = self.size(d);
  TORCH_CHECK(n % 2 == 0, "Halving dimension must be even, but dimension ", d, " is size ", n);
  return {self.narrow(d, 0, n / 2), self.narrow(d, n / 2, n / 2)};
}

}  // namespace

Tensor glu(const Tensor& self, int64_t dim) {
  const auto [a, b] = glu_halves(self, dim);
  check_kernel_dtype(self, "glu", false);
  if (!self.is_cpu()) return a.mul(b.sigmoid());
  auto iter = TensorIteratorConfig().add_output(Tensor()).add_input(a).add_input(b).build();
  glu_stub(iter.device().type, iter);
  return iter.output();
}

Tensor glu_backward(const Tensor& grad, const Tensor& self, int64_t dim) {
  const auto [a, b] = glu_halves(self, dim);
  if (!self.is_cpu() || !grad.is_cpu()) {
    const Tensor s = b.sigmoid(), ga = grad.mul(s);
    return at::cat({ga, ga.mul(a).mul(s.neg().add(scalar_like(1, s)))}, c10::maybe_wrap_dim(dim, self.dim()));
  }
  // The two halves of the gradient written in place into one tensor.
  Tensor out = at::empty(self.sizes(), self.scalar_type(), self.device());
  const int64_t d = c10::maybe_wrap_dim(dim, self.dim()), h = self.size(d) / 2;
  auto iter = TensorIteratorConfig()
                  .add_output(out.narrow(d, 0, h))
                  .add_output(out.narrow(d, h, h))
                  .add_input(grad)
                  .add_input(a)
                  .add_input(b)
                  .build();
  glu_backward_stub(iter.device().type, iter);
  iter.finish();
  return out;
}

Tensor activation_backward(const DispatchStub<activation_backward_fn>& stub, const Tensor& grad, const Tensor& x,
                           double a, double b, double c) {
  if (!grad.is_cpu() || !x.is_cpu() || !grad.is_floating_point() || !x.is_floating_point()) return Tensor();
  // The kernel records nothing: a backward pass that records itself
  // (create_graph) takes the caller's formula in differentiable ops.
  if (autograd::GradMode::is_enabled()) return Tensor();
  auto iter = TensorIteratorConfig()
                  .add_output(Tensor())
                  .add_input(grad)
                  .add_input(x)
                  .promote_inputs_to_common_dtype(true)
                  .build();
  stub(iter.device().type, iter, a, b, c);
  return iter.output();
}

}  // namespace at::native
