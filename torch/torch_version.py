"""torch.__version__ as PyTorch gives it: a str that compares as a version,
with version strings and tuples (`torch.__version__ >= "2.6.0"`,
`torch.__version__ >= (2, 0)`), as setup.py files of extensions compare it."""
from __future__ import annotations

import re
from typing import Any

__all__ = ["TorchVersion"]

# PEP 440's common forms: 1.2.3, 1.2.3rc1, 1.2.3.post1, 1.2.3.dev4, with a +local label.
_VERSION = re.compile(r"^v?(\d+(?:\.\d+)*)(?:(a|b|rc)(\d+))?(?:\.post(\d+))?(?:\.dev(\d+))?(?:\+([0-9A-Za-z.]+))?$")
_PRE_ORDER = {"a": 0, "b": 1, "rc": 2}


def _key(text: str) -> tuple:
    m = _VERSION.match(text.strip())
    if m is None:
        raise ValueError(f"not a version: {text!r}")
    release, pre, pre_n, post, dev, local = m.groups()
    numbers = tuple(int(p) for p in release.split("."))
    numbers += (0,) * (8 - len(numbers))  # 2.6 == 2.6.0
    # A pre-release sorts before the release, a dev build before both, a post release after.
    pre_key = (_PRE_ORDER[pre], int(pre_n)) if pre else ((-1, 0) if dev and not post else (3, 0))
    local_key = tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in (local or "").split(".") if p)
    return numbers, pre_key, int(post) if post else -1, int(dev) if dev else float("inf"), local_key


class TorchVersion(str):
    def _other_key(self, other: Any) -> tuple:
        if isinstance(other, tuple):
            other = ".".join(str(p) for p in other)
        if not isinstance(other, str):
            raise TypeError(f"cannot compare a version with {type(other).__name__}")
        return _key(other)

    def _compare(self, other: Any, op) -> bool:
        try:
            return op(_key(self), self._other_key(other))
        except ValueError:  # not a version: compare as strings, as PyTorch falls back to
            return op(str(self), str(other))

    def __lt__(self, other):
        return self._compare(other, lambda a, b: a < b)

    def __le__(self, other):
        return self._compare(other, lambda a, b: a <= b)

    def __gt__(self, other):
        return self._compare(other, lambda a, b: a > b)

    def __ge__(self, other):
        return self._compare(other, lambda a, b: a >= b)

    def __eq__(self, other):
        return self._compare(other, lambda a, b: a == b)

    def __ne__(self, other):
        return not self == other

    __hash__ = str.__hash__
