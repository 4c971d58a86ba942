"""Module: the base class of every layer and model, with its hooks.

The module-level register_module_* functions add hooks that run for every
module's call, before each module's own (PyTorch's global hooks).
"""
import functools
from collections import OrderedDict, namedtuple
from typing import Any, Dict, TypeVar

import torch
from torch.nn.parameter import Parameter
from torch.utils.hooks import BackwardHook, RemovableHandle

__all__ = ["Module", "register_module_forward_pre_hook", "register_module_forward_hook",
           "register_module_full_backward_pre_hook", "register_module_full_backward_hook",
           "register_module_buffer_registration_hook", "register_module_module_registration_hook",
           "register_module_parameter_registration_hook"]

_global_forward_pre_hooks = OrderedDict()
_global_forward_hooks = OrderedDict()
_global_forward_hooks_with_kwargs = OrderedDict()
_global_forward_hooks_always_called = OrderedDict()
_global_backward_pre_hooks = OrderedDict()
_global_backward_hooks = OrderedDict()
_global_buffer_registration_hooks = OrderedDict()
_global_module_registration_hooks = OrderedDict()
_global_parameter_registration_hooks = OrderedDict()

# The per-module hook tables, each an OrderedDict from a handle's id to its hook.
_HOOK_DICTS = ("_forward_pre_hooks", "_forward_pre_hooks_with_kwargs", "_forward_hooks", "_forward_hooks_with_kwargs",
               "_forward_hooks_always_called", "_backward_pre_hooks", "_backward_hooks", "_state_dict_pre_hooks",
               "_state_dict_hooks", "_load_state_dict_pre_hooks", "_load_state_dict_post_hooks")


def _add(hooks, hook, prepend=False, extra=None):
    handle = RemovableHandle(hooks, extra_dict=extra)
    hooks[handle.id] = hook
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    return handle


def register_module_forward_pre_hook(hook):
    """hook(module, args) before every module's forward; may return new args."""
    return _add(_global_forward_pre_hooks, hook)


def register_module_forward_hook(hook, *, with_kwargs=False, always_call=False):
    """hook(module, args, output) after every module's forward; may return a new output."""
    handle = _add(_global_forward_hooks, hook,
                  extra=[_global_forward_hooks_with_kwargs, _global_forward_hooks_always_called])
    if with_kwargs:
        _global_forward_hooks_with_kwargs[handle.id] = True
    if always_call:
        _global_forward_hooks_always_called[handle.id] = True
    return handle


def register_module_full_backward_pre_hook(hook):
    """hook(module, grad_output) for every module; may return a new grad_output."""
    return _add(_global_backward_pre_hooks, hook)


def register_module_full_backward_hook(hook):
    """hook(module, grad_input, grad_output) for every module; may return a new grad_input."""
    return _add(_global_backward_hooks, hook)


def register_module_buffer_registration_hook(hook):
    """hook(module, name, buffer) on every register_buffer; may return a replacement buffer."""
    return _add(_global_buffer_registration_hooks, hook)


def register_module_module_registration_hook(hook):
    """hook(module, name, submodule) on every submodule assignment; may return a replacement."""
    return _add(_global_module_registration_hooks, hook)


def register_module_parameter_registration_hook(hook):
    """hook(module, name, param) on every parameter assignment; may return a replacement."""
    return _add(_global_parameter_registration_hooks, hook)


def _registered(hooks, module, name, value):
    for hook in hooks.values():
        out = hook(module, name, value)
        if out is not None:
            value = out
    return value


