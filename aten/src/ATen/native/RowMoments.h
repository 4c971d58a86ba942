#pragma once
// Sums over one contiguous row for the normalisation kernels (layer norm's
// double rows, group norm's): partial sums in lanes the compiler vectorises,
// added up in double at the end so a long row loses no precision.
#include <cstdint>

namespace at::native {

template <typename T>
double row_sum(const T* x, int64_t n) {
  double s[4] = {};
  int64_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (int k = 0; k < 4; ++k) s[k] += x[i + k];
  for (; i < n; ++i) s[0] += x[i];
  return (s[0] + s[1]) + (s[2] + s[3]);
}

// sum((x - mean)^2) in 8 lanes of T, each lane's total added up in double.
template <typename T>
double squared_deviation(const T* x, T mean, int64_t n) {
  T lanes[8] = {};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int k = 0; k < 8; ++k) lanes[k] += (x[i + k] - mean) * (x[i + k] - mean);
  double total = 0;
  for (; i < n; ++i) total += static_cast<double>(x[i] - mean) * static_cast<double>(x[i] - mean);
  for (T v : lanes) total += v;
  return total;
}

// sum(a * (b - shift)) and sum(a) in one pass, 8 lanes each: with b's mean
// as the shift, the dot product cancels nothing when b sits far from zero.
template <typename T>
void shifted_dot_and_sum(const T* a, const T* b, T shift, int64_t n, double& dot, double& sum) {
  T lanes_dot[8] = {}, lanes_sum[8] = {};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int k = 0; k < 8; ++k) {
      lanes_dot[k] += a[i + k] * (b[i + k] - shift);
      lanes_sum[k] += a[i + k];
    }
  dot = 0;
  sum = 0;
  for (; i < n; ++i) {
    dot += static_cast<double>(a[i]) * (b[i] - shift);
    sum += a[i];
  }
  for (int k = 0; k < 8; ++k) {
    dot += lanes_dot[k];
    sum += lanes_sum[k];
  }
}

}  // namespace at::native
