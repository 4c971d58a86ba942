#pragma once
// ${generated_comment}
//
// at::Tensor: a reference-counted handle to a TensorImpl. The geometry
// accessors are written here by hand; one method per `variants: method` entry
// of native_functions.yaml is declared below and defined in TensorMethods.h.
#include <initializer_list>
#include <ATen/core/TensorAccessor.h>
#include <c10/core/Scalar.h>
#include <c10/core/TensorImpl.h>
#include <c10/core/TensorOptions.h>
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
using c10::Layout;
using c10::TensorOptions;
using c10::dtype;
using c10::device;
using c10::device_index;
using c10::requires_grad;
using c10::layout;
using c10::kStrided;
using c10::kCPU;
using c10::kCUDA;
using c10::nullopt;
using c10::optional;
#define AT_USING_SCALAR_TYPE_CONSTANT_(cpp_type, name, python_name) using c10::k##name;
C10_FORALL_SCALAR_TYPES_WITH_STORAGE(AT_USING_SCALAR_TYPE_CONSTANT_)
#undef AT_USING_SCALAR_TYPE_CONSTANT_
using c10::kComplexHalf;
using c10::kComplexFloat;
using c10::kComplexDouble;

// PyTorch's optional dim list: accepts what an IntArrayRef accepts (a
// number, a brace list, a vector) in one conversion, so x.sum(0, true) reads
// as in PyTorch.
class OptionalIntArrayRef : public std::optional<IntArrayRef> {
 public:
  OptionalIntArrayRef() = default;
  OptionalIntArrayRef(std::nullopt_t) {}  // NOLINT
  OptionalIntArrayRef(const std::optional<IntArrayRef>& o) : std::optional<IntArrayRef>(o) {}  // NOLINT
  // One dim: taken by reference, so that a temporary (the 0 of x.sum(0, true))
  // lives in the caller's expression for as long as the call.
  OptionalIntArrayRef(const int64_t& one) : std::optional<IntArrayRef>(IntArrayRef(one)) {}  // NOLINT
  template <typename U = IntArrayRef,
            std::enable_if_t<std::is_constructible_v<IntArrayRef, U&&> && !std::is_arithmetic_v<std::decay_t<U>> &&
                                 !std::is_same_v<std::decay_t<U>, OptionalIntArrayRef> &&
                                 !std::is_same_v<std::decay_t<U>, std::optional<IntArrayRef>> &&
                                 !std::is_same_v<std::decay_t<U>, std::nullopt_t>,
                             int> = 0>
  OptionalIntArrayRef(U&& value) : std::optional<IntArrayRef>(IntArrayRef(std::forward<U>(value))) {}  // NOLINT
  OptionalIntArrayRef(std::initializer_list<int64_t> il) : std::optional<IntArrayRef>(IntArrayRef(il)) {}  // NOLINT
};

class Tensor;
using TensorList = c10::ArrayRef<Tensor>;
using OptionalTensorList = c10::ArrayRef<std::optional<Tensor>>;

// What x.type() answers (PyTorch's deprecated form of x.dtype() and x.device()).
class DeprecatedTypeProperties {
 public:
  DeprecatedTypeProperties(ScalarType dtype, DeviceType device_type) : dtype_(dtype), device_type_(device_type) {}
  ScalarType scalarType() const { return dtype_; }
  DeviceType device_type() const { return device_type_; }
  bool is_cuda() const { return device_type_ == DeviceType::CUDA; }
  operator ScalarType() const { return dtype_; }  // NOLINT: AT_DISPATCH_*(x.type(), ...)

 private:
  ScalarType dtype_;
  DeviceType device_type_;
};

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

  // PyTorch's C++ spellings of the above, for extensions.
  ScalarType dtype() const { return scalar_type(); }
  TensorOptions options() const { return TensorOptions().dtype(scalar_type()).device(device()); }
  int64_t ndimension() const { return dim(); }
  int64_t get_device() const { return is_cuda() ? device().index() : -1; }
  bool is_same_size(const Tensor& other) const { return sizes().equals(other.sizes()); }
  template <typename T>
  const T* const_data_ptr() const { return data_ptr<T>(); }
  template <typename T>
  T* mutable_data_ptr() const { return data_ptr<T>(); }
  const void* const_data_ptr() const { return data_ptr(); }
  void* mutable_data_ptr() const { return data_ptr(); }
  // Element access by index, checked for the tensor's dtype and dimension
  // (ATen/core/TensorAccessor.h). The accessor reads this tensor's sizes and
  // strides: it must not outlive the tensor.
  template <typename T, size_t N>
  TensorAccessor<T, N> accessor() const& {
    check_accessor(N);
    return TensorAccessor<T, N>(data_ptr<T>(), sizes().data(), strides().data());
  }
  template <typename T, size_t N>
  TensorAccessor<T, N> accessor() && = delete;
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = int64_t>
  GenericPackedTensorAccessor<T, N, PtrTraits, index_t> generic_packed_accessor() const& {
    check_accessor(N);
    return GenericPackedTensorAccessor<T, N, PtrTraits, index_t>(
        static_cast<typename PtrTraits<T>::PtrType>(data_ptr<T>()), sizes().data(), strides().data());
  }
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
  PackedTensorAccessor32<T, N, PtrTraits> packed_accessor32() const& {
    TORCH_CHECK(numel() <= static_cast<int64_t>(INT32_MAX), "numel needs to be smaller than int32_t max; otherwise, "
                "please use packed_accessor64");
    return generic_packed_accessor<T, N, PtrTraits, int32_t>();
  }
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
  PackedTensorAccessor64<T, N, PtrTraits> packed_accessor64() const& {
    return generic_packed_accessor<T, N, PtrTraits, int64_t>();
  }
  // The older spelling of generic_packed_accessor.
  template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = int64_t>
  GenericPackedTensorAccessor<T, N, PtrTraits, index_t> packed_accessor() const& {
    return generic_packed_accessor<T, N, PtrTraits, index_t>();
  }
  // PyTorch's deprecated x.type(): what older extensions pass to
  // AT_DISPATCH_* (x.type() reads as its dtype) and ask is_cuda() of.
  DeprecatedTypeProperties type() const { return DeprecatedTypeProperties(scalar_type(), device().type()); }

  // The element of a one-element tensor (Tensor::item() gives it as a Scalar).
  template <typename T>
  T item() const;
  at::Tensor type_as(const Tensor& other) const;
  at::Tensor toType(ScalarType dtype) const;
  at::Tensor cpu() const;
  at::Tensor cuda() const;
  at::Tensor to(const TensorOptions& options, bool non_blocking = false, bool copy = false) const;
  // Autograd (defined in ATen/autograd/Variable.cpp).
  bool requires_grad() const;
  const Tensor& set_requires_grad(bool requires_grad) const;
  bool is_leaf() const;
  Tensor grad() const;

  // Generated from native_functions.yaml.
${tensor_method_declarations}

 private:
  void check_accessor(size_t n) const {
    TORCH_CHECK(static_cast<size_t>(dim()) == n, "TensorAccessor expected ", n, " dims but tensor has ", dim());
  }

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
