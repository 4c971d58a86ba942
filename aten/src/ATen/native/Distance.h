#pragma once
// pdist (Distance.cpp) and its loops (cpu/DistanceKernel.cpp), which take
// plain pointers (so the widest capability's copy runs them):
//   pdist_stub: x transposed, xt [m, n] contiguous; out[pair(i, j)] =
//     ||x_i - x_j||_p for i < j, in the upper triangle's row order
//     (PyTorch's layout);
//   pdist_backward_stub: x [n, m] contiguous; gx [n, m] (zeroed) gets
//     d(sum g * dist)/dx, PyTorch's formulas.
#include <ATen/core/TensorBody.h>
#include <ATen/native/DispatchStub.h>
#include <c10/core/ScalarType.h>

#include <cstdint>

namespace at::native {

using pdist_fn = void (*)(c10::ScalarType type, const void* xt, int64_t n, int64_t m, double p, void* out);
using pdist_backward_fn = void (*)(c10::ScalarType type, const void* x, const void* g, const void* dist, int64_t n,
                                   int64_t m, double p, void* gx);
DECLARE_DISPATCH(pdist_fn, pdist_stub);
DECLARE_DISPATCH(pdist_backward_fn, pdist_backward_stub);

// pdist's gradient, for derivatives.yaml: each pair's incoming gradient
// times d dist / d row, added to row i and taken from row j.
TORCH_API at::Tensor pdist_backward(const at::Tensor& grad, const at::Tensor& self, double p,
                                    const at::Tensor& result);

}  // namespace at::native
