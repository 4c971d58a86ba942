// Reductions over dims: which dims, the result dtype and shape are decided
// here; the kernel (cpu/ReduceOpsKernel.cpp) only ever sees a contiguous
// [outer, inner] matrix whose rows it reduces.
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/ScalarOps.h>
#include <ATen/native/ReduceOps.h>
#include <ATen/native/ScanColumns.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace at::native {

DEFINE_DISPATCH(reduce_rows_stub);
DEFINE_DISPATCH(scan_rows_stub);
DEFINE_DISPATCH(scan_columns_stub);

namespace {

// Which dims `dim` names (all of them when absent or empty).
std::vector<bool> reduced_dims(const Tensor& self, OptionalIntArrayRef dim) {
  const int64_t nd = self.dim();
  std::vector<bool> mask(nd, !dim || dim->empty());
  if (dim) {
    for (int64_t d : *dim) (void)c10::maybe_wrap_dim(d, nd);  // every dim in range before any repeat, as PyTorch
    for (int64_t d : *dim) {
      const int64_t w = c10::maybe_wrap_dim(d, nd);
      if (nd == 0) continue;
      TORCH_CHECK(!mask[w] || dim->empty(), "dim ", w, " appears multiple times in the list of dims");
      mask[w] = true;
    }
  }
  return mask;
}

// The input arranged as rows to reduce, and the shapes of the result.
struct Rows {
  Tensor rows;  // contiguous, [outer, inner]
  int64_t outer = 1, inner = 1;
  std::vector<int64_t> kept;   // result shape without keepdim
  std::vector<int64_t> shape;  // result shape as returned
};

Rows as_rows(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, ScalarType dtype, bool* columns = nullptr,
             int64_t* column_blocks = nullptr) {
  const std::vector<bool> mask = reduced_dims(self, dim);
  Rows r;
  if (columns) {
    // One run of reduced dims with kept dims after it, in a contiguous
    // tensor: reduce the columns of each block in place, no copy. Blocks
    // are the kept dims before the run (1 when it leads).
    const int64_t nd = self.dim();
    int64_t first = 0;
    while (first < nd && !mask[first]) first++;
    int64_t end = first;
    while (end < nd && mask[end]) end++;
    bool run = first < nd && end < nd;
    for (int64_t d = end; d < nd; ++d) run = run && !mask[d];
    int64_t blocks = 1, cols = 1;
    for (int64_t d = 0; d < first; ++d) blocks *= self.size(d);
    for (int64_t d = end; d < nd; ++d) cols *= self.size(d);
    // Several blocks: the CPU kernel only (CUDA's reads one block of
    // columns), and not for one column (size-1 dims after the run): the
    // reduced dims are then contiguous rows already, reduced faster as rows.
    *columns = run && (first == 0 || (self.is_cpu() && cols > 1)) && self.is_contiguous() &&
               self.scalar_type() == dtype;
    *column_blocks = *columns ? blocks : 1;
  }
  // Kept dims first, reduced dims last. When the reduced dims already trail,
  // permute is the identity and contiguous() copies nothing.
  std::vector<int64_t> perm;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (!mask[d]) {
      perm.push_back(d);
      r.kept.push_back(self.size(d));
      r.outer *= self.size(d);
      r.shape.push_back(self.size(d));
    } else if (keepdim) {
      r.shape.push_back(1);
    }
  }
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (mask[d]) {
      perm.push_back(d);
      r.inner *= self.size(d);
    }
  }
  r.rows = (columns && *columns) ? self : self.to(dtype).permute(perm).contiguous();
  return r;
}

