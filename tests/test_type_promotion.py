"""PyTorch's type promotion rules, with the expected dtypes written out."""
import pytest

import torch

t = torch.tensor

CASES = [
    # (a, b, expected dtype of a + b)
    (t([1, 2], dtype=torch.int32), t([1, 2], dtype=torch.int64), torch.int64),
    (t([1, 2], dtype=torch.int32), 2, torch.int32),  # Python int: lower priority
    (t([1, 2], dtype=torch.int32), 2.5, torch.float32),  # Python float: default dtype
    (t([1.0], dtype=torch.float32), t([1.0], dtype=torch.float64), torch.float64),
    (t([1.0], dtype=torch.float32), t(1.0, dtype=torch.float64), torch.float32),  # 0-d tensor: lower priority
    (t([1], dtype=torch.int32), t(1.0, dtype=torch.float64), torch.float64),  # ...unless of a higher category
    (t([True]), t([True]), torch.bool),
    (t([True]), 1, torch.int64),
    (t([True]), 1.5, torch.float32),
    (t([1], dtype=torch.uint8), t([1], dtype=torch.int8), torch.int16),
    (t([1.0], dtype=torch.float64), 2, torch.float64),
]


@pytest.mark.parametrize("a,b,expected", CASES)
def test_add_promotes(a, b, expected):
    assert (a + b).dtype == expected
    assert (b + a).dtype == expected


def test_true_division_of_integers_gives_float():
    assert (t([1, 2]) / t([2, 2])).dtype == torch.float32
    assert (t([1, 2]) / 2).tolist() == [0.5, 1.0]


def test_float_ops_on_integers_give_default_dtype():
    for fn in (torch.exp, torch.sigmoid, torch.tanh, torch.log, torch.sqrt):
        assert fn(t([1, 2])).dtype == torch.float32


def test_sum_of_integers_is_int64():
    assert t([1, 2], dtype=torch.int32).sum().dtype == torch.int64
    assert t([True, True]).sum().item() == 2
    assert t([1.0, 2.0]).sum(dtype=torch.float64).dtype == torch.float64


def test_promote_types():
    assert torch.promote_types(torch.int32, torch.float32) == torch.float32
    assert torch.promote_types(torch.bool, torch.int8) == torch.int8
    assert torch.promote_types(torch.uint8, torch.int8) == torch.int16


def test_out_dtype_must_hold_the_result():
    out = torch.empty(2, dtype=torch.int64)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        torch.add(t([1.0, 2.0]), 1, out=out)
    wide = torch.empty(2, dtype=torch.float64)
    torch.add(t([1.0, 2.0]), 1, out=wide)
    assert wide.tolist() == [2.0, 3.0]


def test_pow_by_zero_or_one_into_an_out_tensor_of_another_dtype_converts():
    # x ** 1 and x ** 0 skip the kernel; the out= tensor still gets the values (difftest found garbage here).
    a = torch.tensor([[-5.08, 1.12], [0.5, 2.0]])
    out = torch.full((2, 2), 7.0, dtype=torch.float64)
    assert torch.pow(a, 1, out=out) is out and torch.equal(out, a.double())
    assert torch.equal(torch.pow(a, 0, out=out), torch.ones(2, 2, dtype=torch.float64))
    half = torch.empty(2, 2, dtype=torch.float16)
    assert torch.equal(torch.pow(a, 1, out=half), a.half())
