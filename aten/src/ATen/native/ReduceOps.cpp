// Reductions over dims: which dims, the result dtype and shape are decided
// here; the kernel only ever sees a contiguous [outer, inner] matrix whose
// rows it reduces.
#include <ATen/ATen.h>
#include <ATen/native/ReduceOps.h>

#include <vector>

namespace at::native {

DEFINE_DISPATCH(sum_rows_stub);

namespace {

// Which dims `dim` names (all of them when absent or empty).
std::vector<bool> reduced_dims(const Tensor& self, OptionalIntArrayRef dim) {
  const int64_t nd = self.dim();
  std::vector<bool> mask(nd, !dim || dim->empty());
  if (dim) {
    for (int64_t d : *dim) {
      const int64_t w = c10::maybe_wrap_dim(d, nd);
      if (nd == 0) continue;
      TORCH_CHECK(!mask[w] || dim->empty(), "dim ", w, " appears multiple times in the list of dims");
      mask[w] = true;
    }
  }
  return mask;
}

// The shape of the result: reduced dims dropped, or kept as 1.
std::vector<int64_t> result_shape(const Tensor& self, const std::vector<bool>& mask, bool keepdim) {
  std::vector<int64_t> shape;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (!mask[d]) shape.push_back(self.size(d));
    else if (keepdim) shape.push_back(1);
  }
  return shape;
}

Tensor sum_impl(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, ScalarType out_dtype) {
  const std::vector<bool> mask = reduced_dims(self, dim);
  // Kept dims first, reduced dims last: then each output element reduces one
  // contiguous row. When the reduced dims already trail, permute is identity
  // and contiguous() copies nothing.
  std::vector<int64_t> perm, kept_sizes;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (!mask[d]) {
      perm.push_back(d);
      kept_sizes.push_back(self.size(d));
      outer *= self.size(d);
    }
  }
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (mask[d]) {
      perm.push_back(d);
      inner *= self.size(d);
    }
  }
  Tensor in = self.to(out_dtype).permute(perm).contiguous();
  Tensor out = at::empty(kept_sizes, out_dtype, self.device());
  if (outer > 0) sum_rows_stub(self.device().type, out, in, outer, inner);
  return out.view(result_shape(self, mask, keepdim));
}

ScalarType sum_dtype(const Tensor& self, std::optional<ScalarType> dtype) {
  if (dtype) return *dtype;
  return c10::isIntegralType(self.scalar_type(), true) ? ScalarType::Long : self.scalar_type();
}

}  // namespace

Tensor sum(const Tensor& self, std::optional<ScalarType> dtype) {
  return sum_impl(self, std::nullopt, false, sum_dtype(self, dtype));
}

Tensor sum(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  return sum_impl(self, dim, keepdim, sum_dtype(self, dtype));
}

Tensor mean(const Tensor& self, OptionalIntArrayRef dim, bool keepdim, std::optional<ScalarType> dtype) {
  const ScalarType t = dtype.value_or(self.scalar_type());
  TORCH_CHECK(c10::isFloatingType(t),
              "mean(): could not infer output dtype. ", dtype ? "Optional" : "Input",
              " dtype must be either a floating point or complex dtype. Got: ", t);
  const std::vector<bool> mask = reduced_dims(self, dim);
  int64_t count = 1;
  for (int64_t d = 0; d < self.dim(); ++d)
    if (mask[d]) count *= self.size(d);
  Tensor total = sum_impl(self, dim, keepdim, t);
  return total.div_(at::scalar_tensor(static_cast<double>(count), t));
}

Tensor mean(const Tensor& self, std::optional<ScalarType> dtype) {
  return at::mean(self, OptionalIntArrayRef(std::nullopt), false, dtype);
}

}  // namespace at::native
