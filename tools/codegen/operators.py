"""PyTorch's C++ spellings of the ops that extensions use beside at::<op>:

- ATen/Operators.h: at::_ops::<name>[_<overload>], a struct per schema with
  its name, overload name and schema string and a static call() taking the
  arguments in schema order (outputs last, as PyTorch's do);
- the TensorOptions overloads of the factory functions, at::zeros(size,
  x.options()) beside at::zeros(size, dtype, device) (Functions.h);
- torch/variable_factories.h: torch::zeros(size, options) and the other
  factories, which also honour options.requires_grad(); every other torch::
  function is the at:: one (torch/types.h).
"""
from __future__ import annotations

from . import cpp
from .model import Argument, NativeFunction


def struct_name(f: NativeFunction) -> str:
    s = f.func
    return s.name + (f"_{s.overload}" if s.overload else "")


def _global(cpp_type: str) -> str:
    """A type spelled from the global namespace: inside at::_ops, a struct is
    named `std` (the std op) and would hide ::std."""
    return cpp_type.replace("std::", "::std::")


def operator_struct(f: NativeFunction) -> str:
    s = f.func
    ret = _global(cpp.return_type(s.returns))
    params = ", ".join(f"{_global(cpp.argument_type(a.type))} {a.name}" for a in s.arguments)
    call = ", ".join(a.name for a in cpp.ordered_arguments(s))
    schema = str(s).replace('"', '\\"')
    return (
        f"struct {struct_name(f)} {{\n"
        f'  static constexpr const char* name = "aten::{s.name}";\n'
        f'  static constexpr const char* overload_name = "{s.overload}";\n'
        f'  static constexpr const char* schema_str = "{schema}";\n'
        f"  static {ret} call({params}) {{\n    return at::{cpp.cpp_name(s)}({call});\n  }}\n"
        f"}};"
    )


def operator_structs(functions: tuple[NativeFunction, ...]) -> str:
    seen, out = set(), []
    for f in functions:
        if struct_name(f) not in seen:
            seen.add(struct_name(f))
            out.append(operator_struct(f))
    return "\n".join(out)


def _options_split(f: NativeFunction) -> tuple[list[Argument], list[Argument]] | None:
    """A factory's arguments before `*, ScalarType? dtype, Device? device`, split
    into the required ones and the defaulted ones; None for other ops."""
    s = f.func
    if "function" not in f.variants or s.is_out_fn:
        return None
    names = [a.name for a in s.arguments if a.kwarg_only]
    if names != ["dtype", "device"]:
        return None
    positional = [a for a in s.arguments if not a.kwarg_only]
    required = [a for a in positional if a.default is None]
    if positional[: len(required)] != required:
        return None
    return required, positional[len(required):]


def _prefixes(f: NativeFunction) -> list[tuple[list[Argument], list[str]]]:
    """The argument lists an options overload is written for: the required
    arguments plus each count of the defaulted ones (at::arange(start, end,
    options) and at::arange(start, end, step, options)), each with the C++
    expressions of the call to the dtype/device overload."""
    split = _options_split(f)
    if split is None:
        return []
    required, defaulted = split
    out = []
    for k in range(len(defaulted) + 1):
        args = required + defaulted[:k]
        call = [a.name for a in args] + [cpp.default_value(a) for a in defaulted[k:]]
        out.append((args, call + ["options.dtype_opt()", "options.device_opt()"]))
    return out


def _factory_overloads(functions: tuple[NativeFunction, ...], template: str, options_param: str) -> str:
    out = []
    for f in functions:
        for args, call_args in _prefixes(f):
            params = ", ".join([f"{cpp.argument_type(a.type)} {a.name}" for a in args] + [options_param])
            out.append(
                f"{template}inline at::Tensor {f.func.name}({params}) {{\n"
                f"  at::Tensor result = at::{f.func.name}({', '.join(call_args)});\n"
                "  if (options.requires_grad()) result.set_requires_grad(true);\n"
                "  return result;\n}")
    return "\n".join(out)


def at_options_overloads(functions: tuple[NativeFunction, ...]) -> str:
    """at::<factory>(..., const TensorOptions&): a template that matches a
    TensorOptions argument exactly, so at::zeros(size, at::kFloat) keeps
    calling the dtype overload rather than becoming ambiguous."""
    return _factory_overloads(
        functions, "template <typename Options, std::enable_if_t<std::is_same_v<std::decay_t<Options>, "
                   "at::TensorOptions>, int> = 0>\n", "Options&& options")


def torch_factories(functions: tuple[NativeFunction, ...]) -> str:
    return _factory_overloads(functions, "", "at::TensorOptions options = {}")
