"""The vectorised float32 math (aten/src/ATen/native/cpu/VecMath*.cpp)
against float64 numpy, over a sweep of the whole float range and over every
tail length: on a CPU with AVX-512 the 16-lane kernels with masked tails run,
elsewhere the auto-vectorised loops; each must stay within its stated ulp
bound. Also the generic pointwise loop's wide copies (cpu/Loops.h), which
must round as the baseline copy does. test_cpu_capability.py runs this file
again at every lower ATEN_CPU_CAPABILITY."""
import math

import numpy as np
import pytest

import torch

FLT_MIN = np.finfo(np.float32).tiny


def _ordered(a):
    """float32 bits as integers that count ulps across zero."""
    i = a.view(np.int32).astype(np.int64)
    return np.where(i < 0, -(i & 0x7FFFFFFF), i)


def _assert_ulps(got, want64, limit=2):
    with np.errstate(over="ignore"):
        want = want64.astype(np.float32)
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan), "NaN lanes differ"
    ulps = np.abs(_ordered(got[~nan]) - _ordered(want[~nan]))
    # Below FLT_MIN a float32 intermediate may flush where float64 does not
    # (sigmoid(-88.72) is 0 in PyTorch too): an absolute bound there.
    bad = (ulps > limit) & ~((np.abs(want[~nan]) < FLT_MIN) & (np.abs(got[~nan]) < FLT_MIN))
    assert not bad.any(), f"{bad.sum()} values beyond {limit} ulp, e.g. {got[~nan][bad][:3]} vs {want[~nan][bad][:3]}"


def _sweep():
    bits = np.arange(0, 2**32, 1009, dtype=np.uint64).astype(np.uint32)
    x = bits.view(np.float32)
    x = x[np.isfinite(x) & (x > -120) & (x < 100)]
    edges = [-np.inf, np.inf, np.nan, -104.0, -103.97, -87.34, 88.72, 88.73, 0.0, -0.0, 0.625, -0.625, 1e-30]
    return np.concatenate([x, np.array(edges, np.float32)])


# name: (op, float64 reference, ulp bound). sigmoid's 1 + exp(-x) rounds
# once more before the division: 3 ulp at a handful of points near -16.
REFERENCES = {
    "exp": (torch.exp, np.exp, 2),
    "sigmoid": (torch.sigmoid, lambda x: 1 / (1 + np.exp(-x)), 3),
    "tanh": (torch.tanh, np.tanh, 2),
}


# The elementary functions of VecMathElementary.cpp, with the bounds
# VecMath.h states (SLEEF's, which PyTorch uses, are 1.0 and 3.5 ulp).
ELEMENTARY = {
    "log": (torch.log, np.log, 1),
    "log1p": (torch.log1p, np.log1p, 2.5),
    "expm1": (torch.expm1, np.expm1, 2),
    "sin": (torch.sin, np.sin, 2),
    "cos": (torch.cos, np.cos, 2),
    "tan": (torch.tan, np.tan, 4),
    # log2(+-0) is -inf; the reference says so itself (numpy under Wine gets
    # it from a C runtime that answers +inf for -0).
    "log2": (torch.log2, lambda x: np.where(x == 0, -np.inf, np.log2(x)), 2),
    "exp2": (torch.exp2, np.exp2, 1),
    "sinh": (torch.sinh, np.sinh, 3),
    "cosh": (torch.cosh, np.cosh, 3),
    "atanh": (torch.atanh, np.arctanh, 3),
    # A Taylor series, then PyTorch's own float32 erf approximation (VecMath.h).
    "erf": (torch.erf, np.vectorize(math.erf, otypes=[np.float64]), 5),
    # 1 - erf by the series, then t exp(-x^2) exp(g(t)) with x^2 split exactly (VecMath.cpp).
    "erfc": (torch.erfc, np.vectorize(math.erfc, otypes=[np.float64]), 7),
    # Cephes' polynomials (VecMathInverse.cpp).
    "atan": (torch.atan, np.arctan, 3),
    "asin": (torch.asin, np.arcsin, 3),
    "acos": (torch.acos, np.arccos, 3),
}


