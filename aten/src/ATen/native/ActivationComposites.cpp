// Activations made of other ops, with a node of their own (derivatives.yaml),
// as PyTorch's kernels have; elu has a kernel on the CPU (Activation.h).
#include <ATen/ATen.h>
#include <ATen/NativeFunctions.h>
#include <ATen/ScalarOps.h>
#include <ATen/native/Activation.h>

namespace at::native {

// scale * x for x > 0, else alpha * scale * (exp(input_scale * x) - 1).
Tensor elu(const Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  TORCH_CHECK_NOT_IMPLEMENTED(self.is_floating_point(), "\"elu_", self.is_cuda() ? "cuda" : "cpu",
                              "\" not implemented for '", self.scalar_type(), "'");
  // PyTorch's kernel takes the coefficients in its compute type: float below double.
  const ScalarType compute = self.scalar_type() == ScalarType::Double ? ScalarType::Double : ScalarType::Float;
  for (const Scalar* s : {&alpha, &scale, &input_scale}) check_scalar_fits(*s, compute);
  if (self.is_cpu()) {
    auto iter = TensorIteratorConfig().add_output(Tensor()).add_input(self).build();
    elu_stub(iter.device().type, iter, alpha.toDouble(), scale.toDouble(), input_scale.toDouble());
    return iter.output();
  }
  // In the compute type, rounded once: exp may pass float16's range before alpha * scale
  // brings it back.
  const Tensor x = self.scalar_type() == compute ? self : self.to(compute);
  // Clamped before exp, so the branch not taken cannot overflow.
  const Tensor negative = at::expm1(at::clamp(x, std::nullopt, Scalar(0)) * input_scale) * alpha * scale;
  // x = 0 takes the positive branch (x * scale), as PyTorch's kernel does: they differ
  // only with an infinite input_scale, where the negative one is NaN.
  const Tensor result = at::where(x < 0, negative, x * scale);
  return result.scalar_type() == self.scalar_type() ? result : result.to(self.scalar_type());
}

}  // namespace at::native
