// Filling tensors from the default CPU generator so that a seed gives the
// same values whatever the number of threads: in element order, or (the
// bernoulli_ masks) from one draw that seeds a counter-based stream.
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/native/Distributions.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <type_traits>
#include <vector>

namespace at::native {
inline namespace CPU_CAPABILITY {
namespace {

// Runs `fill(ptr, n)` on a contiguous buffer, then copies into `self` if it was not contiguous.
template <typename F>
void fill_contiguous(const Tensor& self, F fill) {
  Tensor target = self.is_contiguous() ? self : at::empty(self.sizes(), self.scalar_type(), self.device());
  fill(target);
  if (!target.is_same(self)) self.copy_(target);
}

void uniform_kernel(const Tensor& self, double from, double to) {
  fill_contiguous(self, [&](const Tensor& t) {
    AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(t.scalar_type(), "uniform_", [&] {
      scalar_t* p = t.data_ptr<scalar_t>();
      auto& gen = default_cpu_generator();
      std::lock_guard<std::mutex> lock(gen.mutex());
      for (int64_t i = 0; i < t.numel(); ++i) {
        scalar_t v = static_cast<scalar_t>(from + (to - from) * gen.uniform());
        // Rounding to float can reach `to`; the range is half-open.
        p[i] = v < static_cast<scalar_t>(to) ? v : static_cast<scalar_t>(from);
      }
    });
  });
}

void normal_kernel(const Tensor& self, double mean, double std) {
  fill_contiguous(self, [&](const Tensor& t) {
    AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(t.scalar_type(), "normal_", [&] {
      scalar_t* p = t.data_ptr<scalar_t>();
      const int64_t n = t.numel(), pairs = (n + 1) / 2;
      // The uniforms come from the generator in order (under its lock); the
      // transcendental part, most of the time, then runs on every thread.
      std::vector<double> u(static_cast<size_t>(2 * pairs));
      {
        auto& gen = default_cpu_generator();
        std::lock_guard<std::mutex> lock(gen.mutex());
        for (double& v : u) v = gen.uniform();
      }
      if (std::is_same_v<scalar_t, float>) {  // a plain if: scalar_t is no template parameter here
        // float32: the transcendental part in the widest capability's lanes.
        parallel_for(0, pairs, 2048, [&](int64_t lo, int64_t hi) {
          const int64_t count = std::min(n, 2 * hi) - 2 * lo;
          box_muller_float_stub(c10::DeviceType::CPU, u.data() + 2 * lo, reinterpret_cast<float*>(p) + 2 * lo, count,
                                mean, std);
        });
        return;
      }
      // Box-Muller: two uniforms give two independent normals.
      parallel_for(0, pairs, 2048, [&](int64_t lo, int64_t hi) {
        for (int64_t i = lo; i < hi; ++i) {
          const double r = std::sqrt(-2.0 * std::log(1.0 - u[2 * i]));  // (0, 1]: log stays finite
          const double theta = kTwoPi * u[2 * i + 1];
          p[2 * i] = static_cast<scalar_t>(mean + std * r * std::cos(theta));
          if (2 * i + 1 < n) p[2 * i + 1] = static_cast<scalar_t>(mean + std * r * std::sin(theta));
        }
      });
    });
  });
}

// splitmix64's output for state `x`: a 64-bit mix whose values at
// consecutive multiples of the golden gamma form a stream that passes
// BigCrush, so any element's bits are computed from its index alone.
inline uint64_t splitmix64(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// One draw from the generator seeds a counter-based stream: the mask is the
// same whatever the number of threads, and the threads share the work
// (dropout masks are the bulk of a small model's random numbers).
void bernoulli_scalar_kernel(const Tensor& self, double p) {
  uint64_t seed;
  {
    auto& gen = default_cpu_generator();
    std::lock_guard<std::mutex> lock(gen.mutex());
    seed = gen.random64();
  }
  // An element is 1 when its 32 random bits are below p * 2^32.
  const uint64_t threshold = p >= 1 ? (uint64_t{1} << 32) : static_cast<uint64_t>(p * 0x1p32);
  fill_contiguous(self, [&](const Tensor& t) {
    AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(t.scalar_type(), "bernoulli_scalar_cpu_", [&] {
      scalar_t* out = static_cast<scalar_t*>(t.data_ptr());
      const int64_t n = t.numel(), pairs = (n + 1) / 2;
      constexpr uint64_t kGamma = 0x9e3779b97f4a7c15ULL;
      parallel_for(0, pairs, 4096, [&](int64_t lo, int64_t hi) {
        for (int64_t k = lo; k < hi; ++k) {
          const uint64_t bits = splitmix64(seed + static_cast<uint64_t>(k + 1) * kGamma);
          out[2 * k] = (bits & 0xffffffffULL) < threshold ? scalar_t(1) : scalar_t(0);
          if (2 * k + 1 < n) out[2 * k + 1] = (bits >> 32) < threshold ? scalar_t(1) : scalar_t(0);
        }
      });
    });
  });
}

void random_kernel(const Tensor& self, int64_t from, int64_t to) {
  fill_contiguous(self, [&](const Tensor& t) {
    AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(t.scalar_type(), "random_", [&] {
      scalar_t* p = static_cast<scalar_t*>(t.data_ptr());
      const uint64_t range = static_cast<uint64_t>(to - from);
      auto& gen = default_cpu_generator();
      std::lock_guard<std::mutex> lock(gen.mutex());
      for (int64_t i = 0; i < t.numel(); ++i) {
        p[i] = static_cast<scalar_t>(from + static_cast<int64_t>(gen.random64() % range));
      }
    });
  });
}

// p[i] = start + step * i, in the element type's own width, unsigned: the
// same low bits as the int64 value (the result wraps anyway), and a loop
// that vectorises.
template <typename T>
void integer_range(T* p, int64_t n, int64_t start, int64_t step) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    parallel_for(0, n, kGrainSize, [&](int64_t lo, int64_t hi) {
      const U first = static_cast<U>(start + step * lo), stride = static_cast<U>(step);
      U* q = reinterpret_cast<U*>(p + lo);
      for (int64_t k = 0; k < hi - lo; ++k) q[k] = static_cast<U>(first + stride * static_cast<U>(k));
    });
  }
}

void arange_kernel(const Tensor& result, const Scalar& start, const Scalar& step) {
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(result.scalar_type(), "arange", [&] {
    scalar_t* p = result.data_ptr<scalar_t>();
    const int64_t n = result.numel();
    // Each element from its index alone, so the range splits over threads
    // (a billion-element arange is seconds, not a hang).
    if (c10::isFloatingType(result.scalar_type()) || start.isFloatingPoint() || step.isFloatingPoint()) {
      const double s = start.toDouble(), st = step.toDouble();
      parallel_for(0, n, kGrainSize, [&](int64_t lo, int64_t hi) {
        // The index as a block start plus an int32 offset: the int32 to double
        // conversion vectorises where int64's does not (the same doubles below 2^53).
        for (int64_t base = lo; base < hi; base += INT32_MAX) {
          const int32_t m = static_cast<int32_t>(std::min<int64_t>(hi - base, INT32_MAX));
          const double b = static_cast<double>(base);
          scalar_t* q = p + base;
          for (int32_t j = 0; j < m; ++j) q[j] = static_cast<scalar_t>(s + st * (b + static_cast<double>(j)));
        }
      });
    } else {
      integer_range(p, n, start.toLong(), step.toLong());
    }
  });
}

}  // namespace

REGISTER_CPU_DISPATCH(uniform_stub, &uniform_kernel);
REGISTER_CPU_DISPATCH(normal_stub, &normal_kernel);
REGISTER_CPU_DISPATCH(arange_stub, &arange_kernel);
REGISTER_CPU_DISPATCH(random_stub, &random_kernel);
REGISTER_CPU_DISPATCH(bernoulli_scalar_stub, &bernoulli_scalar_kernel);

}  // namespace CPU_CAPABILITY
}  // namespace at::native
