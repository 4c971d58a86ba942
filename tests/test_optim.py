"""Optimizers against their update rules written out in numpy."""
import io

import numpy as np
import pytest

import torch
from torch import nn


def _problem():
    torch.manual_seed(0)
    w = nn.Parameter(torch.randn(3, dtype=torch.float64))
    x = torch.randn(8, 3, dtype=torch.float64)
    y = torch.randn(8, dtype=torch.float64)
    return w, x, y


def _grad(w_np, x, y):
    xn, yn = x.numpy(), y.numpy()
    return 2 * xn.T @ (xn @ w_np - yn) / len(yn)


def _run(opt_cls, steps=5, **kw):
    w, x, y = _problem()
    start = w.detach().numpy().copy()
    opt = opt_cls([w], **kw)
    for _ in range(steps):
        opt.zero_grad()
        ((x @ w - y) ** 2).mean().backward()
        opt.step()
    return start, w.detach().numpy(), x, y


@pytest.mark.parametrize("kw", [dict(lr=0.1), dict(lr=0.1, momentum=0.9), dict(lr=0.1, momentum=0.9, nesterov=True),
                                dict(lr=0.1, weight_decay=0.01, momentum=0.5, dampening=0.1)])
def test_sgd(kw):
    start, got, x, y = _run(torch.optim.SGD, **kw)
    w, buf = start.copy(), None
    for _ in range(5):
        g = _grad(w, x, y) + kw.get("weight_decay", 0) * w
        if kw.get("momentum", 0):
            buf = g.copy() if buf is None else kw["momentum"] * buf + (1 - kw.get("dampening", 0)) * g
            g = g + kw["momentum"] * buf if kw.get("nesterov") else buf
        w = w - kw["lr"] * g
    np.testing.assert_allclose(got, w, rtol=1e-10)


@pytest.mark.parametrize("cls,kw", [(torch.optim.Adam, dict(lr=0.01)), (torch.optim.Adam, dict(lr=0.01, weight_decay=0.1)),
                                    (torch.optim.AdamW, dict(lr=0.01, weight_decay=0.1)),
                                    (torch.optim.Adam, dict(lr=0.01, amsgrad=True))])
def test_adam_family(cls, kw):
    start, got, x, y = _run(cls, **kw)
    w = start.copy()
    m = np.zeros_like(w)
    v = np.zeros_like(w)
    vmax = np.zeros_like(w)
    b1, b2, eps, lr, wd = 0.9, 0.999, 1e-8, kw["lr"], kw.get("weight_decay", 1e-2 if cls is torch.optim.AdamW else 0)
    for t in range(1, 6):
        g = _grad(w, x, y)
        if cls is torch.optim.AdamW:
            w = w * (1 - lr * wd)
        elif wd:
            g = g + wd * w
        m = b1 * m + (1 - b1) * g
        v = b2 * v + (1 - b2) * g * g
        vmax = np.maximum(vmax, v)
        second = vmax if kw.get("amsgrad") else v
        w = w - lr / (1 - b1**t) * m / (np.sqrt(second) / np.sqrt(1 - b2**t) + eps)
    np.testing.assert_allclose(got, w, rtol=1e-10)


def test_state_dict_resumes_identically():
    w1, x, y = _problem()
    opt1 = torch.optim.Adam([w1], lr=0.05)

    def step(w, opt):
        opt.zero_grad()
        ((x @ w - y) ** 2).mean().backward()
        opt.step()

    for _ in range(3):
        step(w1, opt1)
    buf = io.BytesIO()
    torch.save({"w": w1, "opt": opt1.state_dict()}, buf)
    buf.seek(0)
    saved = torch.load(buf)
    w2 = saved["w"]
    opt2 = torch.optim.Adam([w2], lr=0.05)
    opt2.load_state_dict(saved["opt"])
    for _ in range(3):
        step(w1, opt1)
        step(w2, opt2)
    assert w2.tolist() == w1.tolist()


def test_errors_and_zero_grad():
    w = nn.Parameter(torch.ones(2))
    with pytest.raises(ValueError, match="Invalid learning rate"):
        torch.optim.SGD([w], lr=-1)
    with pytest.raises(ValueError, match="empty parameter list"):
        torch.optim.Adam([])
    with pytest.raises(ValueError, match="can't optimize a non-leaf Tensor"):
        torch.optim.SGD([w * 2], lr=0.1)
    opt = torch.optim.SGD([w], lr=0.1)
    (w * 2).sum().backward()
    opt.zero_grad(set_to_none=False)
    assert w.grad.tolist() == [0.0, 0.0]
    opt.zero_grad()
    assert w.grad is None


@pytest.mark.parametrize("make", [lambda p: torch.optim.SGD(p, lr=0.1), lambda p: torch.optim.Adam(p, lr=0.1)])
def test_step_with_closure_returns_its_loss_and_records_gradients(make):
    w = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
    opt = make([w])

    def closure():
        opt.zero_grad()
        loss = (w * w).sum()
        assert loss.requires_grad  # step runs under no_grad; the closure must not
        loss.backward()
        return loss

    loss = opt.step(closure)
    assert loss.item() == 5.0
    assert w.tolist() != [1.0, -2.0]
    assert opt.step() is None


