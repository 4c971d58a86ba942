#pragma once
// ${generated_comment}
//
// Tensor methods: each forwards to the at:: function of the same schema.
#include <ATen/Functions.h>

namespace at {

${tensor_method_definitions}

// Hand-written spellings of PyTorch's C++ API.
inline at::Tensor Tensor::type_as(const Tensor& other) const {
  return at::to(*this, other.device(), other.scalar_type(), false, false);
}
inline at::Tensor Tensor::toType(ScalarType dtype) const { return at::to(*this, dtype); }
inline at::Tensor Tensor::cpu() const { return at::to(*this, Device(DeviceType::CPU), std::nullopt, false, false); }
inline at::Tensor Tensor::cuda() const { return at::to(*this, Device(DeviceType::CUDA), std::nullopt, false, false); }
inline at::Tensor Tensor::to(const TensorOptions& options, bool non_blocking, bool copy) const {
  return at::to(*this, options.device_opt(), options.dtype_opt(), non_blocking, copy);
}

template <typename T>
T Tensor::item() const {
  return at::item(*this).to<T>();
}

}  // namespace at
