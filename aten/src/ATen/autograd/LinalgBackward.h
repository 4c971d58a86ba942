#pragma once
// The backward formulas of torch.linalg's factorisations and solves
// (derivatives.yaml names them), PyTorch's analytic ones for real matrices:
// each differentiates the factorisation's defining equations, never the
// LAPACK iteration that computed it.
#include <ATen/core/TensorBody.h>

#include <string_view>
#include <tuple>

namespace at::autograd {

// eigh (A = V diag(L) V^T): gA = V (diag(gL) + skew(V^T gV) / E) V^T, E_ij = L_j - L_i.
Tensor linalg_eigh_backward(const Tensor& gL, const Tensor& gV, const Tensor& L, const Tensor& V);
// lu_factor (A = P L U): for a square A, gA = P L^-T (tril(L^T gL, -1) + triu(gU U^T)) U^-T.
Tensor lu_factor_ex_backward(const Tensor& grad, const Tensor& LU, const Tensor& pivots, bool pivot);
// lu_unpack: L's strict lower and U's upper triangle of the packed factors.
Tensor lu_unpack_backward(const Tensor& gL, const Tensor& gU, IntArrayRef LU_sizes);
// lu_solve: (gLU, gB) of X = op(A)^-1 B or B op(A)^-1 with A = P L U.
std::tuple<Tensor, Tensor> linalg_lu_solve_backward(const Tensor& gX, const Tensor& X, const Tensor& LU,
                                                    const Tensor& pivots, bool left, bool adjoint);
// solve: gB = A^-T gX (left), gA = -gB X^T.
std::tuple<Tensor, Tensor> linalg_solve_backward(const Tensor& gX, const Tensor& X, const Tensor& A, const Tensor& LU,
                                                 const Tensor& pivots, bool left);
// inv: gA = -A^-T g A^-T.
Tensor linalg_inv_backward(const Tensor& grad, const Tensor& inverse);
// det: g det A^-T, and for singular matrices the cofactors from the SVD.
Tensor linalg_det_backward(const Tensor& grad, const Tensor& det, const Tensor& A, const Tensor& LU,
                           const Tensor& pivots);
// slogdet: g_logabsdet A^-T.
Tensor linalg_slogdet_backward(const Tensor& g_logabsdet, const Tensor& A, const Tensor& LU, const Tensor& pivots);
// cholesky (A = L L^T): gA = L^-T Phi(L^T gL) L^-1, Phi symmetrising the lower triangle with half its diagonal.
Tensor cholesky_backward(const Tensor& gL, bool upper, const Tensor& L);
// cholesky_solve (X = (L L^T)^-1 B): gB = (L L^T)^-1 gX, gL = -(gB X^T + X gB^T) L
// (upper: -U (...)); PyTorch's formula, over all of the factor.
std::tuple<Tensor, Tensor> cholesky_solve_backward(const Tensor& gX, const Tensor& L, const Tensor& X, bool upper);
// cholesky_inverse (C = (L L^T)^-1, or (U^T U)^-1): gL = -C (g + g^T) C L,
// gU = -U C (g + g^T) C; PyTorch's formula, over all of the factor (not its triangle).
Tensor cholesky_inverse_backward(const Tensor& grad, const Tensor& L, bool upper, const Tensor& inverse);
// solve_triangular: gB = A^-T gX, gA = -gB X^T restricted to A's triangle.
std::tuple<Tensor, Tensor> linalg_solve_triangular_backward(const Tensor& gX, const Tensor& A, const Tensor& X,
                                                            bool upper, bool left, bool unitriangular);
// lstsq (X = pinv(A) B): gB = pinv(A)^T gX, gA = pinv's derivative applied to gX B^T (PyTorch's formula);
// the residuals' ||A X - B||^2 per column, stationary in X: gA += 2 (R gL) X^T, gB -= 2 R gL, R = A X - B.
std::tuple<Tensor, Tensor> linalg_lstsq_backward(const Tensor& gX, const Tensor& gL, const Tensor& A, const Tensor& B,
                                                 const Tensor& X);
// qr (A = Q R): gA = (gQ + Q copyltu(R gR^T - gQ^T Q)) R^-T for m >= n, and its extension to wide A.
Tensor linalg_qr_backward(const Tensor& gQ, const Tensor& gR, const Tensor& Q, const Tensor& R, std::string_view mode);
// svd (A = U diag(S) Vh): full factors are narrowed to the thin ones, whose
// extra columns the gradient cannot depend on (PyTorch does the same).
Tensor svd_backward(const Tensor& gU, const Tensor& gS, const Tensor& gVh, const Tensor& U, const Tensor& S,
                    const Tensor& Vh, bool full_matrices);

}  // namespace at::autograd
