#include <ATen/native/Blas.h>

#include <ATen/Parallel.h>
#include <c10/core/ScalarType.h>
#include <c10/util/Exception.h>
#include <cblas.h>

#include <limits>
#include <type_traits>

namespace at::native::cpublas {
namespace {

// OpenBLAS starts with a thread per core; it gets one, once, before the first product.
const bool openblas_single_threaded = [] {
  scipy_openblas_set_num_threads(1);
  return true;
}();

blasint as_blasint(int64_t v, const char* what) {
  TORCH_CHECK(v <= std::numeric_limits<blasint>::max(), "gemm: ", what, " = ", v,
              " exceeds the 32-bit BLAS index range");
  return static_cast<blasint>(v);
}

template <typename T>
void gemm_loop(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, c10::opmath_t<T> alpha, const T* a,
               int64_t lda, const T* b, int64_t ldb, c10::opmath_t<T> beta, T* c, int64_t ldc) {
  using M = c10::opmath_t<T>;
  parallel_for(0, m, std::max<int64_t>(1, kGrainSize / std::max<int64_t>(n * k, 1)), [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        M acc = 0;
        for (int64_t p = 0; p < k; ++p) {
          const M av = trans_a ? a[p * lda + i] : a[i * lda + p];
          const M bv = trans_b ? b[j * ldb + p] : b[p * ldb + j];
          acc += av * bv;
        }
        T& out = c[i * ldc + j];
        out = M(beta) == M(0) ? M(alpha) * acc : M(alpha) * acc + M(beta) * M(out);
      }
    }
  });
}

// A product with one output row or column is a matrix-vector product:
// BLAS's gemv is two to three times faster at it than gemm (OpenBLAS). y is
// zeroed first where beta is 0, since gemv scales what is there by beta
// (NaN * 0 is NaN) where gemm leaves it unread.
template <typename T>
bool gemm_as_gemv(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, T alpha, const T* a, int64_t lda,
                  const T* b, int64_t ldb, T beta, T* c, int64_t ldc) {
  if ((n != 1 && m != 1) || k == 0) return false;  // k == 0: gemv would not scale y by beta
  auto gemv = [](bool trans, int64_t rows, int64_t cols, T alpha_, const T* mat, int64_t ld, const T* x,
                 int64_t incx, T beta_, T* y, int64_t incy, int64_t ny) {
    if (beta_ == T(0)) {
      for (int64_t i = 0; i < ny; ++i) y[i * incy] = T(0);
    }
    const auto t = trans ? CblasTrans : CblasNoTrans;
    const blasint R = as_blasint(rows, "m"), C = as_blasint(cols, "n"), LD = as_blasint(ld, "lda");
    const blasint IX = as_blasint(incx, "incx"), IY = as_blasint(incy, "incy");
    if constexpr (std::is_same_v<T, float>) {
      scipy_cblas_sgemv(CblasRowMajor, t, R, C, alpha_, mat, LD, x, IX, beta_, y, IY);
    } else {
      scipy_cblas_dgemv(CblasRowMajor, t, R, C, alpha_, mat, LD, x, IX, beta_, y, IY);
    }
  };
  if (n == 1) {  // c[:, 0] = op(A) @ op(B)[:, 0]; A is stored m x k, or k x m when transposed
    gemv(trans_a, trans_a ? k : m, trans_a ? m : k, alpha, a, lda, b, trans_b ? 1 : ldb, beta, c, ldc, m);
  } else {  // c[0, :] = op(B)^T @ op(A)[0, :]; B is stored k x n, or n x k when transposed
    gemv(!trans_b, trans_b ? n : k, trans_b ? k : n, alpha, b, ldb, a, trans_a ? lda : 1, beta, c, 1, n);
  }
  return true;
}

}  // namespace

template <typename T>
void gemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, c10::opmath_t<T> alpha, const T* a,
          int64_t lda, const T* b, int64_t ldb, c10::opmath_t<T> beta, T* c, int64_t ldc) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    if (gemm_as_gemv<T>(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)) return;
    const auto ta = trans_a ? CblasTrans : CblasNoTrans;
    const auto tb = trans_b ? CblasTrans : CblasNoTrans;
    const blasint M = as_blasint(m, "m"), N = as_blasint(n, "n"), K = as_blasint(k, "k");
    const blasint LDA = as_blasint(lda, "lda"), LDB = as_blasint(ldb, "ldb"), LDC = as_blasint(ldc, "ldc");
    if constexpr (std::is_same_v<T, float>) {
      scipy_cblas_sgemm(CblasRowMajor, ta, tb, M, N, K, alpha, a, LDA, b, LDB, beta, c, LDC);
    } else {
      scipy_cblas_dgemm(CblasRowMajor, ta, tb, M, N, K, alpha, a, LDA, b, LDB, beta, c, LDC);
    }
  } else {
    gemm_loop(trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  }
}

#define INSTANTIATE(cpp, name, py)                                                                        \
  template void gemm<cpp>(bool, bool, int64_t, int64_t, int64_t, c10::opmath_t<cpp>, const cpp*, int64_t, \
                          const cpp*, int64_t, c10::opmath_t<cpp>, cpp*, int64_t);
C10_FORALL_SCALAR_TYPES_WITH_STORAGE(INSTANTIATE)
#undef INSTANTIATE

}  // namespace at::native::cpublas
