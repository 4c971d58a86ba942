"""Libraries installed beside torch from PyPI, run as their READMEs show:
einops (rearrange, reduce, repeat, its torch layers), torchdiffeq (odeint,
its adjoint, fixed-step solvers, event handling) and safetensors (files
byte-identical with those PyTorch's safetensors.torch writes, both ways). README's test command
installs them with the wheel (tests/requirements-libraries.txt) and sets
TORCH_TEST_LIBRARIES=1: there they must be present, and installing them must
have kept this torch; elsewhere the tests run where they are installed."""
import importlib
import importlib.metadata
import math
import os
import sys

import pytest
import torch

sys.path.insert(0, os.path.dirname(__file__))
from oracle.files import safetensors_tensors  # noqa: E402

SAFETENSORS_FILE = os.path.join(os.path.dirname(__file__), "oracle", "pytorch_tensors.safetensors")


def library(name):
    # README's test command installs them and says so; the factory's per-Python runs do not.
    if os.environ.get("TORCH_TEST_LIBRARIES") == "1":
        return importlib.import_module(name)
    return pytest.importorskip(name)


def test_installing_them_kept_this_torch():
    library("torchdiffeq")  # requires torch
    try:
        owner = importlib.metadata.distribution("torch")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("this torch is installed under another distribution name")
    assert owner.version == torch.__version__
    assert torch._C.__file__.startswith(os.path.dirname(torch.__file__))


def test_einops_rearrange_reduce_repeat():
    einops = library("einops")
    x = torch.arange(2 * 3 * 4 * 5, dtype=torch.float32).reshape(2, 3, 4, 5)
    assert torch.equal(einops.rearrange(x, "b c h w -> b (h w) c"), x.permute(0, 2, 3, 1).reshape(2, 20, 3))
    assert torch.equal(einops.rearrange(x, "b c (h1 h2) w -> b c h1 h2 w", h1=2), x.reshape(2, 3, 2, 2, 5))
    assert torch.allclose(einops.reduce(x, "b c h w -> b c", "mean"), x.mean((2, 3)))
    assert torch.equal(einops.reduce(x, "b c (h 2) (w 5) -> b c h w", "max"), x.reshape(2, 3, 2, 2, 1, 5).amax((3, 5)))
    assert torch.equal(einops.repeat(x[0, 0], "h w -> h w k", k=3), x[0, 0].unsqueeze(-1).expand(4, 5, 3))
    packed, shapes = einops.pack([x[:, 0], x[:, :2]], "b * h w")
    assert packed.shape == (2, 3, 4, 5) and [tuple(s) for s in shapes] == [(), (2,)]
    assert torch.allclose(einops.einsum(x, x, "b c h w, b c h w -> b c"), (x * x).sum((2, 3)))


def test_einops_layers_in_a_model_that_trains():
    library("einops")
    from einops.layers.torch import EinMix, Rearrange, Reduce

    torch.manual_seed(0)
    model = torch.nn.Sequential(
        Rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=2, p2=2),
        torch.nn.Linear(12, 16), torch.nn.GELU(),
        EinMix("b t c -> b t d", weight_shape="c d", bias_shape="d", c=16, d=8),
        Reduce("b t d -> b d", "mean"), torch.nn.Linear(8, 2))
    x = torch.randn(8, 3, 4, 4)
    y = torch.randint(0, 2, (8,))
    opt = torch.optim.Adam(model.parameters(), lr=0.05)
    first = None
    for _ in range(30):
        loss = torch.nn.functional.cross_entropy(model(x), y)
        first = loss.item() if first is None else first
        opt.zero_grad()
        loss.backward()
        opt.step()
    assert loss.item() < first / 2


