#pragma once
// Helpers for the backward formulas in native/derivatives.yaml: whatever is
// longer than one line lives here, under a name that says what it computes.
#include <ATen/autograd/GradMode.h>
#include <ATen/autograd/LinalgBackward.h>
#include <ATen/core/TensorBody.h>

#include <optional>
#include <string_view>
#include <tuple>
#include <vector>

#include <ATen/native/Activation.h>
#include <ATen/native/CumulativeProducts.h>
#include <ATen/native/Distance.h>
#include <ATen/native/EmbeddingBag.h>
#include <ATen/native/Indexing.h>
#include <ATen/native/Interpolation.h>
#include <ATen/native/Loss.h>
#include <ATen/native/Normalization.h>
#include <ATen/native/ReduceOps.h>
#include <ATen/native/RNN.h>

namespace at::autograd {

// The fused LSTM cell's gradients (native/RNN.cpp).
using native::lstm_cell_backward;
using native::lstm_sequence_backward;
// cumprod's gradient (native/CumulativeProducts.cpp).
using native::cumprod_backward;
// renorm's gradient (native/ReduceOps.cpp).
using native::renorm_backward;
// native_layer_norm's and native_group_norm's gradients (native/Normalization.cpp, GroupNorm.cpp).
using native::layer_norm_backward;
using native::group_norm_backward;
using native::batch_norm_backward;

// Gradients computed by a kernel that records nothing (or only part of what
// it computes): `compute` runs without recording, and in a backward pass that
// records itself (create_graph) each result gets a node that refuses a
// further derivative (PyTorch's DelayedError) instead of acting as a constant.
TORCH_API Tensor refuse_second_derivative(const Tensor& grad, const char* op);
template <typename... T>
std::tuple<T...> refuse_second_derivative(std::tuple<T...> grads, const char* op) {
  std::apply([&](auto&... g) { ((g = refuse_second_derivative(g, op)), ...); }, grads);
  return grads;
}
template <typename F>
auto once_differentiable(F&& compute, const char* op) {
  const bool recording = GradMode::is_enabled();
  auto grads = [&] {
    AutoGradMode no_grad(false);
    return compute();
  }();
  AutoGradMode restore(recording);
  return refuse_second_derivative(std::move(grads), op);
}

// gelu's second derivative times grad * grad_output (gelu_backward's gradient for self).
Tensor gelu_double_backward(const Tensor& grad, const Tensor& grad_output, const Tensor& self,
                            std::string_view approximate);

// The storage position of every element of a view with this geometry (int64, the view's sizes).
TORCH_API Tensor storage_positions(IntArrayRef sizes, IntArrayRef strides, int64_t offset, Device device);

bool is_expandable_to(IntArrayRef shape, IntArrayRef desired);
// Sums `grad` down to `shape` (undoing broadcasting).
TORCH_API Tensor sum_to(const Tensor& grad, IntArrayRef shape);
Tensor zeros_for(const Tensor& grad, IntArrayRef sizes);

// The pieces' gradients laid side by side along dim, zeros where a piece got none.
Tensor split_with_sizes_backward(const std::vector<Tensor>& grads, IntArrayRef split_sizes, int64_t dim,
                                 IntArrayRef sizes);
Tensor split_backward(const std::vector<Tensor>& grads, int64_t split_size, int64_t dim, IntArrayRef sizes);

Tensor sum_backward(const Tensor& grad, IntArrayRef sizes, OptionalIntArrayRef dims, bool keepdim);
Tensor prod_backward(const Tensor& grad, const Tensor& self, const Tensor& result, std::optional<int64_t> dim,
                     bool keepdim);
// clamp: self gets the gradient where min <= self <= max (ties included);
// a tensor bound gets it where self went past it.
Tensor clamp_self_backward(const Tensor& grad, const Tensor& self, const std::optional<Tensor>& min,
                           const std::optional<Tensor>& max);
Tensor clamp_self_backward(const Tensor& grad, const Tensor& self, const std::optional<Scalar>& min,
                           const std::optional<Scalar>& max);
std::tuple<Tensor, Tensor> clamp_bounds_backward(const Tensor& grad, const Tensor& self, const std::optional<Tensor>& min,
                                                 const std::optional<Tensor>& max);
Tensor var_backward(const Tensor& grad, const Tensor& self, OptionalIntArrayRef dims,
                    const std::optional<Scalar>& correction, bool keepdim);
Tensor std_backward(const Tensor& result, const Tensor& grad, const Tensor& self, OptionalIntArrayRef dims,
                    const std::optional<Scalar>& correction, bool keepdim);
Tensor norm_backward(const Tensor& grad, const Tensor& self, const Scalar& ord, const Tensor& result,
                     OptionalIntArrayRef dims, bool keepdim);
// max(), min(), amax, amin: the gradient is shared evenly by the maxima.
Tensor evenly_distribute_backward(const Tensor& grad, const Tensor& self, const Tensor& result,
                                  OptionalIntArrayRef dims, bool keepdim, bool nan_matches);
// max.dim, min.dim: the gradient goes to the selected index.
Tensor value_selecting_backward(const Tensor& grad, int64_t dim, const Tensor& indices, IntArrayRef sizes,
                                bool keepdim);
Tensor logsumexp_backward(const Tensor& grad, const Tensor& self, const Tensor& result, IntArrayRef dims,
                          bool keepdim);
// cummax, cummin: each running extreme's gradient goes to the element it came from.
Tensor cummaxmin_backward(const Tensor& grad, const Tensor& self, const Tensor& indices, int64_t dim);
Tensor cumsum_backward(const Tensor& grad, int64_t dim);
Tensor logcumsumexp_backward(const Tensor& grad, const Tensor& self, const Tensor& result, int64_t dim);
Tensor softmax_backward(const Tensor& grad, const Tensor& output, int64_t dim);
Tensor log_softmax_backward(const Tensor& grad, const Tensor& output, int64_t dim);

Tensor pow_self_backward(const Tensor& grad, const Tensor& self, const Tensor& exponent);
Tensor pow_exponent_backward(const Tensor& grad, const Tensor& self, const Tensor& exponent, const Tensor& result);
// relu: the gradient where the result is above the threshold (NaN too), as PyTorch's threshold_backward.
Tensor threshold_backward(const Tensor& grad, const Tensor& result, double threshold);
// leaky_relu: the gradient where self > 0, scaled by the slope elsewhere.
Tensor leaky_relu_backward(const Tensor& grad, const Tensor& self, const Scalar& negative_slope);
// hardshrink and softshrink: no gradient inside [-lambd, lambd], all of it elsewhere (NaN too).
Tensor shrink_backward(const Tensor& grad, const Tensor& self, const Scalar& lambd);
// softplus, hardsigmoid, hardswish: PyTorch's derivatives (native/Activation.h has the formulas).
Tensor softplus_backward(const Tensor& grad, const Tensor& self, const Scalar& beta, const Scalar& threshold);
Tensor hardsigmoid_backward(const Tensor& grad, const Tensor& self);
Tensor hardswish_backward(const Tensor& grad, const Tensor& self);
Tensor extremum_backward(const Tensor& grad, const Tensor& self, const Tensor& other, bool self_wins_when_greater);

Tensor select_backward(const Tensor& grad, IntArrayRef sizes, int64_t dim, int64_t index);
// copysign: |self| took other's sign, so the gradient flips where the sign did (0 at self == 0).
Tensor copysign_self_backward(const Tensor& grad, const Tensor& self, const Tensor& result);
// An input PyTorch has no formula for either: backward raises NotImplementedError naming it.
Tensor not_implemented(const char* what);
// d/dx sin(pi x)/(pi x) = (pi x cos(pi x) - sin(pi x)) / (pi x^2), 0 at 0.
Tensor sinc_backward(const Tensor& grad, const Tensor& self);
// 1 / (x (1 - x)); with eps, 0 outside [eps, 1 - eps]; without, NaN outside [0, 1].
Tensor logit_backward(const Tensor& grad, const Tensor& self, std::optional<double> eps);
// atan2's gradient for self (other / (x^2 + y^2)) or other (-self / ...), as PyTorch
// computes it: 0 where x^2 + y^2 is 0.
Tensor atan2_backward(const Tensor& grad, const Tensor& self, const Tensor& other, bool for_self);
// elu: scale where x > 0, else alpha * scale * input_scale * exp(input_scale * x); 16-bit
// inputs computed in float and rounded once, as PyTorch's kernel.
Tensor elu_backward(const Tensor& grad, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale,
                    const Tensor& self);
// d/dx log Gamma_p(x) = sum_j digamma(x - j/2), j < p.
Tensor mvlgamma_backward(const Tensor& grad, const Tensor& self, int64_t p);
// roll back by the negated shifts.
Tensor roll_backward(const Tensor& grad, IntArrayRef shifts, IntArrayRef dims);
// The padded gradient cropped back (and a cropped one padded with zeros).
Tensor constant_pad_nd_backward(const Tensor& grad, IntArrayRef pad);
// reflect (0), replicate (1) or circular (2) padding of t: _pad_backward's own gradient.
Tensor pad_by_mode(const Tensor& t, IntArrayRef pad, int64_t mode);
// The gradient laid on the diagonal of zeros of the input's sizes.
Tensor diagonal_backward(const Tensor& grad, IntArrayRef sizes, int64_t offset, int64_t dim1, int64_t dim2);
Tensor trace_backward(const Tensor& grad, IntArrayRef sizes);
Tensor slice_backward(const Tensor& grad, IntArrayRef sizes, int64_t dim, std::optional<int64_t> start,
                      std::optional<int64_t> end, int64_t step);
Tensor permute_backward(const Tensor& grad, IntArrayRef dims);
Tensor squeeze_backward(const Tensor& grad, IntArrayRef sizes);
Tensor as_strided_backward(const Tensor& grad, const Tensor& self, IntArrayRef size, IntArrayRef stride,
                           std::optional<int64_t> storage_offset);
Tensor index_select_backward(const Tensor& grad, IntArrayRef sizes, int64_t dim, const Tensor& index);
// The gradient of the tensor rows were written into: zero on the overwritten
// rows (all of it flows on with accumulate, which adds instead).
Tensor index_put_rows_self_backward(const Tensor& grad, const Tensor& index, bool accumulate);
// index_add / index_copy: source's gradient is grad's slices at index (times alpha),
// in source's shape (a 0-d source of a 1-d self included).
Tensor index_update_source_backward(const Tensor& grad, int64_t dim, const Tensor& index, IntArrayRef source_sizes,
                                    const Scalar& alpha);
// index_copy: self's gradient is grad with the overwritten slices zeroed.
Tensor index_copy_self_backward(const Tensor& grad, int64_t dim, const Tensor& index);
Tensor gather_backward(const Tensor& grad, IntArrayRef sizes, int64_t dim, const Tensor& index);
std::vector<Tensor> cat_backward(const Tensor& grad, const std::vector<std::vector<int64_t>>& sizes, int64_t dim);
// stack: each input's slice of grad along `dim`.
std::vector<Tensor> stack_backward(const Tensor& grad, int64_t dim, const std::vector<std::vector<int64_t>>& sizes);
// repeat: the copies summed back onto the original shape.
Tensor repeat_backward(const Tensor& grad, IntArrayRef repeats, IntArrayRef sizes);
// mean: the gradient spread evenly over the reduced elements.
Tensor mean_backward(const Tensor& grad, IntArrayRef sizes, OptionalIntArrayRef dims, bool keepdim);
// masked_select: the gradient of the selected elements, zeros elsewhere.
Tensor masked_select_backward(const Tensor& grad, const Tensor& self, const Tensor& mask);

Tensor mse_loss_backward(const Tensor& grad, const Tensor& self, const Tensor& target, int64_t reduction);
// smooth_l1_loss (huber false: d / beta inside |d| < beta, sign(d) outside)
// and huber_loss (huber true: d clamped to [-delta, delta]), d = self - target.
Tensor piecewise_loss_backward(const Tensor& grad, const Tensor& self, const Tensor& target, int64_t reduction,
                               double width, bool huber);
Tensor nll_loss_backward(const Tensor& grad, const Tensor& self, const Tensor& target,
                         const std::optional<Tensor>& weight, int64_t reduction, int64_t ignore_index);

// embedding: each index's row adds up its gradient; padding_idx's row gets none.
Tensor embedding_backward(const Tensor& grad, const Tensor& indices, IntArrayRef weight_sizes, int64_t padding_idx);
// conv1d/conv2d/conv3d: see native/Convolution.h; the bias's gradient sums all but the channel dim.
Tensor conv_bias_backward(const Tensor& grad, int64_t spatial_dims);
// _convolution_batched: conv1d's, conv2d's or conv3d's gradients by the weight's dims.
Tensor convolution_input_backward(const Tensor& grad, const Tensor& input, const Tensor& weight, IntArrayRef stride,
                                  IntArrayRef padding, IntArrayRef dilation, int64_t groups);
Tensor convolution_weight_backward(const Tensor& grad, const Tensor& input, const Tensor& weight, IntArrayRef stride,
                                   IntArrayRef padding, IntArrayRef dilation, int64_t groups);
// max_pool2d and adaptive_max_pool2d/3d: each output's gradient goes to the input element it took (nd: the pooled dims).
Tensor max_pool_backward(const Tensor& grad, IntArrayRef self_sizes, const Tensor& indices, int64_t nd);
Tensor max_pool_double_backward(const Tensor& grad, const Tensor& indices, int64_t nd);

}  // namespace at::autograd