Tensor reduce(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, ScalarType dtype, ReduceParams params,
              const char* name, bool needs_elements = false) {
  const bool column_capable = params.op == ReduceOp::Sum || params.op == ReduceOp::Prod || params.op == ReduceOp::Max ||
                              params.op == ReduceOp::Min || params.op == ReduceOp::Any || params.op == ReduceOp::All;
  bool columns = false;
  // float16/bfloat16 summed into float32 (mean): the CPU kernel reads the
  // 16-bit input itself rather than a float32 copy of it.
  params.float_out = params.op == ReduceOp::Sum && dtype == ScalarType::Float && self.is_cpu() &&
                     (self.scalar_type() == ScalarType::Half || self.scalar_type() == ScalarType::BFloat16);
  params.long_out = params.op == ReduceOp::Sum && dtype == ScalarType::Long && self.is_cpu() &&
                    self.scalar_type() == ScalarType::Bool;
  const bool narrow_rows = params.float_out || params.long_out;
  const ScalarType rows_dtype = narrow_rows ? self.scalar_type() : dtype;
  int64_t column_blocks = 1;
  Rows r = as_rows(self, dim, keepdim, rows_dtype, column_capable && !narrow_rows ? &columns : nullptr,
                   &column_blocks);
  params.columns = columns;
  params.column_blocks = column_blocks;
  TORCH_CHECK(!needs_elements || r.inner > 0 || r.outer == 0, name,
              "(): cannot perform reduction on tensor with no elements because the operation does not have an "
              "identity");
  // any/all give bool, but uint8 for uint8 input (PyTorch keeps it for old code).
  const ScalarType out_dtype = (params.op == ReduceOp::Any || params.op == ReduceOp::All)
                                   ? (self.scalar_type() == ScalarType::Byte ? ScalarType::Byte : ScalarType::Bool)
                                   : dtype;
  Tensor out = at::empty(r.kept, out_dtype, self.device());
  if (r.outer > 0) reduce_rows_stub(self.device().type, out, Tensor(), r.rows, r.outer, r.inner, params);
  return out.view(r.shape);
}

std::tuple<Tensor, Tensor> reduce_with_indices(const Tensor& self, int64_t dim, bool keepdim, ReduceOp op,
                                               const char* name, bool values) {
  const int64_t d = c10::maybe_wrap_dim(dim, self.dim());
  TORCH_CHECK_INDEX(self.dim() == 0 || self.size(d) > 0, name,
                    "(): Expected reduction dim ", d, " to have non-zero size.");
  Rows r = as_rows(self, IntArrayRef(d), keepdim, self.scalar_type());
  Tensor indices = at::empty(r.kept, ScalarType::Long, self.device());
  Tensor out = values ? at::empty(r.kept, self.scalar_type(), self.device()) : Tensor();
  if (r.outer > 0) reduce_rows_stub(self.device().type, out, indices, r.rows, r.outer, r.inner, ReduceParams{op});
  return {values ? out.view(r.shape) : Tensor(), indices.view(r.shape)};
}

ScalarType sum_dtype(const Tensor& self, std::optional<ScalarType> dtype) {
  if (dtype) return *dtype;
  return c10::isIntegralType(self.scalar_type(), true) ? ScalarType::Long : self.scalar_type();
}

ScalarType float_dtype(const Tensor& self, const char* name) {
  TORCH_CHECK(self.is_floating_point(), name, ": Expected a floating point or complex tensor as input. Got ",
              self.scalar_type());
  return self.scalar_type();
}

}  // namespace

Tensor sum(const Tensor& self, std::optional<ScalarType> dtype) {
  return reduce(self, std::nullopt, false, sum_dtype(self, dtype), {ReduceOp::Sum}, "sum");
}

Tensor sum(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  return reduce(self, dim, keepdim, sum_dtype(self, dtype), {ReduceOp::Sum}, "sum");
}

Tensor nansum(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  TORCH_CHECK(!c10::isComplexType(self.scalar_type()), "nansum does not support complex inputs");
  if (!self.is_floating_point()) return at::sum(self, dim, keepdim, dtype);  // no NaN to skip
  if (!self.is_cpu()) {
    const Tensor zero = at::scalar_tensor(0.0, self.scalar_type(), self.device());
    return at::sum(at::where(self.isnan(), zero, self), dim, keepdim, dtype);
  }
  return reduce(self, dim, keepdim, sum_dtype(self, dtype), {ReduceOp::NanSum}, "nansum");
}

Tensor mean(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  const ScalarType t = dtype.value_or(self.scalar_type());
  TORCH_CHECK(c10::isFloatingType(t), "mean(): could not infer output dtype. ", dtype ? "Optional" : "Input",
              " dtype must be either a floating point or complex dtype. Got: ", t);
  const std::vector<bool> mask = reduced_dims(self, dim);
  int64_t count = 1;
  for (int64_t d = 0; d < self.dim(); ++d)
    if (mask[d]) count *= self.size(d);
  // Sum then divide (derivatives.yaml gives the gradient). The 16-bit floating
  // types sum and divide in float32 and round once: their own range would
  // overflow both the sum and the element count (65504 for float16).
  const bool low_precision = t == ScalarType::Half || t == ScalarType::BFloat16;
  const ScalarType acc = low_precision ? ScalarType::Float : t;
  Tensor mean = at::sum(self, dim, keepdim, acc).div(at::scalar_tensor(static_cast<double>(count), acc));
  return low_precision ? mean.to(t) : mean;
}

