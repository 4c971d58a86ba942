// CPU loops of the unary pointwise ops.
#include <ATen/Dispatch.h>
#include <ATen/native/UnaryOps.h>
#include <ATen/native/cpu/Loops.h>

#include <cmath>
#include <type_traits>

namespace at::native {
namespace {

void neg_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES(iter.common_dtype(), "neg", [&] {
    cpu_kernel(iter, [](scalar_t x) -> scalar_t { return -x; });
  });
}

template <typename T>
T abs_value(T x) {
  if constexpr (std::is_unsigned_v<T> || std::is_same_v<T, bool>) {
    return x;
  } else {
    const c10::opmath_t<T> v = x;
    return v < 0 ? -v : v;
  }
}

void abs_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES_AND_BOOL(iter.common_dtype(), "abs", [&] {
    cpu_kernel(iter, [](scalar_t x) -> scalar_t { return abs_value(x); });
  });
}

void relu_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES(iter.common_dtype(), "relu", [&] {
    // NaN propagates, as in PyTorch: NaN > 0 is false but the ternary keeps x.
    cpu_kernel(iter, [](scalar_t x) -> scalar_t { return x < scalar_t(0) ? scalar_t(0) : x; });
  });
}

#define FLOAT_UNARY_KERNEL(name, expr)                                      \
  void name##_kernel(TensorIterator& iter) {                                \
    AT_DISPATCH_FLOATING_TYPES(iter.common_dtype(), #name, [&] {            \
      cpu_kernel(iter, [](scalar_t x) -> scalar_t { return expr; });        \
    });                                                                     \
  }

FLOAT_UNARY_KERNEL(exp, std::exp(x))
FLOAT_UNARY_KERNEL(log, std::log(x))
FLOAT_UNARY_KERNEL(sqrt, std::sqrt(x))
FLOAT_UNARY_KERNEL(reciprocal, scalar_t(1) / x)
FLOAT_UNARY_KERNEL(sigmoid, scalar_t(1) / (scalar_t(1) + std::exp(-x)))
FLOAT_UNARY_KERNEL(tanh, std::tanh(x))

#undef FLOAT_UNARY_KERNEL

}  // namespace

REGISTER_CPU_DISPATCH(neg_stub, &neg_kernel);
REGISTER_CPU_DISPATCH(abs_stub, &abs_kernel);
REGISTER_CPU_DISPATCH(relu_stub, &relu_kernel);
REGISTER_CPU_DISPATCH(exp_stub, &exp_kernel);
REGISTER_CPU_DISPATCH(log_stub, &log_kernel);
REGISTER_CPU_DISPATCH(sqrt_stub, &sqrt_kernel);
REGISTER_CPU_DISPATCH(reciprocal_stub, &reciprocal_kernel);
REGISTER_CPU_DISPATCH(sigmoid_stub, &sigmoid_kernel);
REGISTER_CPU_DISPATCH(tanh_stub, &tanh_kernel);

}  // namespace at::native
