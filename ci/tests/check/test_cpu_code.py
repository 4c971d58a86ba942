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


def test_scan_counts_calls_and_tail_jumps_to_a_function_start_only():
    lines = [
        "0000000000001000 <run(float const*)>:",
        "    1000:      \tcall\t0x2000 <helper(float const*, float*, int)>",
        "    1005:      \tjmp\t0x1010 <run(float const*)+0x10>",
        "    100a:      \tjmp\t0x3000 <std::vector<long, std::allocator<long> >::operator+=(long)>",
        "    1010:      \tvmovups\t%ymm0, (%rax)",
        "0000000000002000 <helper(float const*, float*, int)>:",
        "    2000:      \tvaddps\t%zmm1, %zmm2, %zmm3",
        "    2006:      \tmovq\t%rax, %rbx  # ymm in a comment is not an instruction",
    ]
    widest, callers, ymm, zmm = check_cpu_code.scan(lines)
    assert (ymm, zmm) == (1, 1)
    assert widest == {("1000", "run(float const*)"): 1, ("2000", "helper(float const*, float*, int)"): 2}
    run = ("1000", "run(float const*)")
    assert callers == {"2000": {run}, "3000": {run}}  # not 1010: a jump inside run


def test_a_passed_library_is_checked_once(tmp_path, monkeypatch):
    import zipfile

    from ci.check import wheel as check_wheel

    lib = build(tmp_path, {"base.cpp": ("-O2", "float base(float a) { return a + 1; }")})
    wheel = tmp_path / "torch-1.0-cp311-cp311-manylinux_2_35_x86_64.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        z.write(lib, "torch/lib/libtorch_cpu.so")
    monkeypatch.setattr(check_wheel, "CPU_CODE_PASSED", str(tmp_path / "passed"))
    calls = []
    real_check = check_cpu_code.check
    monkeypatch.setattr(check_cpu_code, "check", lambda path: calls.append(path) or real_check(path))
    first = check_wheel.cpu_code_summary(str(wheel))
    second = check_wheel.cpu_code_summary(str(wheel))
    assert len(calls) == 1 and "ymm" in first and second.startswith(first) and "passed before" in second
    # A failing library is checked every time, and fails every time.
    monkeypatch.setattr(check_cpu_code, "check", lambda path: calls.append(path) or (["no zmm"], "summary"))
    other = tmp_path / "torch-2.0-cp311-cp311-manylinux_2_35_x86_64.whl"
    with zipfile.ZipFile(other, "w") as z:
        z.writestr("torch/lib/libtorch_cpu.so", b"another library")
    for _ in range(2):
        with pytest.raises(SystemExit, match="no zmm"):
            check_wheel.cpu_code_summary(str(other))
    assert len(calls) == 3
