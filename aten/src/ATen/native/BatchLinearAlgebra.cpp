// torch.linalg's factorisations and solves on LAPACK (native/Lapack.h): LU
// (getrf/getrs), Cholesky (potrf; potrs and potri for cholesky_solve and
// cholesky_inverse), QR (geqrf/orgqr), the SVD (gesdd), the symmetric
// eigendecomposition (syevd), least squares (gels, gelsy, gelsd, gelss) and
// triangular solves (BLAS trsm).
// A batch is one column-major copy of the input (its mT made contiguous),
// factorised matrix by matrix, the matrices split over parallel_for's
// threads (OpenBLAS itself stays single-threaded: Blas.cpp). Results come
// back as PyTorch returns them, column-major, with its checks, messages and
// LinAlgError. A CUDA tensor is factorised on the CPU and the results copied
// back (PyTorch uses cuSOLVER there: a copy costs two transfers, which the
// matrices model code factorises afford).
#include <ATen/ATen.h>
#include <ATen/Dispatch.h>
#include <ATen/ExpandUtils.h>
#include <ATen/Parallel.h>
#include <ATen/autograd/Variable.h>
#include <ATen/native/Lapack.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <limits>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

namespace at::native {
namespace {

const Device kCPU{DeviceType::CPU};

// Calls fn(T{}) with T the C++ type of a float32 or float64 tensor.
template <typename Fn>
void float_or_double(ScalarType t, Fn&& fn) {
  if (t == kDouble) {
    fn(double{});
  } else {
    fn(float{});
  }
}

std::vector<int64_t> batch_shape(const Tensor& A) { return {A.sizes().begin(), A.sizes().end() - 2}; }

int64_t batch_count(const Tensor& A) {
  int64_t count = 1;
  for (int64_t i = 0; i + 2 < A.dim(); ++i) count *= A.size(i);
  return count;
}

std::vector<int64_t> with(std::vector<int64_t> shape, std::initializer_list<int64_t> tail) {
  shape.insert(shape.end(), tail);
  return shape;
}

// The checks every torch.linalg function makes of its matrix input, in PyTorch's words.
void check_float_matrix(const Tensor& A, const char* fn) {
  TORCH_CHECK(A.dim() >= 2, fn, ": The input tensor A must have at least 2 dimensions.");
  const ScalarType t = A.scalar_type();
  TORCH_CHECK(isFloatingType(t), fn, ": Expected a floating point or complex tensor as input. Got ", toString(t));
  TORCH_CHECK(t == kFloat || t == kDouble, fn, ": Low precision dtypes not supported. Got ", toString(t));
  TORCH_CHECK(A.size(-1) <= INT_MAX && A.size(-2) <= INT_MAX, fn, ": matrices of size ", A.size(-2), "x",
              A.size(-1), " are larger than LAPACK's 32-bit indices allow");
}

// The kernels' own dtype check, where PyTorch's dispatch names its kernel:
// NotImplementedError for every dtype but float32 and float64 (complex too:
// there are no complex tensors here).
void check_kernel_dtype(const Tensor& A, const char* kernel) {
  const ScalarType t = A.scalar_type();
  TORCH_CHECK_NOT_IMPLEMENTED(t == kFloat || t == kDouble, "\"", kernel, "\" not implemented for '", toString(t), "'");
}

// A matrix input in PyTorch's order of checks: at least 2-D, floating point,
// then the kernel's dtype, then the rest of check_float_matrix.
void check_matrix_then_kernel(const Tensor& A, const char* fn, const char* kernel) {
  TORCH_CHECK(A.dim() >= 2, fn, ": The input tensor A must have at least 2 dimensions.");
  const ScalarType t = A.scalar_type();
  TORCH_CHECK(isFloatingType(t), fn, ": Expected a floating point or complex tensor as input. Got ", toString(t));
  check_kernel_dtype(A, kernel);
  check_float_matrix(A, fn);
}

void check_square_shape(const Tensor& A, const char* fn) {
  TORCH_CHECK(A.dim() >= 2, fn, ": The input tensor A must have at least 2 dimensions.");
  TORCH_CHECK(A.size(-1) == A.size(-2), fn, ": A must be batches of square matrices, but they are ", A.size(-2),
              " by ", A.size(-1), " matrices");
}

void check_square(const Tensor& A, const char* fn) {
  check_float_matrix(A, fn);
  check_square_shape(A, fn);
}

void check_same_batch(const Tensor& A, const Tensor& B, const char* fn) {
  TORCH_CHECK(A.sizes().slice(0, A.dim() - 2).equals(B.sizes().slice(0, B.dim() - 2)), fn,
              ": the batch dimensions of A ", A.sizes(), " and B ", B.sizes(),
              " must be equal (torch.linalg broadcasts them before the kernel)");
  TORCH_CHECK(A.scalar_type() == B.scalar_type(), fn, ": Expected A and B to have the same dtype, but found A of type ",
              toString(A.scalar_type()), " and B of type ", toString(B.scalar_type()), " instead.");
  TORCH_CHECK(A.device() == B.device(), fn, ": Expected A and B to be on the same device, but found A on ", A.device(),
              " and B on ", B.device(), " instead.");
}

// A fresh CPU copy of A in `dtype` whose memory holds each matrix
// column-major: LAPACK's layout, which it overwrites (never the caller's
// tensor). Viewed back with transpose(-2, -1), it is A-shaped.
Tensor column_major(const Tensor& A, ScalarType dtype) {
  std::vector<int64_t> sizes = A.sizes().vec();
  std::swap(sizes[sizes.size() - 1], sizes[sizes.size() - 2]);
  Tensor out = at::empty(sizes, dtype, kCPU);
  out.copy_(A.transpose(-2, -1));
  return out;
}

// A result computed on the CPU, on the input's device.
Tensor on_device_of(const Tensor& result, const Tensor& input) {
  return input.is_cpu() ? result : result.to(input.device(), result.scalar_type());
}

// PyTorch's _linalg_check_errors: the first matrix whose info is non-zero
// raises, prefixed with its batch element when the input was a batch.
enum class Failure { Singular, SolveSingular, InverseSingular, NotPositiveDefinite, Svd, Eigh, LstsqRank };

void check_errors(const std::vector<int>& infos, const char* fn, bool is_matrix, Failure failure) {
  for (size_t b = 0; b < infos.size(); ++b) {
    const int info = infos[b];
    TORCH_INTERNAL_ASSERT(info >= 0, fn, ": LAPACK reported argument ", -info, " as invalid");
    if (info == 0) continue;
    const std::string where = is_matrix ? "" : ": (Batch element " + std::to_string(b) + ")";
    switch (failure) {
      case Failure::Singular:
        TORCH_CHECK(false, fn, where, ": U[", info, ",", info,
                    "] is zero and using it on lu_solve would result in a division by zero. If you still want to "
                    "perform the factorization, consider calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)");
      case Failure::SolveSingular:
        TORCH_CHECK_LINALG(false, fn, where, ": The solver failed because the input matrix is singular.");
      case Failure::InverseSingular:
        TORCH_CHECK_LINALG(false, fn, where, ": The diagonal element ", info,
                           " is zero, the inversion could not be completed because the input matrix is singular.");
      case Failure::NotPositiveDefinite:
        TORCH_CHECK_LINALG(false, fn, where,
                           ": The factorization could not be completed because the input is not positive-definite "
                           "(the leading minor of order ", info, " is not positive-definite).");
      case Failure::Svd:
        TORCH_CHECK_LINALG(false, fn, where,
                           ": The algorithm failed to converge because the input matrix is ill-conditioned or has "
                           "too many repeated singular values (error code: ", info, ").");
      case Failure::Eigh:
        TORCH_CHECK_LINALG(false, fn, where,
                           ": The algorithm failed to converge because the input matrix is ill-conditioned or has "
                           "too many repeated eigenvalues (error code: ", info, ").");
      case Failure::LstsqRank:
        TORCH_CHECK_LINALG(false, fn, where,
                           ": The least squares solution could not be computed because the input matrix does not "
                           "have full rank (error code: ", info, ").");
    }
  }
}

// A read-only view of A's matrices in LAPACK's layout without a copy where
// A already is column-major on the CPU in `dtype` (lu_factor's LU, an mT of
// a contiguous tensor); otherwise a column-major copy.
Tensor column_major_view(const Tensor& A, ScalarType dtype) {
  const Tensor t = A.transpose(-2, -1);
  if (A.is_cpu() && A.scalar_type() == dtype && t.is_contiguous()) return t;
  return column_major(A, dtype);
}

// B's and A's batch dims broadcast, in PyTorch's order (its error calls B "tensor a").
std::vector<int64_t> broadcast_batch(const Tensor& B, const Tensor& A) {
  return infer_size(B.sizes().slice(0, B.dim() - 2), A.sizes().slice(0, A.dim() - 2));
}

Tensor expand_batch(const Tensor& t, const std::vector<int64_t>& batch) {
  return t.expand(with(batch, {t.size(-2), t.size(-1)}));
}

// A triangular factor's matrices as LAPACK reads them: a contiguous CPU one
// as it is, which LAPACK sees transposed (`transposed` is set: the caller
// names the other triangle), else a column-major copy. A broadcast one is copied.
Tensor triangular_operand(const Tensor& A, bool& transposed) {
  transposed = A.is_cpu() && A.is_contiguous();
  return transposed ? A : column_major_view(A, A.scalar_type());
}

Tensor info_tensor(const std::vector<int>& infos, const std::vector<int64_t>& shape) {
  Tensor out = at::empty(shape, kInt, kCPU);
  std::copy(infos.begin(), infos.end(), out.data_ptr<int>());
  return out;
}

// ---- LU ------------------------------------------------------------------

// getrf on each m x n matrix of a column-major batch, in place.
template <typename T>
void lu_batch(T* a, int* pivots, int64_t batch, int m, int n, std::vector<int>& infos) {
  const int k = std::min(m, n);
  at::parallel_for(0, batch, 1, [&](int64_t begin, int64_t end) {
    for (int64_t b = begin; b < end; ++b) {
      lapack::getrf<T>(m, n, a + b * m * n, std::max(m, 1), pivots + b * k, &infos[b]);
    }
  });
}

// (column-major factors, pivots, infos) of A's matrices.
std::tuple<Tensor, Tensor, std::vector<int>> lu_factor_cpu(const Tensor& A) {
  const int m = static_cast<int>(A.size(-2)), n = static_cast<int>(A.size(-1));
  const int64_t batch = batch_count(A);
  Tensor lu = column_major(A, A.scalar_type());
  Tensor pivots = at::empty(with(batch_shape(A), {std::min(m, n)}), kInt, kCPU);
  std::vector<int> infos(batch, 0);
  if (m > 0 && n > 0 && batch > 0) {
    float_or_double(A.scalar_type(), [&](auto tag) {
      using T = decltype(tag);
      lu_batch<T>(lu.data_ptr<T>(), pivots.data_ptr<int>(), batch, m, n, infos);
    });
  }
  return {lu, pivots, infos};
}

// getrs over a batch: b (column-major, n x nrhs each) solved in place.
template <typename T>
void lu_solve_batch(const T* lu, const int* pivots, T* b, int64_t batch, int n, int nrhs, char trans) {
  at::parallel_for(0, batch, 1, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      int info = 0;
      lapack::getrs<T>(trans, n, nrhs, lu + i * n * n, std::max(n, 1), pivots + i * n, b + i * n * nrhs,
                       std::max(n, 1), &info);
      TORCH_INTERNAL_ASSERT(info == 0, "getrs reported argument ", -info, " as invalid");
    }
  });
}

