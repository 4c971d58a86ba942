"""torch.autograd: reverse-mode differentiation.

The graph and the engine are C++ (ATen/autograd, in libtorch_cpu); this
package is the Python API: backward, grad, the grad-mode context managers,
Function (custom ops with a Python backward), gradcheck, and the old
Variable wrapper.
"""
from torch import _C
from torch.autograd.grad_mode import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from torch.autograd.function import Function, FunctionCtx, once_differentiable
from torch.autograd.gradcheck import gradcheck
from torch.autograd.variable import Variable

__all__ = ["Function", "FunctionCtx", "Variable", "backward", "enable_grad", "grad", "gradcheck", "inference_mode",
           "is_grad_enabled", "no_grad", "once_differentiable", "set_grad_enabled"]



def _as_list(x):
    if x is None:
        return None
    if isinstance(x, (list, tuple)):
        return list(x)
    return [x]


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False):
    """Accumulates the gradients of `tensors` into the .grad of the leaves they depend on."""
    if create_graph:
        raise NotImplementedError("create_graph=True (higher-order gradients) is not supported")
    tensors = _as_list(tensors)
    grads = _as_list(grad_tensors) or [None] * len(tensors)
    if len(grads) != len(tensors):
        raise RuntimeError(f"grad_tensors has {len(grads)} entries but tensors has {len(tensors)}")
    _C._run_backward(tensors, grads, bool(retain_graph))


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, allow_unused=False):
    """The gradients of `outputs` with respect to `inputs`, as a tuple (None for unused inputs)."""
    if create_graph:
        raise NotImplementedError("create_graph=True (higher-order gradients) is not supported")
    outputs = _as_list(outputs)
    inputs = _as_list(inputs)
    grads = _as_list(grad_outputs) or [None] * len(outputs)
    return _C._run_grad(outputs, inputs, grads, bool(retain_graph), bool(allow_unused))
