"""torch.linalg: vector and matrix norms, as PyTorch's.

vector_norm is the op of native_functions.yaml (linalg_vector_norm, bound in
torch._C._linalg); matrix_norm and norm are built from it, amax and amin as
PyTorch's composite versions are. The spectral (ord=±2) and nuclear ('nuc')
matrix norms need singular values, which this build does not compute: they
raise NotImplementedError.
"""
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
    if ord in (2, -2, "nuc"):
        raise NotImplementedError(f"linalg.matrix_norm: ord={ord!r} needs singular values, which this build does "
                                  "not compute (supported: 'fro', 1, -1, inf, -inf)")
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
    if abs(ord) == float("inf"):  # the 1-norm of the transpose
        d0, d1 = d1, d0
    if not keepdim and d0 < d1:
        d1 -= 1
    sums = vector_norm(A, 1.0, [d0], keepdim, dtype=dtype)
    result = sums.amax(d1, keepdim) if ord > 0 else sums.amin(d1, keepdim)
    if out is not None:
        return out.resize_(result.shape).copy_(result)
    return result


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
