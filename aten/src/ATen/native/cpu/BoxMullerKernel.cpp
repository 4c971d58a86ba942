// float32 normals from uniforms (native/Distributions.h), in blocks whose
// log, sin and cos run in VecMath's vector lanes.
#include <ATen/native/Distributions.h>
#include <ATen/native/cpu/VecMath.h>

#include <algorithm>
#include <cmath>

namespace at::native {
inline namespace CPU_CAPABILITY {
namespace {

void box_muller_float(const double* u, float* out, int64_t n, double mean, double std) {
  constexpr int64_t kBlock = 256;  // pairs per block
  float radius[kBlock], angle[kBlock], sine[kBlock], cosine[kBlock];
  const int64_t pairs = (n + 1) / 2;
  const float m = static_cast<float>(mean), s = static_cast<float>(std);
  for (int64_t start = 0; start < pairs; start += kBlock) {
    const int64_t len = std::min(kBlock, pairs - start);
    const double* pu = u + 2 * start;
    for (int64_t k = 0; k < len; ++k) {
      radius[k] = static_cast<float>(1.0 - pu[2 * k]);  // (0, 1]: the log stays finite
      angle[k] = static_cast<float>(kTwoPi * pu[2 * k + 1]);
    }
    vec::log(radius, radius, len);
    vec::sin(angle, sine, len);
    vec::cos(angle, cosine, len);
    float* po = out + 2 * start;
    const int64_t full = std::min(len, (n - 2 * start) / 2);  // pairs with both outputs
    for (int64_t k = 0; k < full; ++k) {
      const float r = std::sqrt(-2.0f * radius[k]);
      po[2 * k] = m + s * r * cosine[k];
      po[2 * k + 1] = m + s * r * sine[k];
    }
    if (full < len) po[2 * full] = m + s * std::sqrt(-2.0f * radius[full]) * cosine[full];
  }
}

}  // namespace

REGISTER_CPU_DISPATCH(box_muller_float_stub, &box_muller_float);

}  // namespace CPU_CAPABILITY
}  // namespace at::native
