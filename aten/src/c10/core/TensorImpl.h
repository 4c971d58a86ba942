#pragma once
// The data behind every tensor: a storage plus the geometry (sizes, strides,
// offset) and element type that say how to read it. Views are TensorImpls that
// share a storage. Nothing here knows about operators or Python.
#include <c10/core/Device.h>
#include <c10/core/ScalarType.h>
#include <c10/core/SizesAndStrides.h>
#include <c10/core/Storage.h>
#include <c10/util/intrusive_ptr.h>

#include <atomic>
#include <memory>

namespace c10 {

// What autograd attaches to a tensor (grad, grad_fn, requires_grad, ...).
// Declared here as an interface so c10 does not depend on autograd.
struct C10_API AutogradMetaInterface {
  virtual ~AutogradMetaInterface();
};

// Counts in-place modifications. A tensor and its views share one counter,
// so autograd can tell when a tensor it saved was changed behind its back.
struct C10_API VersionCounter : intrusive_ptr_target {
  std::atomic<uint32_t> version{0};
};

class C10_API TensorImpl : public intrusive_ptr_target {
 public:
  TensorImpl(Storage storage, ScalarType dtype, Device device);
  ~TensorImpl() override;

  // How many TensorImpls exist right now: the leak tests' count of live tensors.
  static int64_t live_count();

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

  AutogradMetaInterface* autograd_meta() const { return autograd_meta_.get(); }
  void set_autograd_meta(std::unique_ptr<AutogradMetaInterface> meta) { autograd_meta_ = std::move(meta); }

  uint32_t version() const { return version_counter_->version.load(std::memory_order_relaxed); }
  void bump_version() { version_counter_->version.fetch_add(1, std::memory_order_relaxed); }
  const intrusive_ptr<VersionCounter>& version_counter() const { return version_counter_; }
  // Views call this with their base's counter.
  void set_version_counter(intrusive_ptr<VersionCounter> counter) { version_counter_ = std::move(counter); }
  // Made by a view op: it shares memory with `view_base()`, the tensor (not
  // itself a view) that owns the memory. Autograd rebases that tensor's
  // history when the view is modified in place.
  bool is_view() const { return view_base_.defined(); }
  const intrusive_ptr<TensorImpl>& view_base() const { return view_base_; }
  void set_view_base(intrusive_ptr<TensorImpl> base) { view_base_ = std::move(base); }

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
  intrusive_ptr<TensorImpl> view_base_;
  std::unique_ptr<AutogradMetaInterface> autograd_meta_;
  intrusive_ptr<VersionCounter> version_counter_ = make_intrusive<VersionCounter>();
};

}  // namespace c10
