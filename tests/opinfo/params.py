"""How the records become pytest parameters and their numpy sample
arguments become tensors; shared by test_ops, test_autograd, test_cuda_ops."""
import numpy as np
import pytest

import torch
from testing import NUMPY_DTYPE, to_torch

from . import ALL_OPS


def cases(predicate=lambda op: True):
    return [
        pytest.param(op, dtype, id=f"{op.id}-{str(dtype).replace('torch.', '')}")
        for op in ALL_OPS
        if predicate(op)
        for dtype in op.dtypes
    ]


def _convert(a, dtype, transform):
    if isinstance(a, list):
        return [_convert(x, dtype, transform) for x in a]
    if not isinstance(a, np.ndarray):
        return a
    if a.dtype == np.bool_ and dtype != torch.bool:
        return transform(to_torch(a, torch.bool))  # a mask or condition
    if a.dtype.kind in "iu" and not (dtype in (torch.int32, torch.int64, torch.uint8, torch.int8, torch.int16)):
        return transform(to_torch(a, torch.int64))  # an index
    if a.dtype == np.int64 and dtype != torch.int64 and a.ndim >= 1 and a.dtype != NUMPY_DTYPE[dtype]:
        return transform(to_torch(a, torch.int64))
    return transform(to_torch(a, dtype))


def torch_args(sample, dtype, transform=lambda t: t):
    return [_convert(a, dtype, transform) for a in sample.args]
