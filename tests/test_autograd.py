"""Autograd: gradcheck over every differentiable op, and the behaviour of the API."""
import math
import os
import re

import numpy as np
import pytest

import torch
from opinfo import ALL_OPS
from opinfo.params import torch_args

# Ops whose outputs are not differentiable (bool or integer results, or
# piecewise-constant values whose derivative is 0 except where undefined).
NOT_DIFFERENTIABLE = {"eq", "ne", "lt", "le", "gt", "ge", "logical_and", "logical_or", "logical_xor", "logical_not",
                      "isnan", "isinf", "isfinite", "argmax", "argmin", "nonzero", "bitwise_and", "bitwise_or",
                      "bitwise_xor", "bitwise_not", "any", "all", "heaviside", "signbit", "unique_consecutive",
                      "_unique2", "unique_dim"}
# Formulas that refuse, as PyTorch's do: backward raises NotImplementedError naming the op.
REFUSING_FORMULAS = {"unique_consecutive": lambda x: torch.unique_consecutive(x), "_unique2": lambda x: torch.unique(x),
                     "unique_dim": lambda x: torch.unique(x, dim=0)}


def _gradcheck_cases():
    cases = []
    for op in ALL_OPS:
        if op.name in NOT_DIFFERENTIABLE or torch.float64 not in op.dtypes:
            continue
        cases.append(pytest.param(op, id=op.id))
    return cases


def _requires_grad(args, skip=()):
    out = []
    for i, a in enumerate(args):
        if isinstance(a, list):
            out.append(_requires_grad(a))
        elif isinstance(a, torch.Tensor) and a.dtype == torch.float64 and a.numel() <= 30 and i not in skip:
            out.append(a.detach().requires_grad_(True))
        else:
            out.append(a)
    return out


def _flatten(args):
    for a in args:
        if isinstance(a, list):
            yield from _flatten(a)
        else:
            yield a


@pytest.mark.parametrize("op", _gradcheck_cases())
def test_gradcheck(op, rng):
    checked = 0
    for sample in op.sample_inputs(op, torch.float64, rng):
        args = _requires_grad(torch_args(sample, torch.float64), op.nondifferentiable_args)
        leaves = [a for a in _flatten(args) if isinstance(a, torch.Tensor) and a.requires_grad]
        if not leaves or sum(a.numel() for a in leaves) > 60:
            continue
        # Nested lists (cat's tensors) are passed through a closure over the leaves.
        assert torch.autograd.gradcheck(lambda *_: op(*args, **sample.kwargs), leaves), sample.desc
        checked += 1
    assert checked > 0, "no sample was small enough to gradcheck"


def test_hello_world_graph_names():
    torch.manual_seed(0)
    w = torch.randn(1, 2, requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    y = torch.sigmoid(torch.nn.functional.linear(torch.ones(2, 2), w, b))
    loss = torch.nn.functional.mse_loss(y, torch.ones(2, 1))
    assert y.grad_fn.name() == "SigmoidBackward0"
    assert loss.grad_fn.name() == "MseLossBackward0"
    assert y.grad_fn.next_functions[0][0].name() == "AddmmBackward0"
    assert repr(loss).endswith("grad_fn=<MseLossBackward0>)")
    assert repr(w).endswith("requires_grad=True)")


def test_leaves_and_accumulation():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    assert x.is_leaf and x.grad is None
    (x * x).sum().backward()
    assert x.grad.tolist() == [2.0, 4.0, 6.0]
    (x * 3).sum().backward()
    assert x.grad.tolist() == [5.0, 7.0, 9.0]  # accumulated
    y = x * 2
    assert not y.is_leaf and y.requires_grad and y.grad is None


def test_broadcasting_views_and_indexing_gradients():
    a = torch.ones(3, 1, requires_grad=True)
    b = torch.ones(4, requires_grad=True)
    (a + b).sum().backward()
    assert a.grad.tolist() == [[4.0]] * 3 and b.grad.tolist() == [3.0] * 4
    m = torch.arange(6.0).reshape(2, 3).requires_grad_()
    (m.t()[1:, 0] * torch.tensor([10.0, 20.0])).sum().backward()
    assert m.grad.tolist() == [[0.0, 10.0, 20.0], [0.0, 0.0, 0.0]]
    v = torch.arange(5.0, requires_grad=True)
    v[torch.tensor([0, 0, 3])].sum().backward()
    assert v.grad.tolist() == [2.0, 0.0, 0.0, 1.0, 0.0]
    w = torch.arange(4.0, requires_grad=True)
    w[w > 1].sum().backward()
    assert w.grad.tolist() == [0.0, 0.0, 1.0, 1.0]


def test_no_grad_enable_grad_set_grad_enabled():
    x = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        assert not (x * 2).requires_grad
        with torch.enable_grad():
            assert (x * 2).requires_grad
    assert torch.is_grad_enabled()

    @torch.no_grad()
    def f(t):
        return t * 2

    assert not f(x).requires_grad and torch.is_grad_enabled()
    with torch.set_grad_enabled(False):
        assert not (x + 1).requires_grad
    assert (x + 1).requires_grad


def test_second_backward_needs_retain_graph():
    x = torch.ones(2, requires_grad=True)
    y = (x.exp() * 2).sum()
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.tolist() == pytest.approx([4 * np.e] * 2)
    z = x.exp().sum()
    z.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        z.backward()


def test_inplace_modification_of_saved_tensor_is_detected():
    x = torch.ones(2, requires_grad=True)
    y = x.sigmoid()
    y.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation: .*output 0 of SigmoidBackward0, is at "
                                           "version 1; expected version 0"):
        y.sum().backward()
    assert y._version == 1


