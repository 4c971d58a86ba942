"""torch.backends.cpu.get_cpu_capability() and ATEN_CPU_CAPABILITY: the
reported level follows the CPU's flags, the variable caps it, and every
capped level computes what the widest one does. On an AVX-512 machine this
is how the portable loops and the AVX2 copies get tested at all."""
import json
import os
import platform
import subprocess
import sys

import pytest

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
LEVELS = ["DEFAULT", "AVX2", "AVX512"]


def _cpu_flags():
    """The CPU's feature flags, named as /proc/cpuinfo names them: from there
    on Linux, elsewhere (Windows, Wine, macOS) from numpy's own cpuid reading."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    try:
        from numpy._core._multiarray_umath import __cpu_features__
    except ImportError:
        from numpy.core._multiarray_umath import __cpu_features__
    names = {"F16C": "f16c", "AVX2": "avx2", "FMA3": "fma", "AVX512F": "avx512f", "AVX512BW": "avx512bw",
             "AVX512VL": "avx512vl", "AVX512DQ": "avx512dq"}
    return {flag for key, flag in names.items() if __cpu_features__.get(key)}


def _expected_native():
    """Every x86-64 build carries the AVX2 and AVX512 copies (Linux, macOS,
    Windows); other processors have the DEFAULT one only."""
    if platform.machine() not in ("x86_64", "AMD64"):
        return "DEFAULT"
    flags = _cpu_flags()
    if "f16c" not in flags:
        return "DEFAULT"
    if {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= flags:
        # macOS turns AVX-512 state on lazily, so XCR0 (which the library
        # reads) may not show it yet: AVX2 there is right too (below).
        return "AVX512"
    return "AVX2" if {"avx2", "fma"} <= flags else "DEFAULT"


NATIVE = _expected_native()
if sys.platform == "darwin" and NATIVE == "AVX512" and torch.backends.cpu.get_cpu_capability() == "AVX2":
    NATIVE = "AVX2"  # AVX-512 state not enabled yet (see _expected_native)


def _run(code, capability, **kwargs):
    env = dict(os.environ, ATEN_CPU_CAPABILITY=capability)
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300, **kwargs)


def test_reports_what_the_cpu_supports():
    if os.environ.get("ATEN_CPU_CAPABILITY"):
        pytest.skip("ATEN_CPU_CAPABILITY is set for this run")
    got = torch.backends.cpu.get_cpu_capability()
    assert got == NATIVE


@pytest.mark.parametrize("value", ["default", "avx2", "avx512"])
def test_the_variable_caps_the_level(value):
    got = _run("import torch; print(torch.backends.cpu.get_cpu_capability())", value)
    assert got.returncode == 0, got.stderr
    capped = LEVELS[min(LEVELS.index(value.upper()), LEVELS.index(NATIVE))]
    assert got.stdout.strip() == capped
    assert "ATEN_CPU_CAPABILITY" not in got.stderr


def test_an_unknown_value_is_named_and_ignored():
    got = _run("import torch; print(torch.backends.cpu.get_cpu_capability())", "sse9")
    assert got.returncode == 0, got.stderr
    assert got.stdout.strip() == NATIVE
    assert "invalid value for ATEN_CPU_CAPABILITY: 'sse9'" in got.stderr


# Pointwise ops over contiguous rows (the loops with wide copies, comparisons
# and masks among them), 16-bit
# float sums (the F16C path) and the exp family (the AVX-512 kernels), saved
# as raw bytes so the comparison below is bitwise.
_COMPUTE = r"""
import json
import numpy as np
import torch
rng = np.random.default_rng(0)
# Copies, not views of numpy memory: no tensor holds a numpy array when the
# interpreter exits (the sanitizer run's LeakSanitizer would count it).
x = torch.from_numpy((rng.standard_normal(1037) * 4).astype(np.float32)).clone()
y = torch.from_numpy((rng.standard_normal(1037) * 4).astype(np.float32)).clone()
finite = x.clone()
x[5], x[6], x[7] = float("nan"), float("inf"), -float("inf")
out = {}
for dtype in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
    a, b = x.to(dtype), y.to(dtype)
    out[f"add_alpha {dtype}"] = torch.add(a, b, alpha=3)
    out[f"mul {dtype}"] = a * b
    out[f"div {dtype}"] = a / b
    out[f"sqrt {dtype}"] = a.abs().sqrt()
    out[f"lerp {dtype}"] = torch.lerp(a, b, 0.3)
    out[f"addcmul {dtype}"] = torch.addcmul(a, a, b, value=0.5)
    out[f"clamp {dtype}"] = a.clamp(-1, 2)
    out[f"sum {dtype}"] = finite.to(dtype).sum()
    # Bool results and masks beside floating inputs (DEFINE_DISPATCH_WITH_BOOL_OPERANDS).
    zeros_and_nans = a.masked_fill(b > 1, 0)
    out[f"logical_or {dtype}"] = torch.logical_or(zeros_and_nans, a.masked_fill(b < -1, 0))
    out[f"logical_xor {dtype}"] = torch.logical_xor(zeros_and_nans, b)
    out[f"ne {dtype}"] = a != b
    out[f"le {dtype}"] = a <= b
    out[f"isnan {dtype}"] = torch.isnan(a)
    out[f"signbit {dtype}"] = torch.signbit(zeros_and_nans.neg())
    out[f"where {dtype}"] = torch.where(a > b, a, b)
    out[f"gt_ {dtype}"] = a.clone().gt_(b)
