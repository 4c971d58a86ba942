"""The generator's one input: everything an emitter may consult, parsed once
and frozen. gen.py builds it; every emitter takes it as an argument, so an
emitter's output depends on its arguments only (as torchgen passes its indices).
"""
from __future__ import annotations

import types
from dataclasses import dataclass
from typing import Mapping

from . import cpp
from .autograd import Derivative, parse_derivatives
from .model import DEVICE_KEYS, NativeFunction, parse_native_functions


@dataclass(frozen=True)
class CodegenContext:
    functions: tuple[NativeFunction, ...]
    # full op name (add.Tensor, add_.Tensor) -> its backward formula
    derivatives: Mapping[str, Derivative]
    # overloads whose C++ defaults would make a call ambiguous (cpp.compute_no_cpp_defaults)
    no_cpp_defaults: frozenset[str]
    # the dispatch keys with kernels of their own, in dispatch order
    backends: tuple[str, ...] = DEVICE_KEYS

    @staticmethod
    def build(functions: list[NativeFunction], derivatives: dict[str, Derivative]) -> "CodegenContext":
        return CodegenContext(tuple(functions), types.MappingProxyType(dict(derivatives)),
                              frozenset(cpp.compute_no_cpp_defaults(functions)))

    @staticmethod
    def load(native_functions_yaml: str, derivatives_yaml: str) -> "CodegenContext":
        functions = parse_native_functions(native_functions_yaml)
        return CodegenContext.build(functions, parse_derivatives(derivatives_yaml, functions))
