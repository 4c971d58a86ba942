"""torch.ops: operators that C++ libraries register with TORCH_LIBRARY.

    torch.ops.load_library("build/libmy_ops.so")   # runs its TORCH_LIBRARY blocks
    torch.ops.my_ops.bias_relu(x, bias)            # calls the kernel for x's device

A library's registrations run when it is loaded; one that failed (a bad
schema, a kernel whose C++ types don't match its schema, a namespace defined
twice) is raised here as a RuntimeError rather than aborting the process.
`torch.ops.aten.<name>` gives torch's own operator functions.
"""
from __future__ import annotations

import ctypes
import importlib
import os
import threading
import types

from torch import _C

__all__ = ["ops", "OpOverloadPacket"]


class OpOverloadPacket:
    """One registered operator: call it like a function; `.default` is itself
    (this registry has no overloads)."""

    __slots__ = ("_qualified_name", "_schema_str", "__name__")

    def __init__(self, qualified_name: str, schema: str):
        self._qualified_name = qualified_name
        self._schema_str = schema
        self.__name__ = qualified_name.split("::", 1)[1]

    def __call__(self, *args, **kwargs):
        return _C._ops_call(self._qualified_name, args, kwargs or None)

    @property
    def default(self) -> "OpOverloadPacket":
        return self

    @property
    def _schema(self) -> str:
        return self._schema_str

    def __repr__(self) -> str:
        return f"<OpOverloadPacket(op='{self._qualified_name.replace('::', '.')}')>"


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
            return fn
        qualified = f"{self.name}::{op_name}"
        schema = _C._ops_schema(qualified)
        if schema is None:
            raise AttributeError(f"'_OpNamespace' '{self.name}' object has no attribute '{op_name}' "
                                 f"(registered: {', '.join(sorted(_C._ops_names(self.name))) or 'nothing'}; "
                                 "was its library loaded?)")
        op = OpOverloadPacket(qualified, schema)
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
