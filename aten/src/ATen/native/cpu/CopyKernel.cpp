// copy_ between any two dtypes, and fill_.
#include <ATen/Dispatch.h>
#include <ATen/native/Copy.h>
#include <ATen/native/UnaryFunctors.h>
#include <ATen/native/cpu/Loops.h>

#include <cstring>

namespace at::native {
inline namespace CPU_CAPABILITY {
namespace {

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
