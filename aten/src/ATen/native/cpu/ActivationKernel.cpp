// CPU loops of the piecewise activations (native/Activation.h): one pass,
// a branch-free select per element (cpu/Select.h).
#include <ATen/Dispatch.h>
#include <ATen/native/Activation.h>
#include <ATen/native/cpu/Loops.h>
#include <ATen/native/cpu/Select.h>
#include <ATen/native/cpu/VecMath.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

namespace at::native {
inline namespace CPU_CAPABILITY {
namespace {

// float16 and bfloat16 take their parameters in float, as PyTorch's kernels
// do: a threshold or slope past float16's range is no overflow error.
template <typename T>
using param_t = std::conditional_t<std::is_same_v<T, c10::Half> || std::is_same_v<T, c10::BFloat16>, float, T>;

void threshold_kernel(TensorIterator& iter, const Scalar& threshold, const Scalar& value) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(iter.dtype(0), "threshold_cpu", [&] {
    using P = param_t<scalar_t>;
    const P t = threshold.to<P>();
    const scalar_t v = value.to<scalar_t>();  // the value must fit the dtype (PyTorch checks it)
    cpu_kernel(iter, [t, v](scalar_t x) -> scalar_t { return select_bits(P(x) <= t, v, x); });
  });
}

void leaky_relu_kernel(TensorIterator& iter, const Scalar& negative_slope, const Scalar&) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.dtype(0), "leaky_relu_cpu", [&] {
    using P = param_t<scalar_t>;
    const P slope = negative_slope.to<P>();
    cpu_kernel(iter, [slope](scalar_t x) -> scalar_t {
      return select_bits(x > scalar_t(0), x, scalar_t(P(x) * slope));
    });
  });
}

void prelu_kernel(TensorIterator& iter) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.dtype(0), "prelu_cpu", [&] {
    cpu_kernel(iter, [](scalar_t x, scalar_t w) -> scalar_t {
      using M = c10::opmath_t<scalar_t>;
      return select_bits(x > scalar_t(0), x, scalar_t(M(w) * M(x)));
    });
  });
}

void hardshrink_kernel(TensorIterator& iter, const Scalar& lambd, const Scalar&) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.dtype(0), "hardshrink_cpu", [&] {
    const scalar_t l = lambd.to<scalar_t>();
    cpu_kernel(iter, [l](scalar_t x) -> scalar_t {
      return select_bits((x >= scalar_t(-l)) & (x <= l), scalar_t(0), x);
    });
  });
}

void softshrink_kernel(TensorIterator& iter, const Scalar& lambd, const Scalar&) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.dtype(0), "softshrink_cpu", [&] {
    const scalar_t l = lambd.to<scalar_t>();
    // x * 0 in the middle: NaN stays NaN, as in PyTorch's kernel.
    cpu_kernel(iter, [l](scalar_t x) -> scalar_t {
      const scalar_t middle = select_bits(x < -l, scalar_t(x + l), scalar_t(x * scalar_t(0)));
      return select_bits(x > l, scalar_t(x - l), middle);
    });
  });
}

// Whether the iterator is dense T (float32 unless said) throughout:
// VecMath's lanes then.
template <typename T = float>
bool dense_float(TensorIterator& iter) {
  if (!iter.is_contiguous()) return false;
  for (int i = 0; i < iter.ntensors(); ++i) {
    if (iter.dtype(i) != c10::CppTypeToScalarType<T>::value) return false;
  }
  return true;
}

// f(out, operands, n) over dense chunks of at most kBlock elements of T,
// with a scratch block for the lanes' intermediate results.
constexpr int64_t kBlock = 1024;
template <typename T = float, typename F>
void float_blocks(TensorIterator& iter, const F& f) {
  iter.for_each([&](char** data, const int64_t*, int64_t n, int64_t) {
    T scratch[kBlock];
    for (int64_t start = 0; start < n; start += kBlock) {
      const int64_t m = std::min(kBlock, n - start);
      const T* in1 = reinterpret_cast<const T*>(data[1]) + start;
      const T* in2 = iter.ntensors() > 2 ? reinterpret_cast<const T*>(data[2]) + start : nullptr;
      f(reinterpret_cast<T*>(data[0]) + start, in1, in2, scratch, m);
    }
  });
}

