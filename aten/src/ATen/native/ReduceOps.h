#pragma once
#include <ATen/core/TensorBody.h>
#include <ATen/native/DispatchStub.h>

namespace at::native {

// renorm's gradient (ReduceOps.cpp).
TORCH_API Tensor renorm_backward(const Tensor& grad, const Tensor& self, const Scalar& p, int64_t dim,
                                 const Scalar& maxnorm);

// NanSum: Sum with NaN as 0 (CPU only; other devices compose where and sum).
enum class ReduceOp { Sum, NanSum, Prod, Max, Min, ArgMax, ArgMin, Any, All, Norm, Var, LogSumExp };

struct ReduceParams {
  ReduceOp op;
  double p = 2;           // Norm: the order
  double correction = 1;  // Var: divide by N - correction
  bool sqrt = false;      // Var: give the standard deviation, its root taken in double (3e19's std fits a float)
  // `in` is laid out [inner, outer] (the reduced dims lead): reduce columns.
  // Only for Sum, Prod, Max, Min, Any and All without indices. With
  // column_blocks = A > 1 (the reduced dims in the middle), `in` is A such
  // blocks one after another, [A, inner, outer / A], each reduced into its
  // own outer / A results.
  bool columns = false;
  int64_t column_blocks = 1;
  // Sum only, CPU only: `in` is float16/bfloat16 and `out` float32 (mean
  // accumulates and divides in float32 without a widened copy of the input).
  bool float_out = false;
  // Sum only, CPU only: `in` is bool and `out` int64 (mask.sum(),
  // count_nonzero: the bytes are counted without an int64 copy of them).
  bool long_out = false;
};

// Reduces each row of a contiguous `in` viewed as [outer, inner] (or each
// column of [inner, outer], see `columns`) into out[i] (values; undefined for
// ArgMax/ArgMin) and indices[i] (Max, Min, ArgMax, ArgMin; may be undefined
// for Max and Min). `out` has in's dtype, except for Any/All: bool.
using reduce_rows_fn = void (*)(const Tensor& out, const Tensor& indices, const Tensor& in, int64_t outer,
                                int64_t inner, const ReduceParams& params);
DECLARE_DISPATCH(reduce_rows_fn, reduce_rows_stub);

enum class ScanOp { CumSum, LogCumSumExp, Softmax, LogSoftmax };
// out[i, :] = op(in[i, :]) for contiguous in and out of one dtype.
using scan_rows_fn = void (*)(const Tensor& out, const Tensor& in, int64_t outer, int64_t inner, ScanOp op);
DECLARE_DISPATCH(scan_rows_fn, scan_rows_stub);

}  // namespace at::native
