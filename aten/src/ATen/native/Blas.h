#pragma once
// Matrix multiply for the CPU kernels: OpenBLAS for float and double,
// a plain loop (computing in float for float16/bfloat16) for the rest.
// OpenBLAS runs single-threaded: callers split large products over the one
// OpenMP pool (at::parallel_for), so no second pool of threads competes
// with it for the cores.
#include <c10/util/Half.h>

#include <cstdint>

namespace at::native::cpublas {

// C[m, n] = alpha * op(A)[m, k] @ op(B)[k, n] + beta * C, row-major, where
// op(X) is X or its transpose; ld* are the row strides (in elements).
// alpha and beta come in T's compute type (float for float16/bfloat16), as
// PyTorch takes them: a beta of 1e10 is not first rounded to float16's inf.
template <typename T>
void gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, c10::opmath_t<T> alpha, const T* a, int64_t lda,
          const T* b, int64_t ldb, c10::opmath_t<T> beta, T* c, int64_t ldc);

}  // namespace at::native::cpublas
