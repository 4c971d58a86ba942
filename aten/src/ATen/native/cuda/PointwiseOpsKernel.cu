// CUDA kernels of addcmul, addcdiv and lerp: the shared scalar math of
// native/PointwiseOps.h, gpu_kernel for the loop.
#include <ATen/Dispatch.h>
#include <ATen/native/PointwiseOps.h>
#include <ATen/native/cuda/Loops.cuh>

namespace at::native {
namespace {

void addcmul_kernel_cuda(TensorIterator& iter, const Scalar& value) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(iter.common_dtype(), "addcmul_cuda", [&] {
    using M = c10::opmath_t<scalar_t>;
    const M v = value.to<M>();
    gpu_kernel(iter, [v] GPU_LAMBDA(scalar_t x, scalar_t a, scalar_t b) -> scalar_t {
      return addcmul_formula(x, a, b, v);
    });
  });
}

void addcdiv_kernel_cuda(TensorIterator& iter, const Scalar& value) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "addcdiv_cuda", [&] {
    using M = c10::opmath_t<scalar_t>;
    const M v = value.to<M>();
    gpu_kernel(iter, [v] GPU_LAMBDA(scalar_t x, scalar_t a, scalar_t b) -> scalar_t {
      return addcdiv_formula(x, a, b, v);
    });
  });
}

void lerp_scalar_kernel_cuda(TensorIterator& iter, const Scalar& weight) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "lerp_kernel_scalar", [&] {
    using M = c10::opmath_t<scalar_t>;
    const M w = weight.to<M>();
    gpu_kernel(iter, [w] GPU_LAMBDA(scalar_t x, scalar_t e) -> scalar_t { return lerp_formula(x, e, w); });
  });
}

void lerp_tensor_kernel_cuda(TensorIterator& iter) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "lerp_kernel_tensor", [&] {
    using M = c10::opmath_t<scalar_t>;
    gpu_kernel(iter, [] GPU_LAMBDA(scalar_t x, scalar_t e, scalar_t w) -> scalar_t {
      return lerp_formula(x, e, M(w));
    });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(addcmul_stub, &addcmul_kernel_cuda);
REGISTER_CUDA_DISPATCH(addcdiv_stub, &addcdiv_kernel_cuda);
REGISTER_CUDA_DISPATCH(lerp_scalar_stub, &lerp_scalar_kernel_cuda);
REGISTER_CUDA_DISPATCH(lerp_tensor_stub, &lerp_tensor_kernel_cuda);

}  // namespace at::native
