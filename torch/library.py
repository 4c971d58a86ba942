"""torch.library: defining operators from Python, and the Python parts of
operators defined in C++ (PyTorch's interface).

    lib = torch.library.Library("mylib", "FRAGMENT")
    lib.define("scale(Tensor x, float s) -> Tensor")
    lib.impl("scale", lambda x, s: x * s, "CPU")

    @torch.library.custom_op("mylib::numpy_sin", mutates_args=())
    def numpy_sin(x: torch.Tensor) -> torch.Tensor: ...

    @torch.library.register_fake("mylib::numpy_sin")
    def _(x): return torch.empty_like(x)

    torch.library.register_autograd("mylib::numpy_sin", backward, setup_context=setup_context)
    torch.library.opcheck(torch.ops.mylib.numpy_sin.default, (x,))

Operators live in the C++ registry (ATen/core/dispatcher.h), whoever defines
them: a kernel written in Python is registered there like a C++ one, so C++
callers reach it too. What differs from PyTorch, where this build has no
counterpart:
- No fake tensors or meta device: a fake kernel (register_fake) is recorded,
  and opcheck runs it on the real inputs and compares what it describes
  (shape, dtype, device) with what the real kernel returns.
- An autograd registration (register_autograd) applies to calls through
  torch.ops and custom ops from Python; a C++ caller of the operator gets
  the kernel without it.
- Registrations last for the process: a Library going away does not remove them.
- torch.compile's hooks (register_torch_dispatch, register_vmap,
  register_autocast, triton_op, wrap_triton, get_ctx) raise, naming the feature.
"""
from __future__ import annotations

import importlib
import inspect
import os
import traceback
import typing
from typing import Callable, Sequence

import torch
from torch import _C
from torch._ops import OpOverload, OpOverloadPacket
from torch._ops import _autograd_function, _autograd_functions, _autograd_kernels, _call, _flat_tensors, _split  # noqa: F401
from torch._ops import __file__ as _ops_file
from torch._unsupported import unsupported as _unsupported

__all__ = [
    "Library", "define", "impl", "register_kernel", "register_fake", "impl_abstract", "register_autograd",
    "custom_op", "CustomOpDef", "infer_schema", "opcheck", "fallthrough_kernel", "get_kernel", "OpOverload",
    "register_torch_dispatch", "register_vmap", "register_autocast", "triton_op", "wrap_triton", "get_ctx",
    "EffectType",
]

# full operator name ("ns::name" or "ns::name.overload") -> its Python registrations
_fake_kernels: dict[str, Callable] = {}
_custom_ops: dict[str, "CustomOpDef"] = {}

_DEVICE_KEYS = {"cpu": "CPU", "cuda": "CUDA", "CPU": "CPU", "CUDA": "CUDA"}


def _where() -> str:
    """Where the registering Python code is, for the registry's messages."""
    ours = {os.path.abspath(__file__), os.path.abspath(_ops_file)}
    for frame in reversed(traceback.extract_stack()[:-2]):
        if os.path.abspath(frame.filename) not in ours:
            return f"{frame.filename}:{frame.lineno}"
    return "<python>"


def _full_name(op) -> str:
    """The registry's name of an operator given as "ns::name[.overload]", an
    OpOverload, an OpOverloadPacket (its unnamed overload) or a CustomOpDef."""
    if isinstance(op, OpOverload):
        return op._name
    if isinstance(op, OpOverloadPacket):
        return op._qualified_op_name
    if isinstance(op, CustomOpDef):
        return op._qualname
    if isinstance(op, str):
        if "::" not in op:
            raise ValueError(f"expected an operator name 'namespace::name', got {op!r}")
        name = op[:-len(".default")] if op.endswith(".default") else op
        if _C._ops_schema(name) is None:
            raise RuntimeError(f"operator {op} does not exist (define it first, or load the library that does)")
        return name
    raise TypeError(f"expected an operator (a 'ns::name' string, an OpOverload or a custom op), got {type(op).__name__}")


def _overload(full_name: str) -> OpOverload:
    qualified, _, overload = full_name.partition(".")
    ns, name = qualified.split("::", 1)
    return getattr(getattr(getattr(torch.ops, ns), name), overload or "default")


# ---------------------------------------------------------------- calls


def _call_bound(op: OpOverload, bound):
    args, kwargs = _split(op._name, bound)
    return op(*args, **kwargs)


