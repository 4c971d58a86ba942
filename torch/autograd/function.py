"""torch.autograd.Function: an op whose forward and backward are Python.

    class Exp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, grad):
            (y,) = ctx.saved_tensors
            return grad * y

    Exp.apply(x)

apply() runs forward with gradients off, then, if an input requires grad,
records one graph node (torch._C._FunctionNode, named <Class>Backward) whose
backward calls the Python backward with one gradient per output and hands
back one gradient per tensor argument.
"""
import functools

import torch
from torch import _C

__all__ = ["Function", "FunctionCtx", "once_differentiable"]


class FunctionCtx:
    """The `ctx` of forward and backward: what forward keeps for backward."""

    def save_for_backward(self, *tensors):
        for i, t in enumerate(tensors):
            if t is not None and not isinstance(t, torch.Tensor):
                raise TypeError(f"save_for_backward can only save variables, but argument {i} "
                                f"is of type {type(t).__name__}")
        # With each tensor its version, so a later in-place change is caught.
        self._saved = [(t, t._version if t is not None else 0) for t in tensors]

    @property
    def saved_tensors(self):
        saved = getattr(self, "_saved", None)
        if saved is None:
            if getattr(self, "_released", False):
                raise RuntimeError("Trying to backward through the graph a second time (or directly access saved "
                                   "tensors after they have already been freed). Saved intermediate values of the "
                                   "graph are freed when you call .backward() or autograd.grad(). Specify "
                                   "retain_graph=True if you need to backward through the graph a second time or if "
                                   "you need to access saved tensors after calling backward.")
            return ()
        out = []
        for t, version in saved:
            if t is not None and t._version != version:
                raise RuntimeError("one of the variables needed for gradient computation has been modified by an "
                                   f"inplace operation: [{t.type()} {list(t.shape)}] is at version {t._version}; "
                                   f"expected version {version} instead.")
            out.append(t)
        return tuple(out)

    def mark_dirty(self, *tensors):
        self._dirty = set(map(id, tensors))

    def mark_non_differentiable(self, *tensors):
        self._non_differentiable = set(map(id, tensors))

    def set_materialize_grads(self, value):
        self.materialize_grads = bool(value)


class Function:
    """Subclass with static forward(ctx, *args) and backward(ctx, *grads); call apply()."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("Legacy autograd function with non-static forward method is deprecated. Please use new-style "
                           "autograd function with static forward method. (Example: "
                           "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError

    @classmethod
    def apply(cls, *args, **kwargs):
        ctx = FunctionCtx()
        ctx.materialize_grads = True
        positions = [i for i, a in enumerate(args) if isinstance(a, torch.Tensor)]
        tensors = [args[i] for i in positions]
        ctx.needs_input_grad = tuple(isinstance(a, torch.Tensor) and a.requires_grad for a in args)
        separate = cls.setup_context is not Function.setup_context
        with torch.no_grad():
            outputs = cls.forward(*args, **kwargs) if separate else cls.forward(ctx, *args, **kwargs)
        if separate:
            cls.setup_context(ctx, args, outputs)
        if not (torch.is_grad_enabled() and any(t.requires_grad for t in tensors)):
            return outputs
        single = not isinstance(outputs, tuple)
        outs = (outputs,) if single else outputs
        dirty = getattr(ctx, "_dirty", set())
        non_diff = getattr(ctx, "_non_differentiable", set())
        input_ids = {id(t) for t in tensors}
        # An input returned as it is (and not marked dirty) comes back as a new alias.
        outs = tuple(o.view(o.shape) if isinstance(o, torch.Tensor) and id(o) in input_ids and id(o) not in dirty
                     else o for o in outs)
        # A saved output is kept detached: the output holds the node, and the
        # node holding the output back would be a cycle nothing collects.
        out_index = {id(o): i for i, o in enumerate(outs) if isinstance(o, torch.Tensor)}
        saved = getattr(ctx, "_saved", None)
        saved_outputs = {}  # position in ctx._saved -> output number
        if saved:
            for k, (t, v) in enumerate(saved):
                if t is not None and id(t) in out_index and id(t) not in non_diff:
                    saved_outputs[k] = out_index[id(t)]
            ctx._saved = [(t.detach(), v) if t is not None and id(t) in out_index else (t, v) for t, v in saved]
        shapes = [(o.shape, o.dtype, o.device) if isinstance(o, torch.Tensor) else None for o in outs]
        n_outs = len(outs)  # the backward below must not hold the outputs (they hold its node)

        def run_backward(grads, node=None):
            if node is not None and saved_outputs and getattr(ctx, "_saved", None):
                # A pass that records itself (create_graph): the saved outputs are this node's outputs again,
                # for this call only (kept past it, they would hold the node that holds them).
                detached = ctx._saved
                ctx._saved = list(detached)
                for k, nr in saved_outputs.items():
                    alias, version = detached[k][0].detach(), detached[k][1]
                    _C._set_function_history(alias, node, nr, n_outs, False)
                    ctx._saved[k] = (alias, version)
                try:
                    return run_backward(grads)
                finally:
                    if getattr(ctx, "_saved", None) is not None:
                        ctx._saved = detached
            if ctx.materialize_grads:
                grads = tuple(torch.zeros(s[0], dtype=s[1], device=s[2]) if g is None and s is not None else g
                              for g, s in zip(grads, shapes))
            result = cls.backward(ctx, *grads)
            if not isinstance(result, tuple):
                result = (result,)
            if len(result) < len(args):
                if any(r is not None for r in result[len(args):]):
                    raise RuntimeError(f"function {cls.__name__}Backward returned an incorrect number of gradients "
                                       f"(expected {len(args)}, got {len(result)})")
            if len(result) > len(args):
                if any(r is not None for r in result[len(args):]):
                    raise RuntimeError(f"function {cls.__name__}Backward returned an incorrect number of gradients "
                                       f"(expected {len(args)}, got {len(result)})")
                result = result[:len(args)]
            if len(result) != len(args):
                raise RuntimeError(f"function {cls.__name__}Backward returned an incorrect number of gradients "
                                   f"(expected {len(args)}, got {len(result)})")
            return tuple(result[i] if ctx.needs_input_grad[i] else None for i in positions)

        node = _C._FunctionNode(run_backward, cls.__name__ + "Backward", tensors)
        for nr, o in enumerate(outs):
            if isinstance(o, torch.Tensor) and id(o) not in non_diff and o.dtype.is_floating_point:
                _C._set_function_history(o, node, nr, len(outs), id(o) in dirty)
        return outs[0] if single else outs


def once_differentiable(fn):
    """Marks a backward that is not itself differentiable (as PyTorch's); here backward always runs without grad."""

    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with torch.no_grad():
            return fn(ctx, *args)

    return wrapper