// X with op(A) X = B (left) or X op(A) = B, from A's column-major factors.
// Right-hand sides become left ones by transposing: X A = B is A^T X^T = B^T.
Tensor lu_solve_cpu(const Tensor& lu_cm, const Tensor& pivots, const Tensor& B, bool left, bool adjoint) {
  const int n = static_cast<int>(lu_cm.size(-1));
  const int64_t batch = batch_count(B);
  // Column-major B for the left solve; B's own row-major memory is B^T column-major.
  Tensor x = left ? column_major(B, lu_cm.scalar_type()) : B.to(kCPU, lu_cm.scalar_type()).contiguous().clone();
  const int nrhs = static_cast<int>(left ? B.size(-1) : B.size(-2));
  const char trans = (left != adjoint) ? 'N' : 'T';
  if (n > 0 && nrhs > 0 && batch > 0) {
    // getrs swaps row i with row pivots[i]: one out of [1, n] would write
    // outside the matrix. PyTorch's checks, in its order (an empty result
    // returns before them).
    const int* piv = pivots.data_ptr<int>();
    const int64_t count = pivots.numel();
    TORCH_CHECK(std::all_of(piv, piv + count, [](int p) { return p >= 1; }),
                "Pivots given to lu_solve must all be greater or equal to 1. Did you properly pass the result of "
                "lu_factor?");
    TORCH_CHECK(std::all_of(piv, piv + count, [n](int p) { return p <= n; }),
                "Pivots given to lu_solve must all be smaller or equal to LU.size(-2). Did you properly pass the "
                "result of lu_factor?");
    float_or_double(lu_cm.scalar_type(), [&](auto tag) {
      using T = decltype(tag);
      lu_solve_batch<T>(lu_cm.data_ptr<T>(), piv, x.data_ptr<T>(), batch, n, nrhs, trans);
    });
  }
  return left ? x.transpose(-2, -1) : x;
}

void check_lu_solve_shapes(const Tensor& A, const Tensor& B, bool left, const char* fn) {
  TORCH_CHECK(B.dim() >= 2, fn, ": The input tensor B must have at least 2 dimensions.");
  const int64_t rows = left ? B.size(-2) : B.size(-1);
  TORCH_CHECK(rows == A.size(-1), fn, ": Incompatible shapes of A and B for the equation ",
              left ? "AX = B (" : "XA = B (", A.size(-2), "x", A.size(-1), " and ", B.size(-2), "x", B.size(-1), ")");
}

// +1 or -1: the parity of LAPACK's row interchanges.
double pivot_sign(const int* pivots, int k) {
  double sign = 1;
  for (int i = 0; i < k; ++i) {
    if (pivots[i] != i + 1) sign = -sign;
  }
  return sign;
}

// ---- Cholesky, triangular solves -----------------------------------------

