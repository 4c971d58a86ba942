"""Bijective transforms with their log |det J|, for TransformedDistribution."""
import math

import torch
import torch.nn.functional as F
from torch.distributions import constraints


class Transform:
    bijective = False
    domain = constraints.real
    codomain = constraints.real

    def __init__(self, cache_size=0):
        self._inv = None

    @property
    def event_dim(self):
        return max(self.domain.event_dim, self.codomain.event_dim)

    @property
    def inv(self):
        return _InverseTransform(self)

    @property
    def sign(self):
        raise NotImplementedError

    def __call__(self, x):
        return self._call(x)

    def _call(self, x):
        raise NotImplementedError

    def _inverse(self, y):
        raise NotImplementedError

    def log_abs_det_jacobian(self, x, y):
        raise NotImplementedError

    def forward_shape(self, shape):
        return shape

    def inverse_shape(self, shape):
        return shape

    def __repr__(self):
        return type(self).__name__ + "()"


class _InverseTransform(Transform):
    def __init__(self, transform):
        super().__init__()
        self._inverse_of = transform
        self.bijective = transform.bijective
        self.domain, self.codomain = transform.codomain, transform.domain

    @property
    def inv(self):
        return self._inverse_of

    @property
    def sign(self):
        return self._inverse_of.sign

    def __call__(self, x):
        return self._inverse_of._inverse(x)

    def log_abs_det_jacobian(self, x, y):
        return -self._inverse_of.log_abs_det_jacobian(y, x)


class ComposeTransform(Transform):
    def __init__(self, parts, cache_size=0):
        super().__init__()
        self.parts = list(parts)
        self.bijective = all(p.bijective for p in self.parts)

    @property
    def domain(self):
        return self.parts[0].domain if self.parts else constraints.real

    @property
    def codomain(self):
        return self.parts[-1].codomain if self.parts else constraints.real

    @property
    def inv(self):
        return ComposeTransform([p.inv for p in reversed(self.parts)])

    @property
    def sign(self):
        sign = 1
        for p in self.parts:
            sign = sign * p.sign
        return sign

    def __call__(self, x):
        for part in self.parts:
            x = part(x)
        return x

    def log_abs_det_jacobian(self, x, y):
        if not self.parts:
            return torch.zeros_like(x)
        total = 0
        for part in self.parts:
            y_part = part(x)
            total = total + part.log_abs_det_jacobian(x, y_part)
            x = y_part
        return total


identity_transform = ComposeTransform([])


class ExpTransform(Transform):
    bijective = True
    codomain = constraints.positive
    sign = 1

    def _call(self, x):
        return x.exp()

    def _inverse(self, y):
        return y.log()

    def log_abs_det_jacobian(self, x, y):
        return x


class PowerTransform(Transform):
    bijective = True
    domain = constraints.positive
    codomain = constraints.positive

    def __init__(self, exponent, cache_size=0):
        super().__init__()
        self.exponent = torch.as_tensor(exponent)

    @property
    def sign(self):
        return self.exponent.sign()

    def _call(self, x):
        return x.pow(self.exponent)

    def _inverse(self, y):
        return y.pow(1 / self.exponent)

    def log_abs_det_jacobian(self, x, y):
        return (self.exponent * y / x).abs().log()


class SigmoidTransform(Transform):
    bijective = True
    codomain = constraints.unit_interval
    sign = 1

    def _call(self, x):
        finfo = torch.finfo(x.dtype)
        return torch.sigmoid(x).clamp(min=finfo.tiny, max=1.0 - finfo.eps)

    def _inverse(self, y):
        finfo = torch.finfo(y.dtype)
        y = y.clamp(min=finfo.tiny, max=1.0 - finfo.eps)
        return y.log() - (-y).log1p()

    def log_abs_det_jacobian(self, x, y):
        return -F.softplus(-x) - F.softplus(x)


class SoftplusTransform(Transform):
    bijective = True
    codomain = constraints.positive
    sign = 1

    def _call(self, x):
        return F.softplus(x)

    def _inverse(self, y):
        return (-y).expm1().neg().log() + y

    def log_abs_det_jacobian(self, x, y):
        return -F.softplus(-x)


class TanhTransform(Transform):
    bijective = True
    codomain = constraints.interval(-1.0, 1.0)
    sign = 1

    def _call(self, x):
        return x.tanh()

    def _inverse(self, y):
        return torch.atanh(y)

    def log_abs_det_jacobian(self, x, y):
        return 2.0 * (math.log(2.0) - x - F.softplus(-2.0 * x))


class AbsTransform(Transform):
    codomain = constraints.positive

    def _call(self, x):
        return x.abs()

    def _inverse(self, y):
        return y