def _whole_range():
    """Every 1009th float32 bit pattern (all magnitudes, both signs,
    subnormals, NaNs) and the edges of each function's fast domain."""
    x = np.arange(0, 2**32, 1009, dtype=np.uint64).astype(np.uint32).view(np.float32)
    edges = [0.0, -0.0, np.inf, -np.inf, np.nan, FLT_MIN, FLT_MIN / 2, -FLT_MIN, 1e-45, -1.0, -0.99999994,
             -1.0000001, 1.0, 65536.0, -65536.0, 65536.01, 1e30, -87.0, -86.99999, 88.0, 87.99999, 88.73]
    return np.concatenate([x, np.array(edges, np.float32)])


def _near_multiples_of_half_pi():
    """The floats nearest k pi / 2 and their neighbours: where a float range
    reduction loses r's bits and sin or cos is tiny."""
    k = np.arange(-42000, 42001, 7, dtype=np.float64)
    centre = (k * np.pi / 2).astype(np.float32)
    steps = np.arange(-3, 4, dtype=np.int32)
    bits = centre.view(np.int32)[:, None] + np.sign(centre.view(np.int32))[:, None] * steps[None, :]
    return bits.astype(np.int32).view(np.float32).ravel()


@pytest.mark.parametrize("name", sorted(ELEMENTARY))
def test_elementary_functions_over_the_whole_range(name):
    op, ref, limit = ELEMENTARY[name]
    x = _whole_range()
    if name in ("sin", "cos", "tan"):
        x = np.concatenate([x, _near_multiples_of_half_pi()])
    with np.errstate(all="ignore"):
        want = ref(x.astype(np.float64))
    _assert_ulps(op(torch.from_numpy(x)).numpy(), want, limit)
    # In place (the kernel's output is its input) and one float in (unaligned).
    _assert_ulps(op(torch.from_numpy(x.copy())).numpy(), want, limit)
    t = torch.from_numpy(np.concatenate([np.zeros(1, np.float32), x]))[1:].clone()
    getattr(t, name + "_")()
    _assert_ulps(t.numpy(), want, limit)


@pytest.mark.parametrize("name", sorted(ELEMENTARY))
def test_elementary_special_values_match_numpy(name):
    """Zeros (with their sign), infinities and NaN exactly as numpy gives
    them; cos(0) is exactly 1."""
    op, ref, limit = ELEMENTARY[name]
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -1.0, -2.0, 1e-45, -1e-45, 1e-30], np.float32)
    with np.errstate(all="ignore"):
        want64 = ref(x.astype(np.float64))
        want = want64.astype(np.float32)
    got = op(torch.from_numpy(x)).numpy()
    special = np.isnan(want) | np.isinf(want) | (want == 0) | (x == 0)
    np.testing.assert_array_equal(got[special], want[special])
    assert np.array_equal(np.signbit(got[special & ~np.isnan(want)]), np.signbit(want[special & ~np.isnan(want)]))
    _assert_ulps(got[~special], want64[~special], limit)


def test_atan2_within_three_ulp_and_special_values_as_numpy():
    rng = np.random.default_rng(5)
    y = (rng.standard_normal(300_000) * np.exp2(rng.uniform(-30, 30, 300_000))).astype(np.float32)
    x = (rng.standard_normal(300_000) * np.exp2(rng.uniform(-30, 30, 300_000))).astype(np.float32)
    x[::7] = y[::7]  # the diagonal, where the octants meet
    x[1::7] = -y[1::7]
    want = np.arctan2(y.astype(np.float64), x.astype(np.float64))
    _assert_ulps(torch.atan2(torch.from_numpy(y), torch.from_numpy(x)).numpy(), want, 3)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 1e-45], np.float32)
    ys, xs = (a.ravel() for a in np.meshgrid(special, special))
    with np.errstate(all="ignore"):
        want = np.arctan2(ys, xs)
    got = torch.atan2(torch.from_numpy(ys), torch.from_numpy(xs)).numpy()
    special = ~(np.isfinite(xs) & np.isfinite(ys)) | (xs == 0) | (ys == 0)
    np.testing.assert_array_equal(got[special], want[special])
    assert np.array_equal(np.signbit(got[~np.isnan(want)]), np.signbit(want[~np.isnan(want)]))
    _assert_ulps(got[~special], want[~special].astype(np.float64), 3)
    # In place: the output is y, which the special-value pass still reads.
    t = torch.from_numpy(ys.copy())
    t.atan2_(torch.from_numpy(xs))
    np.testing.assert_array_equal(t.numpy(), got)


