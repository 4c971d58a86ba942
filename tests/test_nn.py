"""torch.nn: modules, layers and losses against numpy references."""
import math

import numpy as np
import pytest

import torch
from torch import nn
from torch.nn import functional as F
from testing import assert_matches, to_numpy, to_torch


def _logsumexp(x, axis):
    m = x.max(axis=axis, keepdims=True)
    return (m + np.log(np.exp(x - m).sum(axis=axis, keepdims=True))).squeeze(axis)


def test_module_registration_and_traversal():
    model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Sequential(nn.Linear(3, 2), nn.Tanh()))
    names = [n for n, _ in model.named_parameters()]
    assert names == ["0.weight", "0.bias", "2.0.weight", "2.0.bias"]
    assert all(isinstance(p, nn.Parameter) and p.requires_grad for p in model.parameters())
    assert [type(m).__name__ for m in model.children()] == ["Linear", "ReLU", "Sequential"]
    assert len(list(model.modules())) == 6
    assert repr(model) == (
        "Sequential(\n  (0): Linear(in_features=4, out_features=3, bias=True)\n  (1): ReLU()\n"
        "  (2): Sequential(\n    (0): Linear(in_features=3, out_features=2, bias=True)\n    (1): Tanh()\n  )\n)")
    model.eval()
    assert not model[2][0].training
    model.train()
    assert model[2][0].training


def test_state_dict_round_trip_and_errors():
    a, b = nn.Linear(3, 2), nn.Linear(3, 2)
    result = b.load_state_dict(a.state_dict())
    assert repr(result) == "<All keys matched successfully>"
    assert b.weight.tolist() == a.weight.tolist() and b.weight.data_ptr() != a.weight.data_ptr()
    with pytest.raises(RuntimeError, match='Missing key\\(s\\) in state_dict: "bias"'):
        b.load_state_dict({"weight": a.weight.detach()})
    with pytest.raises(RuntimeError, match="size mismatch for weight"):
        b.load_state_dict({"weight": torch.zeros(5, 5), "bias": torch.zeros(2)})
    assert nn.Linear(3, 2).load_state_dict({"weight": a.weight.detach()}, strict=False).missing_keys == ["bias"]


def test_linear_matches_numpy_and_default_init_bounds():
    torch.manual_seed(0)
    layer = nn.Linear(20, 7)
    bound = 1 / math.sqrt(20)
    assert layer.weight.abs().max().item() <= bound and layer.bias.abs().max().item() <= bound
    x = torch.randn(5, 20)
    expected = to_numpy(x) @ to_numpy(layer.weight.detach()).T + to_numpy(layer.bias.detach())
    assert_matches(layer(x).detach(), expected)
    assert layer(torch.randn(2, 3, 20)).shape == (2, 3, 7)
    with pytest.raises(RuntimeError, match="mat1 and mat2 shapes cannot be multiplied"):
        layer(torch.randn(5, 3))


def test_activations_softmax_layernorm_embedding_dropout():
    x = torch.randn(4, 6)
    n = to_numpy(x).astype(np.float64)
    assert_matches(nn.ReLU()(x), np.maximum(n, 0))
    assert_matches(nn.Sigmoid()(x), 1 / (1 + np.exp(-n)))
    assert_matches(nn.Tanh()(x), np.tanh(n))
    assert_matches(nn.Softmax(dim=1)(x), np.exp(n - _logsumexp(n, 1)[:, None]))
    ln = nn.LayerNorm(6)
    expected = (n - n.mean(1, keepdims=True)) / np.sqrt(n.var(1, keepdims=True) + 1e-5)
    assert_matches(ln(x).detach(), expected, rtol=1e-4, atol=1e-5)
    emb = nn.Embedding(10, 3)
    idx = torch.tensor([[1, 2], [9, 1]])
    assert emb(idx).shape == (2, 2, 3)
    assert emb(idx)[0, 0].tolist() == emb.weight[1].tolist()
    drop = nn.Dropout(0.5)
    drop.eval()
    assert drop(x) is x
    drop.train()
    torch.manual_seed(1)
    y = drop(torch.ones(10000))
    kept = (y > 0).sum().item()
    assert 4500 < kept < 5500 and set(y.tolist()) == {0.0, 2.0}


