// Indexing with tensors: index_select, gather/scatter, nonzero, and the
// advanced indexing behind t[idx] / t[idx] = v (index, index_put_), which
// reduces every case to picking or writing rows of a 2-D view.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/MemoryOverlap.h>
#include <ATen/ExpandUtils.h>
#include <ATen/TypePromotion.h>
#include <ATen/ScalarOps.h>
#include <ATen/native/Indexing.h>

#include <atomic>
#include <limits>
#include <string>
#include <vector>

namespace at::native {

DEFINE_DISPATCH(index_select_stub);
DEFINE_DISPATCH(scatter_gather_stub);
DEFINE_DISPATCH(nonzero_stub);
DEFINE_DISPATCH(index_put_rows_stub);
DEFINE_DISPATCH(index_reduce_slices_stub);

namespace {

// scatter/gather check the index dtype only when there is an index to read.
void check_index_dtype(const Tensor& index, const char* op) {
  TORCH_CHECK(index.numel() == 0 || index.scalar_type() == ScalarType::Long || index.scalar_type() == ScalarType::Int,
              op, "(): Expected dtype int32/int64 for index");
}

// How an index outside the dim is reported, op by op as PyTorch reports it.
enum class OutOfBounds {
  IndexError,      // t[idx]: "index 5 is out of bounds for dimension 0 with size 3"
  RuntimeError,    // gather, scatter: the same words, a RuntimeError
  IndexSelect,     // index_select: "index out of range in self" (IndexError)
  IndexSelectDim1,  // index_select along dim 1, or of an empty self: "INDICES element is out of DATA bounds" (RuntimeError)
  IndexCopy        // index_copy_: "index_copy_(): index 5 is out of bounds for dimension 0 with size 3" (IndexError)
};

[[noreturn]] void out_of_bounds(int64_t value, int64_t size, int64_t dim, OutOfBounds how) {
  switch (how) {
    case OutOfBounds::IndexSelect:
      throw c10::IndexError("index out of range in self");
    case OutOfBounds::IndexSelectDim1:
      throw c10::Error(c10::detail::str("INDICES element is out of DATA bounds, id=", value, " axis_dim=", size));
    case OutOfBounds::IndexCopy:
      throw c10::IndexError(c10::detail::str("index_copy_(): index ", value, " is out of bounds for dimension ", dim,
                                             " with size ", size));
    default: {
      const std::string msg =
          c10::detail::str("index ", value, " is out of bounds for dimension ", dim, " with size ", size);
      if (how == OutOfBounds::IndexError) throw c10::IndexError(msg);
      throw c10::Error(msg);
    }
  }
}

// Checks bounds and, where the op allows negative indices (only t[idx]),
// wraps them; returns a contiguous int64 copy on the index's device.
Tensor normalize_index(const Tensor& index, int64_t size, int64_t dim, OutOfBounds how = OutOfBounds::IndexError) {
  const bool negatives = how == OutOfBounds::IndexError;
  const int64_t lowest = negatives ? -size : 0;
  Tensor idx = index.to(ScalarType::Long).contiguous();
  if (idx.numel() == 0) return idx;
  if (!idx.is_cpu()) {
    // On a device: the bounds from two reductions, the wrap as one kernel.
    const int64_t lo = idx.min().item().toLong(), hi = idx.max().item().toLong();
    if (lo < lowest) out_of_bounds(lo, size, dim, how);
    if (hi >= size) out_of_bounds(hi, size, dim, how);
    return lo >= 0 ? idx : at::where(idx.lt(wrapped_scalar_tensor(0)), idx.add(wrapped_scalar_tensor(size)), idx);
  }
  // The bounds checked a block per thread, branch-free (the first bad
  // position in order is the one reported); negatives, where they count from
  // the end and there are any, wrapped in a copy.
  const int64_t* p = idx.data_ptr<int64_t>();
  const int64_t n = idx.numel();
  std::atomic<int64_t> first_bad{n};
  std::atomic<bool> any_negative{false};
  at::parallel_for(0, n, kGrainSize, [&](int64_t begin, int64_t end) {
    bool bad = false, negative = false;
    for (int64_t i = begin; i < end; ++i) {  // no branch: the loop widens
      bad |= (p[i] < lowest) | (p[i] >= size);
      negative |= p[i] < 0;
    }
    if (negative) any_negative.store(true, std::memory_order_relaxed);
    if (!bad) return;
    int64_t i = begin;
    while (p[i] >= lowest && p[i] < size) ++i;
    int64_t seen = first_bad.load();
    while (i < seen && !first_bad.compare_exchange_weak(seen, i)) {
    }
  });
  if (first_bad.load() < n) out_of_bounds(p[first_bad.load()], size, dim, how);
  if (!negatives || !any_negative.load()) return idx;
  if (idx.data_ptr() == index.data_ptr()) idx = idx.clone();
  int64_t* q = idx.data_ptr<int64_t>();
  at::parallel_for(0, n, kGrainSize, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) q[i] += size & -static_cast<int64_t>(q[i] < 0);
  });
  return idx;
}

}  // namespace

Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index) {
  const int64_t d = c10::maybe_wrap_dim(dim, self.dim());  // a bad dim first, as PyTorch checks
  TORCH_CHECK_INDEX(index.dim() <= 1, "index_select(): Index is supposed to be a vector");
  TORCH_CHECK(index.scalar_type() == ScalarType::Long || index.scalar_type() == ScalarType::Int,
              "index_select(): Expected dtype int32 or int64 for index");
  const Tensor src = self.dim() == 0 ? self.view({1}) : self.contiguous();
  const int64_t size = src.size(d);
  // PyTorch checks an empty self of 2 or more dims apart: RuntimeErrors.
  const bool empty_matrix = self.dim() > 1 && self.numel() == 0 && index.numel() > 0;
  TORCH_CHECK(!empty_matrix || size > 0, "index_select(): self indexing axis dim should be positive");
  const Tensor idx = normalize_index(index.reshape({-1}), size, d,
                                     (d == 1 && self.dim() > 1) || empty_matrix ? OutOfBounds::IndexSelectDim1
                                                                                : OutOfBounds::IndexSelect);
  std::vector<int64_t> shape = src.sizes().vec();
  shape[d] = idx.numel();
  Tensor out = at::empty(shape, self.scalar_type(), self.device());
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < d; ++i) outer *= shape[i];
  for (int64_t i = d + 1; i < src.dim(); ++i) inner *= shape[i];
  if (out.numel() > 0) index_select_stub(self.device().type, out, src, idx, outer, inner);
  return self.dim() == 0 ? out.view(IntArrayRef{}) : out;
}

