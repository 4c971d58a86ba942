"""F.batch_norm and nn.BatchNorm*d over the native _batch_norm
(aten/src/ATen/native/BatchNorm.cpp): values and running statistics against
numpy, gradients and second derivatives by gradcheck, PyTorch's errors."""
import numpy as np
import pytest

import torch
import torch.nn.functional as F

RNG = np.random.default_rng(11)


def _reference(x, running_mean, running_var, weight, bias, training, momentum, eps):
    dims = (0,) + tuple(range(2, x.ndim))
    shape = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    if training:
        mean, var = x.mean(dims), x.var(dims)
        count = x.size // x.shape[1]
        if running_mean is not None:
            running_mean = (1 - momentum) * running_mean + momentum * mean
            running_var = (1 - momentum) * running_var + momentum * var * count / (count - 1)
    else:
        mean, var = running_mean, running_var
    out = (x - mean.reshape(shape)) / np.sqrt(var.reshape(shape) + eps)
    if weight is not None:
        out = out * weight.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    return out, running_mean, running_var


@pytest.mark.parametrize("shape", [(6, 3), (4, 3, 5), (2, 3, 4, 5), (2, 3, 2, 3, 2)])
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("affine", [True, False])
def test_values_and_running_statistics_match_numpy(shape, training, affine):
    x = RNG.standard_normal(shape)
    c = shape[1]
    weight, bias = (RNG.standard_normal(c), RNG.standard_normal(c)) if affine else (None, None)
    running_mean, running_var = RNG.standard_normal(c), RNG.random(c) + 0.5
    rm, rv = torch.tensor(running_mean), torch.tensor(running_var)
    t = (lambda a: None if a is None else torch.tensor(a))
    out = F.batch_norm(torch.tensor(x), rm, rv, t(weight), t(bias), training=training, momentum=0.3, eps=1e-4)
    want, want_mean, want_var = _reference(x, running_mean, running_var, weight, bias, training, 0.3, 1e-4)
    np.testing.assert_allclose(out.numpy(), want, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(rm.numpy(), want_mean, rtol=1e-12)
    np.testing.assert_allclose(rv.numpy(), want_var, rtol=1e-12)


@pytest.mark.parametrize("training", [True, False])
def test_gradients_and_second_derivatives_by_gradcheck(training):
    x = torch.tensor(RNG.standard_normal((4, 3, 5)), requires_grad=True)
    w = torch.tensor(RNG.random(3) + 0.5, requires_grad=True)
    b = torch.tensor(RNG.standard_normal(3), requires_grad=True)
    rm, rv = torch.zeros(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64)

    def fn(x, w, b):
        return F.batch_norm(x, rm.clone(), rv.clone(), w, b, training=training)

    assert torch.autograd.gradcheck(fn, (x, w, b))
    assert torch.autograd.gradgradcheck(fn, (x, w, b))
    assert fn(x, w, b).grad_fn.name() == "BatchNormBackward0"


def test_a_second_forward_before_backward_leaves_the_gradient_alone():
    """The running buffers change in every training forward; the gradient
    reads the statistics the forward returned, never the buffers."""
    bn = torch.nn.BatchNorm2d(3).double()
    x = torch.randn(4, 3, 2, 2, dtype=torch.float64, requires_grad=True)
    first = bn(x)
    second = bn(x * 2)
    (first.sum() + second.sum()).backward()
    assert x.grad is not None and torch.isfinite(x.grad).all()
    assert int(bn.num_batches_tracked) == 2


def test_modules_in_eval_use_the_running_statistics():
    bn = torch.nn.BatchNorm1d(3)
    with torch.no_grad():
        bn.running_mean.copy_(torch.tensor([1.0, 2.0, 3.0]))
        bn.running_var.copy_(torch.tensor([4.0, 1.0, 0.25]))
    bn.eval()
    out = bn(torch.tensor([[1.0, 2.0, 3.0], [3.0, 3.0, 4.0]]))
    torch.testing.assert_close(out, torch.tensor([[0.0, 0.0, 0.0], [1.0, 1.0, 2.0]]), atol=1e-4, rtol=0)


@pytest.mark.parametrize("call,error,message", [
    (lambda: F.batch_norm(torch.ones(2, 3), None, None, training=False), RuntimeError,
     "running_mean and running_var must be defined in evaluation mode"),
    (lambda: F.batch_norm(torch.ones(2, 3), None, None, torch.ones(4), training=True), RuntimeError,
     "weight should contain 3 elements not 4"),
    (lambda: F.batch_norm(torch.ones(2, 3), torch.zeros(2), torch.ones(3), training=True), RuntimeError,
     "running_mean should contain 3 elements not 2"),
    (lambda: F.batch_norm(torch.ones(1, 3), None, None, training=True), ValueError,
     "Expected more than 1 value per channel when training"),
    (lambda: F.batch_norm(torch.ones(3), None, None, training=True), ValueError, "expected at least 2D input"),
])
def test_errors_are_pytorchs(call, error, message):
    with pytest.raises(error, match=message):
        call()
