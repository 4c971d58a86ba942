#pragma once
// ${generated_comment}
//
// at::Tensor: a reference-counted handle to a TensorImpl. The geometry
// accessors are written here by hand; one method per `variants: method` entry
// of native_functions.yaml is declared below and defined in TensorMethods.h.
#include <initializer_list>
#include <c10/core/Scalar.h>
#include <c10/core/TensorImpl.h>
#include <c10/core/WrapDimMinimal.h>
#include <c10/util/ArrayRef.h>

#include <optional>
#include <string_view>
#include <tuple>

namespace at {

using c10::Device;
using c10::DeviceType;
using c10::IntArrayRef;
using c10::Scalar;
using c10::ScalarType;

class Tensor;
using TensorList = c10::ArrayRef<Tensor>;
using OptionalTensorList = c10::ArrayRef<std::optional<Tensor>>;
using OptionalIntArrayRef = std::optional<IntArrayRef>;

class TORCH_API Tensor {
 public:
  Tensor() = default;
  explicit Tensor(c10::intrusive_ptr<c10::TensorImpl> impl) : impl_(std::move(impl)) {}

  bool defined() const { return impl_.defined(); }
  c10::TensorImpl* unsafeGetTensorImpl() const { return impl_.get(); }
  const c10::intrusive_ptr<c10::TensorImpl>& getIntrusivePtr() const { return impl_; }
  size_t use_count() const { return impl_.use_count(); }
  bool is_same(const Tensor& other) const { return impl_ == other.impl_; }

  IntArrayRef sizes() const { return impl_->sizes(); }
  IntArrayRef strides() const { return impl_->strides(); }
  int64_t size(int64_t dim) const { return sizes()[c10::maybe_wrap_dim(dim, this->dim(), false)]; }
  int64_t stride(int64_t dim) const { return strides()[c10::maybe_wrap_dim(dim, this->dim(), false)]; }
  int64_t dim() const { return impl_->dim(); }
  int64_t numel() const { return impl_->numel(); }
  int64_t storage_offset() const { return impl_->storage_offset(); }
  bool is_contiguous() const { return impl_->is_contiguous(); }
  ScalarType scalar_type() const { return impl_->dtype(); }
  bool is_floating_point() const { return c10::isFloatingType(scalar_type()); }
  Device device() const {
    // The first thing each op asks of its tensors: an undefined one is an
    // error here, as in PyTorch, not a null dereference in a kernel.
    TORCH_CHECK(impl_, "Expected a proper Tensor but got an undefined Tensor");
    return impl_->device();
  }
  bool is_cpu() const { return device().is_cpu(); }
  bool is_cuda() const { return device().is_cuda(); }
  int64_t element_size() const { return static_cast<int64_t>(impl_->itemsize()); }
  int64_t nbytes() const { return numel() * element_size(); }
  const c10::Storage& storage() const { return impl_->storage(); }
  void* data_ptr() const { return impl_->data(); }
  template <typename T>
  T* data_ptr() const {
    TORCH_CHECK(c10::CppTypeToScalarType<T>::value == scalar_type(), "expected scalar type ",
                c10::CppTypeToScalarType<T>::value, " but found ", scalar_type());
    return static_cast<T*>(impl_->data());
  }

  // Generated from native_functions.yaml.
${tensor_method_declarations}

 private:
  c10::intrusive_ptr<c10::TensorImpl> impl_;
};

namespace detail {
// The device an op on a list of tensors dispatches on: its first tensor's
// (the CPU for an empty list, which the op itself then rejects by name).
inline Device first_device(TensorList tensors) {
  return tensors.empty() ? Device(DeviceType::CPU) : tensors[0].device();
}
// The device an op on several tensors dispatches on: the first tensor's that
// is not 0-d on the CPU (a Python number may join tensors of any device).
inline Device dispatch_device(std::initializer_list<const Tensor*> tensors) {
  const Tensor* first = nullptr;
  for (const Tensor* t : tensors) {
    TORCH_CHECK(t->defined(), "Expected a proper Tensor but got an undefined Tensor");
    if (first == nullptr) first = t;
    if (t->dim() != 0 || !t->is_cpu()) return t->device();
  }
  return first != nullptr ? first->device() : Device(DeviceType::CPU);
}
}  // namespace detail

}  // namespace at
