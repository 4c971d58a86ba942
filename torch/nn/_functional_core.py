"""The core of torch.nn.functional: reductions' argument handling and the
functions the other parts build on (linear, the common activations,
dropout, conv, pooling, normalisation, the common losses, attention).
torch/nn/functional.py re-exports it with _activations, _layers and
_losses, which import from here, never from functional, so that no module
of torch.nn imports one that imports it back."""
import warnings

import torch
from torch import _C
from torch.amp.autocast_mode import full_precision, lower_precision

_F = _C._VariableFunctions
_nn = _C._nn  # the ops PyTorch keeps out of the torch namespace (python_module: nn)
_REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


def _legacy_reduction(size_average, reduce, reduction):
    """The deprecated size_average/reduce pair, as the reduction string PyTorch maps it to."""
    if size_average is None and reduce is None:
        return reduction
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    return "none" if not reduce else ("mean" if size_average else "sum")


def _reduction(reduction):
    if reduction not in _REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return _REDUCTIONS[reduction]


@lower_precision
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


def leaky_relu(input, negative_slope=0.01, inplace=False):
    if inplace:
        return torch._C._nn.leaky_relu_(input, negative_slope)
    return torch._C._nn.leaky_relu(input, negative_slope)


def silu(input, inplace=False):
    out = input * input.sigmoid()
    return input.copy_(out) if inplace else out


def softplus(input, beta=1.0, threshold=20.0):
    return _C._nn.softplus(input, beta, threshold)  # SoftplusBackward0, as PyTorch's


def elu(input, alpha=1.0, inplace=False):
    out = _C._nn.elu(input, alpha)  # EluBackward0, as PyTorch's
    return input.copy_(out) if inplace else out


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    return input.clamp_(min_val, max_val) if inplace else input.clamp(min_val, max_val)


def _drop(input, p, noise_shape, inplace):
    """input times dropout's factor, drawn in noise_shape: 1 / (1 - p) with
    probability 1 - p, else 0, as PyTorch's CPU dropout makes it (bernoulli_
    then div_, so a MulBackward0 follows)."""
    if p == 1.0:
        noise = torch.zeros((), dtype=input.dtype, device=input.device)
    else:
        noise = torch.empty(noise_shape, dtype=input.dtype, device=input.device).bernoulli_(1 - p).div_(1 - p)
    return input.mul_(noise) if inplace else input * noise


def dropout(input, p=0.5, training=True, inplace=False):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0 or input.numel() == 0:
        return input
    return _drop(input, p, input.shape, inplace)


def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _feature_dropout(input, p, training, inplace=False):
    """Dim 0 is the batch and dim 1 the channel: every element of a channel is kept or dropped together
    (PyTorch's feature_dropout)."""
    if not training or p == 0.0 or input.numel() == 0:
        return input
    if input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    return _drop(input, p, tuple(input.shape[:2]) + (1,) * (input.dim() - 2), inplace)


def _unbatched_feature_dropout(input, p, training, inplace, batched):
    if batched:
        return _feature_dropout(input, p, training, inplace)
    input = input.unsqueeze_(0) if inplace else input.unsqueeze(0)
    result = _feature_dropout(input, p, training, inplace)
    return result.squeeze_(0) if inplace else result.squeeze(0)


def _warn_input_dims(name, dims, spatial):
    warnings.warn(f"{name}: Received a {dims}-D input to {name}, which is deprecated and will result in an error in a "
                  "future release. To retain the behavior and silence this warning, please use dropout instead. Note "
                  f"that {name} exists to provide channel-wise dropout on inputs with {spatial} spatial dimensions, a "
                  f"channel dimension, and an optional batch dimension (i.e. {spatial + 1}D or {spatial + 2}D inputs).",
                  stacklevel=3)


def dropout1d(input, p=0.5, training=True, inplace=False):
    _check_p(p)
    if input.dim() not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {input.dim()}D input. Note that "
                           "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial dimension, a "
                           "channel dimension, and an optional batch dimension (i.e. 2D or 3D inputs).")
    return _unbatched_feature_dropout(input, p, training, inplace, input.dim() == 3)


