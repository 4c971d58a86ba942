#pragma once
// _interp_linear's gradient (Interpolation.cpp, beside the forward), for
// derivatives.yaml.
#include <ATen/core/TensorBody.h>

namespace at::native {

TORCH_API at::Tensor interp_linear_backward(const at::Tensor& grad, at::IntArrayRef self_sizes, int64_t dim,
                                            const at::Tensor& low, const at::Tensor& weight);

}  // namespace at::native
