"""Matrix products, and the torch.linalg kernels on LAPACK."""
import numpy as np

import torch

from .core import FLOATS, INTS, ErrorInput, KnownValue, OpInfo, SampleInput, make_array


def matmul_samples(op, dtype, rng):
    for a, b in [((3, 4), (4, 5)), ((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 5)), ((1, 7), (7, 1)), ((0, 3), (3, 2)), ((2, 0), (0, 3))]:
        yield SampleInput((make_array(a, dtype, rng), make_array(b, dtype, rng)), desc=f"{a} @ {b}")


def mm_samples(op, dtype, rng):
    for s in matmul_samples(op, dtype, rng):
        if s.args[0].ndim == 2 and s.args[1].ndim == 2:
            yield s


def _matmul_errors():
    yield ErrorInput((torch.ones(2, 3), torch.ones(2, 3)), {}, RuntimeError,
                     r"mat1 and mat2 shapes cannot be multiplied \(2x3 and 2x3\)")
    yield ErrorInput((torch.ones(3), torch.ones(4)), {}, RuntimeError, "inconsistent tensor size")
    yield ErrorInput((torch.ones(2, 2), torch.ones(2, 2, dtype=torch.float64)), {}, RuntimeError,
                     "expected m1 and m2 to have the same dtype, but got: float != double")
    yield ErrorInput((torch.tensor(1.0), torch.ones(2)), {}, RuntimeError, "need to be at least 1D")


def _mm_errors():
    yield ErrorInput((torch.ones(3), torch.ones(3, 2)), {}, RuntimeError, "self must be a matrix")
    b = torch.ones(2, 4, dtype=torch.bool)
    yield ErrorInput((b, b.t()), {}, NotImplementedError, "\"addmm_impl_cpu_\" not implemented for 'Bool'")
    # The out= dtype is checked first.
    yield ErrorInput((b, b.t()), {"out": torch.empty(2, 2)}, RuntimeError,
                     "Expected out tensor to have dtype bool, but got float instead")


def _mm_known():
    # Nothing to multiply: answered before the kernel's dtype check, bool included.
    yield KnownValue((torch.ones(3, 0, dtype=torch.bool), torch.ones(0, 2, dtype=torch.bool)), {},
                     torch.zeros(3, 2, dtype=torch.bool), why="an empty bool product is zeros, not an error")


def _mv_errors():
    yield ErrorInput((torch.ones(3), torch.ones(3)), {}, RuntimeError, "vector \\+ matrix @ vector expected, got 1, 1, 1")
    yield ErrorInput((torch.ones(2, 3), torch.ones(4)), {}, RuntimeError, r"size mismatch, got input \(2\), mat \(2x3\)")
    # Checked before the empty-matrix shortcut, naming result (vec's dtype), mat and vec.
    yield ErrorInput((torch.ones(0, 3), torch.ones(3, dtype=torch.float64)), {}, RuntimeError,
                     "addmv input tensors must have the same dtype, but got Double, Float, and Double")
    b = torch.ones(2, 3, dtype=torch.bool)
    yield ErrorInput((b, b[0]), {}, NotImplementedError, "\"addmv_impl_cpu\" not implemented for 'Bool'")


def _bmm_errors():
    # Mixed dtypes fail only with something to multiply; a small product
    # dispatches on batch1's dtype (bool: NotImplementedError).
    f, d, b = (torch.ones(1, 2, 2, dtype=t) for t in (torch.float32, torch.float64, torch.bool))
    yield ErrorInput((f, d), {}, RuntimeError, "expected scalar type Float but found Double")
    yield ErrorInput((b, f), {}, NotImplementedError, "\"bmm\" not implemented for 'Bool'")
    yield ErrorInput((f, b), {}, RuntimeError, "expected scalar type Float but found Bool")


def _bmm_known():
    yield KnownValue((torch.ones(1, 2, 0), torch.ones(1, 0, 3, dtype=torch.float64)), {},
                     torch.zeros(1, 2, 3, dtype=torch.float64), why="nothing to multiply: batch2's dtype, no error")


