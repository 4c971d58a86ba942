#pragma once
#include <ATen/TensorIterator.h>
#include <ATen/native/DispatchStub.h>

namespace at::native {

using binary_fn = void (*)(TensorIterator& iter);
using binary_alpha_fn = void (*)(TensorIterator& iter, const Scalar& alpha);

DECLARE_DISPATCH(binary_alpha_fn, add_stub);  // a + alpha * b
DECLARE_DISPATCH(binary_fn, mul_stub);
DECLARE_DISPATCH(binary_fn, div_true_stub);
DECLARE_DISPATCH(binary_fn, div_trunc_stub);
DECLARE_DISPATCH(binary_fn, div_floor_stub);
DECLARE_DISPATCH(binary_fn, pow_stub);

}  // namespace at::native
