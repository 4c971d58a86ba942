// Order statistics without a full sort: kthvalue, median and nanmedian pick
// each row's element by quickselect (std::nth_element, O(n) on average).
// Elements are ordered by value with NaN largest, then by position, as
// PyTorch's median does: a total order, so the index returned among equal
// values is the one a stable sort would put there, on every platform.
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

namespace at::native {
namespace {

// What a row is reduced to: the k-th smallest (0-based), the median (NaN
// when the row has one), or the median of the row's non-NaN elements.
enum class Pick { Kth, Median, NanMedian };

template <typename V>
struct Item {
  V value;
  int64_t index;
};

template <typename V>
bool is_nan(V v) {
  if constexpr (std::is_floating_point_v<V>) {
    return std::isnan(v);
  } else {
    return false;
  }
}

// NaN after every number; equal values (NaN among NaN too) by position.
template <typename V>
bool comes_before(const Item<V>& a, const Item<V>& b) {
  if constexpr (std::is_floating_point_v<V>) {
    const bool an = std::isnan(a.value), bn = std::isnan(b.value);
    if (an || bn) return an == bn ? a.index < b.index : bn;
  }
  if (a.value < b.value) return true;
  if (b.value < a.value) return false;
  return a.index < b.index;
}

// Reduces each row of `rows` ([outer, n], contiguous, n >= 1) into
// values[r] and indices[r].
template <typename scalar_t>
void select_rows(const Tensor& rows, int64_t n, Pick pick, int64_t k, scalar_t* values, int64_t* indices) {
  // Half and bfloat16 compare as float; every other type as itself.
  using V = c10::opmath_t<scalar_t>;
  const scalar_t* x = static_cast<const scalar_t*>(rows.data_ptr());
  const int64_t outer = rows.numel() / n;
  at::parallel_for(0, outer, std::max<int64_t>(1, 32768 / n), [&](int64_t begin, int64_t end) {
    std::vector<Item<V>> items(static_cast<size_t>(n));
    for (int64_t r = begin; r < end; ++r) {
      const scalar_t* row = x + r * n;
      int64_t nans = 0, first_nan = -1;
      for (int64_t j = 0; j < n; ++j) {
        const V v = static_cast<V>(row[j]);
        items[j] = {v, j};
        if (is_nan(v)) {
          if (first_nan < 0) first_nan = j;
          ++nans;
        }
      }
      if (pick == Pick::Median && nans > 0) {  // the median of a row with NaN is NaN: its first one
        values[r] = row[first_nan];
        indices[r] = first_nan;
        continue;
      }
      // nanmedian of an all-NaN row: its first NaN (position 0 of the order).
      const int64_t target = pick == Pick::Kth ? k
                             : pick == Pick::Median ? (n - 1) / 2
                                                    : std::max<int64_t>(n - nans - 1, 0) / 2;
      std::nth_element(items.begin(), items.begin() + target, items.end(), comes_before<V>);
      values[r] = row[items[target].index];
      indices[r] = items[target].index;
    }
  });
}

// Moves `d` last and makes it contiguous: one row per output element.
Tensor as_rows(const Tensor& self, int64_t d) {
  if (self.dim() == 0) return self.reshape({1, 1});
  std::vector<int64_t> perm;
  for (int64_t i = 0; i < self.dim(); ++i)
    if (i != d) perm.push_back(i);
  perm.push_back(d);
  return self.permute(perm).contiguous();
}

std::tuple<Tensor, Tensor> select_along(const Tensor& self, int64_t dim, bool keepdim, Pick pick, int64_t k,
                                        const char* name, const char* dispatch_name) {
  const int64_t d = c10::maybe_wrap_dim(dim, self.dim());
  const int64_t n = self.dim() == 0 ? 1 : self.size(d);
  TORCH_CHECK_INDEX(n > 0, name, "(): Expected reduction dim ", d, " to have non-zero size.");
  if (pick == Pick::Kth) {
    TORCH_CHECK(k >= 1 && k <= n, "kthvalue(): selected number k out of range for dimension ", d);
  }
  // The dtype check comes first, as PyTorch's dispatch, even for an empty result.
  TORCH_CHECK_NOT_IMPLEMENTED(self.scalar_type() != ScalarType::Bool, '"', dispatch_name,
                              "\" not implemented for 'Bool'");
  std::vector<int64_t> shape = self.sizes().vec();
  if (!shape.empty()) {
    if (keepdim) {
      shape[d] = 1;
    } else {
      shape.erase(shape.begin() + d);
    }
  }
  Tensor values = at::empty(shape, self.scalar_type(), self.device());
  Tensor indices = at::empty(shape, ScalarType::Long, self.device());
  if (values.numel() == 0) return {values, indices};
  const Tensor rows = as_rows(self, d);
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(self.scalar_type(), dispatch_name, [&] {
    select_rows<scalar_t>(rows, n, pick, k - 1, values.data_ptr<scalar_t>(), indices.data_ptr<int64_t>());
  });
  return {values, indices};
}

// What PyTorch's median() gives for an empty tensor: NaN converted to the
// dtype as x86 converts it (the "integer indefinite" 0x80000000, or its
// 64-bit form, truncated to the type's width; true for bool).
Tensor empty_median(const Tensor& self) {
  Tensor out = at::empty({}, self.scalar_type(), self.device());
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(self.scalar_type(), "median_cpu", [&] {
    scalar_t* v = out.data_ptr<scalar_t>();
    if constexpr (std::is_same_v<scalar_t, bool>) {
      *v = true;
    } else if constexpr (std::is_integral_v<scalar_t>) {
      const uint64_t indefinite = sizeof(scalar_t) == 8 ? uint64_t{1} << 63 : uint64_t{1} << 31;
      *v = static_cast<scalar_t>(indefinite);  // modulo the type's width
    } else {
      *v = static_cast<scalar_t>(std::numeric_limits<float>::quiet_NaN());
    }
  });
  return out;
}

// median() and nanmedian() of the whole tensor: no index to keep, so a
// quickselect over a copy of the values alone (half the bytes of the
// value-index pairs).
Tensor select_all(const Tensor& self, Pick pick) {
  if (self.numel() == 0) return empty_median(self);
  Tensor out = at::empty({}, self.scalar_type(), self.device());
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(self.scalar_type(), "median_cpu", [&] {
    using V = c10::opmath_t<scalar_t>;
    scalar_t* result = out.data_ptr<scalar_t>();
    const Tensor flat = self.reshape({-1}).contiguous();
    const scalar_t* x = flat.data_ptr<scalar_t>();
    const int64_t n = flat.numel();
    // The values to select from: NaN left out, and counted.
    std::vector<V> values;
    values.reserve(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      const V v = static_cast<V>(x[i]);
      if (!is_nan(v)) values.push_back(v);
    }
    const bool has_nan = static_cast<int64_t>(values.size()) < n;
    if (values.empty() || (pick == Pick::Median && has_nan)) {  // floats only: NaN
      *result = static_cast<scalar_t>(std::numeric_limits<float>::quiet_NaN());
      return;
    }
    auto middle = values.begin() + (values.size() - 1) / 2;
    std::nth_element(values.begin(), middle, values.end());
    *result = static_cast<scalar_t>(*middle);
  });
  return out;
}

}  // namespace

std::tuple<Tensor, Tensor> kthvalue(const Tensor& self, int64_t k, int64_t dim, bool keepdim) {
  return select_along(self, dim, keepdim, Pick::Kth, k, "kthvalue", "kthvalue_cpu");
}

std::tuple<Tensor, Tensor> median(const Tensor& self, int64_t dim, bool keepdim) {
  return select_along(self, dim, keepdim, Pick::Median, 0, "median", "median_out");
}

std::tuple<Tensor, Tensor> nanmedian(const Tensor& self, int64_t dim, bool keepdim) {
  return select_along(self, dim, keepdim, Pick::NanMedian, 0, "median", "median_out");
}

Tensor median(const Tensor& self) { return select_all(self, Pick::Median); }

Tensor nanmedian(const Tensor& self) { return select_all(self, Pick::NanMedian); }

}  // namespace at::native
