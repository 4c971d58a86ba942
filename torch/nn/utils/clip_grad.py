import math

import torch


def _grads(parameters):
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Scales the gradients in place so that their joint norm is at most max_norm; returns the norm before."""
    grads = _grads(parameters)
    norm_type = float(norm_type)
    if not grads:
        return torch.tensor(0.0)
    if norm_type == math.inf:
        norms = [g.detach().abs().amax() for g in grads]
        total = norms[0] if len(norms) == 1 else torch.stack(norms).amax()
    else:
        norms = [g.detach().norm(norm_type) for g in grads]
        total = torch.stack(norms).norm(norm_type)
    if error_if_nonfinite and bool(total.isnan() | total.isinf()):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so "
                           "it cannot be clipped. To disable this error and scale the gradients by the non-finite "
                           "norm anyway, set `error_if_nonfinite=False`")
    # As PyTorch: always multiply (a no-op factor of 1 when the norm is small).
    coef = (max_norm / (total + 1e-6)).clamp(max=1.0)
    with torch.no_grad():
        for g in grads:
            g.mul_(coef.to(g.dtype))
    return total


def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamps every gradient element into [-clip_value, clip_value] in place."""
    clip_value = float(clip_value)
    with torch.no_grad():
        for g in _grads(parameters):
            g.clamp_(-clip_value, clip_value)
