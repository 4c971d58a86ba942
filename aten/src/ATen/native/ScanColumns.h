#pragma once
// Scans along a dim that is not the last (ReduceOps.cpp's scan): `in` is
// contiguous [outer, n, inner] and each of its outer * inner columns of n
// elements is scanned, the columns side by side so that every step runs
// along `inner` contiguous elements, without moving the dim last first.
// CPU only. Each column's result equals the row scan of that column for
// CumSum and LogCumSumExp (the same operations in the same order); Softmax
// and LogSoftmax are float only, with the row kernel's float exp and double
// sum (equal to it within rounding).
#include <ATen/native/ReduceOps.h>

namespace at::native {

using scan_columns_fn = void (*)(const Tensor& out, const Tensor& in, int64_t outer, int64_t n, int64_t inner,
                                 ScanOp op);
DECLARE_DISPATCH(scan_columns_fn, scan_columns_stub);

}  // namespace at::native
