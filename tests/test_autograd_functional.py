"""torch.autograd.functional: shapes, options and errors as PyTorch's. Values
against PyTorch 2.13 are in the oracle (autograd_functional_and_second_derivatives)."""
import pytest
import torch
from torch.autograd.functional import hessian, hvp, jacobian, jvp, vhp, vjp


def f64(*values):
    return torch.tensor(values, dtype=torch.float64)


def test_results_follow_the_structure_of_inputs_and_outputs():
    x, y = f64(0.1, 0.2, 0.3), torch.ones(2, 2, dtype=torch.float64)
    assert jacobian(lambda a: a.sin(), x).shape == (3, 3)
    both = jacobian(lambda a, b: (a.exp().sum() * b, a[:2] * b[0]), (x, y))
    assert [[tuple(t.shape) for t in row] for row in both] == [[(2, 2, 3), (2, 2, 2, 2)], [(2, 3), (2, 2, 2)]]
    h = hessian(lambda a, b: a.pow(3).sum() * b.sum(), (x, y))
    assert [[tuple(t.shape) for t in row] for row in h] == [[(3, 3), (3, 2, 2)], [(2, 2, 3), (2, 2, 2, 2)]]
    assert jacobian(lambda a: a.sum(), x, vectorize=True).shape == (3,)
    assert jacobian(lambda a: a * 2, x, vectorize=True, strategy="forward-mode").shape == (3, 3)


def test_values_of_a_cubic():
    x = f64(0.5, -1.0, 2.0)
    cube = lambda a: (a ** 3).sum()  # noqa: E731
    value, grad = vjp(cube, x)
    assert value.item() == pytest.approx(7.125) and torch.allclose(grad, 3 * x ** 2)
    assert torch.allclose(hessian(cube, x), torch.diag(6 * x))
    v = f64(1.0, 2.0, 3.0)
    assert torch.allclose(hvp(cube, x, v)[1], 6 * x * v) and torch.allclose(vhp(cube, x, v)[1], 6 * x * v)
    assert torch.allclose(jvp(lambda a: a ** 2, x, v)[1], 2 * x * v)
    assert not grad.requires_grad and not value.requires_grad


def test_create_graph_keeps_the_results_differentiable():
    x = f64(0.5, 1.5).requires_grad_()
    jac = jacobian(lambda a: a ** 3, x, create_graph=True)
    assert jac.requires_grad
    (g,) = torch.autograd.grad(jac.sum(), x)
    assert torch.allclose(g, 6 * x.detach())


def test_errors_as_pytorch():
    x = f64(1.0, 2.0)
    with pytest.raises(RuntimeError, match="The vector v can only be None if the user-provided function returns a "
                                           "single Tensor with a single element"):
        vjp(lambda a: a * 2, x)
    with pytest.raises(RuntimeError, match="v has invalid size: should be torch.Size\\(\\[2\\]\\) but got"):
        jvp(lambda a: a * 2, x, torch.ones(3))
    with pytest.raises(RuntimeError, match="should contain a single element"):
        hessian(lambda a: a * 2, x)
    with pytest.raises(RuntimeError, match="The function given to hvp should return a single Tensor"):
        hvp(lambda a: (a.sum(), a.sum()), x, x)
    with pytest.raises(RuntimeError, match="Output 0 of the user-provided function does not require gradients"):
        jacobian(lambda a: torch.zeros(2), x, strict=True)
    with pytest.raises(TypeError, match="must be either a Tensor or a tuple of Tensors"):
        jacobian(lambda a: a, [x])
    with pytest.raises(NotImplementedError, match="only implemented for `vectorize=True`"):
        jacobian(lambda a: a, x, strategy="forward-mode")
    # Not strict: an output independent of the input gives zeros.
    assert torch.equal(jacobian(lambda a: torch.zeros(2, dtype=torch.float64), x), torch.zeros(2, 2, dtype=torch.float64))
