#include <ATen/ExpandUtils.h>

namespace at {

std::vector<int64_t> infer_size(c10::IntArrayRef a, c10::IntArrayRef b) {
  const size_t ndim = std::max(a.size(), b.size());
  std::vector<int64_t> out(ndim);
  for (size_t i = 0; i < ndim; ++i) {
    // Align from the right.
    const int64_t da = i < ndim - a.size() ? 1 : a[i - (ndim - a.size())];
    const int64_t db = i < ndim - b.size() ? 1 : b[i - (ndim - b.size())];
    TORCH_CHECK(da == db || da == 1 || db == 1, "The size of tensor a (", da,
                ") must match the size of tensor b (", db, ") at non-singleton dimension ", i);
    out[i] = da == 1 ? db : da;
  }
  return out;
}

}  // namespace at
