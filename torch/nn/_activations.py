"""The activation functions of torch.nn.functional written from other ops
(their gradients follow), with PyTorch's formulas and argument checks."""
import torch

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _maybe_inplace(input, out, inplace):
    return input.copy_(out) if inplace else out


def relu_(input):
    return input.relu_()


def relu6(input, inplace=False):
    return input.clamp_(0, 6) if inplace else input.clamp(0, 6)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    return input.clamp_(min_val, max_val)


def hardsigmoid(input, inplace=False):
    return _maybe_inplace(input, torch._C._nn.hardsigmoid(input), inplace)


def hardswish(input, inplace=False):
    return _maybe_inplace(input, torch._C._nn.hardswish(input), inplace)


def selu(input, inplace=False):
    out = torch._C._nn.elu(input, _SELU_ALPHA, _SELU_SCALE)  # PyTorch's selu is this elu
    return _maybe_inplace(input, out, inplace)


def selu_(input):
    return selu(input, inplace=True)


def celu(input, alpha=1.0, inplace=False):
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    out = torch._C._nn.elu(input, alpha, 1.0, 1.0 / alpha)  # PyTorch's celu is this elu
    return _maybe_inplace(input, out, inplace)


def celu_(input, alpha=1.0):
    return celu(input, alpha, inplace=True)


def elu_(input, alpha=1.0):
    from torch.nn._functional_core import elu
    return elu(input, alpha, inplace=True)


def leaky_relu_(input, negative_slope=0.01):
    return torch._C._nn.leaky_relu_(input, negative_slope)


def _softplus(x):
    return torch.logaddexp(x, torch.zeros_like(x))  # log(1 + e^x), gradient 1/2 at 0


def mish(input, inplace=False):
    return _maybe_inplace(input, input * _softplus(input).tanh(), inplace)


def logsigmoid(input):
    return -_softplus(-input)


def softsign(input):
    return input / (input.abs() + 1)


def tanhshrink(input):
    return input - input.tanh()


def softshrink(input, lambd=0.5):
    return torch._C._nn.softshrink(input, lambd)


def hardshrink(input, lambd=0.5):
    return torch.hardshrink(input, lambd)


def threshold(input, threshold, value, inplace=False):
    return _maybe_inplace(input, torch.threshold(input, threshold, value), inplace)


def threshold_(input, threshold, value):
    return globals()["threshold"](input, threshold, value, inplace=True)


def glu(input, dim=-1):
    return torch._C._nn.glu(input, dim)  # GluBackward0, as PyTorch's


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    return torch.softmax(-input if dtype is None else -input.to(dtype), -1 if dim is None else dim)


def prelu(input, weight):
    if weight.numel() != 1:
        if input.dim() < 2 or weight.numel() != input.shape[1]:
            channels = input.shape[1] if input.dim() >= 2 else 1
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                               f"{weight.numel()} and channel size = {channels}.")
        weight = weight.reshape((1, -1) + (1,) * (input.dim() - 2))
    if weight.dtype != input.dtype:
        from torch._math_ops import _dtype_name
        raise RuntimeError(f"prelu: Type promoting not supported. Got {_dtype_name(input.dtype)} and "
                           f"{_dtype_name(weight.dtype)}")
    return torch._prelu_kernel(input, weight)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    if not training:
        # Evaluation is leaky_relu with the mean slope (PyTorch's rrelu_with_noise),
        # its gradient at 0 the slope too.
        return _maybe_inplace(input, torch._C._nn.leaky_relu(input, (lower + upper) / 2), inplace)
    slopes = torch.empty_like(input).uniform_(lower, upper)
    return _maybe_inplace(input, torch.where(input >= 0, input, input * slopes), inplace)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return rrelu(input, lower, upper, training, inplace=True)