def test_pow_within_one_ulp():
    """float32 pow, tensor and scalar exponents: 2^(y log2 x) carried in
    double in the wide copies, libm's pow in the DEFAULT copy."""
    rng = np.random.default_rng(3)
    x = np.exp2(rng.uniform(-40, 40, 200_000)).astype(np.float32)
    y = rng.uniform(-12, 12, 200_000).astype(np.float32)
    y[::5] = np.round(y[::5])
    with np.errstate(all="ignore"):
        _assert_ulps(torch.pow(torch.from_numpy(x), torch.from_numpy(y)).numpy(), x.astype(np.float64) ** y, 1)
        for e in (2.5, -1.5, 3.0, 1 / 3, 10.0):
            _assert_ulps((torch.from_numpy(x) ** e).numpy(), x.astype(np.float64) ** np.float32(e), 1)
    # In place: the output is the base.
    t = torch.from_numpy(x.copy())
    t.pow_(2.5)
    with np.errstate(all="ignore"):
        _assert_ulps(t.numpy(), x.astype(np.float64) ** 2.5, 1)


def test_pow_of_negative_bases():
    """Integer exponents give the signed power, others NaN, as numpy does."""
    rng = np.random.default_rng(4)
    x = -np.exp2(rng.uniform(-40, 40, 100_000)).astype(np.float32)
    y = np.round(rng.uniform(-12, 12, 100_000)).astype(np.float32)
    y[::3] += 0.5
    y[1::7] = np.float32(2**24 + 2)
    y[2::7] = np.float32(2**23 + 1)
    with np.errstate(all="ignore"):
        _assert_ulps(torch.pow(torch.from_numpy(x), torch.from_numpy(y)).numpy(), x.astype(np.float64) ** y, 1)


def test_pow_special_values_match_numpy():
    x = np.array([0.0, -0.0, -2.0, -2.0, np.inf, -np.inf, np.nan, 1.0, 1e-45, 2.0, 2.0, 2.0, 2.0, 0.5], np.float32)
    y = np.array([2.5, 3.0, 3.0, 0.5, -1.0, 3.0, 0.0, np.nan, 0.5, np.inf, -np.inf, np.nan, 200.0, 300.0], np.float32)
    with np.errstate(all="ignore"):
        want = (x.astype(np.float64) ** y.astype(np.float64)).astype(np.float32)
    got = torch.pow(torch.from_numpy(x), torch.from_numpy(y)).numpy()
    np.testing.assert_array_equal(got, want)
    assert np.array_equal(np.signbit(got[~np.isnan(want)]), np.signbit(want[~np.isnan(want)]))


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_float_range_within_two_ulp(name):
    op, ref, limit = REFERENCES[name]
    x = _sweep()
    with np.errstate(over="ignore", invalid="ignore"):
        want = ref(x.astype(np.float64))
    _assert_ulps(op(torch.from_numpy(x)).numpy(), want, limit)


@pytest.mark.parametrize("name", sorted(REFERENCES) + sorted(ELEMENTARY))
def test_every_tail_length(name):
    op, ref, limit = {**REFERENCES, **ELEMENTARY}[name]
    rng = np.random.default_rng(0)
    for n in range(1, 50):
        x = (rng.standard_normal(n) * 20).astype(np.float32)
        x[rng.integers(n)] = np.nan
        x[-1] = -np.inf if n % 2 else np.inf
        with np.errstate(over="ignore", invalid="ignore"):
            want = ref(x.astype(np.float64))
        _assert_ulps(op(torch.from_numpy(x)).numpy(), want, limit)
        # A view that starts one float in: unaligned loads and tails.
        _assert_ulps(op(torch.from_numpy(np.concatenate([[0], x]).astype(np.float32))[1:]).numpy(), want, limit)


@pytest.mark.parametrize("n", [1, 7, 16, 17, 31, 32, 33, 48, 70, 1000])
def test_softmax_rows_of_every_shape(n):
    rng = np.random.default_rng(n)
    # 300 rows: enough that the rows are split over threads for the larger n.
    x = (rng.standard_normal((300, n)) * 30).astype(np.float32)
    x[1, 0] = -np.inf  # one -inf: its probability is exactly 0
    x[2, :] = -np.inf  # all -inf: NaN, as in PyTorch
    x[3, -1] = np.nan
    x[299, 0] = np.inf  # +inf: NaN too (inf - inf)
    x64 = x.astype(np.float64)
    with np.errstate(invalid="ignore"):
        shifted = x64 - x64.max(1, keepdims=True)
        want = np.exp(shifted) / np.exp(shifted).sum(1, keepdims=True)
        log_want = shifted - np.log(np.exp(shifted).sum(1, keepdims=True))
    t = torch.from_numpy(x)
    got = torch.softmax(t, 1).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)
    assert n == 1 or got[1, 0] == 0
    assert np.isnan(got[2]).all() and np.isnan(got[3]).all() and np.isnan(got[299]).all()
    log_got = torch.log_softmax(t, 1).numpy()
    np.testing.assert_allclose(log_got, log_want, rtol=1e-6, atol=2e-5)
    assert np.isnan(log_got[2]).all() and np.isnan(log_got[3]).all() and np.isnan(log_got[299]).all()


