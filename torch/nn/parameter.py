"""Parameter: a tensor that a Module registers as one of its parameters."""
import torch
from torch import _C


class Parameter(torch.Tensor):
    """A leaf tensor (requires_grad=True by default) sharing memory with `data`."""

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = torch.empty(0)
        return _C._make_subclass(cls, data, requires_grad)

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, protocol):
        return torch.serialization._reduce_tensor(self)

    def __deepcopy__(self, memo):
        if id(self) not in memo:
            memo[id(self)] = Parameter(self.detach().clone(), self.requires_grad)
        return memo[id(self)]
