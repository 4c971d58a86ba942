"""The data model of native_functions.yaml.

Each entry becomes a NativeFunction holding a FunctionSchema. Every dataclass
prints back to the source text it was parsed from (str(schema) == the `func:`
string), which the tests check, and unknown keys or malformed schemas are
errors that name the YAML file and line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

import yaml

BASE_TYPES = ("Tensor", "Scalar", "ScalarType", "Device", "int", "float", "bool", "str")
# The backends with kernels of their own, each named as c10::DeviceType names it.
DEVICE_KEYS = ("CPU", "CUDA")
DISPATCH_KEYS = DEVICE_KEYS + ("CompositeImplicitAutograd",)
ENTRY_KEYS = {"func", "variants", "dispatch", "python", "python_module", "device_check", "numbers_as_tensors", "tags"}
VARIANTS = ("function", "method")
# Where a function's Python binding lives: torch.<op> (torch._C._VariableFunctions)
# by default, torch._C._nn.<op> for the ops PyTorch keeps out of the torch namespace,
# torch._C._linalg.<op> for the ones torch.linalg exposes (linalg_vector_norm).
PYTHON_MODULES = ("torch", "nn", "linalg")
# ExactSame: every tensor argument must be on the dispatch device (the
# default); NoCheck: the kernel moves data between devices itself (copy_).
DEVICE_CHECKS = ("ExactSame", "NoCheck")
# inplace_view: an in-place op that changes only self's sizes and strides
# (squeeze_): autograd gives self a new grad_fn instead of rebasing a view's
# base history, since no value changed (PyTorch's tag of the same name).
# complex: the op moves elements without reading them as numbers (views,
# copies, concatenation), so it takes complex tensors; every other op refuses
# them with NotImplementedError, since no kernel here does complex arithmetic.
TAGS = ("inplace_view", "complex")


class CodegenError(Exception):
    pass


@dataclass(frozen=True)
class Type:
    base: str  # one of BASE_TYPES
    optional: bool = False  # T?
    is_list: bool = False  # T[] or T[N]
    list_size: Optional[int] = None  # the N of T[N]: a single value is accepted too
    alias: Optional[str] = None  # the `a` of Tensor(a) / Tensor(a!)
    mutable: bool = False  # the `!` of Tensor(a!)
    elem_optional: bool = False  # Tensor?[]: a list whose items may be None

    _RE = re.compile(r"^(\w+)(?:\((\w+)(!?)\))?(\?)?(?:\[(\d*)\])?(\?)?$")

    @staticmethod
    def parse(text: str) -> "Type":
        m = Type._RE.match(text)
        if not m or m.group(1) not in BASE_TYPES:
            raise CodegenError(f"unknown type '{text}'")
        base, alias, bang, elem_opt, size, opt = m.groups()
        if elem_opt and size is None:
            opt, elem_opt = elem_opt, None
        return Type(
            base=base,
            optional=opt is not None,
            is_list=size is not None,
            list_size=int(size) if size else None,
            alias=alias,
            mutable=bang == "!",
            elem_optional=elem_opt is not None,
        )

    def __str__(self) -> str:
        s = self.base
        if self.alias:
            s += f"({self.alias}{'!' if self.mutable else ''})"
        if self.elem_optional:
            s += "?"
        if self.is_list:
            s += f"[{self.list_size or ''}]"
        return s + ("?" if self.optional else "")

    @property
    def is_tensor(self) -> bool:
        return self.base == "Tensor" and not self.is_list


@dataclass(frozen=True)
class Argument:
    name: str
    type: Type
    default: Optional[str]
    kwarg_only: bool

    @staticmethod
    def parse(text: str, kwarg_only: bool) -> "Argument":
        decl, _, default = text.partition("=")
        type_text, _, name = decl.strip().rpartition(" ")
        if not type_text or not re.match(r"^\w+$", name):
            raise CodegenError(f"malformed argument '{text}'")
        return Argument(name, Type.parse(type_text), default.strip() if default else None, kwarg_only)

    def __str__(self) -> str:
        return f"{self.type} {self.name}" + (f"={self.default}" if self.default is not None else "")

    @property
    def is_out(self) -> bool:
        return self.kwarg_only and self.type.mutable


@dataclass(frozen=True)
class Return:
    type: Type
    name: Optional[str]

    def __str__(self) -> str:
        return f"{self.type} {self.name}" if self.name else str(self.type)


def _split_top_level(text: str) -> list[str]:
    """Split on commas that are not inside brackets (defaults like [0, 1])."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


