// diff(x, n) for n >= 2 without autograd: the n successive differences in
// cache-sized tiles, one kernel call (cpu/RepeatedDiffKernel.cpp). PyTorch
// runs n separate subtractions, each allocating its result and walking it.
#include <ATen/native/RepeatedDiff.h>

#include <ATen/ATen.h>

#include <algorithm>
#include <vector>

namespace at::native {

DEFINE_DISPATCH(repeated_diff_stub);

bool repeated_diff_applies(const Tensor& x) {
  return x.is_cpu() && !c10::isComplexType(x.scalar_type());
}

Tensor repeated_diff(const Tensor& x, int64_t n, int64_t dim) {
  const Tensor src = x.contiguous();
  std::vector<int64_t> sizes = src.sizes().vec();
  sizes[dim] = std::max<int64_t>(sizes[dim] - n, 0);
  Tensor out = at::empty(sizes, src.options());
  if (out.numel() > 0) repeated_diff_stub(DeviceType::CPU, src, out, n, dim);
  return out;
}

}  // namespace at::native
