#pragma once
// AVX-512 versions of VecMath's exp family, chosen at run time when the CPU
// has AVX-512F. They exist because the auto-vectorised loops cannot use
// vscalefps (x * 2^n in one instruction, subnormal results and overflow
// included) or vrndscaleps, which together halve the work of each exp.
// Same range reduction, polynomial and special values as VecMath's exp1.
// Built where TORCH_CPU_MULTIVERSION is 1 (as VecMath's clones); elsewhere
// VecMath keeps its portable loops.
#include <ATen/native/cpu/Multiversion.h>

#include <cstdint>

#if TORCH_CPU_MULTIVERSION
namespace at::native::vec::avx512 {

// Whether to run these kernels: cpu_capability() is AVX512.
bool usable();

void exp(const float* x, float* y, int64_t n);
void sigmoid(const float* x, float* y, int64_t n);
void tanh(const float* x, float* y, int64_t n);
void softmax_rows(const float* x, float* y, int64_t rows, int64_t n, bool log);
void layer_norm_rows(const float* x, const float* w, const float* b, float* y, float* mean, float* rstd,
                     int64_t rows, int64_t n, double eps);

}  // namespace at::native::vec::avx512
#endif