def dropout2d(input, p=0.5, training=True, inplace=False):
    _check_p(p)
    if input.dim() not in (3, 4):
        _warn_input_dims("dropout2d", input.dim(), 2)
    if input.dim() == 3:  # PyTorch's historical reading: (N, C, L), not an unbatched (C, H, W)
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout "
                      "behavior is desired - input is interpreted as shape (N, C, L), where C is the channel dim. "
                      "This behavior will change in a future release to interpret the input as one without a batch "
                      "dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please "
                      "switch to using dropout1d instead.", stacklevel=2)
    return _feature_dropout(input, p, training, inplace)


def dropout3d(input, p=0.5, training=True, inplace=False):
    _check_p(p)
    if input.dim() not in (4, 5):
        _warn_input_dims("dropout3d", input.dim(), 3)
    return _unbatched_feature_dropout(input, p, training, inplace, input.dim() == 5)


@lower_precision
def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return torch.conv1d(input, weight, bias, stride, padding, dilation, groups)  # padding may be 'valid'/'same'


@lower_precision
def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return torch.conv2d(input, weight, bias, stride, padding, dilation, groups)


@lower_precision
def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return torch.conv3d(input, weight, bias, stride, padding, dilation, groups)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    stride = [] if stride is None else stride
    if not return_indices and not (input.requires_grad and torch.is_grad_enabled()):
        # Nothing will route a gradient: the values alone, no indices written.
        return _nn._max_pool2d_values(input, kernel_size, stride, padding, dilation, ceil_mode)
    out, indices = _nn.max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return (out, indices) if return_indices else out


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    one = lambda v: v if isinstance(v, int) else v[0]  # noqa: E731
    no_stride = stride is None or (not isinstance(stride, int) and len(stride) == 0)
    out = max_pool2d(input.unsqueeze(-2), (1, one(kernel_size)), None if no_stride else (1, one(stride)),
                     (0, one(padding)), (1, one(dilation)), ceil_mode, return_indices)
    if return_indices:
        return out[0].squeeze(-2), out[1].squeeze(-2)
    return out.squeeze(-2)


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


_INTEGER_NAMES = {torch.int32: "Int", torch.int16: "Short", torch.int8: "Char", torch.uint8: "Byte",
                  torch.bool: "Bool"}


def _check_pool_dtype(x, kernel):
    """Average pools take floating dtypes and int64, as PyTorch's CPU kernels."""
    if not x.is_floating_point() and x.dtype != torch.int64:
        name = _INTEGER_NAMES.get(x.dtype, str(x.dtype).replace("torch.", ""))
        raise NotImplementedError(f'"{kernel}" not implemented for \'{name}\'')


def _pair(v):
    return (v, v) if isinstance(v, int) else tuple(v) * (2 if len(v) == 1 else 1)


def _pooled_size(size, k, s, p, ceil_mode):
    """Outputs along one dim, as PyTorch's pooling_output_shape: with
    ceil_mode a last window that would start in the right padding is dropped."""
    span = size + 2 * p - k + (s - 1 if ceil_mode else 0)
    out = span // s + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


