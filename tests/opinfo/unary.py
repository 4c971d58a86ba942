"""Unary pointwise ops."""
import numpy as np

import torch

from .core import ALL, FLOATS, NUMERIC, ErrorInput, OpInfo, SampleInput, float_result, make_array

SHAPES = [(), (5,), (3, 4), (2, 3, 4), (0, 3)]


def unary_samples(op, dtype, rng):
    for shape in SHAPES:
        yield SampleInput((make_array(shape, dtype, rng, op.domain),), desc=f"shape={shape}")


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x.astype(np.float64)))


def _float(fn):
    """Reference for ops that lift integers to float."""
    return lambda x: fn(x.astype(np.float64) if x.dtype.kind in "biu" else x)


def unary(name, ref, dtypes=FLOATS + (torch.int32, torch.int64), to_float=True, domain=(-5.0, 5.0), **kw):
    return OpInfo(
        name=name,
        ref=_float(ref) if to_float else ref,
        dtypes=dtypes,
        sample_inputs=unary_samples,
        result_dtype=float_result if to_float else (lambda d: d),
        inplace=True,
        supports_out=kw.pop("supports_out", True),
        domain=domain,
        **kw,
    )


def _bool_neg_error():
    yield ErrorInput((torch.tensor([True, False]),), {}, RuntimeError, "Negation, the `-` operator, on a bool tensor")


UNARY_OPS = [
    unary("neg", np.negative, dtypes=NUMERIC, to_float=False, error_inputs=_bool_neg_error),
    unary("abs", np.abs, dtypes=ALL, to_float=False),
    unary("relu", lambda x: np.maximum(x, 0).astype(x.dtype), dtypes=NUMERIC, to_float=False, supports_out=False),
    unary("exp", np.exp),
    unary("log", np.log, domain=(0.1, 10.0)),
    unary("sqrt", np.sqrt, domain=(0.0, 10.0)),
    unary("reciprocal", lambda x: 1.0 / x, domain=(0.5, 5.0)),
    unary("sigmoid", _sigmoid),
    unary("tanh", np.tanh),
]