def test_inplace_on_leaf_requiring_grad_is_refused():
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an in-place operation"):
        x.add_(1)
    with torch.no_grad():
        x.add_(1)
    assert x.tolist() == [2.0, 2.0]


def test_inplace_ops_on_non_leaves_are_differentiated():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.add_(1).mul_(2)
    y.sum().backward()
    assert x.grad.tolist() == [6.0, 6.0]


def test_hooks_and_retain_grad():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    y.retain_grad()
    handle = y.register_hook(lambda g: g * 10)
    y.sum().backward()
    assert y.grad.tolist() == [10.0, 10.0]  # retain_grad sees what the hooks made
    assert x.grad.tolist() == [20.0, 40.0]
    handle.remove()
    x.grad = None
    leaf_hook_calls = []
    x.register_hook(lambda g: leaf_hook_calls.append(g.tolist()))
    (x * x).sum().backward()
    assert x.grad.tolist() == [2.0, 4.0] and leaf_hook_calls == [[2.0, 4.0]]


def test_autograd_grad():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    z = torch.tensor([3.0], requires_grad=True)
    (gx,) = torch.autograd.grad((x**3).sum(), x)
    assert gx.tolist() == [3.0, 12.0] and x.grad is None
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        torch.autograd.grad((x * 2).sum(), [x, z])
    gx, gz = torch.autograd.grad((x * 2).sum(), [x, z], allow_unused=True)
    assert gz is None
    (g,) = torch.autograd.grad(x * 2, x, grad_outputs=torch.tensor([1.0, -1.0]))
    assert g.tolist() == [2.0, -2.0]


def test_errors():
    with pytest.raises(RuntimeError, match="only Tensors of floating point dtype can require gradients"):
        torch.ones(2, dtype=torch.int64).requires_grad_()
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad"):
        torch.ones(2).sum().backward()
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
        (torch.ones(2, requires_grad=True) * 2).backward()
    with pytest.raises(RuntimeError, match="you can only change requires_grad flags of leaf variables"):
        (torch.ones(2, requires_grad=True) * 2).requires_grad_(False)
    with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
        torch.add(torch.ones(2, requires_grad=True), 1, out=torch.empty(2))
    with pytest.raises(RuntimeError, match="Can't call numpy\\(\\) on Tensor that requires grad"):
        torch.ones(2, requires_grad=True).numpy()


def test_detach_and_integer_results():
    x = torch.ones(3, requires_grad=True)
    d = x.detach()
    assert not d.requires_grad and d.data_ptr() == x.data_ptr()
    assert not (x > 0).requires_grad
    assert not x.argmax().requires_grad
    assert torch.ones(2, requires_grad=True).data.requires_grad is False
    assert torch.zeros(2, requires_grad=True).requires_grad


