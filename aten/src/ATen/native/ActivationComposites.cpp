// Activations made of other ops: autograd differentiates them through those.
#include <ATen/ATen.h>
#include <ATen/NativeFunctions.h>

namespace at::native {

// scale * x for x > 0, else alpha * scale * (exp(input_scale * x) - 1).
Tensor elu(const Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  TORCH_CHECK_NOT_IMPLEMENTED(self.is_floating_point(), "\"elu_", self.is_cuda() ? "cuda" : "cpu",
                              "\" not implemented for '", self.scalar_type(), "'");
  // Clamped before exp: the branch not taken must not overflow into the gradient.
  Tensor negative = at::expm1(at::clamp(self, std::nullopt, Scalar(0)) * input_scale) * alpha * scale;
  return at::where(self > 0, self * scale, negative);
}

}  // namespace at::native
