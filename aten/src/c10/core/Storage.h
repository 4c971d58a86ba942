#pragma once
// A reference-counted block of memory that tensors view. Several TensorImpls
// (a tensor and its views) share one StorageImpl.
#include <c10/core/Allocator.h>
#include <c10/util/intrusive_ptr.h>

namespace c10 {

class C10_API StorageImpl : public intrusive_ptr_target {
 public:
  StorageImpl(DataPtr data, size_t nbytes) : data_(std::move(data)), nbytes_(nbytes) {}
  void* data() const { return data_.get(); }
  size_t nbytes() const { return nbytes_; }
  Device device() const { return data_.device(); }

 private:
  DataPtr data_;
  size_t nbytes_;
};

class C10_API Storage {
 public:
  Storage() = default;
  explicit Storage(intrusive_ptr<StorageImpl> impl) : impl_(std::move(impl)) {}
  static Storage allocate(size_t nbytes, Allocator* allocator) {
    return Storage(make_intrusive<StorageImpl>(allocator->allocate(nbytes), nbytes));
  }

  void* data() const { return impl_->data(); }
  size_t nbytes() const { return impl_ ? impl_->nbytes() : 0; }
  bool defined() const { return impl_.defined(); }
  bool is_alias_of(const Storage& o) const { return impl_ == o.impl_; }
  StorageImpl* unsafeGetStorageImpl() const { return impl_.get(); }

 private:
  intrusive_ptr<StorageImpl> impl_;
};

}  // namespace c10
