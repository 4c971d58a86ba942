"""make_tensor: a random tensor of a shape and dtype, with PyTorch's default value ranges."""
import collections.abc
import math
import warnings

import torch


def _range(low, high, *, dtype, lowest, highest_exclusive, default_low, default_high):
    low = default_low if low is None else low
    high = default_high if high is None else high
    if any(isinstance(v, float) and math.isnan(v) for v in (low, high)):
        raise ValueError(f"`low` and `high` cannot be NaN, but got low={low} and high={high}")
    if low == high and dtype.is_floating_point:
        warnings.warn("Passing `low==high` to `torch.testing.make_tensor` for floating or complex types is "
                      "deprecated since 2.1 and will be removed in 2.3. Use `torch.full(...)` instead.", FutureWarning)
    elif low >= high:
        raise ValueError(f"`low` must be less than `high`, but got {low} >= {high}")
    elif high < lowest or low >= highest_exclusive:
        raise ValueError(f"The value interval specified by `low` and `high` is [{low}, {high}), but {dtype} only "
                         f"supports [{lowest}, {highest_exclusive})")
    low = min(max(low, lowest), highest_exclusive)
    high = min(max(high, lowest), highest_exclusive)
    if not dtype.is_floating_point:
        return math.ceil(low), math.ceil(high)
    return low, high


def make_tensor(*shape, dtype, device, low=None, high=None, requires_grad=False, noncontiguous=False,
                exclude_zero=False, memory_format=None):
    """Values uniform in [low, high): -9 to 9 for floating types, -9 to 10 for
    integers (clamped to the dtype), 0 or 1 for bool. noncontiguous gives a
    strided view; exclude_zero replaces zeros with 1 (the smallest normal
    number for floating types)."""
    if len(shape) == 1 and isinstance(shape[0], collections.abc.Sequence):
        shape = shape[0]
    shape = tuple(shape)
    if noncontiguous and memory_format is not None:
        raise ValueError(f"The parameters `noncontiguous` and `memory_format` are mutually exclusive, but got "
                         f"noncontiguous={noncontiguous} and memory_format={memory_format}")
    if requires_grad and not dtype.is_floating_point:
        raise ValueError(f"`requires_grad=True` is not supported for boolean and integral dtypes, but got "
                         f"dtype={dtype}")
    noncontiguous = noncontiguous and math.prod(shape) > 1
    if noncontiguous:  # twice the last dim, then every other element
        shape = (*shape[:-1], 2 * shape[-1])
    if dtype == torch.bool:
        low, high = _range(low, high, dtype=dtype, lowest=0, highest_exclusive=2, default_low=0, default_high=2)
        result = torch.randint(low, high, shape, device=device, dtype=dtype)
    elif not dtype.is_floating_point:
        info = torch.iinfo(dtype)
        low, high = _range(low, high, dtype=dtype, lowest=info.min,
                           highest_exclusive=info.max + (1 if dtype != torch.int64 else 0), default_low=-9,
                           default_high=10)
        result = torch.randint(low, high, shape, device=device, dtype=dtype)
    else:
        info = torch.finfo(dtype)
        low, high = _range(low, high, dtype=dtype, lowest=info.min, highest_exclusive=info.max, default_low=-9,
                           default_high=9)
        result = torch.empty(shape, device=device, dtype=dtype).uniform_(low, high)
    if noncontiguous:
        result = result[..., 1::2]
    elif memory_format is not None:
        result = result.clone(memory_format=memory_format)
    if exclude_zero:
        result[result == 0] = 1 if not dtype.is_floating_point else torch.finfo(dtype).tiny
    if dtype.is_floating_point:
        result.requires_grad = requires_grad
    return result
