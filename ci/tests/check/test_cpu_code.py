"""check_cpu_code.py on small libraries g++ builds here: kernel copies in
their capability namespaces pass; wide instructions reachable from baseline
code, or a missing AVX2/AVX-512 copy, fail."""
import platform
import shutil
import subprocess

import pytest

from ci.check import cpu_code as check_cpu_code

pytestmark = pytest.mark.skipif(
    platform.machine() != "x86_64" or not shutil.which("g++") or not (shutil.which("llvm-objdump") or
                                                                       shutil.which("objdump")),
    reason="needs an x86-64 g++ and a disassembler")

LOOP = "for (int i = 0; i < n; ++i) y[i] = x[i] * 2.0f + 1.0f;"
COPIES = {
    "avx2.cpp": ("-mavx2", f"namespace at::native {{ inline namespace AVX2 {{ void k(const float* x, float* y, int n) {{ {LOOP} }} }} }}"),
    "avx512.cpp": ("-mavx512f", f"namespace at::native {{ inline namespace AVX512 {{ void k2(const float* x, float* y, int n) {{ {LOOP} }} }} }}"),
}


def build(tmp_path, extra):
    """A shared library from COPIES plus `extra` ({file: (flags, source)}),
    hidden visibility as the project builds (calls are direct, not via a PLT)."""
    objects = []
    for name, (flags, source) in {**COPIES, **extra}.items():
        src = tmp_path / name
        src.write_text(source)
        obj = tmp_path / (name + ".o")
        subprocess.run(["g++", "-O3", "-fPIC", "-fvisibility=hidden", "-c", flags, str(src), "-o", str(obj)], check=True)
        objects.append(str(obj))
    lib = tmp_path / "libk.so"
    subprocess.run(["g++", "-shared", "-o", str(lib), *objects], check=True)
    return str(lib)


def test_copies_in_their_namespaces_pass(tmp_path):
    baseline = {"base.cpp": ("-O2", "float base(float a) { return a + 1; }")}
    problems, summary = check_cpu_code.check(build(tmp_path, baseline))
    assert problems == [], problems
    assert "ymm" in summary and "zmm" in summary


def test_wide_code_called_from_baseline_code_fails(tmp_path):
    # A helper compiled with AVX2 outside any copy's namespace, called by a
    # baseline function: what a wide copy's out-of-line inline function kept
    # by the linker would look like.
    helper = {
        "helper.cpp": ("-mavx2", f"void helper(const float* x, float* y, int n) {{ {LOOP} }}"),
        "caller.cpp": ("-O2", "void helper(const float*, float*, int); void run(const float* x, float* y) { helper(x, y, 64); }"),
    }
    problems, _ = check_cpu_code.check(build(tmp_path, helper))
    assert any("helper" in p and "ymm" in p and "run(" in p for p in problems), problems


def test_a_missing_copy_fails(tmp_path):
    lib = tmp_path / "libbase.so"
    (tmp_path / "b.cpp").write_text(f"void k(const float* x, float* y, int n) {{ {LOOP} }}")
    subprocess.run(["g++", "-O3", "-fPIC", "-shared", str(tmp_path / "b.cpp"), "-o", str(lib)], check=True)
    problems, _ = check_cpu_code.check(str(lib))
    assert any("AVX2" in p for p in problems) and any("AVX-512" in p for p in problems), problems
