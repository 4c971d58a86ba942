#pragma once
// The data behind every tensor: a storage plus the geometry (sizes, strides,
// offset) and element type that say how to read it. Views are TensorImpls that
// share a storage. Nothing here knows about operators or Python.
#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>
#include <c10/core/SizesAndStrides.h>
#include <c10/core/Storage.h>
#include <c10/util/intrusive_ptr.h>

namespace c10 {

class C10_API TensorImpl : public intrusive_ptr_target {
 public:
  TensorImpl(Storage storage, ScalarType dtype, Device device);

  IntArrayRef sizes() const { return sizes_and_strides_.sizes(); }
  IntArrayRef strides() const { return sizes_and_strides_.strides(); }
  int64_t dim() const { return static_cast<int64_t>(sizes_and_strides_.size()); }
  int64_t numel() const { return numel_; }
  int64_t storage_offset() const { return storage_offset_; }
  ScalarType dtype() const { return dtype_; }
  size_t itemsize() const { return elementSize(dtype_); }
  Device device() const { return device_; }
  const Storage& storage() const { return storage_; }
  bool is_contiguous() const { return is_contiguous_; }

  // The address of element [0, 0, ...].
  void* data() const {
    return static_cast<char*>(storage_.data()) + storage_offset_ * static_cast<int64_t>(itemsize());
  }

  // Sets the geometry; checks that it fits inside the storage.
  void set_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset);
  void set_sizes_contiguous(IntArrayRef sizes);
  // Replaces the memory (resize_ growing a tensor); geometry is set after.
  void set_storage(Storage storage) { storage_ = std::move(storage); }

  // A tensor made from a Python number in an expression like `t + 2`; such
  // tensors take part in type promotion with a lower priority.
  bool is_wrapped_number() const { return is_wrapped_number_; }
  void set_wrapped_number(bool v) { is_wrapped_number_ = v; }

 private:
  void refresh_numel_and_contiguity();

  Storage storage_;
  SizesAndStrides sizes_and_strides_;
  int64_t storage_offset_ = 0;
  int64_t numel_ = 1;
  ScalarType dtype_;
  Device device_;
  bool is_contiguous_ = true;
  bool is_wrapped_number_ = false;
};

}  // namespace c10