def _python_kernel(full: str, fn: Callable) -> Callable:
    """What the registry calls with every argument in schema order: fn with
    the keyword-only ones by name, as its signature (and the schema) has them."""
    def kernel(*bound):
        args, kwargs = _split(full, bound)
        return fn(*args, **kwargs)

    return kernel


# ---------------------------------------------------------------- Library


class Library:
    """Library(ns, kind): "DEF" claims the namespace (as TORCH_LIBRARY),
    "FRAGMENT" adds definitions to it, "IMPL" only registers kernels."""

    def __init__(self, ns: str, kind: str, dispatch_key: str = ""):
        if kind not in ("DEF", "FRAGMENT", "IMPL"):
            raise ValueError(f"Library: kind must be DEF, FRAGMENT or IMPL, not {kind!r}")
        if ns == "aten":
            raise ValueError("Library: torch's own operators (aten) are not extended from Python here; "
                             "define operators in a namespace of your own")
        self.ns, self.kind, self.dispatch_key = ns, kind, dispatch_key
        self._op_defs: set[str] = set()
        if kind == "DEF":
            _C._ops_claim_namespace(ns, _where())

    def __repr__(self) -> str:
        return f"Library(kind={self.kind}, ns={self.ns}, dispatch_key={self.dispatch_key})"

    def define(self, schema: str, alias_analysis: str = "", *, tags=()) -> str:
        """Defines an operator from its schema, "name(Tensor x) -> Tensor"; returns its name."""
        if self.kind == "IMPL":
            raise RuntimeError(f"Library({self.ns!r}, 'IMPL') only implements operators; define them in a "
                               "'DEF' or 'FRAGMENT' library")
        full = _C._ops_define(self.ns, schema, _where())
        self._op_defs.add(full)
        return full.split("::", 1)[1]

    def impl(self, op_name, fn: Callable, dispatch_key: str = "", *, with_keyset: bool = False,
             allow_override: bool = False) -> None:
        """Registers a Python kernel: dispatch_key "CPU" or "CUDA" for one
        device; "" or "CompositeExplicitAutograd" for both (a kernel autograd does
        not see through); "CompositeImplicitAutograd" for one made of torch
        operations, which autograd differentiates through; "Meta" records a fake kernel."""
        if with_keyset:
            raise NotImplementedError("Library.impl(with_keyset=True): dispatch key sets are not exposed by this torch")
        if isinstance(op_name, str) and "::" not in op_name:
            op_name = f"{self.ns}::{op_name}"
        full = _full_name(op_name)
        key = dispatch_key or self.dispatch_key
        if fn is fallthrough_kernel:
            return
        if key == "Meta":
            _fake_kernels[full] = fn
            return
        if key.startswith("Autograd"):
            raise NotImplementedError(f"Library.impl({full!r}, ..., {key!r}): register the backward with "
                                      "torch.library.register_autograd")
        keys = {"": ["CPU", "CUDA"], "CompositeExplicitAutograd": ["CPU", "CUDA"],
                "CompositeImplicitAutograd": ["CompositeImplicitAutograd"]}.get(key) or [_DEVICE_KEYS.get(key, key)]
        for k in keys:
            _C._ops_impl_python(full, k, _python_kernel(full, fn), _where())

    def fallback(self, fn, dispatch_key: str = "", *, with_keyset: bool = False):
        raise NotImplementedError("Library.fallback: boxed fallbacks are not supported by this torch")

    def _destroy(self) -> None:
        """PyTorch removes a Library's registrations here; this registry keeps them for the process."""


def fallthrough_kernel():
    """A dummy kernel: registering it for a key (Library.impl) does nothing."""
    raise NotImplementedError("fallthrough_kernel() should never be called")


def define(qualname: str, schema: str, *, lib: Library | None = None, tags=()) -> None:
    """torch.library.define("mylib::op", "(Tensor x) -> Tensor")."""
    ns, name = qualname.split("::", 1)
    (lib or Library(ns, "FRAGMENT")).define(name + schema, tags=tags)


