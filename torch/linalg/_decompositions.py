"""Matrix factorisations and solves: the public torch.linalg functions over
the native ops of native_functions.yaml (LAPACK: getrf/getrs, potrf,
geqrf/orgqr, gesdd, syevd and BLAS trsm, in native/BatchLinearAlgebra.cpp,
with PyTorch's backward formulas in derivatives.yaml). This layer does what
PyTorch's composite functions do: broadcast the batch dims of A and B,
treat a vector B as one column, decide which optional results a gradient
needs, fill out=, and name the function the user called in its errors."""
import collections
import functools

import torch
from torch import _C


@functools.lru_cache(maxsize=None)
def _named(name, fields):
    """PyTorch's named result tuples (torch.return_types.linalg_<name>)."""
    cls = collections.namedtuple(f"linalg_{name}", fields)
    cls.__module__ = "torch.return_types"
    return cls


# torch.linalg.LinAlgError: the binding's torch._C._LinAlgError, which the
# native ops raise (c10::LinAlgError), a RuntimeError as in PyTorch.
LinAlgError = torch._C._LinAlgError


def _checked(call, ex_name, name):
    """Runs an _ex op with check_errors=True, its errors named after the
    function the user called (PyTorch names linalg.inv's, not inv_ex's)."""
    try:
        return call()
    except RuntimeError as e:
        message = str(e)
        if not message.startswith(ex_name + ":"):
            raise
        raise type(e)(name + message[len(ex_name):]) from None


def _needs_grad(*tensors):
    return torch.is_grad_enabled() and any(t.requires_grad for t in tensors)


def _broadcast_batch(A, B):
    batch = torch.broadcast_shapes(A.shape[:-2], B.shape[:-2])
    return A.expand(batch + A.shape[-2:]), B.expand(batch + B.shape[-2:])


def cholesky_ex(A, *, upper=False, check_errors=False, out=None):
    L, info = _C._linalg.linalg_cholesky_ex(A, upper=upper, check_errors=check_errors)
    return _ret(_named("cholesky_ex", ("L", "info"))(L, info), out)


def cholesky(A, *, upper=False, out=None):
    L, _ = _checked(lambda: _C._linalg.linalg_cholesky_ex(A, upper=upper, check_errors=True),
                    "linalg.cholesky_ex", "linalg.cholesky")
    return _ret(L, out)


def solve_triangular(A, B, *, upper, left=True, unitriangular=False, out=None):
    """X with A X = B (left) or X A = B, A triangular (BLAS trsm). The native
    op checks, broadcasts the batch dims and computes in A's dtype, as PyTorch's."""
    X = _C._linalg.linalg_solve_triangular(A, B, upper=upper, left=left, unitriangular=unitriangular)
    return _ret(X, out)


def lu_factor_ex(A, *, pivot=True, check_errors=False, out=None):
    LU, pivots, info = _C._linalg.linalg_lu_factor_ex(A, pivot=pivot, check_errors=check_errors)
    return _ret(_named("lu_factor_ex", ("LU", "pivots", "info"))(LU, pivots, info), out)


def lu_factor(A, *, pivot=True, out=None):
    LU, pivots, _ = _checked(lambda: _C._linalg.linalg_lu_factor_ex(A, pivot=pivot, check_errors=True),
                             "torch.linalg.lu_factor_ex", "torch.linalg.lu_factor")
    return _ret(_named("lu_factor", ("LU", "pivots"))(LU, pivots), out)


def lu(A, *, pivot=True, out=None):
    """A = P L U: the factors of lu_factor, unpacked (torch.lu_unpack)."""
    LU, pivots, _ = _C._linalg.linalg_lu_factor_ex(A, pivot=pivot)
    P, L, U = torch.lu_unpack(LU, pivots)
    return _ret(_named("lu", ("P", "L", "U"))(P, L, U), out)


def lu_solve(LU, pivots, B, *, left=True, adjoint=False, out=None):
    # The native op checks in PyTorch's order, then broadcasts B's batch dims with LU's.
    return _ret(_C._linalg.linalg_lu_solve(LU, pivots, B, left=left, adjoint=adjoint), out)


def det(A, *, out=None):
    return _ret(torch._linalg_det(A)[0], out)


def slogdet(A, *, out=None):
    sign, logabsdet, _, _ = torch._linalg_slogdet(A)
    return _ret(_named("slogdet", ("sign", "logabsdet"))(sign, logabsdet), out)


def _solve(A, B, left, check_errors):
    """(X, info), B a vector when it is one (PyTorch's rule) and batches broadcast."""
    if A.dim() < 2:
        raise RuntimeError("linalg.solve: The input tensor A must have at least 2 dimensions.")
    vector = B.dim() == 1 or (B.dim() == A.dim() - 1 and B.shape == A.shape[:-1])
    Bm = (B.unsqueeze(-1) if left else B.unsqueeze(-2)) if vector else B
    A_, Bm = _broadcast_batch(A, Bm)
    X, _, _, info = torch._linalg_solve_ex(A_, Bm, left=left, check_errors=check_errors)
    return (X.squeeze(-1) if left else X.squeeze(-2)) if vector else X, info


def solve_ex(A, B, *, left=True, check_errors=False, out=None):
    X, info = _solve(A, B, left, check_errors)
    return _ret(_named("solve_ex", ("result", "info"))(X, info), out)


def solve(A, B, *, left=True, out=None):
    X, _ = _checked(lambda: _solve(A, B, left, True), "torch.linalg.solve_ex", "torch.linalg.solve")
    return _ret(X, out)


def inv_ex(A, *, check_errors=False, out=None):
    inverse, info = _C._linalg.linalg_inv_ex(A, check_errors=check_errors)
    return _ret(_named("inv_ex", ("inverse", "info"))(inverse, info), out)


def inv(A, *, out=None):
    inverse, _ = _checked(lambda: _C._linalg.linalg_inv_ex(A, check_errors=True), "linalg.inv_ex", "linalg.inv")
    return _ret(inverse, out)


def qr(A, mode="reduced", *, out=None):
    """Householder QR (geqrf, orgqr): LAPACK's signs, as PyTorch's."""
    Q, R = _C._linalg.linalg_qr(A, mode)
    return _ret(_named("qr", ("Q", "R"))(Q, R), out)


def eigh(A, UPLO="L", *, out=None):
    """Eigenvalues (ascending) and orthonormal eigenvectors of symmetric matrices, from the UPLO triangle."""
    values, vectors = torch._linalg_eigh(A, UPLO)
    return _ret(_named("eigh", ("eigenvalues", "eigenvectors"))(values, vectors), out)


def eigvalsh(A, UPLO="L", *, out=None):
    # The eigenvectors only when a gradient will need them, as PyTorch decides.
    return _ret(torch._linalg_eigh(A, UPLO, _needs_grad(A))[0], out)


def svd(A, full_matrices=True, *, driver=None, out=None):
    """Divide-and-conquer SVD (gesdd): U, S descending, Vh."""
    U, S, Vh = torch._linalg_svd(A, full_matrices, True, driver=driver)
    return _ret(_named("svd", ("U", "S", "Vh"))(U, S, Vh), out)


def svdvals(A, *, driver=None, out=None):
    # The singular vectors only when a gradient will need them.
    return _ret(torch._linalg_svd(A, False, _needs_grad(A), driver=driver)[1], out)


def _ret(result, out):
    if out is None:
        return result
    if isinstance(result, tuple):
        for o, r in zip(out, result):
            o.resize_(r.shape).copy_(r)
        return out
    return out.resize_(result.shape).copy_(result)
