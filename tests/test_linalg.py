"""torch.linalg's solves and factorisations (torch/linalg/_decompositions.py)
against numpy.linalg, their gradients by gradcheck, and their errors."""
import subprocess
import sys
import tempfile

import numpy as np
import pytest

import torch
import torch.linalg as LA

RNG = np.random.default_rng(7)
A = RNG.standard_normal((3, 4, 4))
SPD = A @ np.swapaxes(A, -1, -2) + 4 * np.eye(4)
B = RNG.standard_normal((3, 4, 2))
TALL = RNG.standard_normal((5, 3))


def t(x):
    return torch.tensor(x, dtype=torch.float64)


@pytest.mark.parametrize("ours,theirs", [
    (lambda: LA.det(t(A)), lambda: np.linalg.det(A)),
    (lambda: LA.slogdet(t(A))[1], lambda: np.linalg.slogdet(A)[1]),
    (lambda: LA.slogdet(t(A))[0], lambda: np.linalg.slogdet(A)[0]),
    (lambda: LA.inv(t(A)), lambda: np.linalg.inv(A)),
    (lambda: LA.solve(t(A), t(B)), lambda: np.linalg.solve(A, B)),
    (lambda: LA.solve(t(A[0]), t(B[0, :, 0])), lambda: np.linalg.solve(A[0], B[0, :, 0])),
    (lambda: LA.cholesky(t(SPD)), lambda: np.linalg.cholesky(SPD)),
    (lambda: LA.solve_triangular(t(np.tril(A)), t(B), upper=False), lambda: np.linalg.solve(np.tril(A), B)),
    (lambda: LA.eigvalsh(t(SPD)), lambda: np.linalg.eigvalsh(SPD)),
    (lambda: LA.svdvals(t(TALL)), lambda: np.linalg.svd(TALL, compute_uv=False)),
    (lambda: LA.qr(t(TALL)).R.abs(), lambda: np.abs(np.linalg.qr(TALL)[1])),
    (lambda: LA.matrix_power(t(A), 3), lambda: np.linalg.matrix_power(A, 3)),
    (lambda: LA.matrix_power(t(A), -2), lambda: np.linalg.matrix_power(A, -2)),
    (lambda: LA.pinv(t(TALL)), lambda: np.linalg.pinv(TALL)),
    (lambda: LA.lstsq(t(TALL), t(TALL[:, 0] + 1)).solution, lambda: np.linalg.lstsq(TALL, TALL[:, 0] + 1, None)[0]),
    (lambda: LA.multi_dot([t(A[0]), t(A[1]), t(B[0])]), lambda: A[0] @ A[1] @ B[0]),
    (lambda: LA.cross(t(B[..., 0][:, :3]), t(B[..., 1][:, :3])), lambda: np.cross(B[..., 0][:, :3], B[..., 1][:, :3])),
    (lambda: LA.matrix_rank(t(np.outer([1.0, 2, 3], [4.0, 5, 6]))), lambda: np.array(1)),
    (lambda: LA.matrix_norm(t(TALL), 2), lambda: np.linalg.norm(TALL, 2)),
    (lambda: LA.matrix_norm(t(A), -2), lambda: np.linalg.norm(A, -2, axis=(-2, -1))),
    (lambda: torch.norm(t(TALL), p="nuc"), lambda: np.linalg.norm(TALL, "nuc")),
    *[(lambda p=p: LA.cond(t(A), p), lambda p=p: np.linalg.cond(A, p))
      for p in (None, 2, -2, 1, -1, float("inf"), float("-inf"), "fro", "nuc")],
    (lambda: LA.cond(t(TALL)), lambda: np.linalg.cond(TALL)),
])
def test_matches_numpy(ours, theirs):
    np.testing.assert_allclose(ours().detach().numpy(), theirs(), rtol=1e-9, atol=1e-9)


def test_factorisations_reconstruct():
    Q, R = LA.qr(t(TALL))
    assert torch.allclose(Q @ R, t(TALL)) and torch.allclose(Q.T @ Q, torch.eye(3, dtype=torch.float64))
    w, V = LA.eigh(t(SPD))
    assert torch.allclose(V @ torch.diag_embed(w) @ V.mT, t(SPD))
    U, S, Vh = LA.svd(t(TALL), full_matrices=False)
    assert torch.allclose(U @ torch.diag(S) @ Vh, t(TALL))
    P, L, U = LA.lu(t(A[0]))
    assert torch.allclose(P @ L @ U, t(A[0]))
    E = LA.matrix_exp(t(np.array([[0.0, 1.0], [-1.0, 0.0]])))
    assert torch.allclose(E, t(np.array([[np.cos(1), np.sin(1)], [-np.sin(1), np.cos(1)]])))


@pytest.mark.parametrize("fn,make", [
    (LA.det, lambda: A[0]), (LA.inv, lambda: A[0]), (lambda M: LA.solve(M, t(B[0])), lambda: A[0]),
    (lambda M: LA.cholesky(M + M.mT), lambda: SPD[0]), (lambda M: LA.slogdet(M)[1], lambda: A[0]), (lambda M: LA.qr(M).R, lambda: TALL),
    (lambda M: LA.matrix_norm(M, "nuc"), lambda: TALL), (lambda M: LA.matrix_norm(M, 2), lambda: TALL),
    (LA.cond, lambda: A[0]), (lambda M: LA.cond(M, 1), lambda: A[0]),
])
def test_gradcheck(fn, make):
    x = t(make()).requires_grad_()
    assert torch.autograd.gradcheck(fn, (x,))


def test_cond_of_singular_and_empty_matrices_and_its_errors():
    singular = torch.zeros(3, 2, 2, dtype=torch.float64)
    assert LA.cond(singular, 1).tolist() == [float("inf")] * 3  # PyTorch: inf where inv fails
    assert LA.cond(torch.zeros(2, 0, 0)).tolist() == [0.0, 0.0] and LA.cond(torch.zeros(0, 0), "fro").item() == 0
    with pytest.raises(RuntimeError, match="linalg.cond got an invalid norm type: 3"):
        LA.cond(torch.eye(2), 3)
    with pytest.raises(RuntimeError, match=r"linalg.cond\(ord=1\): A must be batches of square matrices, but they "
                                           "are 2 by 3 matrices"):
        LA.cond(torch.ones(2, 3), 1)
    with pytest.raises(RuntimeError, match="linalg.cond: The input tensor must have at least 2 dimensions"):
        LA.cond(torch.ones(3))