void softplus_kernel(TensorIterator& iter, const Scalar& beta_, const Scalar& threshold_) {
  if (dense_float(iter)) {
    const float beta = beta_.to<float>(), threshold = threshold_.to<float>();
    float_blocks(iter, [&](float* out, const float* x, const float*, float* t, int64_t m) {
      for (int64_t i = 0; i < m; ++i) t[i] = x[i] * beta;
      vec::exp(t, t, m);
      vec::log1p(t, t, m);
      for (int64_t i = 0; i < m; ++i) out[i] = select_bits(x[i] * beta > threshold, x[i], t[i] / beta);
    });
    return;
  }
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.dtype(0), "softplus_cpu", [&] {
    using M = c10::opmath_t<scalar_t>;
    const M beta = beta_.to<M>(), threshold = threshold_.to<M>();
    cpu_kernel(iter, [beta, threshold](scalar_t x) -> scalar_t {
      const M scaled = M(x) * beta;
      return scaled > threshold ? x : scalar_t(std::log1p(std::exp(scaled)) / beta);
    });
  });
}

// min(max(x + 3, 0), 6) / 6 with NaN kept, as PyTorch's std::min/std::max order does.
template <typename M>
inline M hard_sigmoid_of(M x) {
  const M up = x + M(3);
  const M lo = select_bits(up < M(0), M(0), up);
  return select_bits(lo > M(6), M(6), lo) / M(6);
}

void hardsigmoid_kernel(TensorIterator& iter, const Scalar&, const Scalar&) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.dtype(0), "hardsigmoid_cpu", [&] {
    using M = c10::opmath_t<scalar_t>;
    cpu_kernel(iter, [](scalar_t x) -> scalar_t { return scalar_t(hard_sigmoid_of(M(x))); });
  });
}

void hardswish_kernel(TensorIterator& iter, const Scalar&, const Scalar&) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.dtype(0), "hardswish_cpu", [&] {
    using M = c10::opmath_t<scalar_t>;
    // x * min(max(x + 3, 0), 6) / 6, multiplied before the division as PyTorch's.
    cpu_kernel(iter, [](scalar_t x) -> scalar_t {
      const M xm = M(x), up = xm + M(3);
      const M lo = select_bits(up < M(0), M(0), up);
      return scalar_t(xm * select_bits(lo > M(6), M(6), lo) / M(6));
    });
  });
}

// Dense float32 or float64: expm1 of a block through VecMath's lanes, then
// the select.
template <typename T>
bool elu_dense(TensorIterator& iter, double alpha_, double scale_, double input_scale_) {
  if (!dense_float<T>(iter)) return false;
  const T alpha = static_cast<T>(alpha_), scale = static_cast<T>(scale_), input_scale = static_cast<T>(input_scale_);
  float_blocks<T>(iter, [&](T* out, const T* x, const T*, T* e, int64_t m) {
    // Clamped before expm1, so the branch not taken cannot overflow.
    for (int64_t i = 0; i < m; ++i) e[i] = std::min(x[i], T(0)) * input_scale;
    vec::expm1(e, e, m);
    for (int64_t i = 0; i < m; ++i) out[i] = select_bits(x[i] < T(0), e[i] * alpha * scale, x[i] * scale);
  });
  return true;
}

void elu_kernel(TensorIterator& iter, double alpha_, double scale_, double input_scale_) {
  if (elu_dense<float>(iter, alpha_, scale_, input_scale_) || elu_dense<double>(iter, alpha_, scale_, input_scale_)) {
    return;
  }
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.dtype(0), "elu_cpu", [&] {
    using M = c10::opmath_t<scalar_t>;
    const M alpha = static_cast<M>(alpha_), scale = static_cast<M>(scale_), input_scale = static_cast<M>(input_scale_);
    cpu_kernel(iter, [=](scalar_t x) -> scalar_t {
      const M xm = M(x);
      return scalar_t(xm < M(0) ? std::expm1(xm * input_scale) * alpha * scale : xm * scale);
    });
  });
}