Tensor mean(const Tensor& self, std::optional<ScalarType> dtype) {
  return at::mean(self, OptionalIntArrayRef(std::nullopt), false, dtype);
}

Tensor prod(const Tensor& self, std::optional<ScalarType> dtype) {
  return reduce(self, std::nullopt, false, sum_dtype(self, dtype), {ReduceOp::Prod}, "prod");
}

Tensor prod(const Tensor& self, int64_t dim, bool keepdim, std::optional<ScalarType> dtype) {
  return reduce(self, IntArrayRef(dim), keepdim, sum_dtype(self, dtype), {ReduceOp::Prod}, "prod");
}

Tensor max(const Tensor& self) {
  TORCH_CHECK(self.numel() > 0, "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
              "reduction dim with the 'dim' argument.");
  return reduce(self, std::nullopt, false, self.scalar_type(), {ReduceOp::Max}, "max");
}

Tensor min(const Tensor& self) {
  TORCH_CHECK(self.numel() > 0, "min(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
              "reduction dim with the 'dim' argument.");
  return reduce(self, std::nullopt, false, self.scalar_type(), {ReduceOp::Min}, "min");
}

std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim) {
  return reduce_with_indices(self, dim, keepdim, ReduceOp::Max, "max", true);
}

std::tuple<Tensor, Tensor> min(const Tensor& self, int64_t dim, bool keepdim) {
  return reduce_with_indices(self, dim, keepdim, ReduceOp::Min, "min", true);
}

namespace {
// amax/amin have no identity: PyTorch's checks, an IndexError for an empty dim.
void check_extremum_dims(const Tensor& self, IntArrayRef dim, const char* name) {
  if (dim.empty()) {
    TORCH_CHECK(self.numel() > 0, name, "(): Expected reduction dim to be specified for input.numel() == 0. Specify "
                "the reduction dim with the 'dim' argument.");
    return;
  }
  for (int64_t d : dim) {
    const int64_t w = c10::maybe_wrap_dim(d, self.dim());
    TORCH_CHECK_INDEX(self.dim() == 0 || self.size(w) > 0, name, "(): Expected reduction dim ", w,
                      " to have non-zero size.");
  }
}
}  // namespace

// Of bools the largest is any(), the smallest all(): their kernels stop at
// the first true (false) where a max reads every element. (dim=[] reduces
// every dim in amax, but not in any.)
Tensor amax(const Tensor& self, IntArrayRef dim, bool keepdim) {
  check_extremum_dims(self, dim, "amax");
  if (self.scalar_type() == ScalarType::Bool) {
    return at::any(self, dim.empty() ? OptionalIntArrayRef() : OptionalIntArrayRef(dim), keepdim);
  }
  return reduce(self, dim, keepdim, self.scalar_type(), {ReduceOp::Max}, "amax", true);
}

Tensor amin(const Tensor& self, IntArrayRef dim, bool keepdim) {
  check_extremum_dims(self, dim, "amin");
  if (self.scalar_type() == ScalarType::Bool) {
    return at::all(self, dim.empty() ? OptionalIntArrayRef() : OptionalIntArrayRef(dim), keepdim);
  }
  return reduce(self, dim, keepdim, self.scalar_type(), {ReduceOp::Min}, "amin", true);
}

namespace {

// argmax/argmin: over one dim, or over the flattened tensor when dim is absent.
Tensor arg_reduce(const Tensor& self, std::optional<int64_t> dim, bool keepdim, ReduceOp op, const char* name) {
  TORCH_CHECK(self.scalar_type() != ScalarType::Bool, name, "(): does not support bool input");
  if (dim) return std::get<1>(reduce_with_indices(self, *dim, keepdim, op, name, false));
  TORCH_CHECK_INDEX(self.numel() > 0, name, "(): Expected reduction dim to be specified for input.numel() == 0.");
  Tensor flat_index = std::get<1>(reduce_with_indices(self.reshape({-1}), 0, false, op, name, false));
  return keepdim ? flat_index.view(std::vector<int64_t>(self.dim(), 1)) : flat_index;
}

}  // namespace