@pytest.mark.parametrize("n", [1, 15, 100, 4099])
def test_pointwise_loops_round_each_step(n):
    """add(x, y, alpha) is x + (alpha * y), rounded twice, on every CPU: the
    AVX2/AVX-512 copies of the loop must not fuse it into one FMA (PyTorch's
    AVX2 kernel does, giving 2**-25 here; numpy and the baseline loop give 0)."""
    third = torch.full((n,), 1 / 3)
    result = torch.add(torch.full((n,), -1.0), third, alpha=3)
    assert (result == 0).all()
    # The same through the in-place and broadcast-scalar forms of the loop.
    assert (torch.full((n,), -1.0).add_(third, alpha=3) == 0).all()
    assert (torch.full((n,), -1.0).add_(torch.tensor(1 / 3), alpha=3) == 0).all()


def test_exact_powers_of_two_through_log2_and_exp2():
    """log2 of a power of two is its exponent and exp2 of an integer its
    power of two, exactly (users compare them with ==)."""
    k = np.arange(-149, 128, dtype=np.float32)
    np.testing.assert_array_equal(torch.exp2(torch.from_numpy(k)).numpy(), np.exp2(k.astype(np.float64)).astype(np.float32))
    np.testing.assert_array_equal(torch.log2(torch.exp2(torch.from_numpy(k))).numpy(), k)


def _division_operands():
    rng = np.random.default_rng(11)
    n = 200_000
    x = (rng.standard_normal(n) * np.exp2(rng.uniform(-20, 40, n))).astype(np.float32)
    y = (rng.standard_normal(n) * np.exp2(rng.uniform(-20, 20, n))).astype(np.float32)
    y[::9] = np.round(y[::9]) + 1
    x[::11] = y[::11] * np.round(rng.uniform(-1e6, 1e6, (n + 10) // 11)).astype(np.float32)  # exact multiples
    x[1::13] = np.nextafter(x[1::13] * 0 + y[1::13] * 3, np.float32(np.inf))  # just past a multiple
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 3e38, -3e38, 1.0, -1.0], np.float32)
    sx, sy = (a.ravel() for a in np.meshgrid(special, special))
    return np.concatenate([x, sx]), np.concatenate([y, sy])


def _remainder_as_pytorch(x, y):
    """numpy's remainder, but a zero takes the dividend's sign (PyTorch's
    adds the divisor to fmod's result only when that is nonzero)."""
    r = np.remainder(x, y)
    return np.where(r == 0, np.copysign(np.float32(0), np.fmod(x, y)), r)


@pytest.mark.parametrize("op,ref", [
    (torch.fmod, np.fmod),
    (torch.remainder, _remainder_as_pytorch),
    (lambda a, b: torch.div(a, b, rounding_mode="floor"), np.floor_divide),
])
def test_float32_division_family_is_exact(op, ref):
    """fmod (the truncated quotient in double), remainder and floor division
    give numpy's float32 results bit for bit, signed zeros and all, for
    tensor and number operands and in place."""
    x, y = _division_operands()
    with np.errstate(all="ignore"):
        want = ref(x, y)
        got = op(torch.from_numpy(x), torch.from_numpy(y)).numpy()
        np.testing.assert_array_equal(got, want)
        assert np.array_equal(np.signbit(got[~np.isnan(want)]), np.signbit(want[~np.isnan(want)]))
        for number in (2.5, -0.75, 1e-3, 7.0):
            np.testing.assert_array_equal(op(torch.from_numpy(x), number).numpy(), ref(x, np.float32(number)))
            np.testing.assert_array_equal(op(torch.tensor(number, dtype=torch.float32), torch.from_numpy(y)).numpy(),
                                          ref(np.float32(number), y))
    t = torch.from_numpy(x.copy())
    t.fmod_(torch.from_numpy(y))
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(t.numpy(), np.fmod(x, y))