namespace {

void check_scatter_gather(const char* op, const Tensor& self, int64_t dim, const Tensor& index, const Tensor* src) {
  check_index_dtype(index, op);
  if (index.numel() == 0) return;  // nothing to read or write: PyTorch checks no shape
  TORCH_CHECK(index.dim() == self.dim() || (index.dim() <= 1 && self.dim() <= 1), op,
              "(): Index tensor must have the same number of dimensions as ", src ? "self" : "input", " tensor");
  // The kernel walks src with the index's shape: a src of another rank (a
  // 0-d index against an empty 3-d src) would be read past its end.
  TORCH_CHECK(!src || std::max<int64_t>(src->dim(), 1) == std::max<int64_t>(index.dim(), 1), op,
              "(): Index tensor must have the same number of dimensions as src tensor");
  // The index may be shorter than self except along `dim`, and never longer
  // than src along any dim: the kernel reads src at every index position.
  // A 0-d tensor counts as one element along dim 0 (PyTorch's ensure_nonempty_size).
  auto size_of = [](const Tensor& t, int64_t d) { return t.dim() == 0 ? int64_t{1} : t.size(d); };
  for (int64_t d = 0; d < std::max<int64_t>(index.dim(), 1); ++d) {
    const bool past_self = d != dim && size_of(index, d) > size_of(self, d);
    const bool past_src = src && size_of(index, d) > size_of(*src, d);
    TORCH_CHECK(!past_self && !past_src, op, "(): Expected index ", index.sizes(), " to be no larger than ",
                src ? "self" : "input", " ", self.sizes(), " apart from dimension ", dim,
                src ? c10::detail::str(" and to be no larger size than src ", src->sizes()) : std::string());
  }
}

// An in-place scatter writes self element by element: no aliasing of its own
// elements, and no reading of an index or src that it overwrites.
void check_scatter_overlap(const Tensor& self, const Tensor& index, const Tensor* src) {
  assert_no_internal_overlap(self);
  assert_no_overlap(self, index);
  if (src) assert_no_overlap(self, *src);
}

}  // namespace

Tensor gather(const Tensor& self, int64_t dim, const Tensor& index) {
  const int64_t d = c10::maybe_wrap_dim(dim, self.dim());
  check_scatter_gather("gather", self, d, index, nullptr);
  const Tensor idx = normalize_index(index, self.dim() == 0 ? 1 : self.size(d), d, OutOfBounds::RuntimeError);
  Tensor out = at::empty(index.sizes(), self.scalar_type(), self.device());
  if (out.numel() > 0) scatter_gather_stub(self.device().type, self, d, idx, Tensor(), out, 0, ScatterMode::Gather);
  return out;
}

const Tensor& scatter_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  const int64_t d = c10::maybe_wrap_dim(dim, self.dim());
  check_scatter_gather("scatter", self, d, index, &src);
  TORCH_CHECK(src.scalar_type() == self.scalar_type(), "scatter(): Expected self.dtype to be equal to src.dtype");
  check_scatter_overlap(self, index, &src);
  const Tensor idx = normalize_index(index, self.dim() == 0 ? 1 : self.size(d), d, OutOfBounds::RuntimeError);
  if (idx.numel() > 0) scatter_gather_stub(self.device().type, self, d, idx, src, Tensor(), 0, ScatterMode::Scatter);
  return self;
}

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return self.clone().scatter_(dim, index, src);
}

const Tensor& scatter_(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  const int64_t d = c10::maybe_wrap_dim(dim, self.dim());
  check_scatter_gather("scatter", self, d, index, nullptr);
  check_scatter_overlap(self, index, nullptr);
  const Tensor idx = normalize_index(index, self.dim() == 0 ? 1 : self.size(d), d, OutOfBounds::RuntimeError);
  if (idx.numel() > 0) {
    scatter_gather_stub(self.device().type, self, d, idx, Tensor(), Tensor(), value, ScatterMode::ScatterFill);
  }
  return self;
}

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return self.clone().scatter_(dim, index, value);
}

const Tensor& scatter_add_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  const int64_t d = c10::maybe_wrap_dim(dim, self.dim());
  check_scatter_gather("scatter_add", self, d, index, &src);
  TORCH_CHECK(src.scalar_type() == self.scalar_type(), "scatter_add(): Expected self.dtype to be equal to src.dtype");
  check_scatter_overlap(self, index, &src);
  const Tensor idx = normalize_index(index, self.dim() == 0 ? 1 : self.size(d), d, OutOfBounds::RuntimeError);
  if (idx.numel() > 0) {
    scatter_gather_stub(self.device().type, self, d, idx, src, Tensor(), 0, ScatterMode::ScatterAdd);
  }
  return self;
}

Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return self.clone().scatter_add_(dim, index, src);
}

namespace {

// scatter_reduce's `reduce` names, PyTorch's spellings ("max" and "min" too).
ScatterMode scatter_reduce_mode(std::string_view reduce) {
  if (reduce == "sum" || reduce == "mean") return ScatterMode::ScatterAdd;
  if (reduce == "prod") return ScatterMode::ScatterMul;
  if (reduce == "amax" || reduce == "max") return ScatterMode::ScatterMax;
  if (reduce == "amin" || reduce == "min") return ScatterMode::ScatterMin;
  TORCH_CHECK(false, "reduce argument must be either sum, prod, mean, amax or amin, got ", reduce);
}

// The reduction's identity in self's dtype: what include_self=False starts from.
Scalar scatter_reduce_identity(ScatterMode mode, ScalarType dtype) {
  if (mode == ScatterMode::ScatterAdd) return Scalar(int64_t(0));
  if (mode == ScatterMode::ScatterMul) return Scalar(int64_t(1));
  const bool lowest = mode == ScatterMode::ScatterMax;
  if (dtype == ScalarType::Bool) return Scalar(!lowest);
  if (isFloatingType(dtype)) {
    const double inf = std::numeric_limits<double>::infinity();
    return Scalar(lowest ? -inf : inf);
  }
  Scalar bound;
  AT_DISPATCH_INTEGRAL_TYPES(dtype, "scatter_reduce", [&] {
    bound = Scalar(static_cast<int64_t>(lowest ? std::numeric_limits<scalar_t>::lowest()
                                               : std::numeric_limits<scalar_t>::max()));
  });
  return bound;
}

// mean's last step: self / count, where a count of 0 (nothing reached the
// position) counts as 1; integers round down, as PyTorch.
void divide_by_count(const Tensor& self, Tensor& count) {
  count.masked_fill_(count.eq(wrapped_scalar_tensor(Scalar(int64_t(0)))), Scalar(int64_t(1)));
  if (isIntegralType(self.scalar_type(), false)) {
    self.div_(count, "floor");
  } else {
    self.div_(count);
  }
}

}  // namespace

