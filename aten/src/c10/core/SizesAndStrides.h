#pragma once
// Sizes and strides of a tensor, stored inline up to kInlineDims dimensions:
// most tensors never touch the heap for their metadata.
#include <c10/util/ArrayRef.h>

#include <algorithm>
#include <memory>

namespace c10 {

class SizesAndStrides {
 public:
  static constexpr size_t kInlineDims = 5;

  size_t size() const { return ndim_; }
  IntArrayRef sizes() const { return IntArrayRef(data(), ndim_); }
  IntArrayRef strides() const { return IntArrayRef(data() + ndim_, ndim_); }
  int64_t* sizes_data() { return data(); }
  int64_t* strides_data() { return data() + ndim_; }

  void set(IntArrayRef sizes, IntArrayRef strides) {
    resize(sizes.size());
    std::copy(sizes.begin(), sizes.end(), sizes_data());
    std::copy(strides.begin(), strides.end(), strides_data());
  }
  void resize(size_t ndim) {
    if (ndim > kInlineDims) {
      heap_.reset(new int64_t[2 * ndim]);
    } else {
      heap_.reset();
    }
    ndim_ = ndim;
  }

 private:
  const int64_t* data() const { return heap_ ? heap_.get() : inline_; }
  int64_t* data() { return heap_ ? heap_.get() : inline_; }

  size_t ndim_ = 0;
  int64_t inline_[2 * kInlineDims] = {};
  std::unique_ptr<int64_t[]> heap_;
};

}  // namespace c10
