"""Every program in oracle/cases.py gives the answer real PyTorch 2.13 gave (oracle/values.json)."""
import json
import math
import os

import pytest

from oracle.cases import CASES

with open(os.path.join(os.path.dirname(__file__), "oracle", "values.json")) as f:
    RECORDED = json.load(f)["cases"]


def test_every_case_is_recorded():
    assert sorted(CASES) == sorted(RECORDED), "run tests/oracle/record.py under real PyTorch after adding a case"


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_pytorch(name):
    actual, expected = CASES[name](), RECORDED[name]
    assert len(actual) == len(expected), f"{name}: {len(actual)} values, PyTorch gave {len(expected)}"
    for i, (a, e) in enumerate(zip(actual, expected)):
        if isinstance(e, float) and math.isnan(e):
            assert math.isnan(a), f"{name}[{i}]: {a}, PyTorch gave nan"
            continue
        # bfloat16 results (autocast) round at the 8th bit; everything else is float64.
        tol = 1e-2 if name.startswith("autocast") else 1e-7
        assert a == pytest.approx(e, rel=tol, abs=tol), f"{name}[{i}]: {a}, PyTorch gave {e}"
