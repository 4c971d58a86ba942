"""The typed stubs (torch/_C/*.pyi, generated from native_functions.yaml) as
a user's type checker sees them: mypy on small programs against the
installed package, and the stubs' coverage of what the binding defines."""
import ast
import os
import subprocess
import sys
import textwrap

import pytest
import torch

STUBS = os.path.join(os.path.dirname(torch.__file__), "_C")

TYPED_PROGRAM = textwrap.dedent("""
    import torch

    x: torch.Tensor = torch.zeros(2, 3, dtype=torch.float64)
    y = torch.add(x, 1.0, alpha=2)
    z = x.reshape(3, 2) @ torch.ones(2, 3)
    values, indices = torch.sort(x, dim=1)
    top = x.topk(2).values
    n: int = x.dim() + x.numel() + x.size(0)
    shape: torch.Size = x.shape
    kind: torch.dtype = x.dtype
    where = torch.max(x, dim=0).indices
    reveal_type(y)
    reveal_type(torch.max(x, dim=0))
""")

WRONG_PROGRAM = textwrap.dedent("""
    import torch

    torch.zeros(2).sum(dim="rows")
    torch.add(torch.ones(1), "one")
    torch.no_such_op(1)
""")


def mypy(tmp_path, source):
    pytest.importorskip("mypy", reason="mypy comes with tests/requirements-typing.txt (README's test command)")
    path = tmp_path / "program.py"
    path.write_text(source)
    proc = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
                           "--python-version", f"{sys.version_info[0]}.{sys.version_info[1]}", str(path)],
                          capture_output=True, text=True, cwd=tmp_path)
    return proc.returncode, proc.stdout + proc.stderr


def test_a_typed_program_checks_clean(tmp_path):
    code, out = mypy(tmp_path, TYPED_PROGRAM)
    assert code == 0, out
    assert 'Revealed type is "torch._tensor.Tensor"' in out, out
    assert 'fallback=torch._C._return_types.max]"' in out, out  # a named tuple: .values, .indices


def test_wrong_calls_are_reported(tmp_path):
    code, out = mypy(tmp_path, WRONG_PROGRAM)
    assert code == 1, out
    for line in (4, 5, 6):
        assert f"program.py:{line}: error" in out, out


def _stub_names(path, cls=None):
    tree = ast.parse(open(path).read())
    body = tree.body
    if cls:
        body = next(n for n in body if isinstance(n, ast.ClassDef) and n.name == cls).body
    names = set()
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            names.add(node.target.id)
    return names


def test_stubs_cover_every_method_and_function_of_the_binding():
    methods = _stub_names(os.path.join(STUBS, "__init__.pyi"), "TensorBase")
    missing = {n for n in dir(torch._C.TensorBase) if n not in dir(object) and n not in methods} - {"__module__"}
    assert not missing, f"TensorBase attributes without a stub: {sorted(missing)}"
    functions = _stub_names(os.path.join(STUBS, "_VariableFunctions.pyi"))
    missing = {n for n in dir(torch._C._VariableFunctions) if not n.startswith("__") and n not in functions}
    assert not missing, f"torch._C._VariableFunctions functions without a stub: {sorted(missing)}"
    assert os.path.exists(os.path.join(os.path.dirname(torch.__file__), "py.typed"))