def _addmm_errors():
    # self is broadcast to the result even when beta == 0 ignores it.
    yield ErrorInput((torch.ones(3, 4, 1), torch.ones(2, 2), torch.ones(2, 2)), {"beta": 0}, RuntimeError,
                     "the number of sizes provided \\(2\\) must be greater or equal")
    yield ErrorInput((torch.ones(2, 2), torch.ones(2, 2, dtype=torch.float64), torch.ones(2, 2, dtype=torch.float64)),
                     {}, RuntimeError, "self and mat2 must have the same dtype, but got Float and Double")
    u8 = torch.ones(2, 2, dtype=torch.uint8)
    yield ErrorInput((u8, u8[:, :0], u8[:0]), {"beta": 0.5}, RuntimeError,
                     "result type Float can't be cast to the desired output type Byte")


def _linear_errors():
    # A bias with a 2-D input (or a contiguous one with a vector bias) goes through addmm.
    yield ErrorInput((torch.ones(4, 2), torch.ones(2), torch.ones(4)), {}, RuntimeError,
                     "mat2 must be a matrix, got 1-D tensor")
    yield ErrorInput((torch.ones(5, 3, 2), torch.ones(1, 2), torch.ones(0)), {}, RuntimeError,
                     "The expanded size of the tensor \\(1\\) must match the existing size \\(0\\)")
    # Otherwise the bias is added in place, so it cannot broadcast the result.
    yield ErrorInput((torch.ones(5, 3, 4).mT, torch.ones(2, 3), torch.ones(3, 5, 4, 2)), {}, RuntimeError,
                     "output with shape \\[5, 4, 2\\] doesn't match the broadcast shape \\[3, 5, 4, 2\\]")


def _ref_matmul(a, b):
    out = np.matmul(a.astype(np.float64) if a.dtype.kind == "f" else a, b)
    return out.astype(a.dtype)


def _bmm_samples(op, dtype, rng):
    yield SampleInput((make_array((2, 3, 4), dtype, rng), make_array((2, 4, 5), dtype, rng)))
    yield SampleInput((make_array((0, 3, 4), dtype, rng), make_array((0, 4, 5), dtype, rng)), desc="empty batch")


def _batched_matmul_samples(op, dtype, rng):
    for a, b in [((2, 3, 4), (2, 4, 5)), ((2, 3, 4), (4, 5)), ((4,), (2, 4, 3)), ((2, 1, 3, 4), (5, 4, 2)),
                 ((5, 3, 4), (4,)), ((1, 3, 4), (6, 4, 2)),
                 ((2, 1, 4, 0), (0, 2))]:  # an empty inner dim: the fold must not infer rows from numel
        yield SampleInput((make_array(a, dtype, rng), make_array(b, dtype, rng)), desc=f"{a} @ {b}")


def _addmm_samples(op, dtype, rng):
    yield SampleInput((make_array((3, 5), dtype, rng), make_array((3, 4), dtype, rng), make_array((4, 5), dtype, rng)))
    yield SampleInput((make_array((5,), dtype, rng), make_array((3, 4), dtype, rng), make_array((4, 5), dtype, rng)),
                      {"beta": 2, "alpha": 3}, desc="broadcast bias, beta, alpha")


def _addmm_ref(bias, a, b, beta=1, alpha=1):
    return beta * bias + alpha * _ref_matmul(a, b)


def _addmv_samples(op, dtype, rng):
    mk = lambda *shape: make_array(shape, dtype, rng)  # noqa: E731
    yield SampleInput((mk(3), mk(3, 4), mk(4)))
    yield SampleInput((mk(1), mk(3, 4), mk(4)), {"beta": 2, "alpha": 3}, desc="broadcast self, beta, alpha")
    yield SampleInput((mk(), mk(5, 2), mk(2)), {"alpha": -2}, desc="0-d self")
    yield SampleInput((mk(4), mk(3, 4).T, mk(3)), {"beta": 0}, desc="transposed mat, beta 0")
    yield SampleInput((mk(3), mk(3, 0), mk(0)), {"beta": 2}, desc="empty inner: beta * self")
    yield SampleInput((mk(0), mk(0, 4), mk(4)), desc="empty result")


