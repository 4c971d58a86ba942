"""assert_close: are two values (tensors, numpy arrays, numbers, or
sequences and mappings of them) close, with PyTorch's default tolerances
per dtype and its failure messages."""
import collections.abc
import math
import warnings

import torch

# rtol, atol by dtype, as PyTorch's torch.testing; integers and bool compare exactly.
_PRECISION = {
    torch.float16: (0.001, 1e-5),
    torch.bfloat16: (0.016, 1e-5),
    torch.float32: (1.3e-6, 1e-5),
    torch.float64: (1e-7, 1e-7),
}


class _Failure(Exception):
    """A mismatch, with what PyTorch would raise for it."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind, self.message = kind, message


def _tolerances(*dtypes, rtol, atol):
    if (rtol is None) != (atol is None):
        raise ValueError(f"Both 'rtol' and 'atol' must be either specified or omitted, but got no "
                         f"{'rtol' if rtol is None else 'atol'}.")
    if rtol is not None:
        return rtol, atol
    rtols, atols = zip(*(_PRECISION.get(d, (0.0, 0.0)) for d in dtypes))
    return max(rtols), max(atols)


def _number_dtype(x):
    if isinstance(x, bool):
        return torch.bool
    return torch.int64 if isinstance(x, int) else torch.float64


def _is_number(x):
    return isinstance(x, (bool, int, float))


def _is_tensor_like(x):
    try:
        import numpy as np
        if isinstance(x, np.ndarray):
            return True
    except ImportError:
        pass
    return isinstance(x, torch.Tensor)


def _diff_line(kind, diff, index, tol):
    line = f"{kind.title()} difference: {diff}" if index is None else f"Greatest {kind} difference: {diff} at index {index}"
    return line + (f" (up to {tol} allowed)" if tol > 0 else "")


def _scalar_message(actual, expected, rtol, atol, exact):
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return (f"Scalars are not {'equal' if exact else 'close'}!\n\nExpected {expected} but got {actual}.\n"
            + _diff_line("absolute", abs_diff, None, atol) + "\n" + _diff_line("relative", rel_diff, None, rtol))


def _compare_numbers(actual, expected, rtol, atol, equal_nan):
    rtol, atol = _tolerances(_number_dtype(actual), _number_dtype(expected), rtol=rtol, atol=atol)
    if actual == expected:
        return
    if equal_nan and isinstance(actual, float) and isinstance(expected, float) and math.isnan(actual) \
            and math.isnan(expected):
        return
    if math.isfinite(actual) and math.isfinite(expected) and abs(actual - expected) <= atol + rtol * abs(expected):
        return
    exact = rtol == 0 and atol == 0
    raise _Failure(AssertionError, _scalar_message(actual, expected, rtol, atol, exact))


def _unravel(flat, shape):
    index = []
    for size in reversed(shape):
        index.append(flat % size)
        flat //= size
    return tuple(reversed(index))


def _compare_tensors(actual, expected, rtol, atol, equal_nan, check_device, check_dtype, check_layout, check_stride):
    actual, expected = torch.as_tensor(actual), torch.as_tensor(expected)
    checks = [("shape", lambda t: t.shape, True), ("device", lambda t: t.device, check_device),
              ("dtype", lambda t: t.dtype, check_dtype), ("layout", lambda t: t.layout, check_layout),
              ("stride()", lambda t: t.stride(), check_stride)]
    for name, get, enabled in checks:
        if enabled and get(actual) != get(expected):
            raise _Failure(AssertionError,
                           f"The values for attribute '{name}' do not match: {get(actual)} != {get(expected)}.")
    rtol, atol = _tolerances(actual.dtype, expected.dtype, rtol=rtol, atol=atol)
    actual, expected = actual.detach(), expected.detach()
    if actual.device != expected.device:
        actual, expected = actual.cpu(), expected.cpu()
    if actual.dtype != expected.dtype:
        common = torch.promote_types(actual.dtype, expected.dtype)
        actual, expected = actual.to(common), expected.to(common)
    floating = actual.dtype.is_floating_point
    if floating:
        matches = torch.isclose(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan)
    else:
        matches = actual == expected
    if bool(matches.all()):
        return
    exact = not floating
    if actual.dim() == 0:
        raise _Failure(AssertionError, _scalar_message(actual.item(), expected.item(), rtol, atol, exact))
    mismatches = ~matches
    total, count = mismatches.numel(), int(mismatches.sum())
    a, e, ok = actual.reshape(-1), expected.reshape(-1), matches.reshape(-1)
    if not floating:
        a, e = a.to(torch.int64), e.to(torch.int64)
    abs_diff = (a - e).abs()
    abs_diff[ok] = 0
    max_abs, abs_at = torch.max(abs_diff, 0)
    rel_diff = abs_diff / e.abs()
    rel_diff[ok] = 0
    max_rel, rel_at = torch.max(rel_diff, 0)
    message = (f"Tensor-likes are not {'equal' if exact else 'close'}!\n\n"
               f"Mismatched elements: {count} / {total} ({count / total:.1%})\n"
               + _diff_line("absolute", max_abs.item(), _unravel(int(abs_at), actual.shape), atol) + "\n"
               + _diff_line("relative", max_rel.item(), _unravel(int(rel_at), actual.shape), rtol))
    raise _Failure(AssertionError, message)


def _compare_pair(actual, expected, options):
    sequence = lambda x: isinstance(x, collections.abc.Sequence) and not isinstance(x, str)  # noqa: E731
    if sequence(actual) and sequence(expected):
        if len(actual) != len(expected):
            raise _Failure(AssertionError, f"The length of the sequences mismatch: {len(actual)} != {len(expected)}")
        for i, (a, e) in enumerate(zip(actual, expected)):
            _compare_item(a, e, i, options)
        return
    if isinstance(actual, collections.abc.Mapping) and isinstance(expected, collections.abc.Mapping):
        keys_a, keys_e = set(actual), set(expected)
        if keys_a != keys_e:
            missing, extra = sorted(keys_e - keys_a, key=repr), sorted(keys_a - keys_e, key=repr)
            raise _Failure(AssertionError, "The keys of the mappings do not match:\n"
                           + (f"Missing keys in the actual mapping: {missing}\n" if missing else "")
                           + (f"Additional keys in the actual mapping: {extra}" if extra else "").rstrip("\n"))
        for key in sorted(keys_a, key=repr):
            _compare_item(actual[key], expected[key], key, options)
        return
    if actual is None and expected is None:
        return
    if isinstance(actual, bool) and isinstance(expected, bool):
        if actual is not expected:
            raise _Failure(AssertionError, f"Booleans mismatch: {actual} is not {expected}")
        return
    if _is_number(actual) and _is_number(expected):
        _compare_numbers(actual, expected, options["rtol"], options["atol"], options["equal_nan"])
        return
    if _is_tensor_like(actual) and _is_tensor_like(expected) and \
            isinstance(actual, torch.Tensor) == isinstance(expected, torch.Tensor):
        if not options["allow_subclasses"] and type(actual) is not type(expected):
            raise _Failure(TypeError, f"Except for Python scalars, type equality is required if allow_subclasses=False, "
                                      f"but got {type(actual)} and {type(expected)} instead.")
        _compare_tensors(actual, expected, options["rtol"], options["atol"], options["equal_nan"],
                         options["check_device"], options["check_dtype"], options["check_layout"],
                         options["check_stride"])
        return
    raise _Failure(TypeError, f"No comparison pair was able to handle inputs of type {type(actual)} and "
                              f"{type(expected)}.")


def _compare_item(actual, expected, key, options):
    try:
        _compare_pair(actual, expected, options)
    except _Failure as failure:
        if failure.kind is AssertionError:
            suffix = f"[{key!r}]"
            if "\n\nThe failure occurred for item " in failure.message:
                head, tail = failure.message.rsplit("\n\nThe failure occurred for item ", 1)
                failure.message = f"{head}\n\nThe failure occurred for item {suffix}{tail}"
            else:
                failure.message += f"\n\nThe failure occurred for item {suffix}"
        raise


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False,
                 check_device=True, check_dtype=True, check_layout=True, check_stride=False, msg=None):
    """Raises AssertionError unless actual and expected are close:
    |actual - expected| <= atol + rtol * |expected| elementwise, with the
    dtype's default rtol and atol when neither is given (float32: 1.3e-6 and
    1e-5; float64: 1e-7 and 1e-7; float16: 1e-3 and 1e-5; bfloat16: 1.6e-2
    and 1e-5; integers and bool: exact), after checking shape, device, dtype,
    layout and (if asked) strides. Sequences and mappings compare item by item."""
    options = dict(allow_subclasses=allow_subclasses, rtol=rtol, atol=atol, equal_nan=equal_nan,
                   check_device=check_device, check_dtype=check_dtype, check_layout=check_layout,
                   check_stride=check_stride)
    try:
        _compare_pair(actual, expected, options)
    except _Failure as failure:
        message = failure.message
        if failure.kind is AssertionError and msg is not None:
            message = msg(message) if callable(msg) else msg
        raise failure.kind(message) from None


def assert_allclose(actual, expected, rtol=None, atol=None, equal_nan=True, msg=""):
    """Deprecated since PyTorch 1.12: assert_close with check_dtype=False and equal_nan=True."""
    warnings.warn("`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed in a future release. "
                  "Please use `torch.testing.assert_close()` instead.", FutureWarning, stacklevel=2)
    if not isinstance(actual, torch.Tensor):
        actual = torch.tensor(actual)
    if not isinstance(expected, torch.Tensor):
        expected = torch.tensor(expected, dtype=actual.dtype)
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=True, check_dtype=False,
                 check_stride=False, msg=msg or None)
