#pragma once
// The gradient of native_layer_norm (native_functions.yaml).
#include <ATen/core/TensorBody.h>

#include <optional>
#include <tuple>

namespace at::native {

// grad may be undefined (only mean or rstd were used): then every gradient is.
// mean and rstd are native_layer_norm's second and third outputs. Returns the
// gradients of (input, weight, bias); weight's is undefined without a weight.
TORCH_API std::tuple<Tensor, Tensor, Tensor> layer_norm_backward(const Tensor& grad, const Tensor& input,
                                                                 IntArrayRef normalized_shape,
                                                                 const std::optional<Tensor>& weight,
                                                                 const Tensor& mean, const Tensor& rstd);

}  // namespace at::native