Tensor argmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg_reduce(self, dim, keepdim, ReduceOp::ArgMax, "argmax");
}

Tensor argmin(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  return arg_reduce(self, dim, keepdim, ReduceOp::ArgMin, "argmin");
}

namespace {
Tensor var_or_std(const Tensor& self, OptionalIntArrayRef dim, const std::optional<Scalar>& correction, bool keepdim,
                  bool sqrt) {
  TORCH_CHECK(self.is_floating_point(), "std and var only support floating point and complex dtypes");
  if (dim && self.dim() > 0) {
    // var/std check their dims one at a time (a repeat before a later dim out
    // of range), where the other reductions check every range first.
    std::vector<bool> seen(self.dim(), false);
    for (int64_t d : *dim) {
      const int64_t w = c10::maybe_wrap_dim(d, self.dim());
      TORCH_CHECK(!seen[w], "dim ", w, " appears multiple times in the list of dims");
      seen[w] = true;
    }
  }
  ReduceParams params{ReduceOp::Var};
  params.correction = correction ? correction->toDouble() : 1.0;
  params.sqrt = sqrt;
  return reduce(self, dim, keepdim, self.scalar_type(), params, sqrt ? "std" : "var");
}
}  // namespace

Tensor var(const Tensor& self, OptionalIntArrayRef dim, const std::optional<Scalar>& correction, bool keepdim) {
  return var_or_std(self, dim, correction, keepdim, false);
}

Tensor std(const Tensor& self, OptionalIntArrayRef dim, const std::optional<Scalar>& correction, bool keepdim) {
  return var_or_std(self, dim, correction, keepdim, true);
}

// The `unbiased` forms: correction 1 (Bessel's) or 0.
Tensor var(const Tensor& self, bool unbiased) {
  return at::var(self, std::nullopt, Scalar(unbiased ? 1 : 0), false);
}
Tensor var(const Tensor& self, OptionalIntArrayRef dim, bool unbiased, bool keepdim) {
  return at::var(self, dim, Scalar(unbiased ? 1 : 0), keepdim);
}
Tensor std(const Tensor& self, bool unbiased) {
  return at::std(self, std::nullopt, Scalar(unbiased ? 1 : 0), false);
}
Tensor std(const Tensor& self, OptionalIntArrayRef dim, bool unbiased, bool keepdim) {
  return at::std(self, dim, Scalar(unbiased ? 1 : 0), keepdim);
}

// PyTorch's checks, in its order: a floating input; an order without an
// identity (negative or inf) refused over an empty tensor or empty dim; the
// dtype, which the input must convert to without narrowing.
Tensor linalg_vector_norm(const Tensor& self, const Scalar& ord, OptionalIntArrayRef dim, bool keepdim,
                          std::optional<ScalarType> dtype) {
  float_dtype(self, "linalg.vector_norm");
  const double p = ord.toDouble();
  if (self.numel() == 0 && (p < 0 || p == std::numeric_limits<double>::infinity())) {
    TORCH_CHECK(dim && !dim->empty(), "linalg.vector_norm cannot compute the ", ord,
                " norm on an empty tensor because the operation does not have an identity");
    for (int64_t d : *dim) {
      TORCH_CHECK(self.size(c10::maybe_wrap_dim(d, self.dim())) != 0, "linalg.vector_norm cannot compute the ", ord,
                  " norm on the dimension ", d, "because this dimension is empty and the operation does not have an "
                  "identity");
    }
  }
  if (dtype) {
    TORCH_CHECK(c10::isFloatingType(*dtype), "linalg.vector_norm: dtype should be floating point or complex, but got ",
                *dtype);
    TORCH_CHECK(promoteTypes(self.scalar_type(), *dtype) == *dtype, "linalg.vector_norm: the dtype of the input (",
                self.scalar_type(), ") should be convertible without narrowing to the specified dtype (", *dtype, ")");
  }
  ReduceParams params{ReduceOp::Norm};
  params.p = p;
  return reduce(self, dim, keepdim, dtype.value_or(self.scalar_type()), params, "linalg.vector_norm");
}

