"""torch.distributions: probability distributions with sampling
(reparameterised where PyTorch's are), log_prob, entropy, cdf/icdf where
closed forms exist, transforms, and KL divergences by registered formulas.
Written over tensor ops, so gradients flow through log_prob, entropy,
rsample and kl_divergence."""
from torch.distributions import constraints
from torch.distributions.constraints import Constraint
from torch.distributions.continuous import (
    Beta, Cauchy, Chi2, Exponential, Gamma, Gumbel, HalfCauchy, HalfNormal, Laplace, LogNormal, Normal, StudentT,
    Uniform,
)
from torch.distributions.discrete import (
    Bernoulli, Binomial, Categorical, Geometric, Multinomial, OneHotCategorical, OneHotCategoricalStraightThrough,
    Poisson,
)
from torch.distributions.distribution import Distribution, ExponentialFamily
from torch.distributions.independent import Independent
from torch.distributions.kl import kl_divergence, register_kl
from torch.distributions.multivariate import Dirichlet, MultivariateNormal
from torch.distributions.transformed_distribution import TransformedDistribution
from torch.distributions.transforms import (
    AbsTransform, AffineTransform, ComposeTransform, CumulativeDistributionTransform, ExpTransform,
    IndependentTransform, LowerCholeskyTransform, PowerTransform, ReshapeTransform, SigmoidTransform,
    SoftmaxTransform, SoftplusTransform, StickBreakingTransform, TanhTransform, Transform, identity_transform,
)


def _constraint_registry():
    table = {}

    def biject_to(constraint):
        """A bijection from the reals onto the constraint's set."""
        from torch.distributions import constraints as c
        if constraint is c.real or isinstance(constraint, c._Real):
            return identity_transform
        if constraint is c.positive or constraint is c.nonnegative:
            return ExpTransform()
        if isinstance(constraint, c._GreaterThan):
            return ComposeTransform([ExpTransform(), AffineTransform(constraint.lower_bound, 1)])
        if isinstance(constraint, c._LessThan):
            return ComposeTransform([ExpTransform(), AffineTransform(constraint.upper_bound, -1)])
        if isinstance(constraint, c._Interval):
            lower, upper = constraint.lower_bound, constraint.upper_bound
            return ComposeTransform([SigmoidTransform(), AffineTransform(lower, upper - lower)])
        if isinstance(constraint, c._Simplex):
            return StickBreakingTransform()
        if isinstance(constraint, c._LowerCholesky):
            return LowerCholeskyTransform()
        if isinstance(constraint, c._Independent):
            return IndependentTransform(biject_to(constraint.base_constraint), constraint.reinterpreted_batch_ndims)
        raise NotImplementedError(f"Cannot transform {type(constraint).__name__} constraints")

    return biject_to, table


biject_to, _ = _constraint_registry()
transform_to = biject_to

__all__ = [
    "AbsTransform", "AffineTransform", "Bernoulli", "Beta", "Binomial", "Categorical", "Cauchy", "Chi2",
    "ComposeTransform", "Constraint", "CumulativeDistributionTransform", "Dirichlet", "Distribution", "ExpTransform",
    "Exponential", "ExponentialFamily", "Gamma", "Geometric", "Gumbel", "HalfCauchy", "HalfNormal", "Independent",
    "IndependentTransform", "Laplace", "LogNormal", "LowerCholeskyTransform", "Multinomial", "MultivariateNormal",
    "Normal", "OneHotCategorical", "OneHotCategoricalStraightThrough", "Poisson", "PowerTransform",
    "ReshapeTransform", "SigmoidTransform", "SoftmaxTransform", "SoftplusTransform", "StickBreakingTransform",
    "StudentT", "TanhTransform", "Transform", "TransformedDistribution", "Uniform", "biject_to", "constraints",
    "identity_transform", "kl_divergence", "register_kl", "transform_to",
]
