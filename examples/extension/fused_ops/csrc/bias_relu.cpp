// The fused_ops operators and their CPU kernels: relu(x + bias) in one pass
// over memory, and its backward (the gradient where the output is positive).
#include <torch/extension.h>

namespace fused_ops {

namespace {

void check_inputs(const at::Tensor& x, const at::Tensor& bias) {
  TORCH_CHECK(x.dim() >= 1, "bias_relu: x must have at least one dimension");
  TORCH_CHECK(bias.dim() == 1 && bias.size(0) == x.size(-1), "bias_relu: bias must be 1-d with x.size(-1) = ",
              x.size(-1), " elements, got shape ", bias.sizes());
  TORCH_CHECK(x.scalar_type() == bias.scalar_type(), "bias_relu: x is ", x.scalar_type(), " but bias is ",
              bias.scalar_type());
  TORCH_CHECK(x.device() == bias.device(), "bias_relu: x and bias must be on the same device");
}

}  // namespace

at::Tensor bias_relu_cpu(const at::Tensor& x_in, const at::Tensor& bias_in) {
  check_inputs(x_in, bias_in);
  at::Tensor x = x_in.contiguous(), bias = bias_in.contiguous();
  at::Tensor out = at::empty_like(x);
  const int64_t n = x.numel(), cols = bias.numel();
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "bias_relu", [&] {
    const scalar_t* xp = x.data_ptr<scalar_t>();
    const scalar_t* bp = bias.data_ptr<scalar_t>();
    scalar_t* op = out.data_ptr<scalar_t>();
    for (int64_t i = 0; i < n; ++i) {
      const scalar_t v = xp[i] + bp[i % cols];
      op[i] = v > scalar_t(0) ? v : scalar_t(0);
    }
  });
  return out;
}

at::Tensor bias_relu_backward_cpu(const at::Tensor& grad_in, const at::Tensor& out_in) {
  TORCH_CHECK(grad_in.sizes() == out_in.sizes(), "bias_relu_backward: grad has shape ", grad_in.sizes(),
              " but the output has ", out_in.sizes());
  at::Tensor grad = grad_in.contiguous(), out = out_in.contiguous();
  at::Tensor result = at::empty_like(grad);
  AT_DISPATCH_FLOATING_TYPES(grad.scalar_type(), "bias_relu_backward", [&] {
    const scalar_t* gp = grad.data_ptr<scalar_t>();
    const scalar_t* op = out.data_ptr<scalar_t>();
    scalar_t* rp = result.data_ptr<scalar_t>();
    for (int64_t i = 0, n = grad.numel(); i < n; ++i) rp[i] = op[i] > scalar_t(0) ? gp[i] : scalar_t(0);
  });
  return result;
}

}  // namespace fused_ops

TORCH_LIBRARY(fused_ops, m) {
  m.def("bias_relu(Tensor x, Tensor bias) -> Tensor");
  m.def("bias_relu_backward(Tensor grad, Tensor out) -> Tensor");
}

TORCH_LIBRARY_IMPL(fused_ops, CPU, m) {
  m.impl("bias_relu", &fused_ops::bias_relu_cpu);
  m.impl("bias_relu_backward", &fused_ops::bias_relu_backward_cpu);
}
