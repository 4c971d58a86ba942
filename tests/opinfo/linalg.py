"""Matrix products."""
import numpy as np

import torch

from .core import FLOATS, INTS, ErrorInput, OpInfo, SampleInput, make_array


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
                     "expected mat1 and mat2 to have the same dtype")
    yield ErrorInput((torch.tensor(1.0), torch.ones(2)), {}, RuntimeError, "need to be at least 1D")


def _mm_errors():
    yield ErrorInput((torch.ones(3), torch.ones(3, 2)), {}, RuntimeError, "self must be a matrix")


def _ref_matmul(a, b):
    out = np.matmul(a.astype(np.float64) if a.dtype.kind == "f" else a, b)
    return out.astype(a.dtype)


LINALG_OPS = [
    OpInfo("matmul", _ref_matmul, FLOATS + INTS, matmul_samples, error_inputs=_matmul_errors),
    OpInfo("mm", _ref_matmul, FLOATS + INTS, mm_samples, error_inputs=_mm_errors),
]
