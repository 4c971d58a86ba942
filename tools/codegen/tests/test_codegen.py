"""Unit tests of the code generator; they run in the checkout (no torch needed)."""
import os
import textwrap

import pytest

from tools.codegen import autograd, cpp, functions, gen, python
from tools.codegen.context import CodegenContext
from tools.codegen.model import CodegenError, FunctionSchema, Type, parse_native_functions

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
YAML = os.path.join(ROOT, "aten", "src", "ATen", "native", "native_functions.yaml")
DERIVATIVES = os.path.join(ROOT, "aten", "src", "ATen", "native", "derivatives.yaml")
CTX = CodegenContext.load(YAML, DERIVATIVES)


def test_every_schema_round_trips():
    for f in parse_native_functions(YAML):
        assert FunctionSchema.parse(str(f.func)) == f.func


@pytest.mark.parametrize("text", [
    "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
    "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
    "sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
    "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
])
def test_schema_parse(text):
    assert str(FunctionSchema.parse(text)) == text


def test_types():
    t = Type.parse("Tensor(a!)")
    assert t.mutable and t.alias == "a" and t.is_tensor
    assert Type.parse("int[2]").list_size == 2
    assert Type.parse("int[1]?").optional
    with pytest.raises(CodegenError, match="unknown type 'Tnesor'"):
        Type.parse("Tnesor")


def _yaml(tmp_path, text):
    path = tmp_path / "native_functions.yaml"
    path.write_text(textwrap.dedent(text))
    return str(path)


def test_unknown_key_is_an_error_with_file_and_line(tmp_path):
    path = _yaml(tmp_path, """
        - func: neg(Tensor self) -> Tensor

        - func: exp(Tensor self) -> Tensor
          dispach:
            CPU: exp
    """)
    with pytest.raises(CodegenError, match=r"native_functions.yaml:4: unknown keys \['dispach'\]"):
        parse_native_functions(path)


def test_duplicate_and_bad_dispatch_are_errors(tmp_path):
    with pytest.raises(CodegenError, match="declared twice"):
        parse_native_functions(_yaml(tmp_path, """
            - func: neg(Tensor self) -> Tensor
            - func: neg(Tensor self) -> Tensor
        """))
    with pytest.raises(CodegenError, match="unknown dispatch key 'GPU'"):
        parse_native_functions(_yaml(tmp_path, """
            - func: neg(Tensor self) -> Tensor
              dispatch:
                GPU: neg
        """))


def test_cpp_signatures_put_out_first():
    (f,) = [f for f in CTX.functions if f.func.full_name == "add.out"]
    decl = cpp.function_declaration(f, CTX.no_cpp_defaults)
    assert "add_out(const at::Tensor& out, const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha=1)" in decl


def test_out_overload_folds_into_its_functional_twin():
    groups = python.group_overloads(parse_native_functions(YAML), method=False)
    sigs = [o.signature() for o in groups["add"]]
    assert sigs == ["add(Tensor input, Tensor other, *, Scalar alpha=1, Tensor out=None)|numbers=input,other"]


def test_generation_writes_only_changed_files(tmp_path):
    out = tmp_path / "out"
    assert gen.main(["--yaml", YAML, "--out", str(out)]) == 0
    body = out / "aten" / "ATen" / "core" / "TensorBody.h"
    mtime = body.stat().st_mtime_ns
    assert gen.main(["--yaml", YAML, "--out", str(out)]) == 0
    assert body.stat().st_mtime_ns == mtime
    assert "@generated" in body.read_text()


def _definition(full_name, ctx=CTX):
    (f,) = [f for f in ctx.functions if f.func.full_name == full_name]
    return functions.function_definition(ctx, f)


def test_kernels_get_tensors_of_their_device_only():
    add = _definition("add.Tensor")
    # A 0-d CPU tensor does not choose the device; every tensor is checked against it.
    assert "at::detail::dispatch_device({&self, &other})" in add
    assert 'check_same_device("add", device_, {&self, &other});' in add
    assert "case at::DeviceType::CUDA:" in add
    assert 'check_same_device("cat", device_, tensors);' in _definition("cat")
    # copy_ moves data between devices: no check; one-tensor ops need none.
    assert "check_same_device" not in _definition("copy_")
    assert "check_same_device" not in _definition("neg")


def test_ops_without_cuda_kernels_dispatch_only_on_cpu(tmp_path):
    path = _yaml(tmp_path, """
        - func: frob(Tensor self) -> Tensor
          dispatch:
            CPU: frob_cpu
        """)
    (f,) = parse_native_functions(path)
    body = functions.function_definition(CodegenContext.build([f], {}), f)
    assert "case at::DeviceType::CPU:" in body and "case at::DeviceType::CUDA:" not in body
    assert 'no_kernel("frob", device_);' in body  # NotImplementedError (or "not compiled with CUDA")


def test_emitters_depend_on_their_context_alone():
    # The same function, emitted in any order and next to any other context,
    # reads the derivatives of the context it is given.
    without = CodegenContext.build(list(CTX.functions), {})
    first = _definition("sigmoid", CTX)
    assert "SigmoidBackward0" in first and "NotImplementedBackward" not in first
    assert "NotImplementedBackward" in _definition("sigmoid", without)
    assert _definition("sigmoid", CTX) == first


def test_context_is_frozen():
    with pytest.raises(Exception):
        CTX.derivatives["sigmoid"] = None
    with pytest.raises(Exception):
        CTX.no_cpp_defaults = frozenset()