// potrf on each matrix, in place. Reference LAPACK (and MKL) stop at the
// first pivot that is not positive or is NaN; OpenBLAS's potrf carries a NaN
// pivot on (its square root is NaN), so a factor whose diagonal holds NaN
// reports that first NaN column, as PyTorch does.
template <typename T>
void cholesky_batch(T* a, int64_t batch, int n, char uplo, std::vector<int>& infos) {
  at::parallel_for(0, batch, 1, [&](int64_t begin, int64_t end) {
    for (int64_t b = begin; b < end; ++b) {
      T* m = a + b * n * n;
      lapack::potrf<T>(uplo, n, m, std::max(n, 1), &infos[b]);
      for (int j = 0; infos[b] == 0 && j < n; ++j) {
        if (std::isnan(m[j + static_cast<int64_t>(j) * n])) infos[b] = j + 1;
      }
    }
  });
}

// potrs over a batch: b (column-major, n x nrhs each) solved in place.
template <typename T>
void cholesky_solve_batch(const T* a, T* b, int64_t batch, int n, int nrhs, char uplo) {
  at::parallel_for(0, batch, 1, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      int info = 0;
      lapack::potrs<T>(uplo, n, nrhs, a + i * n * n, std::max(n, 1), b + i * n * nrhs, std::max(n, 1), &info);
      TORCH_INTERNAL_ASSERT(info == 0, "potrs reported argument ", -info, " as invalid");
    }
  });
}

// potri over each factor in `a`, then the computed triangle mirrored into
// the other: the whole symmetric inverse in place.
template <typename T>
void cholesky_inverse_batch(T* a, int64_t batch, int n, char uplo, std::vector<int>& infos) {
  at::parallel_for(0, batch, 1, [&](int64_t begin, int64_t end) {
    for (int64_t b = begin; b < end; ++b) {
      T* m = a + b * n * n;
      lapack::potri<T>(uplo, n, m, std::max(n, 1), &infos[b]);
      if (infos[b] != 0) continue;
      // Column-major: (i, j) is m[i + j n]. 'L' filled i >= j.
      for (int64_t j = 0; j < n; ++j) {
        for (int64_t i = j + 1; i < n; ++i) {
          if (uplo == 'L') {
            m[j + i * n] = m[i + j * n];
          } else {
            m[i + j * n] = m[j + i * n];
          }
        }
      }
    }
  });
}

template <typename T>
void triangular_solve_batch(const T* a, T* b, int64_t batch, int n, int rows, int cols, bool left, bool upper,
                            bool transpose, bool unit) {
  at::parallel_for(0, batch, 1, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      lapack::trsm<T>(left, upper, transpose, unit, rows, cols, a + i * n * n, std::max(n, 1), b + i * rows * cols,
                      std::max(rows, 1));
    }
  });
}

// ---- QR, SVD, eigh ---------------------------------------------------------

template <typename T>
void qr_batch(T* a, T* q, T* tau, int64_t batch, int m, int n, int q_cols, bool compute_q) {
  const int k = std::min(m, n);
  at::parallel_for(0, batch, 1, [&](int64_t begin, int64_t end) {
    int info = 0;
    T size_qr = 0, size_q = 0;
    lapack::geqrf<T>(m, n, a, std::max(m, 1), tau, &size_qr, -1, &info);
    if (compute_q) lapack::orgqr<T>(m, q_cols, k, q, std::max(m, 1), tau, &size_q, -1, &info);
    std::vector<T> work(std::max<int64_t>(1, static_cast<int64_t>(std::max(size_qr, size_q))));
    const int lwork = static_cast<int>(work.size());
    for (int64_t b = begin; b < end; ++b) {
      T* ab = a + b * m * n;
      T* taub = tau + b * k;
      lapack::geqrf<T>(m, n, ab, std::max(m, 1), taub, work.data(), lwork, &info);
      TORCH_INTERNAL_ASSERT(info == 0, "geqrf reported argument ", -info, " as invalid");
      if (!compute_q) continue;
      // Q's buffer starts from the reflectors: the first min(n, q_cols) columns.
      T* qb = q + b * m * q_cols;
      std::copy(ab, ab + static_cast<int64_t>(m) * std::min(n, q_cols), qb);
      lapack::orgqr<T>(m, q_cols, k, qb, std::max(m, 1), taub, work.data(), lwork, &info);
      TORCH_INTERNAL_ASSERT(info == 0, "orgqr reported argument ", -info, " as invalid");
    }
  });
}

// Whether a matrix holds NaN, or inf and no NaN: scipy-openblas's SVD-based
// routines (gesdd with vectors, gelsd, gelss) never return on inf.
enum class NonFinite { None, Inf, NaN };

template <typename T>
NonFinite non_finite(const T* p, int64_t count) {
  bool nan = false, inf = false;
  for (int64_t i = 0; i < count; ++i) {
    nan |= p[i] != p[i];
    inf |= std::abs(p[i]) == std::numeric_limits<T>::infinity();
  }
  return nan ? NonFinite::NaN : inf ? NonFinite::Inf : NonFinite::None;
}

template <typename T>
void svd_batch(T* a, T* s, T* u, T* vt, int64_t batch, int m, int n, char jobz, int u_cols, int vt_rows,
               std::vector<int>& infos) {
  const int k = std::min(m, n);
  const int ldu = std::max(m, 1), ldvt = std::max(vt_rows, 1);
  at::parallel_for(0, batch, 1, [&](int64_t begin, int64_t end) {
    T size = 0;
    int info = 0;
    std::vector<int> iwork(8 * std::max(k, 1));
    T dummy = 0;
    lapack::gesdd<T>(jobz, m, n, a, std::max(m, 1), s, jobz == 'N' ? &dummy : u, ldu, jobz == 'N' ? &dummy : vt, ldvt,
                     &size, -1, iwork.data(), &info);
    std::vector<T> work(std::max<int64_t>(1, static_cast<int64_t>(size)));
    for (int64_t b = begin; b < end; ++b) {
      T* ub = jobz == 'N' ? &dummy : u + b * m * u_cols;
      T* vb = jobz == 'N' ? &dummy : vt + b * vt_rows * n;
      // Non-finite entries first: scipy-openblas's gesdd loops forever on a
      // matrix holding inf when it computes the vectors. NaN gets LAPACK
      // 3.10's answer (-4, PyTorch's error); inf alone NaN everywhere, an
      // answer as meaningless as MKL's but one that ends.
      const NonFinite found = non_finite(a + b * m * n, static_cast<int64_t>(m) * n);
      if (found != NonFinite::None) {
        infos[b] = found == NonFinite::NaN ? -4 : 0;
        constexpr T kNaN = std::numeric_limits<T>::quiet_NaN();
        std::fill(s + b * k, s + (b + 1) * k, kNaN);
        if (jobz != 'N') {
          std::fill(ub, ub + static_cast<int64_t>(m) * u_cols, kNaN);
          std::fill(vb, vb + static_cast<int64_t>(vt_rows) * n, kNaN);
        }
        continue;
      }
      lapack::gesdd<T>(jobz, m, n, a + b * m * n, std::max(m, 1), s + b * k, ub, ldu, vb, ldvt, work.data(),
                       static_cast<int>(work.size()), iwork.data(), &infos[b]);
    }
  });
}

