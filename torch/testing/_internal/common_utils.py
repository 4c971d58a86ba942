"""TestCase and run_tests as extension test suites use them: a
unittest.TestCase whose assertEqual compares tensors (and sequences of
them) with torch.testing.assert_close, exactly by default for equal dtypes."""
from __future__ import annotations

import unittest

import torch

__all__ = ["TestCase", "run_tests"]


def _has_tensor(value) -> bool:
    if isinstance(value, torch.Tensor):
        return True
    if isinstance(value, (list, tuple)):
        return any(_has_tensor(v) for v in value)
    return False


class TestCase(unittest.TestCase):
    def assertEqual(self, x, y, msg=None, *, atol=None, rtol=None, exact_dtype=True, **kwargs):  # noqa: N802
        if _has_tensor(x) or _has_tensor(y):
            torch.testing.assert_close(x, y, atol=atol, rtol=rtol, check_dtype=exact_dtype, msg=msg)
        else:
            super().assertEqual(x, y, msg)

    def assertNotEqual(self, x, y, msg=None, **kwargs):  # noqa: N802
        if _has_tensor(x) or _has_tensor(y):
            with self.assertRaises(AssertionError, msg=msg):
                torch.testing.assert_close(x, y, **kwargs)
        else:
            super().assertNotEqual(x, y, msg)


def run_tests() -> None:
    unittest.main()
