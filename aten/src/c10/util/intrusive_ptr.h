#pragma once
// Intrusive reference counting: the count lives in the object, so a handle is
// one pointer and a raw pointer can be turned back into an owning handle (the
// Python binding relies on that to keep TensorImpl alive from a PyObject).
#include <c10/macros/Export.h>

#include <atomic>
#include <cstddef>
#include <utility>

namespace c10 {

class C10_API intrusive_ptr_target {
 public:
  intrusive_ptr_target() = default;
  intrusive_ptr_target(const intrusive_ptr_target&) = delete;
  intrusive_ptr_target& operator=(const intrusive_ptr_target&) = delete;
  size_t use_count() const { return refcount_.load(std::memory_order_acquire); }

 protected:
  virtual ~intrusive_ptr_target() = default;

 private:
  template <class T> friend class intrusive_ptr;
  mutable std::atomic<size_t> refcount_{0};
};

template <class T>
class intrusive_ptr {
 public:
  intrusive_ptr() = default;
  explicit intrusive_ptr(T* p) : p_(p) { retain(); }
  intrusive_ptr(const intrusive_ptr& o) : p_(o.p_) { retain(); }
  intrusive_ptr(intrusive_ptr&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  template <class U>
  intrusive_ptr(intrusive_ptr<U>&& o) noexcept : p_(o.release()) {}  // NOLINT
  ~intrusive_ptr() { reset(); }

  intrusive_ptr& operator=(const intrusive_ptr& o) {
    intrusive_ptr(o).swap(*this);
    return *this;
  }
  intrusive_ptr& operator=(intrusive_ptr&& o) noexcept {
    intrusive_ptr(std::move(o)).swap(*this);
    return *this;
  }

  T* get() const { return p_; }
  T* operator->() const { return p_; }
  T& operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }
  bool defined() const { return p_ != nullptr; }
  size_t use_count() const { return p_ ? p_->use_count() : 0; }
  void swap(intrusive_ptr& o) noexcept { std::swap(p_, o.p_); }

  void reset() {
    if (p_ && p_->refcount_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete p_;
    p_ = nullptr;
  }
  // Hands the reference to the caller, who must give it back with reclaim().
  T* release() {
    T* p = p_;
    p_ = nullptr;
    return p;
  }
  static intrusive_ptr reclaim(T* p) {
    intrusive_ptr r;
    r.p_ = p;
    return r;
  }

  bool operator==(const intrusive_ptr& o) const { return p_ == o.p_; }
  bool operator!=(const intrusive_ptr& o) const { return p_ != o.p_; }

 private:
  void retain() {
    if (p_) p_->refcount_.fetch_add(1, std::memory_order_relaxed);
  }
  T* p_ = nullptr;
};

template <class T, class... Args>
intrusive_ptr<T> make_intrusive(Args&&... args) {
  return intrusive_ptr<T>(new T(std::forward<Args>(args)...));
}

}  // namespace c10
