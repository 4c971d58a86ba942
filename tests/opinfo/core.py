"""The OpInfo record and the helpers that make sample inputs."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Optional

import numpy as np

import torch

FLOATS = (torch.float32, torch.float64)
INTS = (torch.int32, torch.int64)
ALL = FLOATS + INTS + (torch.bool,)
NUMERIC = FLOATS + INTS


@dataclass
class SampleInput:
    """Positional args (numpy arrays become tensors of the sample's dtype) and kwargs."""

    args: tuple
    kwargs: dict = field(default_factory=dict)
    desc: str = ""


@dataclass
class ErrorInput:
    """Arguments (already tensors) that must raise `error` with a message matching `match`."""

    args: tuple
    kwargs: dict
    error: type
    match: str


def same_dtype(dtype):
    return dtype


def float_result(dtype):
    """Ops that compute in floating point lift integers and bool to the default dtype."""
    return dtype if dtype.is_floating_point else torch.get_default_dtype()


@dataclass
class KnownValue:
    """A call whose exact answer PyTorch 2.13 gives: a regression record for a
    difference tools/difftest once found. `expect` is a tensor (values, dtype
    and shape must match, NaN where NaN) or, with `grad_of`, the gradient of
    sum(result) with respect to that argument index."""

    args: tuple
    kwargs: dict
    expect: Any
    grad_of: Optional[int] = None
    why: str = ""


@dataclass
class OpInfo:
    name: str
    ref: Callable  # numpy reference: ref(*numpy_args, **kwargs)
    dtypes: tuple
    sample_inputs: Callable[["OpInfo", Any, np.random.Generator], Iterable[SampleInput]]
    variant: str = ""  # tells apart records of one op (div with rounding modes)
    op: Optional[Callable] = None  # defaults to torch.<name>
    result_dtype: Callable = same_dtype
    method: bool = True  # Tensor.<name> exists
    inplace: bool = False  # Tensor.<name>_ exists
    supports_out: bool = False
    error_inputs: Callable[[], Iterable[ErrorInput]] = lambda: ()
    domain: tuple = (-5.0, 5.0)  # range of random float inputs
    # A Python number may stand for the second operand (t.eq(2)); ops without
    # that in PyTorch (minimum, logical_and) raise TypeError for one.
    takes_numbers: bool = True
    # Exact PyTorch answers for inputs that once came out differently (KnownValue).
    known_values: Callable[[], Iterable[KnownValue]] = lambda: ()
    # Positions of tensor arguments with no gradient, which must not require
    # grad (derivatives.yaml: non_differentiable), such as nll_loss's weight.
    nondifferentiable_args: tuple = ()
    # The in-place variant writes the result in self's dtype (eq_ on floats
    # gives 0./1.) where the functional one returns bool.
    inplace_casts_result: bool = False

    @property
    def id(self) -> str:
        return self.name + (f"_{self.variant}" if self.variant else "")

    def __call__(self, *args, **kwargs):
        fn = self.op or getattr(torch, self.name)
        return fn(*args, **kwargs)


def make_array(shape, dtype, rng, domain=(-5.0, 5.0), nonzero=False):
    """Random values of a torch dtype, as a numpy array."""
    from testing import NUMPY_DTYPE

    lo, hi = domain
    if dtype == torch.bool:
        arr = rng.integers(0, 2, size=shape).astype(np.bool_)
        if nonzero:
            arr[...] = True
    elif dtype.is_floating_point:
        arr = rng.uniform(lo, hi, size=shape)
        if nonzero:
            arr[np.abs(arr) < 0.1] = 0.5
    else:
        arr = rng.integers(int(np.ceil(lo)), int(np.floor(hi)) + 1, size=shape)
        if nonzero:
            arr[arr == 0] = 1
    return np.asarray(arr, dtype=NUMPY_DTYPE[dtype])


def python_scalar(dtype, rng):
    """A Python number of the same kind as dtype (bool, int or float)."""
    if dtype == torch.bool:
        return True
    if dtype.is_floating_point:
        return float(rng.uniform(0.5, 3.0))
    return int(rng.integers(1, 4))
