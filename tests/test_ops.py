"""Generic operator tests, run over every record in opinfo/."""
import numpy as np
import pytest

import torch
from opinfo import ALL_OPS
from testing import NUMPY_DTYPE, assert_matches, noncontiguous, to_numpy, to_torch


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


def _same(got, expect):
    assert got.dtype == expect.dtype and got.shape == expect.shape, (got, expect)
    g, e = got.detach().double().reshape(-1).tolist(), expect.double().reshape(-1).tolist()
    for a, b in zip(g, e):
        assert (a != a and b != b) or a == b or abs(a - b) <= 1e-6 * max(1.0, abs(b)), (got, expect)


@pytest.mark.parametrize("op", [pytest.param(op, id=op.id) for op in ALL_OPS if list(op.known_values())])
def test_known_values(op):
    # Each record is a difference tools/difftest found once; the answer is PyTorch 2.13's.
    for known in op.known_values():
        args = [a.detach().clone().requires_grad_(known.grad_of == i) if isinstance(a, torch.Tensor) else a
                for i, a in enumerate(known.args)]
        result = op(*args, **known.kwargs)
        if known.grad_of is None:
            _same(result, known.expect)
        else:
            result.sum().backward()
            _same(args[known.grad_of].grad, known.expect)


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


def _half_cases():
    return [
        pytest.param(op, dtype, id=f"{op.id}-{str(dtype).replace('torch.', '')}")
        for op in ALL_OPS
        if torch.float32 in op.dtypes
        for dtype in (torch.float16, torch.bfloat16)
    ]


def _cast_floats(args, dtype):
    out = []
    for a in args:
        if isinstance(a, list):
            out.append(_cast_floats(a, dtype))
        elif isinstance(a, torch.Tensor) and a.is_floating_point():
            out.append(a.to(dtype))
        else:
            out.append(a)
    return out


@pytest.mark.parametrize("op,dtype", _half_cases())
def test_half_precision_matches_float32(op, dtype, rng):
    """float16/bfloat16 results equal float32 ones on the same (rounded) inputs, to their precision."""
    tol = 1e-2 if dtype == torch.float16 else 4e-2
    for sample in op.sample_inputs(op, torch.float32, rng):
        low = _cast_floats(torch_args(sample, torch.float32), dtype)
        high = _cast_floats(low, torch.float32)
        expected = op(*high, **sample.kwargs)
        actual = op(*low, **sample.kwargs)
        if expected.is_floating_point():
            assert actual.dtype == dtype, sample.desc
            assert_matches(actual.to(torch.float32), to_numpy(expected), rtol=tol, atol=tol)
        else:
            assert_matches(actual, to_numpy(expected), dtype=expected.dtype)