def _addmv_ref(bias, mat, vec, beta=1, alpha=1):
    product = alpha * _ref_matmul(mat, vec)
    result = product if not beta else beta * bias + product
    return np.broadcast_to(result, product.shape).astype(bias.dtype)


def _addmv_errors():
    yield ErrorInput((torch.ones(3, 1), torch.ones(3, 4), torch.ones(4)), {}, RuntimeError,
                     "vector \\+ matrix @ vector expected, got 2, 2, 1")
    yield ErrorInput((torch.ones(2), torch.ones(3, 4), torch.ones(4)), {}, RuntimeError,
                     r"size mismatch, got input \(2\), mat \(3x4\), vec \(4\)")
    yield ErrorInput((torch.ones(3, dtype=torch.float64), torch.ones(3, 4), torch.ones(4)), {}, RuntimeError,
                     "addmv input tensors must have the same dtype, but got Double, Float, and Float")
    b = torch.ones(3, 4, dtype=torch.bool)
    yield ErrorInput((b[:, 0], b, b[0]), {}, NotImplementedError, "\"addmv_impl_cpu\" not implemented for 'Bool'")


def _batch_product_samples(summed):
    def samples(op, dtype, rng):
        mk = lambda *shape: make_array(shape, dtype, rng)  # noqa: E731
        full = (3, 5) if summed else (2, 3, 5)
        yield SampleInput((mk(*full), mk(2, 3, 4), mk(2, 4, 5)))
        yield SampleInput((mk(5), mk(2, 3, 4), mk(2, 4, 5)), {"beta": 2, "alpha": 3}, desc="broadcast self, beta, alpha")
        yield SampleInput((mk(*full), mk(2, 4, 3).transpose(0, 2, 1), mk(2, 4, 5)), {"beta": 0},
                          desc="transposed batch1, beta 0")
        yield SampleInput((mk(*full), mk(2, 3, 0), mk(2, 0, 5)), {"beta": 2}, desc="empty inner: beta * self")
        if summed:
            yield SampleInput((mk(3, 5), mk(0, 3, 4), mk(0, 4, 5)), desc="no batches: self")
        else:
            yield SampleInput((mk(5), mk(0, 3, 4), mk(0, 4, 5)), desc="no batches: empty")
    return samples


def _batch_product_ref(summed):
    def ref(bias, batch1, batch2, beta=1, alpha=1):
        product = _ref_matmul(batch1, batch2)
        product = alpha * (product.sum(0) if summed else product)
        result = product if not beta else beta * bias + product
        return np.broadcast_to(result, product.shape).astype(bias.dtype)
    return ref


def _baddbmm_errors():
    # PyTorch sizes the result from batch1's and batch2's dims before it checks their rank.
    yield ErrorInput((torch.ones(5), torch.ones(3), torch.ones(2, 4, 5)), {}, IndexError, "Dimension out of range")
    yield ErrorInput((torch.ones(4), torch.ones(2, 3, 4), torch.ones(2, 4, 5)), {}, RuntimeError,
                     r"The expanded size of the tensor \(5\) must match the existing size \(4\)")
    yield ErrorInput((torch.ones(5), torch.ones(3, 4), torch.ones(2, 4, 5)), {}, RuntimeError, "batch1 must be a 3D tensor")
    yield ErrorInput((torch.ones(5, dtype=torch.float64), torch.ones(2, 3, 4), torch.ones(2, 4, 5)), {}, RuntimeError,
                     "Input dtypes must be the same, got: input double, batch1: float, batch2: float")
    yield ErrorInput((torch.ones(5), torch.ones(2, 3, 4), torch.ones(2, 3, 5)), {}, RuntimeError,
                     r"Expected size for first two dimensions of batch2 tensor to be: \[2, 4\] but got: \[2, 3\]")
    yield ErrorInput((torch.ones(5), torch.ones(2, 3, 4), torch.ones(2, 4, 5, dtype=torch.float64)), {}, RuntimeError,
                     "expected scalar type Float but found Double")


