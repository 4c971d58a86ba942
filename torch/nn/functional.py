"""torch.nn.functional: the stateless forms of the nn modules."""
import torch
from torch import _C

_F = _C._VariableFunctions
_nn = _C._nn  # the ops PyTorch keeps out of the torch namespace (python_module: nn)
_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def _reduction(reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return _REDUCTIONS[reduction]


def linear(input, weight, bias=None):
    return _nn.linear(input, weight, bias)


def relu(input, inplace=False):
    return input.relu_() if inplace else input.relu()


def gelu(input, approximate="none"):
    return _nn.gelu(input, approximate=approximate)


def sigmoid(input):
    return input.sigmoid()


def tanh(input):
    return input.tanh()


def softmax(input, dim, dtype=None):
    return input.softmax(dim, dtype)


def log_softmax(input, dim, dtype=None):
    return input.log_softmax(dim, dtype)


def dropout(input, p=0.5, training=True, inplace=False):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return input
    if p == 1.0:
        return input * 0.0
    keep = torch.rand_like(input) >= p
    return input * keep * (1.0 / (1.0 - p))


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    if tuple(input.shape[-len(shape):]) != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape [*, "
                           f"{', '.join(map(str, shape))}], but got input of size{list(input.shape)}")
    dims = tuple(range(-len(shape), 0))
    mean = input.mean(dims, keepdim=True)
    var = input.var(dims, unbiased=False, keepdim=True)
    out = (input - mean) * (var + eps).rsqrt()
    if weight is not None:
        out = out * weight
    if bias is not None:
        out = out + bias
    return out


def embedding(input, weight, padding_idx=None):
    if input.dtype not in (torch.int64, torch.int32):
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got {input.dtype} instead")
    out = weight.index_select(0, input.reshape(-1))
    return out.reshape(tuple(input.shape) + (weight.shape[1],))


def mse_loss(input, target, reduction="mean"):
    if input.shape != target.shape:
        raise RuntimeError(f"mse_loss: input shape {list(input.shape)} and target shape {list(target.shape)} differ")
    return _nn.mse_loss(input, target, _reduction(reduction))


def nll_loss(input, target, weight=None, ignore_index=-100, reduction="mean"):
    return _nn.nll_loss(input, target, weight, _reduction(reduction), ignore_index)


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean"):
    if target.dtype.is_floating_point:
        # Class probabilities instead of indices.
        losses = -(target * log_softmax(input, -1)).sum(-1)
        return {"none": losses, "mean": losses.mean(), "sum": losses.sum()}[reduction]
    return nll_loss(log_softmax(input, -1 if input.dim() == 1 else 1), target, weight, ignore_index, reduction)


def binary_cross_entropy_with_logits(input, target, weight=None, reduction="mean", pos_weight=None):
    if input.shape != target.shape:
        raise ValueError(f"Target size ({list(target.shape)}) must be the same as input size ({list(input.shape)})")
    # log(1 + exp(-|x|)) + max(-x, 0): stable for large |x|.
    softplus_neg = (-input.abs()).exp().log1p() + (-input).relu()
    if pos_weight is not None:
        losses = (1 - target) * input + (1 + (pos_weight - 1) * target) * softplus_neg
    else:
        losses = (1 - target) * input + softplus_neg
    if weight is not None:
        losses = losses * weight
    return {"none": losses, "mean": losses.mean(), "sum": losses.sum()}[reduction]
