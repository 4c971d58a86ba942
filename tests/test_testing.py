"""torch.testing against PyTorch 2.13's own answers: assert_close's verdicts and messages
(recorded from PyTorch for each call below), make_tensor's ranges, finfo and iinfo."""
import math

import numpy as np
import pytest

import torch
from torch.testing import assert_close as ac
from torch.testing import make_tensor as mt

# (call, what PyTorch 2.13 raised for it: "OK" or "Class: message")
CASES = [
    ('ac(torch.tensor([1.,2,3]), torch.tensor([1.,2.5,3]))',
     "AssertionError: 'Tensor-likes are not close!\\n\\nMismatched elements: 1 / 3 (33.3%)\\nGreatest absolute difference: 0.5 at index (1,) (up to 1e-05 allowed)\\nGreatest relative difference: 0.20000000298023224 at index (1,) (up to 1.3e-06 allowed)'"),
    ('ac(torch.tensor([1,2,3]), torch.tensor([1,3,3]))',
     "AssertionError: 'Tensor-likes are not equal!\\n\\nMismatched elements: 1 / 3 (33.3%)\\nGreatest absolute difference: 1 at index (1,)\\nGreatest relative difference: 0.3333333432674408 at index (1,)'"),
    ('ac(torch.tensor([1.,2]), torch.tensor([1.,2,3]))',
     'AssertionError: "The values for attribute \'shape\' do not match: torch.Size([2]) != torch.Size([3])."'),
    ('ac(torch.tensor([1.,2]), torch.tensor([1.,2]).double())',
     'AssertionError: "The values for attribute \'dtype\' do not match: torch.float32 != torch.float64."'),
    ('ac(torch.tensor([1.,2]), torch.tensor([1.,2]).double(), check_dtype=False)',
     'OK'),
    ('ac(1.0, 1.5)',
     "AssertionError: 'Scalars are not close!\\n\\nExpected 1.5 but got 1.0.\\nAbsolute difference: 0.5 (up to 1e-07 allowed)\\nRelative difference: 0.3333333333333333 (up to 1e-07 allowed)'"),
    ('ac(1, 2)',
     "AssertionError: 'Scalars are not equal!\\n\\nExpected 2 but got 1.\\nAbsolute difference: 1\\nRelative difference: 0.5'"),
    ('ac(torch.tensor(1.), 1.)',
     'TypeError: "No comparison pair was able to handle inputs of type <class \'torch.Tensor\'> and <class \'float\'>."'),
    ('ac([torch.tensor(1.), torch.tensor(2.)], [torch.tensor(1.), torch.tensor(3.)])',
     "AssertionError: 'Scalars are not close!\\n\\nExpected 3.0 but got 2.0.\\nAbsolute difference: 1.0 (up to 1e-05 allowed)\\nRelative difference: 0.3333333333333333 (up to 1.3e-06 allowed)\\n\\nThe failure occurred for item [1]'"),
    ('ac([1, 2], [1, 2, 3])',
     "AssertionError: 'The length of the sequences mismatch: 2 != 3'"),
    ("ac({'a': 1}, {'b': 1})",
     'AssertionError: "The keys of the mappings do not match:\\nMissing keys in the actual mapping: [\'b\']\\nAdditional keys in the actual mapping: [\'a\']"'),
    ("ac({'a': torch.tensor(1.)}, {'a': torch.tensor(2.)})",
     'AssertionError: "Scalars are not close!\\n\\nExpected 2.0 but got 1.0.\\nAbsolute difference: 1.0 (up to 1e-05 allowed)\\nRelative difference: 0.5 (up to 1.3e-06 allowed)\\n\\nThe failure occurred for item [\'a\']"'),
    ("ac(torch.tensor([float('nan')]), torch.tensor([float('nan')]))",
     "AssertionError: 'Tensor-likes are not close!\\n\\nMismatched elements: 1 / 1 (100.0%)\\nGreatest absolute difference: nan at index (0,) (up to 1e-05 allowed)\\nGreatest relative difference: nan at index (0,) (up to 1.3e-06 allowed)'"),
    ("ac(torch.tensor([float('nan')]), torch.tensor([float('nan')]), equal_nan=True)",
     'OK'),
    ('ac(torch.tensor([1.]), torch.tensor([1.1]), rtol=0.2)',
     'ValueError: "Both \'rtol\' and \'atol\' must be either specified or omitted, but got no atol."'),
    ("ac(torch.tensor([1.]), torch.tensor([1.1]), msg='custom')",
     "AssertionError: 'custom'"),
    ("ac(torch.tensor([1.]), torch.tensor([1.1]), msg=lambda m: 'X'+m[:5])",
     "AssertionError: 'XTenso'"),
    ('ac(torch.tensor([[1.,2],[3,4]]), torch.tensor([[1.,2],[3,5]]))',
     "AssertionError: 'Tensor-likes are not close!\\n\\nMismatched elements: 1 / 4 (25.0%)\\nGreatest absolute difference: 1.0 at index (1, 1) (up to 1e-05 allowed)\\nGreatest relative difference: 0.20000000298023224 at index (1, 1) (up to 1.3e-06 allowed)'"),
    ('ac(torch.tensor([True]), torch.tensor([False]))',
     "AssertionError: 'Tensor-likes are not equal!\\n\\nMismatched elements: 1 / 1 (100.0%)\\nGreatest absolute difference: 1 at index (0,)\\nGreatest relative difference: inf at index (0,)'"),
    ('ac(torch.tensor([1.], dtype=torch.float16), torch.tensor([1.0009765625], dtype=torch.float16))',
     'OK'),
    ('ac(torch.tensor([0.]), torch.tensor([1e-6]))',
     'OK'),
    ("ac('a', 'b')",
     'TypeError: "No comparison pair was able to handle inputs of type <class \'str\'> and <class \'str\'>."'),
    ('ac(torch.ones(2,3).t(), torch.ones(3,2), check_stride=True)',
     'AssertionError: "The values for attribute \'stride()\' do not match: (1, 3) != (2, 1)."'),
    ("ac(torch.tensor([1., float('inf')]), torch.tensor([1., float('inf')]))",
     'OK'),
    ("ac(torch.tensor([1., float('inf')]), torch.tensor([1., float('-inf')]))",
     "AssertionError: 'Tensor-likes are not close!\\n\\nMismatched elements: 1 / 2 (50.0%)\\nGreatest absolute difference: inf at index (1,) (up to 1e-05 allowed)\\nGreatest relative difference: nan at index (1,) (up to 1.3e-06 allowed)'"),
    ('ac(np.array([1.,2]), np.array([1.,2.1]))',
     "AssertionError: 'Tensor-likes are not close!\\n\\nMismatched elements: 1 / 2 (50.0%)\\nGreatest absolute difference: 0.10000000000000009 at index (1,) (up to 1e-07 allowed)\\nGreatest relative difference: 0.04761904761904766 at index (1,) (up to 1e-07 allowed)'"),
    ('ac(torch.empty(0), torch.empty(0))',
     'OK'),
    ('ac(torch.tensor([1., 2]), torch.tensor([1., 2]).requires_grad_())',
     'OK'),
    ('ac([[1.0, 2.0], [3.0]], [[1.0, 2.0], [3.5]])',
     "AssertionError: 'Scalars are not close!\\n\\nExpected 3.5 but got 3.0.\\nAbsolute difference: 0.5 (up to 1e-07 allowed)\\nRelative difference: 0.14285714285714285 (up to 1e-07 allowed)\\n\\nThe failure occurred for item [1][0]'"),
    ("ac({'a': [1, {'b': 2.0}]}, {'a': [1, {'b': 2.5}]})",
     'AssertionError: "Scalars are not close!\\n\\nExpected 2.5 but got 2.0.\\nAbsolute difference: 0.5 (up to 1e-07 allowed)\\nRelative difference: 0.2 (up to 1e-07 allowed)\\n\\nThe failure occurred for item [\'a\'][1][\'b\']"'),
    ('ac(torch.tensor([1, 2]), torch.tensor([1., 2.5]), check_dtype=False)',
     "AssertionError: 'Tensor-likes are not close!\\n\\nMismatched elements: 1 / 2 (50.0%)\\nGreatest absolute difference: 0.5 at index (1,) (up to 1e-05 allowed)\\nGreatest relative difference: 0.20000000298023224 at index (1,) (up to 1.3e-06 allowed)'"),
    ('ac(torch.tensor([1.]), np.array([1.]))',
     'TypeError: "No comparison pair was able to handle inputs of type <class \'torch.Tensor\'> and <class \'numpy.ndarray\'>."'),
    ('ac(None, None)',
     'OK'),
    ('ac(torch.tensor([1.]), torch.tensor([1.]), rtol=0.1)',
     'ValueError: "Both \'rtol\' and \'atol\' must be either specified or omitted, but got no atol."'),
    ("ac(float('nan'), float('nan'), equal_nan=True)",
     'OK'),
    ('ac(True, False)',
     "AssertionError: 'Booleans mismatch: True is not False'"),
]