@pytest.mark.parametrize("op,ref", [(torch.logaddexp, np.logaddexp), (torch.logaddexp2, np.logaddexp2)])
def test_logaddexp_within_three_ulp_of_the_larger_operand(op, ref):
    """max(x, y) + log1p(e^-|x - y|), PyTorch's formula: a result near 0
    from operands near +-1 cancels, so the bound is in ulps of the operands."""
    rng = np.random.default_rng(12)
    x = (rng.standard_normal(100_000) * 50).astype(np.float32)
    y = (x + rng.standard_normal(100_000) * 5).astype(np.float32)
    special = np.array([0.0, np.inf, -np.inf, np.nan, 3e38, -3e38, 1.0], np.float32)
    sx, sy = (a.ravel() for a in np.meshgrid(special, special))
    x, y = np.concatenate([x, sx]), np.concatenate([y, sy])
    with np.errstate(all="ignore"):
        want = ref(x.astype(np.float64), y.astype(np.float64))
    got = op(torch.from_numpy(x), torch.from_numpy(y)).numpy()
    assert np.array_equal(np.isnan(got), np.isnan(want))
    finite = np.isfinite(want)
    np.testing.assert_array_equal(got[~finite & ~np.isnan(want)], want[~finite & ~np.isnan(want)])
    operands = np.maximum(np.where(np.isfinite(x), np.abs(x), 0), np.where(np.isfinite(y), np.abs(y), 0))
    scale = np.maximum(operands, np.abs(want))[finite]
    assert (np.abs(got[finite] - want[finite]) <= 3 * np.spacing(scale.astype(np.float32))).all()


@pytest.mark.parametrize("approximate", ["tanh", "none"])
def test_gelu_forms_and_their_gradients_against_float64(approximate):
    x = torch.linspace(-12, 12, 100_001, dtype=torch.float32, requires_grad=True)
    x64 = x.detach().double().requires_grad_()
    y, y64 = (torch.nn.functional.gelu(t, approximate=approximate) for t in (x, x64))
    torch.testing.assert_close(y, y64.float(), rtol=1e-5, atol=1e-6)
    y.sum().backward()
    y64.sum().backward()
    torch.testing.assert_close(x.grad, x64.grad.float(), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_log2_of_signed_zeros_and_subnormals(dtype):
    """log2(-0) is -inf (numpy under Wine says +inf), subnormals exact
    powers of two give their exponent; the float32 path avoids the runtime."""
    x = torch.tensor([0.0, -0.0, 2.0**-149, 2.0**-130, 3 * 2.0**-140], dtype=torch.float64).to(dtype)
    got = torch.log2(x).tolist()
    assert got[:2] == [-math.inf, -math.inf]
    if dtype == torch.float32:
        assert got[2:4] == [-149.0, -130.0]
        assert abs(got[4] - (math.log2(3) - 140)) < 1e-4


def _erfinv_points(rng):
    return np.concatenate([_whole_range(), rng.uniform(-1, 1, 400_000), 1 - 10 ** rng.uniform(-7.3, -1, 100_000),
                           -(1 - 10 ** rng.uniform(-7.3, -1, 100_000)), 10 ** rng.uniform(-40, -1, 50_000)]).astype(
        np.float32)


def test_erfinv_within_four_ulp_and_exact_at_the_ends():
    # Giles' polynomial on (-1, 1); the reference is the float64 kernel
    # (a rational start and two Newton steps), itself checked against
    # math.erf here. Dense near 0 and near +-1, where w = -log(1 - x^2) is
    # largest.
    rng = np.random.default_rng(7)
    with np.errstate(invalid="ignore", under="ignore"):
        x = _erfinv_points(rng)
    want = torch.erfinv(torch.from_numpy(x.astype(np.float64))).numpy()
    inside = np.abs(x) < 1
    assert np.allclose(np.vectorize(math.erf)(want[inside][::97]), x[inside][::97].astype(np.float64), rtol=1e-15,
                       atol=1e-300)
    got = torch.erfinv(torch.from_numpy(x)).numpy()
    _assert_ulps(got, want, 4)
    ends = torch.erfinv(torch.tensor([1.0, -1.0, 0.0, -0.0, 1.0000001, np.nan])).tolist()
    assert ends[:2] == [math.inf, -math.inf] and math.copysign(1, ends[3]) == -1 and all(map(math.isnan, ends[4:]))
