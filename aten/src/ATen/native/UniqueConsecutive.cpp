// unique_consecutive over the flattened tensor: one pass that notes the
// first of each run of equal elements (NaN equals nothing, so each NaN is
// a run of its own, as PyTorch), with each element's run number (inverse)
// and each run's length (counts). With dim, runs of equal slices. _unique2
// (torch.unique) is that pass over the sorted elements, its run numbers
// carried back through the sort's order; unique_dim (torch.unique with dim)
// the same over slices sorted lexicographically.
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>

#include <algorithm>
#include <memory>
#include <vector>

namespace at::native {

namespace {

// Fills `inverse` (when defined with elements) with each position's run
// number, and returns the runs' lengths (empty unless asked for), from the
// runs' starts followed by the total length.
Tensor fill_inverse_and_count(const int64_t* starts, int64_t runs, Tensor& inverse, bool return_inverse,
                              bool return_counts, Device device) {
  if (return_inverse) {
    int64_t* inv = inverse.data_ptr<int64_t>();
    for (int64_t k = 0; k < runs; ++k) std::fill(inv + starts[k], inv + starts[k + 1], k);
  }
  Tensor counts = at::empty({return_counts ? runs : 0}, ScalarType::Long, device);
  if (return_counts) {
    int64_t* c = counts.data_ptr<int64_t>();
    for (int64_t k = 0; k < runs; ++k) c[k] = starts[k + 1] - starts[k];
  }
  return counts;
}

// Along `dim`: runs of equal slices (every element ==, so a slice with NaN
// starts a run of its own), with PyTorch's checks for empty dims.
std::tuple<Tensor, Tensor, Tensor> unique_consecutive_slices(const Tensor& self, int64_t dim, bool return_inverse,
                                                             bool return_counts) {
  TORCH_CHECK_INDEX(self.dim() > 0, "Dimension specified as ", dim, " but tensor has no dimensions");
  const int64_t d = c10::maybe_wrap_dim(dim, self.dim());
  const int64_t n = self.size(d);
  const auto zero_dims = std::count(self.sizes().begin(), self.sizes().end(), int64_t{0});
  if (n == 0) {
    TORCH_CHECK(zero_dims == 1, "Number of zero sized dimensions is more than one, so unique cannot be applied ");
    return {at::empty(self.sizes(), self.scalar_type(), self.device()),
            at::empty({0}, ScalarType::Long, self.device()), at::empty({0}, ScalarType::Long, self.device())};
  }
  TORCH_CHECK(zero_dims == 0, "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied");
  const Tensor rows = self.transpose(0, d).contiguous().reshape({n, -1});  // the order within a slice is immaterial
  const int64_t width = rows.size(1);
  std::vector<int64_t> starts{0};
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(rows.scalar_type(), "unique_consecutive", [&] {
    const scalar_t* x = rows.data_ptr<scalar_t>();
    for (int64_t i = 1; i < n; ++i) {
      const scalar_t* a = x + i * width;
      const scalar_t* b = a - width;
      bool same = true;
      for (int64_t j = 0; j < width && same; ++j) same = a[j] == b[j];
      if (!same) starts.push_back(i);
    }
  });
  const int64_t runs = static_cast<int64_t>(starts.size());
  Tensor index = at::empty({runs}, ScalarType::Long, self.device());
  std::copy(starts.begin(), starts.end(), index.data_ptr<int64_t>());
  starts.push_back(n);
  Tensor inverse = at::empty({return_inverse ? n : 0}, ScalarType::Long, self.device());
  Tensor counts = fill_inverse_and_count(starts.data(), runs, inverse, return_inverse, return_counts, self.device());
  return {self.index_select(d, index), inverse, counts};
}

// Ascending with NaN after every number (torch.sort's order), so that the
// comparison is a strict weak order even with NaN in the slices.
template <typename T>
bool sorts_before(T a, T b) {
  if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, c10::Half> || std::is_same_v<T, c10::BFloat16>) {
    return a < b || (a == a && b != b);
  } else {
    return a < b;
  }
}

}  // namespace

