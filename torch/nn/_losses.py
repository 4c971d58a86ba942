"""Loss functions of torch.nn.functional written from other ops, with
PyTorch's formulas, reductions and argument checks."""
import math

import torch


def _reduce(losses, reduction):
    if reduction == "none":
        return losses
    if reduction == "mean":
        return losses.mean()
    if reduction == "sum":
        return losses.sum()
    raise ValueError(f"{reduction} is not a valid value for reduction")


def _resolve(size_average, reduce, reduction):
    from torch.nn._functional_core import _legacy_reduction
    return _legacy_reduction(size_average, reduce, reduction)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    if weight is None:
        from torch.nn._functional_core import _broadcast_target, _reduction
        input, target = _broadcast_target(input, target)
        return torch._C._nn.huber_loss(input, target, _reduction(reduction), float(delta))
    diff = (input - target).abs()
    losses = torch.where(diff < delta, 0.5 * diff * diff, delta * (diff - 0.5 * delta))
    if weight is not None:
        losses = losses * weight
    return _reduce(losses, reduction)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    reduction = _resolve(size_average, reduce, reduction)
    if log_target:
        losses = target.exp() * (target - input)
    else:
        losses = torch.xlogy(target, target) - target * input
    if reduction == "batchmean":
        return losses.sum() / input.shape[0] if input.dim() else losses.sum()
    return _reduce(losses, reduction)


def margin_ranking_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None, reduction="mean"):
    reduction = _resolve(size_average, reduce, reduction)
    if not (input1.dim() == input2.dim() == target.dim()):
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {input1.shape}, input2: {input2.shape}, target: {target.shape} ")
    return _reduce((-target * (input1 - input2) + margin).clamp(min=0), reduction)


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    reduction = _resolve(size_average, reduce, reduction)
    margin_part = (margin - input).clamp(min=0)
    losses = torch.where(target == 1, input, input * 0) + torch.where(target == -1, margin_part, input * 0)
    return _reduce(losses, reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    reduction = _resolve(size_average, reduce, reduction)
    return _reduce((-target * input).exp().log1p(), reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    from torch.nn._activations import logsigmoid
    reduction = _resolve(size_average, reduce, reduction)
    losses = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        losses = losses * weight
    losses = losses.sum(dim=input.dim() - 1) / input.shape[-1]
    return _reduce(losses, reduction)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    # PyTorch's form: each norm clamped at eps before the division.
    n1 = x1.pow(2).sum(dim).sqrt().clamp(min=eps)
    n2 = x2.pow(2).sum(dim).sqrt().clamp(min=eps)
    return (x1 * x2).sum(dim) / (n1 * n2)


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    diff = x1 - x2 + eps
    return torch.linalg.vector_norm(diff, p, dim=-1 if diff.dim() else None, keepdim=keepdim)


def pdist(input, p=2):
    return torch._C._VariableFunctions.pdist(input, p)  # PdistBackward0, as PyTorch's


def cosine_embedding_loss(input1, input2, target, margin=0.0, size_average=None, reduce=None, reduction="mean"):
    reduction = _resolve(size_average, reduce, reduction)
    eps = 1e-12
    dim = input1.dim() - 1
    prod = (input1 * input2).sum(dim)
    mag1 = (input1 * input1).sum(dim) + eps
    mag2 = (input2 * input2).sum(dim) + eps
    cos = prod / (mag1 * mag2).sqrt()
    losses = torch.where(target == 1, 1 - cos, cos * 0) + torch.where(target == -1, (cos - margin).clamp(min=0), cos * 0)
    return _reduce(losses, reduction)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    reduction = _resolve(size_average, reduce, reduction)
    if not (anchor.dim() == positive.dim() == negative.dim()):
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {anchor.dim()}D, positive {positive.dim()}D, and negative "
                           f"{negative.dim()}D inputs")
    d_pos = pairwise_distance(anchor, positive, p, eps)
    d_neg = pairwise_distance(anchor, negative, p, eps)
    if swap:
        d_neg = torch.minimum(d_neg, pairwise_distance(positive, negative, p, eps))
    return _reduce((margin + d_pos - d_neg).clamp(min=0), reduction)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0, swap=False,
                                      reduction="mean"):
    distance = distance_function if distance_function is not None else pairwise_distance
    d_pos = distance(anchor, positive)
    d_neg = distance(anchor, negative)
    if swap:
        d_neg = torch.minimum(d_neg, distance(positive, negative))
    return _reduce((margin + d_pos - d_neg).clamp(min=0), reduction)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    reduction = _resolve(size_average, reduce, reduction)
    if log_input:
        losses = input.exp() - target * input
    else:
        losses = input - target * (input + eps).log()
    if full:
        stirling = target * target.log() - target + 0.5 * (2 * math.pi * target).log()
        losses = losses + torch.where(target > 1, stirling, stirling * 0)
    return _reduce(losses, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    if var.shape != input.shape:
        if input.shape[:-1] == var.shape:
            var = var.unsqueeze(-1)
        elif not (input.shape[:-1] == var.shape[:-1] and var.shape[-1] == 1):
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    if bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    var = var.clone()
    with torch.no_grad():
        var.clamp_(min=eps)
    losses = 0.5 * (var.log() + (input - target) ** 2 / var)
    if full:
        losses = losses + 0.5 * math.log(2 * math.pi)
    return _reduce(losses, reduction)


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction="mean"):
    reduction = _resolve(size_average, reduce, reduction)
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    x = input if input.dim() == 2 else input.reshape(1, -1)
    t = target.reshape(-1)
    if t.numel() and bool(((t < 0) | (t >= x.shape[1])).any()):
        raise RuntimeError("target out of range")  # PyTorch's words, before gather's own bounds error
    picked = x.gather(1, t.unsqueeze(1))
    margins = (margin - picked + x).clamp(min=0)
    if p == 2:
        margins = margins * margins
    if weight is not None:
        margins = margins * weight[t].unsqueeze(1)
    not_target = torch.ones_like(x, dtype=torch.bool).scatter(1, t.unsqueeze(1), torch.zeros_like(t.unsqueeze(1),
                                                                                                  dtype=torch.bool))
    losses = torch.where(not_target, margins, margins * 0).sum(1) / x.shape[1]
    if input.dim() < 2:
        losses = losses.reshape(())
    return _reduce(losses, reduction)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    from torch.nn._functional_core import _reduction
    reduction = _resolve(size_average, reduce, reduction)
    return torch._C._nn.multilabel_margin_loss(input, target, _reduction(reduction))
