// CUDA loops of the indexing ops (the indices arrive normalised and
// bounds-checked by Indexing.cpp). Copies move elements of the dtype's size
// whatever the dtype; accumulation uses atomicAdd (scatter_reduce's prod,
// amax and amin a compare-and-swap loop), so scatter_add, scatter_reduce and
// index_put(accumulate=True) support float, double, int32 and int64 here.
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/native/Indexing.h>
#include <ATen/native/cuda/Loops.cuh>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace at::native {
namespace {

// Runs the lambda with T bound to an unsigned integer of the element size:
// copies need no dtype. (Macros, as AT_DISPATCH: nvcc allows no device
// lambda inside a generic one.)
#define DISPATCH_ELEMENT_SIZE(SIZE, ...)                                          \
  [&] {                                                                           \
    switch (SIZE) {                                                               \
      case 1: { using T = uint8_t; return __VA_ARGS__(); }                        \
      case 2: { using T = uint16_t; return __VA_ARGS__(); }                       \
      case 4: { using T = uint32_t; return __VA_ARGS__(); }                       \
      case 8: { using T = uint64_t; return __VA_ARGS__(); }                       \
      default: TORCH_CHECK(false, "indexing: unsupported element size ", SIZE);   \
    }                                                                             \
  }()

// T bound to each type atomicAdd supports; other dtypes raise NotImplementedError.
#define DISPATCH_ATOMIC_TYPES(TYPE, OP, ...)                                                        \
  [&] {                                                                                             \
    const ScalarType the_type_ = TYPE;                                                              \
    switch (the_type_) {                                                                            \
      case ScalarType::Float: { using T = float; return __VA_ARGS__(); }                            \
      case ScalarType::Double: { using T = double; return __VA_ARGS__(); }                          \
      case ScalarType::Int: { using T = int32_t; return __VA_ARGS__(); }                            \
      case ScalarType::Long: { using T = int64_t; return __VA_ARGS__(); }                           \
      default:                                                                                      \
        TORCH_CHECK_NOT_IMPLEMENTED(false, '"', OP, "\" not implemented for '",                     \
                                    c10::toString(the_type_), "' on CUDA");                         \
    }                                                                                               \
  }()

// Adds v to *p atomically (the types atomicAdd has).
template <typename T>
__device__ void atomic_add(T* p, T v) {
  if constexpr (std::is_same_v<T, int64_t>) {
    atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
  } else {
    atomicAdd(p, v);
  }
}

// Folds v into *p atomically by multiply, max or min (a compare-and-swap
// loop on the element's bits); max and min let a NaN from v win, as on CPU.
template <typename T>
__device__ void atomic_fold(T* p, T v, ScatterMode mode) {
  using Bits = std::conditional_t<sizeof(T) == 4, unsigned int, unsigned long long>;
  static_assert(sizeof(T) == sizeof(Bits), "atomic_fold: 4- and 8-byte types only");
  Bits* word = reinterpret_cast<Bits*>(p);
  Bits seen = *word, expected;
  do {
    expected = seen;
    T current;
    memcpy(&current, &expected, sizeof(T));
    T next = current;
    if (mode == ScatterMode::ScatterMul) {
      next = current * v;
    } else if (v != v || (mode == ScatterMode::ScatterMax ? current < v : v < current)) {
      next = v;
    }
    Bits bits;
    memcpy(&bits, &next, sizeof(T));
    if (bits == expected) return;  // nothing changes
    seen = atomicCAS(word, expected, bits);
  } while (seen != expected);
}

void index_select_kernel_cuda(const Tensor& out, const Tensor& src, const Tensor& index, int64_t outer,
                              int64_t inner) {
  cuda::CUDAGuard guard(out.device().index);
  const int64_t n = index.numel(), size = src.dim() == 0 ? 1 : src.numel() / std::max<int64_t>(outer * inner, 1);
  const int64_t* idx = index.data_ptr<int64_t>();
  DISPATCH_ELEMENT_SIZE(out.element_size(), [&] {
    const T* s = static_cast<const T*>(src.data_ptr());
    T* o = static_cast<T*>(out.data_ptr());
    gpu_for_each_index(outer * n * inner, [=] __device__(int64_t e) {
      const int64_t i = e / (n * inner), j = (e / inner) % n, k = e % inner;
      o[e] = s[(i * size + idx[j]) * inner + k];
    });
  });
}

// Index positions and the strides (in elements) of self and src, for one thread per position.
struct ScatterGeometry {
  int nd;
  int dim;
  int64_t sizes[kMaxIterDims];
  int64_t self_strides[kMaxIterDims];
  int64_t src_strides[kMaxIterDims];
  int64_t self_stride0;  // self's stride for a 0-d index

