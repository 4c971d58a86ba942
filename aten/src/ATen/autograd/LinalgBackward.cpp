#include <ATen/autograd/LinalgBackward.h>

#include <ATen/ATen.h>
#include <ATen/autograd/GradMode.h>

#include <algorithm>
#include <limits>

namespace at::autograd {
namespace {

Tensor mT(const Tensor& t) { return t.transpose(-2, -1); }

Tensor half(const Tensor& t) { return t.mul(at::scalar_tensor(0.5, t.scalar_type())); }

// An identity matrix in each batch element, as the gradient of a scalar per matrix needs.
Tensor scaled_identity(const Tensor& per_matrix, int64_t n) {
  return at::eye(n, per_matrix.scalar_type(), per_matrix.device()).mul(per_matrix.unsqueeze(-1).unsqueeze(-1));
}

// A^-T M: from the saved factors, or (when the gradient is itself being
// differentiated) by a solve through autograd, as PyTorch does, since the
// factors carry no history.
Tensor solve_transposed(const Tensor& A, const Tensor& LU, const Tensor& pivots, const Tensor& M) {
  if (GradMode::is_enabled()) return std::get<0>(at::_linalg_solve_ex(mT(A), M, true, false));
  return at::linalg_lu_solve(LU, pivots, M, true, true);
}

// The gradient of A = P L U from those of L (m x k, unit lower triangular)
// and U (k x n), k = min(m, n). Square: gA = P L^-T (tril(L^T gL, -1) +
// triu(gU U^T)) U^-T. A wide A's U is [U1 | U2] and a tall A's L is
// [L1; L2]: the extra block's gradient passes straight through, and the
// square block's formula takes the rest.
Tensor lu_backward(const Tensor& gL, const Tensor& gU, const Tensor& P, const Tensor& L, const Tensor& U) {
  if (!gL.defined() && !gU.defined()) return Tensor();
  const int64_t m = L.size(-2), n = U.size(-1), k = U.size(-2);
  Tensor gA;
  if (m == n) {
    Tensor phi;
    if (gL.defined()) phi = mT(L).matmul(gL).tril(-1);
    if (gU.defined()) phi = phi.defined() ? phi.add(gU.matmul(mT(U)).triu()) : gU.matmul(mT(U)).triu();
    phi = at::linalg_solve_triangular(mT(L), phi, true, true, true);
    gA = at::linalg_solve_triangular(mT(U), phi, false, false, false);
  } else if (m < n) {
    const Tensor U1 = U.narrow(-1, 0, k);
    Tensor phi;
    if (gL.defined()) phi = mT(L).matmul(gL);
    if (gU.defined()) {
      const Tensor part = gU.triu().matmul(mT(U));
      phi = phi.defined() ? phi.sub(part) : part.neg();
    }
    Tensor X = at::linalg_solve_triangular(mT(U1), phi.tril(-1), false, false, false);
    X = gU.defined() ? at::cat({X.add(gU.narrow(-1, 0, k).triu()), gU.narrow(-1, k, n - k)}, -1)
                     : at::cat({X, at::zeros_like(U.narrow(-1, k, n - k))}, -1);
    gA = at::linalg_solve_triangular(mT(L), X, true, true, true);
  } else {
    const Tensor L1 = L.narrow(-2, 0, k);
    Tensor phi;
    if (gU.defined()) phi = gU.matmul(mT(U));
    if (gL.defined()) {
      const Tensor part = mT(L).matmul(gL.tril(-1));
      phi = phi.defined() ? phi.sub(part) : part.neg();
    }
    Tensor X = at::linalg_solve_triangular(mT(L1), phi.triu(), true, true, true);
    X = gL.defined() ? at::cat({X.add(gL.narrow(-2, 0, k).tril(-1)), gL.narrow(-2, k, m - k)}, -2)
                     : at::cat({X, at::zeros_like(L.narrow(-2, k, m - k))}, -2);
    gA = at::linalg_solve_triangular(mT(U), X, false, false, false);
  }
  return P.matmul(gA);
}

// The gradient of A = Q R (m >= n, reduced) from those of Q and R.
Tensor qr_backward_tall(const Tensor& gQ, const Tensor& gR, const Tensor& Q, const Tensor& R) {
  Tensor M;
  if (gR.defined()) M = R.matmul(mT(gR));
  if (gQ.defined()) M = M.defined() ? M.sub(mT(gQ).matmul(Q)) : mT(gQ).matmul(Q).neg();
  // copyltu: the symmetric matrix with M's lower triangle.
  const Tensor lower = M.tril(-1);
  const Tensor sym = lower.add(mT(lower)).add(M.diagonal(0, -2, -1).diag_embed(0, -2, -1));
  Tensor b = Q.matmul(sym);
  if (gQ.defined()) b = b.add(gQ);
  return at::linalg_solve_triangular(mT(R), b, false, false, false);
}

}  // namespace

Tensor linalg_eigh_backward(const Tensor& gL, const Tensor& gV, const Tensor& L, const Tensor& V) {
  if (!gL.defined() && !gV.defined()) return Tensor();
  TORCH_CHECK(V.dim() >= 2, "linalg.eigh: the eigenvectors were not computed (compute_v=False), and the gradient "
                            "needs them");
  const Tensor Vt = mT(V);
  if (!gV.defined()) return V.mul(gL.unsqueeze(-2)).matmul(Vt);
  Tensor inner = Vt.matmul(gV);
  // Only the skew-symmetric part of V^T gV moves A (V stays orthogonal); its diagonal is 0.
  inner = half(inner.sub(mT(inner)));
  const Tensor E = L.unsqueeze(-2).sub(L.unsqueeze(-1)).add(at::ones_like(L).diag_embed(0, -2, -1));
  inner = inner.div(E);
  if (gL.defined()) inner = inner.add(gL.diag_embed(0, -2, -1));
  return V.matmul(inner).matmul(Vt);
}

Tensor lu_factor_ex_backward(const Tensor& grad, const Tensor& LU, const Tensor& pivots, bool pivot) {
  if (!grad.defined()) return Tensor();
  if (LU.numel() == 0) return at::zeros_like(grad);  // nothing was factored (pivot=False is fine there)
  const int64_t k = std::min(LU.size(-2), LU.size(-1));
  auto [P, L, U] = at::lu_unpack(LU, pivots, true, pivot);
  return lu_backward(grad.narrow(-1, 0, k).tril(-1), grad.narrow(-2, 0, k).triu(), P, L, U);
}

Tensor lu_unpack_backward(const Tensor& gL, const Tensor& gU, IntArrayRef LU_sizes) {
  if (!gL.defined() && !gU.defined()) return Tensor();
  const int64_t m = LU_sizes[LU_sizes.size() - 2], n = LU_sizes[LU_sizes.size() - 1];
  const Tensor like = gL.defined() ? gL : gU;
  Tensor g = at::zeros(LU_sizes, like.scalar_type(), like.device());
  // L is LU's first min(m, n) columns below the diagonal, U its first min(m, n) rows on and above it.
  if (gL.defined()) g.narrow(-1, 0, std::min(m, n)).add_(gL.tril(-1));
  if (gU.defined()) g.narrow(-2, 0, std::min(m, n)).add_(gU.triu());
  return g;
}

std::tuple<Tensor, Tensor> linalg_lu_solve_backward(const Tensor& gX, const Tensor& X, const Tensor& LU,
                                                    const Tensor& pivots, bool left, bool adjoint) {
  if (!gX.defined()) return {Tensor(), Tensor()};
  const Tensor gB = at::linalg_lu_solve(LU, pivots, gX, left, !adjoint);
  // The gradient of A = P L U, then carried onto the packed factors.
  Tensor gA = left ? (adjoint ? X.matmul(mT(gB)) : gB.matmul(mT(X))) : (adjoint ? mT(gB).matmul(X) : mT(X).matmul(gB));
  gA = gA.neg();
  auto [P, L, U] = at::lu_unpack(LU, pivots, true, true);
  const Tensor PtgA = mT(P).matmul(gA);
  const Tensor gLU = PtgA.matmul(mT(U)).tril(-1).add(mT(L).matmul(PtgA).triu());
  return {gLU, gB};
}

std::tuple<Tensor, Tensor> linalg_solve_backward(const Tensor& gX, const Tensor& X, const Tensor& A, const Tensor& LU,
                                                 const Tensor& pivots, bool left) {
  if (!gX.defined()) return {Tensor(), Tensor()};
  Tensor gB;
  if (GradMode::is_enabled()) {
    gB = std::get<0>(at::_linalg_solve_ex(mT(A), gX, left, false));
  } else {
    gB = at::linalg_lu_solve(LU, pivots, gX, left, true);
  }
  const Tensor gA = (left ? gB.matmul(mT(X)) : mT(X).matmul(gB)).neg();
  return {gA, gB};
}

Tensor linalg_inv_backward(const Tensor& grad, const Tensor& inverse) {
  if (!grad.defined()) return Tensor();
  return mT(inverse).matmul(grad).matmul(mT(inverse)).neg();
}

Tensor linalg_det_backward(const Tensor& grad, const Tensor& det, const Tensor& A, const Tensor& LU,
                           const Tensor& pivots) {
  if (!grad.defined()) return Tensor();
  const int64_t n = A.size(-1);
  if (n == 0) return at::zeros_like(A);
  const Tensor singular = det.eq(at::scalar_tensor(0.0, det.scalar_type()));
  const bool any_singular = singular.any().item<bool>();
  Tensor result;
  if (!singular.all().item<bool>()) {
    // g det A^-T, with the singular matrices' rows solved against a harmless identity.
    const Tensor safe_A = any_singular ? at::where(singular.unsqueeze(-1).unsqueeze(-1),
                                                   at::eye(n, A.scalar_type(), A.device()), A) : A;
    const Tensor rhs = scaled_identity(grad.mul(det), n);
    result = any_singular ? std::get<0>(at::_linalg_solve_ex(mT(safe_A), rhs, true, false))
                          : solve_transposed(A, LU, pivots, rhs);
  }
  if (any_singular) {
    // The cofactors of a singular matrix from its SVD A = U S Vh:
    // det(U) det(Vh) U diag(prod_{j != i} s_j) Vh.
    auto [U, S, Vh] = at::_linalg_svd(A, false, true, std::nullopt);
    Tensor others = S.unsqueeze(-2).expand(A.sizes()).clone();
    others.diagonal(0, -2, -1).fill_(1);
    const Tensor products = others.prod(-1);
    const Tensor signs = std::get<0>(at::_linalg_det(U)).mul(std::get<0>(at::_linalg_det(Vh)));
    const Tensor cofactors = U.mul(products.unsqueeze(-2)).matmul(Vh).mul(signs.mul(grad).unsqueeze(-1).unsqueeze(-1));
    result = result.defined() ? at::where(singular.unsqueeze(-1).unsqueeze(-1), cofactors, result) : cofactors;
  }
  return result;
}

Tensor linalg_slogdet_backward(const Tensor& g_logabsdet, const Tensor& A, const Tensor& LU, const Tensor& pivots) {
  if (!g_logabsdet.defined()) return Tensor();
  return solve_transposed(A, LU, pivots, scaled_identity(g_logabsdet, A.size(-1)));
}

Tensor cholesky_backward(const Tensor& gL, bool upper, const Tensor& L) {
  if (!gL.defined()) return Tensor();
  const Tensor L_ = upper ? mT(L) : L;
  const Tensor gL_ = upper ? mT(gL) : gL;
  // tril(L^T gL) = tril(L^T tril(gL)): the upper part of gL never reaches A.
  Tensor gA = mT(L_).matmul(gL_).tril();
  gA = half(gA.add(mT(gA.tril(-1))));
  gA = at::linalg_solve_triangular(mT(L_), gA, true, true, false);
  return at::linalg_solve_triangular(L_, gA, false, false, false);
}

std::tuple<Tensor, Tensor> cholesky_solve_backward(const Tensor& gX, const Tensor& L, const Tensor& X, bool upper) {
  if (!gX.defined()) return {Tensor(), Tensor()};
  const Tensor gB = at::cholesky_solve(gX, L, upper);
  Tensor common = gB.matmul(mT(X));
  common = common.add(mT(common));
  return {gB, (upper ? L.matmul(common) : common.matmul(L)).neg()};
}

Tensor cholesky_inverse_backward(const Tensor& grad, const Tensor& L, bool upper, const Tensor& inverse) {
  if (!grad.defined()) return Tensor();
  const Tensor common = inverse.matmul(grad.add(mT(grad)).matmul(inverse));
  return (upper ? L.matmul(common) : common.matmul(L)).neg();
}

std::tuple<Tensor, Tensor> linalg_solve_triangular_backward(const Tensor& gX, const Tensor& A, const Tensor& X,
                                                            bool upper, bool left, bool unitriangular) {
  if (!gX.defined()) return {Tensor(), Tensor()};
  const Tensor gB = at::linalg_solve_triangular(mT(A), gX, !upper, left, unitriangular);
  Tensor gA = (left ? gB.matmul(mT(X)) : mT(X).matmul(gB)).neg();
  gA = upper ? gA.triu(unitriangular ? 1 : 0) : gA.tril(unitriangular ? -1 : 0);
  return {gA, gB};
}

Tensor linalg_qr_backward(const Tensor& gQ, const Tensor& gR, const Tensor& Q, const Tensor& R,
                          std::string_view mode) {
  if (!gQ.defined() && !gR.defined()) return Tensor();
  TORCH_CHECK(mode != "r", "The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please "
              "use linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.");
  const int64_t m = Q.size(-2), n = R.size(-1);
  TORCH_CHECK(mode != "complete" || m <= n, "The QR decomposition is not differentiable when mode='complete' and "
              "nrows > ncols.");
  if (m >= n) return qr_backward_tall(gQ, gR, Q, R);
  // A wide A = Q [X | Y] splits as X = Q U (square) and Y = Q V: Y's
  // gradient is Q gV, and V's dependence on Q joins gQ.
  const Tensor U = R.narrow(-1, 0, m), gU = gR.defined() ? gR.narrow(-1, 0, m) : Tensor();
  const Tensor gV = gR.defined() ? gR.narrow(-1, m, n - m) : Tensor();
  Tensor gQ_ = gQ;
  Tensor gY;
  if (gV.defined()) {
    gY = Q.matmul(gV);
    // Y = A's last n - m columns, written from Q and V.
    const Tensor Y = Q.matmul(R.narrow(-1, m, n - m));
    gQ_ = gQ_.defined() ? gQ_.add(Y.matmul(mT(gV))) : Y.matmul(mT(gV));
  } else {
    gY = at::zeros_like(R.narrow(-1, m, n - m));
  }
  const Tensor gX = qr_backward_tall(gQ_, gU, Q, U);
  return at::cat({gX, gY}, -1);
}

Tensor svd_backward(const Tensor& gU_, const Tensor& gS, const Tensor& gVh_, const Tensor& U_, const Tensor& S,
                    const Tensor& Vh_, bool full_matrices) {
  if (!gU_.defined() && !gS.defined() && !gVh_.defined()) return Tensor();
  const int64_t k = S.size(-1);
  const auto thin_u = [&](const Tensor& t) { return full_matrices && t.defined() ? t.narrow(-1, 0, k) : t; };
  const auto thin_vh = [&](const Tensor& t) { return full_matrices && t.defined() ? t.narrow(-2, 0, k) : t; };
  const Tensor U = thin_u(U_), gU = thin_u(gU_), Vh = thin_vh(Vh_), gVh = thin_vh(gVh_);
  const int64_t m = U.size(-2), n = Vh.size(-1);
  if (!gU.defined() && !gVh.defined()) return U.mul(gS.unsqueeze(-2)).matmul(Vh);
  TORCH_CHECK(U.dim() >= 2 && U.size(-1) == k, "linalg.svd: the singular vectors were not computed "
              "(compute_uv=False), and the gradient needs them");
  const Tensor V = mT(Vh);
  const Tensor gV = gVh.defined() ? mT(gVh) : Tensor();
  // skew(X) = X - X^T of the vectors' gradients in their own bases.
  const auto skew = [](const Tensor& X) { return X.sub(mT(X)); };
  const Tensor S2 = S.mul(S);
  // E_jk = s_k^2 - s_j^2, 1 on the diagonal (where the skew parts are 0).
  const Tensor E = S2.unsqueeze(-2).sub(S2.unsqueeze(-1)).add(at::ones_like(S).diag_embed(0, -2, -1));
  Tensor inner;
  if (gU.defined() && gV.defined()) {
    inner = skew(mT(U).matmul(gU)).mul(S.unsqueeze(-2)).add(S.unsqueeze(-1).mul(skew(Vh.matmul(gV)))).div(E);
  } else if (gU.defined()) {
    inner = skew(mT(U).matmul(gU)).div(E).mul(S.unsqueeze(-2));
  } else {
    inner = S.unsqueeze(-1).mul(skew(Vh.matmul(gV)).div(E));
  }
  if (gS.defined()) inner = inner.add(gS.diag_embed(0, -2, -1));
  Tensor gA;
  if (m > k && gU.defined()) {
    // gA = [U inner + (I - U U^T) gU S^-1] Vh
    gA = U.matmul(inner);
    const Tensor gUSinv = gU.div(S.unsqueeze(-2));
    gA = gA.add(gUSinv).sub(U.matmul(mT(U).matmul(gUSinv)));
    gA = gA.matmul(Vh);
  } else if (n > k && gV.defined()) {
    // gA = U [inner Vh + S^-1 gVh (I - V Vh)]
    gA = inner.matmul(Vh);
    const Tensor SinvgVh = gVh.div(S.unsqueeze(-1));
    gA = gA.add(SinvgVh).sub(SinvgVh.matmul(V).matmul(Vh));
    gA = U.matmul(gA);
  } else {
    gA = U.matmul(inner).matmul(Vh);
  }
  return gA;
}

namespace {

// PyTorch's linalg_pinv at its default tolerance (singular values up to
// eps * max(m, n) of the largest count as zero), from the thin SVD.
Tensor pinv(const Tensor& A) {
  const int64_t m = A.size(-2), n = A.size(-1);
  if (A.numel() == 0) return at::zeros(mT(A).sizes(), A.scalar_type(), A.device());
  const auto [U, S, Vh] = at::_linalg_svd(A, false, true, std::nullopt);
  const double eps = A.scalar_type() == kFloat ? std::numeric_limits<float>::epsilon()
                                               : std::numeric_limits<double>::epsilon();
  const Tensor cutoff = S.amax({-1}, true).mul(at::scalar_tensor(eps * static_cast<double>(std::max(m, n)),
                                                                 S.scalar_type()));
  const Tensor kept = S.gt(cutoff);
  const Tensor inv_s = at::where(kept, at::where(kept, S, at::ones_like(S)).reciprocal(), at::zeros_like(S));
  return mT(Vh).mul(inv_s.unsqueeze(-2)).matmul(mT(U));
}

// PyTorch's pinv_backward for real matrices, ordered so every product has the
// smaller of A's dimensions inside.
Tensor pinv_backward(const Tensor& grad, const Tensor& pinvA, const Tensor& A) {
  const int64_t m = A.size(-2), n = A.size(-1);
  const Tensor pinvAh = mT(pinvA), gradh = mT(grad);
  if (m <= n) {
    const Tensor K = gradh.matmul(pinvA);
    const Tensor KpinvAh = K.matmul(pinvAh);
    return mT(pinvA.matmul(K)).neg() + KpinvAh - A.matmul(pinvA).matmul(KpinvAh) +
           pinvAh.matmul(pinvA).matmul(gradh - K.matmul(A));
  }
  const Tensor K = pinvA.matmul(gradh);
  const Tensor pinvAhK = pinvAh.matmul(K);
  return mT(K.matmul(pinvA)).neg() + (gradh - A.matmul(K)).matmul(pinvA).matmul(pinvAh) + pinvAhK -
         pinvAhK.matmul(pinvA).matmul(A);
}

}  // namespace

std::tuple<Tensor, Tensor> linalg_lstsq_backward(const Tensor& gX_, const Tensor& gL, const Tensor& A,
                                                 const Tensor& B_, const Tensor& X_) {
  const bool with_residuals = gL.defined() && gL.numel() > 0;
  if (!gX_.defined() && !with_residuals) return {};
  const bool vector = B_.dim() == 1 || (A.dim() == B_.dim() + 1 && B_.sizes().equals(A.sizes().slice(0, A.dim() - 1)));
  auto as_matrix = [vector](const Tensor& t) { return vector ? t.unsqueeze(-1) : t; };
  const Tensor B = as_matrix(B_);
  Tensor gA, gB;
  if (gX_.defined()) {
    const Tensor gX = as_matrix(gX_);
    const Tensor pinvA = pinv(A);
    gA = pinv_backward(gX.matmul(mT(B)), pinvA, A);
    gB = mT(pinvA).matmul(gX);
  }
  if (with_residuals) {
    const Tensor X = as_matrix(X_);
    const Tensor weighted = A.matmul(X).sub(B).mul(gL.unsqueeze(-2)).mul(at::scalar_tensor(2.0, A.scalar_type()));
    const Tensor gA_res = weighted.matmul(mT(X)), gB_res = weighted.neg();
    gA = gA.defined() ? gA.add(gA_res) : gA_res;
    gB = gB.defined() ? gB.add(gB_res) : gB_res;
  }
  return {gA, vector ? gB.squeeze(-1) : gB};
}

}  // namespace at::autograd
