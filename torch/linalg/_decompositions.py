"""Matrix factorisations and solves.

eigh and eigvalsh call the native op _linalg_eigh (LAPACK's syevd, with
PyTorch's backward formula in derivatives.yaml). The others are still
written over tensor ops, batched over leading dims: a loop over the matrix
size n whose steps are vector ops, so autograd differentiates them and they
run on any device (Cholesky-Banachiewicz, LU with partial pivoting,
substitution, modified Gram-Schmidt with reorthogonalisation, one-sided
Jacobi for the SVD); issue "the whole API at native speed" moves them onto
LAPACK too."""
import collections
import functools

import torch


@functools.lru_cache(maxsize=None)
def _named(name, fields):
    """PyTorch's named result tuples (torch.return_types.linalg_<name>)."""
    cls = collections.namedtuple(f"linalg_{name}", fields)
    cls.__module__ = "torch.return_types"
    return cls


# torch.linalg.LinAlgError: the binding's torch._C._LinAlgError, which the
# native ops raise (c10::LinAlgError), a RuntimeError as in PyTorch.
LinAlgError = torch._C._LinAlgError


def _check_square(A, name):
    if A.dim() < 2:
        raise RuntimeError(f"linalg.{name}: The input tensor A must have at least 2 dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"linalg.{name}: A must be batches of square matrices, but they are {A.shape[-2]} by "
                           f"{A.shape[-1]} matrices")
    if not A.is_floating_point():
        raise RuntimeError(f"linalg.{name}: Expected a floating point or complex tensor as input. Got {A.dtype}")


def _cholesky_columns(A):
    """Columns of L and the first failing order (0 if none), for each batch entry."""
    n = A.shape[-1]
    A = (A + A.mT) / 2  # symmetric: the gradient comes out symmetric, as PyTorch's
    columns = []
    info = torch.zeros(A.shape[:-2], dtype=torch.int32, device=A.device)
    for j in range(n):
        previous = torch.stack(columns, -1) if columns else None  # (..., n, j)
        s = A[..., j:, j]
        if previous is not None:
            s = s - (previous[..., j:, :] * previous[..., j:j + 1, :]).sum(-1)
        pivot = s[..., 0]
        bad = ~(pivot > 0)
        first_failure = (info == 0) & bad
        info = torch.where(first_failure, torch.full_like(info, j + 1), info)
        root = pivot.clamp(min=torch.finfo(A.dtype).tiny).sqrt()
        # Where it fails, the diagonal keeps the unrooted pivot, as LAPACK's potrf leaves it.
        diagonal = torch.where(first_failure, pivot, root)
        column = torch.cat([torch.zeros(A.shape[:-2] + (j,), dtype=A.dtype, device=A.device),
                            diagonal.unsqueeze(-1), s[..., 1:] / root.unsqueeze(-1)], -1)
        columns.append(column)
    return torch.stack(columns, -1), info


def cholesky_ex(A, *, upper=False, check_errors=False, out=None):
    _check_square(A, "cholesky")
    L, info = _cholesky_columns(A)
    if check_errors and bool((info != 0).any()):
        _raise_not_positive_definite(info)
    L = L.mT if upper else L
    return _ret(_named("cholesky_ex", ("L", "info"))(L, info), out)


def _raise_not_positive_definite(info):
    flat = info.reshape(-1)
    order = int(flat[flat != 0][0])
    raise LinAlgError(f"linalg.cholesky: The factorization could not be completed because the input is not "
                      f"positive-definite (the leading minor of order {order} is not positive-definite).")


def cholesky(A, *, upper=False, out=None):
    _check_square(A, "cholesky")
    L, info = _cholesky_columns(A)
    if bool((info != 0).any()):
        _raise_not_positive_definite(info)
    return _ret(L.mT if upper else L, out)


def solve_triangular(A, B, *, upper, left=True, unitriangular=False, out=None):
    """X with A X = B (left) or X A = B, A triangular, by substitution row by row."""
    if not left:
        return _ret(solve_triangular(A.mT, B.mT, upper=not upper, left=True, unitriangular=unitriangular).mT, out)
    n = A.shape[-1]
    A, B = _broadcast_batch(A, B)
    rows = [None] * n
    order = range(n - 1, -1, -1) if upper else range(n)
    for i in order:
        acc = B[..., i, :]
        done = [k for k in (range(i + 1, n) if upper else range(i))]
        for k in done:
            acc = acc - A[..., i, k:k + 1] * rows[k]
        rows[i] = acc if unitriangular else acc / A[..., i, i:i + 1]
    return _ret(torch.stack(rows, -2), out)