def test_spectral_norms_of_empty_matrices_are_pytorchs():
    assert LA.matrix_norm(torch.zeros(3, 0, 2), 2).tolist() == [0.0] * 3
    assert LA.matrix_norm(torch.zeros(0, 0), "nuc").item() == 0
    with pytest.raises(IndexError, match="Expected reduction dim -1 to have non-zero size"):
        LA.matrix_norm(torch.zeros(2, 0), -2)


def test_errors():
    with pytest.raises(LA.LinAlgError, match="the leading minor of order 2 is not positive-definite"):
        LA.cholesky(t(np.array([[4.0, 2.0], [2.0, -5.0]])))
    with pytest.raises(LA.LinAlgError, match="The solver failed because the input matrix is singular"):
        LA.solve(t(np.array([[1.0, 2.0], [2.0, 4.0]])), t(np.array([1.0, 2.0])))
    with pytest.raises(RuntimeError, match="A must be batches of square matrices, but they are 2 by 3 matrices"):
        LA.inv(torch.ones(2, 3))
    with pytest.raises(RuntimeError, match="linalg.det: Expected a floating point or complex tensor as input. Got Long"):
        LA.det(torch.ones(2, 2, dtype=torch.int64))
    assert issubclass(LA.LinAlgError, RuntimeError)
    L, info = LA.cholesky_ex(t(np.array([[[4.0, 2.0], [2.0, -5.0]], [[2.0, 0.0], [0.0, 1.0]]])))
    assert info.tolist() == [2, 0]


def symmetric(shape, dtype=np.float64, seed=3):
    M = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    return (M + np.swapaxes(M, -1, -2)) / 2


@pytest.mark.parametrize("dtype,tol", [(torch.float64, 1e-10), (torch.float32, 2e-4)])
@pytest.mark.parametrize("shape", [(64, 64), (3, 2, 16, 16), (1, 1), (0, 0), (2, 0, 0), (0, 3, 3)])
def test_eigh_is_lapacks_syevd_and_matches_numpy(dtype, tol, shape):
    M = symmetric(shape)
    w, V = LA.eigh(torch.tensor(M, dtype=dtype))
    assert w.dtype == V.dtype == dtype and w.shape == shape[:-1] and V.shape == shape
    np.testing.assert_allclose(w.numpy(), np.linalg.eigvalsh(M), rtol=tol, atol=tol * max(1, shape[-1]))
    recon = V @ torch.diag_embed(w) @ V.mT
    np.testing.assert_allclose(recon.numpy(), M, atol=tol * 10 * max(1, shape[-1]))
    # PyTorch's eigenvectors are column-major (LAPACK's layout), and eigvalsh
    # (LAPACK without the vectors: another path, equal to rounding) agrees.
    if shape[-1] > 1:
        assert V.stride()[-2:] == (1, shape[-1])
    np.testing.assert_allclose(LA.eigvalsh(torch.tensor(M, dtype=dtype)).numpy(), w.numpy(), rtol=tol,
                               atol=tol * max(1, shape[-1]))


def test_eigh_reads_only_the_triangle_uplo_names():
    M = symmetric((5, 5))
    lower_only = np.tril(M) + np.triu(np.full((5, 5), 1e3), 1)  # garbage above the diagonal
    np.testing.assert_allclose(LA.eigvalsh(t(lower_only)).numpy(), np.linalg.eigvalsh(M), rtol=1e-12)
    upper_only = np.triu(M) + np.tril(np.full((5, 5), -1e3), -1)
    np.testing.assert_allclose(LA.eigvalsh(t(upper_only), UPLO="U").numpy(), np.linalg.eigvalsh(M), rtol=1e-12)
    np.testing.assert_allclose(LA.eigh(t(upper_only), UPLO="u").eigenvalues.numpy(), np.linalg.eigvalsh(M),
                               rtol=1e-12)


def test_eigh_gradient_is_pytorchs_formula():
    M = t(symmetric((4, 4))).requires_grad_()
    # Losses that do not depend on the eigenvectors' signs.
    assert torch.autograd.gradcheck(lambda X: LA.eigvalsh(X + X.mT).pow(2).sum(), (M,))
    assert torch.autograd.gradcheck(lambda X: (lambda r: r.eigenvectors.pow(2) * r.eigenvalues)(LA.eigh(X + X.mT)),
                                    (M,))
    w, V = LA.eigh(M)
    assert w.grad_fn.name() == "LinalgEighBackward0"
    (w.sum() + V.pow(2).sum()).backward()
    # d(sum of eigenvalues)/dA is the identity, and V's squares sum to n whatever A is.
    np.testing.assert_allclose(M.grad.numpy(), np.eye(4), atol=1e-10)


def test_eigh_errors_are_pytorchs():
    with pytest.raises(RuntimeError, match="linalg.eigh: The input tensor A must have at least 2 dimensions."):
        LA.eigh(torch.ones(3))
    with pytest.raises(RuntimeError, match="linalg.eigh: A must be batches of square matrices, but they are 2 by 3"):
        LA.eigh(torch.ones(2, 3))
    with pytest.raises(RuntimeError, match="linalg.eigh: Expected a floating point or complex tensor as input. Got"):
        LA.eigh(torch.ones(2, 2, dtype=torch.int64))
    with pytest.raises(RuntimeError, match="linalg.eigh: Low precision dtypes not supported. Got"):
        LA.eigh(torch.ones(2, 2, dtype=torch.float16))
    with pytest.raises(RuntimeError, match="Expected UPLO argument to be 'L' or 'U', but got X"):
        LA.eigh(torch.eye(2), UPLO="X")
    assert issubclass(LA.LinAlgError, RuntimeError) and LA.LinAlgError is torch._C._LinAlgError
    assert LA.LinAlgError.__module__ == "torch._C" and LA.LinAlgError.__name__ == "_LinAlgError"



# ---- the LAPACK kernels behind solve, inv, det, lu, cholesky, qr, svd ----

def _well_conditioned(shape, seed=11):
    M = np.random.default_rng(seed).standard_normal(shape)
    return M + 3 * np.eye(shape[-1]) if shape[-1] == shape[-2] else M