class Module:
    """Holds parameters, buffers and submodules in registration order, and calls forward()."""

    _version = 1  # saved in state_dict's _metadata; a subclass bumps it when its state's layout changes
    dump_patches = False
    call_super_init = False
    T_destination = TypeVar("T_destination", bound=Dict[str, Any])

    def __init__(self, *args, **kwargs):
        if args or kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() got an unexpected argument: Module.__init__ takes none")
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_modules", OrderedDict())
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        for name in _HOOK_DICTS:
            object.__setattr__(self, name, OrderedDict())
        object.__setattr__(self, "_is_full_backward_hook", None)

    def __setstate__(self, state):
        self.__dict__.update(state)
        for name in _HOOK_DICTS:  # a module pickled before it had these tables
            self.__dict__.setdefault(name, OrderedDict())
        self.__dict__.setdefault("_non_persistent_buffers_set", set())
        self.__dict__.setdefault("_is_full_backward_hook", None)

    # ---- registration ----
    def __setattr__(self, name, value):
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._remove(name, keep=params)  # a reassigned parameter keeps its place, as in PyTorch
            params[name] = _registered(_global_parameter_registration_hooks, self, name, value)
        elif isinstance(value, Module):
            if params is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._remove(name, keep=self._modules)
            self._modules[name] = _registered(_global_module_registration_hooks, self, name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{type(value).__name__}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            params[name] = None
        elif params is not None and name in self._buffers:
            self._buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def _remove(self, name, keep=None):
        for store in (self.__dict__, self._parameters, self._buffers, self._modules):
            if store is not keep:
                store.pop(name, None)

    def __getattr__(self, name):
        for store in ("_parameters", "_buffers", "_modules"):
            d = self.__dict__.get(store)
            if d is not None and name in d:
                return d[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        if name in self._parameters or name in self._buffers or name in self._modules:
            self._remove(name)
        else:
            object.__delattr__(self, name)

    def register_parameter(self, name, param):
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{type(param).__name__}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        self._remove(name)
        self._parameters[name] = param if param is None else _registered(
            _global_parameter_registration_hooks, self, name, param)

    def register_buffer(self, name, tensor, persistent=True):
        """A tensor the module owns but does not train (moved by .to(); in state_dict unless persistent=False)."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str) or not name or "." in name:
            raise KeyError(f"buffer name must be a non-empty string without '.', got {name!r}")
        if tensor is not None and not isinstance(tensor, torch.Tensor):
            raise TypeError(f"cannot assign '{type(tensor).__name__}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._remove(name)
        self._buffers[name] = tensor if tensor is None else _registered(
            _global_buffer_registration_hooks, self, name, tensor)
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name, module):
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{type(module).__name__} is not a Module subclass")
        self._remove(name)
        self._modules[name] = module if module is None else _registered(
            _global_module_registration_hooks, self, name, module)

    register_module = add_module

    # ---- calling ----
    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        if not (self._forward_pre_hooks or self._forward_hooks or self._backward_pre_hooks or self._backward_hooks
                or _global_forward_pre_hooks or _global_forward_hooks or _global_backward_pre_hooks
                or _global_backward_hooks):
            return self.forward(*args, **kwargs)
        return self._call_with_hooks(args, kwargs)

    def _call_with_hooks(self, args, kwargs):
        for hook_id, hook in (*_global_forward_pre_hooks.items(), *self._forward_pre_hooks.items()):
            if hook_id in self._forward_pre_hooks_with_kwargs:
                result = hook(self, args, kwargs)
                if result is not None:
                    if not (isinstance(result, tuple) and len(result) == 2):
                        raise RuntimeError("forward pre-hook must return None or a tuple of (new_args, new_kwargs), "
                                           f"but got {result}.")
                    args, kwargs = result
            else:
                result = hook(self, args)
                if result is not None:
                    args = result if isinstance(result, tuple) else (result,)
        backward_hooks = [*_global_backward_hooks.values(), *self._backward_hooks.values()]
        backward_pre_hooks = [*_global_backward_pre_hooks.values(), *self._backward_pre_hooks.values()]
        bw_hook = None
        if backward_hooks or backward_pre_hooks:
            bw_hook = BackwardHook(self, backward_hooks, backward_pre_hooks)
            args = bw_hook.setup_input_hook(args)
        forward_hooks = [*_global_forward_hooks.items(), *self._forward_hooks.items()]
        try:
            result = self.forward(*args, **kwargs)
        except Exception:
            for hook_id, hook in forward_hooks:
                if hook_id in self._forward_hooks_always_called or hook_id in _global_forward_hooks_always_called:
                    try:
                        self._run_forward_hook(hook_id, hook, args, kwargs, None)
                    except Exception:
                        pass  # the forward's own error is the one to report
            raise
        for hook_id, hook in forward_hooks:
            out = self._run_forward_hook(hook_id, hook, args, kwargs, result)
            if out is not None:
                result = out
        if bw_hook is not None:
            result = bw_hook.setup_output_hook(result)
        return result

    _call_impl = __call__
    _wrapped_call_impl = __call__

    def _get_name(self):
        return type(self).__name__

    def compile(self, *args, **kwargs):
        """torch.compile of this module's call, as PyTorch's Module.compile (here torch.compile refuses)."""
        object.__setattr__(self, "_compiled_call_impl", torch.compile(self._call_impl, *args, **kwargs))

    def _run_forward_hook(self, hook_id, hook, args, kwargs, result):
        if hook_id in self._forward_hooks_with_kwargs or hook_id in _global_forward_hooks_with_kwargs:
            return hook(self, args, kwargs, result)
        return hook(self, args, result)

    # ---- hooks (each returns a RemovableHandle) ----
    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """hook(module, args) -> None or new args; with_kwargs: hook(module, args, kwargs) -> None or (args, kwargs)."""
        handle = _add(self._forward_pre_hooks, hook, prepend, extra=self._forward_pre_hooks_with_kwargs)
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True
        return handle

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        """hook(module, args, output) -> None or a new output (with_kwargs: hook(module, args, kwargs, output));
        always_call: also when forward raises."""
        handle = _add(self._forward_hooks, hook, prepend,
                      extra=[self._forward_hooks_with_kwargs, self._forward_hooks_always_called])
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        return handle

    def _check_backward_hook_kind(self, full):
        if self._is_full_backward_hook is not None and self._is_full_backward_hook != full:
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks on a single Module. "
                               "Please use only one of them.")
        object.__setattr__(self, "_is_full_backward_hook", full)

    def register_full_backward_pre_hook(self, hook, prepend=False):
        """hook(module, grad_output) -> None or a new grad_output, when the module's output gradients are ready."""
        return _add(self._backward_pre_hooks, hook, prepend)

    def register_full_backward_hook(self, hook, prepend=False):
        """hook(module, grad_input, grad_output) -> None or a new grad_input, once the gradients with respect
        to the module's inputs are computed."""
        self._check_backward_hook_kind(True)
        return _add(self._backward_hooks, hook, prepend)

    def register_backward_hook(self, hook):
        """Deprecated in PyTorch for register_full_backward_hook; here it is the same hook (PyTorch's old form
        saw the last op's gradients instead of the module's)."""
        self._check_backward_hook_kind(False)
        return _add(self._backward_hooks, hook)

    def register_state_dict_pre_hook(self, hook):
        """hook(module, prefix, keep_vars) before state_dict() collects this module."""
        return _add(self._state_dict_pre_hooks, hook)

    def register_state_dict_post_hook(self, hook):
        """hook(module, state_dict, prefix, local_metadata) -> None after state_dict() collects this module;
        it may change state_dict in place."""
        return _add(self._state_dict_hooks, functools.partial(_no_result, hook))

    def _register_state_dict_hook(self, hook):
        """The older form: hook(module, state_dict, prefix, local_metadata) may return a new state_dict."""
        return _add(self._state_dict_hooks, hook)

    def register_load_state_dict_pre_hook(self, hook):
        """hook(module, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
        before load_state_dict() loads this module."""
        return _add(self._load_state_dict_pre_hooks, hook)

    def _register_load_state_dict_pre_hook(self, hook, with_module=False):
        """The older form: hook(state_dict, prefix, ...) unless with_module."""
        return _add(self._load_state_dict_pre_hooks, hook if with_module else _WithoutModule(hook))

    def register_load_state_dict_post_hook(self, hook):
        """hook(module, incompatible_keys) after load_state_dict(); it may edit the key lists in place."""
        return _add(self._load_state_dict_post_hooks, hook)

    # ---- traversal ----
    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        memo = set() if memo is None else memo
        if remove_duplicate:
            if id(self) in memo:
                return
            memo.add(id(self))
        yield prefix, self
        for name, module in self._modules.items():
            if module is not None:
                yield from module.named_modules(memo, prefix + ("." if prefix else "") + name, remove_duplicate)

    def get_submodule(self, target):
        module = self
        for part in target.split(".") if target else []:
            if part not in module._modules:
                raise AttributeError(f"{type(module).__name__} has no attribute `{part}`")
            module = module._modules[part]
        return module

    def set_submodule(self, target, module, strict=False):
        """Replaces (or, unless strict, adds) the submodule at a dotted path."""
        if not target:
            raise ValueError("Cannot set the submodule without a target name!")
        if not isinstance(module, Module):
            raise ValueError(f"`module` is not an nn.Module, found {type(module)}")
        *path, name = target.split(".")
        parent = self.get_submodule(".".join(path))
        if strict and name not in parent._modules:
            raise AttributeError(f"{parent._get_name()} has no attribute `{name}`")
        if name in parent._modules or not hasattr(parent, name):
            parent.add_module(name, module)
        else:
            raise AttributeError(f"`{name}` is not an nn.Module")

    def _member_at(self, target, store, what):
        module_path, _, name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if not hasattr(module, name):
            raise AttributeError(f"{module._get_name()} has no attribute `{name}`")
        if name not in getattr(module, store):
            raise AttributeError(f"`{name}` is not {what}")
        return getattr(module, store)[name]

    def get_parameter(self, target):
        return self._member_at(target, "_parameters", "an nn.Parameter")

    def get_buffer(self, target):
        return self._member_at(target, "_buffers", "a buffer")

    def get_extra_state(self):
        """Extra state to put in state_dict as "_extra_state": override it and set_extra_state together."""
        raise RuntimeError("Reached a code path in Module.get_extra_state() that should never be called. Please file "
                           "an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml to report "
                           "this bug.")

    def set_extra_state(self, state):
        raise RuntimeError("Reached a code path in Module.set_extra_state() that should never be called. Please file "
                           "an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml to report "
                           "this bug.")

    def _has_extra_state(self):
        return type(self).get_extra_state is not Module.get_extra_state

    def modules(self):
        for _, m in self.named_modules():
            yield m

    def named_children(self):
        for name, m in self._modules.items():
            if m is not None:
                yield name, m

    def children(self):
        for _, m in self.named_children():
            yield m

    def _named_members(self, store, prefix, recurse):
        seen = set()
        modules = self.named_modules(prefix=prefix) if recurse else [(prefix, self)]
        for mod_prefix, module in modules:
            for name, value in getattr(module, store).items():
                if value is None or id(value) in seen:
                    continue
                seen.add(id(value))
                yield mod_prefix + ("." if mod_prefix else "") + name, value

    def named_parameters(self, prefix="", recurse=True):
        yield from self._named_members("_parameters", prefix, recurse)

    def parameters(self, recurse=True):
        for _, p in self.named_parameters(recurse=recurse):
            yield p

    def named_buffers(self, prefix="", recurse=True):
        yield from self._named_members("_buffers", prefix, recurse)

    def buffers(self, recurse=True):
        for _, b in self.named_buffers(recurse=recurse):
            yield b

    # ---- state ----
    def _save_to_state_dict(self, destination, prefix, keep_vars):
        """This module's own parameters and persistent buffers (not its submodules')."""
        for name, p in self._parameters.items():
            if p is not None:
                destination[prefix + name] = p if keep_vars else p.detach()
        for name, b in self._buffers.items():
            if b is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = b if keep_vars else b.detach()
        if self._has_extra_state():
            destination[prefix + "_extra_state"] = self.get_extra_state()

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        if args:  # the old positional form: state_dict(destination, prefix, keep_vars)
            destination = args[0]
            prefix = args[1] if len(args) > 1 else prefix
            keep_vars = args[2] if len(args) > 2 else keep_vars
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = {"version": self._version}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in self._state_dict_pre_hooks.values():
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, m in self._modules.items():
            if m is not None:
                m.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        for hook in self._state_dict_hooks.values():
            result = hook(self, destination, prefix, local_metadata)
            if result is not None:
                destination = result
        return destination

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        """Copies this module's own entries out of state_dict, noting what is missing, unexpected or wrong."""
        for hook in self._load_state_dict_pre_hooks.values():
            hook(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
        persistent = {k: v for k, v in self._buffers.items() if k not in self._non_persistent_buffers_set}
        local_state = {k: v for k, v in (*self._parameters.items(), *persistent.items()) if v is not None}
        for name, target in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            value = state_dict[key]
            if not isinstance(value, torch.Tensor):
                error_msgs.append(f'While copying the parameter named "{key}", expected torch.Tensor or Tensor-like '
                                  f"object from checkpoint but received {type(value)}")
                continue
            if tuple(value.shape) != tuple(target.shape):
                error_msgs.append(f"size mismatch for {key}: copying a param with shape {value.shape} from "
                                  f"checkpoint, the shape in current model is {target.shape}.")
                continue
            try:
                if getattr(self, "_assign_on_load", False):
                    if name in self._parameters:
                        self._parameters[name] = Parameter(value, requires_grad=target.requires_grad)
                    else:
                        self._buffers[name] = value
                    continue
                with torch.no_grad():
                    target.copy_(value)
            except Exception as ex:
                error_msgs.append(f'While copying the parameter named "{key}", whose dimensions in the model are '
                                  f"{target.size()} and whose dimensions in the checkpoint are {value.size()}, "
                                  f"an exception occurred : {ex.args}.")
        extra_key = prefix + "_extra_state"
        if self._has_extra_state():
            if extra_key in state_dict:
                self.set_extra_state(state_dict[extra_key])
            elif strict:
                missing_keys.append(extra_key)
        elif strict and extra_key in state_dict:
            unexpected_keys.append(extra_key)
        if strict:
            for key in state_dict:
                if key.startswith(prefix) and key != extra_key:
                    first = key[len(prefix):].split(".", 1)[0]
                    if first not in self._modules and first not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict=True, assign=False):
        if not hasattr(state_dict, "keys") or not hasattr(state_dict, "__getitem__"):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing_keys, unexpected_keys, error_msgs = [], [], []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)
        if metadata is not None:
            state_dict._metadata = metadata

        def load(module, prefix=""):
            local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
            if assign:  # the checkpoint's tensors become the module's, instead of being copied into them
                local_metadata = {**local_metadata, "assign_to_params_buffers": True}
            object.__setattr__(module, "_assign_on_load", assign)
            module._load_from_state_dict(state_dict, prefix, local_metadata, True, missing_keys, unexpected_keys,
                                         error_msgs)
            for name, child in module._modules.items():
                if child is not None:
                    load(child, prefix + name + ".")
            incompatible = _IncompatibleKeys(missing_keys, unexpected_keys)
            for hook in module._load_state_dict_post_hooks.values():
                if hook(module, incompatible) is not None:
                    raise RuntimeError("load_state_dict post hook must return None")

        try:
            load(self)
        finally:
            for m in self.modules():
                m.__dict__.pop("_assign_on_load", None)
        if strict:
            if unexpected_keys:
                error_msgs.insert(0, "Unexpected key(s) in state_dict: " +
                                  ", ".join(f'"{k}"' for k in unexpected_keys) + ". ")
            if missing_keys:
                error_msgs.insert(0, "Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing_keys) + ". ")
        if error_msgs:
            raise RuntimeError(f"Error(s) in loading state_dict for {type(self).__name__}:\n\t" + "\n\t".join(error_msgs))
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    # ---- modes and conversions ----
    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for m in self.modules():
            object.__setattr__(m, "training", mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        for p in self.parameters():
            if p.grad is None:
                continue
            if set_to_none:
                p.grad = None
            else:
                p.grad = torch.zeros_like(p.grad)

    def apply(self, fn):
        for m in self.children():
            m.apply(fn)
        fn(self)
        return self

    def to(self, *args, **kwargs):
        """Moves parameters and buffers to a device and/or converts the floating
        point ones to a dtype: to(device), to(dtype), to(device, dtype); with
        memory_format=, lays out the 4-D and 5-D ones in it."""
        device, dtype = kwargs.pop("device", None), kwargs.pop("dtype", None)
        fmt = kwargs.pop("memory_format", None)
        if fmt is not None and not isinstance(fmt, torch.memory_format):
            raise TypeError(f"to() argument 'memory_format' must be torch.memory_format, not {type(fmt).__name__}")
        if kwargs:
            raise TypeError(f"to() got unexpected keyword arguments {sorted(kwargs)}")
        for a in args:
            if isinstance(a, torch.dtype):
                dtype = a
            elif isinstance(a, (str, torch.device, int)) and not isinstance(a, bool):
                device = torch.device("cuda", a) if isinstance(a, int) else torch.device(a)
            else:
                raise TypeError(f"to() expects a device and/or a dtype, got {type(a).__name__}")
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError(f"nn.Module.to only accepts floating point dtypes, but got desired dtype={dtype}")

        if device is not None:
            device = torch.device(device)
            if device.type == "cuda" and device.index is None:
                device = torch.device("cuda", torch.cuda.current_device())

        def target(t):
            return (device if device is not None else t.device,
                    dtype if dtype is not None and t.is_floating_point() else t.dtype)

        def laid_out(t):  # as PyTorch: memory_format= touches only 4-D and 5-D tensors
            return fmt is None or t.dim() not in (4, 5) or t.is_contiguous(memory_format=fmt)

        def convert(t):
            t = t.to(*target(t))
            return t if laid_out(t) else t.contiguous(memory_format=fmt)

        # Tensors already in place stay the same objects (an optimizer holding
        # them keeps working); the others are replaced by converted copies, one
        # per parameter, so a parameter shared by two modules stays shared.
        converted = {}
        for m in self.modules():
            for name, p in m._parameters.items():
                if p is not None and (target(p) != (p.device, p.dtype) or not laid_out(p)):
                    if id(p) not in converted:
                        converted[id(p)] = Parameter(convert(p.detach()), p.requires_grad)
                    m._parameters[name] = converted[id(p)]
            for name, b in m._buffers.items():
                if b is not None and (target(b) != (b.device, b.dtype) or not laid_out(b)):
                    m._buffers[name] = convert(b)
        return self

    def _apply(self, fn, recurse=True):
        """fn applied to every parameter (and its .grad) and buffer, submodules first. A parameter whose
        result keeps its dtype and device keeps its object (param.data = result); otherwise it is replaced by
        a new Parameter, as Module.to does here."""
        if recurse:
            for module in self.children():
                module._apply(fn)
        for name, p in self._parameters.items():
            if p is None:
                continue
            with torch.no_grad():
                applied = fn(p)
            if applied.dtype == p.dtype and applied.device == p.device:
                p.data = applied
                new = p
            else:
                new = Parameter(applied.detach(), p.requires_grad)
                self._parameters[name] = new
            if p.grad is not None:
                with torch.no_grad():
                    grad = fn(p.grad)
                new.grad = grad if grad.dtype == new.dtype and grad.device == new.device else None
        for name, b in self._buffers.items():
            if b is not None:
                self._buffers[name] = fn(b)
        return self

    def share_memory(self):
        return self._apply(lambda t: t.share_memory_())

    def to_empty(self, *, device, recurse=True):
        """Parameters and buffers become uninitialised tensors of the same shape on `device`."""
        return self._apply(lambda t: torch.empty_like(t, device=device), recurse=recurse)

    def type(self, dst_type):
        return self._apply(lambda t: t.type(dst_type))

    def cuda(self, device=None):
        return self.to(torch.device("cuda") if device is None else device)

    def cpu(self):
        return self.to("cpu")

    def float(self):
        return self.to(torch.float32)

    def double(self):
        return self.to(torch.float64)

    def half(self):
        return self.to(torch.float16)

    def bfloat16(self):
        return self.to(torch.bfloat16)

    # ---- printing ----
    def extra_repr(self):
        return ""

    def __repr__(self):
        lines = []
        extra = self.extra_repr()
        if extra:
            lines = extra.split("\n")
        for name, m in self._modules.items():
            mod = repr(m).replace("\n", "\n  ")
            lines.append(f"({name}): {mod}")
        main = type(self).__name__ + "("
        if lines:
            if len(lines) == 1 and not self._modules:
                main += lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"

    def __dir__(self):
        return sorted(set(object.__dir__(self)) | set(self._parameters) | set(self._modules) | set(self._buffers))


def _no_result(hook, module, state_dict, prefix, local_metadata):
    if hook(module, state_dict, prefix, local_metadata) is not None:
        raise RuntimeError("state_dict post-hook must return None")


class _WithoutModule:
    """A load_state_dict pre-hook of the older form, which is not given the module."""

    def __init__(self, hook):
        self.hook = hook

    def __call__(self, module, *args):
        return self.hook(*args)


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What load_state_dict returns; unpacks as (missing_keys, unexpected_keys)."""

    __slots__ = ()

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self.missing_keys}, unexpected_keys={self.unexpected_keys})"
