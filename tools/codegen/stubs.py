"""Typed stubs (.pyi) for the Python bindings: each overload of a torch.<op>
function or Tensor.<op> method becomes a typed `def`, so editors and mypy
see every op's signature as native_functions.yaml declares it."""
from __future__ import annotations

import keyword

from tools.codegen.model import Argument, Return, Type
from tools.codegen.python import PythonOverload

_BASE = {
    "Tensor": "Tensor",
    "Scalar": "Number",
    "ScalarType": "dtype",
    "Device": "device | str | int",
    "int": "int",
    "float": "float",
    # torch._C defines a dtype named `bool`: every stub file imports the builtin as _bool.
    "bool": "_bool",
    "str": "str",
}


def argument_type(t: Type, accepts_numbers: bool = False) -> str:
    if t.is_list:
        elem = _BASE[t.base] + (" | None" if t.elem_optional else "")
        text = f"Sequence[{elem}]"
        if t.list_size is not None:  # int[2]: a single value is accepted too
            text += f" | {elem}"
    else:
        text = _BASE[t.base]
        if accepts_numbers:
            text += " | Number"
    return text + (" | None" if t.optional else "")


def _one_return(t: Type) -> str:
    return f"list[{_BASE[t.base]}]" if t.is_list else _BASE[t.base]


def return_type(name: str, returns: tuple[Return, ...]) -> str:
    if not returns:
        return "None"
    if len(returns) == 1:
        return _one_return(returns[0].type)
    if all(r.name for r in returns):  # a torch.return_types named tuple
        return f"_return_types.{name}"
    return f"tuple[{', '.join(_one_return(r.type) for r in returns)}]"


def return_type_classes(groups: list[dict[str, list[PythonOverload]]]) -> str:
    """The named tuples ops return (torch.return_types.sort: values, indices), as typed classes."""
    seen: dict[str, tuple[Return, ...]] = {}
    for g in groups:
        for overloads in g.values():
            for o in overloads:
                r = o.function.func.returns
                if len(r) > 1 and all(x.name for x in r):
                    seen.setdefault(o.function.func.name, r)
    out = []
    for name, returns in sorted(seen.items()):
        elems = ", ".join(_one_return(r.type) for r in returns)
        out.append(f"class {name}(tuple[{elems}]):")
        for r in returns:
            out += ["    @property", f"    def {r.name}(self) -> {_one_return(r.type)}: ..."]
    return "\n".join(out)


def _parameter(a: Argument, name: str, numbers: set[str], star_list: bool = False) -> str:
    if star_list:
        return f"*{name}: int"
    text = f"{name}: {argument_type(a.type, a.name in numbers)}"
    return text + (" = ..." if a.default is not None else "")


def overload_stub(o: PythonOverload) -> list[str]:
    """The `def` lines of one overload: two when its first argument is a
    size-like int list, which the binding also takes as varargs (zeros(2, 3))."""
    s = o.function.func
    args = list(o.python_arguments())
    numbers = set(o.function.numbers_as_tensors)
    extra = []
    if o.is_factory:
        extra.append("requires_grad: _bool = ...")
    if o.out is not None or s.is_out_fn:
        extra.append("out: Tensor | None = ...")
    forms = [False]
    if args and args[0].type.is_list and args[0].type.base == "int" and not args[0].kwarg_only:
        forms.append(True)
    lines = []
    for star_list in forms:
        parts, star = [], star_list
        if o.method:
            parts.append("self")
        for i, a in enumerate(args):
            if a.kwarg_only and not star:
                parts.append("*")
                star = True
            name = "input" if (a.name == "self" and a.type.is_tensor) else a.name
            if keyword.iskeyword(name):  # random_(from, to): usable by position only
                name += "_"
            parts.append(_parameter(a, name, numbers, star_list and i == 0))
        if extra and not star:
            parts.append("*")
        parts += extra
        lines.append(f"def {s.name}({', '.join(parts)}) -> {return_type(s.name, s.returns)}: ...")
    return lines


def stubs(groups: dict[str, list[PythonOverload]], method: bool) -> str:
    """The stub text for a module's functions (method=False) or TensorBase's methods."""
    indent = "    " if method else ""
    out = []
    for name in sorted(groups):
        defs = [d for o in groups[name] for d in overload_stub(o)]
        defs = list(dict.fromkeys(defs))  # overloads that differ only in C++ types print alike
        for d in defs:
            if len(defs) > 1:
                out.append(f"{indent}@overload")
            if not method:
                out.append(d)
            else:
                out.append(indent + d)
    return "\n".join(out)