def test_node_names_follow_pytorch(tmp_path):
    names = {k: d.display for k, d in CTX.derivatives.items()}
    assert names["copy_"] == "torch::autograd::CopyBackwards"  # node_name in derivatives.yaml
    assert names["log1p"] == "Log1PBackward0"  # PyTorch's capitalisation
    assert names["add_.Tensor"] == names["add.Tensor"] == "AddBackward0"
    assert names["_convolution_batched"] == "ConvolutionBackward0"
    # Two ops may show one name (PyTorch's PowBackward0 for pow and pow_) but keep classes of their own.
    assert names["pow.Tensor_Scalar"] == names["pow_.Scalar"] == "PowBackward0"
    assert CTX.derivatives["pow.Tensor_Scalar"].node != CTX.derivatives["pow_.Scalar"].node


def test_yaml_fields_reach_the_bindings(tmp_path):
    path = _yaml(tmp_path, """
        - func: frob(Tensor self, Tensor other) -> Tensor
          numbers_as_tensors: [other]
          dispatch:
            CPU: frob
        - func: knob(Tensor self) -> Tensor
          python_module: nn
          device_check: NoCheck
          dispatch:
            CPU: knob
        """)
    fs = parse_native_functions(path)
    (frob,) = python.group_overloads(fs, method=False)["frob"]
    assert frob.signature() == "frob(Tensor input, Tensor other)|numbers=other"
    assert "knob" not in python.group_overloads(fs, method=False)
    assert "knob" in python.group_overloads(fs, method=False, module="nn")
    ctx = CodegenContext.build(fs, {})
    assert "check_same_device" in functions.function_definition(ctx, fs[0])
    assert "check_same_device" not in functions.function_definition(ctx, fs[1])


@pytest.mark.parametrize("entry, message", [
    ("  python_module: fft", "unknown python_module 'fft'"),
    ("  device_check: Sometimes", "unknown device_check 'Sometimes'"),
    ("  numbers_as_tensors: [alpha]", "numbers_as_tensors must list tensor arguments"),
])
def test_bad_yaml_fields_are_errors(tmp_path, entry, message):
    path = _yaml(tmp_path, "- func: frob(Tensor self, Tensor other, Scalar alpha) -> Tensor\n" + entry + "\n")
    with pytest.raises(CodegenError, match=message):
        parse_native_functions(path)


def test_stubs_type_each_overload():
    from tools.codegen import stubs

    funcs = python.group_overloads(CTX.functions, method=False)
    add = stubs.stubs({"add": funcs["add"]}, method=False)
    assert "def add(input: Tensor | Number, other: Tensor | Number, *, alpha: Number = ..., " \
           "out: Tensor | None = ...) -> Tensor: ..." in add
    zeros = stubs.stubs({"zeros": funcs["zeros"]}, method=False).splitlines()
    # The size list is also taken as varargs: two overloads.
    assert zeros[0] == "@overload" and any(line.startswith("def zeros(*size: int, dtype: ") for line in zeros)
    methods = python.group_overloads(CTX.functions, method=True)
    sort = stubs.stubs({"sort": methods["sort"]}, method=True)
    assert "    def sort(self, dim: int = ..., descending: _bool = ...) -> _return_types.sort: ..." in sort
    assert "class sort(tuple[Tensor, Tensor]):" in stubs.return_type_classes([methods])
    random_ = stubs.stubs({"random_": methods["random_"]}, method=True)
    assert "from_: int" in random_  # a Python keyword as a name: positional only


def test_refuse_grad_inputs_are_refused_when_they_require_grad():
    text = _definition("nll_loss")
    assert "const at::Tensor weight_or_undefined_ = weight.value_or(at::Tensor());" in text
    assert "is not differentiable with respect to argument 'weight'" in text
    assert "add_input(weight" not in text


def test_non_differentiable_inputs_are_ignored_as_in_pytorch():
    # lu_unpack's LU_pivots: no gradient, and its requires_grad is not looked at.
    text = _definition("lu_unpack")
    assert "argument 'LU_pivots'" not in text and "add_input(LU_pivots" not in text
    assert "autograd::any_requires_grad({&LU_data})" in text and "grad_fn_->add_input(LU_data);" in text


def test_outputs_marked_not_differentiable_get_no_history():
    text = _definition("native_layer_norm")
    assert "autograd::set_history(std::get<0>(result_), grad_fn_, 0);" in text
    assert "set_history(std::get<1>" not in text and "set_history(std::get<2>" not in text


def test_output_differentiability_must_cover_every_output(tmp_path):
    from tools.codegen.autograd import parse_derivatives

    path = _yaml(tmp_path, """
        - func: frob(Tensor self) -> (Tensor, Tensor)
          dispatch:
            CPU: frob
        """)
    fs = parse_native_functions(path)
    deriv = tmp_path / "derivatives.yaml"
    deriv.write_text("- name: frob(Tensor self) -> (Tensor, Tensor)\n  output_differentiability: [True]\n"
                     "  self: grads[0]\n")
    with pytest.raises(CodegenError, match="output_differentiability must list True/False for each of the 2"):
        parse_derivatives(str(deriv), fs)


def test_a_python_number_argument_can_name_the_node():
    # rsub(x, 2) shows RsubBackward1 in PyTorch (its Scalar overload), rsub(x, y) RsubBackward0.
    text = _definition("rsub.Tensor")
    assert "grad_fn_->from_number_ = other.unsafeGetTensorImpl()->is_wrapped_number();" in text
    from tools.codegen import autograd

    node = next(d for d in CTX.derivatives.values() if d.schema.full_name == "rsub.Tensor")
    assert 'return from_number_ ? "RsubBackward1" : "RsubBackward0";' in autograd.node_declaration(node)


def test_an_op_returning_a_tensor_list_gives_each_element_history():
    text = _definition("split.Tensor")
    assert "grad_fn_->set_num_outputs(static_cast<uint32_t>(result_.size()));" in text
    assert "autograd::set_history(result_[i_], grad_fn_, static_cast<uint32_t>(i_));" in text
