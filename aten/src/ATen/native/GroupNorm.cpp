// Group normalisation: input [N, C, *] is split into `group` groups of C /
// group channels; each (sample, group) block is shifted to mean 0 and scaled
// to variance 1 (biased, plus eps), then each channel scaled by weight[c] and
// shifted by bias[c]. One parallel pass over the blocks for contiguous float
// and double CPU tensors, forward and backward; float16/bfloat16 run it in
// float32, other devices the same equations over at:: ops. Returns mean and
// rstd (1 / sqrt(var + eps)) shaped [N, group], as PyTorch's native_group_norm.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/ScalarOps.h>
#include <ATen/native/FloatOrDouble.h>
#include <ATen/native/Normalization.h>
#include <ATen/native/RowMoments.h>
#include <ATen/native/cpu/VecMath.h>

#include <cmath>
#include <vector>

namespace at::native {

namespace {

const Tensor* defined(const std::optional<Tensor>& t) { return t && t->defined() ? &*t : nullptr; }

// PyTorch's rule for parameters of another dtype than the input: they must
// be float32, and the input float16 or bfloat16, normalised in float32.
bool is_mixed_group_norm(const Tensor& input, const Tensor* weight, const Tensor* bias) {
  const Tensor* first = weight ? weight : bias;
  if (!first || first->scalar_type() == input.scalar_type()) return false;
  for (const Tensor* p : {weight, bias})
    TORCH_CHECK(!p || p->scalar_type() == ScalarType::Float,
                "mixed dtype (CPU): expect parameter to have scalar type of Float");
  TORCH_CHECK(input.scalar_type() == ScalarType::Half || input.scalar_type() == ScalarType::BFloat16,
              "mixed dtype (CPU): all inputs must share same datatype.");
  return true;
}

void check_group_norm(const Tensor& input, const Tensor* weight, const Tensor* bias, int64_t N, int64_t C,
                      int64_t HxW, int64_t group) {
  TORCH_CHECK(group > 0, "Expected num groups to be greater than 0, got ", group);
  TORCH_CHECK(C % group == 0, "Expected number of channels in input to be divisible by num_groups, but got input of "
                              "shape ", input.sizes(), " and num_groups=", group);
  for (auto [p, name] : {std::pair{weight, "weight"}, std::pair{bias, "bias"}})
    TORCH_CHECK(!p || (p->dim() == 1 && p->numel() == C), "Expected ", name,
                " to be a vector of size equal to the number of channels in input, but got ", name, " of shape ",
                p->sizes(), " and input of shape ", input.sizes());
  // group_norm hands the kernel a contiguous input; a caller of native_group_norm must too.
  TORCH_CHECK(input.is_contiguous(), "Expected X.is_contiguous(memory_format) to be true, but got false.  (Could this "
              "error message be improved?  If so, please report an enhancement request to PyTorch.)");
  TORCH_CHECK_NOT_IMPLEMENTED(input.is_floating_point(), "\"GroupNormKernelImpl\" not implemented for '",
                              input.scalar_type(), "'");
  // PyTorch's kernel trusts N, C and HxW (and reads past the input when they lie); here they are checked.
  TORCH_CHECK(input.dim() >= 2 && input.size(0) == N && input.size(1) == C && input.numel() == N * C * HxW,
              "native_group_norm: N=", N, ", C=", C, " and HxW=", HxW, " do not describe an input of shape ",
              input.sizes());
  if (is_mixed_group_norm(input, weight, bias)) return;
  for (const Tensor* p : {weight, bias})
    TORCH_CHECK(!p || p->scalar_type() == input.scalar_type(), "expected scalar type ", input.scalar_type(),
                " but found ", p->scalar_type());
}

// Per block of D channels x HxW: mean and rstd, then y = x * a + shift per
// channel with a = rstd * w[c] and shift = b[c] - mean * a.
template <typename T>
void forward_blocks(const T* x, const T* w, const T* b, T* y, T* mean_out, T* rstd_out, int64_t N, int64_t C,
                    int64_t HxW, int64_t group, double eps) {
  const int64_t D = C / group, cols = D * HxW, rows = N * group;
  parallel_for(0, rows, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(cols, 1)), [&](int64_t lo, int64_t hi) {
    for (int64_t r = lo; r < hi; ++r) {
      const T* xr = x + r * cols;
      T* yr = y + r * cols;
      T mean, rstd;
      if constexpr (std::is_same_v<T, float>) {  // the vector lanes' statistics; y is rewritten below
        vec_layer_norm_rows_stub(c10::DeviceType::CPU, xr, nullptr, nullptr, yr, &mean, &rstd, 1, cols, eps);
      } else {
        mean = static_cast<T>(row_sum(xr, cols) / static_cast<double>(cols));
        rstd = static_cast<T>(1.0 / std::sqrt(squared_deviation(xr, mean, cols) / static_cast<double>(cols) + eps));
      }
      mean_out[r] = mean;
      rstd_out[r] = rstd;
      const int64_t c0 = (r % group) * D;
      for (int64_t d = 0; d < D; ++d) {
        const T a = rstd * (w ? w[c0 + d] : T(1));
        const T shift = (b ? b[c0 + d] : T(0)) - mean * a;
        const T* xc = xr + d * HxW;
        T* yc = yr + d * HxW;
        for (int64_t i = 0; i < HxW; ++i) yc[i] = xc[i] * a + shift;
      }
    }
  });
}

// With xhat = (x - mean) * rstd, g = dy * w and means over the block:
// dx = rstd * (g - mean(g) - xhat * mean(g * xhat)), which per channel is
// dx = a * dy + c2 * x + c3. The channel sums sum(dy * (x - mean)) and
// sum(dy) it needs are kept per (n, c): the weight's and bias's gradients
// are their sums over n.
template <typename T>
void backward_blocks(const T* dy, const T* x, const T* w, const T* mean, const T* rstd, T* dx, T* dw, T* db,
                     int64_t N, int64_t C, int64_t HxW, int64_t group) {
  const int64_t D = C / group, cols = D * HxW, rows = N * group;
  std::vector<double> centred(N * C), plain(N * C);
  parallel_for(0, rows, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(cols, 1)), [&](int64_t lo, int64_t hi) {
    for (int64_t r = lo; r < hi; ++r) {
      const int64_t n = r / group, c0 = (r % group) * D;
      const T m = mean[r], s = rstd[r];
      double sum_centred = 0, sum_plain = 0;
      for (int64_t d = 0; d < D; ++d) {
        const int64_t nc = n * C + c0 + d;
        shifted_dot_and_sum(dy + nc * HxW, x + nc * HxW, m, HxW, centred[nc], plain[nc]);
        const double wc = w ? static_cast<double>(w[c0 + d]) : 1.0;
        sum_centred += centred[nc] * wc;
        sum_plain += plain[nc] * wc;
      }
      const double inv = 1.0 / static_cast<double>(cols);
      const double c2 = -static_cast<double>(s) * s * s * inv * sum_centred;
      const T c3 = static_cast<T>(-c2 * m - static_cast<double>(s) * inv * sum_plain);
      for (int64_t d = 0; d < D; ++d) {
        const int64_t off = (n * C + c0 + d) * HxW;
        const T a = s * (w ? w[c0 + d] : T(1)), c2t = static_cast<T>(c2);
        for (int64_t i = 0; i < HxW; ++i) dx[off + i] = a * dy[off + i] + c2t * x[off + i] + c3;
      }
    }
  });
  for (int64_t c = 0; c < C; ++c) {
    double gw = 0, gb = 0;
    for (int64_t n = 0; n < N; ++n) {
      const int64_t r = n * group + c / D;
      gw += centred[n * C + c] * static_cast<double>(rstd[r]);
      gb += plain[n * C + c];
    }
    if (dw) dw[c] = static_cast<T>(gw);
    db[c] = static_cast<T>(gb);
  }
}