for dtype in (torch.int32, torch.uint8, torch.int64, torch.bool):
    # From finite values: NaN or inf cast to an integer is undefined in C++.
    a, b = finite.to(dtype), y.to(dtype)
    out[f"add {dtype}"] = a + b
    out[f"bitwise_xor {dtype}"] = a ^ b
    # LogicalOpsKernel.cpp's wide copies hold every dtype (TORCH_WIDE_COPY_ANY_DTYPE).
    out[f"lt {dtype}"] = a < b
    out[f"ne_ {dtype}"] = a.clone().ne_(b > 0)
    if dtype != torch.bool:
        out[f"shift {dtype}"] = torch.bitwise_left_shift(a, 3) ^ (b >> 1)
        # IntegerUnaryKernel.cpp's wide copies hold every dtype too.
        out[f"relu abs sign {dtype}"] = torch.stack([torch.relu(a), a.abs(), a.sign(), ~a])
        out[f"neg {dtype}"] = -a if dtype != torch.uint8 else a.clone().relu_()
    out[f"where {dtype}"] = torch.where(a > b, a, b)
    out[f"masked_fill {dtype}"] = a.masked_fill(b > 2, 7)
    out[f"logical_or {dtype}"] = torch.logical_or(a, b)
# 16-bit floats widen to float32 exactly, so their bytes compare as well.
exact = {k: (v.float() if v.dtype in (torch.float16, torch.bfloat16) else v).numpy().tobytes().hex()
         for k, v in out.items()}
approx = {
    "exp": torch.exp(x), "sigmoid": torch.sigmoid(x), "tanh": torch.tanh(x),
    "log": torch.log(x.abs()), "log1p": torch.log1p(x.abs()), "expm1": torch.expm1(x),
    "sin": torch.sin(x * 100), "cos": torch.cos(x * 100), "pow": x.abs() ** 2.5, "pow_tensor": x.abs() ** y,
    "softmax": torch.softmax(finite.view(17, 61), 1),
    "log_softmax": torch.log_softmax(finite.view(17, 61), 1),
    "layer_norm": torch.nn.functional.layer_norm(finite.view(17, 61), (61,)),
}
print(json.dumps([torch.backends.cpu.get_cpu_capability(), exact, {k: v.tolist() for k, v in approx.items()}]))
"""


def _compute(capability):
    got = _run(_COMPUTE, capability)
    assert got.returncode == 0, got.stderr
    return json.loads(got.stdout)


@pytest.mark.skipif(NATIVE == "DEFAULT", reason="one level only: nothing to compare")
@pytest.mark.parametrize("lower", ["default", "avx2"])
def test_every_level_computes_the_same(lower):
    import numpy as np

    if LEVELS.index(lower.upper()) >= LEVELS.index(NATIVE):
        pytest.skip(f"the CPU is {NATIVE}")
    native_level, native_exact, native_approx = _compute(NATIVE.lower())
    level, exact, approx = _compute(lower)
    assert (native_level, level) == (NATIVE, lower.upper())
    differ = [k for k in native_exact if native_exact[k] != exact[k]]
    assert not differ, f"{lower} and {NATIVE} differ bitwise in {differ}"
    for name, values in native_approx.items():
        np.testing.assert_allclose(approx[name], values, rtol=3e-7, atol=1e-7, err_msg=name)


@pytest.mark.parametrize("lower", ["default", "avx2"])
def test_the_vec_math_suite_passes_at_every_lower_level(lower, tmp_path):
    if LEVELS.index(lower.upper()) >= LEVELS.index(NATIVE):
        pytest.skip(f"the CPU is {NATIVE}: this level already ran in this process")
    env = dict(os.environ, ATEN_CPU_CAPABILITY=lower)
    files = [os.path.join(HERE, name) for name in ("test_vec_math.py", "test_vec_math_double.py", "test_kernel_paths.py")]
    got = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *files],
        env=env, capture_output=True, text=True, timeout=600, cwd=tmp_path,
    )
    assert got.returncode == 0, got.stdout[-3000:] + got.stderr[-2000:]
