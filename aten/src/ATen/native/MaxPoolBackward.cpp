// _max_pool_backward: the gradient of every max pool (max_pool2d/3d and the
// adaptive ones) with respect to its input. Each output's gradient goes to
// the flat index, within its plane (the last nd dims), that its maximum came
// from (nowhere for -1, a window of padding only); the rest is zero. Float
// and double CPU tensors take one pass per plane
// (cpu/MaxPoolBackwardKernel.cpp); other dtypes and devices zeros and a
// scatter_add. Its own gradient (double backward) gathers at the indices.
#include <ATen/ATen.h>
#include <ATen/ScalarOps.h>
#include <ATen/native/Pooling.h>

#include <cstdint>
#include <vector>

namespace at::native {

DEFINE_DISPATCH(max_pool_backward_stub);

Tensor _max_pool_backward(const Tensor& grad, const Tensor& indices, IntArrayRef self_sizes, int64_t nd) {
  const int64_t rank = static_cast<int64_t>(self_sizes.size());
  TORCH_CHECK(nd > 0 && nd <= rank && grad.dim() == rank, "_max_pool_backward: expected a gradient of ", rank,
              " dims with ", nd, " pooled, but got one of shape ", grad.sizes());
  TORCH_CHECK(indices.scalar_type() == ScalarType::Long && indices.sizes() == grad.sizes(),
              "_max_pool_backward: expected int64 indices shaped as the gradient ", grad.sizes(), ", but got ",
              indices.scalar_type(), " indices of shape ", indices.sizes());
  TORCH_CHECK(indices.device() == grad.device(), "_max_pool_backward: the indices are on ", indices.device(),
              " and the gradient on ", grad.device());
  const int64_t lead = rank - nd;
  int64_t planes = 1, in_plane = 1, out_plane = 1;
  for (int64_t d = 0; d < lead; ++d) {
    TORCH_CHECK(grad.size(d) == self_sizes[d], "_max_pool_backward: the gradient's shape ", grad.sizes(),
                " does not match the input's ", self_sizes, " in dim ", d);
    planes *= self_sizes[d];
  }
  for (int64_t d = lead; d < rank; ++d) {
    in_plane *= self_sizes[d];
    out_plane *= grad.size(d);
  }
  const ScalarType type = grad.scalar_type();
  if (grad.device().is_cpu() && (type == ScalarType::Float || type == ScalarType::Double)) {
    const Tensor g = grad.contiguous(), idx = indices.contiguous();
    Tensor out = at::empty(self_sizes, type, grad.device());
    const bool in_bounds = max_pool_backward_stub(c10::DeviceType::CPU, type, g.data_ptr(), idx.data_ptr<int64_t>(),
                                                  out.data_ptr(), planes, in_plane, out_plane);
    TORCH_CHECK_INDEX(in_bounds, "_max_pool_backward: an index lies outside the input plane of ", in_plane,
                      " elements");
    return out;
  }
  std::vector<int64_t> flat(self_sizes.begin(), self_sizes.begin() + lead);
  flat.push_back(in_plane);
  std::vector<int64_t> out_flat(grad.sizes().begin(), grad.sizes().begin() + lead);
  out_flat.push_back(out_plane);  // not -1: a batch of 0 makes it ambiguous
  // -1 (a window of padding only) sends nothing: its gradient goes to position 0 as a zero.
  const Tensor idx = indices.reshape(out_flat);
  const Tensor none = idx.lt(wrapped_scalar_tensor(0));
  Tensor out = at::zeros(flat, type, grad.device());
  out.scatter_add_(-1, idx.clamp(Scalar(0), std::nullopt),
                   grad.reshape(out_flat).masked_fill(none, 0));
  return out.view(self_sizes);
}

}  // namespace at::native
