"""Generic operator tests, run over every record in opinfo/."""
import numpy as np
import pytest

import torch
from opinfo import ALL_OPS
from testing import assert_matches, noncontiguous, to_numpy, to_torch


def cases(predicate=lambda op: True):
    return [
        pytest.param(op, dtype, id=f"{op.id}-{str(dtype).replace('torch.', '')}")
        for op in ALL_OPS
        if predicate(op)
        for dtype in op.dtypes
    ]


def torch_args(sample, dtype, transform=lambda t: t):
    return [transform(to_torch(a, dtype)) if isinstance(a, np.ndarray) else a for a in sample.args]


@pytest.mark.parametrize("op,dtype", cases())
def test_matches_numpy(op, dtype, rng):
    for sample in op.sample_inputs(op, dtype, rng):
        actual = op(*torch_args(sample, dtype), **sample.kwargs)
        expected = op.ref(*sample.args, **sample.kwargs)
        assert_matches(actual, expected, dtype=op.result_dtype(dtype)), sample.desc


@pytest.mark.parametrize("op,dtype", cases())
def test_noncontiguous_inputs(op, dtype, rng):
    for sample in op.sample_inputs(op, dtype, rng):
        expected = op(*torch_args(sample, dtype), **sample.kwargs)
        actual = op(*torch_args(sample, dtype, noncontiguous), **sample.kwargs)
        assert_matches(actual, to_numpy(expected), dtype=expected.dtype)


@pytest.mark.parametrize("op,dtype", cases(lambda op: op.method and op.op is None))
def test_method_variant(op, dtype, rng):
    for sample in op.sample_inputs(op, dtype, rng):
        args = torch_args(sample, dtype)
        expected = op(*args, **sample.kwargs)
        actual = getattr(args[0], op.name)(*args[1:], **sample.kwargs)
        assert_matches(actual, to_numpy(expected), dtype=expected.dtype)


@pytest.mark.parametrize("op,dtype", cases(lambda op: op.inplace))
def test_inplace_variant(op, dtype, rng):
    for sample in op.sample_inputs(op, dtype, rng):
        args = torch_args(sample, dtype)
        expected = op(*args, **sample.kwargs)
        if tuple(expected.shape) != tuple(args[0].shape):
            continue  # broadcasting beyond the first operand: covered by test_tensor.py
        target = args[0].clone()
        if expected.dtype != dtype:
            # The result does not fit the first operand's dtype: refused, as in PyTorch.
            with pytest.raises(RuntimeError, match="can't be cast to the desired output type"):
                getattr(target, op.name + "_")(*args[1:], **sample.kwargs)
            continue
        returned = getattr(target, op.name + "_")(*args[1:], **sample.kwargs)
        assert returned is target
        assert_matches(target, to_numpy(expected), dtype=dtype)


@pytest.mark.parametrize("op,dtype", cases(lambda op: op.supports_out))
def test_out_variant(op, dtype, rng):
    for sample in op.sample_inputs(op, dtype, rng):
        args = torch_args(sample, dtype)
        expected = op(*args, **sample.kwargs)
        out = torch.empty(0, dtype=expected.dtype)  # resized by the op
        returned = op(*args, out=out, **sample.kwargs)
        assert returned is out
        assert_matches(out, to_numpy(expected), dtype=expected.dtype)


@pytest.mark.parametrize("op", [pytest.param(op, id=op.id) for op in ALL_OPS if list(op.error_inputs())])
def test_error_inputs(op):
    for err in op.error_inputs():
        with pytest.raises(err.error, match=err.match):
            op(*err.args, **err.kwargs)


def test_every_op_has_records():
    # Each op in the Python namespace that these records should cover is covered.
    names = {op.name for op in ALL_OPS}
    for required in ["add", "sub", "mul", "div", "neg", "exp", "log", "sigmoid", "tanh", "relu", "pow",
                     "sum", "mean", "matmul", "view", "reshape", "transpose", "permute", "contiguous"]:
        assert required in names
