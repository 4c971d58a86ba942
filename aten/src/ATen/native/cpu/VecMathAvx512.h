#pragma once
// AVX-512 versions of VecMath's exp family, for VecMath's AVX512 copy. They
// exist because the auto-vectorised loops cannot use vscalefps (x * 2^n in one instruction, subnormal results and overflow
// included) or vrndscaleps, which together halve the work of each exp.
// Same range reduction, polynomial and special values as VecMath's exp1.
#include <cstdint>

#ifdef CPU_CAPABILITY_AVX512
namespace at::native::vec {
inline namespace CPU_CAPABILITY {
namespace avx512 {

void exp(const float* x, float* y, int64_t n);
void sigmoid(const float* x, float* y, int64_t n);
void tanh(const float* x, float* y, int64_t n);
void softmax_rows(const float* x, float* y, int64_t rows, int64_t n, bool log);
void layer_norm_rows(const float* x, const float* w, const float* b, float* y, float* mean, float* rstd,
                     int64_t rows, int64_t n, double eps);

}  // namespace avx512
}  // namespace CPU_CAPABILITY
}  // namespace at::native::vec
#endif
