"""The scalar formulas shared by the CPU and CUDA kernels
(ATen/native/UnaryFunctors.h, BinaryFunctors.h), tested directly for every
floating dtype, by a C++ program compiled against the installed headers.

The CPU tests of the ops exercise these formulas except where the CPU has a
path of its own (dense float32 exp, sigmoid and tanh run VecMath's
polynomials): this is what makes "the CPU tests cover the arithmetic the GPU
runs" true for every dtype, float32 included.
"""
import json
import os
import shutil
import subprocess
import textwrap

import numpy as np
import pytest
import torch

INCLUDE = os.path.join(os.path.dirname(torch.__file__), "include")
UNARY = {
    "exp": np.exp, "log": np.log, "sqrt": np.sqrt, "reciprocal": lambda x: 1 / x,
    "sigmoid": lambda x: 1 / (1 + np.exp(-x)), "tanh": np.tanh, "log1p": np.log1p, "expm1": np.expm1,
    "rsqrt": lambda x: 1 / np.sqrt(x), "sin": np.sin, "cos": np.cos,
    "gelu": lambda x: 0.5 * x * (1 + np.vectorize(__import__("math").erf)(x / np.sqrt(2))),
    "gelu_tanh": lambda x: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3))),
    "floor": np.floor, "ceil": np.ceil, "round": np.round, "trunc": np.trunc,
}
PREDICATES = {"isnan": np.isnan, "isfinite": np.isfinite, "isinf": np.isinf}
BINARY = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater,
          "ge": np.greater_equal, "logical_and": np.logical_and, "logical_or": np.logical_or,
          "logical_xor": np.logical_xor}
POINTS = [0.0, 0.25, 0.5, 1.0, 2.5, 3.0, 7.75, 20.0, -0.5, -1.5, -3.0, -12.0]
SPECIAL = ["NAN", "INFINITY", "-INFINITY"]
# C++ element type -> (torch dtype, tolerance of one formula evaluation).
TYPES = {"double": (torch.float64, 1e-12), "float": (torch.float32, 1e-5),
         "c10::Half": (torch.float16, 2e-3), "c10::BFloat16": (torch.bfloat16, 1.6e-2)}


def _program():
    points = ", ".join(f"{p}" for p in POINTS)
    lines = []
    for t in TYPES:
        for op in UNARY:
            lines.append(f'  emit<{t}>("{t}", "{op}", [](const {t}& x) {{ return at::native::apply_formula<at::native::{op}_formula>(x); }});')
        for op in PREDICATES:
            lines.append(f'  emit_bool("{t}", "{op}", [](double v) {{ return at::native::{op}_formula{{}}(static_cast<c10::opmath_t<{t}>>(static_cast<{t}>(v))); }});')
        for op in BINARY:
            lines.append(f'  emit_pair("{t}", "{op}", [](double a, double b) {{ return at::native::apply_predicate<at::native::{op}_formula>(static_cast<{t}>(a), static_cast<{t}>(b)); }});')
    return textwrap.dedent("""
        #include <ATen/native/BinaryFunctors.h>
        #include <ATen/native/UnaryFunctors.h>
        #include <cmath>
        #include <cstdio>
        #include <type_traits>
        #include <vector>

        static const std::vector<double> points = {%s, NAN, INFINITY, -INFINITY};
        static bool first = true;
        template <typename T> double to_double(T v) {
          if constexpr (std::is_same_v<T, double>) return v; else return static_cast<double>(static_cast<float>(v));
        }
        static void sep() { std::printf(first ? "" : ","); first = false; }

        template <typename T, typename F> void emit(const char* type, const char* op, F f) {
          sep(); std::printf("\\n[\\"%%s\\", \\"%%s\\", [", type, op);
          for (size_t i = 0; i < points.size(); ++i)
            std::printf("%%s\\"%%.17g\\"", i ? ", " : "", to_double<T>(f(static_cast<T>(points[i]))));
          std::printf("]]");
        }
        template <typename F> void emit_bool(const char* type, const char* op, F f) {
          sep(); std::printf("\\n[\\"%%s\\", \\"%%s\\", [", type, op);
          for (size_t i = 0; i < points.size(); ++i) std::printf("%%s%%d", i ? ", " : "", f(points[i]) ? 1 : 0);
          std::printf("]]");
        }
        template <typename F> void emit_pair(const char* type, const char* op, F f) {
          sep(); std::printf("\\n[\\"%%s\\", \\"%%s\\", [", type, op);
          for (size_t i = 0; i < points.size(); ++i)
            std::printf("%%s%%d", i ? ", " : "", f(points[i], points[(i + 3) %% points.size()]) ? 1 : 0);
          std::printf("]]");
        }

        int main() {
          std::printf("[");
        %s
          std::printf("\\n]\\n");
        }
    """) % (points, "\n".join(lines))


@pytest.fixture(scope="module")
def formula_values(tmp_path_factory):
    compiler = shutil.which("c++") or shutil.which("g++")
    if compiler is None:
        pytest.skip("no C++ compiler")
    tmp = tmp_path_factory.mktemp("formulas")
    source = tmp / "formulas.cpp"
    source.write_text(_program())
    exe = tmp / "formulas"
    subprocess.run([compiler, "-std=c++17", "-O1", f"-I{INCLUDE}", str(source), "-o", str(exe)], check=True,
                   capture_output=True)
    rows = json.loads(subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout)
    return {(t, op): values for t, op, values in rows}


def _inputs(dtype):
    """The points as the element type holds them (rounded), in float64."""
    pts = np.array(POINTS + [np.nan, np.inf, -np.inf])
    return torch.tensor(pts, dtype=torch.float64).to(dtype).to(torch.float64).numpy()


@pytest.mark.build
@pytest.mark.parametrize("ctype", sorted(TYPES))
@pytest.mark.parametrize("op", sorted(UNARY))
def test_unary_formula(formula_values, ctype, op):
    dtype, tol = TYPES[ctype]
    x = _inputs(dtype)
    got = np.array([float(v) for v in formula_values[(ctype, op)]])
    with np.errstate(all="ignore"):
        want = UNARY[op](x)
    # The result is rounded to the element type, as the kernels store it.
    want = torch.tensor(want, dtype=torch.float64).to(dtype).to(torch.float64).numpy()
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True, err_msg=f"{op} in {ctype}")


@pytest.mark.build
@pytest.mark.parametrize("ctype", sorted(TYPES))
def test_predicate_formulas(formula_values, ctype):
    x = _inputs(TYPES[ctype][0])
    for op, ref in PREDICATES.items():
        assert formula_values[(ctype, op)] == ref(x).astype(int).tolist(), f"{op} in {ctype}"
    y = np.roll(x, -3)
    for op, ref in BINARY.items():
        assert formula_values[(ctype, op)] == ref(x, y).astype(int).tolist(), f"{op} in {ctype}"
