#pragma once
#include <ATen/TensorIterator.h>
#include <ATen/native/DispatchStub.h>

namespace at::native {

using copy_fn = void (*)(TensorIterator& iter);
using fill_fn = void (*)(TensorIterator& iter, const Scalar& value);

// Elementwise copy between any two dtypes (iter: output, input).
DECLARE_DISPATCH(copy_fn, copy_stub);
DECLARE_DISPATCH(fill_fn, fill_stub);
// n elements from `in` (dtype src) to `out` (dtype dst), both dense, dst !=
// src. Its arguments are plain pointers, so every capability's copy runs it
// (the wide ones vectorise bool, integer and 16-bit conversions too);
// returns false for a pair it does not cover (complex), which copy_stub's
// loop then converts.
using convert_contiguous_fn = bool (*)(ScalarType dst, ScalarType src, void* out, const void* in, int64_t n);
DECLARE_DISPATCH(convert_contiguous_fn, convert_contiguous_stub);
// nbytes from src to dst where at least one side is a device (host<->device,
// device<->device); registered by the device's library (CUDA: cudaMemcpy).
using copy_bytes_fn = void (*)(void* dst, Device dst_device, const void* src, Device src_device, size_t nbytes);
DECLARE_DISPATCH(copy_bytes_fn, copy_bytes_stub);

}  // namespace at::native
