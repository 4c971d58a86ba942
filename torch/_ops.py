"""torch.ops: operators that C++ libraries register with TORCH_LIBRARY (and
Python code with torch.library).

    torch.ops.load_library("build/libmy_ops.so")   # runs its TORCH_LIBRARY blocks
    torch.ops.my_ops.bias_relu(x, bias)            # an overload packet: picks the overload
    torch.ops.my_ops.bias_relu.default(x, bias)    # one overload (the unnamed one)
    torch.ops.my_ops.bias_relu.out(x, bias, out=y)   # a named overload, "bias_relu.out(...)"

A library's registrations run when it is loaded; one that failed (a bad
schema, a kernel whose C++ types don't match its schema, a namespace defined
twice) is raised here as a RuntimeError rather than aborting the process.
`torch.ops.aten.<name>` gives torch's own operator functions.
"""
from __future__ import annotations

import ctypes
import importlib
import os
import re
import threading
import types
from collections.abc import Callable

import torch
from torch import _C

__all__ = ["ops", "OpOverload", "OpOverloadPacket"]


class AliasInfo:
    """The alias annotation of a schema argument: `a!` in `Tensor(a!) out`."""

    __slots__ = ("is_write", "before_set")

    def __init__(self, alias: str):
        self.is_write = alias.endswith("!")
        self.before_set = {alias.rstrip("!")}


class Argument:
    """One argument of a FunctionSchema, as torch._C.Argument reads."""

    __slots__ = ("name", "type", "_has_default", "default_value", "kwarg_only", "alias_info")

    def __init__(self, name, type_, has_default, default, kwarg_only, alias, is_write):
        self.name, self.type, self._has_default = name, type_, has_default
        self.default_value, self.kwarg_only = default, kwarg_only
        self.alias_info = AliasInfo(alias) if alias else None

    def has_default_value(self) -> bool:
        return self._has_default

    @property
    def is_write(self) -> bool:
        return self.alias_info is not None and self.alias_info.is_write

    def __repr__(self) -> str:
        return f"Argument({self.name}: {self.type})"


class FunctionSchema:
    """An operator's schema: str() is the schema text; `arguments` describe its parameters."""

    def __init__(self, full_name: str):
        self._full_name = full_name
        self._text = _C._ops_schema(full_name)
        self.arguments = [Argument(*a) for a in _C._ops_arguments(full_name)]
        qualified, _, self.overload_name = full_name.partition(".")
        self.name = qualified
        self.returns_nothing = self._text.rstrip().endswith("-> ()")

    def bind(self, args: tuple, kwargs: dict | None) -> list:
        """The arguments in schema order, defaults filled in (a TypeError as the call would raise)."""
        params = self.arguments
        positional = sum(1 for a in params if not a.kwarg_only)
        if len(args) > positional:
            raise TypeError(f"{self.name}() takes {positional} positional argument{'s' if positional != 1 else ''} "
                            f"but {len(args)} were given")
        kwargs = dict(kwargs or {})
        bound = []
        for i, a in enumerate(params):
            if i < len(args):
                if a.name in kwargs:
                    raise TypeError(f"{self.name}() got multiple values for argument '{a.name}'")
                bound.append(args[i])
            elif a.name in kwargs:
                bound.append(kwargs.pop(a.name))
            elif a.has_default_value():
                bound.append(a.default_value)
            else:
                raise TypeError(f"{self.name}() missing required argument '{a.name}' ({self})")
        if kwargs:
            raise TypeError(f"{self.name}() got an unexpected keyword argument '{next(iter(kwargs))}'")
        return bound

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return self._text


class OpOverload:
    """One overload of an operator: `torch.ops.ns.op.default`, `torch.ops.ns.op.out`."""

    def __init__(self, packet: "OpOverloadPacket", overload: str):
        self.overloadpacket = packet
        self._overloadname = overload or "default"
        self._name = packet._qualified_op_name + (f".{overload}" if overload else "")
        self._schema_cache: FunctionSchema | None = None
        self.__name__ = f"{packet.__name__}.{self._overloadname}"
        self.__qualname__ = self._name

    @property
    def _schema(self) -> FunctionSchema:
        if self._schema_cache is None:
            self._schema_cache = FunctionSchema(self._name)
        return self._schema_cache

    @property
    def namespace(self) -> str:
        return self.overloadpacket._qualified_op_name.split("::", 1)[0]

    def name(self) -> str:
        return self._name

    def __call__(self, *args, **kwargs):
        return _call(self, args, kwargs)

    def __repr__(self) -> str:
        return f"<OpOverload(op='{self.overloadpacket._qualified_op_name.replace('::', '.')}', " \
               f"overload='{self._overloadname}')>"