def impl(qualname, types, func: Callable | None = None, *, lib: Library | None = None):
    """Registers func for device types ("cpu", "cuda", or a list), or a
    dispatch key ("CompositeImplicitAutograd"); a decorator without func."""
    def register(fn):
        full = _full_name(qualname)
        ns = full.split("::", 1)[0]
        keys = [types] if isinstance(types, str) else list(types)
        for key in keys:
            if full in _custom_ops and key in ("cpu", "cuda"):
                _custom_ops[full]._kernels[key] = fn
            else:
                (lib or Library(ns, "FRAGMENT")).impl(full, fn, _DEVICE_KEYS.get(key, key))
        return fn

    return register if func is None else register(func)


def register_kernel(op, device_types, func: Callable | None = None, /, *, lib: Library | None = None):
    """A kernel for device types ("cpu", "cuda") of an operator; for a custom
    op it replaces the function's own body on those devices."""
    types = [device_types] if isinstance(device_types, str) or device_types is None else list(device_types)
    types = ["cpu", "cuda"] if types == [None] else types
    return impl(op, types, func, lib=lib)


def register_fake(op, func: Callable | None = None, /, *, lib: Library | None = None, _stacklevel: int = 1,
                  allow_override: bool = False):
    """Records the fake kernel of an operator: a function of the same
    arguments returning tensors of the output's shape, dtype and device
    (torch.empty_like(x)). opcheck compares it with the real kernel."""
    def register(fn):
        _fake_kernels[_full_name(op)] = fn
        return fn

    return register if func is None else register(func)


impl_abstract = register_fake  # its name before PyTorch 2.4


def register_autograd(op, backward: Callable, /, *, setup_context: Callable | None = None,
                      lib: Library | None = None) -> None:
    """The backward of an operator: backward(ctx, *grads) returns one
    gradient per input (None for non-tensors); setup_context(ctx, inputs,
    output) saves what it needs (ctx.save_for_backward)."""
    full = _full_name(op)
    if _C._ops_keys(full) == ["CompositeImplicitAutograd"]:
        raise RuntimeError(f"register_autograd({full}): the operator's kernel is CompositeImplicitAutograd, "
                           "which autograd already differentiates through")
    _autograd_kernels[full] = (backward, setup_context)
    _autograd_functions.pop(full, None)


def get_kernel(op, dispatch_key):
    raise NotImplementedError("torch.library.get_kernel: kernels are not exposed as objects by this torch")


# ---------------------------------------------------------------- custom_op and schemas


def _schema_type(annotation, where: str) -> str:
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if annotation is torch.Tensor:
        return "Tensor"
    simple = {int: "int", float: "float", bool: "bool", str: "str"}
    if annotation in simple:
        return simple[annotation]
    if origin is typing.Union and type(None) in args:
        inner = [a for a in args if a is not type(None)]
        if len(inner) == 1:
            return _schema_type(inner[0], where) + "?"
        if set(inner) <= {int, float, bool}:
            return "Scalar?"
    if origin is typing.Union and set(args) <= {int, float, bool}:
        return "Scalar"
    if origin in (list, tuple, Sequence, typing.List, typing.Sequence) or (
            origin is not None and getattr(origin, "__name__", "") in ("Sequence", "list")):
        if len(args) == 1 or (origin is tuple and len(args) == 2 and args[1] is Ellipsis):
            item = _schema_type(args[0], where)
            if item in ("Tensor", "int", "float", "Tensor?"):
                return item + "[]"
    raise ValueError(f"infer_schema: {where}: the type {annotation!r} has no schema type here (supported: Tensor, "
                     "int, float, bool, str, their Optional forms, Sequence[Tensor], Sequence[int], Sequence[float])")


def _default_text(value) -> str:
    if value is None or isinstance(value, (bool, int, float)):
        return repr(value)
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, (list, tuple)) and all(isinstance(v, (int, float)) for v in value):
        return "[" + ", ".join(repr(v) for v in value) + "]"
    raise ValueError(f"infer_schema: the default {value!r} cannot be written in a schema")


