"""torch.special: the special functions PyTorch groups here, as the ops they
are (expit is sigmoid, psi digamma, ...) or compositions of them."""
import math

import torch
from torch import _C

__all__ = [
    "digamma", "entr", "erf", "erfc", "erfcx", "erfinv", "exp2", "expit", "expm1", "gammaln", "log1p",
    "log_ndtr", "log_softmax", "logit", "logsumexp", "multigammaln", "ndtr", "ndtri", "polygamma", "psi", "round",
    "sinc", "softmax", "xlog1py", "xlogy", "zeta",
]

digamma = psi = torch.digamma
erf, erfc, erfinv, exp2, expm1, log1p = torch.erf, torch.erfc, torch.erfinv, torch.exp2, torch.expm1, torch.log1p
expit = torch.sigmoid
gammaln = torch.lgamma
logsumexp = torch.logsumexp
polygamma = torch.polygamma
round = torch.round
xlogy = torch.xlogy
zeta = _C._VariableFunctions.special_zeta
multigammaln = torch.mvlgamma


def logit(input, eps=None, *, out=None):
    return torch.logit(input, eps, out=out)


def softmax(input, dim, *, dtype=None):
    return torch.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim, *, dtype=None):
    return torch.log_softmax(input, dim, dtype=dtype)


sinc = torch.sinc


def entr(input, *, out=None):
    """-x log x for x > 0, 0 at 0, -inf below: the native special_entr; this adds out=."""
    result = _C._VariableFunctions.special_entr(input)
    return out.copy_(result) if out is not None else result


def xlog1py(input, other, *, out=None):
    """input * log1p(other), 0 where input is 0 (unless other is NaN)."""
    if not isinstance(input, torch.Tensor):
        input = torch.tensor(input, dtype=torch.get_default_dtype())
    if not isinstance(other, torch.Tensor):
        other = torch.tensor(other, dtype=torch.get_default_dtype())
    dtype = torch.promote_types(torch.promote_types(input.dtype, other.dtype), torch.get_default_dtype()) \
        if not (input.is_floating_point() or other.is_floating_point()) else torch.promote_types(input.dtype,
                                                                                                 other.dtype)
    x, y = input.to(dtype), other.to(dtype)
    result = torch.where((x == 0) & ~y.isnan(), x * 0, x * y.log1p())
    return out.copy_(result) if out is not None else result


def ndtr(input, *, out=None):
    """The standard normal CDF: (1 + erf(x / sqrt 2)) / 2, as erfc for the left tail."""
    x = input if input.is_floating_point() else input.to(torch.get_default_dtype())
    result = torch.erfc(-x * (1 / math.sqrt(2))) * 0.5
    return out.copy_(result) if out is not None else result


def ndtri(input, *, out=None):
    """The standard normal quantile: sqrt 2 * erfinv(2p - 1)."""
    x = input if input.is_floating_point() else input.to(torch.get_default_dtype())
    result = torch.erfinv(2 * x - 1) * math.sqrt(2)
    return out.copy_(result) if out is not None else result


def erfcx(input, *, out=None):
    """exp(x^2) erfc(x), by the continued fraction's asymptotic form where erfc underflows."""
    x = input if input.is_floating_point() else input.to(torch.get_default_dtype())
    direct = (x * x).exp() * torch.erfc(x)
    # For large x: 1/(x sqrt(pi)) * (1 - 1/(2x^2) + 3/(4x^4) - 15/(8x^6) + 105/(16x^8)).
    big = x.clamp(min=1.0)
    z = 1 / (big * big)
    asym = (1 - z / 2 + 3 * z * z / 4 - 15 * z ** 3 / 8 + 105 * z ** 4 / 16) / (big * math.sqrt(math.pi))
    result = torch.where(x > 25, asym, direct)
    return out.copy_(result) if out is not None else result


def log_ndtr(input, *, out=None):
    """log of the normal CDF, through erfcx in the left tail where the CDF underflows."""
    x = input if input.is_floating_point() else input.to(torch.get_default_dtype())
    t = (-x * (1 / math.sqrt(2))).clamp(min=0.0)  # the tail form holds for every t > 0; it is used below x = -1
    tail = erfcx(t).log() - t ** 2 - math.log(2)
    result = torch.where(x < -1, tail, ndtr(x).log())
    return out.copy_(result) if out is not None else result