@pytest.mark.parametrize("dtype,tol", [(torch.float64, 1e-10), (torch.float32, 1e-4)])
def test_lapack_results_match_numpy_in_both_precisions_and_batches(dtype, tol):
    M = _well_conditioned((2, 3, 5, 5))
    R = np.random.default_rng(2).standard_normal((2, 3, 5, 2))
    T = torch.tensor(M, dtype=dtype)

    def close(ours, theirs):
        np.testing.assert_allclose(ours.numpy(), theirs, rtol=tol, atol=tol)

    close(LA.solve(T, torch.tensor(R, dtype=dtype)), np.linalg.solve(M, R))
    close(LA.inv(T), np.linalg.inv(M))
    close(LA.det(T), np.linalg.det(M))
    close(LA.slogdet(T).logabsdet, np.linalg.slogdet(M)[1])
    close(LA.cholesky(T @ T.mT), np.linalg.cholesky(M @ np.swapaxes(M, -1, -2)))
    close(LA.svdvals(T), np.linalg.svd(M, compute_uv=False))
    # numpy calls the same LAPACK QR (geqrf/orgqr), so even the signs agree.
    close(LA.qr(T).R, np.linalg.qr(M)[1])
    close(LA.qr(T).Q, np.linalg.qr(M)[0])
    LU, pivots = LA.lu_factor(T)
    close(LA.lu_solve(LU, pivots, torch.tensor(R, dtype=dtype)), np.linalg.solve(M, R))
    assert LU.dtype == dtype and pivots.dtype == torch.int32 and pivots.shape == (2, 3, 5)


def test_results_are_column_major_and_inputs_untouched_as_in_pytorch():
    A = t(_well_conditioned((4, 4)))
    keep = A.clone()
    Af = A.mT.contiguous().mT  # already column-major: LAPACK must still work on a copy
    for result in (LA.lu_factor(Af).LU, LA.inv(Af), LA.solve(Af, t(np.ones((4, 2)))), LA.qr(Af).Q, LA.svd(Af).U,
                   LA.cholesky(Af @ Af.mT), LA.solve_triangular(Af, t(np.ones((4, 2))), upper=True), LA.eigh(Af)[1]):
        assert result.stride() == (1, result.shape[-2]), result.stride()
    assert torch.equal(Af, keep) and torch.equal(A, keep)


def test_solve_broadcasts_and_takes_vectors_and_right_hand_sides_as_pytorch():
    A = _well_conditioned((2, 1, 3, 3))
    B = np.random.default_rng(4).standard_normal((4, 3, 2))
    np.testing.assert_allclose(LA.solve(t(A), t(B)).numpy(), np.linalg.solve(A, B), rtol=1e-10)
    v = np.arange(3.0)
    np.testing.assert_allclose(LA.solve(t(A[0, 0]), t(v)).numpy(), np.linalg.solve(A[0, 0], v), rtol=1e-10)
    # left=False: X A = B.
    Bt = np.swapaxes(B, -1, -2)
    np.testing.assert_allclose(LA.solve(t(A), t(Bt), left=False).numpy(),
                               np.swapaxes(np.linalg.solve(np.swapaxes(A, -1, -2), B), -1, -2), rtol=1e-10)
    X, info = LA.solve_ex(t(np.zeros((2, 2))), t(np.ones(2)))
    assert info.item() == 1 and info.dtype == torch.int32
    LU, piv = LA.lu_factor(t(A[0, 0]))
    np.testing.assert_allclose(LA.lu_solve(LU, piv, t(B[0]), adjoint=True).numpy(), np.linalg.solve(A[0, 0].T, B[0]),
                               rtol=1e-10)
    np.testing.assert_allclose(LA.lu_solve(LU, piv, t(Bt[0]), left=False).numpy(),
                               np.linalg.solve(A[0, 0].T, B[0]).T, rtol=1e-10)
    # solve_triangular computes in A's dtype, B cast to it, as PyTorch's (B's
    # gradient comes back in B's dtype); the batch dims broadcast.
    B64 = torch.ones(2, 1, dtype=torch.float64, requires_grad=True)
    X = LA.solve_triangular(2 * torch.eye(2), B64, upper=True)
    assert X.dtype == torch.float32 and torch.equal(X, torch.full((2, 1), 0.5))
    X.sum().backward()
    assert B64.grad.dtype == torch.float64 and torch.equal(B64.grad, torch.full((2, 1), 0.5, dtype=torch.float64))
    assert LA.solve_triangular(torch.eye(2, dtype=torch.float64), torch.ones(2, 1, dtype=torch.bool),
                               upper=False).dtype == torch.float64
    A3 = (torch.eye(3) + torch.ones(3, 3).triu()).expand(4, 3, 3).requires_grad_(False).clone().requires_grad_()
    B3 = torch.arange(30.0).reshape(5, 1, 3, 2)
    X = torch._C._linalg.linalg_solve_triangular(A3, B3, upper=True)
    assert X.shape == (5, 4, 3, 2)
    assert torch.allclose(A3 @ X, B3.expand(5, 4, 3, 2), atol=1e-4)
    X.sum().backward()
    assert A3.grad.shape == (4, 3, 3)


def test_lu_unpacks_to_the_input_and_its_pivots_are_lapacks():
    for shape in [(4, 4), (2, 3, 3), (5, 3), (3, 5)]:
        M = np.random.default_rng(5).standard_normal(shape)
        P, L, U = LA.lu(t(M))
        np.testing.assert_allclose((P @ L @ U).numpy(), M, atol=1e-12)
        k = min(shape[-2:])
        assert L.shape[-2:] == (shape[-2], k) and U.shape[-2:] == (k, shape[-1])
        assert torch.equal(L.diagonal(0, -2, -1), torch.ones(L.shape[:-2] + (k,), dtype=L.dtype))
    # Partial pivoting: row 2 (the largest |entry| of column 0) goes first.
    LU, pivots = LA.lu_factor(t(np.array([[1.0, 2.0], [3.0, 4.0]])))
    assert pivots.tolist() == [2, 2]
    P, _, _ = torch.lu_unpack(LU, pivots)
    assert P.tolist() == [[0.0, 1.0], [1.0, 0.0]]


def test_empty_and_singular_matrices_give_pytorchs_results():
    assert LA.det(torch.zeros(0, 0)).item() == 1.0
    assert tuple(LA.slogdet(torch.zeros(0, 0))) == (torch.tensor(1.0), torch.tensor(0.0))
    sign, logabsdet = LA.slogdet(torch.zeros(2, 2))
    assert sign.item() == 0 and logabsdet.item() == float("-inf") and LA.det(torch.zeros(2, 2)).item() == 0
    U, S, Vh = LA.svd(torch.zeros(0, 3))
    assert U.shape == (0, 0) and S.shape == (0,) and torch.equal(Vh, torch.eye(3))
    assert LA.svd(torch.zeros(0, 3), full_matrices=False).Vh.shape == (0, 3)
    Q, R = LA.qr(torch.zeros(3, 0), mode="complete")
    assert torch.equal(Q, torch.eye(3)) and R.shape == (3, 0)
    assert LA.inv(torch.zeros(2, 0, 0)).shape == (2, 0, 0)
    assert LA.solve(torch.zeros(3, 3) + torch.eye(3), torch.zeros(3, 0)).shape == (3, 0)


