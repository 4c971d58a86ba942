// Batched matrix products on the CPU, through cpublas::gemm. Operands that
// are transposed views go to BLAS as they are (a transpose flag); other
// layouts are copied once. Large products are split over the OpenMP threads
// by matrix and by blocks of rows, each block one single-threaded gemm.
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/native/LinearAlgebra.h>
#include <ATen/Parallel.h>
#include <ATen/native/Blas.h>

namespace at::native {
inline namespace CPU_CAPABILITY {
namespace {

// A [B, rows, cols] operand as BLAS sees it.
struct GemmOperand {
  Tensor tensor;  // keeps a copy alive
  bool trans;
  int64_t ld;
};

GemmOperand blas_layout(const Tensor& t) {
  const int64_t rows = t.size(1), cols = t.size(2);
  const int64_t s_row = t.stride(1), s_col = t.stride(2);
  if (s_col == 1 && (s_row >= std::max<int64_t>(1, cols) || rows == 1)) return {t, false, std::max<int64_t>(s_row, cols)};
  if (s_row == 1 && (s_col >= std::max<int64_t>(1, rows) || cols == 1)) return {t, true, std::max<int64_t>(s_col, rows)};
  Tensor c = t.contiguous();
  return {c, false, std::max<int64_t>(cols, 1)};
}

void bmm_kernel(const Tensor& out, const Tensor& a, const Tensor& b, const Scalar& alpha, const Scalar& beta) {
  const int64_t batch = a.size(0), m = a.size(1), k = a.size(2), n = b.size(2);
  const GemmOperand A = blas_layout(a), B = blas_layout(b);
  // Work items: (matrix, block of rows). Enough blocks to occupy every
  // thread, none thinner than 16 rows; small products stay on one thread.
  const int64_t threads = get_num_threads();
  const double flops = 2.0 * static_cast<double>(batch) * m * n * k;
  const int64_t wanted = flops < 4e6 ? 1 : threads;
  const int64_t row_blocks =
      std::max<int64_t>(1, std::min<int64_t>((wanted + batch - 1) / batch, std::max<int64_t>(m / 16, 1)));
  const int64_t rows_per_block = (m + row_blocks - 1) / row_blocks;
  AT_DISPATCH_ALL_AND_REDUCED_TYPES(out.scalar_type(), "bmm", [&] {
    const scalar_t* pa = static_cast<const scalar_t*>(A.tensor.data_ptr());
    const scalar_t* pb = static_cast<const scalar_t*>(B.tensor.data_ptr());
    scalar_t* pc = out.data_ptr<scalar_t>();
    using opmath = c10::opmath_t<scalar_t>;
    const opmath al = alpha.to<opmath>(), be = beta.to<opmath>();
    const int64_t ldc = std::max<int64_t>(n, 1);
    auto run = [&](int64_t lo, int64_t hi) {
      for (int64_t item = lo; item < hi; ++item) {
        const int64_t i = item / row_blocks, r0 = (item % row_blocks) * rows_per_block;
        const int64_t rows = std::min(rows_per_block, m - r0);
        if (rows <= 0) continue;
        // Row r0 of op(A): a row offset, or a column offset when A is transposed.
        const scalar_t* a0 = pa + i * A.tensor.stride(0) + (A.trans ? r0 : r0 * A.ld);
        cpublas::gemm<scalar_t>(A.trans, B.trans, rows, n, k, al, a0, A.ld, pb + i * B.tensor.stride(0), B.ld, be,
                                pc + i * m * n + r0 * ldc, ldc);
      }
    };
    if (wanted == 1) {
      run(0, batch * row_blocks);
    } else {
      parallel_for(0, batch * row_blocks, 1, run);
    }
  });
}

}  // namespace

REGISTER_CPU_DISPATCH(bmm_stub, &bmm_kernel);

}  // namespace CPU_CAPABILITY
}  // namespace at::native