def _broadcast_batch(A, B):
    batch = torch.broadcast_shapes(A.shape[:-2], B.shape[:-2])
    return A.expand(batch + A.shape[-2:]), B.expand(batch + B.shape[-2:])


def _lu(A):
    """P A = L U by partial pivoting: (rows of LU in pivoted order, permutation, sign, singular flag)."""
    n = A.shape[-1]
    batch = A.shape[:-2]
    perm = torch.arange(n, device=A.device).expand(batch + (n,)).clone()
    sign = torch.ones(batch, dtype=A.dtype, device=A.device)
    U = A
    L_cols = []
    for k in range(n):
        # Pivot: the largest |U[i, k]| for i >= k, brought to row k.
        pivot = U[..., k:, k].abs().argmax(-1) + k
        swap = torch.arange(n, device=A.device).expand(batch + (n,)).clone()
        ar = torch.arange(n, device=A.device)
        is_k = ar == k
        is_p = ar == pivot.unsqueeze(-1)
        swap = torch.where(is_k, pivot.unsqueeze(-1), torch.where(is_p, torch.full_like(swap, k), swap))
        U = U.gather(-2, swap.unsqueeze(-1).expand(U.shape))
        perm = perm.gather(-1, swap)
        L_cols = [c.gather(-1, swap) for c in L_cols]
        sign = torch.where(pivot != k, -sign, sign)
        head = U[..., k, k]
        safe = torch.where(head == 0, torch.ones_like(head), head)
        factors = torch.where(ar > k, U[..., :, k] / safe.unsqueeze(-1), torch.zeros_like(U[..., :, k]))
        factors = torch.where(ar == k, torch.ones_like(factors), factors)
        L_cols.append(factors)
        U = U - factors.unsqueeze(-1) * torch.where((ar > k).unsqueeze(-1), U[..., k:k + 1, :], torch.zeros_like(U))
    L = torch.stack(L_cols, -1)
    return L, U, perm, sign


def lu_factor_ex(A, *, pivot=True, check_errors=False, out=None):
    if not pivot:
        raise NotImplementedError("linalg.lu_factor: pivot=False is not supported")
    _check_square(A, "lu_factor")
    L, U, perm, _ = _lu(A)
    LU = L.tril(-1) + U.triu()
    # LAPACK's pivots: the row swapped with row i at step i (1-based).
    pivots = _swaps_from_perm(perm)
    info = (U.diagonal(0, -2, -1) == 0).to(torch.int32).argmax(-1)
    info = torch.where((U.diagonal(0, -2, -1) == 0).any(-1), info + 1, torch.zeros_like(info))
    return _ret(_named("lu_factor_ex", ("LU", "pivots", "info"))(LU, pivots, info), out)


def _swaps_from_perm(perm):
    rows = perm.reshape(-1, perm.shape[-1]).tolist()
    out = []
    for p in rows:
        current = list(range(len(p)))
        position = {v: i for i, v in enumerate(current)}
        swaps = []
        for i, want in enumerate(p):
            j = position[want]
            swaps.append(j + 1)
            current[i], current[j] = current[j], current[i]
            position[current[i]], position[current[j]] = i, j
        out.append(swaps)
    return torch.tensor(out, dtype=torch.int32, device=perm.device).reshape(perm.shape)


def lu_factor(A, *, pivot=True, out=None):
    LU, pivots, info = lu_factor_ex(A, pivot=pivot)
    return _ret(_named("lu_factor", ("LU", "pivots"))(LU, pivots), out)


def lu(A, *, pivot=True, out=None):
    if not pivot:
        raise NotImplementedError("linalg.lu: pivot=False is not supported")
    if A.dim() < 2:
        raise RuntimeError("linalg.lu: Expected tensor with 2 or more dimensions. Got size: "
                           f"{list(A.shape)} instead")
    _check_square(A, "lu")
    L, U, perm, _ = _lu(A)
    n = A.shape[-1]
    eye = torch.eye(n, dtype=A.dtype, device=A.device)
    P = eye[perm].mT  # A = P L U
    return _ret(_named("lu", ("P", "L", "U"))(P, L, U.triu()), out)


def det(A, *, out=None):
    _check_square(A, "det")
    _, U, _, sign = _lu(A)
    return _ret(sign * U.diagonal(0, -2, -1).prod(-1), out)


