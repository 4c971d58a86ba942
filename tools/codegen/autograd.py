"""derivatives.yaml -> backward nodes, and the recording code of each op.

For every entry the generator emits a Node subclass (SigmoidBackward0, ...)
whose apply() evaluates the formulas, and, inside the op's at:: function,
the code that creates the node, records the inputs' edges, saves what the
formulas need, and attaches the node to the result. In-place variants (add_)
reuse their op's entry.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

import yaml

from .model import Argument, CodegenError, FunctionSchema, NativeFunction, _LineLoader


@dataclass
class Saved:
    name: str  # member name without the trailing underscore
    kind: str  # "tensor", "output", "sizes", "list_sizes", "value"
    arg: Optional[Argument] = None
    output_index: int = 0


@dataclass
class Derivative:
    schema: FunctionSchema
    formulas: dict[str, str]  # input name -> C++ expression (rewritten)
    node: str  # class name, unique: <Op>Backward<n>
    saved: list[Saved] = field(default_factory=list)
    loc: str = ""
    display: str = ""  # what grad_fn.name() says: node_name where given (PyTorch's), else the class name
    # "gates, cx: f(...)": one call whose tuple gives several inputs' gradients;
    # formulas then read std::get<i>(joint<k>_).
    joint: list[str] = field(default_factory=list)
    # "<input>: refuse_grad": that input must not require grad (checked when
    # the op runs, as PyTorch's check_no_requires_grad does for the inputs its
    # entry leaves out). "<input>: non_differentiable" (PyTorch's key): no
    # gradient flows to it and its requires_grad is not looked at.
    refuse_grad: list[str] = field(default_factory=list)
    # "output_differentiability: [True, False, False]" (PyTorch's key): the
    # outputs marked False get no history (native_layer_norm's mean and rstd).
    output_differentiability: Optional[list[bool]] = None
    # "node_name_if_number: {other: RemainderBackward0}": the name grad_fn
    # shows when that argument came as a Python number (PyTorch then runs its
    # Scalar overload, which numbers its node apart).
    number_node: Optional[tuple[str, str]] = None

    def inputs(self) -> list[Argument]:
        return [a for a in self.schema.arguments if a.name in self.formulas]


def _camel(name: str) -> str:
    """add -> Add, index_select -> IndexSelect, log1p -> Log1P (PyTorch's node names)."""
    return "".join(part.title() for part in name.strip("_").split("_"))


def returns_list(schema: FunctionSchema) -> bool:
    """One Tensor[] return (split): an output per element, known when the op runs."""
    return len(schema.returns) == 1 and schema.returns[0].type.base == "Tensor" and schema.returns[0].type.is_list


def _returns(schema: FunctionSchema) -> list[str]:
    if len(schema.returns) == 1:
        return ["result"]
    return [r.name or f"result{i}" for i, r in enumerate(schema.returns)]


def _analyze(d: Derivative) -> None:
    text = " ".join(list(d.formulas.values()) + d.joint)
    for a in d.schema.arguments:
        if a.type.base == "Tensor" and a.type.is_list:
            if re.search(rf"\b{a.name}_sizes\b", text):
                d.saved.append(Saved(a.name + "_sizes", "list_sizes", a))
            continue
        uses = list(re.finditer(rf"\b{a.name}\b(\.sizes\(\))?", text))
        if not uses:
            continue
        if a.type.base == "Tensor" and all(m.group(1) for m in uses):
            d.saved.append(Saved(a.name + "_sizes", "sizes", a))
            d.formulas = {k: re.sub(rf"\b{a.name}\.sizes\(\)", f"{a.name}_sizes", v) for k, v in d.formulas.items()}
        elif a.type.base == "Tensor":
            d.saved.append(Saved(a.name, "tensor", a))
        else:
            d.saved.append(Saved(a.name, "value", a))
    for i, r in enumerate(_returns(d.schema)):
        if re.search(rf"\b{r}\b", text):
            d.saved.append(Saved(r, "output", output_index=i))


def parse_derivatives(path: str, functions: list[NativeFunction]) -> dict[str, Derivative]:
    """full op name -> Derivative, for the ops and their in-place variants."""
    with open(path) as f:
        entries = yaml.load(f, Loader=_LineLoader)
    by_schema = {str(f.func): f for f in functions}
    counters: dict[str, int] = {}
    result: dict[str, Derivative] = {}
    for entry in entries:
        loc = f"{path}:{entry.pop('__line__')}"
        name = entry.pop("name", None)
        if name is None or name not in by_schema:
            raise CodegenError(f"{loc}: '{name}' matches no schema in native_functions.yaml")
        f = by_schema[name]
        if f.is_composite:
            raise CodegenError(f"{loc}: '{name}' is composite: it is differentiated through the ops it calls")
        args = {a.name: a for a in f.func.arguments}
        # node_name: the name grad_fn shows, where PyTorch's is not <Op>Backward<n>
        # (CopyBackwards; conv1d and conv2d both show ConvolutionBackward0).
        explicit_node = entry.pop("node_name", None)
        output_differentiability = entry.pop("output_differentiability", None)
        number_node = entry.pop("node_name_if_number", None)
        if number_node is not None:
            if isinstance(number_node, dict):
                number_node = {k: v for k, v in number_node.items() if k != "__line__"}
            if not isinstance(number_node, dict) or len(number_node) != 1:
                raise CodegenError(f"{loc}: node_name_if_number takes one 'argument: NodeName' pair")
            (arg_name, number_name), = number_node.items()
            if arg_name not in args or args[arg_name].type.base != "Tensor":
                raise CodegenError(f"{loc}: node_name_if_number: '{arg_name}' is not a tensor input")
            number_node = (arg_name, str(number_name))
        if output_differentiability is not None and (
                not isinstance(output_differentiability, list)
                or len(output_differentiability) != len(f.func.returns)
                or not all(isinstance(v, bool) for v in output_differentiability)):
            raise CodegenError(f"{loc}: output_differentiability must list True/False for each of the "
                               f"{len(f.func.returns)} outputs")
        formulas, joint, refuse_grad = {}, [], []
        for key, value in entry.items():
            names = [n.strip() for n in str(key).split(",")]
            for n in names:
                if n not in args or args[n].type.base != "Tensor":
                    raise CodegenError(f"{loc}: '{n}' is not a tensor input of {f.func.full_name}")
            if len(names) == 1 and str(value).strip() == "non_differentiable":
                continue
            if len(names) == 1 and str(value).strip() == "refuse_grad":
                refuse_grad.append(names[0])
            elif len(names) == 1:
                formulas[names[0]] = str(value).strip()
            else:
                for i, n in enumerate(names):
                    formulas[n] = f"std::get<{i}>(joint{len(joint)}_)"
                joint.append(str(value).strip())
        # Numbered per op name in file order, as PyTorch numbers them (PowBackward0, PowBackward1, ...).
        base = _camel(f.func.name)
        n = counters.get(base, 0)
        counters[base] = n + 1
        node = f"{base}Backward{n}"
        d = Derivative(f.func, formulas, node, loc=loc, display=explicit_node or node, joint=joint,
                       refuse_grad=refuse_grad, output_differentiability=output_differentiability,
                       number_node=number_node)
        _analyze(d)
        result[f.func.full_name] = d
    # In-place variants (add_.Tensor) share the entry of their op (add.Tensor).
    for f in functions:
        if not f.func.is_inplace or f.func.full_name in result or f.is_composite:
            continue
        twin = result.get(f.func.base_name + (f".{f.func.overload}" if f.func.overload else ""))
        if twin and [a.name for a in twin.schema.arguments] == [a.name for a in f.func.arguments]:
            result[f.func.full_name] = twin
    return result


# ---- C++ emission ----------------------------------------------------------------

_VALUE_TYPES = {
    ("Scalar", False, False): "at::Scalar",
    ("Scalar", True, False): "std::optional<at::Scalar>",
    ("int", False, False): "int64_t",
    ("int", True, False): "std::optional<int64_t>",
    ("int", False, True): "std::vector<int64_t>",
    ("int", True, True): "std::optional<std::vector<int64_t>>",
    ("bool", False, False): "bool",
    ("bool", True, False): "std::optional<bool>",
    ("float", False, False): "double",
    ("float", True, False): "std::optional<double>",
    ("str", False, False): "std::string",
    ("str", True, False): "std::optional<std::string>",
    ("ScalarType", True, False): "std::optional<at::ScalarType>",
    ("ScalarType", False, False): "at::ScalarType",
}


def _member_type(s: Saved) -> str:
    if s.kind in ("tensor", "output"):
        return "autograd::SavedVariable"
    if s.kind == "sizes":
        return "std::vector<int64_t>"
    if s.kind == "list_sizes":
        return "std::vector<std::vector<int64_t>>"
    t = s.arg.type
    return _VALUE_TYPES[(t.base, t.optional, t.is_list)]


def _save_expr(s: Saved, inplace: bool, formula_uses_self: bool) -> str:
    """The statement that fills member `s` before the kernel runs (inputs) or after (outputs)."""
    a = s.arg
    if s.kind == "tensor":
        value = f"{a.name}.value_or(at::Tensor())" if a.type.optional else a.name
        if inplace and a.name == "self":
            value = "self.clone()"  # the kernel is about to overwrite it
        return f"grad_fn_->{s.name}_ = autograd::SavedVariable({value}, false);"
    if s.kind == "sizes":
        return f"grad_fn_->{s.name}_ = {a.name}.sizes().vec();"
    if s.kind == "list_sizes":
        return f"for (const auto& t_ : {a.name}) grad_fn_->{s.name}_.push_back(t_.sizes().vec());"
    t = a.type
    if t.base == "int" and t.is_list and t.optional:
        return f"if ({a.name}) grad_fn_->{s.name}_ = {a.name}->vec();"
    if t.base == "int" and t.is_list:
        return f"grad_fn_->{s.name}_ = {a.name}.vec();"
    if t.base == "str" and t.optional:
        return f"if ({a.name}) grad_fn_->{s.name}_ = std::string(*{a.name});"
    if t.base == "str":
        return f"grad_fn_->{s.name}_ = std::string({a.name});"
    return f"grad_fn_->{s.name}_ = {a.name};"


def _unpack(s: Saved, node: str) -> str:
    if s.kind == "output":
        return f"const at::Tensor {s.name} = {s.name}_.unpack(\"{node}\");"
    if s.kind == "tensor":
        if s.arg.type.optional:
            return (f"const at::Tensor {s.name}_t_ = {s.name}_.unpack(\"{node}\");\n"
                    f"  const std::optional<at::Tensor> {s.name} = {s.name}_t_.defined() ? "
                    f"std::optional<at::Tensor>({s.name}_t_) : std::nullopt;")
        return f"const at::Tensor {s.name} = {s.name}_.unpack(\"{node}\");"
    if s.kind in ("sizes", "list_sizes"):
        return f"const auto& {s.name} = {s.name}_;"
    t = s.arg.type
    if t.base == "int" and t.is_list and t.optional:
        return (f"const at::OptionalIntArrayRef {s.name} = {s.name}_ ? at::OptionalIntArrayRef(*{s.name}_) : "
                "std::nullopt;")
    if t.base == "int" and t.is_list:
        return f"const at::IntArrayRef {s.name} = {s.name}_;"
    if t.base == "str" and t.optional:
        return (f"const std::optional<std::string_view> {s.name} = {s.name}_ ? "
                f"std::optional<std::string_view>(*{s.name}_) : std::nullopt;")
    if t.base == "str":
        return f"const std::string_view {s.name} = {s.name}_;"
    return f"const auto& {s.name} = {s.name}_;"


def node_declaration(d: Derivative) -> str:
    members = "\n".join(f"  {_member_type(s)} {s.name}_;" for s in d.saved)
    releases = " ".join(f"{s.name}_.reset_data();" for s in d.saved if s.kind in ("tensor", "output"))
    counts = "\n".join(f"  size_t {a.name}_count_ = 0;" for a in d.inputs() if a.type.is_list)
    if d.number_node:
        name = f"return from_number_ ? \"{d.number_node[1]}\" : \"{d.display}\";"
        members += "\n  bool from_number_ = false;"
    else:
        name = f"return \"{d.display}\";"
    return (
        f"struct TORCH_API {d.node} : Node {{\n"
        f"  std::string name() const override {{ {name} }}\n"
        "  variable_list apply(variable_list&& grads) override;\n"
        f"  void release_variables() override {{ {releases} }}\n"
        f"{members}\n{counts}\n"
        "};\n"
    )


def node_definition(d: Derivative) -> str:
    lines = [f"variable_list {d.node}::apply(variable_list&& grads) {{",
             "  const at::Tensor grad = grads.empty() ? at::Tensor() : grads[0];",
             "  (void)grad;"]
    for s in d.saved:
        lines.append("  " + _unpack(s, d.node))
        lines.append(f"  (void){s.name};")
    # Output slots: one per tensor input, a run of them per tensor-list input.
    lines.append("  size_t offset_ = 0;")
    lines.append("  variable_list grad_inputs;")
    for a in d.inputs():
        n = f"{a.name}_count_" if a.type.is_list else "1"
        lines.append(f"  const size_t {a.name}_ix_ = offset_;")
        lines.append(f"  offset_ += {n};")
    lines.append("  grad_inputs.resize(offset_);")
    for k, formula in enumerate(d.joint):
        lines.append(f"  const auto joint{k}_ = {formula};")
    for a in d.inputs():
        formula = d.formulas[a.name]
        if a.type.is_list:
            lines += [f"  {{",
                      f"    auto gs_ = {formula};",
                      f"    for (size_t i_ = 0; i_ < gs_.size(); ++i_)",
                      f"      if (next_edges_[{a.name}_ix_ + i_].is_valid()) grad_inputs[{a.name}_ix_ + i_] = gs_[i_];",
                      "  }"]
        else:
            lines.append(f"  if (next_edges_[{a.name}_ix_].is_valid()) grad_inputs[{a.name}_ix_] = {formula};")
    lines += ["  return grad_inputs;", "}", ""]
    return "\n".join(lines)


def recording(d: Derivative, f: NativeFunction, result_expr: list[str]) -> tuple[list[str], list[str]]:
    """Statements before the kernel (create the node, save inputs) and after (attach, save outputs)."""
    s = f.func
    inplace = s.is_inplace
    inputs = d.inputs()
    tensors = [a for a in inputs if not a.type.is_list]
    lists = [a for a in inputs if a.type.is_list]
    # An optional tensor input (clamp's min) takes part as an undefined tensor when absent.
    ref = {a.name: (f"{a.name}_or_undefined_" if a.type.optional else a.name) for a in tensors}
    before = [f"const at::Tensor {ref[a.name]} = {a.name}.value_or(at::Tensor());" for a in tensors if a.type.optional]
    for name in d.refuse_grad:
        a = next(x for x in s.arguments if x.name == name)
        if a.type.optional:
            before.append(f"const at::Tensor {name}_or_undefined_ = {name}.value_or(at::Tensor());")
        tensor = f"{name}_or_undefined_" if a.type.optional else name
        before.append(f"TORCH_CHECK(!autograd::any_requires_grad({{&{tensor}}}), "
                      f"\"The function '{s.name}' is not differentiable with respect to argument '{name}'. "
                      f"This input cannot have requires_grad True.\");")
    checks = []
    if tensors:
        checks.append("autograd::any_requires_grad({" + ", ".join(f"&{ref[a.name]}" for a in tensors) + "})")
    checks += [f"autograd::any_requires_grad({a.name})" for a in lists]
    # No differentiable input (histc: output_differentiability [False] alone): never a node.
    before += [f"std::shared_ptr<autograd::generated::{d.node}> grad_fn_;",
               f"if ({' || '.join(checks) or 'false'}) {{"]
    if inplace:
        before.append(f'  autograd::check_inplace(self, "{s.name}", {"true" if f.is_inplace_view else "false"});')
    before.append(f"  grad_fn_ = std::make_shared<autograd::generated::{d.node}>();")
    for a in inputs:
        if a.type.is_list:
            before.append(f"  grad_fn_->add_input_list({a.name});")
            before.append(f"  grad_fn_->{a.name}_count_ = {a.name}.size();")
        else:
            before.append(f"  grad_fn_->add_input({ref[a.name]});")
    if d.number_node:
        before.append(f"  grad_fn_->from_number_ = {d.number_node[0]}.unsafeGetTensorImpl()->is_wrapped_number();")
    uses_self = any(x.name == "self" and x.kind == "tensor" for x in d.saved)
    for saved in d.saved:
        if saved.kind != "output":
            before.append("  " + _save_expr(saved, inplace, uses_self))
    before.append("}")
    outputs = _returns(d.schema)
    if returns_list(s):
        if any(x.kind == "output" for x in d.saved):
            raise CodegenError(f"{d.loc}: a formula of an op returning Tensor[] cannot read its result")
        # Each element is one output; the formula reads them all as `grads`.
        after = ["if (grad_fn_) {",
                 "  grad_fn_->set_num_outputs(static_cast<uint32_t>(result_.size()));",
                 "  for (size_t i_ = 0; i_ < result_.size(); ++i_)",
                 "    autograd::set_history(result_[i_], grad_fn_, static_cast<uint32_t>(i_));",
                 "}"]
        return before, after
    after = ["if (grad_fn_) {", f"  grad_fn_->set_num_outputs({len(outputs)});"]
    if inplace and f.is_inplace_view:
        after.append("  autograd::set_history(self, grad_fn_, 0);  // new sizes, same values: the base keeps its history")
    elif inplace:
        after.append("  autograd::rebase_history(self, grad_fn_);  // CopySlices when self is a view")
    else:
        if len(result_expr) == 1 and d.output_differentiability is None:
            # sum(x, dtype=torch.int64) of an x that requires grad: an error, as in PyTorch
            # (an entry that lists output_differentiability, _to_copy, gives ints no history instead).
            after.append(f"  autograd::check_differentiable({result_expr[0]});")
        for i, expr in enumerate(result_expr):
            if d.output_differentiability is None or d.output_differentiability[i]:
                after.append(f"  autograd::set_history({expr}, grad_fn_, {i});")
    for saved in d.saved:
        if saved.kind == "output":
            after.append(f"  grad_fn_->{saved.name}_ = autograd::SavedVariable({result_expr[saved.output_index]}, true);")
    after.append("}")
    return before, after


def not_implemented_recording(f: NativeFunction, result_expr: list[str]) -> tuple[list[str], list[str]]:
    """An op without a formula: a gradient reaching it raises a clear error."""
    tensors = [a for a in f.func.arguments if a.type.base == "Tensor" and not a.is_out]
    singles = [a for a in tensors if not a.type.is_list]
    lists = [a for a in tensors if a.type.is_list]
    checks = []
    if singles:
        checks.append("autograd::any_requires_grad({" + ", ".join(
            f"&{a.name}" if not a.type.optional else f"&{a.name}.value()" for a in singles if not a.type.optional) + "})")
    checks += [f"autograd::any_requires_grad({a.name})" for a in lists]
    # An optional tensor counts when given (bincount's weights).
    checks += [f"({a.name}.has_value() && autograd::any_requires_grad({{&*{a.name}}}))"
               for a in singles if a.type.optional]
    checks = [c for c in checks if c != "autograd::any_requires_grad({})"]
    if not checks:
        return [], []
    if f.func.is_inplace:
        # Recording nothing would silently cut the graph: refuse instead.
        return [f"TORCH_CHECK_NOT_IMPLEMENTED(!({' || '.join(checks)}), \"the derivative for '{f.func.full_name}' is not "
                "implemented (an in-place op on a tensor that requires grad)\");"], []
    before = ["std::shared_ptr<autograd::NotImplementedBackward> grad_fn_;", f"if ({' || '.join(checks)}) {{",
              f'  grad_fn_ = std::make_shared<autograd::NotImplementedBackward>("{f.func.full_name}");']
    for a in singles:
        if not a.type.optional:
            before.append(f"  grad_fn_->add_input({a.name});")
        else:
            before.append(f"  if ({a.name}.has_value()) grad_fn_->add_input(*{a.name});")
    for a in lists:
        before.append(f"  grad_fn_->add_input_list({a.name});")
    before.append("}")
    after = ["if (grad_fn_) {", f"  grad_fn_->set_num_outputs({len(result_expr)});"]
    for i, expr in enumerate(result_expr):
        after.append(f"  autograd::set_history({expr}, grad_fn_, {i});")
    after.append("}")
    return before, after