def _addbmm_errors():
    yield ErrorInput((torch.ones(5), torch.ones(2, 3, 4), torch.ones(4)), {}, IndexError, "Dimension out of range")
    yield ErrorInput((torch.ones(5), torch.ones(2, 3, 4), torch.ones(3, 4, 5)), {}, RuntimeError,
                     "batch1 and batch2 must have same number of batches, got 2 and 3")
    yield ErrorInput((torch.ones(5), torch.ones(2, 3, 4), torch.ones(2, 3, 5)), {}, RuntimeError,
                     r"Incompatible matrix sizes for bmm \(3x4 and 3x5\)")
    yield ErrorInput((torch.ones(5), torch.ones(2, 3, 4), torch.ones(2, 4, 5, dtype=torch.float64)), {}, RuntimeError,
                     "self and mat2 must have the same dtype, but got Float and Double")
    b = torch.ones(2, 3, 3, dtype=torch.bool)
    yield ErrorInput((b[0], b, b), {}, NotImplementedError, "\"addmm_impl_cpu_\" not implemented for 'Bool'")


def _addr_samples(op, dtype, rng):
    yield SampleInput((make_array((3, 4), dtype, rng), make_array((3,), dtype, rng), make_array((4,), dtype, rng)))
    if dtype == torch.bool:
        yield SampleInput((make_array((3, 4), dtype, rng), make_array((3,), dtype, rng), make_array((4,), dtype, rng)),
                          {"beta": False}, desc="beta False drops self")
        return
    yield SampleInput((make_array((4,), dtype, rng), make_array((3,), dtype, rng), make_array((4,), dtype, rng)),
                      {"beta": 2, "alpha": 3}, desc="broadcast self, beta, alpha")
    yield SampleInput((make_array((), dtype, rng), make_array((5,), dtype, rng), make_array((2,), dtype, rng)),
                      {"alpha": -2}, desc="0-d self")
    yield SampleInput((make_array((4, 3), dtype, rng).T, make_array((3,), dtype, rng), make_array((4,), dtype, rng)),
                      {"beta": 0}, desc="transposed self, beta 0")
    yield SampleInput((make_array((0, 4), dtype, rng), make_array((0,), dtype, rng), make_array((4,), dtype, rng)),
                      desc="empty")


def _addr_ref(bias, a, b, beta=1, alpha=1):
    if bias.dtype == np.bool_:
        return np.logical_or(np.logical_and(bias, beta), np.logical_and(np.outer(a, b), alpha))
    product = alpha * np.outer(a, b)
    return product.astype(bias.dtype) if not beta else (beta * bias + product).astype(bias.dtype)


def _addr_errors():
    yield ErrorInput((torch.ones(3, 4), torch.ones(3, 1), torch.ones(4)), {}, RuntimeError,
                     "addr: Expected 1-D argument vec1, but got 2-D")
    yield ErrorInput((torch.ones(3, 4), torch.ones(3), torch.tensor(1.0)), {}, RuntimeError,
                     "addr: Expected 1-D argument vec2, but got 0-D")
    yield ErrorInput((torch.ones(3, 4), torch.ones(3), torch.ones(3)), {}, RuntimeError,
                     "The expanded size of the tensor \\(3\\) must match the existing size \\(4\\)")
    i = torch.ones(3, dtype=torch.int64)
    yield ErrorInput((torch.ones(3, 3, dtype=torch.int64), i, i), {"alpha": 2.5}, RuntimeError,
                     "For integral input tensors, argument alpha must not be a floating point number.")
    yield ErrorInput((torch.ones(3, 3), torch.ones(3), torch.ones(3)), {"beta": True}, RuntimeError,
                     "Boolean beta only supported for Boolean results.")
    yield ErrorInput((torch.ones(3, 3, dtype=torch.int64), i, torch.ones(3)), {"out": torch.empty(3, 3, dtype=torch.int64)},
                     RuntimeError, "result type Float can't be cast to the desired output type Long")