class OpOverloadPacket:
    """One operator name with its overloads: call it and the first overload
    whose schema accepts the arguments runs; `.default` and `.<overload>` are each."""

    def __init__(self, qualified_name: str):
        self._qualified_op_name = qualified_name
        self.__name__ = qualified_name.split("::", 1)[1]
        self._overload_cache: dict[str, OpOverload] = {}

    def overloads(self) -> list[str]:
        return [name or "default" for name in _C._ops_overloads(self._qualified_op_name)]

    def __getattr__(self, overload: str) -> OpOverload:
        if overload.startswith("__"):
            raise AttributeError(overload)
        key = "" if overload == "default" else overload
        if key not in self._overload_cache:
            if key not in _C._ops_overloads(self._qualified_op_name):
                raise AttributeError(f"The underlying op of '{self._qualified_op_name.replace('::', '.')}' has no "
                                     f"overload name '{overload}' (it has: {', '.join(self.overloads())})")
            self._overload_cache[key] = OpOverload(self, key)
        return self._overload_cache[key]

    @property
    def _schema(self) -> FunctionSchema:
        return getattr(self, self.overloads()[0])._schema

    def __call__(self, *args, **kwargs):
        names = self.overloads()
        if len(names) == 1:
            return getattr(self, names[0])(*args, **kwargs)
        errors = []
        for name in names:  # the first overload whose schema binds these arguments
            overload = getattr(self, name)
            try:
                overload._schema.bind(args, kwargs)
            except TypeError as e:
                errors.append(f"  {overload._schema}: {e}")
                continue
            return overload(*args, **kwargs)
        raise TypeError(f"{self._qualified_op_name}(): no overload accepts these arguments:\n" + "\n".join(errors))

    def __repr__(self) -> str:
        return f"<OpOverloadPacket(op='{self._qualified_op_name.replace('::', '.')}')>"


_aten_overloads: dict[str, list[str]] | None = None


def aten_overloads(name: str) -> list[str]:
    """The overload names of torch's operator `name` in the installed
    native_functions.yaml ("default" for the unnamed one)."""
    global _aten_overloads
    if _aten_overloads is None:
        table: dict[str, list[str]] = {}
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "share", "torch", "native_functions.yaml")
        with open(path) as f:
            for line in f:
                m = re.match(r"- func: (\w+)(?:\.(\w+))?\(", line)
                if m:
                    table.setdefault(m.group(1), []).append(m.group(2) or "default")
        _aten_overloads = table
    return _aten_overloads.get(name, ["default"])


class _AtenPacket:
    """torch.ops.aten.<op>: torch's own operator function. Its overloads
    (.default, .Tensor, .out, ... as native_functions.yaml names them) are
    that function too: it picks the overload from the arguments."""

    def __init__(self, name: str, fn):
        self.__name__ = name
        self._fn = fn

    def __call__(self, *args, **kwargs):
        return self._fn(*args, **kwargs)

    def overloads(self) -> list[str]:
        return aten_overloads(self.__name__)

    def __getattr__(self, overload: str):
        if overload.startswith("__") or overload not in self.overloads():
            raise AttributeError(f"The underlying op of 'aten.{self.__name__}' has no overload name '{overload}'")
        return self._fn

    def __repr__(self) -> str:
        return f"<OpOverloadPacket(op='aten.{self.__name__}')>"


class _OpNamespace(types.ModuleType):
    """torch.ops.<ns>: its operators, looked up when first used."""

    def __init__(self, name: str):
        super().__init__("torch.ops." + name)
        self.name = name

    def __getattr__(self, op_name: str):
        if op_name.startswith("__"):
            raise AttributeError(op_name)
        if self.name == "aten":
            import torch

            fn = getattr(torch._C._VariableFunctions, op_name, None) or getattr(torch._C._nn, op_name, None)
            if fn is None:
                raise AttributeError(f"'_OpNamespace' 'aten' object has no attribute '{op_name}'")
            op = _AtenPacket(op_name, fn)
            setattr(self, op_name, op)
            return op
        qualified = f"{self.name}::{op_name}"
        if not _C._ops_overloads(qualified):
            raise AttributeError(f"'_OpNamespace' '{self.name}' object has no attribute '{op_name}' "
                                 f"(registered: {', '.join(sorted(_C._ops_names(self.name))) or 'nothing'}; "
                                 "was its library loaded?)")
        op = OpOverloadPacket(qualified)
        setattr(self, op_name, op)
        return op

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(_C._ops_names(self.name)))


