"""The vectorised float64 math (aten/src/ATen/native/cpu/VecMathDouble.cpp,
VecMathLanes64.h) against numpy and math.lgamma, in ulps of float64, over
samples of the whole double range, the edges of each function's fast
domain and every tail length; lgamma and digamma of float32 (computed in
the same double lanes), float64 pow and float32 hypot. lgamma's oracle is mpmath. The strided form of each op takes
the scalar loop (<cmath>, SpecialFunctions.h), so dense against strided
compares the lanes with the scalar code too. test_cpu_capability.py runs
this file again at every lower ATEN_CPU_CAPABILITY."""
import math

import mpmath
import numpy as np
import pytest

import torch

DBL_MIN = np.finfo(np.float64).tiny


def _ordered(a):
    """float64 bits as integers that count ulps across zero."""
    i = a.view(np.int64)
    return np.where(i < 0, -(i & 0x7FFFFFFFFFFFFFFF), i)


def _assert_ulps(got, want, limit):
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan), f"NaN lanes differ at {got[np.isnan(got) != nan][:3]}"
    g, w = got[~nan], want[~nan]
    inf = np.isinf(w)
    np.testing.assert_array_equal(g[inf], w[inf])
    # Subtracted as integers: a float64 would round the bit patterns to 512.
    with np.errstate(over="ignore"):
        ulps = np.abs((_ordered(g[~inf]) - _ordered(w[~inf])).astype(np.float64))
    bad = ulps > limit
    assert not bad.any(), f"{bad.sum()} values beyond {limit} ulp, e.g. {g[~inf][bad][:3]} vs {w[~inf][bad][:3]}"


def _whole_range(low=-np.inf, high=np.inf):
    """Every 2^44 + 7th float64 bit pattern (all magnitudes and both signs,
    subnormals, NaNs), limited to [low, high], and the usual edges."""
    bits = np.arange(0, 2**64 - 2**44, 2**44 + 7, dtype=np.uint64)
    x = bits.view(np.float64)
    x = x[np.isnan(x) | ((x >= low) & (x <= high))]
    edges = [0.0, -0.0, np.inf, -np.inf, np.nan, DBL_MIN, DBL_MIN / 2, -DBL_MIN, 5e-324, 1.0, -1.0]
    return np.concatenate([x, np.array(edges)])


def _dense(low, high, n=200_000, seed=0):
    return np.random.default_rng(seed).uniform(low, high, n)


# name: (op, numpy reference, ulp bound, where the ordinary data lies)
ELEMENTARY = {
    "exp": (torch.exp, np.exp, 1, (-745, 710)),
    "expm1": (torch.expm1, np.expm1, 2, (-60, 710)),
    "exp2": (torch.exp2, np.exp2, 2, (-1075, 1024)),
    "log": (torch.log, np.log, 1, (0, 1e6)),
    "log1p": (torch.log1p, np.log1p, 2, (-1, 10)),
    "sin": (torch.sin, np.sin, 2, (-1e5, 1e5)),
    "cos": (torch.cos, np.cos, 2, (-1e5, 1e5)),
    "atanh": (torch.atanh, np.arctanh, 3, (-1, 1)),
    "asin": (torch.asin, np.arcsin, 2, (-1, 1)),
    "acos": (torch.acos, np.arccos, 2, (-1, 1)),
    "atan": (torch.atan, np.arctan, 2, (-1e3, 1e3)),
}


@pytest.mark.parametrize("name", sorted(ELEMENTARY))
def test_elementary_float64_within_their_bounds(name):
    op, ref, limit, (low, high) = ELEMENTARY[name]
    x = np.concatenate([_whole_range(), _dense(low, high), _dense(-2, 2, 20_000, 1), _dense(-1e-3, 1e-3, 2000, 2)])
    with np.errstate(all="ignore"):
        want = ref(x)
    _assert_ulps(op(torch.from_numpy(x)).numpy(), want, limit)
    # In place, and a view one double in.
    t = torch.from_numpy(np.concatenate([[0.0], x]))[1:].clone()
    getattr(t, name + "_")()
    _assert_ulps(t.numpy(), want, limit)


def test_sin_and_cos_next_to_multiples_of_half_pi():
    k = np.arange(-60000, 60001, 11, dtype=np.float64)
    centre = k * (np.pi / 2)
    x = np.concatenate([np.nextafter(centre, np.inf), centre, np.nextafter(centre, -np.inf)])
    x = x[np.abs(x) <= 1e5]
    _assert_ulps(torch.sin(torch.from_numpy(x)).numpy(), np.sin(x), 2)
    _assert_ulps(torch.cos(torch.from_numpy(x)).numpy(), np.cos(x), 2)


