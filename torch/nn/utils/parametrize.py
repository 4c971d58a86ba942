"""torch.nn.utils.parametrize: a module's tensor computed from others.

register_parametrization(module, "weight", P) moves the parameter to
module.parametrizations.weight.original (or original0, original1, ... when
P.right_inverse returns several tensors) and turns `module.weight` into a
property that returns P(original) at each access: the module's class is
swapped for a subclass made for it, as PyTorch does. Assigning to
module.weight stores P.right_inverse(value) into the originals. State dicts
carry the originals ("parametrizations.weight.original").
"""
import contextlib

import torch
from torch.nn.modules.container import ModuleDict, ModuleList
from torch.nn.parameter import Parameter

__all__ = ["ParametrizationList", "cached", "is_parametrized", "register_parametrization",
           "remove_parametrizations", "type_before_parametrizations", "transfer_parametrizations_and_params"]

_cache_enabled = 0
_cache = {}


@contextlib.contextmanager
def cached():
    """Inside this block, each parametrized tensor is computed once (the first access) and reused."""
    global _cache_enabled
    _cache_enabled += 1
    try:
        yield
    finally:
        _cache_enabled -= 1
        if not _cache_enabled:
            _cache.clear()


def _originals(value, what):
    if isinstance(value, torch.Tensor):
        return (value,)
    if isinstance(value, (list, tuple)) and all(isinstance(v, torch.Tensor) for v in value):
        return tuple(value)
    raise ValueError(f"'right_inverse' must return a Tensor or a Sequence of tensors (list, tuple...). Got "
                     f"{type(value).__name__} for {what}")


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor, applied in order, and the original tensor(s) they start from."""

    def __init__(self, modules, original, unsafe=False):
        if len(modules) == 0:
            raise ValueError("ParametrizationList requires one or more modules.")
        super().__init__(modules)
        self.unsafe = unsafe
        with torch.no_grad():
            new = original
            for module in reversed(self):
                if hasattr(module, "right_inverse"):
                    new = module.right_inverse(new)
        originals = _originals(new, "the original")
        object.__setattr__(self, "is_tensor", isinstance(new, torch.Tensor))
        object.__setattr__(self, "ntensors", len(originals))
        if self.is_tensor:
            if not unsafe and (new.dtype != original.dtype or new.shape != original.shape):
                raise ValueError("When `right_inverse` outputs one tensor, it may not change the dtype or shape.\n"
                                 f"original.dtype: {original.dtype}\nright_inverse(original).dtype: {new.dtype}\n"
                                 f"original.shape: {original.shape}\nright_inverse(original).shape: {new.shape}")
            with torch.no_grad():
                original.copy_(new)  # the parameter object itself is kept (optimizers may hold it)
            self._register_original("original", original)
        else:
            for i, value in enumerate(originals):
                requires_grad = original.requires_grad
                self._register_original(f"original{i}", Parameter(value.detach().clone(), requires_grad)
                                        if isinstance(original, Parameter) else value.detach().clone())
        if not unsafe:
            check = self()
            if not isinstance(check, torch.Tensor):
                raise ValueError(f"A parametrization must return a tensor. Got {type(check).__name__}.")
            if check.dtype != original.dtype or check.shape != original.shape:
                raise ValueError("Registering a parametrization may not change the dtype or shape of the tensor, "
                                 f"unless `unsafe` flag is enabled.\nunparametrized dtype: {original.dtype}\n"
                                 f"parametrized dtype: {check.dtype}\nunparametrized shape: {original.shape}\n"
                                 f"parametrized shape: {check.shape}")

    def _register_original(self, name, value):
        if isinstance(value, Parameter):
            self.register_parameter(name, value)
        else:
            self.register_buffer(name, value)

    def right_inverse(self, value):
        """Stores the originals that make this value."""
        with torch.no_grad():
            for module in reversed(self):
                if hasattr(module, "right_inverse"):
                    value = module.right_inverse(value)
                else:
                    raise RuntimeError(f"parametrization {type(module).__name__} does not implement right_inverse.")
            if self.is_tensor:
                if not isinstance(value, torch.Tensor):
                    raise ValueError(f"`right_inverse` should return a tensor. Got {type(value).__name__}")
                self.original.copy_(value)
            else:
                values = _originals(value, "the assigned value")
                if len(values) != self.ntensors:
                    raise ValueError(f"'right_inverse' must return a sequence of tensors of length {self.ntensors}. "
                                     f"Got a sequence of length {len(values)}")
                for i, v in enumerate(values):
                    getattr(self, f"original{i}").copy_(v)

    def forward(self):
        if self.is_tensor:
            x = self[0](self.original)
        else:
            x = self[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        for module in list(self)[1:]:
            x = module(x)
        return x


def _inject_new_class(module):
    cls = module.__class__

    def getstate(self):
        raise RuntimeError("Serialization of parametrized modules is only supported through state_dict(). See:\n"
                           "https://pytorch.org/tutorials/beginner/saving_loading_models.html"
                           "#saving-loading-a-general-checkpoint-for-inference-and-or-resuming-training")

    new_cls = type(f"Parametrized{cls.__name__}", (cls,), {"__getstate__": getstate})
    module.__class__ = new_cls


def _inject_property(module, tensor_name):
    def get_parametrized(self):
        parametrization = self.parametrizations[tensor_name]
        if _cache_enabled:
            key = (id(self), tensor_name)
            if key not in _cache:
                _cache[key] = parametrization()
            return _cache[key]
        return parametrization()

    def set_original(self, value):
        self.parametrizations[tensor_name].right_inverse(value)

    setattr(module.__class__, tensor_name, property(get_parametrized, set_original))


def is_parametrized(module, tensor_name=None):
    parametrizations = module.__dict__.get("_modules", {}).get("parametrizations")
    if parametrizations is None or not isinstance(parametrizations, ModuleDict):
        return False
    return tensor_name is None or tensor_name in parametrizations


def type_before_parametrizations(module):
    return module.__class__.__bases__[0] if is_parametrized(module) else type(module)


def register_parametrization(module, tensor_name, parametrization, *, unsafe=False):
    """module.<tensor_name> becomes parametrization(original); returns module."""
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        if not unsafe:
            current = getattr(module, tensor_name)
            out = parametrization(current)
            if not isinstance(out, torch.Tensor) or out.dtype != current.dtype or out.shape != current.shape:
                raise ValueError("Registering a parametrization may not change the dtype or shape of the tensor, "
                                 "unless `unsafe` flag is enabled.")
        module.parametrizations[tensor_name].append(parametrization)
        module.parametrizations[tensor_name].unsafe |= unsafe
        return module
    if tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
        parametrizations = ParametrizationList([parametrization], original, unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            _inject_new_class(module)
            module.parametrizations = ModuleDict()
        _inject_property(module, tensor_name)
        module.parametrizations[tensor_name] = parametrizations
        return module
    raise ValueError(f"Module '{module}' does not have a parameter, a buffer, or a parametrized element with name "
                     f"'{tensor_name}'")


def remove_parametrizations(module, tensor_name, leave_parametrized=True):
    """Undoes register_parametrization: a plain parameter again, holding the parametrized value (or the
    original, leave_parametrized=False)."""
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    parametrizations = module.parametrizations[tensor_name]
    if parametrizations.is_tensor:
        original = parametrizations.original
        if leave_parametrized:
            with torch.no_grad():
                value = getattr(module, tensor_name)
                if value.dtype == original.dtype and value.shape == original.shape:
                    original.copy_(value)
                else:
                    original = Parameter(value.detach(), original.requires_grad) if isinstance(
                        original, Parameter) else value.detach()
    else:
        if not leave_parametrized:
            raise ValueError("Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is "
                             "parametrized in terms of a sequence of tensors.")
        with torch.no_grad():
            value = getattr(module, tensor_name)
        first = parametrizations.original0
        original = Parameter(value.detach(), first.requires_grad) if isinstance(first, Parameter) else value.detach()
    delattr(module.__class__, tensor_name)
    del module.parametrizations[tensor_name]
    if isinstance(original, Parameter):
        module.register_parameter(tensor_name, original)
    else:
        module.register_buffer(tensor_name, original)
    if len(module.parametrizations) == 0:
        delattr(module, "parametrizations")
        module.__class__ = module.__class__.__bases__[0]
    return module


def transfer_parametrizations_and_params(from_module, to_module, tensor_name=None):
    """Copies from_module's parametrizations (and their originals) onto to_module."""
    if not is_parametrized(from_module):
        raise ValueError("from_module is not parametrized")
    names = [tensor_name] if tensor_name is not None else list(from_module.parametrizations)
    for name in names:
        if not is_parametrized(to_module, name):
            for p in from_module.parametrizations[name]:
                register_parametrization(to_module, name, p)
        with torch.no_grad():
            source, target = from_module.parametrizations[name], to_module.parametrizations[name]
            for key, value in list(source._parameters.items()) + list(source._buffers.items()):
                getattr(target, key).copy_(value)
    return to_module

