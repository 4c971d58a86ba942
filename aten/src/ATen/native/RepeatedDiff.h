// diff's n-th difference as one kernel (RepeatedDiff.cpp, its tiled loops
// in cpu/RepeatedDiffKernel.cpp).
#pragma once

#include <ATen/core/TensorBody.h>
#include <ATen/native/DispatchStub.h>

#include <cstdint>

namespace at::native {

// Whether repeated_diff takes x (CPU, any dtype but complex).
bool repeated_diff_applies(const Tensor& x);
// The n-th difference of x along dim (wrapped), n >= 2; records no autograd.
Tensor repeated_diff(const Tensor& x, int64_t n, int64_t dim);

// out (contiguous, non-empty, len - n along dim) = the n-th difference of src
// (contiguous) along dim.
using repeated_diff_fn = void (*)(const Tensor& src, const Tensor& out, int64_t n, int64_t dim);
DECLARE_DISPATCH(repeated_diff_fn, repeated_diff_stub);

}  // namespace at::native