template <typename T>
void eigh_batch(T* a, T* w, int64_t batch, int n, char uplo, bool compute_v, std::vector<int>& infos) {
  const char jobz = compute_v ? 'V' : 'N';
  at::parallel_for(0, batch, 1, [&](int64_t begin, int64_t end) {
    // The workspace sizes LAPACK asks for, once per chunk.
    T work_size = 0;
    int iwork_size = 0, info = 0;
    lapack::syevd<T>(jobz, uplo, n, a, std::max(n, 1), w, &work_size, -1, &iwork_size, -1, &info);
    const int lwork = std::max(1, static_cast<int>(work_size)), liwork = std::max(1, iwork_size);
    std::vector<T> work(lwork);
    std::vector<int> iwork(liwork);
    for (int64_t b = begin; b < end; ++b) {
      lapack::syevd<T>(jobz, uplo, n, a + b * n * n, std::max(n, 1), w + b * n, work.data(), lwork, iwork.data(),
                       liwork, &infos[b]);
    }
  });
}

}  // namespace

// ---- the ops of native_functions.yaml --------------------------------------

std::tuple<Tensor, Tensor, Tensor> linalg_lu_factor_ex(const Tensor& A, bool pivot, bool check_errors_) {
  TORCH_CHECK(A.dim() >= 2, "torch.linalg.lu_factor: Expected tensor with 2 or more dimensions. Got size: ", A.sizes(),
              " instead");
  if (A.numel() == 0) {  // no kernel runs, so PyTorch takes any dtype and pivot: empty factors, info 0
    const std::vector<int64_t> batch = batch_shape(A);
    return {A.clone(), at::zeros(with(batch, {std::min(A.size(-2), A.size(-1))}), kInt, A.device()),
            at::zeros(batch, kInt, A.device())};
  }
  check_kernel_dtype(A, "lu_cpu");
  check_float_matrix(A, "torch.linalg.lu_factor");
  TORCH_CHECK(pivot, "linalg.lu_factor: LU without pivoting is not implemented on the CPU");
  auto [lu, pivots, infos] = lu_factor_cpu(A);
  if (check_errors_) check_errors(infos, "torch.linalg.lu_factor_ex", A.dim() == 2, Failure::Singular);
  return {on_device_of(lu.transpose(-2, -1), A), on_device_of(pivots, A),
          on_device_of(info_tensor(infos, batch_shape(A)), A)};
}

Tensor linalg_lu_solve(const Tensor& LU, const Tensor& pivots, const Tensor& B, bool left, bool adjoint) {
  TORCH_CHECK(LU.dim() >= 2, "torch.linalg.lu_solve: Expected LU to have at least 2 dimensions, but it has ", LU.dim());
  TORCH_CHECK(B.dim() >= 2, "torch.linalg.lu_solve: Expected B to have at least 2 dimensions, but it has ", B.dim());
  TORCH_CHECK(isFloatingType(LU.scalar_type()), "torch.linalg.lu_solve: Expected a floating point or complex tensor "
              "as input. Got ", toString(LU.scalar_type()));
  TORCH_CHECK(LU.scalar_type() == B.scalar_type(), "linalg.lu_solve: Expected LU and B to have the same dtype, but "
              "found LU of type ", toString(LU.scalar_type()), " and B of type ", toString(B.scalar_type()), " instead");
  // PyTorch's order: the pivots' dtype before any shape, the kernel's dtype after them all.
  TORCH_CHECK(pivots.scalar_type() == kInt, "linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32");
  check_square_shape(LU, "linalg.lu_solve");
  check_lu_solve_shapes(LU, B, left, "linalg.lu_solve");
  TORCH_CHECK(pivots.dim() >= 1 && pivots.size(-1) == LU.size(-1),
              "linalg.lu_solve: Number of pivots per batch should be same as the dimension of the matrix");
  TORCH_CHECK(LU.sizes().slice(0, LU.dim() - 1).equals(pivots.sizes()),
              "linalg.lu_solve: Expected LU.shape[:-1] and pivots.shape to be the same, but got pivots with shape ",
              pivots.sizes(), " instead");
  // B's batch dims broadcast with LU's (the pivots follow LU).
  const std::vector<int64_t> batch = broadcast_batch(B, LU);
  const Tensor LU_b = expand_batch(LU, batch);
  const Tensor B_b = expand_batch(B, batch);
  const Tensor pivots_b = pivots.expand(with(batch, {pivots.size(-1)}));
  check_same_batch(LU_b, B_b, "linalg.lu_solve");
  check_kernel_dtype(LU, "linalg.lu_solve_cpu");
  check_float_matrix(LU, "linalg.lu_solve");  // LAPACK's 32-bit sizes
  Tensor x = lu_solve_cpu(column_major_view(LU_b, LU.scalar_type()), pivots_b.to(kCPU, std::nullopt).contiguous(),
                          B_b, left, adjoint);
  return on_device_of(x, B);
}

std::tuple<Tensor, Tensor, Tensor> lu_unpack(const Tensor& LU_data, const Tensor& LU_pivots, bool unpack_data,
                                             bool unpack_pivots) {
  // PyTorch's autograd wrapper reads size(-2) (an IndexError below 2 dims) before the kernel checks.
  if (autograd::requires_grad(LU_data)) (void)LU_data.size(-2);
  TORCH_CHECK(LU_data.dim() >= 2, "torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: ",
              LU_data.sizes(), " instead");
  const int64_t m = LU_data.size(-2), n = LU_data.size(-1), k = std::min(m, n);
  Tensor L, U, P;
  if (unpack_data) {
    // The unit diagonal written into the strict lower part's copy: one pass,
    // not an identity matrix and an add (LuUnpackBackward0 has its own formula).
    L = LU_data.narrow(-1, 0, k).tril(-1);
    L.diagonal(0, -2, -1).fill_(1);
    U = LU_data.narrow(-2, 0, k).triu();
  } else {
    L = at::empty({0}, LU_data.options());
    U = at::empty({0}, LU_data.options());
  }
  if (unpack_pivots) {
    // PyTorch looks at the pivots only when it unpacks them.
    TORCH_CHECK(LU_pivots.scalar_type() == kInt, "torch.lu_unpack: LU_pivots is expected to be a contiguous tensor "
                "of torch.int32 dtype. Note: this function is intended to be used with the output produced by "
                "torch.linalg.lu_factor");
    // One pivot row per matrix, as lu_factor returns them. PyTorch does not
    // check this shape: it permutes with the first pivot rows only (every
    // other matrix gets the identity) and reads past a short row; here any
    // other shape is refused before a pivot is read.
    const std::vector<int64_t> expected = with(batch_shape(LU_data), {k});
    TORCH_CHECK(LU_pivots.sizes().equals(expected), "torch.lu_unpack: LU_pivots must have shape ",
                IntArrayRef(expected), " (LU_data's batch dims, then min(LU_data.size(-2), LU_data.size(-1))), "
                "but got ", LU_pivots.sizes());
    const int64_t batch = batch_count(LU_data);
    Tensor pivots = LU_pivots.to(kCPU, std::nullopt).contiguous();
    P = at::zeros(with(batch_shape(LU_data), {m, m}), LU_data.scalar_type(), kCPU);
    // P holds 0 and 1 in LU_data's dtype, whatever it is (PyTorch unpacks any).
    AT_DISPATCH_ALL_AND_REDUCED_TYPES_AND_BOOL(LU_data.scalar_type(), "lu_unpack", [&] {
      using T = scalar_t;
      const int* piv = pivots.data_ptr<int>();
      T* p = P.data_ptr<T>();
      at::parallel_for(0, batch, 1, [&](int64_t begin, int64_t end) {
        std::vector<int64_t> perm(m);
        for (int64_t b = begin; b < end; ++b) {
          for (int64_t i = 0; i < m; ++i) perm[i] = i;
          for (int64_t i = 0; i < k; ++i) {
            const int64_t j = piv[b * k + i] - 1;
            TORCH_CHECK(j >= i && j < m, "torch.lu_unpack: LU_pivots holds ", j + 1,
                        ", which is not a valid pivot for row ", i + 1, " (1 <= pivot <= ", m, ")");
            std::swap(perm[i], perm[j]);
          }
          // A = P L U: column i of P is the unit vector of the row LU's row i came from.
          for (int64_t i = 0; i < m; ++i) p[b * m * m + perm[i] * m + i] = T(1);
        }
      });
    });
    P = on_device_of(P, LU_data);
  } else {
    P = at::empty({0}, LU_data.options());
  }
  return {P, L, U};
}