class _Ops(types.ModuleType):
    __file__ = "_ops.py"

    def __init__(self):
        super().__init__("torch.ops")
        self.loaded_libraries: set[str] = set()
        self._lock = threading.Lock()

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        namespace = _OpNamespace(name)
        setattr(self, name, namespace)
        return namespace

    def load_library(self, path) -> None:
        """Loads a shared library whose TORCH_LIBRARY blocks register operators
        (as PyTorch's torch.ops.load_library). Loading the same file twice does nothing."""
        path = os.path.realpath(os.fspath(path))
        with self._lock:
            if path in self.loaded_libraries:
                return
            if not os.path.exists(path):
                raise OSError(f"torch.ops.load_library: no such file: {path}")
            try:
                ctypes.CDLL(path)
            except OSError as e:
                raise OSError(f"torch.ops.load_library: could not load {path}: {e} (a library built against "
                              f"another torch than {_C._version} misses symbols)") from None
            self.loaded_libraries.add(path)
            raise_registration_errors(path)

    def import_module(self, module: str) -> types.ModuleType:
        """Imports a Python extension module whose library registers operators,
        raising what its registrations refused."""
        imported = importlib.import_module(module)
        raise_registration_errors(module)
        return imported


def raise_registration_errors(source: str) -> None:
    errors = _C._ops_take_registration_errors()
    if errors:
        raise RuntimeError(f"operator registration failed in {source}:\n  " + "\n  ".join(errors))


ops = _Ops()


# ---------------------------------------------------------------- calls
# How an OpOverload call runs: through the autograd formula torch.library's
# register_autograd recorded for it, when one applies, else straight to the
# registry's kernel for the inputs' device. The registrations live here,
# below torch.library, which fills them.

# full operator name ("ns::name" or "ns::name.overload") -> (backward, setup_context)
_autograd_kernels: dict[str, tuple[Callable, Callable | None]] = {}
_autograd_functions: dict[str, type] = {}
_schemas: dict[str, object] = {}  # full name -> FunctionSchema, read once


def _flat_tensors(values) -> list:
    out = []
    for v in values:
        if isinstance(v, torch.Tensor):
            out.append(v)
        elif isinstance(v, (list, tuple)):
            out.extend(t for t in v if isinstance(t, torch.Tensor))
    return out


def _split(full: str, bound) -> tuple[list, dict]:
    """Arguments in schema order as a call passes them: keyword-only ones by name."""
    schema = _schemas.get(full)
    if schema is None:
        schema = _schemas[full] = FunctionSchema(full)
    args, kwargs = [], {}
    for a, v in zip(schema.arguments, bound):
        if a.kwarg_only:
            kwargs[a.name] = v
        else:
            args.append(v)
    return args, kwargs


def _call(op: OpOverload, args: tuple, kwargs: dict):
    """An OpOverload's call: through its autograd registration when one
    applies, else straight to the registry's kernel for the inputs' device."""
    full = op._name
    if full in _autograd_kernels and torch.is_grad_enabled():
        bound = op._schema.bind(args, kwargs)
        if any(t.requires_grad for t in _flat_tensors(bound)):
            return _autograd_function(full).apply(*bound)
    return _C._ops_call(full, args, kwargs or None)


def _autograd_function(full: str) -> type:
    function = _autograd_functions.get(full)
    if function is None:
        def forward(*bound):
            args, kwargs = _split(full, bound)
            return _C._ops_call(full, tuple(args), kwargs or None)

        def setup_context(ctx, inputs, output):
            setup = _autograd_kernels[full][1]
            args, kwargs = _split(full, inputs)
            ctx._positional_inputs = len(args)
            if setup is None:
                return
            if kwargs:  # PyTorch's signature when the schema has keyword-only arguments
                setup(ctx=ctx, inputs=tuple(args), keyword_only_inputs=kwargs, output=output)
            else:
                setup(ctx, tuple(args), output)

        def backward(ctx, *grads):
            # One gradient per positional input, as PyTorch's backward returns
            # them; keyword-only inputs get none.
            result = _autograd_kernels[full][0](ctx, *grads)
            result = result if isinstance(result, tuple) else (result,)
            return result + (None,) * (len(ctx.needs_input_grad) - len(result))

        name = full.replace("::", "_").replace(".", "_")
        function = type(name, (torch.autograd.Function,), {
            "forward": staticmethod(forward), "setup_context": staticmethod(setup_context),
            "backward": staticmethod(backward)})
        _autograd_functions[full] = function
    return function
