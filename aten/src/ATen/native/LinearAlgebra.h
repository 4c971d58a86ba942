#pragma once
#include <ATen/core/TensorBody.h>
#include <ATen/native/DispatchStub.h>

namespace at::native {

// out[b] = alpha * a[b] @ b[b] + beta * out[b] for 3-D a [B, m, k], b [B, k, n]
// and a contiguous out [B, m, n]; the inputs may have any strides.
using bmm_fn = void (*)(const Tensor& out, const Tensor& a, const Tensor& b, const Scalar& alpha,
                        const Scalar& beta);
DECLARE_DISPATCH(bmm_fn, bmm_stub);

}  // namespace at::native
