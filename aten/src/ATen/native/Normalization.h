#pragma once
// The gradients of native_layer_norm, native_group_norm and _batch_norm (native_functions.yaml).
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

// mean and rstd are native_group_norm's second and third outputs ([N, group]).
// Returns the gradients of (input, weight, bias); weight's is undefined
// without a weight, bias's is always computed (the sums of grad per channel).
TORCH_API std::tuple<Tensor, Tensor, Tensor> group_norm_backward(const Tensor& grad, const Tensor& input,
                                                                 const Tensor& mean, const Tensor& rstd,
                                                                 const std::optional<Tensor>& weight, int64_t N,
                                                                 int64_t C, int64_t HxW, int64_t group);

// mean and invstd are _batch_norm's second and third outputs (the statistics
// it used, batch or running). Returns the gradients of (input, weight, bias);
// weight's is undefined without a weight.
TORCH_API std::tuple<Tensor, Tensor, Tensor> batch_norm_backward(const Tensor& grad, const Tensor& input,
                                                                 const std::optional<Tensor>& weight,
                                                                 const Tensor& mean, const Tensor& invstd,
                                                                 bool training, double eps);

}  // namespace at::native