def infer_schema(prototype_function: Callable, /, *, mutates_args, op_name: str | None = None) -> str:
    """The schema of a Python function from its type annotations:
    "(Tensor x, float s=1.0) -> Tensor" (with op_name, "op_name(...) -> ...").
    mutates_args names the Tensor arguments it writes ("unknown": all of them)."""
    signature = inspect.signature(prototype_function)
    hints = typing.get_type_hints(prototype_function)
    if mutates_args != "unknown":
        if isinstance(mutates_args, str):
            raise ValueError("mutates_args must be a tuple of argument names, or 'unknown'")
        unknown = set(mutates_args) - set(signature.parameters)
        if unknown:
            raise ValueError(f"infer_schema: mutates_args names {sorted(unknown)}, which are not arguments of "
                             f"{prototype_function.__name__}")
    params, letters, kw_started = [], iter("abcdefghijklmnopqrstuvwxyz"), False
    for name, p in signature.parameters.items():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise ValueError(f"infer_schema: {prototype_function.__name__} takes *args or **kwargs, which a schema "
                             "cannot describe")
        if name not in hints:
            raise ValueError(f"infer_schema: the argument '{name}' of {prototype_function.__name__} has no type "
                             "annotation")
        t = _schema_type(hints[name], f"argument '{name}'")
        if (mutates_args == "unknown" or name in mutates_args) and t.startswith("Tensor"):
            t = t.replace("Tensor", f"Tensor({next(letters)}!)", 1)
        elif mutates_args != "unknown" and name in mutates_args:
            raise ValueError(f"infer_schema: '{name}' is in mutates_args but is not a Tensor")
        if p.kind == p.KEYWORD_ONLY and not kw_started:
            params.append("*")
            kw_started = True
        params.append(f"{t} {name}" + ("" if p.default is p.empty else f"={_default_text(p.default)}"))
    ret = hints.get("return", inspect.Signature.empty)
    if ret is None or ret is type(None):
        returns = "()"
    elif ret is inspect.Signature.empty:
        raise ValueError(f"infer_schema: {prototype_function.__name__} has no return annotation")
    elif typing.get_origin(ret) is tuple:
        returns = "(" + ", ".join(_schema_type(r, "return") for r in typing.get_args(ret)) + ")"
    else:
        returns = _schema_type(ret, "return")
    return f"{op_name or ''}({', '.join(params)}) -> {returns}"


class CustomOpDef:
    """What custom_op returns: callable like the operator, with the
    registration methods of torch.library for it."""

    def __init__(self, namespace: str, name: str, schema: str, fn: Callable, device_types):
        self._namespace, self._name = namespace, name
        self._qualname = f"{namespace}::{name}"
        self._init_fn = fn
        self._kernels: dict[str, Callable] = {}
        types = ["cpu", "cuda"] if device_types is None else (
            [device_types] if isinstance(device_types, str) else list(device_types))
        self._lib = Library(namespace, "FRAGMENT")
        self._lib.define(name + schema)
        for device in ("cpu", "cuda"):
            if device in types:
                self._kernels[device] = fn
            self._lib.impl(name, self._trampoline(device), _DEVICE_KEYS[device])
        _custom_ops[self._qualname] = self
        self.__name__ = name
        self.__doc__ = fn.__doc__

    def _trampoline(self, device: str) -> Callable:
        def kernel(*args, **kwargs):
            fn = self._kernels.get(device)
            if fn is None:
                raise NotImplementedError(f"{self._qualname} has no kernel for {device} (register one with "
                                          f"{self._name}.register_kernel('{device}'))")
            return fn(*args, **kwargs)

        return kernel

    @property
    def _opoverload(self) -> OpOverload:
        return _overload(self._qualname)

    def __call__(self, *args, **kwargs):
        return self._opoverload(*args, **kwargs)

    def register_kernel(self, device_types, fn: Callable | None = None):
        return register_kernel(self._qualname, device_types, fn)

    def register_fake(self, fn: Callable):
        return register_fake(self._qualname, fn)

    def register_autograd(self, backward: Callable, /, *, setup_context: Callable | None = None) -> None:
        register_autograd(self._qualname, backward, setup_context=setup_context)

    def set_kernel_enabled(self, device_type: str, enabled: bool = True):
        raise NotImplementedError("CustomOpDef.set_kernel_enabled is not supported by this torch")

    def __repr__(self) -> str:
        return f"<CustomOpDef({self._qualname})>"


def custom_op(name: str, fn: Callable | None = None, /, *, mutates_args, device_types=None,
              schema: str | None = None, tags=None):
    """Makes a Python function an operator, "ns::name", with its schema
    inferred from the annotations (or given): callable as the function and
    as torch.ops.ns.name, opaque to autograd until register_autograd."""
    if "::" not in name:
        raise ValueError(f"custom_op: the name must be 'namespace::name', got {name!r}")
    namespace, op_name = name.split("::", 1)

    def inner(function):
        op_schema = schema or infer_schema(function, mutates_args=mutates_args)
        return CustomOpDef(namespace, op_name, op_schema, function, device_types)

    return inner if fn is None else inner(fn)


