// CPU loops of the piecewise activations (native/Activation.h): one pass,
// a branch-free select per element (cpu/Select.h).
#include <ATen/Dispatch.h>
#include <ATen/native/Activation.h>
#include <ATen/native/cpu/Loops.h>
#include <ATen/native/cpu/Select.h>

#include <type_traits>

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

}  // namespace

REGISTER_CPU_DISPATCH(threshold_stub, &threshold_kernel);
REGISTER_CPU_DISPATCH(leaky_relu_stub, &leaky_relu_kernel);
REGISTER_CPU_DISPATCH(hardshrink_stub, &hardshrink_kernel);
REGISTER_CPU_DISPATCH(prelu_stub, &prelu_kernel);
REGISTER_CPU_DISPATCH(softshrink_stub, &softshrink_kernel);

}  // namespace CPU_CAPABILITY
}  // namespace at::native