def slogdet(A, *, out=None):
    _check_square(A, "slogdet")
    _, U, _, sign = _lu(A)
    diag = U.diagonal(0, -2, -1)
    s = sign * diag.sign().prod(-1)
    return _ret(_named("slogdet", ("sign", "logabsdet"))(s, diag.abs().log().sum(-1)), out)


def solve_ex(A, B, *, left=True, check_errors=False, out=None):
    _check_square(A, "solve")
    if not left:
        X, info = solve_ex(A.mT, B.mT)
        return _ret(_named("solve_ex", ("result", "info"))(X.mT, info), out)
    vector = B.dim() == 1 or (B.dim() == A.dim() - 1 and B.shape == A.shape[:-1])
    Bm = B.unsqueeze(-1) if vector else B
    if Bm.shape[-2] != A.shape[-1]:
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation AX = B "
                           f"({A.shape[-2]}x{A.shape[-1]} and {Bm.shape[-2]}x{Bm.shape[-1]})")
    L, U, perm, _ = _lu(A)
    A_, Bm = _broadcast_batch(A, Bm)
    batch = Bm.shape[:-2]
    permuted = Bm.gather(-2, perm.expand(batch + perm.shape[-1:]).unsqueeze(-1).expand(Bm.shape))
    Y = solve_triangular(L, permuted, upper=False, unitriangular=True)
    X = solve_triangular(U.triu(), Y, upper=True)
    diag = U.diagonal(0, -2, -1)
    info = torch.where((diag == 0).any(-1), (diag == 0).to(torch.int32).argmax(-1) + 1,
                       torch.zeros(diag.shape[:-1], dtype=torch.int32, device=A.device))
    if check_errors and bool((info != 0).any()):
        raise LinAlgError("torch.linalg.solve: The solver failed because the input matrix is singular.")
    X = X.squeeze(-1) if vector else X
    return _ret(_named("solve_ex", ("result", "info"))(X, info), out)


def solve(A, B, *, left=True, out=None):
    X, info = solve_ex(A, B, left=left)
    if bool((info != 0).any()):
        raise LinAlgError("torch.linalg.solve: The solver failed because the input matrix is singular.")
    return _ret(X, out)


def inv_ex(A, *, check_errors=False, out=None):
    _check_square(A, "inv")
    eye = torch.eye(A.shape[-1], dtype=A.dtype, device=A.device).expand(A.shape)
    X, info = solve_ex(A, eye)
    if check_errors and bool((info != 0).any()):
        raise LinAlgError(f"linalg.inv: The diagonal element {int(info.reshape(-1).max())} is zero, the inversion "
                          "could not be completed because the input matrix is singular.")
    return _ret(_named("inv_ex", ("inverse", "info"))(X, info), out)


def inv(A, *, out=None):
    X, info = inv_ex(A)
    if bool((info != 0).any()):
        raise LinAlgError(f"linalg.inv: The diagonal element {int(info.reshape(-1).max())} is zero, the inversion "
                          "could not be completed because the input matrix is singular.")
    return _ret(X, out)


def qr(A, mode="reduced", *, out=None):
    """Householder reflections with LAPACK's conventions (dgeqrf's signs: R's
    diagonal is -sign(alpha) |x|, and a column already reduced is left alone),
    so Q and R match PyTorch's."""
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', "
                           "or 'complete'")
    if A.dim() < 2:
        raise RuntimeError("linalg.qr: The input tensor A must have at least 2 dimensions.")
    m, n = A.shape[-2:]
    k = min(m, n)
    R = A
    Q = torch.eye(m, dtype=A.dtype, device=A.device).expand(A.shape[:-2] + (m, m))
    rows = torch.arange(m, device=A.device)
    for j in range(k):
        alpha = R[..., j, j]
        below = torch.where(rows > j, R[..., :, j], torch.zeros_like(R[..., :, j]))
        xnorm = below.pow(2).sum(-1).sqrt()
        reflect = xnorm > 0
        beta = -torch.copysign((alpha * alpha + xnorm * xnorm).sqrt(), alpha)
        denom = torch.where(reflect, alpha - beta, torch.ones_like(alpha))
        v = below / denom.unsqueeze(-1) + (rows == j).to(A.dtype)
        tau = torch.where(reflect, (beta - alpha) / torch.where(reflect, beta, torch.ones_like(beta)),
                          torch.zeros_like(alpha)).unsqueeze(-1)
        R = R - tau.unsqueeze(-1) * v.unsqueeze(-1) * (v.unsqueeze(-2) @ R)
        Q = Q - tau.unsqueeze(-1) * (Q @ v.unsqueeze(-1)) * v.unsqueeze(-2)
    R = R.triu()
    if mode == "complete":
        result = (Q, R)
    elif mode == "r":
        result = (A.new_zeros(0), R[..., :k, :])
    else:
        result = (Q[..., :, :k], R[..., :k, :])
    return _ret(_named("qr", ("Q", "R"))(*result), out)


