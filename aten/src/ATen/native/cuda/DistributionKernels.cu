// Random fills and arange on CUDA. Element i draws from Philox at counter
// (i, launch offset), so results depend on the seed and the element, not on
// the launch shape (ATen/cuda/PhiloxRNG.h).
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/cuda/PhiloxRNG.h>
#include <ATen/native/Distributions.h>
#include <ATen/native/cuda/Loops.cuh>

#include <cmath>

namespace at::native {
namespace {

// Runs fill(target) on a contiguous tensor, then copies into `self` if it was not contiguous.
template <typename F>
void fill_contiguous(const Tensor& self, F fill) {
  if (self.numel() == 0) return;
  cuda::CUDAGuard guard(self.device().index);
  Tensor target = self.is_contiguous() ? self : at::empty(self.sizes(), self.scalar_type(), self.device());
  fill(target);
  if (!target.is_same(self)) self.copy_(target);
}

void uniform_kernel_cuda(const Tensor& self, double from, double to) {
  fill_contiguous(self, [&](const Tensor& t) {
    AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(t.scalar_type(), "uniform_cuda", [&] {
      scalar_t* p = t.data_ptr<scalar_t>();
      const cuda::PhiloxSeed seed = cuda::philox_next_launch();
      gpu_for_each_index(t.numel(), [=] __device__(int64_t i) {
        const uint4 r = cuda::philox_draw(seed, static_cast<uint64_t>(i));
        const double u = std::is_same_v<scalar_t, double> ? cuda::uniform_double(r.x, r.y) : cuda::uniform_float(r.x);
        const scalar_t v = static_cast<scalar_t>(from + (to - from) * u);
        // Rounding to a narrower type can reach `to`; the range is half-open.
        p[i] = static_cast<double>(v) < to ? v : static_cast<scalar_t>(from);
      });
    });
  });
}

void normal_kernel_cuda(const Tensor& self, double mean, double std) {
  fill_contiguous(self, [&](const Tensor& t) {
    AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(t.scalar_type(), "normal_cuda", [&] {
      scalar_t* p = t.data_ptr<scalar_t>();
      const cuda::PhiloxSeed seed = cuda::philox_next_launch();
      gpu_for_each_index(t.numel(), [=] __device__(int64_t i) {
        // Box-Muller from two uniforms; 1 - u1 lies in (0, 1], so the log is finite.
        const uint4 r = cuda::philox_draw(seed, static_cast<uint64_t>(i));
        const double u1 = 1.0 - cuda::uniform_double(r.x, r.y);
        const double u2 = cuda::uniform_double(r.z, r.w);
        p[i] = static_cast<scalar_t>(mean + std * ::sqrt(-2.0 * ::log(u1)) * ::cos(kTwoPi * u2));
      });
    });
  });
}

void random_kernel_cuda(const Tensor& self, int64_t from, int64_t to) {
  fill_contiguous(self, [&](const Tensor& t) {
    AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(t.scalar_type(), "random_cuda", [&] {
      scalar_t* p = static_cast<scalar_t*>(t.data_ptr());
      const uint64_t range = static_cast<uint64_t>(to - from);
      const cuda::PhiloxSeed seed = cuda::philox_next_launch();
      gpu_for_each_index(t.numel(), [=] __device__(int64_t i) {
        const uint4 r = cuda::philox_draw(seed, static_cast<uint64_t>(i));
        const uint64_t bits = (static_cast<uint64_t>(r.x) << 32) | r.y;
        p[i] = static_cast<scalar_t>(from + static_cast<int64_t>(bits % range));
      });
    });
  });
}

void arange_kernel_cuda(const Tensor& result, const Scalar& start, const Scalar& step) {
  cuda::CUDAGuard guard(result.device().index);
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(result.scalar_type(), "arange_cuda", [&] {
    scalar_t* p = result.data_ptr<scalar_t>();
    if (c10::isFloatingType(result.scalar_type()) || start.isFloatingPoint() || step.isFloatingPoint()) {
      const double s = start.toDouble(), st = step.toDouble();
      gpu_for_each_index(result.numel(), [=] __device__(int64_t i) { p[i] = static_cast<scalar_t>(s + st * static_cast<double>(i)); });
    } else {
      const int64_t s = start.toLong(), st = step.toLong();
      gpu_for_each_index(result.numel(), [=] __device__(int64_t i) { p[i] = static_cast<scalar_t>(s + st * i); });
    }
  });
}

}  // namespace

REGISTER_CUDA_DISPATCH(uniform_stub, &uniform_kernel_cuda);
REGISTER_CUDA_DISPATCH(normal_stub, &normal_kernel_cuda);
REGISTER_CUDA_DISPATCH(random_stub, &random_kernel_cuda);
REGISTER_CUDA_DISPATCH(arange_stub, &arange_kernel_cuda);

}  // namespace at::native
