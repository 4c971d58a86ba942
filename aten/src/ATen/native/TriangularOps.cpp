// tril and triu: the lower or upper triangle of the last two dims (with a
// diagonal offset), zeros elsewhere. Written over comparisons of index
// grids, so one function serves every device.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/ScalarOps.h>

#include <algorithm>
#include <cstring>

namespace at::native {
namespace {

// [rows, cols] bool: where the triangle keeps self's values.
Tensor triangle_mask(const Tensor& self, int64_t diagonal, bool lower, const char* name) {
  TORCH_CHECK(self.dim() >= 2, name, ": input tensor must have at least 2 dimensions");
  const int64_t rows = self.size(-2), cols = self.size(-1);
  const Tensor i = at::arange(rows, ScalarType::Long, self.device()).view({rows, 1});
  const Tensor j = at::arange(cols, ScalarType::Long, self.device()).view({1, cols});
  const Tensor offset = j.sub(i);  // j - i
  const Tensor d = wrapped_scalar_tensor(diagonal);
  return lower ? offset.le(d) : offset.ge(d);
}

// Contiguous CPU tensors: each row of `result` zeroes the columns outside
// the triangle and, unless it is `self` (in place), copies the kept span.
const Tensor& triangle_cpu(const Tensor& self, const Tensor& result, int64_t diagonal_, bool lower) {
  const int64_t rows = self.size(-2), cols = self.size(-1), itemsize = self.element_size();
  // Beyond the matrix every offset means the same; clamped, i + diagonal cannot overflow.
  const int64_t diagonal = std::clamp<int64_t>(diagonal_, -rows - 1, cols + 1);
  const int64_t count = self.numel() / std::max<int64_t>(rows * cols, 1) * rows;
  const char* in = static_cast<const char*>(self.data_ptr());
  char* out = static_cast<char*>(result.data_ptr());
  at::parallel_for(0, rows * cols == 0 ? 0 : count, std::max<int64_t>(1, 32768 / std::max<int64_t>(cols, 1)),
                   [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const int64_t i = r % rows;
      // Columns [keep_from, keep_to) keep their values.
      const int64_t keep_from = lower ? 0 : std::clamp<int64_t>(i + diagonal, 0, cols);
      const int64_t keep_to = lower ? std::clamp<int64_t>(i + diagonal + 1, 0, cols) : cols;
      char* dst = out + r * cols * itemsize;
      const char* src = in + r * cols * itemsize;
      std::memset(dst, 0, keep_from * itemsize);
      if (keep_to > keep_from && dst != src) std::memcpy(dst + keep_from * itemsize, src + keep_from * itemsize,
                                           (keep_to - keep_from) * itemsize);
      std::memset(dst + std::max(keep_to, keep_from) * itemsize, 0, (cols - std::max(keep_to, keep_from)) * itemsize);
    }
  });
  return result;
}

Tensor triangle(const Tensor& self, int64_t diagonal, bool lower, const char* name) {
  TORCH_CHECK(self.dim() >= 2, name, ": input tensor must have at least 2 dimensions");
  // Any CPU layout (LAPACK's column-major factors too) takes the row copy,
  // after one contiguous copy: two passes, where the index grids take five.
  if (self.is_cpu()) return triangle_cpu(self.contiguous(), at::empty(self.sizes(), self.options()), diagonal, lower);
  return at::where(triangle_mask(self, diagonal, lower, name), self, at::zeros({}, self.scalar_type(), self.device()));
}

// Whether PyTorch's kernel writes `self` in place (checkTrilTriuBatchContiguous):
// up to 3 dims always, else when its matrices lie one after another (the
// first dim may be expanded). Otherwise it computes into a copy and copies
// back, which an expanded self refuses.
bool writes_in_place(const Tensor& self) {
  if (self.is_contiguous() || self.dim() <= 3) return true;
  int64_t expected = self.size(-1) * self.size(-2);
  for (int64_t i = self.dim() - 3; i >= 0; --i) {
    if (i == 0 && (self.stride(i) == 0 || self.size(i) == 1)) continue;
    if (self.stride(i) != expected) return false;
    expected *= self.size(i);
  }
  return true;
}

// In place, only the elements outside the triangle are written (zeros), so
// an expanded self is allowed where PyTorch allows it, and a shared element
// outside the triangle anywhere becomes 0.
const Tensor& triangle_(const Tensor& self, int64_t diagonal, bool lower, const char* name) {
  if (self.numel() > 0 && !writes_in_place(self)) return self.copy_(triangle(self, diagonal, lower, name));
  if (self.is_cpu() && self.dim() >= 2) {
    if (self.is_contiguous()) return triangle_cpu(self, self, diagonal, lower);
    // Column-major matrices (LAPACK's factors, a .mT): the lower triangle of
    // X^T at offset d is the upper one of X at -d, so rows of X are zeroed.
    // (Clamped first: beyond the matrix every offset means the same.)
    const Tensor t = self.transpose(-2, -1);
    if (t.is_contiguous()) {
      const int64_t d = std::clamp<int64_t>(diagonal, -self.size(-2) - 1, self.size(-1) + 1);
      triangle_cpu(t, t, -d, !lower);
      return self;
    }
  }
  return self.masked_fill_(triangle_mask(self, diagonal, lower, name).logical_not(), 0);
}

}  // namespace

Tensor tril(const Tensor& self, int64_t diagonal) { return triangle(self, diagonal, true, "tril"); }
Tensor triu(const Tensor& self, int64_t diagonal) { return triangle(self, diagonal, false, "triu"); }

const Tensor& tril_(const Tensor& self, int64_t diagonal) { return triangle_(self, diagonal, true, "tril"); }
const Tensor& triu_(const Tensor& self, int64_t diagonal) { return triangle_(self, diagonal, false, "triu"); }

}  // namespace at::native
