#pragma once
#include <ATen/core/TensorBody.h>
#include <ATen/native/DispatchStub.h>

#include <string_view>
#include <tuple>

namespace at::native {

// out [outer, n, inner] = src [outer, size, inner] rows picked by index [n];
// out and src contiguous, index int64 contiguous and already bounds-checked.
using index_select_fn = void (*)(const Tensor& out, const Tensor& src, const Tensor& index, int64_t outer,
                                 int64_t inner);
DECLARE_DISPATCH(index_select_fn, index_select_stub);

enum class ScatterMode { Gather, Scatter, ScatterAdd, ScatterFill, ScatterMul, ScatterMax, ScatterMin };
// Gather: out[pos] = self[pos with dim -> index[pos]]; the scatters write
// self[pos with dim -> index[pos]] from src[pos] (or value), or fold src[pos]
// into it (add, mul, max, min; max and min let a NaN win). index is int64 and
// contiguous; `pos` ranges over index's shape.
using scatter_gather_fn = void (*)(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                                   const Tensor& out, const Scalar& value, ScatterMode mode);
DECLARE_DISPATCH(scatter_gather_fn, scatter_gather_stub);

// The coordinates of the non-zero elements of a contiguous tensor: [n, dim].
using nonzero_fn = Tensor (*)(const Tensor& self);
DECLARE_DISPATCH(nonzero_fn, nonzero_stub);

// self2d[index[m], :] = values2d[m, :] (or +=); values contiguous, self strided.
using index_put_rows_fn = void (*)(const Tensor& self2d, const Tensor& index, const Tensor& values2d,
                                   bool accumulate);
DECLARE_DISPATCH(index_put_rows_fn, index_put_rows_stub);

// index_reduce_'s few large slices: target [outer, size, inner] and source
// [outer, n, inner], contiguous and of one dtype; source's slice k folds into
// target's slice rows[k] (bounds-checked) by `fold`, in k's order. Without
// include_self the slices reached start from `identity`. (mean is a Sum here;
// the division by the count comes after.)
enum class SliceFold { Prod, Sum, Max, Min };
using index_reduce_slices_fn = void (*)(const Tensor& target, const Tensor& source, const int64_t* rows, int64_t n,
                                        int64_t outer, int64_t inner, SliceFold fold, bool include_self,
                                        const Scalar& identity);
DECLARE_DISPATCH(index_reduce_slices_fn, index_reduce_slices_stub);

// take's gradient: each read element's gradient added back at its flat
// index (repeats add up), in self's shape. The indices were checked by take.
Tensor take_backward(const Tensor& grad, IntArrayRef self_sizes, const Tensor& index);

// scatter_reduce's gradients of self and src, by PyTorch's formulas (a
// max or min shared evenly among the values that reached it; prod by the
// product of the others, exact where one factor is zero).
std::tuple<Tensor, Tensor> scatter_reduce_backward(const Tensor& grad, const Tensor& self, int64_t dim,
                                                   const Tensor& index, const Tensor& src, std::string_view reduce,
                                                   bool include_self, const Tensor& result);

// index_reduce's gradients of self and source: scatter_reduce's, with the
// index spread over source's slices.
std::tuple<Tensor, Tensor> index_reduce_backward(const Tensor& grad, const Tensor& self, int64_t dim,
                                                 const Tensor& index, const Tensor& source, std::string_view reduce,
                                                 bool include_self, const Tensor& result);

// masked_scatter's gradient for source: grad where the mask is set, in
// order, then zeros for the source elements nothing took.
Tensor masked_scatter_backward(const Tensor& grad, const Tensor& mask, IntArrayRef source_sizes);

}  // namespace at::native