def test_inverse_trigonometric_functions_at_their_reduction_boundaries():
    # asin/acos switch at |x| = 1/2, atan at tan(pi/8) and 1: both sides of each, and next to +-1.
    edges = np.array([0.5, 0.41421356237309503, 1.0, 2.414213562373095])
    near = np.concatenate([np.nextafter(edges, 0), edges, np.nextafter(edges, 2)] + [edges * (1 + 1e-9 * k)
                                                                                         for k in range(-50, 51)])
    x = np.concatenate([near, -near, 1 - np.geomspace(1e-16, 1e-2, 2000), -1 + np.geomspace(1e-16, 1e-2, 2000)])
    for op, ref in ((torch.asin, np.arcsin), (torch.acos, np.arccos), (torch.atan, np.arctan)):
        with np.errstate(invalid="ignore"):
            want = ref(x)
        _assert_ulps(op(torch.from_numpy(x)).numpy(), want, 2)


# pow of float64 (x, y) samples: ordinary, results near overflow and
# underflow (|y log x| up to 745), bases next to sqrt(2) (where the
# logarithm's reduction switches) with large exponents, negative bases with
# integer exponents.
POW_REGIMES = {
    "ordinary": (lambda r, n: r.uniform(0, 10, n), lambda r, n: r.uniform(-20, 20, n)),
    "large products": (lambda r, n: r.uniform(0.5, 2, n), lambda r, n: r.uniform(-1070, 1020, n)),
    "near sqrt 2": (lambda r, n: np.sqrt(2) * (1 + r.uniform(-1e-3, 1e-3, n)), lambda r, n: r.uniform(-2000, 2000, n)),
    "whole exponent range": (lambda r, n: np.exp(r.uniform(-708, 709, n)), lambda r, n: r.uniform(-1, 1, n)),
    "negative bases": (lambda r, n: r.uniform(-10, 0, n), lambda r, n: np.round(r.uniform(-30, 30, n))),
}


@pytest.mark.parametrize("regime", sorted(POW_REGIMES))
def test_pow_float64_within_two_ulp_of_numpy(regime):
    make_x, make_y = POW_REGIMES[regime]
    rng = np.random.default_rng(len(regime))
    x, y = make_x(rng, 200_000), make_y(rng, 200_000)
    with np.errstate(all="ignore"):
        want = np.power(x, y)
    # numpy's (glibc's) pow is within 0.52 ulp, the lanes within 1: 2 apart at most.
    _assert_ulps(torch.pow(torch.from_numpy(x), torch.from_numpy(y)).numpy(), want, 2)
    # One exponent for every base (the y_step 0 loop), and in place.
    with np.errstate(all="ignore"):
        _assert_ulps(torch.pow(torch.from_numpy(x), float(y[0])).numpy(), np.power(x, y[0]), 2)
    t = torch.from_numpy(x.copy())
    t.pow_(torch.from_numpy(y))
    _assert_ulps(t.numpy(), want, 2)


def test_pow_float64_exact_where_the_result_is_a_double():
    x = np.repeat(np.arange(-20.0, 21.0), 13)
    y = np.tile(np.arange(0.0, 13.0), 41)
    got = torch.pow(torch.from_numpy(x), torch.from_numpy(y)).numpy()
    np.testing.assert_array_equal(got, np.power(x, y))
    halves = torch.pow(torch.tensor([4.0, 9.0, 2.0 ** 40, 0.25], dtype=torch.float64),
                       torch.tensor([0.5, 1.5, 0.25, -0.5], dtype=torch.float64))
    assert halves.tolist() == [2.0, 27.0, 1024.0, 2.0]


def test_pow_float64_special_values_as_numpy():
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 5e-324, -5e-324, DBL_MIN, 1e308, -2.0, 0.5])
    x, y = np.meshgrid(specials, np.concatenate([specials, [3.0, -3.0, 2.5, 1e300, -1e300]]))
    x, y = x.ravel(), y.ravel()
    with np.errstate(all="ignore"):
        want = np.power(x, y)
    got = torch.pow(torch.from_numpy(x), torch.from_numpy(y)).numpy()
    _assert_ulps(got, want, 2)
    exact = np.isinf(want) | (want == 0)
    np.testing.assert_array_equal(np.signbit(got[exact]), np.signbit(want[exact]))


def test_pow_float64_every_tail_length():
    rng = np.random.default_rng(4)
    for n in range(1, 40):
        x, y = rng.uniform(-3, 3, n), np.round(rng.uniform(-5, 5, n) * 2) / 2
        x[rng.integers(n)] = np.nan
        with np.errstate(all="ignore"):
            want = np.power(x, y)
        _assert_ulps(torch.pow(torch.from_numpy(x), torch.from_numpy(y)).numpy(), want, 2)


