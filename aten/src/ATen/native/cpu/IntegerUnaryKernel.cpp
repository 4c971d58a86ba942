// CPU loops of the unary ops that integer tensors use as much as floating
// ones: neg, abs, relu, sign, bitwise_not (the scalar math is in
// native/UnaryFunctors.h, shared with the CUDA kernels). Their wide copies
// hold every dtype, as their stubs' DEFINE_DISPATCH_FOR_ANY_OPERANDS says:
// SSE2 has no 64-bit integer compare or max, so int64 relu and abs in the
// DEFAULT copy ran at half PyTorch's speed.
#define TORCH_WIDE_COPY_ANY_DTYPE
#include <ATen/Dispatch.h>
#include <ATen/native/UnaryFunctors.h>
#include <ATen/native/UnaryOps.h>
#include <ATen/native/cpu/Loops.h>

namespace at::native {
inline namespace CPU_CAPABILITY {
namespace {

void neg_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(iter.common_dtype(), "neg", [&] {
    cpu_kernel(iter, [](scalar_t x) -> scalar_t { return -x; });
  });
}

void abs_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(iter.common_dtype(), "abs_cpu", [&] {
    cpu_kernel(iter, [](scalar_t x) -> scalar_t { return abs_value(x); });
  });
}

void relu_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(iter.common_dtype(), "relu", [&] {
    cpu_kernel(iter, [](scalar_t x) -> scalar_t { return relu_of(x); });
  });
}

void sign_kernel(TensorIterator& iter) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.common_dtype(), "sign", [&] {
    cpu_kernel(iter, [](scalar_t x) -> scalar_t { return sign_of(x); });
  });
}

void bitwise_not_kernel(TensorIterator& iter) {
  AT_DISPATCH_INTEGRAL_TYPES_AND_BOOL(iter.common_dtype(), "bitwise_not_cpu", [&] {
    cpu_kernel(iter, [](scalar_t x) -> scalar_t { return bitwise_not_of(x); });
  });
}

}  // namespace

REGISTER_CPU_DISPATCH(neg_stub, &neg_kernel);
REGISTER_CPU_DISPATCH(abs_stub, &abs_kernel);
REGISTER_CPU_DISPATCH(relu_stub, &relu_kernel);
REGISTER_CPU_DISPATCH(sign_stub, &sign_kernel);
REGISTER_CPU_DISPATCH(bitwise_not_stub, &bitwise_not_kernel);

}  // namespace CPU_CAPABILITY
}  // namespace at::native