const Tensor& linalg_vector_norm_out(const Tensor& out, const Tensor& self, const Scalar& ord,
                                     OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  const Tensor result = at::linalg_vector_norm(self, ord, dim, keepdim, dtype);
  TORCH_CHECK(out.scalar_type() == result.scalar_type(), "Expected out tensor to have dtype ", result.scalar_type(),
              ", but got ", out.scalar_type(), " instead");
  if (!out.sizes().equals(result.sizes())) out.resize_(result.sizes());
  out.copy_(result);
  return out;
}

namespace {
// any/all over an empty list of dims reduce nothing: each element's truth.
Tensor truth_of(const Tensor& self) {
  const ScalarType t = self.scalar_type() == ScalarType::Byte ? ScalarType::Byte : ScalarType::Bool;
  return self.scalar_type() == ScalarType::Bool ? self.clone() : self.ne(wrapped_scalar_tensor(0)).to(t);
}
}  // namespace

Tensor any(const Tensor& self, OptionalIntArrayRef dim, bool keepdim) {
  if (dim && dim->empty()) return truth_of(self);
  return reduce(self, dim, keepdim, self.scalar_type(), {ReduceOp::Any}, "any");
}

Tensor all(const Tensor& self, OptionalIntArrayRef dim, bool keepdim) {
  if (dim && dim->empty()) return truth_of(self);
  return reduce(self, dim, keepdim, self.scalar_type(), {ReduceOp::All}, "all");
}

Tensor logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim) {
  const ScalarType t = self.is_floating_point() ? self.scalar_type() : c10::get_default_dtype();
  // dim=[] reduces every dim, but PyTorch 2.13 then adds the kept-dims
  // maximum back and fails to broadcast it; its error, for the same inputs.
  if (dim.empty() && !keepdim && self.dim() > 0 && self.numel() > 0) {
    TORCH_CHECK(false, "output with shape [] doesn't match the broadcast shape ",
                IntArrayRef(std::vector<int64_t>(self.dim(), 1)));
  }
  return reduce(self, dim, keepdim, t, {ReduceOp::LogSumExp}, "logsumexp");
}

// ---- scans along one dim ----

namespace {

Tensor scan(const Tensor& self, int64_t dim, ScalarType dtype, ScanOp op) {
  const int64_t nd = self.dim();
  const int64_t d = c10::maybe_wrap_dim(dim, nd);
  if (nd == 0) {
    Tensor out = at::empty({1}, dtype, self.device());
    scan_rows_stub(self.device().type, out, self.to(dtype).reshape({1}), 1, 1, op);
    return out.view(IntArrayRef{});
  }
  // Along a dim with more than one element after it, on the CPU: the columns
  // side by side in the contiguous input (ScanColumns.h), where moving the
  // dim last would cost two transposing copies and a strided scan.
  int64_t trailing = 1;
  for (int64_t i = d + 1; i < nd; ++i) trailing *= self.size(i);
  const bool columns_kernel = op == ScanOp::CumSum || op == ScanOp::LogCumSumExp || dtype == ScalarType::Float;
  if (self.is_cpu() && trailing > 1 && columns_kernel) {
    const Tensor x = self.to(dtype).contiguous();
    Tensor out = at::empty(self.sizes(), dtype, self.device());
    const int64_t n = self.size(d);
    if (x.numel() > 0) scan_columns_stub(DeviceType::CPU, out, x, x.numel() / (n * trailing), n, trailing, op);
    return out;
  }
  // A dense input stored in another order (a transposed or column-major
  // matrix, channels_last): where its memory order has elements after `dim`,
  // the columns kernel reads it as it lies, and only the result is reordered
  // (PyTorch's scans return contiguous results).
  if (self.is_cpu() && columns_kernel && self.numel() > 0) {
    std::vector<int64_t> order(nd);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return self.stride(a) > self.stride(b); });
    const Tensor stored = self.permute(order);
    const int64_t at = std::find(order.begin(), order.end(), d) - order.begin();
    int64_t after = 1;
    for (int64_t i = at + 1; i < nd; ++i) after *= stored.size(i);
    if (stored.is_contiguous() && after > 1) {
      const Tensor x = stored.to(dtype).contiguous();
      Tensor out = at::empty(stored.sizes(), dtype, self.device());
      const int64_t n = stored.size(at);
      scan_columns_stub(DeviceType::CPU, out, x, x.numel() / (n * after), n, after, op);
      std::vector<int64_t> inverse(nd);
      for (int64_t i = 0; i < nd; ++i) inverse[order[i]] = i;
      return out.permute(inverse).contiguous();
    }
  }
  // Move `dim` last so each row is one contiguous line to scan.
  std::vector<int64_t> perm;
  for (int64_t i = 0; i < nd; ++i)
    if (i != d) perm.push_back(i);
  perm.push_back(d);
  Tensor rows = self.to(dtype).permute(perm).contiguous();
  Tensor out = at::empty(rows.sizes(), dtype, self.device());
  const int64_t inner = self.size(d);
  const int64_t outer = inner == 0 ? 0 : self.numel() / inner;
  if (outer > 0) scan_rows_stub(self.device().type, out, rows, outer, inner, op);
  std::vector<int64_t> inverse(nd);
  for (int64_t i = 0; i < nd; ++i) inverse[perm[i]] = i;
  return out.permute(inverse).contiguous();
}

}  // namespace

