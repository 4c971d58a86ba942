// torch.linalg's factorisations on LAPACK: the scipy-openblas32 library every
// build ships (third_party/openblas.cmake), through its Fortran interface
// (lapack.h, with the hidden string lengths it declares). A batch is one
// column-major copy of the input, factorised matrix by matrix, the matrices
// split over parallel_for's threads (OpenBLAS itself stays single-threaded:
// Blas.cpp). The results come back as PyTorch returns them, with its checks,
// messages and LinAlgError. A CUDA tensor is factorised on the CPU and the
// results copied back (PyTorch uses cuSOLVER there: a copy costs two
// transfers, which the matrices model code factorises afford).
#include <ATen/ATen.h>
#include <ATen/Parallel.h>

// scipy-openblas32 prefixes every symbol with scipy_ (so that it never
// clashes with another BLAS in the process); its lapack.h names them by
// LAPACK_GLOBAL, which defaults to the unprefixed Fortran name.
#define LAPACK_GLOBAL(lcname, UCNAME) scipy_##lcname##_
#include <lapack.h>

#include <algorithm>
#include <climits>
#include <string>
#include <tuple>
#include <vector>

namespace at::native {
namespace {

template <typename T>
void syevd(char jobz, char uplo, int n, T* a, int lda, T* w, T* work, int lwork, int* iwork, int liwork, int* info);

template <>
void syevd<double>(char jobz, char uplo, int n, double* a, int lda, double* w, double* work, int lwork, int* iwork,
                   int liwork, int* info) {
  scipy_LAPACK_dsyevd(&jobz, &uplo, &n, a, &lda, w, work, &lwork, iwork, &liwork, info);
}

template <>
void syevd<float>(char jobz, char uplo, int n, float* a, int lda, float* w, float* work, int lwork, int* iwork,
                  int liwork, int* info) {
  scipy_LAPACK_ssyevd(&jobz, &uplo, &n, a, &lda, w, work, &lwork, iwork, &liwork, info);
}

// The checks every torch.linalg function on square matrices makes, in PyTorch's words.
void check_square_float(const Tensor& A, const char* fn) {
  TORCH_CHECK(A.dim() >= 2, "linalg.", fn, ": The input tensor A must have at least 2 dimensions.");
  TORCH_CHECK(A.size(-1) == A.size(-2), "linalg.", fn, ": A must be batches of square matrices, but they are ",
              A.size(-2), " by ", A.size(-1), " matrices");
  const ScalarType t = A.scalar_type();
  TORCH_CHECK(isFloatingType(t), "linalg.", fn, ": Expected a floating point or complex tensor as input. Got ",
              toString(t));
  TORCH_CHECK(t == kFloat || t == kDouble, "linalg.", fn, ": Low precision dtypes not supported. Got ", toString(t));
  TORCH_CHECK(A.size(-1) <= INT_MAX, "linalg.", fn, ": matrices of size ", A.size(-1),
              " are larger than LAPACK's 32-bit indices allow");
}

// LAPACK's info of each matrix: the first failure, as PyTorch reports it.
void check_infos(const std::vector<int>& infos, int64_t batch, const char* fn, const std::string& problem) {
  for (int64_t b = 0; b < static_cast<int64_t>(infos.size()); ++b) {
    TORCH_INTERNAL_ASSERT(infos[b] >= 0, "linalg.", fn, ": LAPACK reported argument ", -infos[b], " as invalid");
    if (infos[b] > 0) {
      const std::string where = batch > 1 || infos.size() > 1 ? "(Batch element " + std::to_string(b) + "): " : "";
      TORCH_CHECK_LINALG(false, "linalg.", fn, ": ", where, problem, " (error code: ", infos[b], ").");
    }
  }
}

template <typename T>
void eigh_batch(T* a, T* w, int64_t batch, int n, char uplo, bool compute_v, std::vector<int>& infos) {
  const char jobz = compute_v ? 'V' : 'N';
  at::parallel_for(0, batch, 1, [&](int64_t begin, int64_t end) {
    // The workspace sizes LAPACK asks for, once per chunk.
    T work_size = 0;
    int iwork_size = 0, info = 0;
    syevd<T>(jobz, uplo, n, a, std::max(n, 1), w, &work_size, -1, &iwork_size, -1, &info);
    const int lwork = std::max(1, static_cast<int>(work_size)), liwork = std::max(1, iwork_size);
    std::vector<T> work(lwork);
    std::vector<int> iwork(liwork);
    for (int64_t b = begin; b < end; ++b) {
      syevd<T>(jobz, uplo, n, a + b * n * n, std::max(n, 1), w + b * n, work.data(), lwork, iwork.data(), liwork,
               &infos[b]);
    }
  });
}

}  // namespace

std::tuple<Tensor, Tensor> _linalg_eigh(const Tensor& A, std::string_view UPLO, bool compute_v) {
  check_square_float(A, "eigh");
  TORCH_CHECK(UPLO == "L" || UPLO == "U" || UPLO == "l" || UPLO == "u",
              "Expected UPLO argument to be 'L' or 'U', but got ", std::string(UPLO));
  const int64_t n = A.size(-1);
  std::vector<int64_t> batch_shape(A.sizes().begin(), A.sizes().end() - 2);
  int64_t batch = 1;
  for (int64_t s : batch_shape) batch *= s;
  std::vector<int64_t> values_shape = batch_shape;
  values_shape.push_back(n);

  // Row-major memory read as column-major is the transpose: the triangle
  // UPLO names in A is the other one for LAPACK, and the eigenvectors LAPACK
  // writes as columns come out as rows (so the result is that buffer's mT,
  // with the column-major strides PyTorch's eigenvectors have).
#if defined(__aarch64__)
  // scipy-openblas32's ssyevd gave wrong eigenvalues for a 64x64 float32
  // matrix on aarch64 (.ci/run's qemu run; dsyevd was right), so float32
  // goes through double there and the results are rounded back.
  const ScalarType compute = A.scalar_type() == kFloat ? kDouble : A.scalar_type();
#else
  const ScalarType compute = A.scalar_type();
#endif
  Tensor work = (A.is_cpu() ? A : A.cpu()).to(compute).contiguous().clone();
  Tensor values = at::empty(values_shape, compute, Device(DeviceType::CPU));
  std::vector<int> infos(batch, 0);
  const char uplo = (UPLO == "L" || UPLO == "l") ? 'U' : 'L';
  if (n > 0 && batch > 0) {
    if (compute == kDouble) {
      eigh_batch<double>(work.data_ptr<double>(), values.data_ptr<double>(), batch, static_cast<int>(n), uplo,
                         compute_v, infos);
    } else {
      eigh_batch<float>(work.data_ptr<float>(), values.data_ptr<float>(), batch, static_cast<int>(n), uplo,
                        compute_v, infos);
    }
  }
  check_infos(infos, batch, "eigh",
              "The algorithm failed to converge because the input matrix is ill-conditioned or has too many repeated "
              "eigenvalues");
  if (compute != A.scalar_type()) {
    values = values.to(A.scalar_type());
    work = work.to(A.scalar_type());
  }
  Tensor vectors = compute_v ? work.transpose(-2, -1) : at::empty({0}, A.scalar_type(), Device(DeviceType::CPU));
  if (!A.is_cpu()) {
    values = values.to(A.options());
    vectors = compute_v ? work.to(A.options()).transpose(-2, -1) : vectors.to(A.options());
  }
  return {values, vectors};
}

}  // namespace at::native
