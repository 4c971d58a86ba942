"""torch.distributions: PyTorch 2.13's densities, entropies, moments and KL
divergences (with their gradients) are in oracle/cases.py; here the sampling
(statistics of many draws), shapes, and argument errors."""
import math

import pytest

import torch
import torch.distributions as D


@pytest.mark.parametrize("make,mean,var", [
    (lambda: D.Normal(torch.tensor(1.5), torch.tensor(2.0)), 1.5, 4.0),
    (lambda: D.Laplace(torch.tensor(-1.0), torch.tensor(0.5)), -1.0, 0.5),
    (lambda: D.Exponential(torch.tensor(2.0)), 0.5, 0.25),
    (lambda: D.Uniform(torch.tensor(-1.0), torch.tensor(3.0)), 1.0, 16 / 12),
    (lambda: D.Gamma(torch.tensor(0.5), torch.tensor(2.0)), 0.25, 0.125),
    (lambda: D.Gamma(torch.tensor(3.0), torch.tensor(1.5)), 2.0, 3.0 / 2.25),
    (lambda: D.Beta(torch.tensor(2.0), torch.tensor(5.0)), 2 / 7, 10 / (49 * 8)),
    (lambda: D.Poisson(torch.tensor(4.0)), 4.0, 4.0),
    (lambda: D.Geometric(torch.tensor(0.3)), 0.7 / 0.3, 0.7 / 0.09),
    (lambda: D.Binomial(10, torch.tensor(0.3)), 3.0, 2.1),
    (lambda: D.Bernoulli(torch.tensor(0.3)), 0.3, 0.21),
    (lambda: D.LogNormal(torch.tensor(0.0), torch.tensor(0.5)), math.exp(0.125), (math.exp(0.25) - 1) * math.exp(0.25)),
    (lambda: D.Gumbel(torch.tensor(1.0), torch.tensor(2.0)), 1.0 + 2 * 0.5772156649, (math.pi ** 2 / 6) * 4),
    (lambda: D.StudentT(torch.tensor(6.0)), 0.0, 1.5),
    (lambda: D.HalfNormal(torch.tensor(1.0)), math.sqrt(2 / math.pi), 1 - 2 / math.pi),
])
def test_sample_moments(make, mean, var):
    torch.manual_seed(0)
    x = make().sample((40000,)).double()
    tolerance = 5 * math.sqrt(var / 40000) + 1e-3
    assert abs(float(x.mean()) - mean) < tolerance
    assert abs(float(x.var()) - var) < 0.1 * var + 1e-3


def test_multivariate_sampling_and_shapes():
    torch.manual_seed(1)
    cov = torch.tensor([[2.0, 0.6], [0.6, 1.0]])
    mvn = D.MultivariateNormal(torch.tensor([1.0, -1.0]), cov)
    x = mvn.sample((50000,))
    assert x.shape == (50000, 2)
    centred = x - x.mean(0)
    assert torch.allclose(centred.T @ centred / 50000, cov, atol=0.05)
    dirichlet = D.Dirichlet(torch.tensor([[1.0, 2.0, 3.0], [0.5, 0.5, 0.5]]))
    draws = dirichlet.sample((20000,))
    assert draws.shape == (20000, 2, 3) and torch.allclose(draws.sum(-1), torch.ones(20000, 2))
    assert torch.allclose(draws.mean(0), dirichlet.mean, atol=0.01)
    counts = D.Multinomial(6, torch.tensor([0.2, 0.3, 0.5])).sample((3,))
    assert counts.shape == (3, 3) and bool((counts.sum(-1) == 6).all())
    cat = D.Categorical(torch.tensor([[0.1, 0.9], [0.8, 0.2]]))
    assert cat.sample((5,)).shape == (5, 2) and cat.batch_shape == (2,) and cat.event_shape == ()
    one_hot = D.OneHotCategorical(torch.tensor([0.2, 0.8])).sample((4,))
    assert one_hot.shape == (4, 2) and bool((one_hot.sum(-1) == 1).all())


def test_rsample_carries_gradients():
    loc = torch.tensor([0.5, -0.5], requires_grad=True)
    scale = torch.tensor([1.0, 2.0], requires_grad=True)
    D.Normal(loc, scale).rsample((10,)).sum().backward()
    assert torch.allclose(loc.grad, torch.full((2,), 10.0)) and scale.grad is not None
    assert D.Normal(0.0, 1.0).has_rsample and not D.Gamma(1.0, 1.0).has_rsample


@pytest.mark.parametrize("call,error,message", [
    (lambda: D.Normal(torch.tensor(0.0), torch.tensor(-1.0)), ValueError,
     "Expected parameter scale .* to satisfy the constraint GreaterThan\\(lower_bound=0.0\\)"),
    (lambda: D.Bernoulli(probs=torch.tensor(0.5), logits=torch.tensor(0.0)), ValueError,
     "Either `probs` or `logits` must be specified, but not both."),
    (lambda: D.Normal(0.0, 1.0).log_prob(0.5), ValueError, "The value argument to log_prob must be a Tensor"),
    (lambda: D.Exponential(torch.tensor(1.0)).log_prob(torch.tensor(-1.0)), ValueError,
     "Expected value argument .* to be within the support"),
    (lambda: D.kl_divergence(D.Normal(0.0, 1.0), D.Exponential(1.0)), NotImplementedError,
     "No KL\\(p \\|\\| q\\) is implemented for p type Normal and q type Exponential"),
    (lambda: D.MultivariateNormal(torch.zeros(2)), ValueError,
     "Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified."),
])
def test_argument_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_register_kl_and_transforms():
    class MyNormal(D.Normal):
        pass

    @D.register_kl(MyNormal, MyNormal)
    def _kl(p, q):
        return torch.tensor(42.0)

    assert float(D.kl_divergence(MyNormal(0.0, 1.0), MyNormal(1.0, 1.0))) == 42.0
    assert float(D.kl_divergence(MyNormal(0.0, 1.0), D.Normal(0.0, 1.0))) == 0.0  # falls back along the MRO
    x = torch.tensor([-1.0, 0.5, 2.0])
    for t in (D.ExpTransform(), D.SigmoidTransform(), D.TanhTransform(), D.AffineTransform(1.0, -2.0),
              D.ComposeTransform([D.ExpTransform(), D.AffineTransform(0.5, 3.0)]), D.SoftplusTransform()):
        assert torch.allclose(t.inv(t(x)), x, atol=1e-5)
    to_simplex = D.biject_to(D.constraints.simplex)
    y = to_simplex(torch.tensor([0.3, -0.2]))
    assert y.shape == (3,) and abs(float(y.sum()) - 1) < 1e-6
    assert torch.allclose(to_simplex.inv(y), torch.tensor([0.3, -0.2]), atol=1e-5)
