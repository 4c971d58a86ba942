"""torch.nn.utils.parametrizations: weight_norm and spectral_norm as
parametrizations (torch.nn.utils.parametrize), PyTorch's current forms.

weight_norm: weight = g * v / ||v|| (the norm over every dim but `dim`), with
originals original0 = g and original1 = v. spectral_norm: weight / sigma,
sigma estimated by power iteration on the weight as a matrix (its `dim`
first), the vectors kept in buffers _u and _v and advanced in training mode.
"""
import torch
import torch.nn.functional as F
from torch.nn.modules.module import Module
from torch.nn.utils import parametrize

__all__ = ["spectral_norm", "weight_norm"]


def _norm_except_dim(v, dim):
    """||v|| over every dim but `dim`, shaped to broadcast against v (dim None or -1: the whole tensor)."""
    if dim is None or dim == -1:
        return v.norm()
    dim = dim if dim >= 0 else dim + v.dim()
    others = [d for d in range(v.dim()) if d != dim]
    return v.norm(2, dim=others, keepdim=True) if others else v.abs()


class _WeightNorm(Module):
    def __init__(self, dim=0):
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g, weight_v):
        return weight_v * (weight_g / _norm_except_dim(weight_v, self.dim))

    def right_inverse(self, weight):
        return _norm_except_dim(weight, self.dim), weight


def weight_norm(module, name="weight", dim=0):
    """module.<name> becomes g * v / ||v||: parametrizations.<name>.original0 is g, original1 is v."""
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)
    return module


class _SpectralNorm(Module):
    def __init__(self, weight, n_power_iterations=1, dim=0, eps=1e-12):
        super().__init__()
        ndim = weight.dim()
        if dim >= ndim or dim < -ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [-{ndim}, {ndim - 1}] but got "
                             f"{dim})")
        if n_power_iterations <= 0:
            raise ValueError(f"Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            matrix = self._as_matrix(weight)
            rows, cols = matrix.shape
            self.register_buffer("_u", F.normalize(matrix.new_empty(rows).normal_(0, 1), dim=0, eps=eps))
            self.register_buffer("_v", F.normalize(matrix.new_empty(cols).normal_(0, 1), dim=0, eps=eps))
            self._power_method(matrix, 15)  # start from reasonable singular vectors

    def _as_matrix(self, weight):
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    @torch.no_grad()
    def _power_method(self, matrix, iterations):
        # In place: the buffers are the module's state (and DataParallel replicas share them).
        for _ in range(iterations):
            self._u.copy_(F.normalize(torch.mv(matrix, self._v), dim=0, eps=self.eps))
            self._v.copy_(F.normalize(torch.mv(matrix.t(), self._u), dim=0, eps=self.eps))

    def forward(self, weight):
        if weight.dim() == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        matrix = self._as_matrix(weight)
        if self.training:
            self._power_method(matrix, self.n_power_iterations)
        # Clones: a second forward's update must not change what the first one's backward reads.
        u, v = self._u.clone(), self._v.clone()
        sigma = torch.dot(u, torch.mv(matrix, v))
        return weight / sigma

    def right_inverse(self, value):
        return value


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """module.<name> becomes its value divided by its spectral norm (power-iteration estimate)."""
    weight = getattr(module, name, None)
    if not isinstance(weight, torch.Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        transposed = (torch.nn.ConvTranspose1d, torch.nn.ConvTranspose2d)
        transposed += (torch.nn.ConvTranspose3d,) if hasattr(torch.nn, "ConvTranspose3d") else ()
        dim = 1 if isinstance(module, transposed) else 0
    parametrize.register_parametrization(module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module
