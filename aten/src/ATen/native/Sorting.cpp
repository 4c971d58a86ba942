// sort and topk along one dim: each row is ordered with its indices, NaN
// counting as the largest value, as in PyTorch. argsort and msort-like
// helpers are composites over sort.
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/native/RadixSort.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace at::native {
namespace {

template <typename T>
bool is_nan(T v) {
  if constexpr (c10::is_floating_v<T>) {
    return std::isnan(static_cast<float>(v));
  } else {
    return false;
  }
}

// Strict "a comes before b" for ascending or descending order, NaN largest.
template <typename T>
bool before(T a, T b, bool descending) {
  const bool na = is_nan(a), nb = is_nan(b);
  if (na || nb) return descending ? (na && !nb) : (!na && nb);
  return descending ? b < a : a < b;
}

// Moves `dim` last and makes it contiguous: each row is one line to order.
Tensor rows_of(const Tensor& self, int64_t d, std::vector<int64_t>& perm) {
  perm.clear();
  for (int64_t i = 0; i < self.dim(); ++i)
    if (i != d) perm.push_back(i);
  perm.push_back(d);
  return self.permute(perm).contiguous();
}

Tensor restore(const Tensor& rows, const std::vector<int64_t>& perm) {
  std::vector<int64_t> inverse(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) inverse[perm[i]] = static_cast<int64_t>(i);
  return rows.permute(inverse).contiguous();
}

// Orders the first k of each row of `rows` ([outer, n]); k == n sorts fully.
std::tuple<Tensor, Tensor> order_rows(const Tensor& rows, int64_t k, bool descending, bool stable) {
  const int64_t n = rows.dim() == 0 ? 1 : rows.size(-1);
  const int64_t outer = n == 0 ? 0 : rows.numel() / n;
  std::vector<int64_t> out_shape = rows.sizes().vec();
  if (!out_shape.empty()) out_shape.back() = k;
  Tensor values = at::empty(out_shape, rows.scalar_type(), rows.device());
  Tensor indices = at::empty(out_shape, ScalarType::Long, rows.device());
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(rows.scalar_type(), "sort", [&] {
    const scalar_t* x = static_cast<const scalar_t*>(rows.data_ptr());
    scalar_t* v = static_cast<scalar_t*>(values.data_ptr());
    int64_t* ix = indices.data_ptr<int64_t>();
    (void)stable;  // both orders are stable
    if (k == n) {
      // A full sort: the radix sort of RadixSort.h, rows split across threads.
      at::parallel_for(0, outer, std::max<int64_t>(1, 32768 / std::max<int64_t>(n, 1)), [&](int64_t b, int64_t e) {
        auto& sorter = radix::RowSorter<scalar_t>::for_thread();
        for (int64_t r = b; r < e; ++r) {
          const scalar_t* row = x + r * n;
          const int64_t* order = sorter.sort(row, n, descending);
          for (int64_t j = 0; j < n; ++j) {
            v[r * n + j] = row[order[j]];
            ix[r * n + j] = order[j];
          }
        }
        sorter.trim();
      });
      return;
    }
    std::vector<int64_t> order(n);
    for (int64_t r = 0; r < outer; ++r) {
      const scalar_t* row = x + r * n;
      std::iota(order.begin(), order.end(), 0);
      auto cmp = [&](int64_t a, int64_t b) { return before(row[a], row[b], descending); };
      std::partial_sort(order.begin(), order.begin() + k, order.end(), cmp);
      for (int64_t j = 0; j < k; ++j) {
        v[r * k + j] = row[order[j]];
        ix[r * k + j] = order[j];
      }
    }
  });
  return {values, indices};
}

}  // namespace

std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim, bool descending) {
  return at::sort(self, false, dim, descending);
}

std::tuple<Tensor, Tensor> sort(const Tensor& self, std::optional<bool> stable, int64_t dim, bool descending) {
  const int64_t d = c10::maybe_wrap_dim(dim, self.dim());
  if (self.dim() == 0) return {self.clone(), at::zeros({}, ScalarType::Long, self.device())};
  std::vector<int64_t> perm;
  const Tensor rows = rows_of(self, d, perm);
  (void)stable;  // always stable, which PyTorch allows for any value
  auto [values, indices] = order_rows(rows, rows.size(-1), descending, true);
  return {restore(values, perm), restore(indices, perm)};
}

std::tuple<Tensor, Tensor> topk(const Tensor& self, int64_t k, int64_t dim, bool largest, bool sorted) {
  const int64_t d = c10::maybe_wrap_dim(dim, self.dim());
  TORCH_CHECK(self.scalar_type() != ScalarType::Bool || !self.is_cpu(), "topk does not support bool dtypes on CPU");
  const int64_t n = self.dim() == 0 ? 1 : self.size(d);
  TORCH_CHECK(k >= 0 && k <= n, "selected index k out of range");
  (void)sorted;  // always sorted, which PyTorch allows
  if (self.dim() == 0) return {self.clone(), at::zeros({}, ScalarType::Long, self.device())};
  if (k == 0) {  // nothing to select: no pass over self
    std::vector<int64_t> shape = self.sizes().vec();
    shape[d] = 0;
    return {at::empty(shape, self.scalar_type(), self.device()), at::empty(shape, ScalarType::Long, self.device())};
  }
  std::vector<int64_t> perm;
  const Tensor rows = rows_of(self, d, perm);
  auto [values, indices] = order_rows(rows, k, largest, true);
  return {restore(values, perm), restore(indices, perm)};
}

Tensor argsort(const Tensor& self, int64_t dim, bool descending) {
  return std::get<1>(at::sort(self, false, dim, descending));
}

}  // namespace at::native