@pytest.mark.parametrize("call,message", [
    (lambda: LA.lu_factor(torch.zeros(2, 2)), r"^torch.linalg.lu_factor: U\[1,1\] is zero and using it on lu_solve"),
    (lambda: LA.lu_factor(torch.zeros(3, 2, 2)), r"^torch.linalg.lu_factor: \(Batch element 0\): U\[1,1\] is zero"),
    (lambda: LA.lu_factor_ex(torch.zeros(2, 2), check_errors=True), r"^torch.linalg.lu_factor_ex: U\[1,1\]"),
    (lambda: LA.solve(torch.zeros(2, 2), torch.ones(2)),
     r"^torch.linalg.solve: The solver failed because the input matrix is singular.$"),
    (lambda: LA.solve(torch.zeros(3, 2, 2), torch.ones(2)), r"^torch.linalg.solve: \(Batch element 0\): The solver"),
    (lambda: LA.solve_ex(torch.zeros(2, 2), torch.ones(2), check_errors=True), r"^torch.linalg.solve_ex: The solver"),
    (lambda: LA.inv(torch.zeros(2, 2)), r"^linalg.inv: The diagonal element 1 is zero, the inversion could not be "
                                        r"completed because the input matrix is singular.$"),
    (lambda: LA.inv_ex(torch.zeros(2, 2, 2), check_errors=True), r"^linalg.inv_ex: \(Batch element 0\): The diag"),
    (lambda: LA.cholesky(-torch.eye(2)), r"^linalg.cholesky: The factorization could not be completed because the "
                                         r"input is not positive-definite \(the leading minor of order 1 is not"),
    (lambda: torch.cholesky_solve(torch.ones(3), torch.eye(3)),
     r"^b should have at least 2 dimensions, but has 1 dimensions instead$"),
    (lambda: torch.cholesky_solve(torch.ones(3, 2), torch.ones(3)),
     r"^u should have at least 2 dimensions, but has 1 dimensions instead$"),
    (lambda: torch.cholesky_solve(torch.ones(3, 2, dtype=torch.float64), torch.eye(3)),
     r"^Expected b and A to have the same dtype, but found b of type Double and A of type Float instead.$"),
    (lambda: torch.cholesky_solve(torch.ones(2, 2), torch.eye(3)),
     r"^Incompatible matrix sizes for cholesky_solve: each A matrix is 3 by 3 but each b matrix is 2 by 2$"),
    (lambda: torch.cholesky_solve(torch.ones(3, 3, 2), torch.eye(3).expand(4, 3, 3)),
     r"^The size of tensor a \(3\) must match the size of tensor b \(4\) at non-singleton dimension 0$"),
    (lambda: torch.cholesky_inverse(torch.zeros(3, 3)), r"^cholesky_inverse: The diagonal element 1 is zero, the "
                                                         r"inversion could not be completed because the input matrix"),
    (lambda: torch.cholesky_inverse(torch.eye(3).expand(2, 3, 3) * torch.tensor([1., 1, 0])),
     r"^cholesky_inverse: \(Batch element 0\): The diagonal element 3 is zero"),
    (lambda: torch.cholesky_inverse(torch.ones(3)), r"^cholesky_inverse: The input tensor A must have at least 2 dim"),
    (lambda: torch.cholesky_inverse(torch.ones(3, 4)), r"^cholesky_inverse: A must be batches of square matrices"),
    (lambda: torch.cholesky_inverse(torch.eye(2), out=torch.empty(2, 2, dtype=torch.int32)),
     r"^cholesky_inverse: Expected result to be safely castable from Float dtype, but got result with dtype Int$"),
    (lambda: LA.det(torch.ones(2, 3)), r"^linalg.det: A must be batches of square matrices, but they are 2 by 3"),
    (lambda: LA.det(torch.ones(3)), r"^linalg.det: The input tensor A must have at least 2 dimensions.$"),
    (lambda: LA.solve(torch.eye(2), torch.ones(3)),
     r"^linalg.solve: Incompatible shapes of A and B for the equation AX = B \(2x2 and 3x1\)$"),
    (lambda: LA.solve_triangular(torch.eye(2), torch.ones(3, 1), upper=True),
     r"^linalg.solve_triangular: Incompatible shapes of A and B for the equation AX = B \(2x2 and 3x1\)$"),
    (lambda: LA.solve_triangular(torch.eye(3).expand(4, 3, 3), torch.ones(3, 3, 2), upper=True),
     r"^The size of tensor a \(3\) must match the size of tensor b \(4\) at non-singleton dimension 0$"),
    (lambda: LA.solve_triangular(torch.ones(0, 3, 3, dtype=torch.int64), torch.ones(3, 1, 1), upper=True),
     r"^linalg.solve_triangular: Incompatible shapes of A and B for the equation AX = B \(3x3 and 1x1\)$"),
    (lambda: LA.solve_triangular(torch.eye(2), torch.ones(2), upper=True),
     r"^linalg.solve_triangular: The input tensor B must have at least 2 dimensions.$"),
    (lambda: LA.svd(torch.full((2, 2), float("nan"))),
     r"^linalg.svd: The algorithm failed to converge because the input matrix contained non-finite values.$"),
    (lambda: LA.svd(torch.ones(2, 2), driver="gesvd"),
     r"^torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with cuSOLVER backend.$"),
    (lambda: LA.qr(torch.ones(2, 2), mode="x"), r"^qr received unrecognized mode 'x' but expected one of 'reduced'"),
    (lambda: LA.lu_solve(*LA.lu_factor(torch.eye(2)), torch.ones(3, 1)),
     r"^linalg.lu_solve: Incompatible shapes of A and B for the equation AX = B \(2x2 and 3x1\)$"),
])
def test_errors_are_pytorchs(call, message):
    with pytest.raises(RuntimeError, match=message):
        call()


