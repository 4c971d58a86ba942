import torch
from torch import Tensor

__all__ = ["muladd", "mul", "add_into"]


def muladd(a: Tensor, b: Tensor, c: float) -> Tensor:
    """a * b + c in one kernel."""
    return torch.ops.muladd_ops.muladd.default(a, b, c)


def mul(a: Tensor, b: Tensor) -> Tensor:
    return torch.ops.muladd_ops.mul.default(a, b)


def add_into(a: Tensor, b: Tensor, out: Tensor) -> None:
    """Writes a + b into out."""
    torch.ops.muladd_ops.add_into.default(a, b, out)


@torch.library.register_fake("muladd_ops::muladd")
def _(a, b, c):
    torch._check(a.shape == b.shape)
    torch._check(a.dtype == torch.float)
    torch._check(b.dtype == torch.float)
    torch._check(a.device == b.device)
    return torch.empty_like(a)


@torch.library.register_fake("muladd_ops::mul")
def _(a, b):
    torch._check(a.shape == b.shape)
    return torch.empty_like(a)


@torch.library.register_fake("muladd_ops::add_into")
def _(a, b, out):
    torch._check(a.shape == b.shape == out.shape)
    return None


def _setup_context(ctx, inputs, output):
    a, b, c = inputs
    ctx.save_for_backward(a if ctx.needs_input_grad[1] else None, b if ctx.needs_input_grad[0] else None)


def _backward(ctx, grad):
    a, b = ctx.saved_tensors
    grad_a = mul(grad, b) if ctx.needs_input_grad[0] else None
    grad_b = mul(grad, a) if ctx.needs_input_grad[1] else None
    return grad_a, grad_b, None


torch.library.register_autograd("muladd_ops::muladd", _backward, setup_context=_setup_context)