// scatter_reduce_: src's elements folded into self at the scattered
// positions by sum, prod, mean, amax or amin; with include_self=False each
// scattered position starts from the reduction's identity instead of self.
// amax/amin propagate NaN, and an integral mean rounds down, as PyTorch.
const Tensor& scatter_reduce_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                              std::string_view reduce, bool include_self) {
  const int64_t d = c10::maybe_wrap_dim(dim, self.dim());
  const ScatterMode mode = scatter_reduce_mode(reduce);
  const bool mean = reduce == "mean";
  check_scatter_gather("scatter", self, d, index, &src);
  TORCH_CHECK(src.scalar_type() == self.scalar_type(), "scatter(): Expected self.dtype to be equal to src.dtype");
  TORCH_CHECK_NOT_IMPLEMENTED(!mean || self.scalar_type() != ScalarType::Bool,
                              "\"scatter_gather_tensor_cpu_reduce_mean\" not implemented for 'Bool'");
  check_scatter_overlap(self, index, &src);
  const Tensor idx = normalize_index(index, self.dim() == 0 ? 1 : self.size(d), d, OutOfBounds::RuntimeError);
  if (idx.numel() == 0) return self;
  const auto device = self.device().type;
  if (!include_self) {
    scatter_gather_stub(device, self, d, idx, Tensor(), Tensor(), scatter_reduce_identity(mode, self.scalar_type()),
                        ScatterMode::ScatterFill);
  }
  scatter_gather_stub(device, self, d, idx, src, Tensor(), 0, mode);
  if (mean) {
    // How many values each position holds (itself too, with include_self); 1 where none.
    Tensor count = include_self ? at::ones_like(self) : at::zeros_like(self);
    scatter_gather_stub(device, count, d, idx, at::ones_like(src), Tensor(), 0, ScatterMode::ScatterAdd);
    divide_by_count(self, count);
  }
  return self;
}

Tensor scatter_reduce(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                      std::string_view reduce, bool include_self) {
  Tensor out = self.clone();
  out.scatter_reduce_(dim, index, src, reduce, include_self);
  return out;
}

// take: self as a flat tensor read at each index (negative from the end),
// in index's shape. The CPU loop checks each index as it reads it.
Tensor take(const Tensor& self, const Tensor& index) {
  TORCH_CHECK(index.scalar_type() == ScalarType::Long, "take(): Expected a long tensor for index, but got ",
              index.scalar_type());
  const int64_t n = self.numel();
  TORCH_CHECK_INDEX(n > 0 || index.numel() == 0, "take(): tried to take from an empty tensor");
  if (!self.is_cpu() || !index.is_cpu()) {
    const Tensor flat = index.reshape({-1});
    const Tensor low = wrapped_scalar_tensor(Scalar(-n)), high = wrapped_scalar_tensor(Scalar(n));
    const bool bad = flat.numel() && flat.lt(low).logical_or(flat.ge(high)).any().item().toBool();
    TORCH_CHECK_INDEX(!bad, "take(): an index is out of range for a tensor of ", n, " elements.");
    const Tensor wrapped = at::where(flat.lt(wrapped_scalar_tensor(Scalar(int64_t(0)))), flat.add(high), flat);
    return self.reshape({-1}).index_select(0, wrapped).view(index.sizes());
  }
  const Tensor src = self.contiguous(), idx = index.contiguous();
  Tensor out = at::empty(index.sizes(), self.options());
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(self.scalar_type(), "take_cpu", [&] {
    const scalar_t* s = src.data_ptr<scalar_t>();
    const int64_t* ix = idx.data_ptr<int64_t>();
    scalar_t* o = out.data_ptr<scalar_t>();
    for (int64_t i = 0, m = idx.numel(); i < m; ++i) {
      const int64_t j = ix[i];
      TORCH_CHECK_INDEX(j >= -n && j < n, "out of range: tried to access index ", j, " on a tensor of ", n,
                        " elements.");
      o[i] = s[j + (n & (j >> 63))];  // a negative index from the end, without a branch to mispredict
    }
  });
  return out;
}

// put_: source's elements into self read as a flat tensor, at each index
// (negative from the end), added with accumulate. Every index is checked
// before the first write.
const Tensor& put_(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  TORCH_CHECK(index.scalar_type() == ScalarType::Long, "put_(): Expected a long tensor for index, but got ",
              index.scalar_type());
  TORCH_CHECK(self.scalar_type() == source.scalar_type(), "put_(): self and source expected to have the same dtype, "
              "but got self.dtype = ", self.scalar_type(), " and source.dtype = ", source.scalar_type());
  TORCH_CHECK_INDEX(source.numel() == index.numel(), "put_(): Expected source and index to have the same number of "
                    "elements, but got source.numel() = ", source.numel(), ", index.numel() = ", index.numel());
  const int64_t n = self.numel();
  TORCH_CHECK_INDEX(n > 0 || index.numel() == 0, "put_(): Tried to put elements into an empty tensor");
  if (index.numel() == 0) return self;
  if (!self.is_cpu() || !index.is_cpu() || !source.is_cpu()) {
    const Tensor flat = index.reshape({-1});
    const Tensor low = wrapped_scalar_tensor(Scalar(-n)), high = wrapped_scalar_tensor(Scalar(n));
    TORCH_CHECK_INDEX(!flat.lt(low).logical_or(flat.ge(high)).any().item().toBool(),
                      "put_(): an index is out of range for a tensor of ", n, " elements.");
    const Tensor wrapped = at::where(flat.lt(wrapped_scalar_tensor(Scalar(int64_t(0)))), flat.add(high), flat);
    const bool in_place = self.is_contiguous();
    Tensor target = in_place ? self.view({-1}) : self.reshape({-1});  // a copy when self is strided
    target.index_put_({std::optional<Tensor>(wrapped)}, source.reshape({-1}), accumulate);
    if (!in_place) self.copy_(target.view(self.sizes()));
    return self;
  }
  const Tensor idx = index.contiguous(), src = source.contiguous();
  const int64_t* ix = idx.data_ptr<int64_t>();
  const int64_t m = idx.numel();
  for (int64_t i = 0; i < m; ++i) {
    TORCH_CHECK_INDEX(ix[i] >= -n && ix[i] < n, "out of range: tried to access index ", ix[i], " on a tensor of ", n,
                      " elements.");
  }
  const Tensor dst = self.is_contiguous() ? self : self.contiguous();
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(self.scalar_type(), "put_cpu", [&] {
    const scalar_t* s = src.data_ptr<scalar_t>();
    scalar_t* d = dst.data_ptr<scalar_t>();
    if (accumulate) {
      using M = c10::opmath_t<scalar_t>;
      for (int64_t i = 0; i < m; ++i) {
        scalar_t& slot = d[ix[i] + (n & (ix[i] >> 63))];
        slot = static_cast<scalar_t>(static_cast<M>(slot) + static_cast<M>(s[i]));
      }
    } else {
      for (int64_t i = 0; i < m; ++i) d[ix[i] + (n & (ix[i] >> 63))] = s[i];
    }
  });
  if (!dst.is_same(self)) self.copy_(dst);
  return self;
}

Tensor put(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  Tensor result = at::empty(self.sizes(), self.options());
  result.copy_(self);
  return result.put_(index, source, accumulate);
}