std::tuple<Tensor, Tensor, Tensor, Tensor> _linalg_solve_ex(const Tensor& A, const Tensor& B, bool left,
                                                            bool check_errors_) {
  check_matrix_then_kernel(A, "linalg.solve", "lu_cpu");
  check_square(A, "linalg.solve");
  check_lu_solve_shapes(A, B, left, "linalg.solve");
  check_same_batch(A, B, "linalg.solve");
  auto [lu, pivots, infos] = lu_factor_cpu(A);
  if (check_errors_) check_errors(infos, "torch.linalg.solve_ex", A.dim() == 2, Failure::SolveSingular);
  Tensor x = lu_solve_cpu(lu, pivots, B, left, false);
  return {on_device_of(x, A), on_device_of(lu.transpose(-2, -1), A), on_device_of(pivots, A),
          on_device_of(info_tensor(infos, batch_shape(A)), A)};
}

std::tuple<Tensor, Tensor> linalg_inv_ex(const Tensor& A, bool check_errors_) {
  check_square(A, "linalg.inv");
  auto [lu, pivots, infos] = lu_factor_cpu(A);
  if (check_errors_) check_errors(infos, "linalg.inv_ex", A.dim() == 2, Failure::InverseSingular);
  const int64_t n = A.size(-1);
  Tensor eye = at::eye(n, A.scalar_type(), kCPU).expand(A.sizes());
  Tensor inverse = lu_solve_cpu(lu, pivots, eye, true, false);
  return {on_device_of(inverse, A), on_device_of(info_tensor(infos, batch_shape(A)), A)};
}

std::tuple<Tensor, Tensor, Tensor> _linalg_det(const Tensor& A) {
  check_matrix_then_kernel(A, "linalg.det", "lu_cpu");
  check_square(A, "linalg.det");
  auto [lu, pivots, infos] = lu_factor_cpu(A);
  const int64_t n = A.size(-1), batch = batch_count(A);
  Tensor det = at::empty(batch_shape(A), A.scalar_type(), kCPU);
  float_or_double(A.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* a = lu.data_ptr<T>();
    const int* piv = pivots.data_ptr<int>();
    T* out = det.data_ptr<T>();
    for (int64_t b = 0; b < batch; ++b) {
      T product = static_cast<T>(pivot_sign(piv + b * n, static_cast<int>(n)));
      for (int64_t i = 0; i < n; ++i) product *= a[b * n * n + i * n + i];
      out[b] = product;
    }
  });
  return {on_device_of(det, A), on_device_of(lu.transpose(-2, -1), A), on_device_of(pivots, A)};
}

std::tuple<Tensor, Tensor, Tensor, Tensor> _linalg_slogdet(const Tensor& A) {
  check_square(A, "linalg.slogdet");
  auto [lu, pivots, infos] = lu_factor_cpu(A);
  const int64_t n = A.size(-1), batch = batch_count(A);
  Tensor sign = at::empty(batch_shape(A), A.scalar_type(), kCPU);
  Tensor logabsdet = at::empty(batch_shape(A), A.scalar_type(), kCPU);
  float_or_double(A.scalar_type(), [&](auto tag) {
    using T = decltype(tag);
    const T* a = lu.data_ptr<T>();
    const int* piv = pivots.data_ptr<int>();
    for (int64_t b = 0; b < batch; ++b) {
      T s = static_cast<T>(pivot_sign(piv + b * n, static_cast<int>(n)));
      T log_sum = 0;
      for (int64_t i = 0; i < n; ++i) {
        const T d = a[b * n * n + i * n + i];
        s *= d > 0 ? T(1) : d < 0 ? T(-1) : T(0);
        log_sum += std::log(std::abs(d));
      }
      sign.data_ptr<T>()[b] = s;
      logabsdet.data_ptr<T>()[b] = log_sum;
    }
  });
  return {on_device_of(sign, A), on_device_of(logabsdet, A), on_device_of(lu.transpose(-2, -1), A),
          on_device_of(pivots, A)};
}

std::tuple<Tensor, Tensor> linalg_cholesky_ex(const Tensor& A, bool upper, bool check_errors_) {
  check_square_shape(A, "linalg.cholesky");
  TORCH_CHECK(isFloatingType(A.scalar_type()), "linalg.cholesky: Expected a floating point or complex tensor as "
              "input. Got ", toString(A.scalar_type()));
  // An empty input never reaches PyTorch's kernel, so any floating dtype passes.
  if (A.numel() == 0) {
    return {at::empty(A.sizes(), A.scalar_type(), A.device()),
            at::zeros(batch_shape(A), kInt, A.device())};
  }
  check_matrix_then_kernel(A, "linalg.cholesky", "cholesky_cpu");
  const int n = static_cast<int>(A.size(-1));
  const int64_t batch = batch_count(A);
  Tensor work = column_major(A, A.scalar_type());
  std::vector<int> infos(batch, 0);
  if (n > 0 && batch > 0) {
    float_or_double(A.scalar_type(), [&](auto tag) {
      using T = decltype(tag);
      cholesky_batch<T>(work.data_ptr<T>(), batch, n, upper ? 'U' : 'L', infos);
    });
  }
  if (check_errors_) check_errors(infos, "linalg.cholesky_ex", A.dim() == 2, Failure::NotPositiveDefinite);
  // potrf leaves the other triangle as it was; PyTorch returns zeros there.
  Tensor factor = work.transpose(-2, -1);
  upper ? factor.triu_() : factor.tril_();
  return {on_device_of(factor, A), on_device_of(info_tensor(infos, batch_shape(A)), A)};
}

