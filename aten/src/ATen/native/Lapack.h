#pragma once
// LAPACK and the BLAS triangular solve and dot product, typed: one template per routine that
// torch.linalg calls, specialised for float and double, over the Fortran
// interface of the scipy-openblas32 library every build ships
// (third_party/openblas.cmake). Column-major, 32-bit indices, as LAPACK has
// them; BatchLinearAlgebra.cpp lays the batches out for it.

// scipy-openblas32 prefixes every symbol with scipy_ (so that it never
// clashes with another BLAS in the process); its lapack.h names them by
// LAPACK_GLOBAL, which defaults to the unprefixed Fortran name. Routines with
// character arguments go through its scipy_LAPACK_* macros, which pass the
// hidden string lengths gfortran expects.
#define LAPACK_GLOBAL(lcname, UCNAME) scipy_##lcname##_
#include <cblas.h>
#include <lapack.h>

namespace at::native::lapack {

// LU with partial pivoting: A = P L U, ipiv 1-based.
template <typename T>
void getrf(int m, int n, T* a, int lda, int* ipiv, int* info);
template <>
inline void getrf<float>(int m, int n, float* a, int lda, int* ipiv, int* info) {
  LAPACK_sgetrf(&m, &n, a, &lda, ipiv, info);
}
template <>
inline void getrf<double>(int m, int n, double* a, int lda, int* ipiv, int* info) {
  LAPACK_dgetrf(&m, &n, a, &lda, ipiv, info);
}

// Solves op(A) X = B from getrf's factors; trans 'N' or 'T'.
template <typename T>
void getrs(char trans, int n, int nrhs, const T* a, int lda, const int* ipiv, T* b, int ldb, int* info);
template <>
inline void getrs<float>(char trans, int n, int nrhs, const float* a, int lda, const int* ipiv, float* b, int ldb,
                         int* info) {
  scipy_LAPACK_sgetrs(&trans, &n, &nrhs, a, &lda, ipiv, b, &ldb, info);
}
template <>
inline void getrs<double>(char trans, int n, int nrhs, const double* a, int lda, const int* ipiv, double* b, int ldb,
                          int* info) {
  scipy_LAPACK_dgetrs(&trans, &n, &nrhs, a, &lda, ipiv, b, &ldb, info);
}

// Cholesky: A = L L^T ('L') or U^T U ('U').
template <typename T>
void potrf(char uplo, int n, T* a, int lda, int* info);
template <>
inline void potrf<float>(char uplo, int n, float* a, int lda, int* info) {
  scipy_LAPACK_spotrf(&uplo, &n, a, &lda, info);
}
template <>
inline void potrf<double>(char uplo, int n, double* a, int lda, int* info) {
  scipy_LAPACK_dpotrf(&uplo, &n, a, &lda, info);
}

// Solves A X = B from potrf's factor of A ('L' or 'U'), B overwritten with X.
template <typename T>
void potrs(char uplo, int n, int nrhs, const T* a, int lda, T* b, int ldb, int* info);
template <>
inline void potrs<float>(char uplo, int n, int nrhs, const float* a, int lda, float* b, int ldb, int* info) {
  scipy_LAPACK_spotrs(&uplo, &n, &nrhs, a, &lda, b, &ldb, info);
}
template <>
inline void potrs<double>(char uplo, int n, int nrhs, const double* a, int lda, double* b, int ldb, int* info) {
  scipy_LAPACK_dpotrs(&uplo, &n, &nrhs, a, &lda, b, &ldb, info);
}

// The inverse of A = L L^T ('L') or U^T U ('U') from potrf's factor, written
// over that triangle only (the inverse is symmetric; the other stays as it was).
template <typename T>
void potri(char uplo, int n, T* a, int lda, int* info);
template <>
inline void potri<float>(char uplo, int n, float* a, int lda, int* info) {
  scipy_LAPACK_spotri(&uplo, &n, a, &lda, info);
}
template <>
inline void potri<double>(char uplo, int n, double* a, int lda, int* info) {
  scipy_LAPACK_dpotri(&uplo, &n, a, &lda, info);
}

// Householder QR: R in the upper triangle, the reflectors below it and in tau.
template <typename T>
void geqrf(int m, int n, T* a, int lda, T* tau, T* work, int lwork, int* info);
template <>
inline void geqrf<float>(int m, int n, float* a, int lda, float* tau, float* work, int lwork, int* info) {
  LAPACK_sgeqrf(&m, &n, a, &lda, tau, work, &lwork, info);
}
template <>
inline void geqrf<double>(int m, int n, double* a, int lda, double* tau, double* work, int lwork, int* info) {
  LAPACK_dgeqrf(&m, &n, a, &lda, tau, work, &lwork, info);
}

// The first n columns of Q from geqrf's k reflectors.
template <typename T>
void orgqr(int m, int n, int k, T* a, int lda, const T* tau, T* work, int lwork, int* info);
template <>
inline void orgqr<float>(int m, int n, int k, float* a, int lda, const float* tau, float* work, int lwork, int* info) {
  LAPACK_sorgqr(&m, &n, &k, a, &lda, tau, work, &lwork, info);
}
template <>
inline void orgqr<double>(int m, int n, int k, double* a, int lda, const double* tau, double* work, int lwork,
                          int* info) {
  LAPACK_dorgqr(&m, &n, &k, a, &lda, tau, work, &lwork, info);
}

// Divide-and-conquer SVD: jobz 'N' (values), 'S' (thin) or 'A' (full).
template <typename T>
void gesdd(char jobz, int m, int n, T* a, int lda, T* s, T* u, int ldu, T* vt, int ldvt, T* work, int lwork,
           int* iwork, int* info);
template <>
inline void gesdd<float>(char jobz, int m, int n, float* a, int lda, float* s, float* u, int ldu, float* vt, int ldvt,
                         float* work, int lwork, int* iwork, int* info) {
  scipy_LAPACK_sgesdd(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, iwork, info);
}
template <>
inline void gesdd<double>(char jobz, int m, int n, double* a, int lda, double* s, double* u, int ldu, double* vt,
                          int ldvt, double* work, int lwork, int* iwork, int* info) {
  scipy_LAPACK_dgesdd(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, iwork, info);
}

// Symmetric eigendecomposition by divide and conquer: jobz 'N' or 'V'.
template <typename T>
void syevd(char jobz, char uplo, int n, T* a, int lda, T* w, T* work, int lwork, int* iwork, int liwork, int* info);
template <>
inline void syevd<float>(char jobz, char uplo, int n, float* a, int lda, float* w, float* work, int lwork, int* iwork,
                         int liwork, int* info) {
  scipy_LAPACK_ssyevd(&jobz, &uplo, &n, a, &lda, w, work, &lwork, iwork, &liwork, info);
}
template <>
inline void syevd<double>(char jobz, char uplo, int n, double* a, int lda, double* w, double* work, int lwork,
                          int* iwork, int liwork, int* info) {
  scipy_LAPACK_dsyevd(&jobz, &uplo, &n, a, &lda, w, work, &lwork, iwork, &liwork, info);
}

// BLAS triangular solve in place: op(A) X = B (left) or X op(A) = B, column-major.
template <typename T>
void trsm(bool left, bool upper, bool transpose, bool unit, int m, int n, const T* a, int lda, T* b, int ldb);
template <>
inline void trsm<float>(bool left, bool upper, bool transpose, bool unit, int m, int n, const float* a, int lda,
                        float* b, int ldb) {
  scipy_cblas_strsm(CblasColMajor, left ? CblasLeft : CblasRight, upper ? CblasUpper : CblasLower,
                    transpose ? CblasTrans : CblasNoTrans, unit ? CblasUnit : CblasNonUnit, m, n, 1.0f, a, lda, b,
                    ldb);
}
template <>
inline void trsm<double>(bool left, bool upper, bool transpose, bool unit, int m, int n, const double* a, int lda,
                         double* b, int ldb) {
  scipy_cblas_dtrsm(CblasColMajor, left ? CblasLeft : CblasRight, upper ? CblasUpper : CblasLower,
                    transpose ? CblasTrans : CblasNoTrans, unit ? CblasUnit : CblasNonUnit, m, n, 1.0, a, lda, b, ldb);
}

// BLAS dot product of two strided vectors (strides of at least 1).
inline float dot(int n, const float* x, int incx, const float* y, int incy) {
  return scipy_cblas_sdot(n, x, incx, y, incy);
}
inline double dot(int n, const double* x, int incx, const double* y, int incy) {
  return scipy_cblas_ddot(n, x, incx, y, incy);
}

// Least squares min ||A X - B||_F, B (ldb >= max(m, n)) overwritten by X in
// its first n rows: by QR for a full-rank A (gels), a complete orthogonal
// factorisation with column pivoting (gelsy), or the SVD (gelsd by divide and
// conquer, gelss); the last three find the rank below rcond. lwork = -1
// queries the work size (and gelsd's iwork size in iwork[0]).
template <typename T>
void gels(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T* work, int lwork, int* info);
template <>
inline void gels<float>(int m, int n, int nrhs, float* a, int lda, float* b, int ldb, float* work, int lwork,
                        int* info) {
  const char trans = 'N';
  scipy_LAPACK_sgels(&trans, &m, &n, &nrhs, a, &lda, b, &ldb, work, &lwork, info);
}
template <>
inline void gels<double>(int m, int n, int nrhs, double* a, int lda, double* b, int ldb, double* work, int lwork,
                         int* info) {
  const char trans = 'N';
  scipy_LAPACK_dgels(&trans, &m, &n, &nrhs, a, &lda, b, &ldb, work, &lwork, info);
}

template <typename T>
void gelsy(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, int* jpvt, T rcond, int* rank, T* work, int lwork,
           int* info);
template <>
inline void gelsy<float>(int m, int n, int nrhs, float* a, int lda, float* b, int ldb, int* jpvt, float rcond,
                         int* rank, float* work, int lwork, int* info) {
  LAPACK_sgelsy(&m, &n, &nrhs, a, &lda, b, &ldb, jpvt, &rcond, rank, work, &lwork, info);
}
template <>
inline void gelsy<double>(int m, int n, int nrhs, double* a, int lda, double* b, int ldb, int* jpvt, double rcond,
                          int* rank, double* work, int lwork, int* info) {
  LAPACK_dgelsy(&m, &n, &nrhs, a, &lda, b, &ldb, jpvt, &rcond, rank, work, &lwork, info);
}

template <typename T>
void gelsd(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T* s, T rcond, int* rank, T* work, int lwork,
           int* iwork, int* info);
template <>
inline void gelsd<float>(int m, int n, int nrhs, float* a, int lda, float* b, int ldb, float* s, float rcond,
                         int* rank, float* work, int lwork, int* iwork, int* info) {
  LAPACK_sgelsd(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lwork, iwork, info);
}
template <>
inline void gelsd<double>(int m, int n, int nrhs, double* a, int lda, double* b, int ldb, double* s, double rcond,
                          int* rank, double* work, int lwork, int* iwork, int* info) {
  LAPACK_dgelsd(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lwork, iwork, info);
}

template <typename T>
void gelss(int m, int n, int nrhs, T* a, int lda, T* b, int ldb, T* s, T rcond, int* rank, T* work, int lwork,
           int* info);
template <>
inline void gelss<float>(int m, int n, int nrhs, float* a, int lda, float* b, int ldb, float* s, float rcond,
                         int* rank, float* work, int lwork, int* info) {
  LAPACK_sgelss(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lwork, info);
}
template <>
inline void gelss<double>(int m, int n, int nrhs, double* a, int lda, double* b, int ldb, double* s, double rcond,
                          int* rank, double* work, int lwork, int* info) {
  LAPACK_dgelss(&m, &n, &nrhs, a, &lda, b, &ldb, s, &rcond, rank, work, &lwork, info);
}

}  // namespace at::native::lapack
