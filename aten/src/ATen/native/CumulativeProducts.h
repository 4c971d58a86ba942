#pragma once
// cumprod's kernel and its gradient (native/CumulativeProducts.cpp).
#include <ATen/core/TensorBody.h>

namespace at::native {

// The gradient of result = cumprod(self, dim): exact where self holds
// zeros (no division by them), as PyTorch's cumprod_backward.
TORCH_API Tensor cumprod_backward(const Tensor& grad, const Tensor& self, int64_t dim, const Tensor& result);

}  // namespace at::native