MAKE_TENSOR_ERRORS = [
    ("mt(2, dtype=torch.float32, device='cpu', low=5, high=1)", ValueError, "`low` must be less than `high`, but got 5 >= 1"),
    ("mt(2, dtype=torch.int64, device='cpu', requires_grad=True)", ValueError,
     "`requires_grad=True` is not supported for boolean and integral dtypes, but got dtype=torch.int64"),
    ("mt(2, dtype=torch.float32, device='cpu', low=float('nan'))", ValueError,
     "`low` and `high` cannot be NaN, but got low=nan and high=9"),
    ("mt(2, dtype=torch.uint8, device='cpu', low=-5, high=-1)", ValueError,
     "The value interval specified by `low` and `high` is [-5, -1), but torch.uint8 only supports [0, 256)"),
    ("torch.finfo(torch.int64)", TypeError,
     "torch.finfo() requires a floating point input type. Use torch.iinfo to handle 'torch.finfo'"),
    ("torch.iinfo(torch.bool)", TypeError, "torch.bool is not supported by torch.iinfo"),
    ("torch.iinfo(torch.float32)", TypeError,
     "torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'"),
]


def _outcome(call):
    try:
        eval(call, {"ac": ac, "mt": mt, "torch": torch, "np": np})
        return "OK"
    except Exception as e:  # noqa: BLE001 - the class is part of the answer
        return f"{type(e).__name__}: {str(e)!r}"


