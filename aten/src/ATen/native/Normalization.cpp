// Layer normalisation: each row of the trailing `normalized_shape` dims is
// shifted to mean 0 and scaled to variance 1 (biased, plus eps), then scaled
// by weight and shifted by bias. One pass per row on contiguous float and
// double CPU tensors, forward and backward; other devices and dtypes run the
// same equations over at:: ops. Returns mean and rstd (1 / sqrt(var + eps))
// shaped [*batch, 1, ..., 1], as PyTorch's native_layer_norm does.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/ScalarOps.h>
#include <ATen/native/FloatOrDouble.h>
#include <ATen/native/Normalization.h>
#include <ATen/native/RowMoments.h>
#include <ATen/native/cpu/VecMath.h>

#include <cmath>
#include <string>
#include <vector>

namespace at::native {

DEFINE_DISPATCH(vec_layer_norm_rows_stub);

namespace {

struct Layout {
  int64_t rows = 1, cols = 1;
  std::vector<int64_t> stat_shape;  // [*batch, 1, ..., 1]
  std::vector<int64_t> batch_dims, norm_dims;
};

// PyTorch's mixed-dtype rule, checked before anything else: parameters of
// another dtype than the input (the first one given decides) must all be
// float32, for a float16/bfloat16 input, which is then normalised in float32.
bool is_mixed_layer_norm(const Tensor& input, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias) {
  const std::optional<Tensor>* first = weight && weight->defined() ? &weight : (bias && bias->defined() ? &bias : nullptr);
  if (!first || (*first)->scalar_type() == input.scalar_type()) return false;
  for (const std::optional<Tensor>* p : {&weight, &bias}) {
    TORCH_CHECK(!*p || !(*p)->defined() || (*p)->scalar_type() == ScalarType::Float,
                "mixed dtype (CPU): expect parameter to have scalar type of Float");
  }
  TORCH_CHECK(input.scalar_type() == ScalarType::Half || input.scalar_type() == ScalarType::BFloat16,
              "mixed dtype (CPU): all inputs must share same datatype.");
  return true;
}

Layout check_layer_norm(const Tensor& input, IntArrayRef normalized_shape, const std::optional<Tensor>& weight,
                        const std::optional<Tensor>& bias) {
  const bool mixed = is_mixed_layer_norm(input, weight, bias);
  const int64_t k = static_cast<int64_t>(normalized_shape.size());
  TORCH_CHECK(k >= 1, "Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                      "element, but got normalized_shape = ", normalized_shape);
  const auto check_param = [&](const std::optional<Tensor>& p, const char* name) {
    if (!p || !p->defined()) return;
    TORCH_CHECK(p->sizes().equals(normalized_shape), "Expected ", name,
                " to be of same shape as normalized_shape, but got ", name, " of shape ", p->sizes(),
                " and normalized_shape = ", normalized_shape);
  };
  check_param(weight, "weight");
  check_param(bias, "bias");
  const int64_t nd = input.dim();
  bool fits = nd >= k;
  for (int64_t i = 0; fits && i < k; ++i) fits = input.size(nd - k + i) == normalized_shape[i];
  if (!fits) {
    std::string want;
    for (int64_t s : normalized_shape) want += ", " + std::to_string(s);
    TORCH_CHECK(false, "Given normalized_shape=", normalized_shape, ", expected input with shape [*", want,
                "], but got input of size", input.sizes());
  }
  TORCH_CHECK_NOT_IMPLEMENTED(input.is_floating_point(), "\"LayerNormKernelImpl\" not implemented for '",
                              input.scalar_type(), "'");
  for (const std::optional<Tensor>* p : {&weight, &bias}) {
    const ScalarType want = mixed ? ScalarType::Float : input.scalar_type();
    TORCH_CHECK(!*p || !(*p)->defined() || (*p)->scalar_type() == want, "expected scalar type ", want, " but found ",
                (*p)->scalar_type());
  }
  Layout l;
  for (int64_t d = 0; d < nd; ++d) {
    if (d < nd - k) {
      l.rows *= input.size(d);
      l.stat_shape.push_back(input.size(d));
      l.batch_dims.push_back(d);
    } else {
      l.cols *= input.size(d);
      l.stat_shape.push_back(1);
      l.norm_dims.push_back(d);
    }
  }
  return l;
}


// float rows go to VecMath, a thread's rows in one call; other types here.
template <typename T>
void forward_rows(const T* x, const T* w, const T* b, T* y, T* mean_out, T* rstd_out, int64_t rows, int64_t cols,
                  double eps) {
  parallel_for(0, rows, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(cols, 1)), [&](int64_t lo, int64_t hi) {
    if constexpr (std::is_same_v<T, float>) {
      vec_layer_norm_rows_stub(c10::DeviceType::CPU, x + lo * cols, w, b, y + lo * cols, mean_out + lo, rstd_out + lo,
                               hi - lo, cols, eps);
    } else {
      for (int64_t r = lo; r < hi; ++r) {
        const T* xr = x + r * cols;
        T* yr = y + r * cols;
        const T mean = static_cast<T>(row_sum(xr, cols) / static_cast<double>(cols));
        const double var = squared_deviation(xr, mean, cols) / static_cast<double>(cols);
        const T rstd = static_cast<T>(1.0 / std::sqrt(var + eps));
        mean_out[r] = mean;
        rstd_out[r] = rstd;
        for (int64_t j = 0; j < cols; ++j) yr[j] = (xr[j] - mean) * rstd * (w ? w[j] : T(1)) + (b ? b[j] : T(0));
      }
    }
  });
}

// dx = rstd * (g - mean(g) - xhat * mean(g * xhat)), g = dy * w; the weight's
// and bias's gradients are column sums of dy * xhat and dy, taken per thread
// over its rows and added up at the end.
template <typename T>
void backward_rows(const T* dy, const T* x, const T* w, const T* mean, const T* rstd, T* dx, T* dw, T* db,
                   int64_t rows, int64_t cols) {
  const int64_t chunks = std::max<int64_t>(1, std::min<int64_t>(get_num_threads(), rows));
  const int64_t per = (rows + chunks - 1) / chunks;
  std::vector<std::vector<T>> dw_part(chunks), db_part(chunks);
  parallel_for(0, chunks, 1, [&](int64_t c_lo, int64_t c_hi) {
    std::vector<T> g(cols), xhat(cols);
    for (int64_t c = c_lo; c < c_hi; ++c) {
      std::vector<T>& pw = dw_part[c];
      std::vector<T>& pb = db_part[c];
      pw.assign(dw ? cols : 0, T(0));
      pb.assign(db ? cols : 0, T(0));
      for (int64_t r = c * per; r < std::min(rows, (c + 1) * per); ++r) {
        const T* dyr = dy + r * cols;
        const T* xr = x + r * cols;
        const T m = mean[r], s = rstd[r];
        T sum_g[8] = {}, sum_gx[8] = {};
        for (int64_t j = 0; j < cols; ++j) {
          xhat[j] = (xr[j] - m) * s;
          g[j] = w ? dyr[j] * w[j] : dyr[j];
        }
        int64_t j = 0;
        for (; j + 8 <= cols; j += 8) {
          for (int k = 0; k < 8; ++k) {
            sum_g[k] += g[j + k];
            sum_gx[k] += g[j + k] * xhat[j + k];
          }
        }
        double tg = 0, tgx = 0;
        for (; j < cols; ++j) {
          tg += g[j];
          tgx += static_cast<double>(g[j]) * xhat[j];
        }
        for (int k = 0; k < 8; ++k) {
          tg += sum_g[k];
          tgx += sum_gx[k];
        }
        const T mg = static_cast<T>(tg / static_cast<double>(cols)), mgx = static_cast<T>(tgx / static_cast<double>(cols));
        T* dxr = dx + r * cols;
        for (int64_t q = 0; q < cols; ++q) dxr[q] = s * (g[q] - mg - xhat[q] * mgx);
        if (dw)
          for (int64_t q = 0; q < cols; ++q) pw[q] += dyr[q] * xhat[q];
        if (db)
          for (int64_t q = 0; q < cols; ++q) pb[q] += dyr[q];
      }
    }
  });
  for (int64_t j = 0; dw && j < cols; ++j) {
    T total = 0;
    for (int64_t c = 0; c < chunks; ++c) total += dw_part[c][j];
    dw[j] = total;
  }
  for (int64_t j = 0; db && j < cols; ++j) {
    T total = 0;
    for (int64_t c = 0; c < chunks; ++c) total += db_part[c][j];
    db[j] = total;
  }
}


const Tensor* defined(const std::optional<Tensor>& t) { return t && t->defined() ? &*t : nullptr; }

}  // namespace

std::tuple<Tensor, Tensor, Tensor> native_layer_norm(const Tensor& input, IntArrayRef normalized_shape,
                                                     const std::optional<Tensor>& weight,
                                                     const std::optional<Tensor>& bias, double eps) {
  const Layout l = check_layer_norm(input, normalized_shape, weight, bias);
  if (is_mixed_layer_norm(input, weight, bias)) {  // float16/bfloat16 with float32 parameters: in float32
    auto [out, mean, rstd] = native::native_layer_norm(input.to(ScalarType::Float), normalized_shape, weight, bias, eps);
    return {out.to(input.scalar_type()), mean, rstd};
  }
  const Tensor* w = defined(weight);
  const Tensor* b = defined(bias);
  if (l.cols == 0) {  // nothing to normalise: PyTorch's kernel leaves mean 0 and rstd NaN
    return {at::empty(input.sizes(), input.scalar_type(), input.device()),
            at::zeros(l.stat_shape, input.scalar_type(), input.device()),
            at::full(l.stat_shape, std::numeric_limits<double>::quiet_NaN(), input.scalar_type(), input.device())};
  }
  if (!is_cpu_float_or_double(input) || l.rows * l.cols == 0) {
    const Tensor mean = input.mean(IntArrayRef(l.norm_dims), /*keepdim=*/true, std::nullopt);
    const Tensor var = input.var(IntArrayRef(l.norm_dims), /*unbiased=*/false, /*keepdim=*/true);
    const Tensor rstd = var.add(scalar_tensor(eps, var.scalar_type(), var.device())).rsqrt();
    Tensor out = input.sub(mean).mul(rstd);
    if (w) out = out.mul(*w);
    if (b) out = out.add(*b);
    return {out, mean, rstd};
  }
  const Tensor x = input.contiguous();
  const Tensor wc = w ? w->contiguous() : Tensor(), bc = b ? b->contiguous() : Tensor();
  Tensor out = at::empty(input.sizes(), input.scalar_type(), input.device());
  Tensor mean = at::empty(l.stat_shape, input.scalar_type(), input.device());
  Tensor rstd = at::empty(l.stat_shape, input.scalar_type(), input.device());
  for_float_or_double(input.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    forward_rows<T>(x.data_ptr<T>(), w ? wc.data_ptr<T>() : nullptr, b ? bc.data_ptr<T>() : nullptr,
                    out.data_ptr<T>(), mean.data_ptr<T>(), rstd.data_ptr<T>(), l.rows, l.cols, eps);
  });
  return {out, mean, rstd};
}

