// max_unpool2d / max_unpool3d: the inverse of a max pool with indices. Each
// input value is written at the flat index (within its plane, the last 2 or
// 3 dims of the output) the pool recorded, zeros elsewhere; an index outside
// the plane raises PyTorch's error naming it. CPU tensors take one pass per
// plane (cpu/MaxUnpoolKernel.cpp); other devices a bounds check, zeros and a
// scatter. The gradient gathers at the indices (max_pool_double_backward).
#include <ATen/ATen.h>
#include <ATen/native/Pooling.h>

#include <cstdint>
#include <string>
#include <vector>

namespace at::native {

DEFINE_DISPATCH(max_unpool_stub);

namespace {

void check_non_batch_sizes(const Tensor& self, const char* fn) {
  for (int64_t i = 1; i < self.dim(); ++i) {
    TORCH_CHECK(self.size(i) > 0, fn, ": Expected input to have non-zero size for non-batch dimensions, but got ",
                self.sizes(), " with dimension ", i, " being empty.");
  }
}

std::string volume(IntArrayRef sizes) {
  std::string out;
  for (size_t i = 0; i < sizes.size(); ++i) out += (i ? "x" : "") + std::to_string(sizes[i]);
  return out;
}

Tensor unpool(const Tensor& self, const Tensor& indices, IntArrayRef output_size, const char* kernel) {
  TORCH_CHECK_NOT_IMPLEMENTED(self.is_floating_point(), "\"", kernel, "\" not implemented for '",
                              c10::toString(self.scalar_type()), "'");
  const int64_t nd = static_cast<int64_t>(output_size.size());
  const int64_t lead = self.dim() - nd;
  std::vector<int64_t> out_sizes(self.sizes().begin(), self.sizes().begin() + lead);
  int64_t planes = 1, in_plane = 1, out_plane = 1;
  for (int64_t d = 0; d < lead; ++d) planes *= self.size(d);
  for (int64_t d = lead; d < self.dim(); ++d) in_plane *= self.size(d);
  for (int64_t s : output_size) {
    TORCH_CHECK(s >= 0, kernel, ": output_size must be non-negative, but got ", output_size);
    out_sizes.push_back(s);
    out_plane *= s;
  }
  if (self.device().is_cpu()) {
    const Tensor values = self.contiguous(), idx = indices.contiguous();
    Tensor out = at::empty(out_sizes, self.scalar_type(), self.device());
    int64_t bad = 0;
    const bool in_bounds = max_unpool_stub(c10::DeviceType::CPU, self.scalar_type(), values.data_ptr(),
                                           idx.data_ptr<int64_t>(), out.data_ptr(), planes, in_plane, out_plane,
                                           &bad);
    TORCH_CHECK(in_bounds, "Found an invalid max index: ", bad, " (output volumes are of size ",
                volume(output_size), ")");
    return out;
  }
  std::vector<int64_t> flat(out_sizes.begin(), out_sizes.begin() + lead), in_flat(flat);
  flat.push_back(out_plane);
  in_flat.push_back(in_plane);
  const Tensor idx = indices.reshape(in_flat);
  if (idx.numel() > 0) {
    const int64_t lo = at::min(idx).item().toLong(), hi = at::max(idx).item().toLong();
    TORCH_CHECK(lo >= 0 && hi < out_plane, "Found an invalid max index: ", lo < 0 ? lo : hi,
                " (output volumes are of size ", volume(output_size), ")");
  }
  return at::zeros(flat, self.scalar_type(), self.device()).scatter(-1, idx, self.reshape(in_flat)).view(out_sizes);
}

}  // namespace

Tensor max_unpool2d(const Tensor& self, const Tensor& indices, IntArrayRef output_size) {
  TORCH_CHECK(indices.scalar_type() == ScalarType::Long, "elements in indices should be type int64 but got: ",
              indices.scalar_type());
  TORCH_CHECK(output_size.size() == 2, "There should be exactly two elements (height, width) in output_size, but got ",
              output_size.size(), " elements.");
  TORCH_CHECK(self.dim() == 3 || self.dim() == 4, "Input to max_unpooling2d should be a 3d or 4d Tensor, but got a "
              "tensor with ", self.dim(), " dimensions.");
  TORCH_CHECK(self.sizes() == indices.sizes(), "Expected shape of indices to be same as that of the input tensor (",
              self.sizes(), ") but got indices tensor with shape: ", indices.sizes());
  TORCH_CHECK(self.device() == indices.device(), "max_unpool2d: the input is on ", self.device(),
              " and the indices on ", indices.device());
  check_non_batch_sizes(self, "max_unpooling2d_forward_out_cpu()");
  return unpool(self, indices, output_size, "max_unpool2d");
}

Tensor max_unpool3d(const Tensor& self, const Tensor& indices, IntArrayRef output_size, IntArrayRef stride,
                    IntArrayRef padding) {
  TORCH_CHECK(indices.scalar_type() == ScalarType::Long, "elements in indices should be type int64 but got: ",
              indices.scalar_type());
  TORCH_CHECK(self.dim() == 4 || self.dim() == 5, "Input to max_unpooling3d should be a 4d or 5d Tensor, but got a "
              "tensor with ", self.dim(), " dimensions.");
  TORCH_CHECK(output_size.size() == 3, "There should be exactly three elements (depth, height, width) in "
              "output_size, but got ", output_size.size(), " elements.");
  TORCH_CHECK(stride.size() == 3, "There should be exactly three elements (depth, height, width) in stride, but got: ",
              stride.size(), " elements.");
  TORCH_CHECK(padding.size() == 3, "There should be exactly three elements (depth, height, width) in padding, but "
              "got: ", padding.size(), " elements.");
  TORCH_CHECK(self.sizes() == indices.sizes(), "Expected shape of indices to be same as that of the input tensor (",
              self.sizes(), ") but got indices tensor with shape: ", indices.sizes());
  TORCH_CHECK(self.device() == indices.device(), "max_unpool3d: the input is on ", self.device(),
              " and the indices on ", indices.device());
  check_non_batch_sizes(self, "max_unpooling3d_forward_out_cpu()");
  TORCH_CHECK(stride[0] > 0 && stride[1] > 0 && stride[2] > 0, "strides should be greater than zero, but got stride: ",
              stride);
  return unpool(self, indices, output_size, "max_unpool3d");
}

}  // namespace at::native