// glu's loops walk the iterator's 2-D blocks themselves: an inner run where
// every operand is dense float32 takes vec::sigmoid in blocks, others the
// scalar formula in the compute type.
template <typename F>
void for_each_element_run(TensorIterator& iter, const F& run) {
  const int nt = iter.ntensors();
  iter.for_each([&](char** data, const int64_t* strides, int64_t n, int64_t rows) {
    std::vector<char*> ptr(data, data + nt);
    for (int64_t r = 0; r < rows; ++r) {
      run(ptr.data(), strides, n);
      for (int k = 0; k < nt; ++k) ptr[k] += strides[nt + k];
    }
  });
}

bool dense_run(const int64_t* strides, int nt, int64_t size) {
  for (int k = 0; k < nt; ++k) {
    if (strides[k] != size) return false;
  }
  return true;
}

// f(start, m, s) over blocks of b[0..n), s[0..m) holding sigmoid(b[start + i]).
template <typename F>
void sigmoid_blocks(const float* b, int64_t n, const F& f) {
  float s[kBlock];
  for (int64_t start = 0; start < n; start += kBlock) {
    const int64_t m = std::min(kBlock, n - start);
    vec::sigmoid(b + start, s, m);
    f(start, m, s);
  }
}

void glu_kernel(TensorIterator& iter) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.dtype(0), "glu_cpu", [&] {
    using M = c10::opmath_t<scalar_t>;
    for_each_element_run(iter, [](char** p, const int64_t* st, int64_t n) {
      if (std::is_same_v<scalar_t, float> && dense_run(st, 3, sizeof(float))) {
        float* out = reinterpret_cast<float*>(p[0]);
        const float* a = reinterpret_cast<const float*>(p[1]);
        sigmoid_blocks(reinterpret_cast<const float*>(p[2]), n, [&](int64_t start, int64_t m, const float* s) {
          for (int64_t i = 0; i < m; ++i) out[start + i] = a[start + i] * s[i];
        });
        return;
      }
      for (int64_t i = 0; i < n; ++i) {
        const M a = M(*reinterpret_cast<const scalar_t*>(p[1] + i * st[1]));
        const M b = M(*reinterpret_cast<const scalar_t*>(p[2] + i * st[2]));
        *reinterpret_cast<scalar_t*>(p[0] + i * st[0]) = scalar_t(a * (M(1) / (M(1) + std::exp(-b))));
      }
    });
  });
}

void glu_backward_kernel(TensorIterator& iter) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.dtype(0), "glu_backward_cpu", [&] {
    using M = c10::opmath_t<scalar_t>;
    for_each_element_run(iter, [](char** p, const int64_t* st, int64_t n) {
      if (std::is_same_v<scalar_t, float> && dense_run(st, 5, sizeof(float))) {
        float* ga = reinterpret_cast<float*>(p[0]);
        float* gb = reinterpret_cast<float*>(p[1]);
        const float* g = reinterpret_cast<const float*>(p[2]);
        const float* a = reinterpret_cast<const float*>(p[3]);
        sigmoid_blocks(reinterpret_cast<const float*>(p[4]), n, [&](int64_t start, int64_t m, const float* s) {
          for (int64_t i = 0; i < m; ++i) {
            const float gs = g[start + i] * s[i];
            ga[start + i] = gs;
            gb[start + i] = gs * a[start + i] * (1.0f - s[i]);
          }
        });
        return;
      }
      for (int64_t i = 0; i < n; ++i) {
        const M g = M(*reinterpret_cast<const scalar_t*>(p[2] + i * st[2]));
        const M a = M(*reinterpret_cast<const scalar_t*>(p[3] + i * st[3]));
        const M b = M(*reinterpret_cast<const scalar_t*>(p[4] + i * st[4]));
        const M s = M(1) / (M(1) + std::exp(-b));
        *reinterpret_cast<scalar_t*>(p[0] + i * st[0]) = scalar_t(g * s);
        *reinterpret_cast<scalar_t*>(p[1] + i * st[1]) = scalar_t(g * s * a * (M(1) - s));
      }
    });
  });
}