std::tuple<Tensor, Tensor, Tensor> layer_norm_backward(const Tensor& grad, const Tensor& input,
                                                       IntArrayRef normalized_shape,
                                                       const std::optional<Tensor>& weight, const Tensor& mean,
                                                       const Tensor& rstd) {
  if (!grad.defined()) return {};
  const Layout l = check_layer_norm(input, normalized_shape, weight, std::nullopt);
  if (is_mixed_layer_norm(input, weight, std::nullopt)) {  // as the forward: in float32, dx in the input's dtype
    auto [dx, dw, db] = native::layer_norm_backward(grad.to(ScalarType::Float), input.to(ScalarType::Float), normalized_shape,
                                            weight, mean, rstd);
    return {dx.to(input.scalar_type()), dw, db};
  }
  const Tensor* w = defined(weight);
  if (!is_cpu_float_or_double(input) || l.rows * l.cols == 0 || grad.scalar_type() != input.scalar_type()) {
    const Tensor xhat = input.sub(mean).mul(rstd);
    const Tensor g = w ? grad.mul(*w) : grad;
    const Tensor dx = g.sub(g.mean(IntArrayRef(l.norm_dims), true, std::nullopt)).sub(xhat.mul(g.mul(xhat).mean(IntArrayRef(l.norm_dims), true, std::nullopt))).mul(rstd);
    Tensor dw, db;
    if (w) dw = l.batch_dims.empty() ? grad.mul(xhat) : grad.mul(xhat).sum(IntArrayRef(l.batch_dims), false, std::nullopt);
    db = l.batch_dims.empty() ? grad.clone() : grad.sum(IntArrayRef(l.batch_dims), false, std::nullopt);
    return {dx, dw, db};
  }
  const Tensor dy = grad.contiguous(), x = input.contiguous();
  const Tensor wc = w ? w->contiguous() : Tensor();
  const Tensor m = mean.contiguous(), s = rstd.contiguous();
  Tensor dx = at::empty(input.sizes(), input.scalar_type(), input.device());
  Tensor dw = w ? at::empty(normalized_shape, input.scalar_type(), input.device()) : Tensor();
  Tensor db = at::empty(normalized_shape, input.scalar_type(), input.device());
  for_float_or_double(input.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    backward_rows<T>(dy.data_ptr<T>(), x.data_ptr<T>(), w ? wc.data_ptr<T>() : nullptr, m.data_ptr<T>(),
                     s.data_ptr<T>(), dx.data_ptr<T>(), w ? dw.data_ptr<T>() : nullptr, db.data_ptr<T>(), l.rows,
                     l.cols);
  });
  return {dx, dw, db};
}

Tensor layer_norm(const Tensor& input, IntArrayRef normalized_shape, const std::optional<Tensor>& weight,
                  const std::optional<Tensor>& bias, double eps, bool cudnn_enable) {
  (void)cudnn_enable;
  return std::get<0>(at::native_layer_norm(input, normalized_shape, weight, bias, eps));
}

}  // namespace at::native