def _window_counts(size, k, s, p, out, count_include_pad, device):
    """How many positions each window of one dim divides by: those in the
    padded input (count_include_pad) or in the input alone; never the
    positions past the padding that ceil_mode's last window reaches."""
    reach = max((out - 1) * s + k, size + 2 * p)
    inside = torch.zeros(reach, dtype=torch.float64, device=device)
    inside[0 if count_include_pad else p:size + 2 * p if count_include_pad else p + size] = 1
    return inside.unfold(0, k, s)[:out].sum(-1)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    k = _pair(kernel_size)
    s = k if stride is None or (not isinstance(stride, int) and len(stride) == 0) else _pair(stride)
    p = _pair(padding)
    unbatched = input.dim() == 3
    x = input.unsqueeze(0) if unbatched else input
    if x.dim() != 4:
        raise RuntimeError(f"avg_pool2d: Expected 3D or 4D input, but got a {input.dim()}D input")
    if p[0] > k[0] // 2 or p[1] > k[1] // 2:
        raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p[0]}, "
                           f"kernel_size={k[0]} and dilation=1")
    _check_pool_dtype(x, "avg_pool2d")
    c = x.shape[1]
    integral = not x.is_floating_point()
    if not ceil_mode and (count_include_pad or p == (0, 0)):
        # A depthwise convolution with a constant kernel is the window mean;
        # integers sum with a kernel of ones and divide truncating, as PyTorch
        # (a kernel of 1/divisor is 0 in an integer dtype).
        divisor = divisor_override if divisor_override else k[0] * k[1]
        weight = torch.full((c, 1) + k, 1 if integral else 1.0 / divisor, dtype=x.dtype, device=x.device)
        out = torch.conv2d(x, weight, None, s, p, 1, c)
        if integral:
            out = torch.div(out, divisor, rounding_mode="trunc")
        return out.squeeze(0) if unbatched else out
    if 0 in s:
        raise RuntimeError("stride should not be zero")
    h, w = x.shape[-2:]
    oh, ow = _pooled_size(h, k[0], s[0], p[0], ceil_mode), _pooled_size(w, k[1], s[1], p[1], ceil_mode)
    if oh <= 0 or ow <= 0:
        raise RuntimeError(f"Given input size: ({c}x{h}x{w}). Calculated output size: ({c}x{oh}x{ow}). "
                           "Output size is too small")
    # The windows' sums over the input padded with zeros (on the right also
    # as far as ceil_mode's last window reaches), then each divided by its count.
    extra_h = max((oh - 1) * s[0] + k[0] - h - p[0], p[0])
    extra_w = max((ow - 1) * s[1] + k[1] - w - p[1], p[1])
    padded = torch.constant_pad_nd(x, (p[1], extra_w, p[0], extra_h))
    ones = torch.ones((c, 1) + k, dtype=x.dtype, device=x.device)
    sums = torch.conv2d(padded, ones, None, s, 0, 1, c)[..., :oh, :ow]
    if divisor_override:
        divisor = divisor_override
    else:
        divisor = torch.outer(_window_counts(h, k[0], s[0], p[0], oh, count_include_pad, x.device),
                              _window_counts(w, k[1], s[1], p[1], ow, count_include_pad, x.device)).to(x.dtype)
    out = torch.div(sums, divisor, rounding_mode="trunc") if integral else sums / divisor
    return out.squeeze(0) if unbatched else out


