"""Initialisation of parameters in place, with PyTorch's conventions for fan-in and gains."""
import math
import warnings

import torch


def calculate_gain(nonlinearity, param=None):
    if nonlinearity in ("linear", "sigmoid", "conv1d", "conv2d", "conv3d"):
        return 1.0
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        slope = 0.01 if param is None else param
        return math.sqrt(2.0 / (1 + slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _calculate_fan_in_and_fan_out(tensor):
    if tensor.dim() < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive = 1
    for s in tensor.shape[2:]:
        receptive *= s
    return tensor.shape[1] * receptive, tensor.shape[0] * receptive


def uniform_(tensor, a=0.0, b=1.0):
    with torch.no_grad():
        return tensor.uniform_(a, b)


def normal_(tensor, mean=0.0, std=1.0):
    with torch.no_grad():
        return tensor.normal_(mean, std)


def constant_(tensor, val):
    with torch.no_grad():
        return tensor.fill_(val)


def zeros_(tensor):
    return constant_(tensor, 0.0)


def ones_(tensor):
    return constant_(tensor, 1.0)


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    fan = fan_in if mode == "fan_in" else fan_out
    gain = calculate_gain(nonlinearity, a)
    bound = math.sqrt(3.0) * gain / math.sqrt(fan)
    return uniform_(tensor, -bound, bound)


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu"):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    fan = fan_in if mode == "fan_in" else fan_out
    return normal_(tensor, 0.0, calculate_gain(nonlinearity, a) / math.sqrt(fan))


def xavier_uniform_(tensor, gain=1.0):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    bound = gain * math.sqrt(6.0 / (fan_in + fan_out))
    return uniform_(tensor, -bound, bound)


def xavier_normal_(tensor, gain=1.0):
    fan_in, fan_out = _calculate_fan_in_and_fan_out(tensor)
    return normal_(tensor, 0.0, gain * math.sqrt(2.0 / (fan_in + fan_out)))


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """Normal(mean, std) truncated to [a, b], by the inverse CDF of uniforms between the bounds' CDFs."""
    def cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    with torch.no_grad():
        low, high = cdf((a - mean) / std), cdf((b - mean) / std)
        tensor.uniform_(2 * low - 1, 2 * high - 1)
        tensor.erfinv_()
        tensor.mul_(std * math.sqrt(2.0)).add_(mean)
        return tensor.clamp_(min=a, max=b)


def eye_(tensor):
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    with torch.no_grad():
        return tensor.copy_(torch.eye(*tensor.shape, dtype=tensor.dtype))


def dirac_(tensor, groups=1):
    """Identity convolution kernels: output channel i passes input channel i through the kernel's centre."""
    dims = tensor.dim()
    if dims not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.shape
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_per_group = sizes[0] // groups
    min_dim = min(out_per_group, sizes[1])
    with torch.no_grad():
        tensor.zero_()
        centre = tuple(s // 2 for s in sizes[2:])
        for g in range(groups):
            for d in range(min_dim):
                tensor[(g * out_per_group + d, d) + centre] = 1
    return tensor


def orthogonal_(tensor, gain=1, generator=None):
    """A (semi-)orthogonal matrix: Q of the QR factorisation of a normal matrix, signs fixed by R's diagonal."""
    if tensor.dim() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0:
        return tensor
    rows = tensor.shape[0]
    cols = tensor.numel() // rows
    flattened = torch.randn(rows, cols, dtype=tensor.dtype)
    if rows < cols:
        flattened = flattened.t()
    q, r = torch.linalg.qr(flattened)
    q = q * torch.sign(torch.diagonal(r, 0, -2, -1)).unsqueeze(0)
    if rows < cols:
        q = q.t()
    with torch.no_grad():
        tensor.view_as(q).copy_(q) if tensor.is_contiguous() else tensor.copy_(q.reshape(tensor.shape))
        tensor.mul_(gain)
    return tensor


def sparse_(tensor, sparsity, std=0.01, generator=None):
    """Normal(0, std) entries with a fraction `sparsity` of each column set to zero."""
    if tensor.dim() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor.shape
    num_zeros = int(math.ceil(sparsity * rows))
    with torch.no_grad():
        tensor.normal_(0, std)
        for col in range(cols):
            zero_rows = torch.randperm(rows)[:num_zeros]
            tensor[zero_rows, col] = 0
    return tensor


def _deprecated(new):
    def old(*args, **kwargs):
        warnings.warn(f"`nn.init.{new.__name__[:-1]}` is now deprecated in favor of `nn.init.{new.__name__}`.",
                      FutureWarning, stacklevel=2)
        return new(*args, **kwargs)
    old.__name__ = new.__name__[:-1]
    return old


uniform = _deprecated(uniform_)
normal = _deprecated(normal_)
constant = _deprecated(constant_)
eye = _deprecated(eye_)
dirac = _deprecated(dirac_)
xavier_uniform = _deprecated(xavier_uniform_)
xavier_normal = _deprecated(xavier_normal_)
kaiming_uniform = _deprecated(kaiming_uniform_)
kaiming_normal = _deprecated(kaiming_normal_)
orthogonal = _deprecated(orthogonal_)
sparse = _deprecated(sparse_)
