"""Unary pointwise ops."""
import math

import numpy as np

import torch

from .core import ALL, FLOATS, INTS, NUMERIC, ErrorInput, KnownValue, OpInfo, SampleInput, float_result, make_array

SHAPES = [(), (5,), (3, 4), (2, 3, 4), (0, 3)]


def unary_samples(op, dtype, rng):
    for shape in SHAPES:
        yield SampleInput((make_array(shape, dtype, rng, op.domain),), desc=f"shape={shape}")


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x.astype(np.float64)))


def _float(fn):
    """Reference for ops that lift integers to float."""
    return lambda x: fn(x.astype(np.float64) if x.dtype.kind in "biu" else x)


def unary(name, ref, dtypes=FLOATS + (torch.int32, torch.int64), to_float=True, domain=(-5.0, 5.0), **kw):
    return OpInfo(
        name=name,
        ref=_float(ref) if to_float else ref,
        dtypes=dtypes,
        sample_inputs=unary_samples,
        result_dtype=float_result if to_float else (lambda d: d),
        inplace=kw.pop("inplace", True),
        supports_out=kw.pop("supports_out", True),
        domain=domain,
        **kw,
    )


def _bool_neg_error():
    yield ErrorInput((torch.tensor([True, False]),), {}, RuntimeError, "Negation, the `-` operator, on a bool tensor")


def _gelu(x):
    from math import erf, sqrt

    x64 = x.astype(np.float64)
    return 0.5 * x64 * (1 + np.vectorize(lambda v: erf(v / sqrt(2)))(x64)) if x64.size else x64


def _math(fn):
    """A reference from the math module, elementwise in float64."""
    def ref(x):
        x64 = x.astype(np.float64)
        return np.vectorize(fn, otypes=[np.float64])(x64) if x64.size else x64
    return ref


def _gelu_tanh(x, approximate="tanh"):
    x64 = x.astype(np.float64)
    return 0.5 * x64 * (1 + np.tanh(np.sqrt(2 / np.pi) * (x64 + 0.044715 * x64**3)))


def _elu(x, alpha=1.0, scale=1.0, input_scale=1.0):
    x64 = x.astype(np.float64)
    return np.where(x64 > 0, x64 * scale, np.expm1(np.minimum(x64, 0) * input_scale) * alpha * scale)


def _softplus(x, beta=1.0, threshold=20.0):
    x64 = x.astype(np.float64)
    return np.where(x64 * beta > threshold, x64, np.log1p(np.exp(np.minimum(x64 * beta, threshold))) / beta)


def _hardsigmoid(x):
    return np.clip(x.astype(np.float64) + 3, 0, 6) / 6


def _with_special_values(op, dtype, rng):
    yield from unary_samples(op, dtype, rng)
    if dtype.is_floating_point:
        yield SampleInput((np.array([np.nan, np.inf, -np.inf, 0.0, 1.5], dtype=np.float64).astype(
            {torch.float32: np.float32, torch.float64: np.float64}[dtype]),), desc="nan and inf")


def _nan_to_num_samples(op, dtype, rng):
    """The defaults (0 and the dtype's extremes), then replacements given
    positionally and by keyword; integer tensors pass through unchanged."""
    yield from _with_special_values(op, dtype, rng)
    for s in list(_with_special_values(op, dtype, rng))[-1:]:
        yield SampleInput(s.args, {"nan": 1.5, "posinf": 2.0, "neginf": -3.0}, s.desc + ", replacements")
        yield SampleInput(s.args + (7.0,), {"neginf": -1e30}, s.desc + ", nan positionally")