def _adaptive_avg_pool2d_divisible(input, output_size):
    if input.dim() not in (3, 4):
        return None
    size = (output_size, output_size) if isinstance(output_size, int) else tuple(output_size)
    h, w = input.shape[-2:]
    size = tuple(h if s is None else s for s in size[:1]) + tuple(w if s is None else s for s in size[1:])
    if 0 in size or 0 in input.shape[1:] or not input.is_floating_point():
        return None  # the general path's result or error
    if size == (1, 1):
        return input.mean((-2, -1), keepdim=True)
    if h % size[0] or w % size[1]:
        return None
    kernel = (h // size[0], w // size[1])
    return avg_pool2d(input, kernel, kernel)


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    return input / input.norm(p, dim, keepdim=True).clamp(min=eps)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
    return torch.layer_norm(input, shape, weight, bias, eps)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    if max_norm is not None or scale_grad_by_freq or sparse:
        raise NotImplementedError("embedding: max_norm, scale_grad_by_freq and sparse are not supported")
    if padding_idx is not None:
        if not -weight.shape[0] <= padding_idx < weight.shape[0]:
            raise AssertionError("Padding_idx must be within num_embeddings")
        padding_idx = padding_idx % weight.shape[0]
    return torch.embedding(weight, input, -1 if padding_idx is None else padding_idx)


def one_hot(tensor, num_classes=-1):
    if tensor.dtype != torch.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if num_classes == -1 and not tensor.numel():
        raise RuntimeError("Can not infer total number of classes from empty tensor.")
    if tensor.numel():
        low, high = (int(v) for v in torch.aminmax(tensor))  # one pass, as PyTorch's check
        if low < 0:
            raise RuntimeError("Class values must be non-negative.")
        if num_classes == -1:
            num_classes = high + 1
        elif high >= num_classes:
            raise RuntimeError("Class values must be smaller than num_classes.")
    # PyTorch's own composition: zeros with a 1 scattered at each class.
    result = torch.zeros(tuple(tensor.shape) + (num_classes,), dtype=torch.int64, device=tensor.device)
    return result.scatter_(-1, tensor.unsqueeze(-1), 1)


def _broadcast_target(input, target):
    """PyTorch's regression losses broadcast a target of another size, warning that it is
    probably a mistake (a [N, 1] prediction against an [N] target gives an [N, N] loss)."""
    if target.size() == input.size():
        return input, target
    warnings.warn(f"Using a target size ({target.size()}) that is different to the input size ({input.size()}). "
                  "This will likely lead to incorrect results due to broadcasting. "
                  "Please ensure they have the same size.", stacklevel=4)  # past full_precision's wrapper
    return torch.broadcast_tensors(input, target)


@full_precision
def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    reduction = _legacy_reduction(size_average, reduce, reduction)
    input, target = _broadcast_target(input, target)
    if weight is not None:
        losses = (input - target) ** 2 * weight
        return {"none": losses, "mean": losses.mean(), "sum": losses.sum()}[_check_reduction(reduction)]
    return _nn.mse_loss(input, target, _reduction(reduction))


def _classes_last(input):
    """(N, C, d1, ...) as (N * d1 * ..., C): the layout the 2-D kernels take."""
    perm = [0] + list(range(2, input.dim())) + [1]
    return input.permute(perm).reshape(-1, input.shape[1])


@full_precision
def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if input.dim() <= 2:
        return _nn.nll_loss(input, target, weight, _reduction(reduction), ignore_index)
    if target.shape != (input.shape[0],) + tuple(input.shape[2:]):
        raise ValueError(f"Expected target size {[input.shape[0]] + list(input.shape[2:])}, got {list(target.shape)}")
    losses = _nn.nll_loss(_classes_last(input), target.reshape(-1), weight, _reduction(reduction), ignore_index)
    return losses.reshape(target.shape) if reduction == "none" else losses


@full_precision
def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                  label_smoothing=0.0):
    reduction = _legacy_reduction(size_average, reduce, reduction)
    _reduction(reduction)
    if not 0.0 <= label_smoothing <= 1.0:
        raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing}")
    class_dim = 0 if input.dim() == 1 else 1
    classes = input.shape[class_dim]
    logp = log_softmax(input, class_dim)
    # The class weights, shaped to broadcast along the class dimension.
    w = None if weight is None else weight.reshape((classes,) + (1,) * (input.dim() - class_dim - 1))
    if target.dtype.is_floating_point:  # class probabilities
        if target.shape != input.shape:
            raise RuntimeError(f"Expected target of the same shape as input {list(input.shape)} for class "
                               f"probabilities, got {list(target.shape)}")
        if label_smoothing > 0:
            target = target * (1 - label_smoothing) + label_smoothing / classes
        terms = target * logp if w is None else target * logp * w
        losses = -terms.sum(class_dim)
        if reduction == "none":
            return losses
        return losses.sum() if reduction == "sum" else losses.mean()
    loss = nll_loss(logp, target, weight, ignore_index=ignore_index, reduction=reduction)
    if label_smoothing == 0:
        return loss
    # Smoothing spreads ε of each target's mass uniformly: the mean of -logp over classes, weighted like nll.
    kept = target != ignore_index
    smooth = -(logp if w is None else logp * w).sum(class_dim) * kept
    if reduction == "none":
        smooth_loss = smooth
    elif reduction == "sum":
        smooth_loss = smooth.sum()
    else:
        safe_target = target * kept
        denom = kept.sum() if weight is None else (weight[safe_target] * kept).sum()
        smooth_loss = smooth.sum() / denom
    return loss * (1 - label_smoothing) + smooth_loss * (label_smoothing / classes)


@full_precision
def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None, reduction="mean",
                                     pos_weight=None):
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if input.shape != target.shape:
        raise ValueError(f"Target size ({list(target.shape)}) must be the same as input size ({list(input.shape)})")
    # log(1 + e^-x), stable for large |x| and with its true gradient at x = 0.
    softplus_neg = torch.logaddexp(-input, torch.zeros_like(input))
    if pos_weight is not None:
        losses = (1 - target) * input + (1 + (pos_weight - 1) * target) * softplus_neg
    else:
        losses = (1 - target) * input + softplus_neg
    if weight is not None:
        losses = losses * weight
    return {"none": losses, "mean": losses.mean(), "sum": losses.sum()}[reduction]


@full_precision
def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    reduction = _legacy_reduction(size_average, reduce, reduction)
    if input.shape != target.shape:
        raise ValueError(f"Using a target size ({list(target.shape)}) that is different to the input size "
                         f"({list(input.shape)}) is deprecated. Please ensure they have the same size.")
    if input.numel() and (bool((input < 0).any()) or bool((input > 1).any())):
        raise RuntimeError("all elements of input should be between 0 and 1")
    # PyTorch clamps each log at -100, so a 0 or 1 probability gives a finite loss.
    losses = -(target * input.log().clamp(min=-100) + (1 - target) * (1 - input).log().clamp(min=-100))
    if weight is not None:
        losses = losses * weight
    return {"none": losses, "mean": losses.mean(), "sum": losses.sum()}[_check_reduction(reduction)]