def eigh(A, UPLO="L", *, out=None):
    """Eigenvalues (ascending) and orthonormal eigenvectors of symmetric matrices, from the UPLO triangle."""
    values, vectors = torch._linalg_eigh(A, UPLO)
    return _ret(_named("eigh", ("eigenvalues", "eigenvectors"))(values, vectors), out)


def eigvalsh(A, UPLO="L", *, out=None):
    # The eigenvectors only when a gradient will need them, as PyTorch decides.
    compute_v = torch.is_grad_enabled() and A.requires_grad
    return _ret(torch._linalg_eigh(A, UPLO, compute_v)[0], out)


def svd(A, full_matrices=True, *, driver=None, out=None):
    """One-sided Jacobi (Hestenes): rotate pairs of columns until all are
    orthogonal; the singular values are then the column norms, accurate
    even when small (unlike the square roots of A^T A's eigenvalues)."""
    if A.dim() < 2:
        raise RuntimeError("linalg.svd: The input tensor A must have at least 2 dimensions.")
    m, n = A.shape[-2:]
    if full_matrices and m != n:
        raise NotImplementedError("linalg.svd: full_matrices=True for non-square matrices is not supported; "
                                  "pass full_matrices=False")
    if m < n:
        U, S, Vh = svd(A.mT, full_matrices=False)
        return _ret(_named("svd", ("U", "S", "Vh"))(Vh.mT, S, U.mT), out)
    cols = list(A.unbind(-1))
    eye = torch.eye(n, dtype=A.dtype, device=A.device).expand(A.shape[:-2] + (n, n))
    vcols = list(eye.unbind(-1))
    eps = torch.finfo(A.dtype).eps
    for _ in range(40):
        rotated = False
        for p in range(n - 1):
            for q in range(p + 1, n):
                alpha = (cols[p] * cols[p]).sum(-1)
                beta = (cols[q] * cols[q]).sum(-1)
                gamma = (cols[p] * cols[q]).sum(-1)
                active = gamma.abs() > eps * (alpha * beta).sqrt()
                if not bool(active.any()):
                    continue
                rotated = True
                safe_gamma = torch.where(active, gamma, torch.ones_like(gamma))
                zeta = (beta - alpha) / (2 * safe_gamma)
                t = torch.where(zeta >= 0, torch.ones_like(zeta), -torch.ones_like(zeta)) / (
                    zeta.abs() + (1 + zeta * zeta).sqrt())
                t = torch.where(active, t, torch.zeros_like(t))
                c = (1 + t * t).rsqrt().unsqueeze(-1)
                s = c * t.unsqueeze(-1)
                cols[p], cols[q] = c * cols[p] - s * cols[q], s * cols[p] + c * cols[q]
                vcols[p], vcols[q] = c * vcols[p] - s * vcols[q], s * vcols[p] + c * vcols[q]
        if not rotated:
            break
    W = torch.stack(cols, -1)
    V = torch.stack(vcols, -1)
    S = W.pow(2).sum(-2).sqrt()
    order = S.argsort(-1, descending=True)
    S = S.gather(-1, order)
    W = W.gather(-1, order.unsqueeze(-2).expand(W.shape))
    V = V.gather(-1, order.unsqueeze(-2).expand(V.shape))
    U = W / torch.where(S > 0, S, torch.ones_like(S)).unsqueeze(-2)
    return _ret(_named("svd", ("U", "S", "Vh"))(U, S, V.mT), out)


def svdvals(A, *, driver=None, out=None):
    return _ret(svd(A, full_matrices=False)[1], out)


def _ret(result, out):
    if out is None:
        return result
    if isinstance(result, tuple):
        for o, r in zip(out, result):
            o.resize_(r.shape).copy_(r)
        return out
    return out.resize_(result.shape).copy_(result)
