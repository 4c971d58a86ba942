// The CUDA kernels of fused_ops, registered for tensors on a GPU. Built only
// when torch is a CUDA variant (setup.py); launched on torch's current stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>

#include <algorithm>

namespace fused_ops {

namespace {

template <typename scalar_t>
__global__ void bias_relu_kernel(const scalar_t* x, const scalar_t* bias, scalar_t* out, int64_t n, int64_t cols) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(blockDim.x) * gridDim.x) {
    const scalar_t v = x[i] + bias[i % cols];
    out[i] = v > scalar_t(0) ? v : scalar_t(0);
  }
}

template <typename scalar_t>
__global__ void bias_relu_backward_kernel(const scalar_t* grad, const scalar_t* out, scalar_t* result, int64_t n) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < n; i += int64_t(blockDim.x) * gridDim.x)
    result[i] = out[i] > scalar_t(0) ? grad[i] : scalar_t(0);
}

unsigned blocks_for(int64_t n) { return static_cast<unsigned>(std::min<int64_t>((n + 255) / 256, 65535)); }

}  // namespace

at::Tensor bias_relu_cuda(const at::Tensor& x_in, const at::Tensor& bias_in) {
  TORCH_CHECK(x_in.dim() >= 1 && bias_in.dim() == 1 && bias_in.size(0) == x_in.size(-1),
              "bias_relu: bias must be 1-d with x.size(-1) elements");
  TORCH_CHECK(x_in.scalar_type() == bias_in.scalar_type() && x_in.device() == bias_in.device(),
              "bias_relu: x and bias must have the same dtype and device");
  at::cuda::CUDAGuard device_guard(x_in.device().index);
  at::Tensor x = x_in.contiguous(), bias = bias_in.contiguous();
  at::Tensor out = at::empty_like(x);
  const int64_t n = x.numel();
  if (n == 0) return out;
  AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "bias_relu_cuda", [&] {
    bias_relu_kernel<scalar_t><<<blocks_for(n), 256, 0, at::cuda::current_stream()>>>(
        x.data_ptr<scalar_t>(), bias.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n, bias.numel());
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return out;
}

at::Tensor bias_relu_backward_cuda(const at::Tensor& grad_in, const at::Tensor& out_in) {
  TORCH_CHECK(grad_in.sizes() == out_in.sizes(), "bias_relu_backward: grad and output shapes differ");
  at::cuda::CUDAGuard device_guard(grad_in.device().index);
  at::Tensor grad = grad_in.contiguous(), out = out_in.contiguous();
  at::Tensor result = at::empty_like(grad);
  const int64_t n = grad.numel();
  if (n == 0) return result;
  AT_DISPATCH_FLOATING_TYPES(grad.scalar_type(), "bias_relu_backward_cuda", [&] {
    bias_relu_backward_kernel<scalar_t><<<blocks_for(n), 256, 0, at::cuda::current_stream()>>>(
        grad.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), result.data_ptr<scalar_t>(), n);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return result;
}

}  // namespace fused_ops

TORCH_LIBRARY_IMPL(fused_ops, CUDA, m) {
  m.impl("bias_relu", &fused_ops::bias_relu_cuda);
  m.impl("bias_relu_backward", &fused_ops::bias_relu_backward_cuda);
}