Tensor take_backward(const Tensor& grad, IntArrayRef self_sizes, const Tensor& index) {
  int64_t n = 1;
  for (int64_t s : self_sizes) n *= s;
  if (!grad.is_cpu() || !index.is_cpu()) {
    const Tensor flat = index.reshape({-1});
    const Tensor wrapped =
        at::where(flat.lt(wrapped_scalar_tensor(Scalar(int64_t(0)))), flat.add(wrapped_scalar_tensor(Scalar(n))), flat);
    return at::zeros({n}, grad.options()).index_add_(0, wrapped, grad.reshape({-1})).view(self_sizes);
  }
  Tensor result = at::zeros({n}, grad.options());
  const Tensor g = grad.contiguous(), idx = index.contiguous();
  AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(grad.scalar_type(), "take_backward", [&] {
    using M = c10::opmath_t<scalar_t>;
    const scalar_t* gs = g.data_ptr<scalar_t>();
    const int64_t* ix = idx.data_ptr<int64_t>();
    scalar_t* r = result.data_ptr<scalar_t>();
    for (int64_t i = 0, m = idx.numel(); i < m; ++i) {
      const int64_t j = ix[i] + (n & (ix[i] >> 63));
      r[j] = static_cast<scalar_t>(static_cast<M>(r[j]) + static_cast<M>(gs[i]));
    }
  });
  return result.view(self_sizes);
}

Tensor nonzero(const Tensor& self) { return nonzero_stub(self.device().type, self.contiguous()); }

// nonzero's columns, one index tensor per dim (a 0-d tensor counts as one dim):
// what numpy's nonzero, nonzero(as_tuple=True) and where(condition) return.
std::vector<Tensor> nonzero_numpy(const Tensor& self) {
  const Tensor indices = (self.dim() == 0 ? self.unsqueeze(0) : self).nonzero();  // [count, dims]
  std::vector<Tensor> columns;
  for (int64_t d = 0; d < indices.size(1); ++d) columns.push_back(indices.select(1, d));
  return columns;
}

std::vector<Tensor> where(const Tensor& condition) { return condition.nonzero_numpy(); }

namespace {
// f(T{}) with T an unsigned integer of the element's size: the masked
// copies move elements without looking at their dtype.
template <typename F>
void by_element_size(int64_t size, F f) {
  switch (size) {
    case 1: return f(uint8_t{});
    case 2: return f(uint16_t{});
    case 4: return f(uint32_t{});
    case 8: return f(uint64_t{});
    default: TORCH_INTERNAL_ASSERT(false, "no masked copy for elements of ", size, " bytes");
  }
}

int64_t count_set(const bool* m, int64_t n) {
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) count += m[i];
  return count;
}
}  // namespace

Tensor masked_select(const Tensor& self, const Tensor& mask) {
  TORCH_CHECK(mask.scalar_type() == ScalarType::Bool, "masked_select: expected BoolTensor for mask");
  const std::vector<int64_t> shape = infer_size(self.sizes(), mask.sizes());
  if (!self.is_cpu() || !mask.is_cpu()) return self.expand(shape).index({std::optional<Tensor>(mask.expand(shape))});
  // The CPU walk: count, then copy each selected element in order.
  const Tensor src = self.expand(shape).contiguous(), m = mask.expand(shape).contiguous();
  const bool* mp = m.data_ptr<bool>();
  const int64_t n = m.numel(), count = count_set(mp, n);
  // One spare slot: every element is written, the next slot taken only after a selected one (no branch).
  Tensor out = at::empty({count + 1}, self.options());
  by_element_size(self.element_size(), [&](auto zero) {
    using T = decltype(zero);
    const T* s = static_cast<const T*>(src.data_ptr());
    T* o = static_cast<T*>(out.data_ptr());
    int64_t k = 0;
    for (int64_t i = 0; i < n; ++i) {
      o[k] = s[i];
      k += mp[i];
    }
  });
  return out.narrow(0, 0, count);
}

// masked_scatter: source's elements, in order, into self where mask (broadcast
// to self) is set. The CPU walk counts the set places before writing any.
const Tensor& masked_scatter_(const Tensor& self, const Tensor& mask, const Tensor& source) {
  TORCH_CHECK(mask.scalar_type() == ScalarType::Bool, "masked_scatter_ only supports boolean masks, but got mask ",
              "with dtype ", mask.scalar_type());
  TORCH_CHECK(self.scalar_type() == source.scalar_type(), "masked_scatter: expected self and source to have same ",
              "dtypes but got", self.scalar_type(), " and ", source.scalar_type());
  const Tensor m = mask.expand(self.sizes());
  if (!self.is_cpu() || !mask.is_cpu() || !source.is_cpu()) {
    const int64_t count = m.sum().item().toLong();
    TORCH_CHECK(source.numel() >= count, "Number of elements of source < number of ones in mask");
    return self.index_put_({std::optional<Tensor>(m)}, source.reshape({-1}).narrow(0, 0, count), false);
  }
  const Tensor mc = m.contiguous(), src = source.contiguous();
  const bool* mp = mc.data_ptr<bool>();
  const int64_t n = mc.numel();
  TORCH_CHECK(source.numel() >= count_set(mp, n), "Number of elements of source < number of ones in mask");
  const Tensor dst = self.is_contiguous() ? self : self.contiguous();
  by_element_size(self.element_size(), [&](auto zero) {
    using T = decltype(zero);
    const T* s = static_cast<const T*>(src.data_ptr());
    T* d = static_cast<T*>(dst.data_ptr());
    // Up to the last set place, s[k] is a source element still to take
    // (k < count there), so each place can read it and select without a branch.
    int64_t end = n;
    while (end > 0 && !mp[end - 1]) --end;
    int64_t k = 0;
    for (int64_t i = 0; i < end; ++i) {
      const T v = s[k];
      d[i] = mp[i] ? v : d[i];
      k += mp[i];
    }
  });
  if (!dst.is_same(self)) self.copy_(dst);
  return self;
}

Tensor masked_scatter(const Tensor& self, const Tensor& mask, const Tensor& source) {
  const std::vector<int64_t> shape = infer_size(mask.sizes(), self.sizes());  // PyTorch's order, for the message
  Tensor result = at::empty(shape, self.options());
  result.copy_(self);
  return result.masked_scatter_(mask, source);
}

Tensor masked_scatter_backward(const Tensor& grad, const Tensor& mask, IntArrayRef source_sizes) {
  int64_t numel = 1;
  for (int64_t s : source_sizes) numel *= s;
  Tensor picked = grad.masked_select(mask);  // the first `count` elements of source went there
  if (picked.numel() < numel) picked = at::cat({picked, at::zeros({numel - picked.numel()}, grad.options())}, 0);
  return picked.view(source_sizes);
}

// ---- advanced indexing ----