@pytest.mark.parametrize("call,error,message", [
    # PyTorch's order: the composite's float check, then its kernel's dispatch.
    (lambda d: LA.cholesky(torch.eye(2, dtype=d)), NotImplementedError, "\"cholesky_cpu\" not implemented for 'Half'"),
    (lambda d: LA.lu_factor(torch.eye(2, dtype=d)), NotImplementedError, "\"lu_cpu\" not implemented for 'Half'"),
    (lambda d: LA.det(torch.eye(2, dtype=d)), NotImplementedError, "\"lu_cpu\" not implemented for 'Half'"),
    (lambda d: LA.qr(torch.eye(2, dtype=d)), NotImplementedError, "\"geqrf_cpu\" not implemented for 'Half'"),
    (lambda d: LA.svd(torch.eye(2, dtype=d)), NotImplementedError, "\"linalg_svd_cpu\" not implemented for 'Half'"),
    (lambda d: LA.solve_triangular(torch.eye(2, dtype=d), torch.eye(2, dtype=d), upper=True), NotImplementedError,
     "\"triangular_solve_cpu\" not implemented for 'Half'"),
    (lambda d: torch.cholesky_solve(torch.eye(2, dtype=d), torch.eye(2, dtype=d)), NotImplementedError,
     "\"cholesky_solve_cpu\" not implemented for 'Half'"),
    (lambda d: torch.cholesky_inverse(torch.eye(2, dtype=d)), NotImplementedError,
     "\"cholesky_inverse_out_cpu\" not implemented for 'Half'"),
    (lambda d: LA.inv(torch.eye(2, dtype=d)), RuntimeError, "^linalg.inv: Low precision dtypes not supported. Got Half"),
    (lambda d: LA.slogdet(torch.eye(2, dtype=d)), RuntimeError, "^linalg.slogdet: Low precision dtypes not supported"),
    (lambda d: LA.cholesky(torch.eye(2, dtype=torch.int64)), RuntimeError,
     "^linalg.cholesky: Expected a floating point or complex tensor as input. Got Long"),
    (lambda d: LA.lu_factor(torch.eye(2, dtype=torch.int64)), NotImplementedError, "\"lu_cpu\" not implemented for 'Long'"),
])
def test_dtype_errors_are_pytorchs(call, error, message):
    with pytest.raises(error, match=message):
        call(torch.float16)


def test_cholesky_inverse_reads_only_the_named_triangle_and_returns_the_whole_inverse():
    L = torch.tensor([[2.0, float("nan")], [1.0, 3.0]], dtype=torch.float64)
    expected = torch.tensor(np.linalg.inv(np.array([[4.0, 2.0], [2.0, 10.0]])))
    assert torch.allclose(torch.cholesky_inverse(L), expected)
    assert torch.allclose(torch.cholesky_inverse(L.mT.contiguous(), upper=True), expected)
    batch = torch.stack([L.tril(), 2 * L.tril()]).mT  # non-contiguous, upper
    assert torch.allclose(torch.cholesky_inverse(batch, upper=True), torch.stack([expected, expected / 4]))
    # out= takes a wider dtype, as PyTorch's.
    out = torch.empty(0, dtype=torch.float64)
    assert torch.cholesky_inverse(L.float(), out=out) is out and out.shape == (2, 2)


def test_cholesky_inverse_gradient_is_pytorchs_over_the_whole_factor():
    # PyTorch 2.13's values: its formula -C (g + g^T) C L uses all of L, the
    # entries potri ignores too.
    x = torch.tensor([[2.0, 5.0], [1.0, 3.0]], dtype=torch.float64, requires_grad=True)
    torch.cholesky_inverse(x).sum().backward()
    assert torch.allclose(x.grad, torch.tensor([[-0.2222, -0.5679], [-0.0556, -0.1420]], dtype=torch.float64),
                          atol=1e-4)
    x.grad = None
    torch.cholesky_inverse(x, upper=True).pow(2).sum().backward()
    assert torch.allclose(x.grad, torch.tensor([[-1.9383, 0.5864], [-0.3656, 0.1104]], dtype=torch.float64),
                          atol=1e-4)


def test_cholesky_solve_gradient_is_pytorchs_over_the_whole_factor():
    # PyTorch 2.13's values: -(gB X^T + X gB^T) L over all of L, potrs reading only its triangle.
    L = torch.tensor([[2.0, 5, 5], [1, 3, 7], [1, 1, 1]], dtype=torch.float64, requires_grad=True)
    B = torch.tensor([[1.0, 2], [3, 4], [5, 6]], dtype=torch.float64, requires_grad=True)
    X = torch.cholesky_solve(B, L)
    assert torch.allclose(X, torch.linalg.solve(L.tril() @ L.tril().mT, B))
    (X * torch.tensor([[1.0, -2], [0.5, 3], [2, 1]], dtype=torch.float64)).sum().backward()
    assert torch.allclose(L.grad, torch.tensor([[0.6250, -9.7361, -15.7917], [-0.5000, -6.0417, -8.0417],
                                                [0.7500, 27.8889, 40.0000]], dtype=torch.float64), atol=1e-4)
    assert torch.allclose(B.grad, torch.tensor([[-0.25, -0.9444], [-0.5, 0.2222], [1.5, 0.6667]],
                                               dtype=torch.float64), atol=1e-4)


@pytest.mark.parametrize("a,b,solution", [
    ((4, 3), (4,), (3,)),  # a vector
    ((2, 4, 3), (2, 4), (2, 3)),  # a batch of vectors: B is A's shape without its last dim
    ((4, 1, 3), (4, 1), (4, 3)),
    ((4, 1, 3), (1, 1), (4, 3, 1)),  # one dim fewer but not A's shape: a matrix
    ((2, 1, 0), (1, 0), (2, 0, 0)),
])
def test_lstsq_vector_and_matrix_right_hand_sides_as_pytorch(a, b, solution):
    # PyTorch 2.13's shapes (linalg_solve_is_vector_rhs).
    r = torch.linalg.lstsq(torch.randn(*a), torch.randn(*b))
    assert r.solution.shape == solution


def test_lstsq_shape_errors_as_pytorch():
    with pytest.raises(RuntimeError, match=r"size of tensor a \(2\) must match the size of tensor b \(4\)"):
        torch.linalg.lstsq(torch.randn(2, 4, 3), torch.randn(4, 3))
    with pytest.raises(RuntimeError, match=r"input.size\(-2\) should match other.size\(-2\)"):
        torch.linalg.lstsq(torch.randn(2, 5, 4), torch.randn(1, 5))
    # B's batch broadcast to nothing: rank keeps A's batch shape, as PyTorch's.
    r = torch._C._linalg.linalg_lstsq(torch.zeros(1, 0, 3), torch.zeros(1, 1).expand(0, 3), None)
    assert r[0].shape == (0, 3, 3) and r[2].shape == (1,)