Tensor cholesky_solve(const Tensor& B, const Tensor& L, bool upper) {
  // PyTorch's checks and words (linearSolveCheckInputs), then the batch broadcast.
  TORCH_CHECK(B.dim() >= 2, "b should have at least 2 dimensions, but has ", B.dim(), " dimensions instead");
  TORCH_CHECK(L.dim() >= 2, "u should have at least 2 dimensions, but has ", L.dim(), " dimensions instead");
  TORCH_CHECK(B.scalar_type() == L.scalar_type(), "Expected b and A to have the same dtype, but found b of type ",
              toString(B.scalar_type()), " and A of type ", toString(L.scalar_type()), " instead.");
  TORCH_CHECK(L.size(-1) == L.size(-2), "A must be batches of square matrices, but they are ", L.size(-2), " by ",
              L.size(-1), " matrices");
  TORCH_CHECK(L.size(-1) == B.size(-2), "Incompatible matrix sizes for cholesky_solve: each A matrix is ", L.size(-1),
              " by ", L.size(-1), " but each b matrix is ", B.size(-2), " by ", B.size(-1));
  const std::vector<int64_t> batch_sizes = broadcast_batch(B, L);
  check_kernel_dtype(L, "cholesky_solve_cpu");
  check_float_matrix(L, "cholesky_solve");  // LAPACK's 32-bit sizes
  const Tensor B_b = expand_batch(B, batch_sizes);
  const int n = static_cast<int>(L.size(-1)), nrhs = static_cast<int>(B.size(-1));
  const int64_t batch = batch_count(B_b);
  bool transposed = false;
  const Tensor a = triangular_operand(expand_batch(L, batch_sizes), transposed);
  Tensor x = column_major(B_b, L.scalar_type());
  if (n > 0 && nrhs > 0 && batch > 0) {
    float_or_double(L.scalar_type(), [&](auto tag) {
      using T = decltype(tag);
      cholesky_solve_batch<T>(a.data_ptr<T>(), x.data_ptr<T>(), batch, n, nrhs, (upper != transposed) ? 'U' : 'L');
    });
  }
  return on_device_of(x.transpose(-2, -1), B);
}

Tensor cholesky_inverse(const Tensor& L, bool upper) {
  check_square_shape(L, "cholesky_inverse");
  check_kernel_dtype(L, "cholesky_inverse_out_cpu");
  check_float_matrix(L, "cholesky_inverse");
  const int n = static_cast<int>(L.size(-1));
  const int64_t batch = batch_count(L);
  // A row-major copy is L^T column-major: potri reads the other triangle
  // named, and its symmetric result reads the same in either layout.
  Tensor inverse = at::empty(L.sizes(), L.scalar_type(), kCPU);
  inverse.copy_(L);
  std::vector<int> infos(batch, 0);
  if (n > 0 && batch > 0) {
    float_or_double(L.scalar_type(), [&](auto tag) {
      using T = decltype(tag);
      cholesky_inverse_batch<T>(inverse.data_ptr<T>(), batch, n, upper ? 'L' : 'U', infos);
    });
  }
  check_errors(infos, "cholesky_inverse", L.dim() == 2, Failure::InverseSingular);
  return on_device_of(inverse, L);
}

Tensor linalg_solve_triangular(const Tensor& A, const Tensor& B, bool upper, bool left, bool unitriangular) {
  // PyTorch's order: the shapes, the batch broadcast, then the kernel's
  // dtype, which is A's: B is cast to it, and so is the result.
  check_square_shape(A, "linalg.solve_triangular");
  TORCH_CHECK(B.dim() >= 2, "linalg.solve_triangular: The input tensor B must have at least 2 dimensions.");
  check_lu_solve_shapes(A, B, left, "linalg.solve_triangular");
  const std::vector<int64_t> batch_sizes = broadcast_batch(B, A);
  check_kernel_dtype(A, "triangular_solve_cpu");
  check_float_matrix(A, "linalg.solve_triangular");  // LAPACK's 32-bit sizes
  const Tensor B_b = expand_batch(B, batch_sizes);
  const int n = static_cast<int>(A.size(-1));
  const int rows = static_cast<int>(B.size(-2)), cols = static_cast<int>(B.size(-1));
  const int64_t batch = batch_count(B_b);
  // trsm reads a transposed A as it is, the other triangle named.
  bool transposed = false;
  const Tensor a = triangular_operand(expand_batch(A, batch_sizes), transposed);
  Tensor x = column_major(B_b, A.scalar_type());
  if (n > 0 && rows > 0 && cols > 0 && batch > 0) {
    float_or_double(A.scalar_type(), [&](auto tag) {
      using T = decltype(tag);
      triangular_solve_batch<T>(a.data_ptr<T>(), x.data_ptr<T>(), batch, n, rows, cols, left,
                                transposed ? !upper : upper, transposed, unitriangular);
    });
  }
  return on_device_of(x.transpose(-2, -1), B);
}

std::tuple<Tensor, Tensor> linalg_qr(const Tensor& A, std::string_view mode) {
  TORCH_CHECK(mode == "reduced" || mode == "complete" || mode == "r", "qr received unrecognized mode '",
              std::string(mode), "' but expected one of 'reduced' (default), 'r', or 'complete'");
  check_matrix_then_kernel(A, "linalg.qr", "geqrf_cpu");
  const int m = static_cast<int>(A.size(-2)), n = static_cast<int>(A.size(-1)), k = std::min(m, n);
  const bool compute_q = mode != "r";
  const int q_cols = mode == "complete" ? m : k;
  const int64_t batch = batch_count(A);
  Tensor work = column_major(A, A.scalar_type());
  Tensor tau = at::empty(with(batch_shape(A), {k}), A.scalar_type(), kCPU);
  Tensor q = compute_q ? at::empty(with(batch_shape(A), {q_cols, m}), A.scalar_type(), kCPU)
                       : at::empty({0}, A.scalar_type(), kCPU);
  if (m > 0 && n > 0 && batch > 0) {
    float_or_double(A.scalar_type(), [&](auto tag) {
      using T = decltype(tag);
      qr_batch<T>(work.data_ptr<T>(), q.data_ptr<T>(), tau.data_ptr<T>(), batch, m, n, q_cols, compute_q);
    });
  } else if (compute_q) {
    // Nothing to reflect: Q is the identity's first columns.
    q = at::eye(m, q_cols, A.scalar_type(), kCPU).expand(with(batch_shape(A), {m, q_cols})).transpose(-2, -1)
            .contiguous();
  }
  Tensor R = work.transpose(-2, -1).narrow(-2, 0, mode == "complete" ? m : k).triu();
  Tensor Q = compute_q ? q.transpose(-2, -1) : q;
  return {on_device_of(Q, A), on_device_of(R, A)};
}