@pytest.mark.parametrize("call,expected", CASES, ids=[c for c, _ in CASES])
def test_assert_close_as_pytorch(call, expected):
    assert _outcome(call) == expected


@pytest.mark.parametrize("call,error,message", MAKE_TENSOR_ERRORS, ids=[c for c, _, _ in MAKE_TENSOR_ERRORS])
def test_make_tensor_and_info_errors(call, error, message):
    with pytest.raises(error) as info:
        eval(call, {"mt": mt, "torch": torch})
    assert str(info.value) == message


@pytest.mark.parametrize("dtype,low,high", [(torch.float32, -9, 9), (torch.float64, -9, 9), (torch.int64, -9, 10),
                                            (torch.uint8, 0, 10), (torch.int8, -9, 10), (torch.bool, 0, 2),
                                            (torch.bfloat16, -9, 9)])
def test_make_tensor_default_ranges(dtype, low, high):
    x = mt(4000, dtype=dtype, device="cpu")
    assert x.dtype == dtype and x.shape == (4000,)
    values = x.to(torch.float64)
    assert values.min() >= low and values.max() < high
    assert values.max() - values.min() >= (high - low) * 0.5  # spread over the range, not a constant


def test_make_tensor_options():
    x = mt(3, 4, dtype=torch.float32, device="cpu", noncontiguous=True)
    assert x.shape == (3, 4) and not x.is_contiguous()
    assert mt((2, 3), dtype=torch.float64, device="cpu").shape == (2, 3)
    assert mt((), dtype=torch.float32, device="cpu").shape == ()
    assert mt(2, dtype=torch.float64, device="cpu", requires_grad=True).requires_grad
    x = mt(500, dtype=torch.int64, device="cpu", low=-1, high=2, exclude_zero=True)
    assert not bool((x == 0).any()) and set(x.tolist()) <= {-1, 1}
    x = mt(500, dtype=torch.float32, device="cpu", low=0, high=1e-30, exclude_zero=True)
    assert not bool((x == 0).any())


def test_finfo_iinfo_values():
    f = torch.finfo(torch.float32)
    assert (f.bits, f.eps, f.max, f.tiny, f.resolution) == (32, 2.0**-23, 3.4028234663852886e38, 2.0**-126, 1e-06)
    assert torch.finfo(torch.float16).max == 65504.0 and torch.finfo(torch.bfloat16).eps == 0.0078125
    assert torch.finfo() == torch.finfo(torch.get_default_dtype())
    assert repr(torch.finfo(torch.float16)) == ("finfo(resolution=0.001, min=-65504, max=65504, eps=0.000976562, "
                                                "smallest_normal=6.10352e-05, tiny=6.10352e-05, dtype=float16)")
    i = torch.iinfo(torch.int64)
    assert (i.bits, i.min, i.max) == (64, -2**63, 2**63 - 1) and torch.iinfo(torch.uint8).max == 255
    assert math.isclose(torch.finfo(torch.float64).eps, 2.220446049250313e-16)


def test_isclose_follows_pytorch():
    a = torch.tensor([float("inf"), float("inf"), 1.0, float("nan")], dtype=torch.float64)
    b = torch.tensor([float("inf"), float("-inf"), 1.0 + 1e-9, float("nan")], dtype=torch.float64)
    assert torch.isclose(a, b).tolist() == [True, False, True, False]
    assert torch.isclose(a, b, equal_nan=True).tolist() == [True, False, True, True]
    assert torch.isclose(torch.tensor([1, 2]), torch.tensor([1, 3]), rtol=0.5).tolist() == [True, True]
    with pytest.raises(RuntimeError, match="rtol must be greater than or equal to zero, but got -1"):
        torch.isclose(a, b, rtol=-1)
