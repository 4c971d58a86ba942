// CUDA loops of the unary pointwise ops, from the formulas of
// native/UnaryFunctors.h that the CPU kernels use too.
#include <ATen/Dispatch.h>
#include <ATen/native/UnaryFunctors.h>
#include <ATen/native/UnaryOps.h>
#include <ATen/native/cuda/Loops.cuh>

namespace at::native {
namespace {

void neg_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES(iter.common_dtype(), "neg_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x) -> scalar_t { return -x; });
  });
}

void abs_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES(iter.common_dtype(), "abs_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x) -> scalar_t { return abs_value(x); });
  });
}

void relu_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES(iter.common_dtype(), "relu_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x) -> scalar_t { return relu_of(x); });
  });
}

#define FLOAT_UNARY_KERNEL(name, expr)                                    \
  void name##_kernel_cuda(TensorIterator& iter) {                         \
    AT_DISPATCH_FLOATING_TYPES(iter.common_dtype(), #name "_cuda", [&] {  \
      gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x_) -> scalar_t {           \
        using M = c10::opmath_t<scalar_t>;                                \
        const M x = x_;                                                   \
        return expr;                                                      \
      });                                                                 \
    });                                                                   \
  }
AT_FOR_EACH_FLOAT_UNARY_OP(FLOAT_UNARY_KERNEL)
#undef FLOAT_UNARY_KERNEL

#define ROUNDING_KERNEL(name, Op)                                               \
  void name##_kernel_cuda(TensorIterator& iter) {                                   \
    AT_DISPATCH_ALL_TYPES(iter.common_dtype(), #name "_cuda", [&] {                   \
      gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x) -> scalar_t { return round_with<Op>(x); }); \
    });                                                                         \
  }
AT_FOR_EACH_ROUNDING_OP(ROUNDING_KERNEL)
#undef ROUNDING_KERNEL

void sign_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES_AND_BOOL(iter.common_dtype(), "sign_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x) -> scalar_t { return sign_of(x); });
  });
}

void bitwise_not_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_INTEGRAL_TYPES_AND_BOOL(iter.common_dtype(), "bitwise_not_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x) -> scalar_t { return bitwise_not_of(x); });
  });
}

#define PREDICATE_KERNEL(name, Op)                                                  \
  void name##_kernel_cuda(TensorIterator& iter) {                                        \
    AT_DISPATCH_ALL_TYPES_AND_BOOL(iter.common_dtype(), #name "_cuda", [&] {                \
      gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x) -> bool { return float_predicate<Op>(x); });       \
    });                                                                              \
  }
AT_FOR_EACH_FLOAT_PREDICATE(PREDICATE_KERNEL)
#undef PREDICATE_KERNEL

void logical_not_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_ALL_TYPES_AND_BOOL(iter.common_dtype(), "logical_not_cuda", [&] {
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x) -> bool { return logical_not_of(x); });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(neg_stub, &neg_kernel_cuda);
REGISTER_CUDA_DISPATCH(abs_stub, &abs_kernel_cuda);
REGISTER_CUDA_DISPATCH(relu_stub, &relu_kernel_cuda);
#define REGISTER_NAMED(name, ...) REGISTER_CUDA_DISPATCH(name##_stub, &name##_kernel_cuda);
AT_FOR_EACH_FLOAT_UNARY_OP(REGISTER_NAMED)
AT_FOR_EACH_ROUNDING_OP(REGISTER_NAMED)
AT_FOR_EACH_FLOAT_PREDICATE(REGISTER_NAMED)
#undef REGISTER_NAMED
REGISTER_CUDA_DISPATCH(sign_stub, &sign_kernel_cuda);
REGISTER_CUDA_DISPATCH(bitwise_not_stub, &bitwise_not_kernel_cuda);
REGISTER_CUDA_DISPATCH(logical_not_stub, &logical_not_kernel_cuda);

}  // namespace at::native