def test_losses_match_numpy():
    torch.manual_seed(0)
    logits = torch.randn(6, 4)
    target = torch.tensor([0, 3, 1, 1, 2, 0])
    ln = to_numpy(logits).astype(np.float64)
    t = to_numpy(target)
    log_probs = ln - _logsumexp(ln, 1)[:, None]
    expected_ce = -log_probs[np.arange(6), t].mean()
    assert nn.CrossEntropyLoss()(logits, target).item() == pytest.approx(expected_ce, rel=1e-5)
    weight = torch.tensor([1.0, 2.0, 0.5, 1.0])
    w = to_numpy(weight)[t]
    expected_w = -(log_probs[np.arange(6), t] * w).sum() / w.sum()
    assert F.cross_entropy(logits, target, weight=weight).item() == pytest.approx(expected_w, rel=1e-5)
    ignore = torch.tensor([0, -100, 1, 1, 2, -100])
    keep = to_numpy(ignore) != -100
    expected_ig = -log_probs[np.arange(6)[keep], to_numpy(ignore)[keep]].mean()
    assert F.cross_entropy(logits, ignore).item() == pytest.approx(expected_ig, rel=1e-5)
    x, y = torch.randn(5), torch.rand(5)
    xn, yn = to_numpy(x).astype(np.float64), to_numpy(y).astype(np.float64)
    bce = np.mean(-(yn * np.log(1 / (1 + np.exp(-xn))) + (1 - yn) * np.log(1 - 1 / (1 + np.exp(-xn)))))
    assert nn.BCEWithLogitsLoss()(x, y).item() == pytest.approx(bce, rel=1e-5)
    assert nn.MSELoss(reduction="sum")(x, y).item() == pytest.approx(((xn - yn) ** 2).sum(), rel=1e-5)
    with pytest.raises(IndexError, match="Target 7 is out of bounds"):
        F.nll_loss(torch.randn(2, 3), torch.tensor([0, 7]))


def test_loss_gradients_flow_to_parameters():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.LayerNorm(8), nn.Linear(8, 3))
    loss = F.cross_entropy(model(torch.randn(5, 4)), torch.tensor([0, 1, 2, 1, 0]))
    loss.backward()
    assert all(p.grad is not None and p.grad.shape == p.shape for p in model.parameters())
    model.zero_grad()
    assert all(p.grad is None for p in model.parameters())


def test_init_functions():
    torch.manual_seed(0)
    w = torch.empty(64, 32)
    nn.init.xavier_uniform_(w)
    assert w.abs().max().item() <= math.sqrt(6 / 96)
    nn.init.kaiming_uniform_(w, nonlinearity="relu")
    assert w.abs().max().item() <= math.sqrt(6 / 32)
    nn.init.zeros_(w)
    assert w.abs().sum().item() == 0
    nn.init.normal_(w, 3.0, 0.1)
    assert abs(w.mean().item() - 3.0) < 0.01


def test_parameter_repr_and_module_to():
    p = nn.Parameter(torch.tensor([1.0]))
    assert repr(p) == "Parameter containing:\ntensor([1.], requires_grad=True)"
    model = nn.Linear(2, 2).double()
    assert model.weight.dtype == torch.float64 and isinstance(model.weight, nn.Parameter)


def test_module_to_moves_and_converts_parameters():
    model = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU(), torch.nn.Linear(3, 1))
    assert model.to(torch.float64) is model
    assert all(p.dtype == torch.float64 and p.requires_grad for p in model.parameters())
    model.to("cpu", torch.float32).cpu()
    assert all(p.dtype == torch.float32 and p.device.type == "cpu" for p in model.parameters())
    before = list(model.parameters())
    model.to("cpu").to(torch.float32)  # nothing to do: the same Parameter objects stay
    assert all(a is b for a, b in zip(before, model.parameters()))
    with pytest.raises(TypeError, match="floating point"):
        model.to(torch.int64)
    with pytest.raises(TypeError, match="device and/or a dtype"):
        model.to(1.5)
    if not torch.cuda.is_available():
        with pytest.raises(RuntimeError, match="CUDA"):
            model.cuda()


def test_layer_norm_of_half_input_with_float_parameters_runs_in_float():
    # PyTorch's mixed-dtype layer norm: float16/bfloat16 input, float32 weight and bias.
    torch.manual_seed(0)
    x = torch.randn(4, 3).to(torch.bfloat16).requires_grad_()
    w, b = torch.randn(3, requires_grad=True), torch.randn(3, requires_grad=True)
    out, mean, rstd = torch.native_layer_norm(x, [3], w, b, 1e-5)
    assert (out.dtype, mean.dtype, rstd.dtype) == (torch.bfloat16, torch.float32, torch.float32)
    xf = x.detach().float().requires_grad_()
    expect = torch.nn.functional.layer_norm(xf, [3], w, b)
    assert torch.equal(out, expect.to(torch.bfloat16))
    out.float().sum().backward()
    assert x.grad.dtype == torch.bfloat16 and w.grad.dtype == torch.float32
    wf = w.detach().clone().requires_grad_()
    torch.nn.functional.layer_norm(xf, [3], wf, b.detach()).sum().backward()
    assert torch.allclose(w.grad, wf.grad, rtol=1e-2, atol=1e-2)  # PyTorch rounds xhat to bfloat16 here


def test_convolution_over_no_input_channels_is_the_bias():
    # A deliberate deviation (docs/CORRECTNESS.md): the sum over zero channels is 0, so each output
    # channel is its bias; PyTorch 2.13 returns a result with no channels.
    bias = torch.tensor([1.0, -2.0, 3.0])
    out = F.conv2d(torch.zeros(2, 0, 4, 4), torch.zeros(3, 0, 1, 2), bias)
    assert out.shape == (2, 3, 4, 3)
    assert_matches(out, np.broadcast_to(to_numpy(bias).reshape(1, 3, 1, 1), (2, 3, 4, 3)))
    assert F.conv1d(torch.zeros(2, 0, 5), torch.zeros(4, 0, 2)).shape == (2, 4, 4)