@pytest.mark.parametrize("name", sorted(ELEMENTARY))
def test_special_values_as_numpy(name):
    op, ref, _, _ = ELEMENTARY[name]
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -1.0, 1.0, -2.0, 5e-324, -5e-324, 709.7, 709.8, -745.2, 1e300])
    with np.errstate(all="ignore"):
        want = ref(x)
    got = op(torch.from_numpy(x)).numpy()
    exact = np.isnan(want) | np.isinf(want) | (want == 0) | (x == 0)
    np.testing.assert_array_equal(got[exact], want[exact])
    np.testing.assert_array_equal(np.signbit(got[exact & ~np.isnan(want)]), np.signbit(want[exact & ~np.isnan(want)]))


@pytest.mark.parametrize("name", sorted(ELEMENTARY))
def test_every_tail_length(name):
    op, ref, limit, (low, high) = ELEMENTARY[name]
    rng = np.random.default_rng(3)
    for n in range(1, 40):
        x = rng.uniform(max(low, -50), min(high, 50), n)
        x[rng.integers(n)] = np.nan
        with np.errstate(all="ignore"):
            want = ref(x)
        _assert_ulps(op(torch.from_numpy(x)).numpy(), want, limit)


def _lgamma_one(v):
    """log|Gamma(v)| rounded from 100 bits (Python's math.lgamma is off by
    1e-14 relative next to 1 and 2)."""
    if np.isnan(v):
        return np.nan
    if np.isinf(v) or (v <= 0 and v == math.floor(v)):
        return np.inf
    with mpmath.workprec(100):
        return float(mpmath.re(mpmath.loggamma(mpmath.mpf(float(v)))))


def _lgamma_reference(x):
    return np.array([_lgamma_one(v) for v in x], np.float64)


def test_lgamma_of_positive_float64_within_three_ulp():
    x = np.concatenate([_whole_range(0, np.inf)[::8], _dense(0, 20, 20_000), _dense(0.5, 3.5, 10_000, 1),
                        np.geomspace(1e-300, 1e300, 4000), [1.0, 2.0, 1.5, 2.5, 10.0, 9.999999999, 1e-290]])
    # Next to lgamma's zeros 1 and 2, where the value is tiny.
    x = np.concatenate([x, 1 + np.geomspace(1e-16, 0.4, 1000), 1 - np.geomspace(1e-16, 0.4, 1000),
                        2 + np.geomspace(1e-15, 0.4, 1000), 2 - np.geomspace(1e-15, 0.4, 1000)])
    _assert_ulps(torch.lgamma(torch.from_numpy(x)).numpy(), _lgamma_reference(x), 3)


def test_lgamma_of_negative_float64():
    """The reflection log(pi / |sin(pi x)|) - lgamma(1 - x): its two terms
    cancel where lgamma is small, so the bound is absolute, SLEEF's
    max(1 ulp, 1e-15) widened to 4 ulp and 2e-15 (glibc is exact there)."""
    x = np.concatenate([-_dense(0, 30, 20_000), -_dense(0, 3, 10_000, 1), -np.geomspace(1e-290, 1e15, 5000)])
    want = _lgamma_reference(x)
    got = torch.lgamma(torch.from_numpy(x)).numpy()
    ulps = np.abs((_ordered(got) - _ordered(want)).astype(np.float64))
    with np.errstate(invalid="ignore"):  # inf - inf at the poles: equal, so not bad
        bad = (ulps > 4) & (np.abs(got - want) > 2e-15 * np.maximum(1, np.abs(want)))
    assert not bad.any(), f"{bad.sum()} values, e.g. lgamma({x[bad][:3]}) = {got[bad][:3]}, not {want[bad][:3]}"