std::vector<int64_t> affine_shape(const Tensor& input) {
  std::vector<int64_t> shape(input.dim(), 1);
  shape[1] = input.size(1);
  return shape;
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> native_group_norm(const Tensor& input, const std::optional<Tensor>& weight,
                                                     const std::optional<Tensor>& bias, int64_t N, int64_t C,
                                                     int64_t HxW, int64_t group, double eps) {
  const Tensor* w = defined(weight);
  const Tensor* b = defined(bias);
  check_group_norm(input, w, b, N, C, HxW, group);
  const ScalarType dtype = input.scalar_type();
  if (input.device().is_cpu() && !is_cpu_float_or_double(input)) {  // float16/bfloat16: in float32
    const std::optional<Tensor> wf = w ? std::optional<Tensor>(w->to(ScalarType::Float)) : std::nullopt;
    const std::optional<Tensor> bf = b ? std::optional<Tensor>(b->to(ScalarType::Float)) : std::nullopt;
    auto [out, mean, rstd] = native::native_group_norm(input.to(ScalarType::Float), wf, bf, N, C, HxW, group, eps);
    if (is_mixed_group_norm(input, w, b)) return {out.to(dtype), mean, rstd};
    return {out.to(dtype), mean.to(dtype), rstd.to(dtype)};
  }
  if (!input.device().is_cpu()) {
    const Tensor x = input.reshape({N, group, -1});
    const Tensor mean = x.mean(IntArrayRef{2}, /*keepdim=*/true, std::nullopt);
    const Tensor var = x.var(IntArrayRef{2}, /*unbiased=*/false, /*keepdim=*/true);
    const Tensor rstd = var.add(scalar_tensor(eps, var.scalar_type(), var.device())).rsqrt();
    Tensor out = x.sub(mean).mul(rstd).reshape(input.sizes());
    if (w) out = out.mul(w->reshape(affine_shape(input)));
    if (b) out = out.add(b->reshape(affine_shape(input)));
    return {out, mean.reshape({N, group}), rstd.reshape({N, group})};
  }
  Tensor out = at::empty(input.sizes(), dtype, input.device());
  Tensor mean = at::empty({N, group}, dtype, input.device());
  Tensor rstd = at::empty({N, group}, dtype, input.device());
  if (C * HxW == 0) {  // empty blocks: PyTorch's kernel leaves mean 0 and rstd NaN
    mean.zero_();
    rstd.fill_(std::numeric_limits<double>::quiet_NaN());
  }
  if (input.numel() == 0) return {out, mean, rstd};
  const Tensor x = input.contiguous();
  const Tensor wc = w ? w->contiguous() : Tensor(), bc = b ? b->contiguous() : Tensor();
  for_float_or_double(dtype, [&](auto tag) {
    using T = decltype(tag);
    forward_blocks<T>(x.data_ptr<T>(), w ? wc.data_ptr<T>() : nullptr, b ? bc.data_ptr<T>() : nullptr,
                      out.data_ptr<T>(), mean.data_ptr<T>(), rstd.data_ptr<T>(), N, C, HxW, group, eps);
  });
  return {out, mean, rstd};
}

std::tuple<Tensor, Tensor, Tensor> group_norm_backward(const Tensor& grad, const Tensor& input, const Tensor& mean,
                                                       const Tensor& rstd, const std::optional<Tensor>& weight,
                                                       int64_t N, int64_t C, int64_t HxW, int64_t group) {
  if (!grad.defined()) return {};
  const Tensor* w = defined(weight);
  const ScalarType dtype = input.scalar_type();
  if (input.device().is_cpu() && !is_cpu_float_or_double(input)) {  // as the forward: in float32
    const std::optional<Tensor> wf = w ? std::optional<Tensor>(w->to(ScalarType::Float)) : std::nullopt;
    auto [dx, dw, db] = native::group_norm_backward(grad.to(ScalarType::Float), input.to(ScalarType::Float),
                                                    mean.to(ScalarType::Float), rstd.to(ScalarType::Float), wf, N,
                                                    C, HxW, group);
    const ScalarType param = w ? w->scalar_type() : dtype;
    return {dx.to(dtype), dw.defined() ? dw.to(param) : dw, db.to(param)};
  }
  if (!input.device().is_cpu() || grad.scalar_type() != dtype) {
    const Tensor x = input.reshape({N, group, -1});
    const Tensor m = mean.reshape({N, group, 1}), s = rstd.reshape({N, group, 1});
    const Tensor xhat = x.sub(m).mul(s).reshape(input.sizes());
    const Tensor g = w ? grad.mul(w->reshape(affine_shape(input))) : grad;
    const Tensor gr = g.reshape({N, group, -1}), xr = xhat.reshape({N, group, -1});
    const Tensor dx = gr.sub(gr.mean(IntArrayRef{2}, true, std::nullopt))
                          .sub(xr.mul(gr.mul(xr).mean(IntArrayRef{2}, true, std::nullopt)))
                          .mul(s)
                          .reshape(input.sizes());
    std::vector<int64_t> reduce{0};
    for (int64_t d = 2; d < input.dim(); ++d) reduce.push_back(d);
    const Tensor dw = w ? grad.mul(xhat).sum(IntArrayRef(reduce), false, std::nullopt) : Tensor();
    return {dx, dw, grad.sum(IntArrayRef(reduce), false, std::nullopt)};
  }
  Tensor dx = at::empty(input.sizes(), dtype, input.device());
  Tensor dw = w ? at::zeros({C}, dtype, input.device()) : Tensor();
  Tensor db = at::zeros({C}, dtype, input.device());
  if (input.numel() == 0) return {dx, dw, db};
  const Tensor dy = grad.contiguous(), x = input.contiguous(), m = mean.contiguous(), s = rstd.contiguous();
  const Tensor wc = w ? w->contiguous() : Tensor();
  for_float_or_double(dtype, [&](auto tag) {
    using T = decltype(tag);
    backward_blocks<T>(dy.data_ptr<T>(), x.data_ptr<T>(), w ? wc.data_ptr<T>() : nullptr, m.data_ptr<T>(),
                       s.data_ptr<T>(), dx.data_ptr<T>(), w ? dw.data_ptr<T>() : nullptr, db.data_ptr<T>(), N, C, HxW,
                       group);
  });
  return {dx, dw, db};
}

Tensor group_norm(const Tensor& input, int64_t num_groups, const std::optional<Tensor>& weight,
                  const std::optional<Tensor>& bias, double eps, bool cudnn_enabled) {
  (void)cudnn_enabled;
  const int64_t N = input.size(0), C = input.size(1);
  int64_t HxW = 1;
  for (int64_t d = 2; d < input.dim(); ++d) HxW *= input.size(d);
  return std::get<0>(at::native_group_norm(input.contiguous(), weight, bias, N, C, HxW, num_groups, eps));
}

}  // namespace at::native