def test_gradcheck_reports_a_wrong_jacobian():
    # sign() has derivative 0 by formula but jumps at 0, where finite differences see the jump.
    x = torch.tensor([0.0], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(torch.sign, (x,), raise_exception=False) is False
    with pytest.raises(RuntimeError, match="Jacobian mismatch"):
        torch.autograd.gradcheck(torch.sign, (x,))


def test_inplace_on_views_rebases_the_base_history():
    y = torch.tensor([2.0, 3.0], requires_grad=True)
    x = torch.zeros(3)
    x[1:] = y * 2  # copy_ into a view of a tensor without history
    assert x.grad_fn.name() == "CopySlices"
    (x * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
    assert y.grad.tolist() == [20.0, 200.0]
    a = torch.ones(2, 3, requires_grad=True)
    b = a.clone()
    b[:, 1].mul_(3)  # in-place on a strided view of a non-leaf
    b.pow(2).sum().backward()
    assert a.grad.tolist() == [[2.0, 18.0, 2.0]] * 2
    w = torch.arange(4.0, dtype=torch.float64, requires_grad=True)

    def f(w):
        h = w * 1
        h[1:3] *= h[0:2].exp()
        return h

    assert torch.autograd.gradcheck(f, (w,))
    with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad is being used in an in-place"):
        leaf = torch.ones(3, requires_grad=True)
        leaf[0] = 1.0


def test_nll_loss_refuses_a_weight_that_requires_grad():
    # PyTorch: nll_loss is not differentiable with respect to `weight`.
    x = torch.randn(4, 3, requires_grad=True)
    w = torch.rand(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="not differentiable with respect to argument 'weight'"):
        torch.nn.functional.nll_loss(x.log_softmax(1), torch.tensor([0, 1, 2, 0]), w)
    with torch.no_grad():
        torch.nn.functional.nll_loss(x.log_softmax(1), torch.tensor([0, 1, 2, 0]), w)


# Formulas of derivatives.yaml whose op has no gradchecked OpInfo record of
# its own name: each is gradchecked here, on the call that reaches it.
def _f64(*shape):
    return torch.randn(*shape, dtype=torch.float64)


def _index_put_case(x, v, u):
    y = (x * 1).t()  # a non-contiguous view: written through a contiguous copy
    y[torch.tensor([1, 3])] = v  # overwritten rows pass no gradient to x
    w = (x * 2).index_put((torch.tensor([0, 0, 2]),), u, accumulate=True)  # repeated rows add up
    return torch.cat([y.reshape(-1), w.reshape(-1)])


def _with_grad(fn):
    with torch.enable_grad():  # gradcheck's finite differences run under no_grad
        return fn()


def _seeded_fill(fill):
    """(x * 2) refilled by a random in-place op, plus x: the fill's formula
    must give no gradient through x * 2. Seeded, so that gradcheck's repeated
    evaluations draw the same numbers."""
    def fn(x):
        torch.manual_seed(0)
        return fill(x * 2) + x
    return fn


GRADCHECKED_HERE = {
    "uniform_": (_seeded_fill(lambda y: y.uniform_()), (_f64(3),)),
    "normal_": (_seeded_fill(lambda y: y.normal_()), (_f64(3),)),
    # Its three overloads; random_()'s values reach 2^53, hence the remainder.
    "random_": (lambda x: _seeded_fill(lambda y: y.random_(5))(x) + _seeded_fill(lambda y: y.random_(1, 4))(x) +
                _seeded_fill(lambda y: y.random_().remainder(7))(x), (_f64(3),)),
    "bernoulli_": (_seeded_fill(lambda y: y.bernoulli_(0.5)), (_f64(3),)),
    "_index_put_rows_": (_index_put_case, (_f64(3, 4), _f64(2, 3), _f64(3, 4))),
    "_lstm_cell": (lambda g, c: torch._lstm_cell(g, c)[0] + torch._lstm_cell(g, c)[1].sum(), (_f64(2, 8), _f64(2, 2))),
    "_to_copy": (lambda x: x.to(torch.float64, copy=True), (_f64(3),)),
    # Training and evaluation (the running statistics fixed); test_batch_norm.py gradgradchecks both.
    "_batch_norm": (lambda x, w, b: torch._batch_norm(x, w, b, None, None, True, 0.1, 1e-5)[0] +
                    torch._batch_norm(x, w, b, torch.zeros(3, dtype=torch.float64),
                                      torch.ones(3, dtype=torch.float64), False, 0.1, 1e-5)[0],
                    (_f64(4, 3, 2), _f64(3), _f64(3))),
    # The padding ops' gradient, as a function of the output's gradient (its formula is the padding itself).
    "_pad_backward": (lambda g: torch._pad_backward(g, [1, 2, 5], [2, 1], 0).square().sum() +
                      torch._pad_backward(g, [1, 2, 5], [2, 1], 2).square().sum(), (_f64(1, 2, 8),)),
    # Behind conv1d/conv2d, unbatched inputs included (a batch of one around it).
    "_convolution_batched": (lambda x, w, b: torch.conv1d(x, w, b, 1, 1).sum() + torch.conv2d(x.unsqueeze(1), w.unsqueeze(2), b).sum(),
                             (_f64(2, 5), _f64(3, 2, 2), _f64(3))),
    "as_strided": (lambda x: x.as_strided((2, 2), (1, 2), 1), (_f64(6),)),
    "clone": (lambda x: x.clone(), (_f64(2, 3),)),
    "copy_": (lambda x: torch.zeros(2, 3, dtype=torch.float64).copy_(x), (_f64(2, 3),)),
    "expand": (lambda x: x.expand(3, 4), (_f64(1, 4),)),
    "fill_": (lambda x: (x * 2).fill_(1.5) + x, (_f64(3),)),
    "masked_fill_": (lambda x: (x * 1).masked_fill_(torch.tensor([True, False, True]), 0.5), (_f64(3),)),
    "_lstm_sequence": (lambda gi, h0, c0, w: torch._lstm_sequence(gi, h0, c0, w)[:2],
                       (_f64(3, 2, 8), _f64(2, 2), _f64(2, 2), _f64(8, 2))),
    "pow_": (lambda x, e: x.abs().add(0.5).pow_(2.5) + x.abs().add(0.5).pow_(e), (_f64(3), _f64(3))),
    "_reshape_alias": (lambda x: x.t().reshape(3, 2) * torch.arange(6.0, dtype=torch.float64).view(3, 2),
                       (_f64(2, 3),)),
    "_unsafe_view": (lambda x: x.t().reshape(6) * torch.arange(6.0, dtype=torch.float64), (_f64(2, 3),)),
    # Pieces used unevenly (one unused: an undefined gradient the formula fills with zeros).
    "split": (lambda x: (x.split(2, 1)[0] * 2, x.split(2, 1)[2].sin()), (_f64(3, 5),)),
    "split_with_sizes": (lambda x: (x.split([1, 3], 0)[1].exp(),), (_f64(4, 2),)),
    "native_layer_norm": (lambda x, w, b: torch.native_layer_norm(x, [3, 2], w, b, 1e-5)[0],
                          (_f64(4, 3, 2), _f64(3, 2), _f64(3, 2))),
    # Called directly, as F.group_norm calls it (the group_norm OpInfo gradchecks that path).
    "native_group_norm": (lambda x, w, b: torch.native_group_norm(x, w, b, 2, 4, 3, 2, 1e-5)[0],
                          (_f64(2, 4, 3), _f64(4), _f64(4))),
    "max_pool2d_with_indices": (lambda x: torch.nn.functional.max_pool2d(x, 2), (_f64(1, 1, 4, 4),)),
    "max_pool3d_with_indices": (lambda x: torch.nn.functional.max_pool3d(x, 2, 1, 1), (_f64(1, 1, 3, 4, 3),)),
    "max_unpool2d": (lambda x: torch._C._nn.max_unpool2d(x, torch.tensor([[[[0, 3], [9, 14]]]]), [4, 4]),
                     (_f64(1, 1, 2, 2),)),
    "max_unpool3d": (lambda x: torch._C._nn.max_unpool3d(x, torch.tensor([[[[[0, 7]]]]]), [2, 2, 2], [2, 2, 2],
                                                         [0, 0, 0]), (_f64(1, 1, 1, 1, 2),)),
    # Linear in the output's gradient (the indices fixed): its own gradient gathers at them.
    "_max_pool_backward": (lambda g: torch._max_pool_backward(g, torch.tensor([[[0, 5], [5, 15]]]), [1, 4, 4], 2),
                           (_f64(1, 2, 2),)),
    # Each mode, sample weights and padding (index 2) included.
    "_embedding_bag": (lambda w, p: tuple(torch.nn.functional.embedding_bag(
        torch.tensor([0, 2, 3, 3, 1, 0]), w, torch.tensor([0, 2, 2, 5]), mode=mode, padding_idx=2,
        per_sample_weights=p if mode == "sum" else None) for mode in ("sum", "mean", "max")),
        (_f64(4, 3), _f64(6))),
    "rsub": (lambda x: torch.rsub(x, 2.0, alpha=3), (_f64(3),)),
    # C++ only: gelu's gradient, differentiated again (both approximations).
    "gelu_backward": (lambda x: _with_grad(lambda: sum(torch.autograd.grad(
        torch.nn.functional.gelu(x, approximate=a).sum(), x, create_graph=True)[0] for a in ("none", "tanh"))),
        (_f64(4),)),
    "_clone_strided": (lambda x: x.mT.clone() * torch.arange(12.0, dtype=torch.float64).reshape(4, 3),
                       (_f64(3, 4),)),
    "select": (lambda x: x[1], (_f64(3, 2),)),
    "slice": (lambda x: x[1:3, ::2], (_f64(4, 4),)),
    # In place on a view: the view gets the node, its base keeps its history.
    "squeeze_": (lambda x: (x * 2)[:, :1].squeeze_(1) * torch.arange(3.0, dtype=torch.float64), (_f64(3, 2),)),
    "unsqueeze_": (lambda x: (x * 2).unsqueeze_(0) * torch.arange(3.0, dtype=torch.float64), (_f64(2, 3),)),
}


def _ops_with_formulas():
    path = os.path.join(os.path.dirname(torch.__file__), "share", "torch", "derivatives.yaml")
    with open(path) as f:
        return set(re.findall(r"^- name: (\w+)[.(]", f.read(), re.M))


@pytest.mark.parametrize("name", sorted(REFUSING_FORMULAS))
def test_refusing_formulas_raise_naming_the_op(name):
    x = torch.tensor([1.0, 1.0, 2.0], dtype=torch.float64, requires_grad=True)
    out = REFUSING_FORMULAS[name](x)
    assert out.requires_grad
    with pytest.raises(NotImplementedError, match=f"derivative for '{name}' is not implemented"):
        out.sum().backward()


def test_every_formula_is_gradchecked():
    formulas = _ops_with_formulas()
    by_records = {p.values[0].name for p in _gradcheck_cases()}
    missing = sorted(formulas - by_records - set(GRADCHECKED_HERE) - set(REFUSING_FORMULAS))
    assert not missing, f"derivatives.yaml formulas that nothing gradchecks: {missing}"
    assert not set(GRADCHECKED_HERE) - formulas, "GRADCHECKED_HERE names ops without a formula"
    assert not set(GRADCHECKED_HERE) & by_records, "GRADCHECKED_HERE names ops that records gradcheck already"
    assert len(formulas) > 80  # the list really comes from the installed derivatives.yaml


@pytest.mark.parametrize("name", sorted(GRADCHECKED_HERE))
def test_gradcheck_formulas_without_records(name):
    fn, inputs = GRADCHECKED_HERE[name]
    leaves = [t.detach().requires_grad_(True) for t in inputs]
    assert torch.autograd.gradcheck(fn, leaves)


def _once_differentiable_ops():
    """Ops whose formula runs a kernel that records nothing (once_differentiable in derivatives.yaml)."""
    path = os.path.join(os.path.dirname(torch.__file__), "share", "torch", "derivatives.yaml")
    with open(path) as f:
        return set(re.findall(r'^ +[\w, ]+: once_differentiable\(\[&\] \{ return .*?; \}, "(\w+)"\)$', f.read(), re.M))


def _gradgradcheck_or_refusal(fn, leaves):
    """True when the second derivatives match finite differences; the op's name when create_graph refuses
    it for a once_differentiable formula (never a silent constant)."""
    try:
        return torch.autograd.gradgradcheck(fn, leaves)
    except NotImplementedError as e:
        found = re.search(r"the second derivative through '(\w+)' is not implemented", str(e))
        assert found, str(e)
        return found.group(1)


@pytest.mark.parametrize("op", _gradcheck_cases())
def test_gradgradcheck(op, rng):
    """Every formula is written in ops that record (create_graph differentiates it again), or is marked
    once_differentiable and refuses a second derivative with a clear error."""
    refusing = _once_differentiable_ops()
    for sample in op.sample_inputs(op, torch.float64, rng):
        args = _requires_grad(torch_args(sample, torch.float64), op.nondifferentiable_args)
        leaves = [a for a in _flatten(args) if isinstance(a, torch.Tensor) and a.requires_grad]
        if not leaves or sum(a.numel() for a in leaves) > 40:
            continue
        result = _gradgradcheck_or_refusal(lambda *_: op(*args, **sample.kwargs), leaves)
        assert result is True or result in refusing, (sample.desc, result)
        return
    pytest.skip("no sample small enough")


@pytest.mark.parametrize("name", sorted(GRADCHECKED_HERE))
def test_gradgradcheck_formulas_without_records(name):
    fn, inputs = GRADCHECKED_HERE[name]
    leaves = [t.detach().requires_grad_(True) for t in inputs]
    result = _gradgradcheck_or_refusal(fn, leaves)
    assert result is True or result in _once_differentiable_ops(), result


def test_once_differentiable_formulas_are_the_ones_listed():
    # Each is a kernel that records nothing; giving one a differentiable form takes it off this list.
    assert _once_differentiable_ops() == {"glu", "native_layer_norm", "native_group_norm", "_lstm_sequence",
                                          "_convolution_batched", "take", "cumprod", "_interp_linear", "pdist",
                                          "multilabel_margin_loss"}


def test_create_graph_second_derivatives_and_gradient_penalty():
    x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad((x ** 3).sum(), x, create_graph=True)
    assert g.requires_grad and g.grad_fn is not None
    (h,) = torch.autograd.grad(g.sum(), x)
    assert torch.allclose(h, 6 * x.detach())
    # A WGAN-GP style penalty: the gradient's norm, differentiated with respect to the weights.
    torch.manual_seed(0)
    critic = torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.ReLU(), torch.nn.Linear(8, 1)).double()
    points = torch.randn(5, 3, dtype=torch.float64, requires_grad=True)
    (grad_points,) = torch.autograd.grad(critic(points).sum(), points, create_graph=True)
    penalty = ((grad_points.norm(2, dim=1) - 1) ** 2).mean()
    penalty.backward()
    w0, w1 = critic[0].weight.detach(), critic[2].weight.detach()
    assert critic[0].weight.grad is not None and critic[2].weight.grad.abs().sum() > 0

    def penalty_of(first, second):
        with torch.enable_grad():
            p = points.detach().requires_grad_()
            hidden = torch.relu(p @ first.t() + critic[0].bias.detach())
            (gp,) = torch.autograd.grad((hidden @ second.t()).sum(), p, create_graph=True)
            return ((gp.norm(2, dim=1) - 1) ** 2).mean()
    eps = 1e-6
    bumped = w1.clone()
    bumped[0, 0] += eps
    lowered = w1.clone()
    lowered[0, 0] -= eps
    numeric = (penalty_of(w0, bumped) - penalty_of(w0, lowered)) / (2 * eps)
    assert abs(float(numeric) - float(critic[2].weight.grad[0, 0])) < 1e-6


def test_create_graph_through_a_custom_function_saving_its_output():
    class Exp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            r = t.exp()
            ctx.save_for_backward(r)
            return r

        @staticmethod
        def backward(ctx, g):
            (r,) = ctx.saved_tensors
            return g * r

    x = torch.tensor([0.1, 0.7], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(Exp.apply(x).sum(), x, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), x)
    assert torch.allclose(h, x.detach().exp())


def test_backward_create_graph_and_inputs():
    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    with pytest.warns(UserWarning, match="create_graph=True will create a reference cycle"):
        (x ** 2).sum().backward(create_graph=True)
    assert x.grad.requires_grad and torch.equal(x.grad.detach(), 2 * x.detach())
    (gx,) = torch.autograd.grad(x.grad.sum(), x)
    assert torch.equal(gx, torch.full((2,), 2.0, dtype=torch.float64))
    x.grad = None  # the cycle the warning names (x -> grad -> its graph -> x), broken as it advises
    a = torch.tensor([1.0], requires_grad=True)
    b = torch.tensor([3.0], requires_grad=True)
    (a * b).sum().backward(inputs=[a])
    assert a.grad.item() == 3.0 and b.grad is None
    u = torch.ones(2, requires_grad=True)
    assert torch.equal(torch.autograd.grad(u.sum(), [u, torch.ones(1, requires_grad=True)],
                                           materialize_grads=True)[1], torch.zeros(1))


def test_a_view_reads_the_history_its_base_has_now():
    """An in-place op on the base or on a sibling view after a view was taken:
    the view's gradient flows through that write (as in PyTorch), not around it."""
    x = torch.ones(3, 4, requires_grad=True)
    b = x * 2
    y, z = b.t(), b[0]
    z.mul_(5)  # through a sibling view
    y.sum().backward()
    assert torch.equal(x.grad, torch.tensor([[10.0] * 4, [2.0] * 4, [2.0] * 4]))
    assert y.grad_fn.name() == "AsStridedBackward0"

    x = torch.zeros(3, 4, requires_grad=True)
    y = (x * 2).t()
    y[torch.tensor([1])] = 3.0  # integer-index write into a transposed view
    y.sum().backward()
    assert torch.equal(x.grad, torch.tensor([[2.0, 0.0, 2.0, 2.0]] * 3))

    x = torch.zeros(3, requires_grad=True)
    h = x * 2
    h[torch.tensor([0, 0])] = torch.tensor([5.0, 6.0])
    h.sum().backward()
    assert torch.equal(x.grad, torch.tensor([0.0, 2.0, 2.0]))


def test_gradcheck_checks_every_output_of_a_tuple():
    x = torch.randn(3, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda a: (a * 2, a.sin()), (x,))  # sin saves its input

    class WrongSecond(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2, a * 3

        @staticmethod
        def backward(ctx, g1, g2):
            return g1 * 2 + g2 * 2  # the second output's derivative is 3

    assert not torch.autograd.gradcheck(WrongSecond.apply, (x,), raise_exception=False)
    assert torch.autograd.gradcheck(lambda a: a * 2, (x,), check_batched_grad=False, nondet_tol=0.0)
    with pytest.raises(NotImplementedError, match="check_forward_ad=True is not supported"):
        torch.autograd.gradcheck(lambda a: a * 2, (x,), check_forward_ad=True)
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        torch.autograd.gradcheck(lambda a: a * 2, (x,), bogus=1)


def test_layer_norm_statistics_carry_no_gradient():
    # native_layer_norm's mean and rstd are outputs without history (output_differentiability).
    x = torch.randn(2, 3, requires_grad=True)
    out, mean, rstd = torch.native_layer_norm(x, [3], None, None, 1e-5)
    assert out.grad_fn.name() == "NativeLayerNormBackward0"
    assert not mean.requires_grad and not rstd.requires_grad
    assert torch.nn.functional.layer_norm(x, (3,)).grad_fn.name() == "NativeLayerNormBackward0"


def test_reshape_records_pytorchs_nodes():
    # A view when contiguous, an alias when a view can express it, else a copy (difftest's grad_fn findings).
    x = torch.ones(2, 3, requires_grad=True)
    assert x.reshape(6).grad_fn.name() == "ViewBackward0"
    assert x.t().reshape(3, 2).grad_fn.name() == "ReshapeAliasBackward0"
    assert x.t().reshape(6).grad_fn.name() == "UnsafeViewBackward0"
    assert torch.matmul(torch.ones(2, 2, 3, requires_grad=True), torch.ones(3, 4)).grad_fn.name() == "UnsafeViewBackward0"
    assert torch.flatten(torch.ones(3, requires_grad=True)).grad_fn is None  # 1-D: flatten returns its input
    y = x * 1
    y.t().reshape(3, 2).mul_(2)  # writes through the alias
    assert y.tolist() == [[2.0] * 3] * 2
    v = torch.ones(2, requires_grad=True)
    assert torch.rsub(v, 2).grad_fn.name() == "RsubBackward1" and torch.rsub(v, v).grad_fn.name() == "RsubBackward0"
    assert torch.remainder(v, 2).grad_fn.name() == "RemainderBackward0"
    assert torch.remainder(v, v).grad_fn.name() == "RemainderBackward1"
    assert v.split(1)[0].grad_fn.name() == "SplitBackward0" and v.chunk(2)[1].grad_fn.name() == "SplitBackward0"
    assert v.split([1, 1])[0].grad_fn.name() == "SplitWithSizesBackward0"
    assert torch.sort(v)[0].grad_fn.name() == "SortBackward0"
    assert torch.sort(v, stable=True)[0].grad_fn.name() == "SortBackward1"
    assert v.clone().pow_(2).grad_fn.name() == "PowBackward0" and v.clone().square_().grad_fn.name() == "PowBackward0"


def test_a_cast_to_an_integer_dtype_leaves_autograd():
    x = torch.ones(2, requires_grad=True)
    r = x.to(torch.int32)
    assert r.dtype == torch.int32 and not r.requires_grad and r.grad_fn is None
    with pytest.raises(RuntimeError, match="Autograd not support dtype: Long"):
        x.sum(dtype=torch.int64)  # PyTorch refuses this one


def test_pow_with_a_number_base_is_differentiable():
    # torch.pow(2.5, t) was composite over a helper that recorded nothing: no gradient at all.
    e = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
    assert torch.pow(2.5, e).grad_fn.name() == "PowBackward2"
    assert torch.autograd.gradcheck(lambda t: torch.pow(2.5, t), (e,))
    (2.5 ** e).sum().backward()
    assert torch.allclose(e.grad, 2.5 ** e.detach() * math.log(2.5))


def _g(*shape):
    return torch.ones(*shape, requires_grad=True)


@pytest.mark.parametrize("call, node", [
    # matmul decomposes as PyTorch's does (tools/difftest compared the names):
    (lambda: torch.matmul(_g(3), torch.ones(3, 2)), "SqueezeBackward4"),  # mm, then squeeze_(0)
    (lambda: torch.matmul(_g(2, 3), torch.ones(3)), "MvBackward0"),
    (lambda: torch.matmul(_g(4, 2, 3), torch.ones(3, 2)), "UnsafeViewBackward0"),  # folded into one mm
    (lambda: torch.matmul(_g(2, 3), torch.ones(4, 3, 2)), "CloneBackward0"),  # folded, transposed back
    (lambda: torch.matmul(_g(0, 3), torch.ones(4, 3, 2)), "TransposeBackward0"),  # ... empty: no copy
    (lambda: torch.matmul(torch.ones(2, 3), _g(4, 3, 2)), "UnsafeViewBackward0"),  # bmm
    (lambda: torch.nn.functional.linear(_g(3), torch.ones(2, 3), torch.ones(2)), "ViewBackward0"),
    (lambda: torch.nn.functional.linear(_g(4, 3), torch.ones(2, 3), torch.ones(2)), "AddmmBackward0"),
    (lambda: torch.nn.functional.linear(_g(5, 4, 3).transpose(0, 1), torch.ones(2, 3), torch.ones(2)), "AddBackward0"),
    (lambda: torch.nn.functional.linear(_g(4, 3), torch.ones(3)), "MvBackward0"),
])
def test_matmul_and_linear_record_pytorchs_nodes(call, node):
    assert call().grad_fn.name() == node


def test_squeeze_in_place_on_a_view_keeps_the_base_history():
    a = torch.ones(2, 1, 3, requires_grad=True)
    b = a * 2
    v = b[0]
    v.squeeze_(0)
    assert v.shape == (3,) and v.grad_fn.name() == "SqueezeBackward4" and b.grad_fn.name() == "MulBackward0"
    (v * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert torch.equal(a.grad, torch.tensor([[[2.0, 4.0, 6.0]], [[0.0, 0.0, 0.0]]]))
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        torch.ones(2, 1, requires_grad=True).squeeze_(1)


def test_softmax_to_an_integer_dtype_drops_the_history():
    # softmax converts to dtype first, as PyTorch's does: an empty result of an integer dtype, no grad_fn.
    x = torch.zeros(2, 0, requires_grad=True)
    y = torch.softmax(x, 0, torch.int32)
    assert y.dtype == torch.int32 and y.grad_fn is None
    z = torch.softmax(torch.ones(2, 3, requires_grad=True), 1, torch.float64)
    assert z.grad_fn.name() == "SoftmaxBackward0" and z.grad_fn.next_functions[0][0].name() == "ToCopyBackward0"


def test_as_strided_backward_over_storage_positions():
    # As PyTorch: overlapping reads add up; an expanded input shares its positions' gradient.
    a = torch.tensor([[-0.5, 0.25]], requires_grad=True)
    torch.as_strided(a, [2, 1, 2], [1, 0, 0]).mul(torch.arange(4.0).view(2, 1, 2)).sum().backward()
    assert a.grad.tolist() == [[1.0, 5.0]]
    b = torch.randn(3, 4, requires_grad=True)
    b.t().as_strided([2, 2], [1, 2], 1).mul(torch.arange(4.0).view(2, 2)).sum().backward()
    assert b.grad.tolist() == [[0.0, 0.0, 2.0, 1.0], [3.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]
    c = torch.randn(1, 3, requires_grad=True)
    c.expand(4, 3).as_strided([2, 2], [0, 1], 1).mul(torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    assert c.grad.tolist() == [[0.0, 4.0, 6.0]]
    # Neither side overlapping (the copy through a zeroed buffer): an input
    # view with an offset, an output reading positions outside it (they pass
    # nothing) and leaving some of the input's unread (they get 0).
    base = torch.arange(30.0).requires_grad_()
    v = base[3:27].view(4, 6)[:, 1:5]
    v.as_strided([3, 2, 2], [7, 1, 12], 2).mul(torch.arange(12.0).view(3, 2, 2)).sum().backward()
    want = [0.0] * 30
    want[10], want[16], want[17], want[22] = 6.0, 8.0, 10.0, 7.0
    assert base.grad.tolist() == want  # PyTorch 2.13's


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16])
def test_overlapping_windows_add_up_their_gradients(dtype):
    # unfold's windows overlap (an as_strided reading positions twice): each
    # element's gradient is the sum over the windows that hold it.
    x = torch.zeros(3, 50, dtype=dtype).t().requires_grad_()  # [50, 3], strides (1, 50)
    w = torch.arange(1, 24 * 4 * 3 + 1, dtype=torch.float64).view(24, 3, 4)
    x.unfold(0, 4, 2).backward(w.to(dtype))
    want = np.zeros((50, 3))
    for k in range(24):
        want[2 * k:2 * k + 4] += w[k].t().numpy()
    np.testing.assert_allclose(x.grad.double().numpy(), want, rtol=1e-2 if dtype == torch.bfloat16 else 1e-12)


def test_a_zero_order_norm_gives_no_gradient():
    x = torch.tensor([-1.5, 0.6], requires_grad=True)
    torch.linalg.vector_norm(x, 0).backward()
    assert x.grad is None  # PyTorch's formula returns an undefined gradient, not zeros


def test_a_zero_order_norm_with_a_dtype_gives_no_gradient():
    # It crashed (the undefined gradient was converted back to the input's dtype).
    x = torch.tensor([0.0, 1.0, -2.0], requires_grad=True)
    torch.linalg.vector_norm(x.expand(3, 3), 0, dtype=torch.float64).backward()
    assert x.grad is None


@pytest.mark.parametrize("reduce", [
    lambda x, d, k: x.sum(d, keepdim=k), lambda x, d, k: x.mean(d, keepdim=k),
    lambda x, d, k: x.amax(d, keepdim=k), lambda x, d, k: x.amin(d, keepdim=k),
    lambda x, d, k: x.norm(dim=d, keepdim=k), lambda x, d, k: x.std(d, keepdim=k, correction=0) + x,
    lambda x, d, k: x.var(d, keepdim=k, correction=0) + x,
], ids=["sum", "mean", "amax", "amin", "norm", "std", "var"])
@pytest.mark.parametrize("dim", [0, -1, [0], (-1,)])
@pytest.mark.parametrize("keepdim", [False, True])
def test_a_zero_dim_tensor_reduced_over_its_only_dim_then_backward(reduce, dim, keepdim):
    """A 0-d tensor accepts dim 0 and -1; reducing over it reduces nothing. The
    backward once read the size of a dimension the tensor does not have (mean:
    a segfault; std and var: an IndexError). PyTorch: the result is 0-d, and
    the gradient of each reduction here (std/var plus x: 0 + 1) is 1."""
    x = torch.tensor(1.5, requires_grad=True)
    y = reduce(x, dim, keepdim)
    assert y.shape == ()
    y.backward()
    assert x.grad.shape == () and x.grad.item() == 1.0


def test_elu_and_its_forms_have_pytorchs_node_and_gradients():
    import torch.nn.functional as F

    x = torch.tensor([-1.0, 0.0, 2.0], dtype=torch.float64, requires_grad=True)
    for y in (F.elu(x), F.selu(x), F.celu(x, 0.5), torch._C._nn.elu(x, 2.0)):
        assert y.grad_fn.name() == "EluBackward0"
    torch._C._nn.elu(x, 2.0, 1.5, 1.0).backward(torch.ones(3, dtype=torch.float64))
    # PyTorch 2.13's values: x = 0 takes the exponential branch's slope (alpha * scale * input_scale).
    assert x.grad.tolist() == pytest.approx([1.103638323514327, 3.0, 1.5], rel=1e-12)
    # float16 computed in float and rounded once: exp(14.9) passes float16's range before the coefficients.
    h = torch.tensor([-4.96484375, 0.5, -0.25], dtype=torch.float16, requires_grad=True)
    y = torch._C._nn.elu(h, -1.5, 0.001, -3)
    y.backward(torch.ones(3, dtype=torch.float16))
    assert y.tolist() == [-4412.0, 0.0005002021789550781, -0.0016756057739257812]
    assert h.grad.tolist() == [13240.0, 0.0010004043579101562, 0.00952911376953125]
    assert torch._C._nn.elu(torch.tensor([-0.0, 0.0]), 7, -1.5, float("-inf")).tolist() == [0.0, -0.0]
    with pytest.raises(RuntimeError, match="value cannot be converted to type float without overflow"):
        torch._C._nn.elu(torch.ones(2), 3.5e38, 2.5)


def test_atan2_and_nextafter_gradients_at_their_edges_are_pytorchs():
    a = torch.tensor([-0.42088884115219116], requires_grad=True)
    torch.atan2(a, torch.tensor([127], dtype=torch.int8)).backward()
    # PyTorch squares an integer other in its own dtype: 127 * 127 wraps to 1 in int8.
    assert a.grad.item() == pytest.approx(107.8879, rel=1e-5)
    x = torch.tensor([0.0, -0.0, 1e-30, 0.0], requires_grad=True)
    y = torch.tensor([0.0, 0.0, 1e-30, 5.0], requires_grad=True)
    torch.atan2(x, y).backward(torch.full((4,), 2.0))
    assert x.grad.tolist() == pytest.approx([0.0, 0.0, 0.0, 0.4]) and y.grad.tolist() == [0.0, 0.0, 0.0, 0.0]
    x = torch.tensor([0.0, 2.0, 3.0, -0.0], requires_grad=True)
    torch.nextafter(x, torch.tensor([0.0, 2.0, 1.0, 0.0])).backward(torch.tensor([1.0, 2.0, 3.0, 4.0]))
    assert x.grad.tolist() == [0.0, 0.0, 3.0, 0.0]  # no gradient where the result is other itself


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_unbind_gradient_is_one_cat_with_zeros_for_unused_slices(dim):
    x = torch.arange(12.0).view(3, 4).requires_grad_()
    parts = torch.unbind(x, dim)
    assert all(p.data_ptr() == x.select(dim, i).data_ptr() for i, p in enumerate(parts))  # views, as PyTorch's
    (parts[1] * 2).sum().backward()  # the other slices get no gradient: zeros there
    want = torch.zeros(3, 4)
    want.select(dim, 1).fill_(2.0)
    assert torch.equal(x.grad, want)
    assert torch.unbind(torch.zeros(0, 3)) == ()


def test_data_is_the_same_memory_with_its_own_version_counter():
    # PyTorch's documented way past the in-place check (torchdiffeq's solvers write their stage buffer so).
    x = torch.ones(3, requires_grad=True)
    y = x * 1
    z = y * y  # saves y
    y.data[0] = 5.0
    assert y._version == 0 and y[0].item() == 5.0
    z.sum().backward()  # no "modified by an inplace operation"
    # detach() shares the counter: a write through it is seen.
    y = x * 1
    z = y * y
    y.detach()[0] = 3.0
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.sum().backward()


def test_xlogy_gradient_with_a_number_beyond_float32_range():
    # log(3.5e38) in float64 (88.75), not the default dtype's inf; 0 where
    # self is 0 and the number is not positive.
    x = torch.tensor([0.25, -0.5, 0.0], dtype=torch.float64, requires_grad=True)
    torch.xlogy(x, 3.5e38).sum().backward()
    assert torch.allclose(x.grad, torch.full((3,), math.log(3.5e38), dtype=torch.float64))
    x.grad = None
    torch.xlogy(x, -2.0).sum().backward()
    assert x.grad[2].item() == 0 and x.grad[:2].isnan().all()


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_sinc_gradient_near_zero_does_not_cancel(dtype):
    # (pi x cos(pi x) - sin(pi x)) / (pi x^2) loses most of float32's digits
    # for small x (the formula gave -0.0102223 at x = 0.0031076 where the
    # derivative is -0.0102240): the series near 0 keeps them all.
    x = torch.tensor([0.0031075903680175543, -0.0019673823844641447, 1e-6, 0.0, 0.031, 0.2, 1.5, -7.25], dtype=dtype)
    x.requires_grad_()
    x.sinc().sum().backward()
    t = x.detach().double().numpy() * np.pi
    with np.errstate(invalid="ignore", divide="ignore"):
        exact = np.where(t == 0, 0.0, np.pi * (t * np.cos(t) - np.sin(t)) / (t * t))
    small = np.abs(t) < 0.2  # where the double formula itself cancels, the series
    exact[small] = (np.pi * (-t / 3 + t ** 3 / 30 - t ** 5 / 840 + t ** 7 / 45360))[small]
    rtol = 2e-7 if dtype == torch.float32 else 1e-13
    np.testing.assert_allclose(x.grad.double().numpy(), exact, rtol=rtol, atol=1e-30)
