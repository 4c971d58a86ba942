"""torch.fft: the real-valued helpers (sample frequencies and shifts). The
transforms themselves produce or consume complex tensors, and complex
dtypes are out of scope for this build (docs/USING.md): calling one raises a
RuntimeError that says so."""
import math

import torch
from torch._unsupported import define

__all__ = ["fftfreq", "fftshift", "ifftshift", "rfftfreq"]


def _reciprocal(x):
    """1 / x as C++ computes it: a signed infinity at 0 (n = 0 or d = 0), not an exception."""
    return 1.0 / x if x != 0 else math.copysign(math.inf, x)


def fftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, requires_grad=False, out=None):
    """The frequencies of an n-point FFT with sample spacing d: [0, 1, ..., -2, -1] / (d n).
    One arange whose upper half is shifted by -n in place, then scaled by
    1 / (d n) in place, as PyTorch computes it (the same rounding)."""
    result = torch.arange(n, dtype=dtype or torch.get_default_dtype(), device=device)
    result[(n + 1) // 2:] -= n
    result.mul_(_reciprocal(n * d))
    return result.requires_grad_(requires_grad) if out is None else out.copy_(result)


def rfftfreq(n, d=1.0, *, dtype=None, layout=None, device=None, requires_grad=False, out=None):
    """The non-negative frequencies of an n-point real FFT: [0, 1, ..., n // 2] / (d n)."""
    result = torch.arange(n // 2 + 1, dtype=dtype or torch.get_default_dtype(), device=device).mul_(_reciprocal(n * d))
    return result.requires_grad_(requires_grad) if out is None else out.copy_(result)


def _shift(input, dim, sign):
    dims = list(range(input.dim())) if dim is None else ([dim] if isinstance(dim, int) else list(dim))
    shifts = [sign * (input.shape[d] // 2) if sign > 0 else -(input.shape[d] // 2) for d in dims]
    return torch.roll(input, shifts, dims)


def fftshift(input, dim=None):
    """The zero frequency moved to the centre: a roll by n // 2 along each dim."""
    return _shift(input, dim, 1)


def ifftshift(input, dim=None):
    """fftshift undone: a roll by -(n // 2)."""
    return _shift(input, dim, -1)


define(globals(), "torch.fft", "complex dtypes (the FFTs produce or take complex tensors)",
       ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn",
        "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn"])
