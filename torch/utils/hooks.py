"""Hook handles and the machinery behind nn.Module's full backward hooks.

RemovableHandle is what every register_*_hook returns. BackwardHook wraps a
module's tensor inputs and outputs in identity autograd Functions, so that
the backward pass meets the module's gradients all at once: the outputs'
node sees grad_output (the backward pre-hooks may replace it), the inputs'
node sees grad_input (the backward hooks may replace it), as PyTorch's
register_full_backward_hook documents.
"""
import warnings
import weakref
from collections import OrderedDict

import torch

__all__ = ["RemovableHandle", "BackwardHook", "BackwardHookFunction"]


class RemovableHandle:
    """Removes the hook it was returned for: handle.remove(), or leave a `with` block."""

    next_id = 0

    def __init__(self, hooks_dict, *, extra_dict=None):
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1
        extras = extra_dict if isinstance(extra_dict, (list, tuple)) else [extra_dict] if extra_dict is not None else []
        self.extra_dict_ref = tuple(weakref.ref(d) for d in extras)

    def remove(self):
        for ref in (self.hooks_dict_ref, *self.extra_dict_ref):
            d = ref()
            if d is not None and self.id in d:
                del d[self.id]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()

    def __getstate__(self):
        return (None, self.id, tuple(None for _ in self.extra_dict_ref))

    def __setstate__(self, state):
        empty = OrderedDict()
        self.hooks_dict_ref = weakref.ref(empty)
        self.id = state[1]
        RemovableHandle.next_id = max(RemovableHandle.next_id, self.id + 1)
        self.extra_dict_ref = ()


class BackwardHookFunction(torch.autograd.Function):
    """Passes tensors through; its backward hands the gradients to `on_grads`."""

    @staticmethod
    def forward(ctx, on_grads, *tensors):
        ctx.on_grads = on_grads
        ctx.set_materialize_grads(False)
        return tensors

    @staticmethod
    def backward(ctx, *grads):
        return (None, *ctx.on_grads(grads))


def _check_count(got, want, what):
    if len(got) != want:
        raise RuntimeError(f"Backward hook returned an invalid number of {what}, got {len(got)}, but expected {want}")


class BackwardHook:
    """One call of a module that has full backward hooks or backward pre-hooks."""

    def __init__(self, module, user_hooks, user_pre_hooks):
        self.module = module
        self.user_hooks = user_hooks
        self.user_pre_hooks = user_pre_hooks
        self.n_inputs = 0
        self.input_positions = []
        self.n_outputs = 0
        self.output_positions = []
        self.grad_outputs = None

    def setup_input_hook(self, args):
        self.n_inputs = len(args)
        if not torch.is_grad_enabled():
            return args
        self.input_positions = [i for i, a in enumerate(args) if isinstance(a, torch.Tensor) and a.requires_grad]
        if not self.input_positions or not self.user_hooks:
            return args
        wrapped = BackwardHookFunction.apply(self._on_input_grads, *(args[i] for i in self.input_positions))
        args = list(args)
        for i, t in zip(self.input_positions, wrapped):
            args[i] = t
        return tuple(args)

    def setup_output_hook(self, result):
        if not torch.is_grad_enabled():
            return result
        single = isinstance(result, torch.Tensor)
        outs = [result] if single else list(result) if isinstance(result, (tuple, list)) else None
        if outs is None:
            return result
        self.n_outputs = len(outs)
        self.output_positions = [i for i, o in enumerate(outs) if isinstance(o, torch.Tensor) and o.requires_grad]
        if not self.output_positions:
            return result
        wrapped = BackwardHookFunction.apply(self._on_output_grads, *(outs[i] for i in self.output_positions))
        for i, t in zip(self.output_positions, wrapped):
            outs[i] = t
        return outs[0] if single else type(result)(outs)

    def _on_output_grads(self, grads):
        full = [None] * self.n_outputs
        for i, g in zip(self.output_positions, grads):
            full[i] = g
        for hook in self.user_pre_hooks:
            replaced = hook(self.module, tuple(full))
            if replaced is not None:
                replaced = replaced if isinstance(replaced, (tuple, list)) else (replaced,)
                _check_count(replaced, self.n_outputs, "grad_output")
                full = list(replaced)
        self.grad_outputs = tuple(full)
        if not self.input_positions:
            # Nothing upstream needs a gradient: the hooks run now, with grad_input all None.
            if self.user_hooks:
                warnings.warn("Full backward hook is firing when gradients are computed with respect to module "
                              "outputs since no inputs require gradients. See https://docs.pytorch.org/docs/main/"
                              "generated/torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for more "
                              "details.", stacklevel=5)
            for hook in self.user_hooks:
                out = hook(self.module, (None,) * self.n_inputs, self.grad_outputs)
                if out is not None and not all(g is None for g in (out if isinstance(out, tuple) else (out,))):
                    raise RuntimeError("Backward hook for Modules where no input requires gradient should always "
                                       "return None or None for all gradients.")
            self.grad_outputs = None
        return tuple(full[i] for i in self.output_positions)

    def _on_input_grads(self, grads):
        full = [None] * self.n_inputs
        for i, g in zip(self.input_positions, grads):
            full[i] = g
        for hook in self.user_hooks:
            replaced = hook(self.module, tuple(full), self.grad_outputs)
            if replaced is not None:
                replaced = replaced if isinstance(replaced, (tuple, list)) else (replaced,)
                _check_count(replaced, self.n_inputs, "grad_input")
                full = list(replaced)
        self.grad_outputs = None
        return tuple(full[i] for i in self.input_positions)
