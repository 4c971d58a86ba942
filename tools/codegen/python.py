"""Translation of schemas into Python bindings (CPython C API, METH_FASTCALL).

All overloads of one name form one Python function. Its PythonArgParser
(csrc/utils/python_arg_parser.h) receives one signature string per overload
and reports which one matched; the generated switch then unpacks the
arguments, releases the GIL and calls the at:: function. An out= overload is
folded into its functional twin as an `out=None` keyword.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from . import cpp
from .model import Argument, FunctionSchema, NativeFunction, Type

_ACCESSORS = {
    # (base, optional) -> PythonArgs accessor
    ("Tensor", False): "tensor",
    ("Tensor", True): "optionalTensor",
    ("Scalar", False): "scalar",
    ("Scalar", True): "scalarOptional",
    ("ScalarType", False): "scalartype",
    ("ScalarType", True): "scalartypeOptional",
    ("Device", False): "device",
    ("Device", True): "deviceOptional",
    ("int", False): "toInt64",
    ("int", True): "toInt64Optional",
    ("float", False): "toDouble",
    ("float", True): "toDoubleOptional",
    ("bool", False): "toBool",
    ("bool", True): "toBoolOptional",
    ("str", False): "stringView",
    ("str", True): "stringViewOptional",
}


def accessor(a: Argument) -> str:
    t = a.type
    if t.is_list:
        if t.base == "Tensor":
            return "tensorlist"
        return "intlistOptional" if t.optional else "intlist"
    return _ACCESSORS[(t.base, t.optional)]


@dataclass(frozen=True)
class PythonOverload:
    """One signature of a Python function: a functional schema and, if it
    has one, the out= schema folded into it."""

    function: NativeFunction
    out: Optional[NativeFunction]
    method: bool

    def python_arguments(self) -> list[Argument]:
        s = self.function.func
        args = [a for a in s.arguments if not a.is_out]
        if self.method:
            args = [a for a in args if a.name != "self"]
        return args

    @property
    def is_factory(self) -> bool:
        """Takes dtype and device keywords: Python adds requires_grad=False, as PyTorch's bindings do."""
        names = {a.name for a in self.function.func.arguments if a.kwarg_only}
        return not self.method and {"dtype", "device"} <= names and not self.function.func.is_out_fn

    def signature(self) -> str:
        s = self.function.func
        parts, star = [], False
        args = self.python_arguments()
        if self.is_factory:
            args = args + [Argument("requires_grad", Type.parse("bool"), "False", True)]
        if self.out is not None or s.is_out_fn:
            args = args + [Argument("out", s.out_arguments[0].type if s.is_out_fn else
                                    self.out.func.out_arguments[0].type, None, True)]
        for a in args:
            if a.kwarg_only and not star:
                parts.append("*")
                star = True
            name = "input" if (a.name == "self" and a.type.is_tensor) else a.name
            type_text = _python_type(a)
            default = a.default
            if a.name == "out" and a.kwarg_only and a.type.mutable:
                type_text, default = "Tensor", "None"
            parts.append(f"{type_text} {name}" + (f"={default}" if default is not None else ""))
        text = f"{s.name}({', '.join(parts)})"
        numbers = [("input" if n == "self" else n) for n in self.function.numbers_as_tensors
                   if not (self.method and n == "self")]
        if numbers:
            # Read by the parser (csrc/utils/python_arg_parser.cpp), left out of its messages.
            text += "|numbers=" + ",".join(numbers)
        return text


def _python_type(a: Argument) -> str:
    t = a.type
    text = t.base
    if t.is_list:
        text += f"[{t.list_size or ''}]"
    if t.optional:
        text += "?"
    return text


def _out_signature_key(s: FunctionSchema) -> tuple:
    return tuple((a.name, str(a.type.base), a.type.optional, a.type.is_list) for a in s.arguments if not a.is_out)


