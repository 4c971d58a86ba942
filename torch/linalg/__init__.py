"""torch.linalg: vector and matrix norms, as PyTorch's.

vector_norm is the op of native_functions.yaml (linalg_vector_norm, bound in
torch._C._linalg); matrix_norm and norm are built from it, amax and amin as
PyTorch's composite versions are. The spectral (ord=±2) and nuclear ('nuc')
matrix norms reduce the singular values of svdvals (_decompositions.py).
"""
import math

import torch
from torch import _C

__all__ = ["matrix_norm", "norm", "vector_norm"]


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    """The ord-norm of x over dim (every element by default)."""
    if isinstance(dim, int):
        dim = [dim]
    if out is not None:
        return _C._linalg.linalg_vector_norm(x, ord, dim, keepdim, dtype=dtype, out=out)
    return _C._linalg.linalg_vector_norm(x, ord, dim, keepdim, dtype=dtype)


def _check_matrix_norm(A, ord, dim):
    if A.dim() < 2:
        raise RuntimeError(f"linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    if not A.is_floating_point():
        raise RuntimeError(f"linalg.matrix_norm: Expected a floating point or complex tensor as input. Got {A.dtype}")
    dim = list(dim)
    if len(dim) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(str(d) for d in dim)}")
    wrapped = []
    for d in dim:
        if not -A.dim() <= d < A.dim():
            raise IndexError(f"Dimension out of range (expected to be in range of [{-A.dim()}, {A.dim() - 1}], "
                             f"but got {d})")
        wrapped.append(d % A.dim())
    if wrapped[0] == wrapped[1]:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({wrapped[0]}, {wrapped[1]})")
    return wrapped


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    """'fro', or the largest (ord > 0) or smallest (ord < 0) column (±1) or row (±inf) sum of |A|."""
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    elif abs(ord) not in (1, 2, float("inf")):
        raise RuntimeError(f"linalg.matrix_norm: Order {float(ord)} not supported.")
    d0, d1 = _check_matrix_norm(A, ord, dim)
    if ord == "fro":
        return vector_norm(A, 2, [d0, d1], keepdim, dtype=dtype, out=out)
    if ord in (2, -2, "nuc"):
        return _singular_value_norm(A, ord, d0, d1, keepdim, dtype, out)
    if abs(ord) == float("inf"):  # the 1-norm of the transpose
        d0, d1 = d1, d0
    if not keepdim and d0 < d1:
        d1 -= 1
    sums = vector_norm(A, 1.0, [d0], keepdim, dtype=dtype)
    result = sums.amax(d1, keepdim) if ord > 0 else sums.amin(d1, keepdim)
    if out is not None:
        return out.resize_(result.shape).copy_(result)
    return result


def _singular_value_norm(A, ord, d0, d1, keepdim, dtype, out):
    """The largest (2) or smallest (-2) singular value, or their sum ('nuc'),
    of the matrices spanning dims d0 and d1."""
    B = A.movedim((d0, d1), (-2, -1))
    if dtype is not None:
        B = B.to(dtype)
    if ord == -2 and 0 in B.shape[-2:]:
        raise IndexError("amin(): Expected reduction dim -1 to have non-zero size.")
    if 0 in B.shape[-2:]:  # no singular values: PyTorch's 2-norm and nuclear norm are 0
        result = B.new_zeros(B.shape[:-2])
    else:
        S = svdvals(B)
        result = S.sum(-1) if ord == "nuc" else S.amax(-1) if ord == 2 else S.amin(-1)
    if keepdim:
        for d in sorted((d0, d1)):
            result = result.unsqueeze(d)
    return out.resize_(result.shape).copy_(result) if out is not None else result


def norm(A, ord=None, dim=None, keepdim=False, *, out=None, dtype=None):
    """vector_norm or matrix_norm, chosen as PyTorch chooses: a string ord, or
    ord with two dims (or a 2-D input and no dim), is a matrix norm."""
    if isinstance(dim, int):
        dim = [dim]
    if dim is not None and len(dim) not in (1, 2):
        raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {list(dim)}")
    if dim is None and ord is not None and A.dim() not in (1, 2):
        raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. "
                           f"Got {A.dim()}D.")
    if isinstance(ord, str) or (ord is not None and (dim is not None and len(dim) == 2 or dim is None and A.dim() == 2)):
        return matrix_norm(A, ord, (0, 1) if dim is None else dim, keepdim, dtype=dtype, out=out)
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype, out=out)


