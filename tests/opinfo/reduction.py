"""Reductions over all or some dims, with keepdim."""
import numpy as np

import torch

from .core import ALL, FLOATS, ErrorInput, OpInfo, SampleInput, make_array


def reduction_samples(op, dtype, rng):
    yield SampleInput((make_array((3, 4), dtype, rng),), desc="all dims")
    yield SampleInput((make_array((), dtype, rng),), desc="0-d")
    yield SampleInput((make_array((0, 4), dtype, rng),), desc="zero-size")
    yield SampleInput((make_array((1000,), dtype, rng),), desc="long vector")
    for dim, keepdim in [(0, False), (1, True), (-1, False), ((0, 2), False), ((0, 2), True), ((), False)]:
        yield SampleInput((make_array((2, 3, 4), dtype, rng),), {"dim": dim, "keepdim": keepdim},
                          desc=f"dim={dim} keepdim={keepdim}")


def _np_reduce(fn):
    def ref(x, dim=None, keepdim=False):
        axis = None if dim in (None, ()) else dim
        return fn(x, axis=axis, keepdims=keepdim)
    return ref


def _sum_ref(x, dim=None, keepdim=False):
    acc = np.float64 if x.dtype.kind == "f" else np.int64
    return _np_reduce(np.sum)(x.astype(acc), dim, keepdim)


def _mean_ref(x, dim=None, keepdim=False):
    with np.errstate(invalid="ignore"):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _np_reduce(np.mean)(x.astype(np.float64), dim, keepdim)


def _dim_errors(name):
    def errors():
        yield ErrorInput((torch.ones(2, 3),), {"dim": 2}, IndexError, r"Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)")
        yield ErrorInput((torch.ones(2, 3),), {"dim": (0, 0)}, RuntimeError, "dim 0 appears multiple times")
        if name == "mean":
            yield ErrorInput((torch.ones(2, dtype=torch.int64),), {}, RuntimeError, "mean\\(\\): could not infer output dtype")
    return errors


REDUCTION_OPS = [
    OpInfo("sum", _sum_ref, ALL, reduction_samples,
           result_dtype=lambda d: d if d.is_floating_point else torch.int64, error_inputs=_dim_errors("sum")),
    OpInfo("mean", _mean_ref, FLOATS, reduction_samples, error_inputs=_dim_errors("mean")),
]