NON_FINITE_CALLS = """
import torch
A = torch.tensor([[float("-inf"), float("inf"), 1.0], [-1.4, 0.03, -1.6], [-1.9, 65504.0, -1e30]])
for dtype in (torch.float32, torch.float64):
    M = A.to(dtype)
    U, S, Vh = torch.linalg.svd(M)
    assert S.isnan().all() and U.isnan().all() and Vh.isnan().all()
    assert torch.linalg.pinv(M).isnan().all()
    for driver in ("gelsd", "gelss"):
        X = torch.linalg.lstsq(M, torch.ones(3, 2, dtype=dtype), driver=driver).solution
        assert X.isnan().all(), driver
    assert torch.linalg.svdvals(M).isnan().all()
    try:
        torch.linalg.svd(torch.tensor([[float("nan"), 1.0], [2.0, 3.0]], dtype=dtype))
        raise AssertionError("NaN accepted")
    except torch.linalg.LinAlgError as e:
        assert "contained non-finite values" in str(e)
print("done")
"""


def test_svd_based_routines_end_on_infinite_input():
    # scipy-openblas's gesdd (with vectors), gelsd and gelss never returned on a
    # matrix holding inf: a subprocess, so that a hang fails instead of stalling the suite.
    done = subprocess.run([sys.executable, "-c", NON_FINITE_CALLS], capture_output=True, text=True, timeout=120,
                          cwd=tempfile.gettempdir())
    assert done.returncode == 0 and done.stdout.strip() == "done", done.stderr


def test_singular_inputs_raise_linalg_error_except_lu_factor():
    for call in (lambda: LA.solve(torch.zeros(2, 2), torch.ones(2)), lambda: LA.inv(torch.zeros(2, 2)),
                 lambda: LA.cholesky(-torch.eye(2))):
        with pytest.raises(LA.LinAlgError):
            call()


@pytest.mark.parametrize("fn,make", [
    (lambda M: LA.svd(M, full_matrices=False).S, lambda: TALL),
    # Sign-invariant functions of the singular vectors, tall, wide and square, thin and full.
    (lambda M: (lambda r: (r.U @ r.U.mT, r.Vh.mT @ r.Vh, r.U * r.Vh.sum(-1).unsqueeze(-2)))(LA.svd(M, False)),
     lambda: TALL),
    (lambda M: (lambda r: (r.U[..., :3] * r.Vh[..., :3, :].sum(-1).unsqueeze(-2), r.S))(LA.svd(M, True)),
     lambda: TALL.T),
    (lambda M: (lambda r: r.U * r.Vh.sum(-1).unsqueeze(-2))(LA.svd(M)), lambda: A[0]),
    (lambda M: LA.qr(M), lambda: TALL), (lambda M: LA.qr(M), lambda: TALL.T), (lambda M: LA.qr(M), lambda: A[0]),
    (lambda M: LA.qr(M, mode="complete"), lambda: TALL.T),
    (lambda M: LA.lu_factor(M).LU, lambda: A[0]), (lambda M: LA.lu(M), lambda: A[1]),
    # Rectangular LU: the extra block of L (tall) or U (wide) passes its gradient through.
    (lambda M: LA.lu_factor(M).LU, lambda: TALL), (lambda M: LA.lu_factor(M).LU, lambda: TALL.T),
    (lambda M: LA.lu(M)[1:], lambda: TALL), (lambda M: LA.lu(M)[2], lambda: TALL.T),
    (lambda M: LA.lu(M)[1], lambda: TALL.T),
    (lambda M: LA.solve(M, t(B[0]).mT, left=False), lambda: A[0]),
    (lambda M: LA.cholesky(M + M.mT, upper=True), lambda: SPD[0]),
    (LA.inv, lambda: A[1]), (lambda M: LA.slogdet(M).logabsdet, lambda: A[2]),
    (lambda M: LA.solve_triangular(M.triu() + 3 * torch.eye(4, dtype=M.dtype), t(B[0]), upper=True), lambda: A[0]),
    (lambda M: LA.solve_triangular(M.tril(), t(B[0]).mT, upper=False, left=False, unitriangular=True),
     lambda: A[0]),
    (lambda M: LA.lu_solve(*LA.lu_factor(M), t(B[0])), lambda: A[0]),
    (lambda M: LA.lu_solve(*LA.lu_factor(M), t(B[0]).mT, left=False, adjoint=True), lambda: A[0]),
    # det of singular matrices: the cofactors come from the SVD.
    (LA.det, lambda: np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.5, -1.0, 2.0]])),
    (LA.det, lambda: np.stack([A[0], np.outer([1.0, 2, 3, 4], [1.0, 0, 1, 2])])),
])
def test_lapack_gradients_by_gradcheck(fn, make):
    assert torch.autograd.gradcheck(fn, (t(make()).requires_grad_(),))


def test_gradients_reach_b_and_the_node_names_are_pytorchs():
    Am, Bm = t(A[0]).requires_grad_(), t(B[0]).requires_grad_()
    assert torch.autograd.gradcheck(lambda a, b: LA.solve(a, b), (Am, Bm))
    assert torch.autograd.gradcheck(lambda b: LA.lu_solve(*LA.lu_factor(t(A[0])), b), (Bm,))
    assert LA.solve(Am, Bm).grad_fn.name() == "LinalgSolveExBackward0"
    assert LA.det(Am).grad_fn.name() == "LinalgDetBackward0"
    assert LA.svd(Am).S.grad_fn.name() == "LinalgSvdBackward0"
    assert LA.qr(Am).Q.grad_fn.name() == "LinalgQrBackward0"
    assert LA.cholesky(Am @ Am.mT).grad_fn.name() == "LinalgCholeskyExBackward0"
    with pytest.raises(RuntimeError, match="The derivative of linalg.qr depends on Q, which is not computed when "
                                           "mode='r'"):
        LA.qr(Am, mode="r").R.sum().backward()


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.int64, torch.bool])
def test_lu_unpack_takes_any_dtype_as_pytorch(dtype):
    P, L, U = torch.lu_unpack(torch.eye(3).to(dtype), torch.tensor([2, 2, 3], dtype=torch.int32))
    assert P.dtype == L.dtype == U.dtype == dtype
    assert P.to(torch.int64).tolist() == [[0, 1, 0], [1, 0, 0], [0, 0, 1]]


