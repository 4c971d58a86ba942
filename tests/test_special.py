"""torch.special: the functions composed in Python (ndtr, ndtri, log_ndtr,
erfcx, entr, xlog1py) against float64 references, the aliases being the ops
they name, and the edges of the kernels (zeta's poles, polygamma_)."""
import math

import numpy as np
import pytest

import torch

S = torch.special


def _close(t, expected, rel=1e-12, abs_=1e-300):
    got = t.tolist()
    for g, e in zip(got, expected):
        if math.isnan(e):
            assert math.isnan(g)
        elif math.isinf(e):
            assert g == e
        else:
            assert g == pytest.approx(e, rel=rel, abs=abs_)


def test_normal_distribution_functions():
    x = torch.tensor([-40.0, -3.0, 0.0, 1.5, 10.0], dtype=torch.float64)
    _close(S.ndtr(x), [0.5 * math.erfc(-v / math.sqrt(2)) for v in x.tolist()])
    # log_ndtr stays finite far into the left tail, where ndtr underflows to 0.
    expected_log = [math.log(0.5 * math.erfc(-v / math.sqrt(2))) if v > -30 else None for v in x.tolist()]
    got = S.log_ndtr(x).tolist()
    assert got[0] == pytest.approx(-804.6084420137538, rel=1e-10)  # the asymptotic value at -40
    for g, e in zip(got[1:], expected_log[1:]):
        assert g == pytest.approx(e, rel=1e-12)
    p = torch.tensor([0.01, 0.5, 0.975], dtype=torch.float64)
    _close(S.ndtr(S.ndtri(p)), p.tolist(), rel=1e-12)
    erfcx = S.erfcx(torch.tensor([-2.0, 0.0, 1.5, 10.0, 30.0], dtype=torch.float64)).tolist()
    for v, g in zip([-2.0, 0.0, 1.5, 10.0], erfcx):
        assert g == pytest.approx(math.exp(v * v) * math.erfc(v), rel=1e-12)
    assert erfcx[4] == pytest.approx(0.018795888861416751, rel=1e-12)


def test_entr_and_xlog1py():
    _close(S.entr(torch.tensor([-1.0, 0.0, 0.5, 2.0], dtype=torch.float64)),
           [-math.inf, 0.0, -0.5 * math.log(0.5), -2 * math.log(2)])
    _close(S.xlog1py(torch.tensor([0.0, 2.0, 0.0], dtype=torch.float64),
                     torch.tensor([-1.0, 3.0, float("nan")], dtype=torch.float64)), [0.0, 2 * math.log(4), math.nan])


def test_aliases_are_the_ops():
    assert S.expit is torch.sigmoid and S.psi is torch.digamma and S.gammaln is torch.lgamma
    assert S.multigammaln is torch.mvlgamma and not hasattr(torch, "special_zeta")


def test_zeta_edges_and_gradient():
    s = torch.tensor([2.0, 3.0, 1.0, 0.5, 3.0], dtype=torch.float64)
    q = torch.tensor([1.0, -1.0, 1.0, 1.0, -1.5], dtype=torch.float64)
    got = S.zeta(s, q).tolist()
    assert got[0] == pytest.approx(math.pi ** 2 / 6, rel=1e-14)
    assert got[1] == math.inf and got[2] == math.inf and math.isnan(got[3])
    assert got[4] == pytest.approx(0.11810202151536942 / 1.0, rel=1e-6)  # an integer s reaches negative q
    q = torch.tensor([1.5], dtype=torch.float64, requires_grad=True)
    S.zeta(torch.tensor([2.0], dtype=torch.float64), q).backward()
    assert q.grad.item() == pytest.approx(-2 * S.zeta(3.0, torch.tensor([1.5], dtype=torch.float64)).item())
    x = torch.tensor([2.0], requires_grad=True)
    out = S.zeta(x, torch.tensor([1.0]))
    with pytest.raises(NotImplementedError, match="derivative for 'self' of special_zeta"):
        out.backward()


def test_polygamma_in_place_and_its_gradient():
    x = torch.tensor([0.5, 2.0], dtype=torch.float64)
    expected = torch.polygamma(1, x)
    assert torch.equal(x.clone().polygamma_(1), expected)
    # trigamma(1/2) by PyTorch's series: its truncation leaves 3e-10 (PyTorch 2.13 gives these same digits).
    assert expected.tolist()[0] == pytest.approx(math.pi ** 2 / 2, rel=1e-9)
    x.requires_grad_()
    assert torch.autograd.gradcheck(lambda t: torch.polygamma(2, t), (x,))
    assert torch.polygamma(2, x).grad_fn.name() == "PolygammaBackward0"


