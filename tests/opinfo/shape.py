"""View and shape ops: new geometry, the same values."""
import numpy as np

import torch

from .core import ALL, ErrorInput, OpInfo, SampleInput, make_array


def _samples(*cases):
    def gen(op, dtype, rng):
        for shape, args in cases:
            yield SampleInput((make_array(shape, dtype, rng),) + tuple(args), desc=f"{shape} {args}")
    return gen


def method(name):
    return lambda t, *args, **kw: getattr(t, name)(*args, **kw)


def _view_errors():
    yield ErrorInput((torch.ones(2, 3), 4), {}, RuntimeError, r"shape '\[4\]' is invalid for input of size 6")
    yield ErrorInput((torch.ones(2, 3).t(), 6), {}, RuntimeError, "view size is not compatible")
    yield ErrorInput((torch.ones(2, 3), -1, -1), {}, RuntimeError, "only one dimension can be inferred")


def _permute_errors():
    yield ErrorInput((torch.ones(2, 3), (0,)), {}, RuntimeError, "number of dimensions in the tensor input does not match")
    yield ErrorInput((torch.ones(2, 3), (0, 0)), {}, RuntimeError, "duplicate dims are not allowed")


def _transpose_errors():
    yield ErrorInput((torch.ones(2, 3), 0, 2), {}, IndexError, "Dimension out of range")


SHAPE_OPS = [
    OpInfo("view", lambda x, *s: x.reshape(*s), ALL,
           _samples(((2, 6), (3, 4)), ((2, 6), (-1,)), ((2, 3, 4), (6, -1)), ((), (1,)), ((0, 4), (4, 0))),
           op=method("view"), method=False, error_inputs=_view_errors),
    OpInfo("reshape", lambda x, s: x.reshape(s), ALL,
           _samples(((2, 6), ((3, 4),)), ((2, 6), ((-1,),)), ((5,), ((5, 1),))),
           error_inputs=lambda: iter([ErrorInput((torch.ones(2, 3), (4,)), {}, RuntimeError, "is invalid for input of size 6")])),
    OpInfo("transpose", lambda x, a, b: np.swapaxes(x, a, b), ALL,
           _samples(((2, 3), (0, 1)), ((2, 3, 4), (0, 2)), ((2, 3, 4), (-1, 1)), ((4,), (0, 0))),
           error_inputs=_transpose_errors),
    OpInfo("permute", lambda x, d: np.transpose(x, d), ALL,
           _samples(((2, 3, 4), ((2, 0, 1),)), ((2, 3), ((1, 0),)), ((), ((),))), error_inputs=_permute_errors),
    OpInfo("t", lambda x: x.T, ALL, _samples(((2, 3), ()), ((4,), ()))),
    OpInfo("contiguous", lambda x: x, ALL, _samples(((2, 3), ()), ((), ())), op=method("contiguous"), method=False),
    OpInfo("unsqueeze", lambda x, d: np.expand_dims(x, d), ALL, _samples(((2, 3), (0,)), ((2, 3), (-1,)), ((), (0,)))),
    OpInfo("squeeze", lambda x, *d: np.squeeze(x, *d) if not d or x.shape[d[0]] == 1 else x, ALL,
           _samples(((1, 3, 1), ()), ((1, 3), (0,)), ((2, 3), (1,)))),
    OpInfo("flatten", lambda x, *a: x.reshape(-1) if not a else x.reshape(x.shape[: a[0]] + (-1,)), ALL,
           _samples(((2, 3, 4), ()), ((2, 3, 4), (1,)), ((), ()))),
]