def _arg_less_specific(t1: str, t2: str) -> bool:
    """Whether an argument of type t1 must be tried after one of type t2 in
    the same position: PyTorch's parser tries Tensor before Scalar (a 0-d
    tensor matches both) and int before int[] (an int matches both)."""
    return (t1, t2) in {("Scalar", "Tensor"), ("Scalar?", "Tensor?"), ("int[]", "int"), ("int[]", "int?"),
                        ("int", "Tensor")}


def _tried_after(o1: PythonOverload, o2: PythonOverload) -> bool:
    a1, a2 = o1.python_arguments(), o2.python_arguments()
    if len(a1) != len(a2):
        return False
    types = [(str(x.type).split("(")[0], str(y.type).split("(")[0]) for x, y in zip(a1, a2)]
    return any(t1 != t2 for t1, t2 in types) and all(t1 == t2 or _arg_less_specific(t1, t2) for t1, t2 in types)


def sort_overloads(overloads: list[PythonOverload]) -> list[PythonOverload]:
    """The order the parser tries them in: declaration order, except that an
    overload comes after every more specific one (PyTorch's sort_overloads)."""
    remaining, ordered = list(overloads), []
    while remaining:
        pick = next(o for o in remaining if not any(_tried_after(o, other) for other in remaining if other is not o))
        ordered.append(pick)
        remaining.remove(pick)
    return ordered


def group_overloads(functions: list[NativeFunction], method: bool, module: str = "torch") -> dict[str, list[PythonOverload]]:
    """name -> overloads, for the functions of a Python module (torch.<name>,
    torch._C._nn.<name>) or, with method=True, for Tensor.<name>."""
    variant = "method" if method else "function"
    chosen = [f for f in functions if f.python and variant in f.variants and (method or f.python_module == module)]
    outs = {}
    if not method:
        for f in functions:
            if f.python and f.func.is_out_fn and f.python_module == module:
                outs[(f.func.name, _out_signature_key(f.func))] = f
    groups: dict[str, list[PythonOverload]] = {}
    used_outs = set()
    for f in chosen:
        if f.func.is_out_fn:
            continue
        out = outs.get((f.func.name, _out_signature_key(f.func)))
        if out is not None:
            used_outs.add(out.func.full_name)
        groups.setdefault(f.func.name, []).append(PythonOverload(f, out, method))
    if not method:
        for (name, _), f in outs.items():
            if f.func.full_name not in used_outs:
                groups.setdefault(name, []).append(PythonOverload(f, None, False))
    return {name: sort_overloads(group) for name, group in groups.items()}