def test_lu_unpack_reads_the_pivots_only_when_it_unpacks_them():
    # PyTorch checks the pivots' dtype and size only with unpack_pivots=True.
    _, L, U = torch.lu_unpack(torch.eye(3), torch.tensor([1.0, 2.0]), True, False)
    assert L.tolist() == torch.eye(3).tolist() and U.tolist() == torch.eye(3).tolist()
    with pytest.raises(RuntimeError, match="LU_pivots is expected to be a contiguous tensor of torch.int32"):
        torch.lu_unpack(torch.eye(3), torch.tensor([1.0, 2.0]), True, True)


@pytest.mark.parametrize("lu_shape, pivots_shape", [((3, 4, 2), (1, 2)), ((3, 4, 2), (2,)), ((4, 2), (2, 2)),
                                                     ((4, 2), (1,)), ((2, 3, 3), (2, 2)), ((1, 1, 1), (0, 2))])
def test_lu_unpack_refuses_pivots_not_shaped_as_lu_factors(lu_shape, pivots_shape):
    # One pivot row per matrix, as lu_factor returns them. PyTorch does not
    # check: it permutes with the first row only and reads past a short one;
    # here the shape is refused before a pivot is read (a batch of 3 with
    # pivots for 1 read past the end of the pivots before).
    pivots = torch.ones(pivots_shape, dtype=torch.int32)
    with pytest.raises(RuntimeError, match=r"LU_pivots must have shape \["):
        torch.lu_unpack(torch.randn(lu_shape), pivots)
    _, L, U = torch.lu_unpack(torch.randn(lu_shape), pivots, True, False)  # pivots unread
    assert L.shape[:-2] == U.shape[:-2] == lu_shape[:-2]
    LU, piv = LA.lu_factor(torch.randn(lu_shape))
    P, L, U = torch.lu_unpack(LU, piv)
    assert P.shape == lu_shape[:-1] + (lu_shape[-2],)


def test_lu_solve_refuses_pivots_outside_the_matrix_as_pytorch():
    # getrs swaps row i with row pivots[i]: 9 in a 4x4 factor wrote past the
    # matrix (heap corruption, an abort at exit). PyTorch's checks, min first.
    LU, piv = LA.lu_factor(t(A))
    rhs = t(B)
    for bad, message in [(9, "smaller or equal to LU.size"), (0, "greater or equal to 1"), (-5, "greater or equal")]:
        for left in (True, False):
            pivots = piv.clone()
            pivots[1, 2] = bad
            with pytest.raises(RuntimeError, match=f"Pivots given to lu_solve must all be {message}"):
                LA.lu_solve(LU, pivots, rhs if left else rhs.mT, left=left)
    both = piv.clone()
    both[0, 0], both[2, 3] = 7, 0
    with pytest.raises(RuntimeError, match="greater or equal to 1"):
        LA.lu_solve(LU, both, rhs)
    assert LA.lu_solve(LU, both, rhs[..., :0]).shape == (3, 4, 0)  # no solve, no check (PyTorch's early return)
    P, L, U = torch.lu_unpack(LU, piv)
    assert torch.allclose(P @ L @ U @ LA.lu_solve(LU, piv, rhs), rhs)  # valid pivots still solve


@pytest.mark.parametrize("scale", [1e-3, 0.3, 1.0, 8.0, 60.0])
def test_matrix_exp_of_symmetric_matrices_against_their_eigenvalues(scale):
    # Every squaring count and the Taylor blocks (Paterson-Stockmeyer) of
    # the scaled matrix: exp(S) = V exp(w) V^T for symmetric S.
    rng = np.random.default_rng(int(scale * 1000))
    m = rng.standard_normal((3, 12, 12))
    s = (m + m.transpose(0, 2, 1)) * scale / 8
    w, v = np.linalg.eigh(s)
    want = v @ (np.exp(w)[..., None] * v.transpose(0, 2, 1))
    got = LA.matrix_exp(t(s)).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-11 * max(1.0, scale), atol=1e-13 * np.abs(want).max())
    x = t(s[0] / scale * 0.1).requires_grad_()
    assert torch.autograd.gradcheck(LA.matrix_exp, (x,))


WIDE = RNG.standard_normal((3, 5))
RANK_ONE = np.outer([1.0, 2, 3, 4], [1.0, -2, 0.5])


@pytest.mark.parametrize("driver", [None, "gels", "gelsy", "gelsd", "gelss", "GELSD"])
@pytest.mark.parametrize("a,b", [(TALL, TALL[:, :2] + 1), (TALL, TALL[:, 0] - 1), (WIDE, WIDE[:, :2]),
                                 (np.stack([TALL, 2 * TALL]), np.stack([TALL[:, :2], TALL[:, 1:]]))])
def test_lstsq_matches_numpy_for_every_driver(driver, a, b):
    """numpy.linalg.lstsq is gelsd: every driver finds the same minimum-norm
    solution for a full-rank A, tall or wide, batched or not, with one or
    several right-hand sides."""
    result = LA.lstsq(t(a), t(b), driver=driver)
    if a.ndim == 2:
        expected, residuals, rank, sv = np.linalg.lstsq(a, b, rcond=None)
    else:
        expected = np.stack([np.linalg.lstsq(x, y, rcond=None)[0] for x, y in zip(a, b)])
    np.testing.assert_allclose(result.solution.numpy(), expected, rtol=1e-9, atol=1e-9)
    name = (driver or "gelsy").lower()
    m, n = a.shape[-2:]
    # PyTorch's rules for the other three results.
    assert (result.rank.numel() == 0) == (name == "gels")
    if name != "gels":
        assert result.rank.dtype == torch.int64 and (result.rank == min(m, n)).all()
    assert (result.singular_values.numel() > 0) == (name in ("gelsd", "gelss"))
    if name in ("gelsd", "gelss") and a.ndim == 2:
        np.testing.assert_allclose(result.singular_values.numpy(), sv, rtol=1e-9)
    if m > n and name != "gelsy":
        r = (t(a) @ result.solution.unsqueeze(-1) - t(b).unsqueeze(-1)) if b.ndim == a.ndim - 1 else \
            t(a) @ result.solution - t(b)
        np.testing.assert_allclose(result.residuals.numpy(), (r ** 2).sum(-2).numpy(), rtol=1e-8, atol=1e-12)
    else:
        assert result.residuals.shape == (0,)


