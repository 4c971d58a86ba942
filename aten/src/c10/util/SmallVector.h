#pragma once
// A vector that keeps its first N elements inline: the per-call bookkeeping
// of TensorIterator (operands, shapes, strides) then needs no heap at all for
// ordinary tensors. Only what the library uses is implemented.
#include <c10/util/ArrayRef.h>

#include <cstddef>
#include <cstdlib>
#include <initializer_list>
#include <new>
#include <type_traits>
#include <utility>

namespace c10 {

template <typename T, size_t N>
class SmallVector {
 public:
  SmallVector() = default;
  SmallVector(size_t n, const T& value) { assign(n, value); }
  SmallVector(std::initializer_list<T> il) { assign(il.begin(), il.end()); }
  SmallVector(const SmallVector& o) { assign(o.begin(), o.end()); }
  SmallVector(SmallVector&& o) noexcept { move_from(std::move(o)); }
  SmallVector& operator=(const SmallVector& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  SmallVector& operator=(SmallVector&& o) noexcept {
    if (this != &o) {
      clear();
      release_heap();
      move_from(std::move(o));
    }
    return *this;
  }
  ~SmallVector() {
    clear();
    release_heap();
  }

  T* data() { return ptr(); }
  const T* data() const { return ptr(); }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T* begin() { return ptr(); }
  T* end() { return ptr() + size_; }
  const T* begin() const { return ptr(); }
  const T* end() const { return ptr() + size_; }
  T& operator[](size_t i) { return ptr()[i]; }
  const T& operator[](size_t i) const { return ptr()[i]; }
  T& back() { return ptr()[size_ - 1]; }
  operator ArrayRef<T>() const { return ArrayRef<T>(ptr(), size_); }  // NOLINT

  void reserve(size_t n) {
    if (n <= capacity_) return;
    T* fresh = static_cast<T*>(std::malloc(n * sizeof(T)));
    if (!fresh) throw std::bad_alloc();
    for (size_t i = 0; i < size_; ++i) {
      new (fresh + i) T(std::move(ptr()[i]));
      ptr()[i].~T();
    }
    release_heap();
    heap_ = fresh;
    capacity_ = n;
  }
  void push_back(T value) {
    if (size_ == capacity_) reserve(capacity_ * 2);
    new (ptr() + size_) T(std::move(value));
    size_++;
  }
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    if (size_ == capacity_) reserve(capacity_ * 2);
    new (ptr() + size_) T(std::forward<Args>(args)...);
    return ptr()[size_++];
  }
  void clear() {
    for (size_t i = 0; i < size_; ++i) ptr()[i].~T();
    size_ = 0;
  }
  void resize(size_t n, const T& value = T()) {
    while (size_ > n) ptr()[--size_].~T();
    reserve(n);
    while (size_ < n) new (ptr() + size_++) T(value);
  }
  void assign(size_t n, const T& value) {
    clear();
    resize(n, value);
  }
  template <typename It, std::enable_if_t<!std::is_integral_v<It>, int> = 0>
  void assign(It first, It last) {
    clear();
    reserve(static_cast<size_t>(last - first));
    for (; first != last; ++first) new (ptr() + size_++) T(*first);
  }

 private:
  T* ptr() { return heap_ ? heap_ : reinterpret_cast<T*>(inline_); }
  const T* ptr() const { return heap_ ? heap_ : reinterpret_cast<const T*>(inline_); }
  void release_heap() {
    std::free(heap_);
    heap_ = nullptr;
    capacity_ = N;
  }
  void move_from(SmallVector&& o) {
    if (o.heap_) {
      heap_ = o.heap_;
      capacity_ = o.capacity_;
      size_ = o.size_;
      o.heap_ = nullptr;
      o.capacity_ = N;
      o.size_ = 0;
      return;
    }
    for (size_t i = 0; i < o.size_; ++i) new (ptr() + i) T(std::move(o.ptr()[i]));
    size_ = o.size_;
    o.clear();
  }

  alignas(T) unsigned char inline_[N * sizeof(T)];
  T* heap_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = N;
};

}  // namespace c10
