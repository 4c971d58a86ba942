"""torch.nn.utils.parametrize and parametrizations (weight_norm, spectral_norm),
and the older hook-based weight_norm: as PyTorch's (this file passes under
PyTorch 2.13 as well)."""
import warnings

import pytest
import torch
from torch import nn
from torch.nn.utils import parametrizations, parametrize


def f64(*shape, seed=0):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed), dtype=torch.float64)


class Symmetric(nn.Module):
    def forward(self, x):
        return x.triu() + x.triu(1).transpose(-1, -2)


def test_register_and_remove_a_parametrization():
    m = nn.Linear(3, 3).double()
    with torch.no_grad():
        m.weight.copy_(f64(3, 3))
    before = m.weight
    parametrize.register_parametrization(m, "weight", Symmetric())
    assert type(m).__name__ == "ParametrizedLinear" and parametrize.type_before_parametrizations(m) is nn.Linear
    assert parametrize.is_parametrized(m) and parametrize.is_parametrized(m, "weight")
    assert not parametrize.is_parametrized(m, "bias")
    assert torch.equal(m.weight, m.weight.t()) and m.parametrizations.weight.original is before
    assert list(m.state_dict()) == ["bias", "parametrizations.weight.original"]
    m(f64(2, 3)).sum().backward()
    assert m.parametrizations.weight.original.grad is not None
    with parametrize.cached():
        assert m.weight is m.weight
    assert m.weight is not m.weight
    value = m.weight.detach().clone()
    parametrize.remove_parametrizations(m, "weight")
    assert type(m) is nn.Linear and isinstance(m.weight, nn.Parameter) and torch.equal(m.weight, value)
    assert list(m.state_dict()) == ["bias", "weight"]  # re-registered last, as in PyTorch


def test_weight_norm_parametrization():
    lin = nn.Linear(3, 4).double()
    with torch.no_grad():
        lin.weight.copy_(f64(4, 3))
    w = lin.weight.detach().clone()
    parametrizations.weight_norm(lin)
    g, v = lin.parametrizations.weight.original0, lin.parametrizations.weight.original1
    assert g.shape == (4, 1) and torch.allclose(g.squeeze(1), w.norm(dim=1)) and torch.equal(v, w)
    assert torch.allclose(lin.weight, w)
    lin.weight = 2 * torch.ones(4, 3, dtype=torch.float64)  # right_inverse: g and v from the value
    assert torch.allclose(lin.parametrizations.weight.original0, torch.full((4, 1), 2 * 3 ** 0.5, dtype=torch.float64))
    lin(f64(2, 3)).sum().backward()
    assert g.grad is not None or lin.parametrizations.weight.original0.grad is not None
    whole = parametrizations.weight_norm(nn.Linear(3, 2).double(), dim=None)
    assert whole.parametrizations.weight.original0.shape == ()


def test_spectral_norm_divides_by_the_largest_singular_value():
    s = nn.Linear(5, 4).double()
    with torch.no_grad():
        s.weight.copy_(f64(4, 5))
    parametrizations.spectral_norm(s)
    assert list(s.state_dict()) == ["bias", "parametrizations.weight.original", "parametrizations.weight.0._u",
                                    "parametrizations.weight.0._v"]
    for _ in range(30):  # training mode: each access advances the power iteration
        s.weight
    assert float(torch.linalg.matrix_norm(s.weight.detach(), 2)) == pytest.approx(1.0, abs=1e-6)
    s.eval()
    u = s.parametrizations.weight[0]._u.clone()
    s.weight
    assert torch.equal(u, s.parametrizations.weight[0]._u)  # eval: frozen
    conv = parametrizations.spectral_norm(nn.ConvTranspose2d(2, 3, 3))
    assert conv.parametrizations.weight[0].dim == 1  # the output channels of a transposed conv


def test_hook_based_weight_norm_and_its_removal():
    lin = nn.Linear(3, 2).double()
    with torch.no_grad():
        lin.weight.copy_(f64(2, 3))
    w = lin.weight.detach().clone()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        torch.nn.utils.weight_norm(lin)
    assert sorted(n for n, _ in lin.named_parameters()) == ["bias", "weight_g", "weight_v"]
    assert torch.allclose(lin(f64(1, 3)), f64(1, 3) @ w.t() + lin.bias)
    torch.nn.utils.remove_weight_norm(lin)
    assert sorted(n for n, _ in lin.named_parameters()) == ["bias", "weight"]
    assert torch.allclose(lin.weight, w)


def test_errors():
    with pytest.raises(ValueError, match="does not have a parametrization on weight"):
        parametrize.remove_parametrizations(nn.Linear(2, 2), "weight")
    with pytest.raises(ValueError, match="does not have a parameter, a buffer, or a parametrized element with name "
                                         "'nope'"):
        parametrize.register_parametrization(nn.Linear(2, 2), "nope", Symmetric())

    class Shrink(nn.Module):
        def forward(self, x):
            return x[:1]
    with pytest.raises(ValueError, match="Registering a parametrization may not change the"):
        parametrize.register_parametrization(nn.Linear(2, 2), "weight", Shrink())


def test_hook_based_spectral_norm_as_gan_code_uses_it():
    d = nn.Linear(6, 4).double()
    with torch.no_grad():
        d.weight.copy_(f64(4, 6))
    torch.nn.utils.spectral_norm(d)
    assert sorted(d.state_dict()) == ["bias", "weight_orig", "weight_u", "weight_v"]
    assert sorted(n for n, _ in d.named_parameters()) == ["bias", "weight_orig"]
    for _ in range(40):
        d(torch.ones(1, 6, dtype=torch.float64))
    assert float(torch.linalg.matrix_norm(d.weight.detach(), 2)) == pytest.approx(1.0, abs=1e-6)
    x = torch.ones(3, 6, dtype=torch.float64)
    (d(x).sum() - d(2 * x).sum()).backward()  # two forwards, one backward: the vectors were cloned
    assert d.weight_orig.grad is not None
    torch.nn.utils.remove_spectral_norm(d)
    assert sorted(n for n, _ in d.named_parameters()) == ["bias", "weight"]
    conv = torch.nn.utils.spectral_norm(nn.Conv2d(2, 3, 3))
    assert conv.weight_u.shape == (3,) and conv.weight_v.shape == (18,)
