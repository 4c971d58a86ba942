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

// Raw 64-bit numbers from the default generator, drawn under its lock in
// blocks (one call per block, not one per element) and handed to
// `consume(bits, start, len)` in element order.
template <typename F>
void draw_blocks(int64_t n, F consume) {
  constexpr int64_t kBlock = 1024;
  uint64_t bits[kBlock];
  auto& gen = default_cpu_generator();
  std::lock_guard<std::mutex> lock(gen.mutex());
  for (int64_t start = 0; start < n; start += kBlock) {
    const int64_t len = std::min(kBlock, n - start);
    gen.fill64(bits, len);
    consume(bits, start, len);
  }
}

// [0, 1) from the top bits of a draw: 24 for float (and the 16-bit types,
// computed in float), 53 for double; exact in that type. The top bits
// convert through int64 (x86 has no uint64 conversion before AVX-512).
template <typename A>
inline A unit_interval(uint64_t bits) {
  if constexpr (std::is_same_v<A, double>) {
    return static_cast<double>(static_cast<int64_t>(bits >> 11)) * 0x1.0p-53;
  } else {
    return static_cast<float>(static_cast<int32_t>(bits >> 40)) * 0x1.0p-24f;
  }
}

void uniform_kernel(const Tensor& self, double from, double to) {
  fill_contiguous(self, [&](const Tensor& t) {
    AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(t.scalar_type(), "uniform_", [&] {
      using A = std::conditional_t<std::is_same_v<scalar_t, double>, double, float>;
      scalar_t* p = t.data_ptr<scalar_t>();
      const A lo = static_cast<A>(from), span = static_cast<A>(to - from);
      const scalar_t first = static_cast<scalar_t>(from), last = static_cast<scalar_t>(to);
      draw_blocks(t.numel(), [&](const uint64_t* bits, int64_t start, int64_t len) {
        scalar_t* q = p + start;
        for (int64_t i = 0; i < len; ++i) {
          const scalar_t v = static_cast<scalar_t>(lo + span * unit_interval<A>(bits[i]));
          // Rounding can reach `to`; the range is half-open.
          q[i] = v < last ? v : first;
        }
      });
    });
  });
}

void normal_kernel(const Tensor& self, double mean, double std) {
  fill_contiguous(self, [&](const Tensor& t) {
    AT_DISPATCH_FLOATING_AND_REDUCED_TYPES(t.scalar_type(), "normal_", [&] {
      scalar_t* p = t.data_ptr<scalar_t>();
      const int64_t n = t.numel(), pairs = (n + 1) / 2;
      // The uniforms come from the generator in order (under its lock, in
      // blocks); the transcendental part, most of the time, then runs on
      // every thread.
      std::vector<double> uniforms(static_cast<size_t>(2 * pairs));
      draw_blocks(2 * pairs, [&](const uint64_t* bits, int64_t start, int64_t len) {
        for (int64_t i = 0; i < len; ++i) uniforms[start + i] = unit_interval<double>(bits[i]);
      });
      const double* u = uniforms.data();
      if (std::is_same_v<scalar_t, float>) {  // a plain if: scalar_t is no template parameter here
        // float32: the transcendental part in the widest capability's lanes.
        parallel_for(0, pairs, 2048, [&](int64_t lo, int64_t hi) {
          const int64_t count = std::min(n, 2 * hi) - 2 * lo;
          box_muller_float_stub(c10::DeviceType::CPU, u + 2 * lo, reinterpret_cast<float*>(p) + 2 * lo, count,
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

// from + a draw reduced to [0, to - from): below 2^32 by the top 32 bits
// times the range, shifted down (a multiply, not a 64-bit division; bias
// under range / 2^32, as a modulo of 32 bits has); wider ranges by modulo.
void random_kernel(const Tensor& self, int64_t from, int64_t to) {
  fill_contiguous(self, [&](const Tensor& t) {
    AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(t.scalar_type(), "random_", [&] {
      scalar_t* p = static_cast<scalar_t*>(t.data_ptr());
      const uint64_t range = static_cast<uint64_t>(to) - static_cast<uint64_t>(from);
      draw_blocks(t.numel(), [&](const uint64_t* bits, int64_t start, int64_t len) {
        // The sum in uint64: from + offset can pass through int64's ends.
        scalar_t* q = p + start;
        const uint64_t base = static_cast<uint64_t>(from);
        if (range <= (uint64_t{1} << 32)) {
          for (int64_t i = 0; i < len; ++i)
            q[i] = static_cast<scalar_t>(static_cast<int64_t>(base + (((bits[i] >> 32) * range) >> 32)));
        } else {
          for (int64_t i = 0; i < len; ++i) q[i] = static_cast<scalar_t>(static_cast<int64_t>(base + bits[i] % range));
        }
      });
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