// The backward loops (Activation.h): one select per element.

void threshold_backward_kernel(TensorIterator& iter, double threshold, double, double) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "threshold_backward_cpu", [&] {
    using P = param_t<scalar_t>;
    const P t = static_cast<P>(threshold);
    cpu_kernel(iter, [t](scalar_t g, scalar_t x) -> scalar_t { return select_bits(P(x) <= t, scalar_t(0), g); });
  });
}

void leaky_relu_backward_kernel(TensorIterator& iter, double negative_slope, double, double) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "leaky_relu_backward_cpu", [&] {
    using P = param_t<scalar_t>;
    const P slope = static_cast<P>(negative_slope);
    cpu_kernel(iter, [slope](scalar_t g, scalar_t x) -> scalar_t {
      return select_bits(x > scalar_t(0), g, scalar_t(P(g) * slope));
    });
  });
}

void shrink_backward_kernel(TensorIterator& iter, double lambd, double, double) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "shrink_backward_cpu", [&] {
    const scalar_t l = static_cast<scalar_t>(lambd);
    cpu_kernel(iter, [l](scalar_t g, scalar_t x) -> scalar_t {
      return select_bits((x >= scalar_t(-l)) & (x <= l), scalar_t(0), g);
    });
  });
}

void clamp_backward_kernel(TensorIterator& iter, double lo, double hi, double) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "clamp_backward_cpu", [&] {
    // The bounds in the dtype, as the forward compares them.
    const scalar_t a = static_cast<scalar_t>(lo), b = static_cast<scalar_t>(hi);
    cpu_kernel(iter, [a, b](scalar_t g, scalar_t x) -> scalar_t {
      return select_bits((x >= a) & (x <= b), g, scalar_t(0));
    });
  });
}

// Dense float32 or float64: exp of a block through VecMath's lanes, then
// the select.
template <typename T>
bool elu_backward_dense(TensorIterator& iter, double negative_coef_, double scale_, double input_scale_) {
  if (!dense_float<T>(iter)) return false;
  const T negative_coef = static_cast<T>(negative_coef_), scale = static_cast<T>(scale_);
  const T input_scale = static_cast<T>(input_scale_);
  float_blocks<T>(iter, [&](T* out, const T* g, const T* x, T* e, int64_t m) {
    for (int64_t i = 0; i < m; ++i) e[i] = std::min(x[i], T(0)) * input_scale;
    vec::exp(e, e, m);
    for (int64_t i = 0; i < m; ++i) out[i] = select_bits(x[i] > T(0), g[i] * scale, g[i] * negative_coef * e[i]);
  });
  return true;
}

void elu_backward_kernel(TensorIterator& iter, double negative_coef, double scale, double input_scale) {
  if (elu_backward_dense<float>(iter, negative_coef, scale, input_scale) ||
      elu_backward_dense<double>(iter, negative_coef, scale, input_scale)) {
    return;
  }
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "elu_backward_cpu", [&] {
    using M = c10::opmath_t<scalar_t>;
    const M coef = static_cast<M>(negative_coef), s = static_cast<M>(scale), in = static_cast<M>(input_scale);
    // Clamped before exp, so the branch not taken cannot overflow into NaN;
    // NaN and 0 take the negative branch, as PyTorch's backward.
    cpu_kernel(iter, [coef, s, in](scalar_t g, scalar_t x) -> scalar_t {
      const M gm = M(g), xm = M(x);
      return scalar_t(xm > M(0) ? gm * s : gm * coef * std::exp(std::min(xm, M(0)) * in));
    });
  });
}

