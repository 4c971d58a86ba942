"""Unit tests of the code generator; they run in the checkout (no torch needed)."""
import os
import textwrap

import pytest

from tools.codegen import cpp, gen, python
from tools.codegen.model import CodegenError, FunctionSchema, Type, parse_native_functions

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
YAML = os.path.join(ROOT, "aten", "src", "ATen", "native", "native_functions.yaml")


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
    (f,) = [f for f in parse_native_functions(YAML) if f.func.full_name == "add.out"]
    decl = cpp.function_declaration(f)
    assert "add_out(const at::Tensor& out, const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha=1)" in decl


def test_out_overload_folds_into_its_functional_twin():
    groups = python.group_overloads(parse_native_functions(YAML), method=False)
    sigs = [o.signature() for o in groups["add"]]
    assert sigs == ["add(Tensor input, Tensor other, *, Scalar alpha=1, Tensor out=None)"]


def test_generation_writes_only_changed_files(tmp_path):
    out = tmp_path / "out"
    assert gen.main(["--yaml", YAML, "--out", str(out)]) == 0
    body = out / "aten" / "ATen" / "core" / "TensorBody.h"
    mtime = body.stat().st_mtime_ns
    assert gen.main(["--yaml", YAML, "--out", str(out)]) == 0
    assert body.stat().st_mtime_ns == mtime
    assert "@generated" in body.read_text()


def _definition(full_name):
    (f,) = [f for f in parse_native_functions(YAML) if f.func.full_name == full_name]
    return cpp.function_definition(f)


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
    body = cpp.function_definition(f)
    assert "case at::DeviceType::CPU:" in body and "case at::DeviceType::CUDA:" not in body
    assert 'no_kernel("frob", device_);' in body  # NotImplementedError (or "not compiled with CUDA")
