// embedding: rows of `weight` picked by integer indices. Indices must lie in
// [0, num_weights) (no negative wrap, as in PyTorch); the row padding_idx
// gets no gradient.
#include <ATen/ATen.h>
#include <ATen/ScalarOps.h>

namespace at::native {

Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx, bool scale_grad_by_freq,
                 bool sparse) {
  TORCH_CHECK(weight.dim() == 2, "'weight' must be 2-D");
  TORCH_CHECK(indices.scalar_type() == ScalarType::Long || indices.scalar_type() == ScalarType::Int,
              "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; "
              "but got ", indices.scalar_type(), " instead (while checking arguments for embedding)");
  (void)padding_idx;
  (void)scale_grad_by_freq;
  // index_select checks the indices, as in PyTorch (errors included), before the sparse refusal.
  const Tensor rows = weight.index_select(0, indices.reshape({-1}));
  TORCH_CHECK(!sparse, "embedding: sparse gradients are not supported");
  std::vector<int64_t> shape = indices.sizes().vec();
  shape.push_back(weight.size(1));
  return rows.view(shape);
}

}  // namespace at::native
