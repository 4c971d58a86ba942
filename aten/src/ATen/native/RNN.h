#pragma once
// The gradient of the fused LSTM cell (_lstm_cell in native_functions.yaml).
#include <ATen/core/TensorBody.h>

#include <tuple>

namespace at::native {

// grad_hy or grad_cy may be undefined (no gradient reached that output).
// Returns (grad of gates [B, 4H], grad of cx [B, H]).
TORCH_API std::tuple<Tensor, Tensor> lstm_cell_backward(const Tensor& grad_hy, const Tensor& grad_cy,
                                                        const Tensor& gates, const Tensor& cx, const Tensor& cy);

}  // namespace at::native
