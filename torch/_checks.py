"""torch._check and its kin: PyTorch's assertions for operator code (fake
kernels, custom ops), each raising the named exception with the message
(a string, or a callable making one) when the condition is false."""
from __future__ import annotations


def _check_with(error_type, cond, message=None):
    if not isinstance(cond, bool) and not hasattr(cond, "__bool__"):
        raise TypeError(f"cond must be a bool, but got {type(cond)}")
    if cond:
        return
    if message is None:
        text = ("Expected cond to be True, but got False. (Could this error message be improved? If so, please "
                "report an enhancement request to PyTorch.)")
    else:
        if not callable(message):
            raise TypeError("message must be a callable")
        text = str(message())
    raise error_type(text)


def _check(cond, message=None):
    _check_with(RuntimeError, cond, message)


def _check_index(cond, message=None):
    _check_with(IndexError, cond, message)


def _check_value(cond, message=None):
    _check_with(ValueError, cond, message)


def _check_type(cond, message=None):
    _check_with(TypeError, cond, message)


def _check_not_implemented(cond, message=None):
    _check_with(NotImplementedError, cond, message)


def _check_is_size(i, message=None):
    """i is a valid size: an int (or 0-d tensor) at least 0."""
    _check(i >= 0, message)


NAMES = ["_check", "_check_with", "_check_index", "_check_value", "_check_type", "_check_not_implemented",
         "_check_is_size"]