@full_precision
def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    reduction = _legacy_reduction(size_average, reduce, reduction)
    input, target = _broadcast_target(input, target)
    losses = (input - target).abs()
    return {"none": losses, "mean": losses.mean(), "sum": losses.sum()}[_check_reduction(reduction)]


@full_precision
def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    reduction = _legacy_reduction(size_average, reduce, reduction)
    input, target = _broadcast_target(input, target)
    return _nn.smooth_l1_loss(input, target, _reduction(reduction), float(beta))


def _check_reduction(reduction):
    _reduction(reduction)
    return reduction


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    """The native _batch_norm (aten/src/ATen/native/BatchNorm.cpp): one
    multiply-add per element, the running buffers updated in place while
    training, PyTorch's closed-form gradient."""
    if input.dim() < 2:
        raise ValueError(f"expected at least 2D input (got {input.dim()}D input)")
    if training and input.numel() // max(input.shape[1], 1) <= 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {list(input.shape)}")
    return torch._batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps)[0]


# Query rows per block of the causal path: each block attends only to the keys up to its last row, so the
# scores above the diagonal beyond a block are never computed (5/8 of the work at 4 blocks, 9/16 at 8).
_CAUSAL_BLOCK = 64


def _causal_attention_in_blocks(query, key, value, scale):
    """softmax(q k^T * scale, keys after each query masked) v, one block of query rows at a time."""
    L, S = query.shape[-2], key.shape[-2]
    key_t = key.transpose(-2, -1)
    query = query * scale  # L x E products instead of the L x S scores
    # Additive mask of the whole (L, S) grid, sliced per block: 0 where a key is kept, -inf after the query.
    mask = torch.zeros(L, S, dtype=query.dtype, device=query.device).masked_fill(
        ~torch.ones(L, S, dtype=torch.bool, device=query.device).tril(), float("-inf"))
    blocks = []
    for start in range(0, L, _CAUSAL_BLOCK):
        stop = min(start + _CAUSAL_BLOCK, L)
        keys = min(stop, S)
        scores = query[..., start:stop, :].matmul(key_t[..., :keys]) + mask[start:stop, :keys]
        blocks.append(scores.softmax(-1).matmul(value[..., :keys, :]))
    return torch.cat(blocks, -2)


@lower_precision
def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                                 enable_gqa=False):
    """softmax(q k^T * scale + mask) v, as PyTorch's math reference; masks are bool (True keeps) or additive."""
    if query.dim() < 2 or key.dim() < 2 or value.dim() < 2:
        raise RuntimeError("scaled_dot_product_attention: query, key and value must be at least 2-D")
    if query.shape[-1] != key.shape[-1]:
        raise RuntimeError(f"scaled_dot_product_attention: query's last dimension {query.shape[-1]} differs from "
                           f"key's {key.shape[-1]}")
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
    if enable_gqa and query.dim() >= 3 and key.shape[-3] != query.shape[-3]:
        # Each key/value head serves query.shape[-3] // key.shape[-3] query heads, in order.
        repeat = query.shape[-3] // key.shape[-3]

        def spread(t):
            shape = tuple(t.shape)
            wide = t.unsqueeze(-3).expand(shape[:-2] + (repeat,) + shape[-2:])
            return wide.reshape(shape[:-3] + (shape[-3] * repeat,) + shape[-2:])

        key, value = spread(key), spread(value)
    L, S = query.shape[-2], key.shape[-2]
    scale = 1.0 / (query.shape[-1] ** 0.5) if scale is None else scale
    if is_causal and dropout_p == 0.0 and L >= 2 * _CAUSAL_BLOCK and S > 0:
        return _causal_attention_in_blocks(query, key, value, scale)
    scores = query.matmul(key.transpose(-2, -1)) * scale
    if is_causal:
        keep = torch.ones(L, S, dtype=torch.bool, device=query.device).tril()
        scores = scores.masked_fill(~keep, float("-inf"))
    elif attn_mask is not None:
        if attn_mask.dtype == torch.bool:
            scores = scores.masked_fill(~attn_mask, float("-inf"))
        else:
            scores = scores + attn_mask
    weights = scores.softmax(-1)
    if dropout_p > 0.0:
        weights = dropout(weights, dropout_p, True)
    return weights.matmul(value)