def _linear_samples(op, dtype, rng):
    yield SampleInput((make_array((3, 4), dtype, rng), make_array((5, 4), dtype, rng), make_array((5,), dtype, rng)))
    yield SampleInput((make_array((2, 3, 4), dtype, rng), make_array((5, 4), dtype, rng)), desc="3-D input, no bias")
    yield SampleInput((make_array((4,), dtype, rng), make_array((5, 4), dtype, rng), make_array((5,), dtype, rng)),
                      desc="1-D input, bias")
    yield SampleInput((make_array((3, 2, 4), dtype, rng).transpose(1, 0, 2), make_array((5, 4), dtype, rng),
                       make_array((5,), dtype, rng)), desc="non-contiguous 3-D input, bias")


def _linear_ref(x, w, b=None):
    out = _ref_matmul(x, w.T)
    return out if b is None else out + b


def _symmetric(A):
    """A + A^T: the op sees a symmetric matrix, so a gradient (gradcheck moves one entry at a
    time) is one of a symmetric input, as PyTorch's eigh records do it."""
    return A + A.mT if A.dim() >= 2 and A.shape[-1] == A.shape[-2] else A


def _eigvalsh_ref(a, UPLO="L"):
    return np.linalg.eigvalsh(a + np.swapaxes(a, -1, -2), UPLO=UPLO)


def _eigh_samples(op, dtype, rng):
    for shape in [(4, 4), (2, 3, 3), (1, 1), (0, 0), (2, 0, 0)]:
        yield SampleInput((make_array(shape, dtype, rng),), desc=f"{shape}")
    yield SampleInput((make_array((3, 3), dtype, rng), "U"), desc="UPLO='U'")


def _eigh_errors():
    yield ErrorInput((torch.ones(3),), {}, RuntimeError, "linalg.eigh: The input tensor A must have at least 2 dimensions")
    yield ErrorInput((torch.ones(2, 3),), {}, RuntimeError, "A must be batches of square matrices, but they are 2 by 3")
    yield ErrorInput((torch.ones(2, 2, dtype=torch.int64),), {}, RuntimeError,
                     "Expected a floating point or complex tensor as input. Got Long")
    yield ErrorInput((torch.ones(2, 2), "X"), {}, RuntimeError, "Expected UPLO argument to be 'L' or 'U', but got X")


def _square_samples(op, dtype, rng):
    """Well-conditioned square matrices (a shifted diagonal), batched, 1x1 and empty."""
    for shape in [(4, 4), (2, 3, 3), (1, 1), (0, 0), (2, 0, 0)]:
        a = make_array(shape, dtype, rng, domain=(-1.0, 1.0))
        if shape[-1]:
            a = a + 4 * np.eye(shape[-1], dtype=a.dtype)
        yield SampleInput((a,), desc=f"{shape}")


def _solve_samples(op, dtype, rng):
    for (a, b) in [((4, 4), (4, 2)), ((2, 3, 3), (2, 3, 1)), ((0, 0), (0, 2)), ((3, 3), (3, 0))]:
        A = make_array(a, dtype, rng, domain=(-1.0, 1.0))
        if a[-1]:
            A = A + 4 * np.eye(a[-1], dtype=A.dtype)
        yield SampleInput((A, make_array(b, dtype, rng)), desc=f"{a} {b}")


def _rectangular_samples(op, dtype, rng):
    for shape in [(4, 4), (5, 3), (3, 5), (2, 4, 3), (0, 3), (3, 0)]:
        yield SampleInput((make_array(shape, dtype, rng),), desc=f"{shape}")


def _lstsq_samples(op, dtype, rng):
    for a, b in [((5, 3), (5, 2)), ((5, 3), (5,)), ((3, 5), (3, 2)), ((2, 4, 3), (2, 4, 2)), ((2, 1, 4, 3), (1, 3, 4, 1)),
                 ((0, 3), (0, 2)), ((3, 0), (3, 2))]:
        yield SampleInput((make_array(a, dtype, rng), make_array(b, dtype, rng)), desc=f"{a}, {b}")


def _lstsq_ref(a, b):
    """The minimum-norm least-squares solution (numpy's gelsd), batch dims broadcast."""
    vector = b.ndim == a.ndim - 1
    b2 = b[..., None] if vector else b
    batch = np.broadcast_shapes(a.shape[:-2], b2.shape[:-2])
    a, b2 = np.broadcast_to(a, batch + a.shape[-2:]), np.broadcast_to(b2, batch + b2.shape[-2:])
    x = np.linalg.pinv(a.astype(np.float64)) @ b2.astype(np.float64) if a.size else \
        np.zeros(batch + (a.shape[-1], b2.shape[-1]))
    return (x[..., 0] if vector else x).astype(a.dtype)