# ---------------------------------------------------------------- opcheck

DEFAULT_TEST_UTILS = ("test_schema", "test_autograd_registration", "test_faketensor", "test_aot_dispatch_dynamic")


class OpCheckError(Exception):
    pass


def _clone(value):
    if isinstance(value, torch.Tensor):
        return value.detach().clone().requires_grad_(value.requires_grad)
    if isinstance(value, (list, tuple)):
        return type(value)(_clone(v) for v in value)
    return value


def _outputs(result) -> list:
    return [r for r in (result if isinstance(result, (tuple, list)) else (result,)) if isinstance(r, torch.Tensor)]


def _check_schema(op: OpOverload, args, kwargs) -> None:
    """What the kernel writes matches the schema's Tensor(a!) annotations, and
    a result aliases an input only where the schema says so."""
    schema = op._schema
    bound = schema.bind(args, kwargs)
    before = [_clone(v) for v in bound]
    with torch.no_grad():
        result = _call_bound(op, bound)
    for arg, old, new in zip(schema.arguments, before, bound):
        olds, news = _flat_tensors([old]), _flat_tensors([new])
        for o, n in zip(olds, news):
            changed = o.shape != n.shape or not torch.equal(torch.nan_to_num(o), torch.nan_to_num(n))
            if changed and not arg.is_write:
                raise OpCheckError(f"{op._name}: the kernel wrote to the argument '{arg.name}', which the schema "
                                   f"does not declare as written (Tensor(a!) {arg.name}): {schema}")
    inputs = {t.data_ptr() for t in _flat_tensors(bound) if t.numel() > 0}
    aliased_returns = "(a" in str(schema).split("->", 1)[1]
    for out in _outputs(result):
        if out.numel() > 0 and out.data_ptr() in inputs and not aliased_returns:
            raise OpCheckError(f"{op._name}: a result shares memory with an input, which the schema does not "
                               f"declare (-> Tensor(a)): {schema}")


def _check_autograd_registration(op: OpOverload, args, kwargs) -> None:
    """PyTorch's test_autograd_registration: with inputs that require grad, an
    operator without an autograd registration must give no result that
    requires grad through anything but the not-implemented fallback (such a
    gradient would come from autograd recording inside a device kernel,
    which the registration would silently bypass)."""
    bound = [_clone(v) for v in op._schema.bind(args, kwargs)]
    inputs = _flat_tensors(bound)
    if not any(t.requires_grad for t in inputs):
        return
    if op._name in _autograd_kernels or _C._ops_keys(op._name) == ["CompositeImplicitAutograd"]:
        return
    input_ids = {id(t) for t in inputs}
    for out in _outputs(_call_bound(op, bound)):
        fallback = out.grad_fn is not None and out.grad_fn.name() == "torch::autograd::NotImplemented"
        if out.requires_grad and id(out) not in input_ids and not fallback:
            raise OpCheckError(f"{op._name}: an output requires grad, but the operator has no autograd "
                               "registration: its gradient would come from autograd inside a device kernel. "
                               "Register the backward with torch.library.register_autograd, or give the "
                               "operator a CompositeImplicitAutograd kernel made of torch operations")


def _check_fake(op: OpOverload, args, kwargs) -> None:
    """The fake kernel, run on the inputs, describes the real result: its
    tensors' shapes, dtypes and devices. An operator with device kernels
    needs one, unless it returns nothing."""
    fake = _fake_kernels.get(op._name)
    module = _C._ops_python_module(op.namespace)
    if fake is None and module is not None:  # m.set_python_module("pkg.ops"): its import registers them
        importlib.import_module(module)
        fake = _fake_kernels.get(op._name)
    if fake is None and not op._schema.returns_nothing:
        if _C._ops_keys(op._name) == ["CompositeImplicitAutograd"]:
            return
        raise OpCheckError(f"{op._name}: no fake kernel is registered (torch.library.register_fake); "
                           "operators with device kernels need one to be traced")
    bound = op._schema.bind(args, kwargs)
    with torch.no_grad():
        real = _call_bound(op, [_clone(v) for v in bound])
        # An operator that returns nothing has a fake kernel without writing
        # one (PyTorch generates it): it returns nothing.
        described = _python_kernel(op._name, fake)(*[_clone(v) for v in bound]) if fake is not None else None
    real_outs, fake_outs = _outputs(real), _outputs(described)
    if len(real_outs) != len(fake_outs):
        raise OpCheckError(f"{op._name}: the fake kernel returns {len(fake_outs)} tensors, the kernel "
                           f"{len(real_outs)}")
    for i, (r, f) in enumerate(zip(real_outs, fake_outs)):
        for what in ("shape", "dtype", "device"):
            if getattr(r, what) != getattr(f, what):
                raise OpCheckError(f"{op._name}: output {i}: the fake kernel gives {what} {getattr(f, what)}, "
                                   f"the kernel {getattr(r, what)}")