class Decay(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.rate = torch.nn.Parameter(torch.tensor(-0.5, dtype=torch.float64))

    def forward(self, t, y):
        return self.rate * y


def test_torchdiffeq_odeint_and_its_gradients():
    torchdiffeq = library("torchdiffeq")
    f = Decay()
    y0 = torch.tensor([1.0, 2.0], dtype=torch.float64)
    t = torch.linspace(0, 2, 5, dtype=torch.float64)
    exact = y0 * math.exp(-0.5 * 2)
    ys = torchdiffeq.odeint(f, y0, t, rtol=1e-9, atol=1e-10)
    assert ys.shape == (5, 2) and torch.allclose(ys[-1], exact, rtol=1e-7)
    ys[-1].sum().backward()
    expected = 2 * exact.sum().item()  # d/da y0 e^(a t) = t y0 e^(a t)
    assert f.rate.grad.item() == pytest.approx(expected, rel=1e-6)
    f.rate.grad = None
    ys = torchdiffeq.odeint_adjoint(f, y0, t, rtol=1e-9, atol=1e-10)
    ys[-1].sum().backward()
    assert f.rate.grad.item() == pytest.approx(expected, rel=1e-5)
    ys = torchdiffeq.odeint(f, y0, t, method="rk4", options={"step_size": 0.01})
    assert torch.allclose(ys[-1].detach(), exact, rtol=1e-8)


def test_torchdiffeq_event_handling():
    torchdiffeq = library("torchdiffeq")  # odeint_event differentiates through torch.autograd.functional.vjp
    f = Decay()
    y0 = torch.tensor([1.0], dtype=torch.float64)
    t0 = torch.tensor(0.0, dtype=torch.float64)
    event_t, ys = torchdiffeq.odeint_event(f, y0, t0, event_fn=lambda t, y: y[0] - 0.5, rtol=1e-9, atol=1e-10)
    assert event_t.item() == pytest.approx(2 * math.log(2), rel=1e-6)  # e^(-t/2) = 1/2
    event_t.backward()
    assert f.rate.grad.item() == pytest.approx(-event_t.item() / -0.5, rel=1e-4)  # t* = ln 2 / -a: dt*/da = -t*/a


def _same(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and torch.equal(
        torch.view_as_real(a) if a.is_complex() else a, torch.view_as_real(b) if b.is_complex() else b)


def test_safetensors_reads_pytorchs_file_and_writes_the_same_bytes(tmp_path):
    """oracle/pytorch_tensors.safetensors: every dtype both torches have, written by PyTorch 2.13's
    safetensors.torch.save_file (oracle/record.py)."""
    library("safetensors")
    from safetensors.torch import load, load_file, save, save_file

    expected = safetensors_tensors(torch)
    loaded = load_file(SAFETENSORS_FILE)
    assert sorted(loaded) == sorted(expected)
    for name, tensor in expected.items():
        assert _same(loaded[name], tensor), name
    save_file(expected, tmp_path / "ours.safetensors", metadata={"by": "oracle"})
    with open(SAFETENSORS_FILE, "rb") as f:
        theirs = f.read()
    assert (tmp_path / "ours.safetensors").read_bytes() == theirs
    assert save(expected, metadata={"by": "oracle"}) == theirs
    assert all(_same(v, expected[k]) for k, v in load(theirs).items())


def test_safetensors_safe_open_slices_and_models(tmp_path):
    library("safetensors")
    from safetensors import safe_open
    from safetensors.torch import load_model, save_model

    expected = safetensors_tensors(torch)
    with safe_open(SAFETENSORS_FILE, framework="pt") as f:
        assert set(f.keys()) == set(expected) and f.metadata() == {"by": "oracle"}
        assert _same(f.get_tensor("bf16"), expected["bf16"]) and _same(f.get_tensor("c64"), expected["c64"])
        assert torch.equal(f.get_slice("i32")[1:, 2:], expected["i32"][1:, 2:])
        assert torch.equal(f.get_slice("f64")[:, 1], expected["f64"][:, 1])
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.LayerNorm(4))
    save_model(model, str(tmp_path / "model.safetensors"))
    other = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.LayerNorm(4))
    missing, unexpected = load_model(other, str(tmp_path / "model.safetensors"))
    assert not missing and not unexpected
    assert all(torch.equal(a, b) for a, b in zip(model.state_dict().values(), other.state_dict().values()))
    tied = {"a": torch.zeros(4), "b": None}
    tied["b"] = tied["a"]
    with pytest.raises(RuntimeError, match="share memory"):
        from safetensors.torch import save_file

        save_file(tied, str(tmp_path / "tied.safetensors"))
