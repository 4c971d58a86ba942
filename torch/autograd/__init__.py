"""torch.autograd: reverse-mode differentiation.

The graph and the engine are C++ (ATen/autograd, in libtorch_cpu); this
package is the Python API: backward, grad, the grad-mode context managers,
Function (custom ops with a Python backward), gradcheck, and the old
Variable wrapper.
"""
import warnings

import torch
from torch import _C
from torch.autograd.grad_mode import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled
from torch.autograd.function import Function, FunctionCtx, once_differentiable
from torch.autograd.gradcheck import gradcheck, gradgradcheck
from torch.autograd.variable import Variable
from torch.autograd import functional  # noqa: E402

__all__ = ["Function", "FunctionCtx", "Variable", "backward", "enable_grad", "functional", "grad", "gradcheck", "gradgradcheck",
           "inference_mode", "is_grad_enabled", "no_grad", "once_differentiable", "set_grad_enabled"]



def _as_list(x):
    if x is None:
        return None
    if isinstance(x, (list, tuple)):
        return list(x)
    return [x]


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, inputs=None):
    """Accumulates the gradients of `tensors` into the .grad of the leaves they depend on (only into
    `inputs`' when given). create_graph records the pass, so the gradients can be differentiated again."""
    if grad_variables is not None:
        if grad_tensors is not None:
            raise RuntimeError("'grad_tensors' and 'grad_variables' (deprecated) arguments both passed to "
                               "backward(). Please only use 'grad_tensors'.")
        grad_tensors = grad_variables
    if retain_graph is None:
        retain_graph = create_graph
    if create_graph:
        warnings.warn("Using backward() with create_graph=True will create a reference cycle between the parameter "
                      "and its gradient which can cause a memory leak. We recommend using autograd.grad when creating "
                      "the graph to avoid this. If you have to use this function, make sure to reset the .grad fields "
                      "of your parameters to None after use to break the cycle and avoid the leak.", stacklevel=2)
    tensors = _as_list(tensors)
    grads = _as_list(grad_tensors) or [None] * len(tensors)
    if len(grads) != len(tensors):
        raise RuntimeError(f"grad_tensors has {len(grads)} entries but tensors has {len(tensors)}")
    if inputs is not None:
        inputs = [inputs] if isinstance(inputs, torch.Tensor) else list(inputs)
        if not inputs:
            raise RuntimeError("'inputs' argument to backward() cannot be empty.")
        found = _C._run_grad(tensors, inputs, grads, bool(retain_graph), True, bool(create_graph))
        for t, g in zip(inputs, found):
            if g is not None:
                t.grad = g if t.grad is None else t.grad + g
        return
    _C._run_backward(tensors, grads, bool(retain_graph), bool(create_graph))


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """The gradients of `outputs` with respect to `inputs`, as a tuple (None for unused inputs, or zeros with
    materialize_grads). create_graph records the pass, so the results can be differentiated again."""
    if is_grads_batched:
        raise NotImplementedError("torch.autograd.grad(is_grads_batched=True) (vmap over grad_outputs) is not "
                                  "supported")
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, but got: "
                         "allow_unused=False.")
    if allow_unused is None:
        allow_unused = materialize_grads
    if retain_graph is None:
        retain_graph = create_graph
    single = isinstance(inputs, torch.Tensor)
    outputs = _as_list(outputs)
    inputs = [inputs] if single else list(inputs)
    grads = _as_list(grad_outputs) or [None] * len(outputs)
    result = _C._run_grad(outputs, inputs, grads, bool(retain_graph), bool(allow_unused), bool(create_graph))
    if materialize_grads:
        result = tuple(torch.zeros_like(t) if g is None else g for t, g in zip(inputs, result))
    return result
