"""Translation of a schema into the C++ API.

The same signature serves at::<op>, the Tensor method (without `self`) and the
kernel in at::native, so a kernel is written against exactly what callers see.
Out= overloads take their outputs first (at::add_out(out, a, b)), which keeps
every defaulted argument at the end.
"""
from __future__ import annotations

from .model import Argument, CodegenError, FunctionSchema, NativeFunction, Return, Type

_SCALAR_CPP = {
    "Tensor": "at::Tensor",
    "Scalar": "at::Scalar",
    "ScalarType": "at::ScalarType",
    "Device": "at::Device",
    "int": "int64_t",
    "float": "double",
    "bool": "bool",
    "str": "std::string_view",
}


def argument_type(t: Type) -> str:
    if t.base == "Tensor" and t.is_list:
        return "at::OptionalTensorList" if t.elem_optional else "at::TensorList"
    if t.base == "int" and t.is_list:
        return "at::OptionalIntArrayRef" if t.optional else "at::IntArrayRef"
    if t.is_list:
        raise CodegenError(f"list of {t.base} is not supported")
    cpp = _SCALAR_CPP[t.base]
    if t.optional:
        cpp = f"std::optional<{cpp}>"
    if t.base in ("Tensor", "Scalar"):
        return f"const {cpp}&"
    return cpp


def return_type(returns: tuple[Return, ...]) -> str:
    def one(r: Return) -> str:
        if r.type.base == "Tensor" and r.type.mutable:
            return "const at::Tensor&"
        if r.type.is_list:
            return f"std::vector<{_SCALAR_CPP[r.type.base]}>"
        return _SCALAR_CPP[r.type.base]

    if not returns:
        return "void"
    if len(returns) == 1:
        return one(returns[0])
    return f"std::tuple<{', '.join(one(r) for r in returns)}>"


def default_value(arg: Argument) -> str:
    d = arg.default
    if d.startswith("'"):
        return '"' + d[1:-1] + '"'
    if d == "None":
        return "std::nullopt"
    if d in ("True", "False"):
        return d.lower()
    if d.startswith("["):
        return "{" + d[1:-1] + "}"
    return d


def ordered_arguments(schema: FunctionSchema) -> list[Argument]:
    """Outputs first, then the rest in schema order."""
    outs = [a for a in schema.arguments if a.is_out]
    return outs + [a for a in schema.arguments if not a.is_out]


def cpp_name(schema: FunctionSchema) -> str:
    return f"{schema.name}_out" if schema.is_out_fn else schema.name


def _defaults_from(args: list[Argument]) -> int:
    """Index of the first parameter with a C++ default: every later one must have one too."""
    i = len(args)
    while i > 0 and args[i - 1].default is not None:
        i -= 1
    return i


def compute_no_cpp_defaults(functions: list[NativeFunction]) -> set[str]:
    """Overloads whose C++ defaults would make a call ambiguous with an earlier
    overload of the same name: a call of n arguments fits both, and both take
    the same C++ types in those n places (at::clamp(t) with both a Scalar? and
    a Tensor? version). They keep their defaults in Python only. Overloads
    that differ in an argument the call must give (x.sum(0, true) against
    x.sum(dtype)) keep theirs."""
    earlier_by_name: dict[str, list[tuple[int, int, list[str]]]] = {}
    suppressed = set()
    for f in functions:
        args = ordered_arguments(f.func)
        types = [argument_type(a.type) for a in args]
        lo, hi = _defaults_from(args), len(args)
        earlier = earlier_by_name.setdefault(cpp_name(f.func), [])

        def clashes(e_lo: int, e_hi: int, e_types: list[str]) -> bool:
            return any(types[:n] == e_types[:n] for n in range(max(lo, e_lo), min(hi, e_hi) + 1))

        if any(clashes(*e) for e in earlier):
            suppressed.add(f.func.full_name)
            lo = hi
        earlier.append((lo, hi, types))
    return suppressed


def params(args: list[Argument], with_defaults: bool) -> str:
    """A C++ parameter list; with_defaults: the trailing defaults of the schema."""
    defaults_from = _defaults_from(args)
    out = []
    for i, a in enumerate(args):
        p = f"{argument_type(a.type)} {a.name}"
        if with_defaults and i >= defaults_from:
            p += f"={default_value(a)}"
        out.append(p)
    return ", ".join(out)


def function_declaration(f: NativeFunction, no_cpp_defaults: frozenset[str]) -> str:
    s = f.func
    defaults = s.full_name not in no_cpp_defaults
    return f"TORCH_API {return_type(s.returns)} {cpp_name(s)}({params(ordered_arguments(s), defaults)});"


def native_declaration(f: NativeFunction, kernel: str) -> str:
    s = f.func
    return f"TORCH_API {return_type(s.returns)} {kernel}({params(ordered_arguments(s), False)});"


def dispatch_expression(f: NativeFunction) -> str:
    """The C++ expression giving the device to dispatch on."""
    tensors = [a.name for a in ordered_arguments(f.func) if a.type.is_tensor and not a.type.optional]
    if len(tensors) >= 2:
        # A 0-d CPU tensor (a Python number) does not decide: `cpu_scalar * cuda_tensor` runs on CUDA.
        return "at::detail::dispatch_device({" + ", ".join(f"&{n}" for n in tensors) + "})"
    for a in ordered_arguments(f.func):
        if a.type.is_tensor and not a.type.optional:
            return f"{a.name}.device()"
        if a.type.base == "Tensor" and a.type.is_list:
            return f"at::detail::first_device({a.name})"
    for a in f.func.arguments:
        if a.type.base == "Device":
            return f"{a.name}.value_or(at::Device(at::DeviceType::CPU))"
    return "at::Device(at::DeviceType::CPU)"


def _method_args(s: FunctionSchema) -> list[Argument]:
    return [a for a in ordered_arguments(s) if a.name != "self"]


def method_declaration(f: NativeFunction, no_cpp_defaults: frozenset[str]) -> str:
    s = f.func
    defaults = s.full_name not in no_cpp_defaults
    return f"  {return_type(s.returns)} {cpp_name(s)}({params(_method_args(s), defaults)}) const;"


def method_definition(f: NativeFunction) -> str:
    s = f.func
    args = _method_args(s)
    call = ", ".join("*this" if a.name == "self" else a.name for a in ordered_arguments(s))
    return (
        f"inline {return_type(s.returns)} Tensor::{cpp_name(s)}({params(args, False)}) const {{\n"
        f"  return at::{cpp_name(s)}({call});\n}}\n"
    )