def _call(f: NativeFunction, py_index: dict[str, int], method: bool, out_index: Optional[int],
          requires_grad_index: Optional[int] = None) -> list[str]:
    """Statements that unpack the arguments of `f`, call it and return."""
    s = f.func
    lines = []
    call_args = []
    for a in cpp.ordered_arguments(s):
        if a.name == "self" and method:
            call_args.append("self")
            continue
        if a.is_out:
            idx = out_index
            lines.append(f"auto {a.name} = _r.tensor({idx});")
        else:
            lines.append(f"auto {a.name} = _r.{accessor(a)}({py_index[a.name]});")
        if a.type.base == "int" and a.type.is_list and a.type.optional:
            call_args.append(f"torch::as_optional_ref({a.name})")
        else:
            call_args.append(a.name)
    call = f"at::{cpp.cpp_name(s)}({', '.join(call_args)})"
    # Small tensors keep the GIL (handing it over costs more than their kernel).
    plain = [a.name for a in cpp.ordered_arguments(s) if a.type.is_tensor and not a.type.optional]
    release = "true" if not plain else "torch::worth_releasing_gil({" + ", ".join(f"&{n}" for n in plain) + "})"
    gil = f"  torch::MaybeGILRelease no_gil({release});"
    rets = s.returns
    if not rets:
        lines += ["{", gil, f"  {call};", "}", "Py_RETURN_NONE;"]
        return lines
    if len(rets) == 1 and rets[0].type.mutable:
        # Returns one of its arguments: hand back the very same Python object.
        alias = rets[0].type.alias
        target = next(a for a in s.arguments if a.type.alias == alias)
        if target.name == "self" and method:
            obj = "self_"
        elif target.is_out:
            obj = f"_r.obj({out_index})"
        else:
            obj = f"_r.obj({py_index[target.name]})"
        lines += ["{", gil, f"  {call};", "}", f"Py_INCREF({obj});", f"return {obj};"]
        return lines
    lines += [f"{cpp.return_type(rets)} result_;", "{", gil,
              f"  result_ = {call};", "}"]
    if requires_grad_index is not None:
        lines += [f"if (_r.toBool({requires_grad_index})) at::autograd::set_requires_grad(result_, true);"]
    if len(rets) > 1 and all(r.name for r in rets):
        # A named tuple, as torch.return_types.<op>(values=..., indices=...).
        fields = ", ".join(f'"{r.name}"' for r in rets)
        lines += [f'static PyTypeObject* return_type_ = torch::named_tuple_type("torch.return_types.{s.name}", {{{fields}}});',
                  "return torch::wrap(std::move(result_), return_type_);"]
        return lines
    self_alias = len(rets) == 1 and rets[0].type.alias and s.self_arg is not None \
        and s.self_arg.type.alias == rets[0].type.alias
    if self_alias:
        # A view op that may return its input as-is (x.to(x.dtype), x.contiguous()):
        # then the caller gets the same Python object back, as in PyTorch.
        obj = "self_" if method else f"_r.obj({py_index['self']})"
        lines += [f"if (result_.is_same(self) && THPVariable_Check({obj})) {{", f"  Py_INCREF({obj});",
                  f"  return {obj};", "}"]
    lines += ["return torch::wrap(std::move(result_));"]
    return lines


def binding_function(name: str, overloads: list[PythonOverload], method: bool) -> str:
    cname = f"THPVariable_{name}" if method else f"THPTorch_{name}"
    sigs = [o.signature() for o in overloads]
    max_args = max(len(o.python_arguments()) + (1 if (o.out or o.function.func.is_out_fn or o.is_factory) else 0)
                   for o in overloads)
    body = []
    for i, o in enumerate(overloads):
        py_args = o.python_arguments()
        py_index = {a.name: k for k, a in enumerate(py_args)}
        body.append(f"    case {i}: {{  // {o.function.func}")
        if o.function.func.is_out_fn:
            stmts = _call(o.function, py_index, method, len(py_args))
        elif o.out is not None:
            out_idx = len(py_args)
            stmts = [f"if (_r.isNone({out_idx})) {{"]
            stmts += ["  " + line for line in _call(o.function, py_index, method, None)]
            stmts += ["} else {"]
            stmts += ["  " + line for line in _call(o.out, py_index, method, out_idx)]
            stmts += ["}"]
        else:
            stmts = _call(o.function, py_index, method, None, len(py_args) if o.is_factory else None)
        body += ["      " + s for s in stmts]
        body.append("    }")
    self_line = "  const at::Tensor& self = THPVariable_Unpack(self_);\n" if method else ""
    sig_lines = "\n".join(f'      "{s}",' for s in sigs)
    return (
        f"static PyObject* {cname}(PyObject* self_, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {{\n"
        "  HANDLE_TH_ERRORS\n"
        f"{self_line}"
        "  static torch::PythonArgParser parser({\n"
        f"{sig_lines}\n"
        f"  }}, {'true' if method else 'false'});\n"
        f"  torch::ParsedArgs<{max(max_args, 1)}> parsed;\n"
        "  auto _r = parser.parse(args, nargs, kwnames, parsed);\n"
        "  switch (_r.idx) {\n" + "\n".join(body) + "\n  }\n"
        "  Py_RETURN_NONE;\n"
        "  END_HANDLE_TH_ERRORS\n"
        "}\n"
    )


def method_def(name: str, method: bool) -> str:
    cname = f"THPVariable_{name}" if method else f"THPTorch_{name}"
    return f'  {{"{name}", (PyCFunction)(void (*)(void)){cname}, METH_FASTCALL | METH_KEYWORDS, nullptr}},'
