#pragma once
// The gradients of conv1d/conv2d/conv3d with respect to input and weight
// (the bias's is the output gradient summed over all but the channel dim).
// conv_backward_* take a 4-D (conv2d) or 5-D (conv3d) weight.
#include <ATen/core/TensorBody.h>

namespace at::native {

TORCH_API Tensor conv_backward_input(const Tensor& grad, const Tensor& input, const Tensor& weight,
                                       IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, int64_t groups);
TORCH_API Tensor conv_backward_weight(const Tensor& grad, const Tensor& input, const Tensor& weight,
                                        IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, int64_t groups);
TORCH_API Tensor conv1d_backward_input(const Tensor& grad, const Tensor& input, const Tensor& weight,
                                       IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, int64_t groups);
TORCH_API Tensor conv1d_backward_weight(const Tensor& grad, const Tensor& input, const Tensor& weight,
                                        IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, int64_t groups);

}  // namespace at::native