namespace {

// One index tensor per dim of self (nullopt: the whole dim), bool masks
// turned into their coordinates, all defined ones broadcast together.
struct IndexPlan {
  std::vector<Tensor> index;   // per dim; undefined: not indexed
  std::vector<int64_t> batch;  // the broadcast shape of the index tensors
  std::vector<int64_t> perm;   // indexed dims first, then the others
  int64_t first = 0;           // the first indexed dim
  bool adjacent = true;        // indexed dims are consecutive: the batch stays in place
  Tensor linear;               // row numbers into self.permute(perm) viewed as [N, rest]
  int64_t rows = 1;            // N
};

IndexPlan plan_index(const Tensor& self, OptionalTensorList indices) {
  IndexPlan plan;
  std::vector<Tensor> per_dim;
  for (const auto& opt : indices) {
    if (!opt || !opt->defined()) {
      per_dim.emplace_back();
      continue;
    }
    // Indices on the CPU may index a tensor of any device (they move there);
    // device indices only a tensor of their device, as in PyTorch.
    TORCH_CHECK(opt->is_cpu() || opt->device() == self.device(),
                "indices should be either on cpu or on the same device as the indexed tensor (", self.device().str(),
                ")");
    const Tensor t = opt->device() == self.device() ? *opt : opt->to(self.device(), std::nullopt, false, false);
    if (t.scalar_type() == ScalarType::Bool || t.scalar_type() == ScalarType::Byte) {
      const int64_t start = static_cast<int64_t>(per_dim.size());
      for (int64_t j = 0; j < t.dim(); ++j) {
        TORCH_CHECK_INDEX(start + j < self.dim() && t.size(j) == self.size(start + j), "The shape of the mask ",
                          t.sizes(), " at index ", j, " does not match the shape of the indexed tensor ",
                          self.sizes(), " at index ", start + j);
      }
      TORCH_CHECK_INDEX(t.dim() > 0, "indexing with a 0-d boolean tensor is not supported");
      const Tensor coords = at::nonzero(t.to(ScalarType::Bool));
      for (int64_t j = 0; j < t.dim(); ++j) per_dim.push_back(coords.select(1, j));
      TORCH_CHECK_INDEX(t.dim() > 0, "indexing with a 0-d boolean tensor is not supported");
    } else {
      TORCH_CHECK_INDEX(t.scalar_type() == ScalarType::Long || t.scalar_type() == ScalarType::Int,
                        "tensors used as indices must be long, int, byte or bool tensors");
      per_dim.push_back(t);
    }
  }
  TORCH_CHECK_INDEX(static_cast<int64_t>(per_dim.size()) <= self.dim(), "too many indices for tensor of dimension ",
                    self.dim(), " (got ", per_dim.size(), ")");
  per_dim.resize(self.dim());
  bool any = false;
  int64_t last = -1;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (!per_dim[d].defined()) continue;
    plan.batch = any ? infer_size(plan.batch, per_dim[d].sizes()) : per_dim[d].sizes().vec();
    if (!any) plan.first = d;
    if (any && d != last + 1) plan.adjacent = false;
    any = true;
    last = d;
  }
  TORCH_INTERNAL_ASSERT(any, "index() without an index tensor");
  // Row number of each picked element in the indexed dims, flattened row-major.
  // One index tensor is its own row number (read only: it may be the caller's tensor).
  Tensor linear;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (!per_dim[d].defined()) continue;
    const Tensor idx = normalize_index(per_dim[d].expand(plan.batch), self.size(d), d);
    linear = linear.defined() ? linear.mul(wrapped_scalar_tensor(self.size(d))).add_(idx) : idx;
    plan.rows *= self.size(d);
    plan.perm.push_back(d);
  }
  for (int64_t d = 0; d < self.dim(); ++d)
    if (!per_dim[d].defined()) plan.perm.push_back(d);
  plan.linear = linear;
  plan.index = per_dim;
  return plan;
}

// self.permute(perm) viewed as [rows, rest...].
std::vector<int64_t> rest_sizes(const Tensor& self, const IndexPlan& plan) {
  std::vector<int64_t> rest;
  for (size_t i = 0; i < plan.perm.size(); ++i)
    if (!plan.index[plan.perm[i]].defined()) rest.push_back(self.size(plan.perm[i]));
  return rest;
}

// Where the batch dims go in the result: first, or in place of the indexed dims.
std::vector<int64_t> batch_to_place(int64_t nbatch, int64_t nrest, const IndexPlan& plan) {
  std::vector<int64_t> order;
  const int64_t at = plan.adjacent ? plan.first : 0;
  for (int64_t i = 0; i < at; ++i) order.push_back(nbatch + i);
  for (int64_t i = 0; i < nbatch; ++i) order.push_back(i);
  for (int64_t i = at; i < nrest; ++i) order.push_back(nbatch + i);
  return order;
}

}  // namespace

Tensor index(const Tensor& self, OptionalTensorList indices) {
  const IndexPlan plan = plan_index(self, indices);
  const std::vector<int64_t> rest = rest_sizes(self, plan);
  std::vector<int64_t> flat_shape = {plan.rows};
  flat_shape.insert(flat_shape.end(), rest.begin(), rest.end());
  const Tensor flat = self.permute(plan.perm).reshape(flat_shape);
  Tensor picked = flat.index_select(0, plan.linear.reshape({-1}));
  std::vector<int64_t> shape = plan.batch;
  shape.insert(shape.end(), rest.begin(), rest.end());
  picked = picked.view(shape);
  const std::vector<int64_t> order =
      batch_to_place(static_cast<int64_t>(plan.batch.size()), static_cast<int64_t>(rest.size()), plan);
  return picked.permute(order);
}

