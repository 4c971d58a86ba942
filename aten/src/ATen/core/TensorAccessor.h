#pragma once
// Indexed access to a tensor's elements, as PyTorch's extensions write it:
//   auto a = x.accessor<float, 2>();               a[i][j]       (CPU)
//   auto p = x.packed_accessor32<float, 2, torch::RestrictPtrTraits>();
//   kernel<<<...>>>(p);                            p[i][j]       (in a CUDA kernel)
// An accessor reads the tensor's sizes and strides; the packed one carries
// copies of them by value, so it can be passed to a kernel.
#include <c10/macros/Macros.h>

#include <cstddef>
#include <cstdint>

namespace at {

template <typename T>
struct DefaultPtrTraits {
  typedef T* PtrType;
};

template <typename T>
struct RestrictPtrTraits {
#if defined(__CUDACC__) || defined(__GNUC__) || defined(__clang__)
  typedef T* __restrict__ PtrType;
#else
  typedef T* PtrType;
#endif
};

// What every accessor over (data, sizes, strides) held elsewhere has.
template <typename T, template <typename U> class PtrTraits, typename index_t>
class TensorAccessorBase {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;

  C10_HOST_DEVICE TensorAccessorBase(PtrType data, const index_t* sizes, const index_t* strides)
      : data_(data), sizes_(sizes), strides_(strides) {}
  C10_HOST_DEVICE index_t size(index_t i) const { return sizes_[i]; }
  C10_HOST_DEVICE index_t stride(index_t i) const { return strides_[i]; }
  C10_HOST_DEVICE PtrType data() const { return data_; }

 protected:
  PtrType data_;
  const index_t* sizes_;
  const index_t* strides_;
};

// Dimension N: a[i] is the accessor of dimension N - 1 at index i.
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = int64_t>
class TensorAccessor : public TensorAccessorBase<T, PtrTraits, index_t> {
 public:
  using TensorAccessorBase<T, PtrTraits, index_t>::TensorAccessorBase;
  C10_HOST_DEVICE TensorAccessor<T, N - 1, PtrTraits, index_t> operator[](index_t i) const {
    return TensorAccessor<T, N - 1, PtrTraits, index_t>(this->data_ + this->strides_[0] * i, this->sizes_ + 1,
                                                        this->strides_ + 1);
  }
};

// Dimension 1: a[i] is the element.
template <typename T, template <typename U> class PtrTraits, typename index_t>
class TensorAccessor<T, 1, PtrTraits, index_t> : public TensorAccessorBase<T, PtrTraits, index_t> {
 public:
  using TensorAccessorBase<T, PtrTraits, index_t>::TensorAccessorBase;
  C10_HOST_DEVICE T& operator[](index_t i) const { return this->data_[this->strides_[0] * i]; }
};

// An accessor that owns copies of the sizes and strides: a kernel argument.
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = int64_t>
class GenericPackedTensorAccessor {
 public:
  typedef typename PtrTraits<T>::PtrType PtrType;

  C10_HOST_DEVICE GenericPackedTensorAccessor(PtrType data, const int64_t* sizes, const int64_t* strides)
      : data_(data) {
    for (size_t d = 0; d < N; ++d) {
      sizes_[d] = static_cast<index_t>(sizes[d]);
      strides_[d] = static_cast<index_t>(strides[d]);
    }
  }
  C10_HOST_DEVICE decltype(auto) operator[](index_t i) const {
    if constexpr (N == 1) {
      return (data_[strides_[0] * i]);  // T&
    } else {
      return TensorAccessor<T, N - 1, PtrTraits, index_t>(data_ + strides_[0] * i, sizes_ + 1, strides_ + 1);
    }
  }
  C10_HOST_DEVICE index_t size(index_t i) const { return sizes_[i]; }
  C10_HOST_DEVICE index_t stride(index_t i) const { return strides_[i]; }
  C10_HOST_DEVICE PtrType data() const { return data_; }

 private:
  PtrType data_;
  index_t sizes_[N];
  index_t strides_[N];
};

// The older name, index type given last (PyTorch's tutorial writes
// torch::PackedTensorAccessor<scalar_t, 2, torch::RestrictPtrTraits, size_t>).
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits, typename index_t = int64_t>
using PackedTensorAccessor = GenericPackedTensorAccessor<T, N, PtrTraits, index_t>;
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor32 = GenericPackedTensorAccessor<T, N, PtrTraits, int32_t>;
template <typename T, size_t N, template <typename U> class PtrTraits = DefaultPtrTraits>
using PackedTensorAccessor64 = GenericPackedTensorAccessor<T, N, PtrTraits, int64_t>;

}  // namespace at