def test_reduced_precision_convolution_gradients_sum_in_float32():
    # An input element under 600 kernel taps, each passing it a gradient of 1: summed in
    # bfloat16 the total sticks at 256 (256 + 1 rounds back to 256); PyTorch sums in float32.
    for dtype in (torch.bfloat16, torch.float16):
        x = torch.ones(1, 1, 1199, dtype=dtype, requires_grad=True)
        w = torch.ones(1, 1, 600, dtype=dtype, requires_grad=True)
        F.conv1d(x, w).sum().backward()
        assert x.grad[0, 0, 599].item() == 600 and x.grad[0, 0, 0].item() == 1
        assert torch.equal(w.grad, torch.full((1, 1, 600), 600.0, dtype=dtype))


@pytest.mark.parametrize("loss", [F.mse_loss, F.l1_loss, F.smooth_l1_loss])
def test_regression_losses_broadcast_another_target_size_with_pytorchs_warning(loss):
    pred, target = torch.tensor([[1.0], [2.0], [4.0]]), torch.tensor([1.0, 2.0, 3.0])
    with pytest.warns(UserWarning, match=r"Using a target size \(torch.Size\(\[3\]\)\) that is different to the "
                                         r"input size \(torch.Size\(\[3, 1\]\)\)"):
        got = loss(pred, target, reduction="none")
    assert got.shape == (3, 3)
    assert torch.allclose(got, loss(pred.expand(3, 3), target.expand(3, 3), reduction="none"))
    with pytest.raises(RuntimeError, match="must match the size"):
        with pytest.warns(UserWarning):
            loss(torch.ones(2, 3), torch.ones(4))


def test_rrelu_evaluates_as_leaky_relu_with_the_mean_slope_and_samples_in_training():
    slope = (1 / 8 + 1 / 3) / 2
    x = torch.tensor([-2.0, -0.5, 0.0, 0.0, 3.0], requires_grad=True)
    y = F.rrelu(x)
    assert torch.allclose(y, torch.tensor([-2 * slope, -0.5 * slope, 0.0, 0.0, 3.0]))
    y.sum().backward()
    # At 0 the gradient is the slope, as PyTorch's leaky_relu_backward (x > 0 takes 1).
    assert torch.allclose(x.grad, torch.tensor([slope, slope, slope, slope, 1.0]))
    assert torch.equal(torch.rrelu(x.detach()), y.detach())
    z = x.detach().clone()
    assert F.rrelu(z, inplace=True) is z and torch.equal(z, y.detach())
    neg = -torch.rand(10_000) - 0.1
    sampled = F.rrelu(neg, 0.2, 0.4, training=True)
    ratio = sampled / neg
    assert bool(((ratio >= 0.2 - 1e-6) & (ratio <= 0.4 + 1e-6)).all()) and ratio.std() > 0.03
    assert torch.equal(F.rrelu(torch.arange(5.0), training=True), torch.arange(5.0))


def test_module_lookup_extra_state_and_apply_as_pytorch():
    m = nn.Sequential(nn.Linear(2, 3), nn.Sequential(nn.BatchNorm1d(3)))
    assert m.get_parameter("0.weight") is m[0].weight and m.get_buffer("1.0.running_mean") is m[1][0].running_mean
    with pytest.raises(AttributeError, match="Linear has no attribute `nope`"):
        m.get_parameter("0.nope")
    with pytest.raises(AttributeError, match="`weight` is not a buffer"):
        m.get_buffer("0.weight")
    m.set_submodule("1.0", nn.Identity())
    assert isinstance(m[1][0], nn.Identity) and m._get_name() == "Sequential"
    weight = m[0].weight
    before = weight.detach().clone()
    m._apply(lambda t: t * 2)  # same dtype and device: the Parameter object stays (optimizers keep it)
    assert m[0].weight is weight and torch.equal(weight.detach(), before * 2)

    class Counter(nn.Module):
        def __init__(self):
            super().__init__()
            self.count = 5
            self.lin = nn.Linear(1, 1)

        def get_extra_state(self):
            return {"count": self.count}

        def set_extra_state(self, state):
            self.count = state["count"]

    state = Counter().state_dict()
    assert list(state) == ["_extra_state", "lin.weight", "lin.bias"] and state["_extra_state"] == {"count": 5}
    other = Counter()
    other.count = 0
    other.load_state_dict(state)
    assert other.count == 5
    with pytest.raises(RuntimeError, match='Unexpected key\\(s\\) in state_dict: "_extra_state"'):
        nn.Linear(1, 1).load_state_dict({**nn.Linear(1, 1).state_dict(), "_extra_state": 3})
    assert nn.Linear(2, 2).type(torch.float64).weight.dtype == torch.float64
    assert nn.Linear(2, 2).to_empty(device="cpu").weight.shape == (2, 2)