def _spd(A):
    return A @ A.mT + A.shape[-1] * torch.eye(A.shape[-1], dtype=A.dtype, device=A.device)


def _cholesky_solve_ref(a, b, upper=False):
    return np.linalg.solve(a @ np.swapaxes(a, -1, -2) + a.shape[-1] * np.eye(a.shape[-1], dtype=a.dtype), b)


def _cholesky_solve_samples(op, dtype, rng):
    yield from _solve_samples(op, dtype, rng)
    yield SampleInput((make_array((3, 3), dtype, rng), make_array((2, 3, 2), dtype, rng)), {"upper": True},
                      desc="upper, B batched")


def _cholesky_inverse_ref(a, upper=False):
    return np.linalg.inv(a @ np.swapaxes(a, -1, -2) + a.shape[-1] * np.eye(a.shape[-1], dtype=a.dtype))


def _cholesky_inverse_samples(op, dtype, rng):
    yield from _square_samples(op, dtype, rng)
    yield SampleInput((make_array((2, 3, 3), dtype, rng, domain=(-1.0, 1.0)),), {"upper": True}, desc="upper")


def _lu_reconstructed(A):
    P, L, U = torch.lu_unpack(*torch.linalg.lu_factor_ex(A)[:2])
    return P @ L @ U


def _singular_values(a):
    return np.linalg.svd(a, compute_uv=False) if a.size else np.zeros(a.shape[:-2] + (0,), a.dtype)


def _qr_r(a):
    # numpy calls the same LAPACK routines (geqrf), so R's signs agree.
    return np.linalg.qr(a)[1] if a.size else np.zeros(a.shape[:-2] + (min(a.shape[-2:]), a.shape[-1]), a.dtype)


