// CPU loops of addcmul, addcdiv and lerp; the scalar math is in
// native/PointwiseOps.h, shared with the CUDA kernels.
#include <ATen/Dispatch.h>
#include <ATen/native/PointwiseOps.h>
#include <ATen/native/cpu/Loops.h>

namespace at::native {
inline namespace CPU_CAPABILITY {
namespace {

void addcmul_kernel(TensorIterator& iter, const Scalar& value) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(iter.common_dtype(), "addcmul_cpu_out", [&] {
    using M = c10::opmath_t<scalar_t>;
    const M v = value.to<M>();
    cpu_kernel(iter, [v](scalar_t x, scalar_t a, scalar_t b) -> scalar_t { return addcmul_formula(x, a, b, v); });
  });
}

void addcdiv_kernel(TensorIterator& iter, const Scalar& value) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "addcdiv_cpu_out", [&] {
    using M = c10::opmath_t<scalar_t>;
    const M v = value.to<M>();
    cpu_kernel(iter, [v](scalar_t x, scalar_t a, scalar_t b) -> scalar_t { return addcdiv_formula(x, a, b, v); });
  });
}

void lerp_scalar_kernel(TensorIterator& iter, const Scalar& weight) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "lerp_kernel_scalar", [&] {
    using M = c10::opmath_t<scalar_t>;
    const M w = weight.to<M>();
    cpu_kernel(iter, [w](scalar_t x, scalar_t e) -> scalar_t { return lerp_formula(x, e, w); });
  });
}

void lerp_tensor_kernel(TensorIterator& iter) {
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(iter.common_dtype(), "lerp_kernel_tensor", [&] {
    using M = c10::opmath_t<scalar_t>;
    cpu_kernel(iter, [](scalar_t x, scalar_t e, scalar_t w) -> scalar_t { return lerp_formula(x, e, M(w)); });
  });
}

}  // namespace

REGISTER_CPU_DISPATCH(addcmul_stub, &addcmul_kernel);
REGISTER_CPU_DISPATCH(addcdiv_stub, &addcdiv_kernel);
REGISTER_CPU_DISPATCH(lerp_scalar_stub, &lerp_scalar_kernel);
REGISTER_CPU_DISPATCH(lerp_tensor_stub, &lerp_tensor_kernel);

}  // namespace CPU_CAPABILITY
}  // namespace at::native