@dataclass(frozen=True)
class FunctionSchema:
    name: str  # "add_" for an in-place op
    overload: str  # "Tensor" in add.Tensor; "" when there is none
    arguments: tuple[Argument, ...]
    returns: tuple[Return, ...]

    _RE = re.compile(r"^(\w+)(?:\.(\w+))?\((.*)\) -> (.+)$")

    @staticmethod
    def parse(text: str) -> "FunctionSchema":
        m = FunctionSchema._RE.match(text)
        if not m:
            raise CodegenError(f"malformed schema '{text}': expected name[.overload](args) -> returns")
        name, overload, args_text, ret_text = m.groups()
        args, kwarg_only = [], False
        for part in _split_top_level(args_text):
            if part == "*":
                kwarg_only = True
                continue
            args.append(Argument.parse(part, kwarg_only))
        ret_text = ret_text.strip()
        if ret_text.startswith("("):
            rets = []
            for part in _split_top_level(ret_text[1:-1]):
                t, _, n = part.partition(" ")
                rets.append(Return(Type.parse(t), n or None))
        else:
            rets = [Return(Type.parse(ret_text), None)]
        schema = FunctionSchema(name, overload or "", tuple(args), tuple(rets))
        if str(schema) != text:
            raise CodegenError(f"schema does not round-trip: '{text}' reads back as '{schema}'")
        return schema

    def __str__(self) -> str:
        parts, star = [], False
        for a in self.arguments:
            if a.kwarg_only and not star:
                parts.append("*")
                star = True
            parts.append(str(a))
        rets = ", ".join(str(r) for r in self.returns)
        if len(self.returns) != 1 or self.returns[0].name:
            rets = f"({rets})"
        full = self.name + (f".{self.overload}" if self.overload else "")
        return f"{full}({', '.join(parts)}) -> {rets}"

    @property
    def full_name(self) -> str:
        return self.name + (f".{self.overload}" if self.overload else "")

    @property
    def out_arguments(self) -> tuple[Argument, ...]:
        return tuple(a for a in self.arguments if a.is_out)

    @property
    def is_out_fn(self) -> bool:
        return bool(self.out_arguments)

    @property
    def is_inplace(self) -> bool:
        return self.name.endswith("_") and not self.name.startswith("__")

    @property
    def self_arg(self) -> Optional[Argument]:
        for a in self.arguments:
            if a.name == "self":
                return a
        return None

    @property
    def base_name(self) -> str:
        return self.name[:-1] if self.is_inplace else self.name


@dataclass(frozen=True)
class NativeFunction:
    func: FunctionSchema
    variants: tuple[str, ...]
    dispatch: tuple[tuple[str, str], ...]  # (dispatch key, kernel name)
    python: bool
    loc: str  # "file:line", for error messages
    python_module: str = "torch"
    device_check: str = "ExactSame"
    # Tensor arguments that also take a Python number (torch.add(2, t), t.eq(2)),
    # as PyTorch's Scalar overloads and number-friendly ops do.
    numbers_as_tensors: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()

    @property
    def is_inplace_view(self) -> bool:
        return "inplace_view" in self.tags

    @property
    def takes_complex(self) -> bool:
        return "complex" in self.tags

    @property
    def is_composite(self) -> bool:
        return self.dispatch == (("CompositeImplicitAutograd", self.default_kernel_name()),) or not self.dispatch

    def default_kernel_name(self) -> str:
        return f"{self.func.name}_out" if self.func.is_out_fn else self.func.name

    def kernels(self) -> dict[str, str]:
        if not self.dispatch:
            return {"CompositeImplicitAutograd": self.default_kernel_name()}
        return dict(self.dispatch)


class _LineLoader(yaml.SafeLoader):
    """A YAML loader that remembers the line of every mapping."""


def _construct_mapping(loader, node):
    mapping = loader.construct_mapping(node, deep=True)
    mapping["__line__"] = node.start_mark.line + 1
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def parse_native_functions(path: str) -> list[NativeFunction]:
    with open(path) as f:
        entries = yaml.load(f, Loader=_LineLoader)
    functions, seen = [], set()
    for entry in entries:
        loc = f"{path}:{entry.pop('__line__')}"
        try:
            unknown = set(entry) - ENTRY_KEYS
            if unknown:
                raise CodegenError(f"unknown keys {sorted(unknown)}; expected some of {sorted(ENTRY_KEYS)}")
            if "func" not in entry:
                raise CodegenError("entry has no 'func'")
            schema = FunctionSchema.parse(entry["func"])
            variants = tuple(v.strip() for v in entry.get("variants", "function").split(","))
            for v in variants:
                if v not in VARIANTS:
                    raise CodegenError(f"unknown variant '{v}'; expected {VARIANTS}")
            if "method" in variants and schema.self_arg is None:
                raise CodegenError("a method needs an argument named 'self'")
            dispatch = []
            raw = entry.get("dispatch") or {}
            raw.pop("__line__", None)
            for keys, kernel in raw.items():
                for key in (k.strip() for k in keys.split(",")):
                    if key not in DISPATCH_KEYS:
                        raise CodegenError(f"unknown dispatch key '{key}'; expected {DISPATCH_KEYS}")
                    dispatch.append((key, kernel))
            if schema.full_name in seen:
                raise CodegenError(f"'{schema.full_name}' is declared twice")
            seen.add(schema.full_name)
            python = entry.get("python", True)
            if not isinstance(python, bool):
                raise CodegenError("'python' must be True or False")
            module = entry.get("python_module", "torch")
            if module not in PYTHON_MODULES:
                raise CodegenError(f"unknown python_module '{module}'; expected one of {PYTHON_MODULES}")
            if module != "torch" and "method" in variants:
                raise CodegenError(f"a function of python_module '{module}' cannot also be a method")
            device_check = entry.get("device_check", "ExactSame")
            if device_check not in DEVICE_CHECKS:
                raise CodegenError(f"unknown device_check '{device_check}'; expected one of {DEVICE_CHECKS}")
            numbers = entry.get("numbers_as_tensors", [])
            tensor_args = {a.name for a in schema.arguments if a.type.is_tensor and not a.is_out}
            if not isinstance(numbers, list) or not set(numbers) <= tensor_args:
                raise CodegenError(f"numbers_as_tensors must list tensor arguments of the schema ({sorted(tensor_args)})")
            tags = tuple(t.strip() for t in str(entry.get("tags", "")).split(",") if t.strip())
            for t in tags:
                if t not in TAGS:
                    raise CodegenError(f"unknown tag '{t}'; expected one of {TAGS}")
            if "inplace_view" in tags and not schema.is_inplace:
                raise CodegenError("tags: inplace_view is for in-place ops (name ending in _)")
            functions.append(NativeFunction(schema, variants, tuple(dispatch), python, loc, module, device_check,
                                            tuple(numbers), tags))
        except CodegenError as e:
            raise CodegenError(f"{loc}: {e}") from None
    return functions