def test_fft_helpers_and_the_complex_transforms():
    assert torch.fft.fftfreq(5).tolist() == pytest.approx([0.0, 0.2, 0.4, -0.4, -0.2])
    assert torch.fft.fftfreq(4, d=0.5).tolist() == [0.0, 0.5, -1.0, -0.5]
    assert torch.fft.rfftfreq(6, 2.0).tolist() == pytest.approx([0.0, 1 / 12, 2 / 12, 3 / 12])
    assert torch.fft.fftfreq(3, dtype=torch.float64).dtype == torch.float64
    assert torch.fft.fftshift(torch.arange(5)).tolist() == [3, 4, 0, 1, 2]
    grid = torch.arange(6).reshape(2, 3)
    assert torch.fft.ifftshift(grid).tolist() == [[4, 5, 3], [1, 2, 0]]
    assert torch.fft.fftshift(grid, dim=1).tolist() == [[2, 0, 1], [5, 3, 4]]
    assert torch.equal(torch.fft.ifftshift(torch.fft.fftshift(grid)), grid)
    with pytest.raises(RuntimeError, match="torch.fft.rfft: complex dtypes .* is not part of this build"):
        torch.fft.rfft(torch.ones(4))


def test_fft_frequencies_scale_by_one_over_n_d_like_pytorch():
    # Scaled by the reciprocal in place, as PyTorch: n = 0 is empty, d = 0 divides by zero into infinities.
    assert torch.fft.fftfreq(0).tolist() == []
    assert torch.fft.rfftfreq(0).shape == (1,) and torch.fft.rfftfreq(0).isnan().all()  # 0 times 1 / 0
    f = torch.fft.fftfreq(3, 0.0)
    assert f[0].isnan() and f[1].item() == float("inf") and f[2].item() == float("-inf")
    n, d = 100_001, 0.3
    want = np.fft.fftfreq(n, d).astype(np.float32)
    np.testing.assert_allclose(torch.fft.fftfreq(n, d).numpy(), want, rtol=1e-6)
    np.testing.assert_allclose(torch.fft.rfftfreq(n, d).numpy(), np.fft.rfftfreq(n, d).astype(np.float32), rtol=1e-6)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_trigamma_is_pytorchs_series_with_its_reflection(dtype):
    # polygamma(1, x) runs PyTorch's own n = 1 algorithm on the CPU (special::trigamma), not zeta(2, x).
    pi2 = math.pi ** 2
    x = torch.tensor([1.0, 0.5, 2.5, -1.5, 1e4, 0.0, float("inf"), float("nan")], dtype=dtype)
    want = [pi2 / 6, pi2 / 2, pi2 / 2 - 4 - 4 / 9, pi2 - (pi2 / 2 - 4 - 4 / 9), 1e-4 + 0.5e-8]
    got = torch.polygamma(1, x)
    rtol = 1e-6 if dtype == torch.float32 else 1e-9
    assert got[:5].tolist() == pytest.approx(want, rel=rtol)
    assert got[5].item() == math.inf and got[6].item() == 0.0 and got[7].isnan()
    # Its gradient (digamma's backward) reaches it too.
    y = torch.tensor([1.0, 2.5], dtype=dtype, requires_grad=True)
    torch.digamma(y).sum().backward()
    assert y.grad.tolist() == pytest.approx([pi2 / 6, pi2 / 2 - 4 - 4 / 9], rel=rtol)


def test_hurwitz_zeta_to_a_few_ulps_in_double():
    # Closed forms: zeta(2, 1/4) = pi^2 + 8G and zeta(2, 3/4) = pi^2 - 8G
    # (G Catalan's constant), zeta(s, n + 1) = zeta(s) - sum_{k <= n} k^-s,
    # and polygamma(n, 1) = (-1)^(n+1) n! zeta(n + 1). The Euler-Maclaurin
    # tail's Bernoulli terms matter at every q here: one wrong factor in
    # them is an error near 1e-8, which the op tests' tolerance lets pass.
    G, pi = 0.915965594177219015054603514932384110774, math.pi
    zeta3 = 1.202056903159594285399738161511449990765
    cases = [(2.0, 0.25, pi**2 + 8 * G), (2.0, 0.75, pi**2 - 8 * G), (2.0, 1.0, pi**2 / 6),
             (2.0, 4.0, pi**2 / 6 - 1 - 1 / 4 - 1 / 9), (3.0, 1.0, zeta3), (3.0, 3.0, zeta3 - 1 - 1 / 8),
             (4.0, 1.0, pi**4 / 90), (6.0, 2.0, pi**6 / 945 - 1)]
    s = torch.tensor([c[0] for c in cases], dtype=torch.float64)
    q = torch.tensor([c[1] for c in cases], dtype=torch.float64)
    want = torch.tensor([c[2] for c in cases], dtype=torch.float64)
    got = torch.special.zeta(s, q)
    # (The references' own subtractions cost a few ulps of their own.)
    assert torch.allclose(got, want, rtol=2e-14, atol=0), (got - want) / want
    assert torch.allclose(torch.polygamma(2, torch.tensor([1.0], dtype=torch.float64)),
                          torch.tensor([-2 * zeta3], dtype=torch.float64), rtol=3e-15, atol=0)