def test_lstsq_of_a_rank_deficient_matrix_is_the_minimum_norm_solution():
    b = RNG.standard_normal((4, 2))
    for driver in ("gelsy", "gelsd", "gelss"):
        result = LA.lstsq(t(RANK_ONE), t(b), driver=driver)
        np.testing.assert_allclose(result.solution.numpy(), np.linalg.pinv(RANK_ONE) @ b, rtol=1e-8, atol=1e-10)
        assert result.rank.item() == 1 and result.residuals.shape == (0,)
    # rcond decides the rank: above the ratio of the singular values, one is dropped.
    assert LA.lstsq(t(TALL), t(TALL[:, 0]), rcond=0.99, driver="gelsd").rank.item() == 1


def test_lstsq_broadcasts_batches_and_reports_rank_and_singular_values_per_matrix_of_a():
    a, b = torch.randn(2, 1, 4, 3, dtype=torch.float64), torch.randn(1, 5, 4, 2, dtype=torch.float64)
    result = LA.lstsq(a, b, driver="gelsd")
    assert result.solution.shape == (2, 5, 3, 2) and result.residuals.shape == (2, 5, 2)
    assert result.rank.shape == (2, 1) and result.singular_values.shape == (2, 1, 3)  # A's batch shape, as PyTorch
    expected = torch.linalg.pinv(a) @ b
    assert torch.allclose(result.solution, expected)


def test_lstsq_of_empty_matrices():
    assert LA.lstsq(torch.zeros(0, 2), torch.zeros(0, 4)).solution.tolist() == [[0.0] * 4] * 2
    assert LA.lstsq(torch.zeros(3, 0), torch.zeros(3, 4)).solution.shape == (0, 4)
    assert LA.lstsq(torch.zeros(0, 3, 2), torch.zeros(0, 3, 4)).solution.shape == (0, 2, 4)


@pytest.mark.parametrize("args,kwargs,error,message", [
    ((torch.ones(3), torch.ones(3)), {}, RuntimeError, "input must have at least 2 dimensions"),
    ((torch.ones(3, 2), torch.ones(3, 2, dtype=torch.float64)), {}, RuntimeError,
     "Expected input and other to have the same dtype, but got input's dtype Float and other's dtype Double"),
    ((torch.ones(3, 2), torch.ones(4)), {}, RuntimeError, r"input.size\(-2\) should match other.size\(-1\)"),
    ((torch.ones(3, 2), torch.ones(4, 2)), {}, RuntimeError, r"input.size\(-2\) should match other.size\(-2\)"),
    ((torch.ones(3, 2), torch.ones(2, 3, 2)), {}, RuntimeError, "input.dim\\(\\) must be greater or equal"),
    ((torch.ones(3, 2, dtype=torch.int64), torch.ones(3, 2, dtype=torch.int64)), {}, RuntimeError,
     "This function doesn't handle types other than float and double"),
    ((torch.ones(2, 1, dtype=torch.int32), torch.ones(2, 1, dtype=torch.int32)), {"rcond": 0.0}, NotImplementedError,
     "\"linalg_lstsq_cpu\" not implemented for 'Int'"),
    ((torch.ones(3, 2), torch.ones(3, 2)), {"driver": "foo"}, RuntimeError,
     r"parameter `driver` should be one of \(gels, gelsy, gelsd, gelss\)"),
    ((torch.tensor([[1.0, 0], [2, 0], [3, 0]], dtype=torch.float64), torch.ones(3, 1, dtype=torch.float64)),
     {"driver": "gels"}, torch.linalg.LinAlgError, r"does not have full rank \(error code: 2\)"),
])
def test_lstsq_errors_are_pytorchs(args, kwargs, error, message):
    with pytest.raises(error, match=message):
        LA.lstsq(*args, **kwargs)


@pytest.mark.parametrize("a,b", [(TALL, TALL[:, :2] + 1), (WIDE, WIDE[:, 0]), (np.stack([TALL, -TALL]), TALL[None, :, :2])])
def test_lstsq_gradient_by_gradcheck_through_pinv(a, b):
    x, y = t(a).requires_grad_(), t(b).requires_grad_()
    assert torch.autograd.gradcheck(lambda p, q: LA.lstsq(p, q).solution, (x, y))
    assert LA.lstsq(x, y).solution.grad_fn.name() == "LinalgLstsqBackward0"


@pytest.mark.parametrize("b", [TALL[:, :2] + 1, TALL[:, 0] - 2])
def test_lstsq_residuals_are_differentiable_as_in_pytorch(b):
    """||A X - B||^2 per column, stationary in X: its gradient is 2 R X^T for A
    and -2 R for B (R = A X - B), PyTorch's, for matrix and vector B."""
    x, y = t(TALL).requires_grad_(), t(b).requires_grad_()
    result = LA.lstsq(x, y, driver="gels")
    assert result.residuals.grad_fn.name() == "LinalgLstsqBackward0" and result.rank.grad_fn is None
    assert torch.autograd.gradcheck(lambda p, q: LA.lstsq(p, q, driver="gels").residuals, (x, y))
    assert torch.autograd.gradcheck(lambda p, q: LA.lstsq(p, q, driver="gelsd"), (x, y))


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_reports_the_first_nan_pivot_as_lapack_does(upper):
    # OpenBLAS's potrf carries a NaN pivot on; reference LAPACK (and PyTorch's
    # MKL) stop there with info = its order. A NaN reaching the diagonal later
    # (from an off-diagonal entry) counts at the column it reaches.
    nan = float("nan")
    cases = [([[nan]], 1), ([[4.0, 1.0], [1.0, nan]], 2), ([[4.0, nan], [nan, 3.0]], 2),
             ([[nan, 0.0], [0.0, 1.0]], 1), ([[4.0, 2.0, 0.0], [2.0, 5.0, nan], [0.0, nan, 9.0]], 3)]
    for matrix, order in cases:
        for dtype in (torch.float32, torch.float64):
            A = torch.tensor(matrix, dtype=dtype)
            assert LA.cholesky_ex(A, upper=upper).info.item() == order, matrix
            with pytest.raises(torch.linalg.LinAlgError, match=f"leading minor of order {order} is not"):
                LA.cholesky(A, upper=upper)
    batch = torch.tensor(SPD)  # three matrices
    batch[1, 2, 2] = nan
    assert LA.cholesky_ex(batch).info.tolist() == [0, 3, 0]
    with pytest.raises(torch.linalg.LinAlgError, match=r"\(Batch element 1\)"):
        LA.cholesky(batch)