Tensor cumsum(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return scan(self, dim, sum_dtype(self, dtype), ScanOp::CumSum);
}

// Floating types only, under PyTorch's kernel name (complex tensors have no
// arithmetic here).
Tensor logcumsumexp(const Tensor& self, int64_t dim) {
  (void)c10::maybe_wrap_dim(dim, self.dim());  // a bad dim is an IndexError before any dtype error
  TORCH_CHECK_NOT_IMPLEMENTED(c10::isFloatingType(self.scalar_type()), "\"logcumsumexp_out_cpu\" not implemented for '",
                              self.scalar_type(), "'");
  return scan(self, dim, self.scalar_type(), ScanOp::LogCumSumExp);
}

const Tensor& logcumsumexp_out(const Tensor& out, const Tensor& self, int64_t dim) {
  TORCH_CHECK(out.scalar_type() == self.scalar_type(), "expected scalar_type ", self.scalar_type(), " but found ",
              out.scalar_type());
  const Tensor result = at::native::logcumsumexp(self, dim);
  out.resize_(result.sizes());
  out.copy_(result);
  return out;
}

namespace {

Tensor softmax_kernel(const Tensor& self, int64_t dim, bool half_to_float, ScanOp op, const char* kernel) {
  (void)c10::maybe_wrap_dim(dim, self.dim());  // a bad dim is an IndexError before any dtype error
  TORCH_CHECK(!half_to_float || !self.is_cpu(), "softmax with half to float conversion is not supported on CPU");
  const ScalarType t = self.scalar_type();
  // An empty input returns before PyTorch's kernel would refuse the dtype.
  TORCH_CHECK_NOT_IMPLEMENTED(c10::isFloatingType(t) || self.numel() == 0, "\"", kernel, "\" not implemented for '", t,
                              "'");
  return scan(self, dim, half_to_float ? ScalarType::Float : t, op);
}

}  // namespace

Tensor _softmax(const Tensor& self, int64_t dim, bool half_to_float) {
  return softmax_kernel(self, dim, half_to_float, ScanOp::Softmax, "softmax_lastdim_kernel_impl");
}
Tensor _log_softmax(const Tensor& self, int64_t dim, bool half_to_float) {
  return softmax_kernel(self, dim, half_to_float, ScanOp::LogSoftmax, "log_softmax_lastdim_kernel_impl");
}

Tensor softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return at::_softmax(dtype ? self.to(*dtype) : self, dim, false);
}
Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return at::_log_softmax(dtype ? self.to(*dtype) : self, dim, false);
}

// torch.equal: the same sizes and every element equal after type promotion
// (NaN equals nothing, -0 equals 0). Dense CPU tensors of one dtype are
// compared where they lie, a block at a time, stopping after the first
// block with a difference; other pairs take eq and all.
bool equal(const Tensor& self, const Tensor& other) {
  if (!self.sizes().equals(other.sizes())) return false;
  if (!(self.is_cpu() && self.scalar_type() == other.scalar_type() && self.is_contiguous() &&
        other.is_contiguous())) {
    return at::eq(self, other).all().item().toBool();
  }
  bool same = true;
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(self.scalar_type(), "equal_cpu", [&] {
    using M = c10::opmath_t<scalar_t>;
    const scalar_t* a = self.data_ptr<scalar_t>();
    const scalar_t* b = other.data_ptr<scalar_t>();
    const int64_t n = self.numel();
    constexpr int64_t kBlock = 4096;
    for (int64_t start = 0; start < n && same; start += kBlock) {
      const int64_t end = std::min(n, start + kBlock);
      int differs = 0;
      for (int64_t i = start; i < end; ++i) differs |= static_cast<M>(a[i]) != static_cast<M>(b[i]);
      same = differs == 0;
    }
  });
  return same;
}

