// Batch normalisation: each channel (dim 1) shifted to mean 0 and scaled to
// variance 1 over the batch and spatial dims (biased, plus eps), then scaled
// by weight and shifted by bias, as one multiply-add per element with a
// per-channel scale and shift. Training uses the batch's statistics and moves
// the running ones toward them (momentum; the running variance unbiased, as
// PyTorch's); evaluation uses the running ones. _batch_norm returns the
// mean and 1 / sqrt(var + eps) it used in either mode, so the gradient never
// reads the running buffers (which a second forward pass overwrites).
// batch_norm_backward is PyTorch's closed form over at:: ops: when it is
// itself recorded (create_graph), the statistics are recomputed from the
// input so that the second derivative includes their dependence on it.
#include <ATen/ATen.h>
#include <ATen/ScalarOps.h>
#include <ATen/autograd/GradMode.h>
#include <ATen/native/Normalization.h>

#include <vector>

namespace at::native {
namespace {

// The dims each channel's statistics reduce: the batch and every spatial dim.
std::vector<int64_t> reduced_dims(const Tensor& input) {
  std::vector<int64_t> dims = {0};
  for (int64_t d = 2; d < input.dim(); ++d) dims.push_back(d);
  return dims;
}

// [1, C, 1, ...]: a per-channel tensor broadcast against the input.
std::vector<int64_t> channel_shape(const Tensor& input) {
  std::vector<int64_t> shape(input.dim(), 1);
  shape[1] = input.size(1);
  return shape;
}

const Tensor* defined(const std::optional<Tensor>& t) { return t && t->defined() ? &*t : nullptr; }

void check_channels(const std::optional<Tensor>& t, const char* name, int64_t channels) {
  if (const Tensor* p = defined(t)) {
    TORCH_CHECK(p->numel() == channels, name, " should contain ", channels, " elements not ", p->numel());
  }
}

Tensor scalar(double value, const Tensor& like) { return scalar_tensor(value, like.scalar_type(), like.device()); }

}  // namespace

std::tuple<Tensor, Tensor, Tensor> _batch_norm(const Tensor& input, const std::optional<Tensor>& weight,
                                               const std::optional<Tensor>& bias,
                                               const std::optional<Tensor>& running_mean,
                                               const std::optional<Tensor>& running_var, bool training,
                                               double momentum, double eps) {
  TORCH_CHECK(input.dim() >= 2, "batch_norm: expected at least 2D input (got ", input.dim(), "D input)");
  const int64_t channels = input.size(1);
  check_channels(weight, "weight", channels);
  check_channels(bias, "bias", channels);
  check_channels(running_mean, "running_mean", channels);
  check_channels(running_var, "running_var", channels);
  const Tensor* rm = defined(running_mean);
  const Tensor* rv = defined(running_var);
  TORCH_CHECK(training || (rm && rv), "running_mean and running_var must be defined in evaluation mode");
  const std::vector<int64_t> dims = reduced_dims(input), shape = channel_shape(input);
  // float16/bfloat16 statistics in float32, as PyTorch's CPU kernel keeps them.
  const bool reduced = input.scalar_type() == ScalarType::Half || input.scalar_type() == ScalarType::BFloat16;
  const ScalarType stat_type = reduced ? ScalarType::Float : input.scalar_type();
  const Tensor x = input.to(stat_type);
  Tensor mean, invstd;
  if (training) {
    const int64_t count = channels == 0 ? 0 : input.numel() / channels;
    TORCH_CHECK(count > 1, "Expected more than 1 value per channel when training, got input size ", input.sizes());
    mean = x.mean(IntArrayRef(dims), /*keepdim=*/false, std::nullopt);
    const Tensor var = x.var(IntArrayRef(dims), /*unbiased=*/false, /*keepdim=*/false);
    invstd = var.add(scalar(eps, var)).rsqrt();
    if (rm || rv) {  // the running statistics are buffers: updated without history
      autograd::AutoGradMode no_grad(false);
      const double unbias = static_cast<double>(count) / static_cast<double>(count - 1);
      if (rm) rm->mul_(scalar(1 - momentum, *rm)).add_(mean.mul(scalar(momentum, mean)));
      if (rv) rv->mul_(scalar(1 - momentum, *rv)).add_(var.mul(scalar(momentum * unbias, var)));
    }
  } else {
    mean = rm->to(stat_type);
    invstd = rv->to(stat_type).add(scalar(eps, x)).rsqrt();
  }
  // out = input * scale + shift, scale = invstd * weight, shift = bias - mean * scale.
  Tensor scale = invstd;
  if (const Tensor* w = defined(weight)) scale = scale.mul(w->to(stat_type));
  Tensor shift = mean.mul(scale).neg();
  if (const Tensor* b = defined(bias)) shift = shift.add(b->to(stat_type));
  const Tensor out = at::addcmul(shift.view(shape), x, scale.view(shape));
  return {out.to(input.scalar_type()), mean, invstd};
}

std::tuple<Tensor, Tensor, Tensor> batch_norm_backward(const Tensor& grad, const Tensor& input,
                                                       const std::optional<Tensor>& weight, const Tensor& mean_used,
                                                       const Tensor& invstd_used, bool training, double eps) {
  if (!grad.defined()) return {};
  const std::vector<int64_t> dims = reduced_dims(input), shape = channel_shape(input);
  const int64_t channels = input.size(1);
  const int64_t count = channels == 0 ? 0 : input.numel() / channels;
  Tensor mean = mean_used, invstd = invstd_used;
  if (training && autograd::GradMode::is_enabled()) {
    const Tensor x = input.to(mean_used.scalar_type());
    mean = x.mean(IntArrayRef(dims), false, std::nullopt);
    invstd = x.var(IntArrayRef(dims), false, false).add(scalar(eps, x)).rsqrt();
  }
  const Tensor* w = defined(weight);
  const ScalarType stat_type = mean.scalar_type();  // float32 for float16/bfloat16 inputs, as the forward
  const Tensor g = grad.to(stat_type);
  const Tensor xhat = input.to(stat_type).sub(mean.view(shape)).mul(invstd.view(shape));
  const Tensor grad_bias = g.sum(IntArrayRef(dims), false, std::nullopt);
  const Tensor grad_xhat_sum = g.mul(xhat).sum(IntArrayRef(dims), false, std::nullopt);
  const Tensor scale = w ? invstd.mul(w->to(stat_type)) : invstd;
  Tensor grad_input;
  if (training) {
    // g - mean(g) - xhat * mean(g * xhat), per channel, times weight * invstd.
    const Tensor n = scalar(static_cast<double>(count), grad_bias);
    grad_input = g.sub(grad_bias.div(n).view(shape))
                     .sub(xhat.mul(grad_xhat_sum.div(n).view(shape)))
                     .mul(scale.view(shape));
  } else {
    grad_input = g.mul(scale.view(shape));
  }
  // Each gradient in its input's dtype.
  const Tensor grad_weight = w ? grad_xhat_sum.to(w->scalar_type()) : Tensor();
  return {grad_input.to(input.scalar_type()), grad_weight, grad_bias.to(w ? w->scalar_type() : input.scalar_type())};
}

}  // namespace at::native