class AffineTransform(Transform):
    bijective = True

    def __init__(self, loc, scale, event_dim=0, cache_size=0):
        super().__init__()
        self.loc, self.scale, self._event_dim = loc, scale, event_dim

    @property
    def event_dim(self):
        return self._event_dim

    @property
    def sign(self):
        return self.scale.sign() if isinstance(self.scale, torch.Tensor) else (1 if self.scale > 0 else -1)

    def _call(self, x):
        return self.loc + self.scale * x

    def _inverse(self, y):
        return (y - self.loc) / self.scale

    def log_abs_det_jacobian(self, x, y):
        scale = self.scale
        result = scale.abs().log() if isinstance(scale, torch.Tensor) else torch.full_like(x, math.log(abs(scale)))
        shape = x.shape
        if self._event_dim:
            result_size = result.size()[:result.dim() - self._event_dim] + (-1,)
            result = result.view(result_size).sum(-1)
            shape = shape[:len(shape) - self._event_dim]
        return result.expand(shape)


class SoftmaxTransform(Transform):
    codomain = constraints.simplex

    def _call(self, x):
        logprobs = x
        probs = (logprobs - logprobs.max(-1, True)[0]).exp()
        return probs / probs.sum(-1, True)

    def _inverse(self, y):
        return y.log()


class StickBreakingTransform(Transform):
    bijective = True
    codomain = constraints.simplex

    def _call(self, x):
        offset = x.shape[-1] + 1 - x.new_ones(x.shape[-1]).cumsum(-1)
        z = torch.sigmoid(x - offset.log())
        z_cumprod = torch.cumsum((-z).log1p(), -1).exp()
        return F.pad(z, (0, 1), value=1) * F.pad(z_cumprod, (1, 0), value=1)

    def _inverse(self, y):
        y_crop = y[..., :-1]
        offset = y.shape[-1] - y.new_ones(y_crop.shape[-1]).cumsum(-1)
        sf = 1 - y_crop.cumsum(-1)
        sf = sf.clamp(min=torch.finfo(y.dtype).tiny)
        return y_crop.log() - sf.log() + offset.log()

    def log_abs_det_jacobian(self, x, y):
        offset = x.shape[-1] + 1 - x.new_ones(x.shape[-1]).cumsum(-1)
        x = x - offset.log()
        return (-x + F.logsigmoid(x) + y[..., :-1].log()).sum(-1)

    def forward_shape(self, shape):
        return shape[:-1] + (shape[-1] + 1,)

    def inverse_shape(self, shape):
        return shape[:-1] + (shape[-1] - 1,)


class LowerCholeskyTransform(Transform):
    codomain = constraints.lower_cholesky

    def _call(self, x):
        return x.tril(-1) + x.diagonal(0, -2, -1).exp().diag_embed()

    def _inverse(self, y):
        return y.tril(-1) + y.diagonal(0, -2, -1).log().diag_embed()


class ReshapeTransform(Transform):
    bijective = True

    def __init__(self, in_shape, out_shape, cache_size=0):
        super().__init__()
        self.in_shape, self.out_shape = torch.Size(in_shape), torch.Size(out_shape)

    def _call(self, x):
        batch = x.shape[:x.dim() - len(self.in_shape)]
        return x.reshape(batch + self.out_shape)

    def _inverse(self, y):
        batch = y.shape[:y.dim() - len(self.out_shape)]
        return y.reshape(batch + self.in_shape)

    def log_abs_det_jacobian(self, x, y):
        return x.new_zeros(x.shape[:x.dim() - len(self.in_shape)])


class IndependentTransform(Transform):
    def __init__(self, base_transform, reinterpreted_batch_ndims, cache_size=0):
        super().__init__()
        self.base_transform, self.reinterpreted_batch_ndims = base_transform, reinterpreted_batch_ndims
        self.bijective = base_transform.bijective

    def _call(self, x):
        return self.base_transform(x)

    def _inverse(self, y):
        return self.base_transform.inv(y)

    def log_abs_det_jacobian(self, x, y):
        result = self.base_transform.log_abs_det_jacobian(x, y)
        for _ in range(self.reinterpreted_batch_ndims):
            result = result.sum(-1)
        return result


class CumulativeDistributionTransform(Transform):
    bijective = True
    codomain = constraints.unit_interval
    sign = 1

    def __init__(self, distribution, cache_size=0):
        super().__init__()
        self.distribution = distribution

    def _call(self, x):
        return self.distribution.cdf(x)

    def _inverse(self, y):
        return self.distribution.icdf(y)

    def log_abs_det_jacobian(self, x, y):
        return self.distribution.log_prob(x)
