#pragma once
// The scalar rules of the reductions, shared by the CPU kernels
// (native/cpu/ReduceOpsKernel.cpp) and the CUDA ones
// (native/cuda/ReduceOpsKernel.cu), which differ only in how they walk rows.
#include <c10/macros/Macros.h>

#include <cmath>

namespace at::native {

template <typename M>
C10_HOST_DEVICE bool is_nan_value(M v) {
  return v != v;  // false for integers and bool
}

// Whether `candidate`, met after `best`, takes its place in max (or min) and
// argmax (or argmin): the first NaN wins for good, ties keep the first.
template <typename M>
C10_HOST_DEVICE bool extreme_replaces(M candidate, M best, bool is_max) {
  if (is_nan_value(best)) return false;
  if (is_nan_value(candidate)) return true;
  return is_max ? best < candidate : candidate < best;
}

// norm(x, p) for a finite p other than 0, 1, 2: (sum |x|^p)^(1/p).
C10_HOST_DEVICE inline double norm_term(double v, double p) { return std::pow(std::abs(v), p); }
C10_HOST_DEVICE inline double norm_finish(double sum, double p) { return std::pow(sum, 1.0 / p); }

// var: sum of squared deviations over (n - correction), never a negative divisor.
C10_HOST_DEVICE inline double var_finish(double m2, double n, double correction, bool sqrt = false) {
  const double d = n - correction;
  const double var = m2 / (d > 0 ? d : 0.0);
  return sqrt ? ::sqrt(var) : var;
}

}  // namespace at::native