def _check_backward(op: OpOverload, args, kwargs) -> None:
    """This build's stand-in for test_aot_dispatch_dynamic (no torch.compile
    here): with inputs that require grad, a backward through the operator
    runs and gives each input a gradient of its own shape and dtype."""
    bound = [_clone(v) for v in op._schema.bind(args, kwargs)]
    wanted = [t for t in _flat_tensors(bound) if t.requires_grad]
    if not wanted or not torch.is_grad_enabled():
        return
    outs = [o for o in _outputs(_call_bound(op, bound)) if o.requires_grad]
    if not outs:
        return
    grads = torch.autograd.grad(outs, wanted, [torch.ones_like(o) for o in outs], allow_unused=True)
    for t, g in zip(wanted, grads):
        if g is not None and (g.shape != t.shape or g.dtype != t.dtype):
            raise OpCheckError(f"{op._name}: the backward gives a gradient of shape {tuple(g.shape)} "
                               f"({g.dtype}) for an input of shape {tuple(t.shape)} ({t.dtype})")


_CHECKS = {"test_schema": _check_schema, "test_autograd_registration": _check_autograd_registration,
           "test_faketensor": _check_fake, "test_aot_dispatch_dynamic": _check_backward}


def opcheck(op, args: tuple, kwargs: dict | None = None, *, test_utils=DEFAULT_TEST_UTILS,
            raise_exception: bool = True, atol=None, rtol=None) -> dict[str, str]:
    """Checks that an operator is registered correctly for these arguments:
    its writes match its schema (test_schema), a gradient through it has a
    registration (test_autograd_registration), its fake kernel describes its
    result (test_faketensor), and its backward runs (test_aot_dispatch_dynamic).
    Returns {test: "SUCCESS"}; a failure raises OpCheckError, or with
    raise_exception=False is reported in the dict."""
    if isinstance(op, CustomOpDef):
        op = op._opoverload
    if isinstance(op, OpOverloadPacket):
        op = getattr(op, op.overloads()[0])
    if not isinstance(op, OpOverload):
        raise ValueError(f"opcheck: expected an OpOverload (torch.ops.ns.op.default) or a custom op, got {op!r}")
    names = [test_utils] if isinstance(test_utils, str) else list(test_utils)
    unknown = [n for n in names if n not in _CHECKS]
    if unknown:
        raise ValueError(f"opcheck: unknown test_utils {unknown} (known: {', '.join(_CHECKS)})")
    results = {}
    for name in names:
        try:
            _CHECKS[name](op, tuple(args), dict(kwargs or {}))
            results[name] = "SUCCESS"
        except Exception as e:
            if raise_exception:
                if isinstance(e, OpCheckError):
                    raise
                raise OpCheckError(f"opcheck({op._name}): {name} failed with {type(e).__name__}: {e}") from e
            results[name] = e
    return results


# ---------------------------------------------------------------- out of scope

register_torch_dispatch = _unsupported("torch.library.register_torch_dispatch", "tensor subclasses' torch_dispatch")
register_vmap = _unsupported("torch.library.register_vmap", "torch.vmap")
register_autocast = _unsupported("torch.library.register_autocast", "autocast")
triton_op = _unsupported("torch.library.triton_op", "Triton kernels")
wrap_triton = _unsupported("torch.library.wrap_triton", "Triton kernels")
get_ctx = _unsupported("torch.library.get_ctx", "fake tensors (data-dependent output shapes)")


class EffectType:
    """The side-effect kinds PyTorch's tracing knows; nothing here uses them."""

    ORDERED = "Ordered"