std::tuple<Tensor, Tensor, Tensor> unique_dim(const Tensor& self, int64_t dim, bool sorted, bool return_inverse,
                                              bool return_counts) {
  (void)sorted;  // sorted either way, as PyTorch's CPU kernel
  if (self.dim() == 0 || self.numel() == 0) return unique_consecutive_slices(self, dim, true, true);  // its checks
  const int64_t d = c10::maybe_wrap_dim(dim, self.dim());
  const int64_t n = self.size(d);
  // Slice i is row i of the tensor with dim d moved to the front, the other
  // dims in their order: its elements in the order they compare in.
  std::vector<int64_t> perm{d};
  for (int64_t k = 0; k < self.dim(); ++k)
    if (k != d) perm.push_back(k);
  const Tensor rows = self.permute(perm).contiguous().reshape({n, -1});
  const int64_t width = rows.size(1);
  std::vector<int64_t> order(n);
  for (int64_t i = 0; i < n; ++i) order[i] = i;
  std::vector<int64_t> starts{0};  // positions in `order` where a run of equal slices begins
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(rows.scalar_type(), "unique_dim", [&] {
    const scalar_t* x = rows.data_ptr<scalar_t>();
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
      const scalar_t* ra = x + a * width;
      const scalar_t* rb = x + b * width;
      for (int64_t j = 0; j < width; ++j) {
        if (sorts_before(ra[j], rb[j])) return true;
        if (sorts_before(rb[j], ra[j])) return false;
      }
      return false;
    });
    for (int64_t i = 1; i < n; ++i) {  // == as unique_consecutive: a slice with NaN is a run of its own
      const scalar_t* a = x + order[i] * width;
      const scalar_t* b = x + order[i - 1] * width;
      bool same = true;
      for (int64_t j = 0; j < width && same; ++j) same = a[j] == b[j];
      if (!same) starts.push_back(i);
    }
  });
  const int64_t runs = static_cast<int64_t>(starts.size());
  Tensor first = at::empty({runs}, ScalarType::Long, self.device());  // each run's first slice
  int64_t* f = first.data_ptr<int64_t>();
  for (int64_t k = 0; k < runs; ++k) f[k] = order[starts[k]];
  starts.push_back(n);
  Tensor inverse = at::empty({return_inverse ? n : 0}, ScalarType::Long, self.device());
  if (return_inverse) {
    int64_t* inv = inverse.data_ptr<int64_t>();
    for (int64_t k = 0; k < runs; ++k)
      for (int64_t i = starts[k]; i < starts[k + 1]; ++i) inv[order[i]] = k;
  }
  Tensor counts = at::empty({return_counts ? runs : 0}, ScalarType::Long, self.device());
  if (return_counts) {
    int64_t* c = counts.data_ptr<int64_t>();
    for (int64_t k = 0; k < runs; ++k) c[k] = starts[k + 1] - starts[k];
  }
  return {self.index_select(d, first), inverse, counts};
}

std::tuple<Tensor, Tensor, Tensor> unique_consecutive(const Tensor& self, bool return_inverse, bool return_counts,
                                                      std::optional<int64_t> dim) {
  // Along a dim PyTorch returns the inverse and the counts whatever the flags
  // say; dim 0 (not -1) of a 1-d tensor takes the flat path, as there.
  if (dim.has_value() && !(*dim == 0 && self.dim() == 1)) return unique_consecutive_slices(self, *dim, true, true);
  const Tensor flat = self.reshape({-1}).contiguous();
  const int64_t n = flat.numel();
  Tensor inverse = at::empty(return_inverse ? self.sizes() : IntArrayRef{0}, ScalarType::Long, self.device());
  // One pass with no branch on the data: every position is stored, and the
  // slot moves on only at a new run (a stream compaction). Only the slots
  // used are touched, so room for n + 1 of them costs nothing more.
  std::unique_ptr<int64_t[]> starts(new int64_t[n + 1]);  // starts[k]: where run k begins; then n
  int64_t runs = 0;
  Tensor values;
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(flat.scalar_type(), "unique_consecutive", [&] {
    const scalar_t* x = flat.data_ptr<scalar_t>();
    if (n > 0) {
      starts[0] = 0;
      int64_t* slot = starts.get();
      int64_t r = 1;
      for (int64_t i = 1; i < n; ++i) {
        slot[r] = i;
        r += !(x[i] == x[i - 1]);
      }
      runs = r;
    }
    starts[runs] = n;
    values = at::empty({runs}, flat.scalar_type(), self.device());
    scalar_t* v = values.data_ptr<scalar_t>();
    for (int64_t k = 0; k < runs; ++k) v[k] = x[starts[k]];
  });
  Tensor counts = fill_inverse_and_count(starts.get(), runs, inverse, return_inverse, return_counts, self.device());
  return {values, inverse, counts};
}

std::tuple<Tensor, Tensor, Tensor> _unique2(const Tensor& self, bool sorted, bool return_inverse, bool return_counts) {
  (void)sorted;  // sorted either way, as PyTorch's CPU kernel
  const Tensor flat = self.reshape({-1});
  auto [values, order] = at::sort(flat, -1, false);
  auto [uniq, group, counts] = at::unique_consecutive(values, return_inverse, return_counts, std::nullopt);
  Tensor inverse = at::empty(return_inverse ? self.sizes() : IntArrayRef{0}, ScalarType::Long, self.device());
  if (return_inverse) {
    const Tensor order_c = order.contiguous();
    const int64_t* o = order_c.data_ptr<int64_t>();
    const int64_t* g = group.data_ptr<int64_t>();
    int64_t* inv = inverse.data_ptr<int64_t>();
    const int64_t n = flat.numel();
    for (int64_t i = 0; i < n; ++i) inv[o[i]] = g[i];
  }
  return {uniq, inverse, counts};
}

}  // namespace at::native