const Tensor& index_put_(const Tensor& self, OptionalTensorList indices, const Tensor& values, bool accumulate) {
  const IndexPlan plan = plan_index(self, indices);
  const std::vector<int64_t> rest = rest_sizes(self, plan);
  const int64_t nbatch = static_cast<int64_t>(plan.batch.size()), nrest = static_cast<int64_t>(rest.size());
  // The values broadcast to what self[indices] would return, then are laid
  // out batch-first, as the rows they fill.
  const std::vector<int64_t> order = batch_to_place(nbatch, nrest, plan);
  std::vector<int64_t> result_shape(order.size());
  std::vector<int64_t> batch_first = plan.batch;
  batch_first.insert(batch_first.end(), rest.begin(), rest.end());
  for (size_t i = 0; i < order.size(); ++i) result_shape[i] = batch_first[order[i]];
  TORCH_CHECK(values.scalar_type() == self.scalar_type() || canCast(values.scalar_type(), self.scalar_type()),
              "Index put requires the source and destination dtypes match, got ", self.scalar_type(),
              " for the destination and ", values.scalar_type(), " for the source.");
  bool fits = values.dim() <= static_cast<int64_t>(result_shape.size());
  for (int64_t i = 1; fits && i <= values.dim(); ++i) {
    const int64_t v = values.size(-i), r = result_shape[result_shape.size() - i];
    fits = v == r || v == 1;
  }
  TORCH_CHECK(fits, "shape mismatch: value tensor of shape ", values.sizes(),
              " cannot be broadcast to indexing result of shape ", IntArrayRef(result_shape));
  std::vector<int64_t> inverse(order.size());
  for (size_t i = 0; i < order.size(); ++i) inverse[order[i]] = static_cast<int64_t>(i);
  int64_t row_len = 1;
  for (int64_t s : rest) row_len *= s;
  // A 0-d CPU value (a Python number: `x[idx] = -1.0`) joins a tensor on any device.
  const bool cpu_number = values.dim() == 0 && values.device().type == DeviceType::CPU;
  const Tensor moved = cpu_number ? values.to(self.device(), self.scalar_type(), false, false) : values;
  const Tensor vals = moved.to(self.scalar_type())
                          .expand(result_shape)
                          .permute(inverse)
                          .contiguous()
                          .view({plan.linear.numel(), row_len});
  // Write into self through a [rows, rest] view; when no such view exists,
  // work on a contiguous copy and copy it back.
  const Tensor permuted = self.permute(plan.perm);
  Tensor target = permuted.is_contiguous() ? permuted.view({plan.rows, row_len}) : Tensor();
  if (!target.defined()) {
    Tensor tmp = permuted.contiguous();
    at::_index_put_rows_(tmp.view({plan.rows, row_len}), plan.linear.reshape({-1}), vals, accumulate);
    permuted.copy_(tmp);
    return self;
  }
  at::_index_put_rows_(target, plan.linear.reshape({-1}), vals, accumulate);
  return self;
}

const Tensor& _index_put_rows_(const Tensor& self, const Tensor& index, const Tensor& values, bool accumulate) {
  if (index.numel() > 0 && values.numel() > 0) {
    index_put_rows_stub(self.device().type, self, index.contiguous(), values, accumulate);
  }
  return self;
}


// ---- index_add, index_copy: slices of source added (copied) into self along dim ----

namespace {

// PyTorch's checks for index_add_ and index_reduce_ (`op`), in its order;
// returns the wrapped dim.
int64_t check_index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                        const char* op = "index_add_") {
  const int64_t d = c10::maybe_wrap_dim(dim, self.dim());
  TORCH_CHECK_INDEX(index.dim() <= 1, op, "(): Index is supposed to be a vector, but got dim: ", index.dim(),
                    " with type: ", index.scalar_type(), " and size: ", index.sizes());
  TORCH_CHECK(index.scalar_type() == ScalarType::Long || index.scalar_type() == ScalarType::Int,
              op, "(): Expected dtype int32/int64 for index but got: ", index.scalar_type());
  TORCH_CHECK(self.scalar_type() == source.scalar_type(), op, "(): self (", self.scalar_type(),
              ") and source (", source.scalar_type(), ") must have the same scalar type");
  const int64_t along = source.dim() == 0 ? 1 : source.size(std::min(d, source.dim() - 1));
  TORCH_CHECK(index.numel() == along, op, "(): Number of indices (", index.numel(),
              ") should be equal to source.size(dim): (", along, "), for dim: ", d);
  bool same = self.dim() == source.dim();
  for (int64_t i = 0; same && i < self.dim(); ++i) same = i == d || self.size(i) == source.size(i);
  TORCH_CHECK(same, "source tensor shape must match self tensor shape, excluding the specified dimension. Got "
              "self.shape = ", self.sizes(), " source.shape = ", source.sizes());
  return d;
}

std::string slice_shape(const Tensor& t, int64_t drop) {
  std::string out;
  for (int64_t i = 0; i < t.dim(); ++i) {
    if (i == drop) continue;
    out += (out.empty() ? "" : " ") + std::to_string(t.size(i));
  }
  return out;
}

// PyTorch's checks for index_copy_, in its order (another set of words).
int64_t check_index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  const int64_t d = c10::maybe_wrap_dim(dim, self.dim());
  TORCH_CHECK_INDEX(index.dim() < 2, "index_copy_(): Index should have dimension 1 or 0 (got ", index.dim(), ")");
  const int64_t n = index.numel();
  TORCH_CHECK_INDEX(source.dim() != 0 || n == 1, "index_copy_(): When source is scalar, index should have one "
                    "element (got ", n, ")");
  TORCH_CHECK_INDEX(source.dim() == self.dim() || source.dim() == 0 || self.dim() == 0,
                    "index_copy_(): When source and destination are not scalars, their dimensionality must match. "
                    "Source dimensionality (", source.dim(), "), destination dimensionality (", self.dim(), ")");
  TORCH_CHECK(index.scalar_type() == ScalarType::Long, "index_copy_(): Expected a long tensor for index, but got ",
              index.scalar_type());
  TORCH_CHECK(self.scalar_type() == source.scalar_type(), "index_copy_(): self and source expected to have the "
              "same dtype, but got (self) ", self.scalar_type(), " and (source) ", source.scalar_type());
  const int64_t sd = source.dim() == 0 ? 0 : d;
  bool same = std::max<int64_t>(self.dim(), 1) == std::max<int64_t>(source.dim(), 1);
  for (int64_t i = 0; same && i < self.dim(); ++i) same = i == d || self.size(i) == source.size(i);
  TORCH_CHECK(same, "index_copy_(): Source/destination tensor must have same slice shapes. Destination slice "
              "shape: ", slice_shape(self, d), " at dimension ", d, " and source slice shape: ",
              slice_shape(source, sd), " at dimension 0.");
  TORCH_CHECK_INDEX(source.dim() == 0 || n == source.size(d), "index_copy_(): Number of indices (", n,
                    ") should be equal to source.size(dim) (", source.size(d), ")");
  return d;
}

// Writes (or adds) source's slices into self's at index along dim, through
// index_put_ (whose row kernel runs on every device). An index outside the
// dim is reported in the words of the op and rank (normalize_index).
const Tensor& put_slices(const Tensor& self, int64_t d, const Tensor& index, const Tensor& source, bool accumulate) {
  if (index.numel() == 0) return self;
  const Tensor target = self.dim() == 0 ? self.view({1}) : self;
  const OutOfBounds how = !accumulate ? OutOfBounds::IndexCopy
                          : self.dim() <= 1 ? OutOfBounds::IndexSelect  // index_add_ of a vector: IndexError
                                            : OutOfBounds::RuntimeError;
  const Tensor idx = normalize_index(index.reshape({-1}), target.size(d), d, how);
  if (d == 0 && target.is_contiguous() && source.dim() == target.dim()) {
    // Whole rows of a dense self: the row kernel directly (index_put_ would
    // plan the same rows and check the bounds a second time).
    const int64_t row_len = target.numel() / std::max<int64_t>(target.size(0), 1);
    const Tensor rows = source.contiguous().view({idx.numel(), row_len});
    at::_index_put_rows_(target.view({target.size(0), row_len}), idx, rows, accumulate);
    return self;
  }
  std::vector<std::optional<Tensor>> indices(d);
  indices.emplace_back(idx);
  target.index_put_(indices, source.dim() == 0 ? source.view({1}) : source, accumulate);
  return self;
}

}  // namespace

