"""fused_ops: relu(x + bias) in one kernel (CPU, and CUDA in a CUDA build),
differentiable through a torch.autograd.Function over the two operators
the library registers (torch.ops.fused_ops.bias_relu / bias_relu_backward)."""
import glob
import os

import torch

from fused_ops import _build_info

__all__ = ["bias_relu", "BiasReLU"]

if torch.__version__ != _build_info.TORCH_VERSION:
    raise ImportError(f"fused_ops was built for torch {_build_info.TORCH_VERSION}, but torch {torch.__version__} "
                      "is installed: install the fused_ops wheel of the same variant")

_libraries = glob.glob(os.path.join(os.path.dirname(__file__), "_C*.so"))
if len(_libraries) != 1:
    raise ImportError(f"fused_ops: expected one compiled library next to {__file__}, found {_libraries}")
torch.ops.load_library(_libraries[0])


class BiasReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, bias):
        out = torch.ops.fused_ops.bias_relu(x, bias)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        grad_x = torch.ops.fused_ops.bias_relu_backward(grad.contiguous(), out)
        grad_bias = grad_x.reshape(-1, grad_x.shape[-1]).sum(0) if ctx.needs_input_grad[1] else None
        return (grad_x if ctx.needs_input_grad[0] else None), grad_bias


def bias_relu(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    """relu(x + bias) for bias of shape (x.shape[-1],)."""
    return BiasReLU.apply(x, bias)
