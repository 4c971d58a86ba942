#include <ATen/FromBlob.h>

namespace at {

Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, ScalarType dtype, void* ctx,
                 c10::DeleterFn deleter, Device device) {
  TORCH_CHECK(sizes.size() == strides.size(), "from_blob: ", sizes.size(), " sizes but ", strides.size(), " strides");
  int64_t extent = 1;  // elements from data to the last one, inclusive
  bool empty = false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    TORCH_CHECK(strides[i] >= 0, "from_blob: negative strides are not supported, got ", strides);
    empty = empty || sizes[i] == 0;
    extent += (sizes[i] - 1) * strides[i];
  }
  const size_t nbytes = empty ? 0 : static_cast<size_t>(extent) * c10::elementSize(dtype);
  c10::Storage storage(c10::make_intrusive<c10::StorageImpl>(c10::DataPtr(data, ctx, deleter, device), nbytes));
  auto impl = c10::make_intrusive<c10::TensorImpl>(std::move(storage), dtype, device);
  impl->set_sizes_and_strides(sizes, strides, 0);
  return Tensor(std::move(impl));
}

}  // namespace at