// Each slice along dim whose p-norm exceeds maxnorm, scaled down to it: the
// norms in one reduction over the other dims, the factor per slice, one
// multiply; its gradient is renorm_backward (RenormBackward0, as PyTorch's).
namespace {
struct RenormParts {
  Tensor norms, over, scale;  // [..1, size(dim), 1..]
  std::vector<int64_t> others;
};

RenormParts renorm_parts(const Tensor& self, const Scalar& p, int64_t dim, const Scalar& maxnorm) {
  TORCH_CHECK(self.dim() >= 2, "renorm: input needs at least 2 dimensions, got ", self.dim(), " dimensions");
  TORCH_CHECK(p.toDouble() > 0, "renorm: non-positive-norm not supported");
  TORCH_CHECK(maxnorm.toDouble() >= 0, "renorm: expected maxnorm to be >= 0 but got ", maxnorm.toDouble());
  const int64_t d = c10::maybe_wrap_dim(dim, self.dim());
  RenormParts r;
  for (int64_t k = 0; k < self.dim(); ++k)
    if (k != d) r.others.push_back(k);
  r.norms = at::linalg_vector_norm(self, p, IntArrayRef(r.others), /*keepdim=*/true, std::nullopt);
  // maxnorm as a wrapped number: any double is taken (3.5e38 against float32 norms), as in PyTorch.
  const Tensor limit = wrapped_scalar_tensor(maxnorm.toDouble());
  r.over = r.norms.gt(limit);
  r.scale = limit.div(r.norms.add(wrapped_scalar_tensor(1e-7)));
  return r;
}

Tensor renorm_factor(const RenormParts& r) {
  return at::where(r.over, r.scale, at::scalar_tensor(1.0, r.norms.scalar_type(), r.norms.device()));
}
}  // namespace

Tensor renorm(const Tensor& self, const Scalar& p, int64_t dim, const Scalar& maxnorm) {
  return self.mul(renorm_factor(renorm_parts(self, p, dim, maxnorm)));
}

const Tensor& renorm_(const Tensor& self, const Scalar& p, int64_t dim, const Scalar& maxnorm) {
  self.mul_(renorm_factor(renorm_parts(self, p, dim, maxnorm)));
  return self;
}

// In a scaled slice y = x * s(n), s = maxnorm / (n + 1e-7), so
// dx = s * g - s / (n + 1e-7) * sum(g * x) * dn/dx with dn/dx =
// sign(x) |x|^(p-1) n^(1-p); other slices pass g through. Where s is 0 (an
// infinite norm) the second term is 0, not 0 * inf.
Tensor renorm_backward(const Tensor& grad, const Tensor& self, const Scalar& p, int64_t dim, const Scalar& maxnorm) {
  const RenormParts r = renorm_parts(self, p, dim, maxnorm);
  const double pv = p.toDouble();
  const Tensor zero = at::scalar_tensor(0.0, r.norms.scalar_type(), r.norms.device());
  const Tensor eps = at::scalar_tensor(1e-7, r.norms.scalar_type(), r.norms.device());
  const Tensor dot = grad.mul(self).sum(IntArrayRef(r.others), /*keepdim=*/true, std::nullopt);
  const Tensor coef = r.scale.div(r.norms.add(eps)).mul(dot);
  Tensor dn;
  if (pv == 2) {
    dn = self.div(r.norms);
  } else if (pv == 1) {
    dn = self.sign();
  } else {
    Tensor powered = self.abs().pow(at::scalar_tensor(pv - 1, self.scalar_type(), self.device()));
    // Below p = 1, |x|^(p-1) is inf at a zero element, whose share is 0 (PyTorch's norm_backward).
    if (pv < 1) powered = powered.masked_fill(self.eq(at::scalar_tensor(0, self.scalar_type(), self.device())), 0);
    dn = self.sign().mul(powered).mul(r.norms.pow(at::scalar_tensor(1 - pv, r.norms.scalar_type(), r.norms.device())));
  }
  const Tensor second = at::where(coef.ne(zero), coef.mul(dn), zero);
  return at::where(r.over, r.scale.mul(grad).sub(second), grad);
}

}  // namespace at::native