const Tensor& index_add_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                         const Scalar& alpha) {
  const int64_t d = check_index_add(self, dim, index, source);
  // After the arguments' checks, as in PyTorch: self may share no memory
  // with itself, the index or the source (the result would depend on the order).
  assert_no_internal_overlap(self);
  assert_no_overlap(self, index);
  assert_no_overlap(self, source);
  if (self.scalar_type() != ScalarType::Bool) check_scalar_fits(alpha, self.scalar_type());
  // alpha in self's dtype, as PyTorch's kernel takes it (1.5 adds once to integers).
  const bool scaled = self.scalar_type() != ScalarType::Bool &&
                      (self.is_floating_point() ? alpha.toDouble() != 1.0 : alpha.to_unchecked<int64_t>() != 1);
  // A bool alpha of False adds nothing (PyTorch's kernel ands it in); the bounds are still checked.
  const bool dropped = self.scalar_type() == ScalarType::Bool && !alpha.toBool();
  const Tensor src = scaled ? source.mul(scalar_tensor_of(alpha, self.scalar_type()))
                     : dropped ? at::zeros_like(source) : source;
  return put_slices(self, d, index, src, true);
}

Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha) {
  const Tensor out = self.clone();
  native::index_add_(out, dim, index, source, alpha);
  return out;
}

std::tuple<Tensor, Tensor> scatter_reduce_backward(const Tensor& grad, const Tensor& self, int64_t dim,
                                                   const Tensor& index, const Tensor& src, std::string_view reduce,
                                                   bool include_self, const Tensor& result) {
  // The forward's aliases "max" and "min" have no gradient in PyTorch: its words.
  TORCH_CHECK(reduce == "sum" || reduce == "prod" || reduce == "mean" || reduce == "amax" || reduce == "amin",
              "Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', 'amin' but got ", reduce, ".");
  const Tensor zero = at::scalar_tensor(0, self.scalar_type());
  Tensor grad_self, grad_src;
  if (reduce == "sum") {
    grad_self = grad;
    grad_src = grad.gather(dim, index);
  } else if (reduce == "mean") {
    Tensor n = include_self ? at::ones_like(grad) : at::zeros_like(grad);
    n.scatter_add_(dim, index, at::ones_like(src));
    n.masked_fill_(n.eq(zero), Scalar(1.0));
    grad_self = grad.div(n);
    grad_src = grad.gather(dim, index).div(n.gather(dim, index));
  } else if (reduce == "prod") {
    // self's share: the product of everything else, computed without self's
    // zeros (a division by them would give NaN).
    const Tensor masked_self = self.masked_fill(self.eq(zero), Scalar(1.0));
    grad_self = grad.mul(masked_self.scatter_reduce(dim, index, src, reduce, include_self)).div(masked_self);
    // src's share: result / src, except for the one zero of a position that
    // has exactly one, whose share is the product of the rest.
    const Tensor src_zero = src.eq(zero);
    const Tensor zeros_here =
        at::zeros_like(self).scatter_add(dim, index, src_zero.to(self.scalar_type())).gather(dim, index);
    const Tensor single_zero = src_zero.logical_and(zeros_here.eq(at::scalar_tensor(1, self.scalar_type())));
    const Tensor without_it = self.scatter_reduce(dim, index, src.masked_fill(single_zero, Scalar(1.0)), reduce,
                                                  include_self);
    grad_src = at::where(single_zero, grad.mul(without_it).gather(dim, index),
                         grad.mul(result).gather(dim, index).div(src.masked_fill(src_zero, Scalar(1.0))));
  } else {  // amax, amin: shared evenly among self and the src values equal to the result
    const Tensor self_is = self.eq(result).to(self.scalar_type());
    const Tensor src_is = src.eq(result.gather(dim, index)).to(self.scalar_type());
    const Tensor share = grad.div(self_is.scatter_add(dim, index, src_is));
    grad_self = self_is.mul(share);
    grad_src = src_is.mul(share.gather(dim, index));
  }
  // Without include_self, self's values at the scattered positions took no part.
  if (!include_self) grad_self = grad_self.scatter(dim, index, Scalar(0.0));
  return {grad_self, grad_src};
}

namespace {

// index_reduce's source slice k goes to self's slice index[k]: as a scatter
// index, index[k] at every position of source's slice k.
Tensor spread_index(const Tensor& index, const Tensor& source, int64_t d) {
  std::vector<int64_t> shape(std::max<int64_t>(source.dim(), 1), 1);
  shape[d] = index.numel();
  return index.reshape(shape).expand(source.dim() == 0 ? IntArrayRef{1} : source.sizes());
}

}  // namespace

// index_reduce_: source's slices folded into self's at index along dim by
// prod, mean, amax or amin: scatter_reduce_ with the index spread over them.
const Tensor& index_reduce_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                            std::string_view reduce, bool include_self) {
  TORCH_CHECK(reduce == "prod" || reduce == "mean" || reduce == "amax" || reduce == "amin",
              "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got ", reduce, ".");
  const int64_t d = check_index_add(self, dim, index, source, "index_reduce_");
  assert_no_internal_overlap(self);
  assert_no_overlap(self, index);
  assert_no_overlap(self, source);
  if (self.scalar_type() == ScalarType::Bool) {  // PyTorch's kernels take bool only in some of their paths
    TORCH_CHECK_NOT_IMPLEMENTED(include_self, "\"index_reduce_func_exclude_input_init\" not implemented for 'Bool'");
    TORCH_CHECK_NOT_IMPLEMENTED(self.dim() > 1, "\"index_func_\" not implemented for 'Bool'");
    TORCH_CHECK_NOT_IMPLEMENTED(reduce != "mean", "\"div_floor_cpu\" not implemented for 'Bool'");
  }
  if (index.numel() == 0) return self;
  const Tensor target = self.dim() == 0 ? self.view({1}) : self;
  const Tensor src = source.dim() == 0 ? source.view({1}) : source;
  const Tensor idx = normalize_index(index.reshape({-1}), target.size(d), d, OutOfBounds::IndexSelect);
  const int64_t n = idx.numel();
  if (!self.is_cpu() || src.numel() / n < 256) {
    target.scatter_reduce_(d, spread_index(idx, src, d), src, reduce, include_self);
    return self;
  }
  // Few large slices (a batch dim): each slice folded into its row, where
  // the scatter would spread the index over every element. A contiguous
  // target takes one kernel over all slices; another an elementwise op per
  // slice, as PyTorch runs it (32 slices of 3072 bools: 1.6x PyTorch's time).
  const int64_t* rows = idx.data_ptr<int64_t>();
  const bool mean = reduce == "mean";
  const Scalar start = scatter_reduce_identity(scatter_reduce_mode(reduce), self.scalar_type());
  if (target.is_contiguous() && src.scalar_type() == target.scalar_type()) {
    int64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < d; ++i) outer *= target.size(i);
    for (int64_t i = d + 1; i < target.dim(); ++i) inner *= target.size(i);
    const SliceFold fold = reduce == "prod" ? SliceFold::Prod
                           : mean           ? SliceFold::Sum
                           : reduce == "amax" ? SliceFold::Max
                                              : SliceFold::Min;
    index_reduce_slices_stub(DeviceType::CPU, target, src.contiguous(), rows, n, outer, inner, fold, include_self,
                             start);
  } else {
    if (!include_self) {
      for (int64_t k = 0; k < n; ++k) target.select(d, rows[k]).fill_(start);
    }
    for (int64_t k = 0; k < n; ++k) {
      const Tensor slot = target.select(d, rows[k]), part = src.select(d, k);
      if (reduce == "prod") {
        slot.mul_(part);
      } else if (mean) {
        slot.add_(part);
      } else if (reduce == "amax") {
        slot.maximum_(part);  // a NaN wins, as in the scatter
      } else {
        slot.minimum_(part);
      }
    }
  }
  if (mean) {
    std::vector<int64_t> shape(target.dim(), 1);
    shape[d] = target.size(d);
    Tensor count = at::full({target.size(d)}, Scalar(include_self ? int64_t(1) : int64_t(0)), self.scalar_type(),
                            self.device());
    count.index_add_(0, idx, at::ones({n}, self.scalar_type(), self.device()), Scalar(int64_t(1)));
    Tensor spread = count.view(shape);
    divide_by_count(target, spread);
  }
  return self;
}

