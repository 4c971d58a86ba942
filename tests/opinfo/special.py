"""Special functions (lgamma, digamma, polygamma, Hurwitz zeta, erfinv,
mvlgamma, sinc, logit) against references written here in float64 Python
from their defining series, independent of the C++ kernels' formulation."""
import math

import numpy as np

import torch

from .core import FLOATS, INTS, ErrorInput, KnownValue, OpInfo, SampleInput, float_result, make_array
from .unary import _math, unary, unary_samples


def _digamma(x):
    if x == 0:
        return math.copysign(math.inf, -x)
    if x < 0:
        if x == math.floor(x):
            return math.nan
        return _digamma(1 - x) - math.pi / math.tan(math.pi * x)
    acc = 0.0
    while x < 30:  # recurrence further up than the kernel's, then more series terms
        acc -= 1 / x
        x += 1
    z = 1 / (x * x)
    bernoulli = [1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510]
    series = sum(b / (2 * (k + 1)) * z ** (k + 1) for k, b in enumerate(bernoulli))
    return acc + math.log(x) - 0.5 / x - series


def _zeta(s, q):
    """Hurwitz zeta by 2000 direct terms and a three-term Euler-Maclaurin tail."""
    if s == 1:
        return math.inf
    if s < 1:
        return math.nan
    if q <= 0 and q == math.floor(q):
        return math.inf
    n = 2000
    total = math.fsum((q + k) ** -s for k in range(n))
    a = q + n
    return total + a ** (1 - s) / (s - 1) + 0.5 * a ** -s + s * a ** (-s - 1) / 12


def _polygamma(n, x):
    if n == 0:
        return _digamma(x)
    return (-1) ** (n + 1) * math.factorial(n) * _zeta(n + 1, x)


def _erfinv(y):
    if y in (-1.0, 1.0):
        return math.copysign(math.inf, y)
    lo, hi = -10.0, 10.0
    for _ in range(200):  # bisection: slow and sure
        mid = (lo + hi) / 2
        if math.erf(mid) < y:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def _elementwise(fn):
    def ref(x, *args):
        x64 = np.asarray(x, dtype=np.float64)
        return np.vectorize(lambda v: fn(v, *args), otypes=[np.float64])(x64) if x64.size else x64
    return ref


def _polygamma_samples(op, dtype, rng):
    for n in (1, 2, 3):
        for shape in ((), (5,), (3, 4)):
            yield SampleInput((make_array(shape, dtype, rng, op.domain), n), desc=f"n={n} {shape}")


def _mvlgamma_samples(op, dtype, rng):
    for p in (1, 3):
        for shape in ((), (5,), (2, 3)):
            yield SampleInput((make_array(shape, dtype, rng, op.domain), p), desc=f"p={p} {shape}")


def _mvlgamma(x, p):
    return _elementwise(lambda v: p * (p - 1) / 4 * math.log(math.pi) + sum(math.lgamma(v - j / 2) for j in range(p)))(x)


def _zeta_samples(op, dtype, rng):
    for shape in ((5,), (3, 4)):
        s = make_array(shape, dtype, rng, (1.5, 5.0))
        q = make_array(shape, dtype, rng, (0.5, 5.0))
        yield SampleInput((s, q), desc=str(shape))


def _logit_ref(x, eps=None):
    x64 = np.asarray(x, dtype=np.float64)
    if eps is not None:
        x64 = np.clip(x64, eps, 1 - eps)
    return np.log(x64 / (1 - x64))


def _logit_samples(op, dtype, rng):
    yield from unary_samples(op, dtype, rng)
    yield SampleInput((make_array((4,), dtype, rng, (0.01, 0.99)), 0.2), desc="eps 0.2")


def _entr_ref(x):
    with np.errstate(all="ignore"):
        return np.where(x > 0, -x * np.log(np.where(x > 0, x, 1)), np.where(x == 0, 0, -np.inf)).astype(x.dtype)


SPECIAL_OPS = [
    unary("lgamma", _math(math.lgamma), domain=(0.1, 10.0)),
    unary("digamma", _elementwise(_digamma), domain=(0.1, 10.0)),
    unary("erfinv", _elementwise(_erfinv), domain=(-0.99, 0.99)),
    unary("sinc", np.sinc),
    OpInfo("logit", _logit_ref, FLOATS, _logit_samples, result_dtype=float_result, inplace=True,
           domain=(0.05, 0.95)),
    OpInfo("polygamma", lambda x, n: _elementwise(lambda v: _polygamma(n, v))(x), FLOATS, _polygamma_samples,
           op=lambda x, n: torch.polygamma(n, x), method=False, domain=(0.3, 6.0),
           error_inputs=lambda: [ErrorInput((torch.ones(2), -1), {}, RuntimeError,
                                            "polygamma\\(n, x\\) does not support negative n.")]),
    OpInfo("mvlgamma", _mvlgamma, FLOATS, _mvlgamma_samples, domain=(2.0, 6.0), inplace=True),
    OpInfo("special_zeta", lambda s, q: np.vectorize(_zeta, otypes=[np.float64])(s, q), FLOATS, _zeta_samples,
           op=torch._C._VariableFunctions.special_zeta, method=False, nondifferentiable_args=(0,)),
    # Positive samples for the gradient (log of the negatives is NaN there); zero, negatives and NaN in the knowns.
    OpInfo("special_entr", _entr_ref, FLOATS, unary_samples, op=torch.special.entr, method=False,
           domain=(0.05, 4.0), known_values=lambda: [
               KnownValue((torch.tensor([0.0, -1.0, float("nan"), float("inf")]),), {},
                          torch.tensor([0.0, -float("inf"), float("nan"), -float("inf")]),
                          why="PyTorch's branches: 0 at 0, -inf below, NaN kept")]),
]