def test_lgamma_poles_and_special_values():
    x = np.array([0.0, -0.0, -1.0, -2.0, -1e16, np.inf, -np.inf, np.nan, 5e-324, 1e306, 3e305])
    got = torch.lgamma(torch.from_numpy(x)).numpy()
    want = _lgamma_reference(x)
    np.testing.assert_array_equal(got[:8], want[:8])
    np.testing.assert_allclose(got[8:], want[8:], rtol=1e-15)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_lgamma_and_digamma_lanes_agree_with_the_scalar_loop(dtype):
    """Dense (the lanes) against a strided view of the same values (the
    scalar loop: <cmath>'s lgamma, SpecialFunctions.h's psi)."""
    rng = np.random.default_rng(5)
    x = np.concatenate([rng.uniform(-30, 30, 50_000), rng.uniform(1e-6, 3, 5000), [0.0, -0.0, -3.0, np.inf, np.nan]])
    dense = torch.from_numpy(x).to(dtype)
    strided = torch.stack([dense, dense], 1)[:, 0]
    assert not strided.is_contiguous()
    # Next to the negative integers the lanes' pi / tan(pi r) (r exact) is
    # the more accurate: the scalar rounds pi times the fraction first.
    tol = dict(rtol=2e-6, atol=1e-6) if dtype == torch.float32 else dict(rtol=1e-11, atol=1e-13)
    for op in (torch.lgamma, torch.digamma):
        want, got = op(strided), op(dense)
        assert torch.equal(torch.isnan(want), torch.isnan(got)), op
        assert torch.equal(torch.isinf(want), torch.isinf(got)), op
        assert torch.equal(want[torch.isinf(want)], got[torch.isinf(got)]), op
        finite = torch.isfinite(want)
        np.testing.assert_allclose(got[finite].numpy(), want[finite].numpy(), **tol, err_msg=op.__name__)


def test_lgamma_of_float32_rounds_the_double_result():
    x = np.random.default_rng(6).uniform(-20, 40, 20_000).astype(np.float32)
    want = _lgamma_reference(x.astype(np.float64)).astype(np.float32)
    got = torch.lgamma(torch.from_numpy(x)).numpy()
    far = np.abs(want) > 0.1
    np.testing.assert_array_less(np.abs(got[far].view(np.int32).astype(np.int64) - want[far].view(np.int32)), 2)


def test_digamma_float64_against_its_series_at_known_values():
    # psi(1) = -Euler's gamma, psi(1/2) = -gamma - 2 ln 2, psi(n + 1) = H_n - gamma.
    gamma = 0.57721566490153286061
    x = torch.tensor([1.0, 0.5, 11.0, 1e10, -0.5, 1e-10], dtype=torch.float64)
    want = [-gamma, -gamma - 2 * math.log(2), sum(1 / k for k in range(1, 11)) - gamma,
            math.log(1e10) - 0.5e-10, -gamma - 2 * math.log(2) + 2, -1e10 - gamma]
    # psi(-1/2) = psi(3/2) cancels in the recurrence: 1e-15 absolute there.
    np.testing.assert_allclose(torch.digamma(x).numpy(), want, rtol=2e-15, atol=1e-15)
    assert torch.digamma(torch.tensor([0.0, -0.0, -2.0], dtype=torch.float64)).tolist()[:2] == [-math.inf, math.inf]
    assert math.isnan(torch.digamma(torch.tensor(-2.0, dtype=torch.float64)).item())


def test_elu_float64_and_its_gradient():
    x = torch.from_numpy(np.random.default_rng(7).uniform(-30, 5, 10_000)).requires_grad_()
    y = torch.nn.functional.elu(x, alpha=0.5)
    xd = x.detach().numpy()
    np.testing.assert_allclose(y.detach().numpy(), np.where(xd < 0, 0.5 * np.expm1(xd), xd), rtol=1e-15, atol=1e-300)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.where(xd > 0, 1.0, 0.5 * np.exp(xd)), rtol=1e-15)


def test_hypot_of_float32_within_one_ulp_and_special_values():
    rng = np.random.default_rng(8)
    a = (rng.standard_normal(100_000) * 10.0 ** rng.integers(-40, 38, 100_000)).astype(np.float32)
    b = (rng.standard_normal(100_000) * 10.0 ** rng.integers(-40, 38, 100_000)).astype(np.float32)
    want = np.hypot(a.astype(np.float64), b.astype(np.float64)).astype(np.float32)
    got = torch.hypot(torch.from_numpy(a), torch.from_numpy(b)).numpy()
    np.testing.assert_array_equal(got, want)
    s = np.array([np.inf, np.nan, -np.inf, 0.0, 3.4e38, np.nan], np.float32)
    t = np.array([np.nan, -np.inf, 1.0, -0.0, 3.4e38, 1.0], np.float32)
    with np.errstate(over="ignore"):  # 3.4e38 twice: inf, as ours
        np.testing.assert_array_equal(torch.hypot(torch.from_numpy(s), torch.from_numpy(t)).numpy(), np.hypot(s, t))
    # One operand a number (a stride-0 row), and in place.
    x = torch.from_numpy(a.copy())
    x.hypot_(torch.tensor(3.0))
    np.testing.assert_array_equal(x.numpy(), np.hypot(a.astype(np.float64), 3.0).astype(np.float32))
