// copy_ between any two dtypes, and fill_.
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/native/Copy.h>
#include <ATen/native/UnaryFunctors.h>
#include <ATen/native/cpu/Loops.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace at::native {
inline namespace CPU_CAPABILITY {
namespace {

// Square tiles of a transposing copy: kTile x kTile elements of each side
// (4 KiB of 8-byte elements) stay in L1 while one side is read across rows.
constexpr int64_t kTile = 32;

template <typename T>
void transpose_tiles(const TensorIterator& iter) {
  // Innermost first: dim 0 is dense in the output, dim 1 in the input; dim 2, if any, a batch.
  const IntArrayRef shape = iter.shape();
  const int64_t* out_strides = iter.strides(0);
  const int64_t* in_strides = iter.strides(1);
  const int64_t n0 = shape[0], n1 = shape[1], batch = iter.ndim() == 3 ? shape[2] : 1;
  const int64_t out1 = out_strides[1], in0 = in_strides[0];
  const int64_t out2 = iter.ndim() == 3 ? out_strides[2] : 0, in2 = iter.ndim() == 3 ? in_strides[2] : 0;
  char* out = iter.data_ptr(0);
  const char* in = iter.data_ptr(1);
  const int64_t tiles0 = (n0 + kTile - 1) / kTile, tiles1 = (n1 + kTile - 1) / kTile;
  const int64_t tiles = batch * tiles0 * tiles1;
  at::parallel_for(0, tiles, std::max<int64_t>(1, 32768 / (kTile * kTile)), [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t) {
      const int64_t b = t / (tiles0 * tiles1), rest = t % (tiles0 * tiles1);
      const int64_t start1 = (rest / tiles0) * kTile, start0 = (rest % tiles0) * kTile;
      const int64_t stop1 = std::min(n1, start1 + kTile), stop0 = std::min(n0, start0 + kTile);
      char* o = out + b * out2;
      const char* x = in + b * in2;
      for (int64_t j = start1; j < stop1; ++j) {
        T* row = reinterpret_cast<T*>(o + j * out1);
        const char* column = x + j * static_cast<int64_t>(sizeof(T));
        for (int64_t i = start0; i < stop0; ++i) row[i] = *reinterpret_cast<const T*>(column + i * in0);
      }
    }
  });
}

// Whether the copy transposes: same dtype, the output dense along the
// iterator's inner dim and the input along the next, at least one tile
// each way, at most a batch dim besides.
bool transposes(const TensorIterator& iter, int64_t itemsize) {
  if (iter.ndim() < 2 || iter.ndim() > 3) return false;
  const IntArrayRef shape = iter.shape();
  return iter.strides(0)[0] == itemsize && iter.strides(1)[1] == itemsize && iter.strides(1)[0] != itemsize &&
         shape[0] >= kTile && shape[1] >= kTile;
}

void copy_kernel(TensorIterator& iter) {
  const ScalarType dst = iter.dtype(0), src = iter.dtype(1);
  if (dst == src && iter.is_contiguous()) {
    // Same dtype, both dense: one memcpy per thread's chunk.
    const int64_t itemsize = static_cast<int64_t>(c10::elementSize(dst));
    iter.for_each([&](char** data, const int64_t*, int64_t n, int64_t) {
      std::memcpy(data[0], data[1], n * itemsize);
    });
    return;
  }
  if (dst == src) {
    const int64_t itemsize = static_cast<int64_t>(c10::elementSize(dst));
    if (transposes(iter, itemsize)) {
      switch (itemsize) {
        case 1: return transpose_tiles<uint8_t>(iter);
        case 2: return transpose_tiles<uint16_t>(iter);
        case 4: return transpose_tiles<uint32_t>(iter);
        case 8: return transpose_tiles<uint64_t>(iter);
        default: break;
      }
    }
  }
  // Both dense, dtypes differ: the widest capability's conversion loop
  // (cpu/ConvertKernel.cpp), whatever copy of this kernel is running. A call
  // with n = 0 asks whether the pair is covered.
  if (iter.is_contiguous() && convert_contiguous_stub(c10::DeviceType::CPU, dst, src, nullptr, nullptr, 0)) {
    iter.for_each([&](char** data, const int64_t*, int64_t n, int64_t) {
      convert_contiguous_stub(c10::DeviceType::CPU, dst, src, data[0], data[1], n);
    });
    return;
  }
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(dst, "copy_", [&] {
    using dst_t = scalar_t;
    AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(src, "copy_", [&] {
      cpu_kernel(iter, [](scalar_t v) -> dst_t { return convert<dst_t>(v); });
    });
  });
}

void fill_kernel(TensorIterator& iter, const Scalar& value) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(iter.dtype(0), "fill_", [&] {
    const scalar_t v = value.to<scalar_t>();
    cpu_kernel(iter, [v]() -> scalar_t { return v; });
  });
}

}  // namespace

REGISTER_CPU_DISPATCH(copy_stub, &copy_kernel);
REGISTER_CPU_DISPATCH(fill_stub, &fill_kernel);

}  // namespace CPU_CAPABILITY
}  // namespace at::native
