#pragma once
#include <ATen/core/TensorBody.h>
#include <ATen/native/DispatchStub.h>

namespace at::native {

// out[m, n] = a[m, k] @ b[k, n]; all three contiguous and of one dtype.
using mm_fn = void (*)(const Tensor& out, const Tensor& a, const Tensor& b);
DECLARE_DISPATCH(mm_fn, mm_stub);

}  // namespace at::native