UNARY_OPS = [
    unary("neg", np.negative, dtypes=NUMERIC, to_float=False, error_inputs=_bool_neg_error),
    # PyTorch has no abs for bool: NotImplementedError, like every dtype a kernel lacks.
    unary("abs", np.abs, dtypes=NUMERIC, to_float=False, error_inputs=lambda: [
        ErrorInput((torch.tensor([True]),), {}, NotImplementedError, "not implemented for 'Bool'"),
        # out= of a dtype-preserving op must have self's dtype, checked before the kernel's dtype.
        ErrorInput((torch.tensor([1.5], dtype=torch.float64),), {"out": torch.empty(1)}, RuntimeError,
                   "Found dtype Float but expected Double"),
        ErrorInput((torch.tensor([True]),), {"out": torch.empty(1, dtype=torch.int32)}, RuntimeError,
                   "Found dtype Int but expected Bool")]),
    unary("square", np.square, dtypes=NUMERIC, to_float=False, supports_out=False),
    unary("relu", lambda x: np.maximum(x, 0).astype(x.dtype), dtypes=NUMERIC, to_float=False, supports_out=False,
          known_values=lambda: [KnownValue((torch.tensor([-1.0, float("nan"), 2.0]),), {},
                                           torch.tensor([0.0, 1.0, 1.0]), grad_of=0, why="NaN passes the gradient")]),
    unary("exp", np.exp),
    unary("log", np.log, domain=(0.1, 10.0)),
    unary("sqrt", np.sqrt, domain=(0.0, 10.0)),
    unary("reciprocal", lambda x: 1.0 / x, domain=(0.5, 5.0)),
    unary("sigmoid", _sigmoid),
    unary("tanh", np.tanh),
    unary("log1p", np.log1p, domain=(0.0, 5.0)),
    unary("expm1", np.expm1),
    unary("rsqrt", lambda x: 1 / np.sqrt(x), domain=(0.5, 5.0)),
    unary("sin", np.sin),
    unary("cos", np.cos),
    unary("tan", np.tan, domain=(-1.4, 1.4)),
    unary("asin", np.arcsin, domain=(-0.95, 0.95)),
    unary("acos", np.arccos, domain=(-0.95, 0.95)),
    unary("atan", np.arctan),
    unary("sinh", np.sinh),
    unary("cosh", np.cosh),
    unary("asinh", np.arcsinh),
    unary("acosh", np.arccosh, domain=(1.05, 5.0)),
    unary("atanh", np.arctanh, domain=(-0.95, 0.95)),
    unary("erf", _math(math.erf)),
    unary("erfc", _math(math.erfc)),
    unary("log2", np.log2, domain=(0.1, 10.0)),
    unary("log10", np.log10, domain=(0.1, 10.0)),
    unary("exp2", np.exp2),
    unary("deg2rad", np.deg2rad),
    unary("rad2deg", np.rad2deg),
    # numpy's angle is atan2(0, x): pi at -0, where PyTorch gives 0. No in-place form.
    unary("angle", lambda x: np.where(np.isnan(x), x, np.where(x < 0, np.pi, 0.0)), dtypes=ALL, inplace=False,
          known_values=lambda: [KnownValue((torch.tensor([-0.0, -2.0, float("nan"), float("-inf")]),), {},
                                           torch.tensor([0.0, math.pi, float("nan"), math.pi]))]),
    # Floating types only, as PyTorch's kernel: NotImplementedError for integers and bool.
    unary("frac", lambda x: x - np.trunc(x), dtypes=FLOATS, to_float=False, error_inputs=lambda: [
        ErrorInput((torch.tensor([1, 2]),), {}, NotImplementedError, "\"frac_cpu\" not implemented for 'Long'"),
        ErrorInput((torch.tensor([True]),), {}, NotImplementedError, "not implemented for 'Bool'")]),
    unary("sign", np.sign, dtypes=NUMERIC, to_float=False),
    unary("floor", np.floor, dtypes=NUMERIC, to_float=False),
    unary("ceil", np.ceil, dtypes=NUMERIC, to_float=False, error_inputs=lambda: [
        ErrorInput((torch.ones(2, dtype=torch.int64),), {"out": torch.empty(2, dtype=torch.float64)}, RuntimeError,
                   "Found dtype Double but expected Long")]),
    unary("round", np.round, dtypes=NUMERIC, to_float=False),
    unary("trunc", np.trunc, dtypes=NUMERIC, to_float=False),
    unary("bitwise_not", np.invert, dtypes=INTS + (torch.bool,), to_float=False),
    OpInfo("logical_not", np.logical_not, ALL, unary_samples, result_dtype=lambda d: torch.bool, inplace=True,
           inplace_casts_result=True),
    # torch.nn.functional.gelu, as in PyTorch: neither torch.gelu nor Tensor.gelu exists.
    OpInfo("gelu", _gelu, FLOATS, unary_samples, op=torch.nn.functional.gelu, method=False),
    OpInfo("gelu", _gelu_tanh, FLOATS,
           lambda op, d, rng: (SampleInput(s.args, {"approximate": "tanh"}, s.desc) for s in unary_samples(op, d, rng)),
           variant="tanh", op=torch.nn.functional.gelu, method=False),
    # at::elu, torch::elu in C++ extensions; torch._C._nn.elu from Python, as in PyTorch.
    OpInfo("elu", _elu, FLOATS, unary_samples, op=torch._C._nn.elu, method=False,
           error_inputs=lambda: [ErrorInput((torch.ones(2, dtype=torch.int64),), {}, NotImplementedError,
                                            "\"elu_cpu\" not implemented for 'Long'")]),
    OpInfo("elu", _elu, FLOATS,
           lambda op, d, rng: (SampleInput(s.args, {"alpha": 0.5, "scale": 1.5, "input_scale": 2.0}, s.desc)
                               for s in unary_samples(op, d, rng)),
           variant="scaled", op=torch._C._nn.elu, method=False),
    # The piecewise activations, where PyTorch binds them; a CPU kernel each.
    OpInfo("threshold", lambda x, t, v: np.where(x <= t, np.array(v).astype(x.dtype), x), NUMERIC,
           lambda op, d, rng: (SampleInput(s.args + (1, -2), {}, s.desc) for s in unary_samples(op, d, rng)),
           method=False,
           error_inputs=lambda: [ErrorInput((torch.tensor([True]), 0, 1), {}, NotImplementedError,
                                            "\"threshold_cpu\" not implemented for 'Bool'")]),
    OpInfo("leaky_relu", lambda x, slope=0.01: np.where(x > 0, x, x * np.array(slope, x.dtype)), FLOATS,
           lambda op, d, rng: (SampleInput(s.args + (0.2,), {}, s.desc) for s in unary_samples(op, d, rng)),
           op=torch._C._nn.leaky_relu, method=False,
           error_inputs=lambda: [ErrorInput((torch.ones(2, dtype=torch.int64),), {}, NotImplementedError,
                                            "\"leaky_relu_cpu\" not implemented for 'Long'")]),
    OpInfo("_prelu_kernel", lambda x, w: np.where(x > 0, x, x * w), FLOATS,
           lambda op, d, rng: (SampleInput((make_array(shape, d, rng), make_array(wshape, d, rng, (0.0, 1.0))),
                                           desc=f"{shape} weight {wshape}")
                               for shape, wshape in (((2, 3, 4), (1, 3, 1)), ((5,), (1,)), ((), ()), ((0, 3), (1, 3)),
                                                     ((2, 3, 4, 5), (1, 3, 1, 1)))),
           method=False, takes_numbers=False,
           error_inputs=lambda: [ErrorInput((torch.ones(2, dtype=torch.int64), torch.ones(1, dtype=torch.int64)), {},
                                            NotImplementedError, "\"prelu_cpu\" not implemented for 'Long'"),
                                 ErrorInput((torch.ones(2), torch.ones(1, dtype=torch.float64)), {}, RuntimeError,
                                            "Found dtype Double but expected Float")]),
    OpInfo("hardshrink", lambda x, lambd=0.5: np.where((x >= -lambd) & (x <= lambd), np.zeros_like(x), x), FLOATS,
           lambda op, d, rng: (SampleInput(s.args, {"lambd": 1.5}, s.desc) for s in unary_samples(op, d, rng)),
           error_inputs=lambda: [ErrorInput((torch.ones(2, dtype=torch.int64),), {}, NotImplementedError,
                                            "\"hardshrink_cpu\" not implemented for 'Long'")]),
    OpInfo("softshrink", lambda x, lambd=0.5: np.where(x > lambd, x - np.array(lambd, x.dtype), np.where(
               x < -lambd, x + np.array(lambd, x.dtype), x * 0)), FLOATS,
           lambda op, d, rng: (SampleInput(s.args, {"lambd": 1.5}, s.desc) for s in unary_samples(op, d, rng)),
           op=torch._C._nn.softshrink, method=False,
           error_inputs=lambda: [ErrorInput((torch.ones(2, dtype=torch.int64),), {}, NotImplementedError,
                                            "\"softshrink_cpu\" not implemented for 'Long'"),
                                 ErrorInput((torch.ones(2),), {"lambd": -1.0}, RuntimeError,
                                            r"lambda must be in range \[0, 3.40282e\+38\] for input dtype Float, but found -1")]),
    # softplus, hardsigmoid and hardswish: torch._C._nn, a CPU kernel each.
    OpInfo("softplus", _softplus, FLOATS, unary_samples, op=torch._C._nn.softplus, method=False,
           error_inputs=lambda: [ErrorInput((torch.ones(2, dtype=torch.int64),), {}, NotImplementedError,
                                            "\"softplus_cpu\" not implemented for 'Long'")]),
    OpInfo("softplus", _softplus, FLOATS,
           lambda op, d, rng: (SampleInput(s.args, {"beta": 2.0, "threshold": 3.0}, s.desc)
                               for s in unary_samples(op, d, rng)),
           variant="beta and threshold", op=torch._C._nn.softplus, method=False),
    # frexp: std::frexp's exact halves, numpy's too.
    OpInfo("frexp", lambda x: np.frexp(x)[0], FLOATS, unary_samples, variant="mantissa",
           op=lambda x: torch.frexp(x).mantissa, method=False,
           error_inputs=lambda: [ErrorInput((torch.ones(2, dtype=torch.int64),), {}, RuntimeError,
                                            r"torch.frexp\(\) only supports floating-point dtypes")]),
    # The exponent of inf and NaN is 0 (glibc's and PyTorch's on Linux; C leaves it unspecified, and numpy on
    # Windows' runtime answers otherwise).
    OpInfo("frexp", lambda x: np.where(np.isfinite(x), np.frexp(x)[1], 0).astype(np.int32), FLOATS,
           _with_special_values, variant="exponent",
           op=lambda x: torch.frexp(x).exponent, method=False, result_dtype=lambda d: torch.int32),
    OpInfo("hardsigmoid", _hardsigmoid, FLOATS, unary_samples, op=torch._C._nn.hardsigmoid, method=False,
           error_inputs=lambda: [ErrorInput((torch.ones(2, dtype=torch.int64),), {}, NotImplementedError,
                                            "\"hardsigmoid_cpu\" not implemented for 'Long'")]),
    OpInfo("hardswish", lambda x: x.astype(np.float64) * _hardsigmoid(x), FLOATS, unary_samples,
           op=torch._C._nn.hardswish, method=False,
           error_inputs=lambda: [ErrorInput((torch.ones(2, dtype=torch.int64),), {}, NotImplementedError,
                                            "\"hardswish_cpu\" not implemented for 'Long'")]),
    OpInfo("nan_to_num", lambda x, nan=0.0, posinf=None, neginf=None: np.nan_to_num(
               x, nan=nan, posinf=posinf, neginf=neginf), ALL, _nan_to_num_samples, inplace=True, supports_out=True,
           error_inputs=lambda: [ErrorInput((torch.ones(2),), {"out": torch.empty(2, dtype=torch.float64)}, RuntimeError,
                                            "nan_to_num: dtype of out: Double should be same as input: Float"),
                                 ErrorInput((torch.ones(2),), {"nan": "a"}, TypeError, "must be float")]),
    OpInfo("isnan", np.isnan, ALL, _with_special_values, result_dtype=lambda d: torch.bool),
    OpInfo("isfinite", np.isfinite, ALL, _with_special_values, result_dtype=lambda d: torch.bool),
    OpInfo("isinf", np.isinf, ALL, _with_special_values, result_dtype=lambda d: torch.bool),
]