LINALG_OPS = [
    OpInfo("matmul", _ref_matmul, FLOATS + INTS, matmul_samples, error_inputs=_matmul_errors),
    OpInfo("mm", _ref_matmul, FLOATS + INTS, mm_samples, error_inputs=_mm_errors, supports_out=True,
           known_values=_mm_known),
    OpInfo("matmul", _ref_matmul, FLOATS + INTS, _batched_matmul_samples, variant="batched"),
    OpInfo("bmm", _ref_matmul, FLOATS + INTS, _bmm_samples, supports_out=True, error_inputs=_bmm_errors,
           known_values=_bmm_known),
    OpInfo("addmm", _addmm_ref, FLOATS + INTS, _addmm_samples, supports_out=True, error_inputs=_addmm_errors),
    OpInfo("addmv", _addmv_ref, FLOATS + INTS, _addmv_samples, supports_out=True, inplace=True,
           error_inputs=_addmv_errors),
    OpInfo("baddbmm", _batch_product_ref(False), FLOATS + INTS, _batch_product_samples(False), supports_out=True,
           inplace=True, error_inputs=_baddbmm_errors),
    OpInfo("addbmm", _batch_product_ref(True), FLOATS + INTS, _batch_product_samples(True), supports_out=True,
           inplace=True, error_inputs=_addbmm_errors),
    OpInfo("addr", _addr_ref, FLOATS + INTS + (torch.bool,), _addr_samples, supports_out=True, inplace=True,
           error_inputs=_addr_errors),
    OpInfo("mv", _ref_matmul, FLOATS + INTS,
           lambda op, d, rng: [SampleInput((make_array((3, 4), d, rng), make_array((4,), d, rng))),
                               SampleInput((make_array((3, 0), d, rng), make_array((0,), d, rng)), desc="empty inner"),
                               SampleInput((make_array((4, 3), d, rng).T, make_array((4,), d, rng)), desc="transposed")],
           error_inputs=_mv_errors),
    OpInfo("dot", lambda a, b: np.dot(a, b), FLOATS + INTS,
           lambda op, d, rng: [SampleInput((make_array((5,), d, rng), make_array((5,), d, rng)))]),
    OpInfo("outer", np.outer, FLOATS + INTS,
           lambda op, d, rng: [SampleInput((make_array((3,), d, rng), make_array((4,), d, rng)))]),
    OpInfo("linear", _linear_ref, FLOATS, _linear_samples, op=torch.nn.functional.linear, method=False,
           error_inputs=_linear_errors),
    # torch.linalg.eigh's kernel (LAPACK's syevd); its eigenvectors, whose signs
    # LAPACK chooses, are checked by reconstruction in test_linalg.py.
    OpInfo("_linalg_eigh", _eigvalsh_ref, FLOATS, _eigh_samples, variant="eigenvalues", method=False,
           op=lambda A, *a: torch._linalg_eigh(_symmetric(A), *a)[0], error_inputs=_eigh_errors),
    # The other LAPACK kernels, each through the public function's result
    # that is unique (signs and pivots are LAPACK's choice; test_linalg.py
    # checks those against numpy and by reconstruction).
    OpInfo("linalg_lu_factor_ex", lambda a: a, FLOATS, _square_samples, variant="reconstructed", method=False,
           op=_lu_reconstructed),
    OpInfo("lu_unpack", lambda a: a, FLOATS, _square_samples, variant="reconstructed", method=False,
           op=_lu_reconstructed),
    OpInfo("linalg_lu_solve", np.linalg.solve, FLOATS, _solve_samples, method=False,
           op=lambda A, B: torch.linalg.lu_solve(*torch.linalg.lu_factor(A), B)),
    OpInfo("_linalg_solve_ex", np.linalg.solve, FLOATS, _solve_samples, method=False,
           op=lambda A, B: torch._linalg_solve_ex(A, B)[0]),
    OpInfo("linalg_inv_ex", np.linalg.inv, FLOATS, _square_samples, method=False,
           op=lambda A: torch.linalg.inv_ex(A).inverse),
    OpInfo("_linalg_det", np.linalg.det, FLOATS, _square_samples, method=False, op=lambda A: torch._linalg_det(A)[0]),
    OpInfo("_linalg_slogdet", lambda a: np.linalg.slogdet(a)[1], FLOATS, _square_samples, method=False,
           op=lambda A: torch._linalg_slogdet(A)[1]),
    OpInfo("linalg_cholesky_ex",
           lambda a: np.linalg.cholesky(a @ np.swapaxes(a, -1, -2) + a.shape[-1] * np.eye(a.shape[-1], dtype=a.dtype)),
           FLOATS, _square_samples, method=False, op=lambda A: torch.linalg.cholesky_ex(_spd(A)).L),
    # cholesky_solve against the matrix its factor stands for, lower and upper, batches broadcast.
    OpInfo("cholesky_solve", _cholesky_solve_ref, FLOATS, _cholesky_solve_samples, method=False,
           op=lambda A, B, upper=False: torch.cholesky_solve(B, torch.linalg.cholesky(_spd(A), upper=upper), upper)),
    # The inverse of the matrix a factor stands for: the factor of an SPD
    # matrix (so gradcheck sees a true factor), lower and upper.
    OpInfo("cholesky_inverse", _cholesky_inverse_ref, FLOATS, _cholesky_inverse_samples, method=False,
           op=lambda A, upper=False: torch.cholesky_inverse(torch.linalg.cholesky(_spd(A), upper=upper), upper)),
    OpInfo("linalg_solve_triangular", lambda a, b: np.linalg.solve(np.triu(a), b), FLOATS, _solve_samples,
           method=False, op=lambda A, B: torch.linalg.solve_triangular(A.triu(), B, upper=True)),
    OpInfo("linalg_lstsq", _lstsq_ref, FLOATS, _lstsq_samples, method=False,
           op=lambda A, B: torch.linalg.lstsq(A, B).solution),
    OpInfo("linalg_qr", _qr_r, FLOATS, _rectangular_samples, variant="R", method=False,
           op=lambda A: torch.linalg.qr(A).R),
    OpInfo("_linalg_svd", _singular_values, FLOATS, _rectangular_samples, variant="S", method=False,
           op=lambda A: torch.linalg.svdvals(A)),
]