# ---- solves, factorisations and products (torch/linalg/_decompositions.py) ----
from torch.linalg._decompositions import (  # noqa: E402
    LinAlgError, cholesky, cholesky_ex, det, eigh, eigvalsh, inv, inv_ex, lu, lu_factor, lu_factor_ex, lu_solve, qr,
    slogdet, solve, solve_ex, solve_triangular, svd, svdvals,
)


def matmul(input, other, *, out=None):
    return torch.matmul(input, other, out=out) if out is not None else torch.matmul(input, other)


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    return torch.diagonal(A, offset, dim1, dim2)


def vecdot(x, y, *, dim=-1, out=None):
    result = (x * y).sum(dim)
    return out.resize_(result.shape).copy_(result) if out is not None else result


def cross(input, other, *, dim=-1, out=None):
    if input.shape[dim] != 3 or other.shape[dim] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got {input.shape[dim]} and "
                           f"{other.shape[dim]}")
    a, b = torch.broadcast_tensors(input, other)
    a0, a1, a2 = a.unbind(dim)
    b0, b1, b2 = b.unbind(dim)
    result = torch.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], dim)
    return out.resize_(result.shape).copy_(result) if out is not None else result


def matrix_power(A, n, *, out=None):
    if A.dim() < 2 or A.shape[-1] != A.shape[-2]:
        raise RuntimeError("linalg.matrix_power: A must be batches of square matrices, but they are "
                           f"{A.shape[-2] if A.dim() > 1 else 1} by {A.shape[-1]} matrices")
    if n < 0:
        A, n = inv(A), -n
    result = torch.eye(A.shape[-1], dtype=A.dtype, device=A.device).expand(A.shape).clone() if n == 0 else None
    base = A
    while n:
        if n & 1:
            result = base if result is None else result @ base
        n >>= 1
        if n:
            base = base @ base
    return out.resize_(result.shape).copy_(result) if out is not None else result


def multi_dot(tensors, *, out=None):
    if len(tensors) < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {len(tensors)}")
    first_vector, last_vector = tensors[0].dim() == 1, tensors[-1].dim() == 1
    mats = list(tensors)
    if first_vector:
        mats[0] = mats[0].unsqueeze(0)
    if last_vector:
        mats[-1] = mats[-1].unsqueeze(-1)
    result = mats[0]
    for m in mats[1:]:
        result = result @ m
    if first_vector:
        result = result.squeeze(0)
    if last_vector:
        result = result.squeeze(-1)
    return out.resize_(result.shape).copy_(result) if out is not None else result


def matrix_exp(A):
    """Scaling and squaring with a degree-18 Taylor series in the scaled
    matrix, evaluated by Paterson and Stockmeyer's scheme: X^2, X^3, X^4,
    then Horner's rule in X^4 over blocks of four terms (7 products where
    term by term takes 18)."""
    norm = A.abs().sum(-2).amax(-1).max() if A.numel() else torch.tensor(0.0)
    squarings = max(0, int(torch.ceil(torch.log2(norm.clamp(min=1e-300)))) + 1) if float(norm) > 0.5 else 0
    X = A / (2 ** squarings)
    eye = torch.eye(A.shape[-1], dtype=A.dtype, device=A.device).expand(A.shape)
    X2 = X @ X
    powers = (eye, X, X2, X2 @ X)
    X4 = X2 @ X2
    coefficients = [1 / math.factorial(k) for k in range(19)]

    def block(j):  # sum over i of coefficients[4j + i] X^i
        terms = [coefficients[4 * j + i] * powers[i] for i in range(4) if 4 * j + i <= 18]
        return sum(terms[1:], terms[0])

    total = block(4)
    for j in (3, 2, 1, 0):
        total = total @ X4 + block(j)
    for _ in range(squarings):
        total = total @ total
    return total


def vander(x, *, N=None):
    if x.dim() < 1:
        raise RuntimeError("x must be at least 1-dimensional.")
    n = x.shape[-1] if N is None else N
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    from torch._math_ops import _powers
    return _powers(x, n)


def tensorinv(A, ind=2, *, out=None):
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    rows, cols = A.shape[:ind], A.shape[ind:]
    result = inv(A.reshape(int(torch.tensor(rows).prod()) if rows else 1, -1)).reshape(tuple(cols) + tuple(rows))
    return out.resize_(result.shape).copy_(result) if out is not None else result