  __device__ void offsets(int64_t lin, int64_t idx, int64_t* self_off, int64_t* src_off) const {
    int64_t a = 0, b = 0;
    for (int d = nd - 1; d >= 0; --d) {
      const int64_t pos = lin % sizes[d];
      lin /= sizes[d];
      if (d != dim) a += pos * self_strides[d];
      b += pos * src_strides[d];
    }
    *self_off = a + idx * (nd > 0 ? self_strides[dim] : self_stride0);
    *src_off = b;
  }
};

ScatterGeometry geometry(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  TORCH_CHECK(index.dim() <= kMaxIterDims, "scatter/gather on CUDA supports at most ", kMaxIterDims, " dimensions");
  ScatterGeometry g{};
  g.nd = static_cast<int>(index.dim());
  g.dim = static_cast<int>(dim);
  for (int d = 0; d < g.nd; ++d) {
    g.sizes[d] = index.size(d);
    g.self_strides[d] = self.stride(d);
    g.src_strides[d] = src.defined() ? src.stride(d) : 0;
  }
  g.self_stride0 = self.dim() > 0 ? self.stride(0) : 0;
  return g;
}

void scatter_gather_kernel_cuda(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src,
                                const Tensor& out, const Scalar& value, ScatterMode mode) {
  cuda::CUDAGuard guard(self.device().index);
  const ScatterGeometry g = geometry(self, dim, index, src);
  const int64_t* idx = index.data_ptr<int64_t>();
  const int64_t n = index.numel();
  if (mode == ScatterMode::ScatterAdd) {
    DISPATCH_ATOMIC_TYPES(self.scalar_type(), "scatter_add_cuda", [&] {
      T* s = static_cast<T*>(self.data_ptr());
      const T* v = static_cast<const T*>(src.data_ptr());
      gpu_for_each_index(n, [=] __device__(int64_t lin) {
        int64_t a, b;
        g.offsets(lin, idx[lin], &a, &b);
        atomic_add(s + a, v[b]);
      });
    });
    return;
  }
  if (mode == ScatterMode::ScatterMul || mode == ScatterMode::ScatterMax || mode == ScatterMode::ScatterMin) {
    DISPATCH_ATOMIC_TYPES(self.scalar_type(), "scatter_reduce_cuda", [&] {
      T* s = static_cast<T*>(self.data_ptr());
      const T* v = static_cast<const T*>(src.data_ptr());
      gpu_for_each_index(n, [=] __device__(int64_t lin) {
        int64_t a, b;
        g.offsets(lin, idx[lin], &a, &b);
        atomic_fold(s + a, v[b], mode);
      });
    });
    return;
  }
  if (mode == ScatterMode::ScatterFill) {
    AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(self.scalar_type(), "scatter_fill_cuda", [&] {
      const scalar_t fill = value.to<scalar_t>();
      scalar_t* s = static_cast<scalar_t*>(self.data_ptr());
      gpu_for_each_index(n, [=] __device__(int64_t lin) {
        int64_t a, b;
        g.offsets(lin, idx[lin], &a, &b);
        s[a] = fill;
      });
    });
    return;
  }
  DISPATCH_ELEMENT_SIZE(self.element_size(), [&] {
    T* s = static_cast<T*>(self.data_ptr());
    if (mode == ScatterMode::Gather) {
      T* o = static_cast<T*>(out.data_ptr());  // contiguous, index's shape
      gpu_for_each_index(n, [=] __device__(int64_t lin) {
        int64_t a, b;
        g.offsets(lin, idx[lin], &a, &b);
        o[lin] = s[a];
      });
    } else {  // Scatter: with repeated indices one of the writes wins, as in PyTorch
      const T* v = static_cast<const T*>(src.data_ptr());
      gpu_for_each_index(n, [=] __device__(int64_t lin) {
        int64_t a, b;
        g.offsets(lin, idx[lin], &a, &b);
        s[a] = v[b];
      });
    }
  });
}

// The coordinates are found on the host: nonzero's result size depends on the
// data, so the host waits for the device anyway.
Tensor nonzero_kernel_cuda(const Tensor& self) {
  return at::nonzero(self.to(Device(DeviceType::CPU), std::nullopt, false, false))
      .to(self.device(), std::nullopt, false, false);
}

void index_put_rows_kernel_cuda(const Tensor& self, const Tensor& index, const Tensor& values, bool accumulate) {
  cuda::CUDAGuard guard(self.device().index);
  const int64_t m = index.numel(), len = self.size(1);
  const int64_t s0 = self.stride(0), s1 = self.stride(1);
  const int64_t* idx = index.data_ptr<int64_t>();
  if (accumulate) {
    DISPATCH_ATOMIC_TYPES(self.scalar_type(), "index_put_cuda (accumulate)", [&] {
      T* dst = static_cast<T*>(self.data_ptr());
      const T* v = static_cast<const T*>(values.data_ptr());
      gpu_for_each_index(m * len, [=] __device__(int64_t e) {
        const int64_t r = e / len, k = e % len;
        atomic_add(dst + idx[r] * s0 + k * s1, v[e]);
      });
    });
    return;
  }
  DISPATCH_ELEMENT_SIZE(self.element_size(), [&] {
    T* dst = static_cast<T*>(self.data_ptr());
    const T* v = static_cast<const T*>(values.data_ptr());
    gpu_for_each_index(m * len, [=] __device__(int64_t e) {
      const int64_t r = e / len, k = e % len;
      dst[idx[r] * s0 + k * s1] = v[e];
    });
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(index_select_stub, &index_select_kernel_cuda);
REGISTER_CUDA_DISPATCH(scatter_gather_stub, &scatter_gather_kernel_cuda);
REGISTER_CUDA_DISPATCH(nonzero_stub, &nonzero_kernel_cuda);
REGISTER_CUDA_DISPATCH(index_put_rows_stub, &index_put_rows_kernel_cuda);

}  // namespace at::native
