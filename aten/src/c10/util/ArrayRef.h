#pragma once
// A non-owning view of a contiguous array: the currency for sizes, strides and
// dim lists across the API (no copies when passing a vector or a brace list).
#include <c10/util/Exception.h>

#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <vector>

namespace c10 {

template <typename T>
class ArrayRef {
 public:
  using value_type = T;
  using iterator = const T*;

  constexpr ArrayRef() = default;
  constexpr ArrayRef(const T& one) : data_(&one), size_(1) {}  // NOLINT: implicit on purpose
  constexpr ArrayRef(const T* data, size_t size) : data_(data), size_(size) {}
  ArrayRef(const std::vector<T>& v) : data_(v.data()), size_(v.size()) {}  // NOLINT
  // Valid while the braced list lives: f({1, 2}) is fine, storing it is not.
#if defined(__GNUC__) && !defined(__clang__)  // a GCC warning; clang has no such group
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  constexpr ArrayRef(std::initializer_list<T> il)  // NOLINT
      : data_(il.begin() == il.end() ? nullptr : il.begin()), size_(il.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

  constexpr const T* data() const { return data_; }
  constexpr size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr const T* begin() const { return data_; }
  constexpr const T* end() const { return data_ + size_; }
  constexpr const T& operator[](size_t i) const { return data_[i]; }
  const T& front() const { return data_[0]; }
  const T& back() const { return data_[size_ - 1]; }
  std::vector<T> vec() const { return std::vector<T>(begin(), end()); }
  ArrayRef slice(size_t start, size_t n) const { return ArrayRef(data_ + start, n); }
  bool equals(ArrayRef other) const {
    if (size_ != other.size_) return false;
    for (size_t i = 0; i < size_; ++i)
      if (!(data_[i] == other.data_[i])) return false;
    return true;
  }

 private:
  const T* data_ = nullptr;
  size_t size_ = 0;
};

template <typename T>
bool operator==(ArrayRef<T> a, ArrayRef<T> b) { return a.equals(b); }
template <typename T>
bool operator!=(ArrayRef<T> a, ArrayRef<T> b) { return !a.equals(b); }

template <typename T>
std::ostream& operator<<(std::ostream& out, ArrayRef<T> list) {
  out << "[";
  for (size_t i = 0; i < list.size(); ++i) out << (i ? ", " : "") << list[i];
  return out << "]";
}

using IntArrayRef = ArrayRef<int64_t>;

}  // namespace c10
