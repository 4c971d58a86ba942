"""torch.autograd.Variable: the wrapper tensors needed before PyTorch 0.4,
kept because older scripts still write `Variable(x, requires_grad=True)`.
As in PyTorch, it makes a plain tensor sharing x's data, and every tensor
is an instance of it."""
import warnings

import torch


class _VariableMeta(type):
    def __instancecheck__(cls, other):
        return isinstance(other, torch.Tensor)


class Variable(metaclass=_VariableMeta):
    def __new__(cls, data=None, requires_grad=False, volatile=False):
        if volatile:
            warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` instead.",
                          stacklevel=2)
        if data is None:
            data = torch.empty(0)
        if not isinstance(data, torch.Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        return data.detach().requires_grad_(requires_grad)
