from collections import OrderedDict

import torch
from torch.nn.modules.module import Module
from torch.nn.parameter import Parameter


class Sequential(Module):
    """Calls its modules in order, each on the previous one's output."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for i, module in enumerate(args):
                self.add_module(str(i), module)

    def forward(self, input):
        for module in self._modules.values():
            input = module(input)
        return input

    def __getitem__(self, idx):
        modules = list(self._modules.values())
        if isinstance(idx, slice):
            return Sequential(*modules[idx])
        return modules[idx]

    def _key(self, idx):
        keys = list(self._modules)
        if not -len(keys) <= idx < len(keys):
            raise IndexError(f"index {idx} is out of range")
        return keys[idx]

    def __setitem__(self, idx, module):
        setattr(self, self._key(idx), module)

    def __delitem__(self, idx):
        keys = list(self._modules)[idx] if isinstance(idx, slice) else [self._key(idx)]
        for key in keys:
            del self._modules[key]
        # PyTorch renumbers the remaining modules 0, 1, ...
        modules = list(self._modules.values())
        self._modules.clear()
        for i, module in enumerate(modules):
            self._modules[str(i)] = module

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def insert(self, index, module):
        modules = list(self._modules.values())
        n = len(modules)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        modules.insert(index if index >= 0 else index + n, module)
        self._modules.clear()
        for i, m in enumerate(modules):
            self._modules[str(i)] = m
        return self

    def extend(self, sequential):
        for module in sequential:
            self.append(module)
        return self

    def pop(self, key):
        module = self[key]
        del self[key]
        return module


class ModuleList(Module):
    """A list of modules whose parameters the parent module sees."""

    def __init__(self, modules=None):
        super().__init__()
        for m in modules or []:
            self.append(m)

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules):
        for m in modules:
            self.append(m)
        return self

    def __getitem__(self, idx):
        modules = list(self._modules.values())
        if isinstance(idx, slice):
            return ModuleList(modules[idx])
        return modules[idx]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())


class ModuleDict(Module):
    """A dict of modules (in insertion order) whose parameters the parent module sees."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        del self._modules[key]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key):
        return key in self._modules

    def keys(self):
        return self._modules.keys()

    def values(self):
        return self._modules.values()

    def items(self):
        return self._modules.items()

    def pop(self, key):
        return self._modules.pop(key)

    def clear(self):
        self._modules.clear()

    def update(self, modules):
        pairs = modules.items() if hasattr(modules, "items") else modules
        for key, module in pairs:
            self[key] = module


class ParameterList(Module):
    """A list of parameters registered under "0", "1", ...; plain tensors become Parameters."""

    def __init__(self, values=None):
        super().__init__()
        for v in values or []:
            self.append(v)

    def _as_parameter(self, value):
        if isinstance(value, torch.Tensor) and not isinstance(value, Parameter):
            return Parameter(value)
        return value

    def append(self, value):
        self.register_parameter(str(len(self)), self._as_parameter(value))
        return self

    def extend(self, values):
        for v in values:
            self.append(v)
        return self

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return ParameterList(list(self._parameters.values())[idx])
        return list(self._parameters.values())[idx]

    def __setitem__(self, idx, value):
        idx = idx + len(self) if idx < 0 else idx
        self.register_parameter(str(idx), self._as_parameter(value))

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters.values())

    def extra_repr(self):
        return "\n".join(f"({i}): Parameter containing: [{p.type()} of size {'x'.join(map(str, p.shape))}]"
                         for i, p in enumerate(self))


class ParameterDict(Module):
    """A dict of parameters; plain tensors become Parameters."""

    def __init__(self, parameters=None):
        super().__init__()
        if parameters is not None:
            self.update(parameters)

    def __getitem__(self, key):
        return self._parameters[key]

    def __setitem__(self, key, value):
        if isinstance(value, torch.Tensor) and not isinstance(value, Parameter):
            value = Parameter(value)
        self.register_parameter(key, value)

    def __delitem__(self, key):
        del self._parameters[key]

    def __len__(self):
        return len(self._parameters)

    def __iter__(self):
        return iter(self._parameters)

    def __contains__(self, key):
        return key in self._parameters

    def keys(self):
        return self._parameters.keys()

    def values(self):
        return self._parameters.values()

    def items(self):
        return self._parameters.items()

    def update(self, parameters):
        pairs = parameters.items() if hasattr(parameters, "items") else parameters
        for key, value in pairs:
            self[key] = value