def tensorsolve(A, B, dims=None, *, out=None):
    if dims is not None:
        A = A.movedim(list(dims), list(range(A.dim() - len(dims), A.dim())))
    result_shape = A.shape[B.dim():]
    n = 1
    for s in result_shape:
        n *= s
    result = solve(A.reshape(-1, n), B.reshape(-1)).reshape(result_shape)
    return out.resize_(result.shape).copy_(result) if out is not None else result


def pinv(A, *, atol=None, rtol=None, hermitian=False, out=None):
    U, S, Vh = svd(A, full_matrices=False)
    if rtol is None and atol is None:
        rtol = torch.finfo(A.dtype).eps * max(A.shape[-2:])
    cutoff = S.amax(-1, keepdim=True) * (rtol or 0)
    if atol is not None:
        cutoff = torch.maximum(cutoff, torch.as_tensor(atol, dtype=A.dtype))
    inv_s = torch.where(S > cutoff, 1 / torch.where(S > 0, S, torch.ones_like(S)), torch.zeros_like(S))
    result = (Vh.mT * inv_s.unsqueeze(-2)) @ U.mT
    return out.resize_(result.shape).copy_(result) if out is not None else result


def matrix_rank(A, *, atol=None, rtol=None, hermitian=False, out=None):
    S = svdvals(A)
    if rtol is None and atol is None:
        rtol = torch.finfo(A.dtype).eps * max(A.shape[-2:])
    cutoff = S.amax(-1, keepdim=True) * (rtol or 0)
    if atol is not None:
        cutoff = torch.maximum(cutoff, torch.as_tensor(atol, dtype=A.dtype))
    result = (S > cutoff).sum(-1)
    return out.resize_(result.shape).copy_(result) if out is not None else result


def lstsq(A, B, rcond=None, *, driver=None):
    """Least squares on LAPACK (native/BatchLinearAlgebra.cpp): gelsy by default, or gels, gelsd, gelss."""
    return _lstsq_result()(*_C._linalg.linalg_lstsq(A, B, rcond, driver=driver))


def _lstsq_result():
    from torch.linalg._decompositions import _named
    return _named("lstsq", ("solution", "residuals", "rank", "singular_values"))


def cond(A, p=None, *, out=None):
    """The condition number in the p-norm: the ratio of extreme singular values
    for p in (None, 2, -2), else norm(A, p) * norm(inv(A), p), inf where A is
    singular, as PyTorch gives it."""
    if A.dim() < 2:
        raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
    if not (p is None or p in ("fro", "nuc") or (not isinstance(p, str) and p in (1, -1, 2, -2, float("inf"),
                                                                                   float("-inf")))):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    m, n = A.shape[-2:]
    if p is None or p in (2, -2):
        if m == 0 or n == 0:
            result = A.new_zeros(A.shape[:-2])
        else:
            S = svdvals(A)
            result = S[..., 0] / S[..., -1] if p in (None, 2) else S[..., -1] / S[..., 0]
    else:
        if m != n:
            raise RuntimeError(f"linalg.cond(ord={p}): A must be batches of square matrices, but they are {m} by "
                               f"{n} matrices")
        if n == 0:
            result = A.new_zeros(A.shape[:-2])
        else:
            inverse, info = inv_ex(A)
            inverse = inverse.masked_fill((info > 0)[..., None, None], float("inf"))
            # 0 * inf is NaN: PyTorch (and NumPy) call a singular matrix's condition number inf.
            result = (matrix_norm(A, p) * matrix_norm(inverse, p)).nan_to_num(float("inf"), float("inf"),
                                                                                float("-inf"))
    return out.resize_(result.shape).copy_(result) if out is not None else result


__all__ += ["LinAlgError", "cholesky", "cholesky_ex", "cond", "cross", "det", "diagonal", "eigh", "eigvalsh", "inv",
            "inv_ex", "lstsq", "lu", "lu_factor", "lu_factor_ex", "lu_solve", "matmul", "matrix_exp", "matrix_power",
            "matrix_rank", "multi_dot", "pinv", "qr", "slogdet", "solve", "solve_ex", "solve_triangular", "svd",
            "svdvals", "tensorinv", "tensorsolve", "vander", "vecdot"]
