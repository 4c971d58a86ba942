"""Shared helpers of the distributions: broadcasting parameters, probabilities and logits."""
import numbers

import torch


def broadcast_all(*values):
    """Tensors (and numbers, as tensors of the tensors' dtype or the default) broadcast to one shape."""
    if not all(isinstance(v, (torch.Tensor, numbers.Number)) for v in values):
        raise ValueError("Input arguments must all be instances of numbers.Number, torch.Tensor or objects "
                         "implementing __torch_function__.")
    tensors = [v for v in values if isinstance(v, torch.Tensor)]
    dtype = tensors[0].dtype if tensors else torch.get_default_dtype()
    device = tensors[0].device if tensors else None
    as_tensors = [v if isinstance(v, torch.Tensor) else torch.tensor(v, dtype=dtype, device=device) for v in values]
    return torch.broadcast_tensors(*as_tensors)


def logits_to_probs(logits, is_binary=False):
    return torch.sigmoid(logits) if is_binary else torch.softmax(logits, -1)


def clamp_probs(probs):
    eps = torch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary=False):
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return torch.log(ps_clamped) - torch.log1p(-ps_clamped)
    return torch.log(ps_clamped)


class lazy_property:
    """Computed on first access and cached on the instance (logits from probs and the reverse)."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        self.__doc__ = wrapped.__doc__

    def __get__(self, instance, obj_type=None):
        if instance is None:
            return self
        value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


def standard_normal(shape, like):
    return torch.randn(shape, dtype=like.dtype, device=like.device)


def uniform(shape, like):
    return torch.rand(shape, dtype=like.dtype, device=like.device)
