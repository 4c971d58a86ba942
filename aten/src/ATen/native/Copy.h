#pragma once
#include <ATen/TensorIterator.h>
#include <ATen/native/DispatchStub.h>

namespace at::native {

using copy_fn = void (*)(TensorIterator& iter);
using fill_fn = void (*)(TensorIterator& iter, const Scalar& value);

// Elementwise copy between any two dtypes (iter: output, input).
DECLARE_DISPATCH(copy_fn, copy_stub);
DECLARE_DISPATCH(fill_fn, fill_stub);

}  // namespace at::native