Tensor index_reduce(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                    std::string_view reduce, bool include_self) {
  const Tensor out = self.clone();
  native::index_reduce_(out, dim, index, source, reduce, include_self);
  return out;
}

std::tuple<Tensor, Tensor> index_reduce_backward(const Tensor& grad, const Tensor& self, int64_t dim,
                                                 const Tensor& index, const Tensor& source, std::string_view reduce,
                                                 bool include_self, const Tensor& result) {
  if (index.numel() == 0) return {grad, at::zeros_like(source)};
  auto vec = [](const Tensor& t) { return t.dim() == 0 ? t.view({1}) : t; };
  const int64_t d = c10::maybe_wrap_dim(dim, self.dim());
  const Tensor flat_index = index.reshape({-1}).to(ScalarType::Long);
  if (reduce == "mean") {
    // A whole slice shares one count: select along dim and divide by a count
    // per slice broadcast over the others (no index the size of source).
    const Tensor g = vec(grad);
    Tensor counts = include_self ? at::ones({g.size(d)}, g.options()) : at::zeros({g.size(d)}, g.options());
    counts.index_add_(0, flat_index, at::ones({flat_index.numel()}, g.options()), Scalar(1));
    counts = counts.clamp(Scalar(1), std::nullopt);  // a slice nothing reached keeps its gradient
    std::vector<int64_t> shape(g.dim(), 1);
    shape[d] = -1;
    Tensor grad_self = g.div(counts.view(shape));
    const Tensor grad_source = g.index_select(d, flat_index).div(counts.index_select(0, flat_index).view(shape));
    // Without include_self, self's values in the reached slices took no part.
    if (!include_self) grad_self = grad_self.index_fill(d, flat_index, Scalar(0.0));
    return {grad_self.view(self.sizes()), grad_source.view(source.sizes())};
  }
  const Tensor spread = spread_index(flat_index, source, d);
  auto [grad_self, grad_source] = scatter_reduce_backward(vec(grad), vec(self), d, spread, vec(source), reduce,
                                                          include_self, vec(result));
  return {grad_self.view(self.sizes()), grad_source.view(source.sizes())};
}

const Tensor& index_copy_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  c10::maybe_wrap_dim(dim, self.dim());
  assert_no_internal_overlap(self);  // before the other checks, as in PyTorch
  assert_no_overlap(self, index);
  assert_no_overlap(self, source);
  const int64_t d = check_index_copy(self, dim, index, source);
  return put_slices(self, d, index, source, false);
}

Tensor index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  const Tensor out = self.clone();
  native::index_copy_(out, dim, index, source);
  return out;
}

// index_fill_: PyTorch's checks in its order, every index bounds-checked
// (negative ones count from the end) before anything is written; then one
// loop over [outer, index, inner] for a contiguous CPU tensor, a fill_ per
// index otherwise. A 0-d self is filled as a 1-element vector.
const Tensor& index_fill_(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  TORCH_CHECK_INDEX(index.scalar_type() == ScalarType::Long, "index_fill_(): Expected dtype int64 for index.");
  assert_no_overlap(self, index);
  const Tensor target = self.dim() == 0 ? self.unsqueeze(-1) : self;
  const int64_t d = c10::maybe_wrap_dim(dim, target.dim());
  TORCH_CHECK(index.dim() <= 1, "Index has to be a vector/scalar");
  const Tensor idx = index.reshape({-1}).to(kCPU, std::nullopt).contiguous();
  const int64_t* ip = idx.data_ptr<int64_t>();
  const int64_t count = idx.numel(), size = target.size(d);
  std::vector<int64_t> wrapped(count);
  for (int64_t k = 0; k < count; ++k) {
    TORCH_CHECK_INDEX(ip[k] >= -size && ip[k] < size, "index ", ip[k], " is out of bounds for dimension ", d,
                      " with size ", size);
    wrapped[k] = ip[k] < 0 ? ip[k] + size : ip[k];
  }
  // The value must fit the dtype even when nothing is filled, as in PyTorch.
  if (!c10::isComplexType(target.scalar_type())) check_scalar_fits(value, target.scalar_type());
  if (count == 0 || target.numel() == 0) return self;
  if (!target.is_cpu() || !target.is_contiguous() || c10::isComplexType(target.scalar_type())) {
    for (int64_t i : wrapped) target.select(d, i).fill_(value);
    return self;
  }
  int64_t outer = 1, inner = 1;
  for (int64_t k = 0; k < d; ++k) outer *= target.size(k);
  for (int64_t k = d + 1; k < target.dim(); ++k) inner *= target.size(k);
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(target.scalar_type(), "index_fill_", [&] {
    const scalar_t v = value.to<scalar_t>();
    scalar_t* base = target.data_ptr<scalar_t>();
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i : wrapped) std::fill_n(base + (o * size + i) * inner, inner, v);
  });
  return self;
}

const Tensor& index_fill_(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& value) {
  TORCH_CHECK(value.dim() == 0, "index_fill_ only supports a 0-dimensional value tensor, but got tensor with ",
              value.dim(), " dimension(s).");
  return native::index_fill_(self, dim, index, value.item());
}

Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  const Tensor out = self.clone();
  native::index_fill_(out, dim, index, value);
  return out;
}

Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& value) {
  const Tensor out = self.clone();
  native::index_fill_(out, dim, index, value);
  return out;
}

}  // namespace at::native