std::tuple<Tensor, Tensor, Tensor> _linalg_svd(const Tensor& A, bool full_matrices, bool compute_uv,
                                               std::optional<std::string_view> driver) {
  check_matrix_then_kernel(A, "linalg.svd", "linalg_svd_cpu");
  TORCH_CHECK(!driver.has_value() || !A.is_cpu(), "torch.linalg.svd: keyword argument `driver=` is only supported "
              "on CUDA inputs with cuSOLVER backend.");
  const int m = static_cast<int>(A.size(-2)), n = static_cast<int>(A.size(-1)), k = std::min(m, n);
  const char jobz = !compute_uv ? 'N' : full_matrices ? 'A' : 'S';
  const int u_cols = full_matrices ? m : k, vt_rows = full_matrices ? n : k;
  const int64_t batch = batch_count(A);
  Tensor work = column_major(A, A.scalar_type());
  Tensor S = at::empty(with(batch_shape(A), {k}), A.scalar_type(), kCPU);
  Tensor U = compute_uv ? at::empty(with(batch_shape(A), {u_cols, m}), A.scalar_type(), kCPU)
                        : at::empty({0}, A.scalar_type(), kCPU);
  Tensor Vt = compute_uv ? at::empty(with(batch_shape(A), {n, vt_rows}), A.scalar_type(), kCPU)
                         : at::empty({0}, A.scalar_type(), kCPU);
  std::vector<int> infos(batch, 0);
  if (m > 0 && n > 0 && batch > 0) {
    float_or_double(A.scalar_type(), [&](auto tag) {
      using T = decltype(tag);
      svd_batch<T>(work.data_ptr<T>(), S.data_ptr<T>(), U.data_ptr<T>(), Vt.data_ptr<T>(), batch, m, n, jobz, u_cols,
                   vt_rows, infos);
    });
  } else if (compute_uv) {
    // An empty matrix: the singular vectors are any orthonormal bases, the identity's.
    U = at::eye(m, u_cols, A.scalar_type(), kCPU).expand(with(batch_shape(A), {m, u_cols})).transpose(-2, -1)
            .contiguous();
    Vt = at::eye(vt_rows, n, A.scalar_type(), kCPU).expand(with(batch_shape(A), {vt_rows, n})).transpose(-2, -1)
             .contiguous();
  }
  for (int& info : infos) {
    // gesdd answers -4 for a matrix holding NaN (LAPACK 3.10+).
    TORCH_CHECK_LINALG(info != -4, "linalg.svd: The algorithm failed to converge because the input matrix contained "
                       "non-finite values.");
  }
  check_errors(infos, "linalg.svd", A.dim() == 2, Failure::Svd);
  if (!compute_uv) return {on_device_of(U, A), on_device_of(S, A), on_device_of(Vt, A)};
  return {on_device_of(U.transpose(-2, -1), A), on_device_of(S, A), on_device_of(Vt.transpose(-2, -1), A)};
}

std::tuple<Tensor, Tensor> _linalg_eigh(const Tensor& A, std::string_view UPLO, bool compute_v) {
  check_square(A, "linalg.eigh");
  TORCH_CHECK(UPLO == "L" || UPLO == "U" || UPLO == "l" || UPLO == "u",
              "Expected UPLO argument to be 'L' or 'U', but got ", std::string(UPLO));
  const int64_t n = A.size(-1), batch = batch_count(A);
#if defined(__aarch64__)
  // scipy-openblas32's ssyevd gave wrong eigenvalues for a 64x64 float32
  // matrix on aarch64 (.ci/run's qemu run; dsyevd was right), so float32
  // goes through double there and the results are rounded back.
  const ScalarType compute = A.scalar_type() == kFloat ? kDouble : A.scalar_type();
#else
  const ScalarType compute = A.scalar_type();
#endif
  // The column-major copy holds each matrix's transpose, so the triangle
  // UPLO names is read as is; the eigenvectors LAPACK writes as columns come
  // back through the same transposed view.
  Tensor work = column_major(A, compute);
  Tensor values = at::empty(with(batch_shape(A), {n}), compute, kCPU);
  std::vector<int> infos(batch, 0);
  const char uplo = (UPLO == "L" || UPLO == "l") ? 'L' : 'U';
  if (n > 0 && batch > 0) {
    float_or_double(compute, [&](auto tag) {
      using T = decltype(tag);
      eigh_batch<T>(work.data_ptr<T>(), values.data_ptr<T>(), batch, static_cast<int>(n), uplo, compute_v, infos);
    });
  }
  check_errors(infos, "linalg.eigh", A.dim() == 2, Failure::Eigh);
  values = values.to(A.scalar_type());
  Tensor vectors = compute_v ? work.to(A.scalar_type()).transpose(-2, -1) : at::empty({0}, A.scalar_type(), kCPU);
  return {on_device_of(values, A), on_device_of(vectors, A)};
}

// ---- least squares --------------------------------------------------------

namespace {

// PyTorch's driver choice: gelsy on the CPU, gels (the only one cuSOLVER
// has) on CUDA, whose inputs this build solves on the CPU.
std::string lstsq_driver(std::optional<std::string_view> driver, const Tensor& A) {
  if (!driver) return A.is_cpu() ? "gelsy" : "gels";
  std::string name(*driver);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  if (A.is_cpu()) {
    TORCH_CHECK(name == "gels" || name == "gelsy" || name == "gelsd" || name == "gelss",
                "torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)");
  } else {
    TORCH_CHECK(name == "gels", "torch.linalg.lstsq: `driver` other than `gels` is not supported on CUDA");
  }
  return name;
}

// One driver over a column-major batch: a (n x m memory per matrix) and b
// (k x ldb), matrices split over the threads, each with its own work space.
template <typename T>
void lstsq_batch(const std::string& driver, T* a, T* b, T* s, int* ranks, int64_t batch, int m, int n, int k, int ldb,
                 T rcond, std::vector<int>& infos) {
  const int lda = std::max(m, 1), mn = std::min(m, n);
  // The work sizes, from a query on the first matrix.
  T query = 0;
  int iquery = 0, info = 0, rank = 0;
  std::vector<int> jpvt_query(n, 0);
  if (driver == "gels") lapack::gels<T>(m, n, k, a, lda, b, ldb, &query, -1, &info);
  if (driver == "gelsy") lapack::gelsy<T>(m, n, k, a, lda, b, ldb, jpvt_query.data(), rcond, &rank, &query, -1, &info);
  if (driver == "gelsd") lapack::gelsd<T>(m, n, k, a, lda, b, ldb, s, rcond, &rank, &query, -1, &iquery, &info);
  if (driver == "gelss") lapack::gelss<T>(m, n, k, a, lda, b, ldb, s, rcond, &rank, &query, -1, &info);
  const int lwork = std::max(1, static_cast<int>(query));
  const int liwork = std::max(1, iquery);
  at::parallel_for(0, batch, 1, [&](int64_t begin, int64_t end) {
    std::vector<T> work(lwork);
    std::vector<int> iwork(driver == "gelsd" ? liwork : 0), jpvt(driver == "gelsy" ? n : 0);
    for (int64_t i = begin; i < end; ++i) {
      T* ai = a + i * m * n;
      T* bi = b + i * k * ldb;
      int r = 0;
      const bool svd_based = driver == "gelsd" || driver == "gelss";
      if (svd_based && (non_finite(ai, static_cast<int64_t>(m) * n) != NonFinite::None ||
                        non_finite(bi, static_cast<int64_t>(k) * ldb) != NonFinite::None)) {
        // No answer, and one that ends (see non_finite): NaN solution and singular values, rank 0.
        constexpr T kNaN = std::numeric_limits<T>::quiet_NaN();
        std::fill(bi, bi + static_cast<int64_t>(k) * ldb, kNaN);
        std::fill(s + i * mn, s + (i + 1) * mn, kNaN);
        ranks[i] = 0;
        continue;
      }
      if (driver == "gels") {
        lapack::gels<T>(m, n, k, ai, lda, bi, ldb, work.data(), lwork, &infos[i]);
      } else if (driver == "gelsy") {
        std::fill(jpvt.begin(), jpvt.end(), 0);  // every column free to move
        lapack::gelsy<T>(m, n, k, ai, lda, bi, ldb, jpvt.data(), rcond, &r, work.data(), lwork, &infos[i]);
      } else if (driver == "gelsd") {
        lapack::gelsd<T>(m, n, k, ai, lda, bi, ldb, s + i * mn, rcond, &r, work.data(), lwork, iwork.data(), &infos[i]);
      } else {
        lapack::gelss<T>(m, n, k, ai, lda, bi, ldb, s + i * mn, rcond, &r, work.data(), lwork, &infos[i]);
      }
      ranks[i] = r;
    }
  });
}

}  // namespace