# Every optimizer of torch.optim: PyTorch's own numbers are in oracle/cases.py
# (optimizers_first_order, optimizers_lbfgs); these are their argument checks
# and state handling.
ALL_OPTIMIZERS = ["ASGD", "Adadelta", "Adagrad", "Adam", "AdamW", "Adamax", "LBFGS", "NAdam", "RAdam", "RMSprop",
                  "Rprop", "SGD"]


@pytest.mark.parametrize("cls,kw,message", [
    ("Adagrad", dict(lr_decay=-1), "Invalid lr_decay value: -1"),
    ("Adagrad", dict(initial_accumulator_value=-1), "Invalid initial_accumulator_value value: -1"),
    ("Adagrad", dict(eps=-1), "Invalid epsilon value: -1"),
    ("RMSprop", dict(alpha=-1), "Invalid alpha value: -1"),
    ("NAdam", dict(momentum_decay=-1), "Invalid momentum_decay value: -1"),
    ("Adadelta", dict(rho=2), "Invalid rho value: 2"),
    ("Rprop", dict(etas=(2, 3)), "Invalid eta values: 2, 3"),
    ("Rprop", dict(lr=-1), "Invalid learning rate: -1"),
    ("Adamax", dict(betas=(2, 0.9)), "Invalid beta parameter at index 0: 2"),
    ("RAdam", dict(betas=(0.9, 1.0)), "Invalid beta parameter at index 1: 1.0"),
    ("ASGD", dict(weight_decay=-0.5), "Invalid weight_decay value: -0.5"),
    ("LBFGS", dict(lr=-1), "Invalid learning rate: -1"),
])
def test_optimizer_argument_errors(cls, kw, message):
    with pytest.raises(ValueError, match=message):
        getattr(torch.optim, cls)([nn.Parameter(torch.ones(2))], **kw)


@pytest.mark.parametrize("name", ALL_OPTIMIZERS)
def test_implementation_flags(name):
    cls = getattr(torch.optim, name)
    p = [nn.Parameter(torch.ones(2))]
    if name == "LBFGS":  # PyTorch's LBFGS takes none of the switches
        with pytest.raises(TypeError):
            cls(p, foreach=False)
        return
    opt = cls(p, foreach=False)
    assert opt.param_groups[0]["foreach"] is False
    with pytest.raises(NotImplementedError, match="differentiable=True"):
        cls(p, differentiable=True)
    if name in ("Adam", "AdamW", "SGD", "Adagrad"):
        with pytest.raises(RuntimeError, match="`fused` and `foreach` cannot be `True` together"):
            cls(p, foreach=True, fused=True)


@pytest.mark.parametrize("name", [n for n in ALL_OPTIMIZERS if n != "LBFGS"])
def test_state_dict_resumes_the_same_trajectory(name):
    def make():
        torch.manual_seed(0)
        w = nn.Parameter(torch.randn(4, dtype=torch.float64))
        return w, getattr(torch.optim, name)([w], lr=0.01)

    def run(w, opt, steps):
        for _ in range(steps):
            opt.zero_grad()
            (w.sin() * torch.arange(4.0, dtype=torch.float64)).sum().backward()
            opt.step()

    w, opt = make()
    run(w, opt, 6)
    expected = w.detach().clone()
    w, opt = make()
    run(w, opt, 3)
    saved = opt.state_dict()
    w2, opt2 = make()
    with torch.no_grad():
        w2.copy_(w)
    opt2.load_state_dict(io_round_trip(saved))
    run(w2, opt2, 3)
    # Scalar state that PyTorch keeps in float32 (ASGD's eta, NAdam's mu_product)
    # loads in the parameter's dtype, in PyTorch too: equal to float32 rounding.
    assert torch.allclose(w2.detach(), expected, rtol=1e-6, atol=0)


def io_round_trip(obj):
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    buffer.seek(0)
    return torch.load(buffer)


def test_lbfgs_refuses_groups_and_needs_a_closure():
    a, b = nn.Parameter(torch.ones(2)), nn.Parameter(torch.ones(2))
    with pytest.raises(ValueError, match="LBFGS doesn't support per-parameter options"):
        torch.optim.LBFGS([{"params": [a]}, {"params": [b]}])
    opt = torch.optim.LBFGS([a])
    with pytest.raises(TypeError):  # closure is a required argument, as in PyTorch
        opt.step()
    with pytest.raises(RuntimeError, match="only 'strong_wolfe' is supported"):
        torch.optim.LBFGS([a], line_search_fn="backtracking").step(lambda: a.sum())


def test_lbfgs_minimises_a_quadratic_with_strong_wolfe():
    target = torch.tensor([1.0, -2.0, 3.0], dtype=torch.float64)
    w = nn.Parameter(torch.zeros(3, dtype=torch.float64))
    opt = torch.optim.LBFGS([w], line_search_fn="strong_wolfe", max_iter=50)

    def closure():
        opt.zero_grad()
        loss = ((w - target) ** 2 * torch.tensor([1.0, 10.0, 100.0], dtype=torch.float64)).sum()
        loss.backward()
        return loss

    opt.step(closure)
    assert torch.allclose(w.detach(), target, atol=1e-6)
