"""torch.linalg's solves and factorisations (torch/linalg/_decompositions.py)
against numpy.linalg, their gradients by gradcheck, and their errors."""
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
    (LA.cholesky, lambda: SPD[0]), (lambda M: LA.slogdet(M)[1], lambda: A[0]), (lambda M: LA.qr(M).R, lambda: TALL),
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
    with pytest.raises(RuntimeError, match="Expected a floating point or complex tensor as input. Got torch.int64"):
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