// PyTorch's linalg_lstsq: its checks in its order, batch dims broadcast, the
// default rcond eps * max(m, n), residuals where m > n and the driver is not
// gelsy (for gelsd and gelss only when every matrix has full rank), the rank
// except from gels, the singular values from gelsd and gelss.
std::tuple<Tensor, Tensor, Tensor, Tensor> linalg_lstsq(const Tensor& A, const Tensor& B, std::optional<double> rcond,
                                                        std::optional<std::string_view> driver) {
  const char* fn = "torch.linalg.lstsq";
  TORCH_CHECK(A.dim() >= 2, fn, ": input must have at least 2 dimensions.");
  TORCH_CHECK(B.dim() >= 1, fn, ": other must have at least 1 dimension.");
  TORCH_CHECK(A.scalar_type() == B.scalar_type(), fn, ": Expected input and other to have the same dtype, but got "
              "input's dtype ", A.scalar_type(), " and other's dtype ", B.scalar_type());
  const int64_t dim_diff = A.dim() - B.dim();
  TORCH_CHECK(0 <= dim_diff && dim_diff <= 1, fn, ": input.dim() must be greater or equal to other.dim() and "
              "(input.dim() - other.dim()) <= 1");
  // PyTorch's vector case (linalg_solve_is_vector_rhs): a 1-D B, or B shaped as A without its last dim.
  const bool vector = B.dim() == 1 || (dim_diff == 1 && B.sizes().equals(A.sizes().slice(0, A.dim() - 1)));
  const Tensor B2 = vector ? B.unsqueeze(-1) : B;
  TORCH_CHECK(A.size(-2) == B2.size(-2), vector ? "torch.linalg.lstsq: input.size(-2) should match other.size(-1)"
                                                : "torch.linalg.lstsq: input.size(-2) should match other.size(-2)");
  TORCH_CHECK(A.device() == B.device(), fn, ": Expected other and input to be on the same device, but found other on ",
              B.device(), " and input on ", A.device(), " instead.");
  // Other dtypes: PyTorch's default rcond (an epsilon of the dtype) refuses
  // them first; with rcond given, its kernel's dispatch does.
  const std::string name = lstsq_driver(driver, A);  // before any dtype check, as in PyTorch
  // A matrix B with one dim fewer than A broadcasts its shape but the last
  // dim against A's batch, as PyTorch's does (B [1, 1] against A [4, 1, 3]), before the dtype checks.
  const std::vector<int64_t> batch = infer_size(
      batch_shape(A), dim_diff == 1 && !vector ? B.sizes().slice(0, B.dim() - 1) : IntArrayRef(batch_shape(B2)));
  const bool float_or_double_input = A.scalar_type() == kFloat || A.scalar_type() == kDouble;
  TORCH_CHECK(float_or_double_input || rcond, "This function doesn't handle types other than float and double");
  TORCH_CHECK_NOT_IMPLEMENTED(float_or_double_input, "\"linalg_lstsq_cpu\" not implemented for '",
                              toString(A.scalar_type()), "'");
  check_float_matrix(A, "linalg.lstsq");
  const int64_t m = A.size(-2), n = A.size(-1), k = B2.size(-1), mn = std::min(m, n);
  TORCH_CHECK(k <= INT_MAX, fn, ": ", k, " right-hand sides are more than LAPACK's 32-bit indices allow");
  const int ldb = static_cast<int>(std::max<int64_t>({m, n, 1}));
  const ScalarType t = A.scalar_type();
  const double eps = t == kFloat ? std::numeric_limits<float>::epsilon() : std::numeric_limits<double>::epsilon();
  const double cutoff = rcond ? *rcond : eps * static_cast<double>(std::max(m, n));
  int64_t count = 1;
  for (int64_t size : batch) count *= size;

  Tensor a = column_major(A.expand(with(batch, {m, n})), t);
  Tensor b = at::zeros(with(batch, {k, ldb}), t, kCPU);  // column-major, ldb rows: LAPACK writes n of them
  b.narrow(-1, 0, m).copy_(B2.expand(with(batch, {m, k})).transpose(-2, -1));
  const bool has_s = name == "gelsd" || name == "gelss";
  Tensor S = has_s ? at::empty(with(batch, {mn}), t, kCPU) : at::empty({0}, t, kCPU);
  Tensor ranks = at::zeros(batch, kInt, kCPU);
  std::vector<int> infos(count, 0);
  if (m > 0 && n > 0 && count > 0) {
    float_or_double(t, [&](auto tag) {
      using T = decltype(tag);
      lstsq_batch<T>(name, a.data_ptr<T>(), b.data_ptr<T>(), has_s ? S.data_ptr<T>() : nullptr,
                     ranks.data_ptr<int>(), count, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k),
                     ldb, static_cast<T>(cutoff), infos);
    });
  } else if (has_s) {
    S.zero_();
  }
  if (name == "gels") check_errors(infos, fn, A.dim() == 2 && B2.dim() == 2, Failure::LstsqRank);
  for (size_t i = 0; i < infos.size(); ++i) {
    TORCH_CHECK_LINALG(infos[i] <= 0 || name == "gels", fn, ": The algorithm failed to converge because the input "
                       "matrix is ill-conditioned or has too many repeated singular values (error code: ", infos[i],
                       ").");
  }
  const Tensor rows = b.transpose(-2, -1);  // [*, ldb, k]
  Tensor solution = rows.narrow(-2, 0, n);
  Tensor residuals = at::empty({0}, t, kCPU);
  const bool full_rank = !has_s || ranks.eq(at::scalar_tensor(n, kInt)).all().item().toBool();
  if (m > n && name != "gelsy" && full_rank) residuals = rows.narrow(-2, n, m - n).square().sum({-2});
  Tensor rank = name == "gels" ? at::empty({0}, kLong, kCPU) : ranks.to(kLong);
  // The rank and singular values describe A's matrices: A's batch shape, as PyTorch gives them
  // (zeros where B's batch broadcast it to nothing).
  if (count == 0) {
    if (name != "gels") rank = at::zeros(batch_shape(A), kLong, kCPU);
    if (has_s) S = at::zeros(with(batch_shape(A), {mn}), t, kCPU);
  }
  for (int64_t d = 0; count > 0 && d + 2 < A.dim(); ++d) {
    if (A.size(d) != 1 || batch[d] == 1) continue;
    if (name != "gels") rank = rank.narrow(d, 0, 1);
    if (has_s) S = S.narrow(d, 0, 1);
  }
  if (vector) solution = solution.squeeze(-1);
  return {on_device_of(solution, A), on_device_of(residuals, A), on_device_of(rank, A), on_device_of(S, A)};
}

}  // namespace at::native
