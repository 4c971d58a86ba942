#pragma once
#include <ATen/core/TensorBody.h>
#include <ATen/native/DispatchStub.h>

namespace at::native {

// out[i] = sum of in[i, :] for a contiguous `in` viewed as [outer, inner].
using sum_rows_fn = void (*)(const Tensor& out, const Tensor& in, int64_t outer, int64_t inner);
DECLARE_DISPATCH(sum_rows_fn, sum_rows_stub);

}  // namespace at::native