void softplus_backward_kernel(TensorIterator& iter, double beta_, double threshold_, double) {
  if (dense_float(iter)) {
    const float beta = static_cast<float>(beta_), threshold = static_cast<float>(threshold_);
    float_blocks(iter, [&](float* out, const float* g, const float* x, float* z, int64_t m) {
      for (int64_t i = 0; i < m; ++i) z[i] = x[i] * beta;
      vec::exp(z, z, m);
      for (int64_t i = 0; i < m; ++i) out[i] = select_bits(x[i] * beta > threshold, g[i], g[i] * z[i] / (z[i] + 1.0f));
    });
    return;
  }
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "softplus_backward_cpu", [&] {
    using M = c10::opmath_t<scalar_t>;
    const M beta = static_cast<M>(beta_), threshold = static_cast<M>(threshold_);
    cpu_kernel(iter, [beta, threshold](scalar_t g, scalar_t x) -> scalar_t {
      const M scaled = M(x) * beta;
      const M z = std::exp(scaled);
      return scaled > threshold ? g : scalar_t(M(g) * z / (z + M(1)));
    });
  });
}

void hardsigmoid_backward_kernel(TensorIterator& iter, double, double, double) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "hardsigmoid_backward_cpu", [&] {
    using M = c10::opmath_t<scalar_t>;
    cpu_kernel(iter, [](scalar_t g, scalar_t x) -> scalar_t {
      const M xm = M(x);
      return select_bits((xm > M(-3)) & (xm < M(3)), scalar_t(M(g) / M(6)), scalar_t(0));
    });
  });
}

void hardswish_backward_kernel(TensorIterator& iter, double, double, double) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "hardswish_backward_cpu", [&] {
    using M = c10::opmath_t<scalar_t>;
    cpu_kernel(iter, [](scalar_t g, scalar_t x) -> scalar_t {
      const M xm = M(x);
      const scalar_t ramp = scalar_t(M(g) * (xm / M(3) + M(0.5)));
      return select_bits(xm <= M(-3), scalar_t(0), select_bits(xm >= M(3), g, ramp));
    });
  });
}

}  // namespace

REGISTER_CPU_DISPATCH(threshold_stub, &threshold_kernel);
REGISTER_CPU_DISPATCH(leaky_relu_stub, &leaky_relu_kernel);
REGISTER_CPU_DISPATCH(hardshrink_stub, &hardshrink_kernel);
REGISTER_CPU_DISPATCH(prelu_stub, &prelu_kernel);
REGISTER_CPU_DISPATCH(glu_stub, &glu_kernel);
REGISTER_CPU_DISPATCH(glu_backward_stub, &glu_backward_kernel);
REGISTER_CPU_DISPATCH(softshrink_stub, &softshrink_kernel);
REGISTER_CPU_DISPATCH(threshold_backward_stub, &threshold_backward_kernel);
REGISTER_CPU_DISPATCH(leaky_relu_backward_stub, &leaky_relu_backward_kernel);
REGISTER_CPU_DISPATCH(shrink_backward_stub, &shrink_backward_kernel);
REGISTER_CPU_DISPATCH(clamp_backward_stub, &clamp_backward_kernel);
REGISTER_CPU_DISPATCH(elu_stub, &elu_kernel);
REGISTER_CPU_DISPATCH(elu_backward_stub, &elu_backward_kernel);
REGISTER_CPU_DISPATCH(softplus_stub, &softplus_kernel);
REGISTER_CPU_DISPATCH(hardsigmoid_stub, &hardsigmoid_kernel);
REGISTER_CPU_DISPATCH(hardswish_stub, &hardswish_kernel);
REGISTER_CPU_DISPATCH(softplus_backward_stub, &softplus_backward_kernel);
REGISTER_CPU_DISPATCH(hardsigmoid_backward_stub, &hardsigmoid_backward_kernel);
REGISTER_CPU_DISPATCH(hardswish_backward_stub, &hardswish_backward_kernel);

}  // namespace CPU_CAPABILITY
}  // namespace at::native
