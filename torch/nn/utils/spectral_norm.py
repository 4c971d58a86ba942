"""The older, hook-based torch.nn.utils.spectral_norm (GAN code written for
it is everywhere): the parameter becomes <name>_orig with buffers <name>_u
and <name>_v, and a forward pre-hook sets module.<name> = <name>_orig / sigma,
advancing the power iteration in training mode."""
import torch
import torch.nn.functional as F
from torch.nn.parameter import Parameter
from torch.nn.utils.weight_norm import remove_pre_hook_of

__all__ = ["SpectralNorm", "remove_spectral_norm", "spectral_norm"]


class SpectralNorm:
    _version = 1

    def __init__(self, name="weight", n_power_iterations=1, dim=0, eps=1e-12):
        if n_power_iterations <= 0:
            raise ValueError(f"Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.name, self.dim, self.n_power_iterations, self.eps = name, dim, n_power_iterations, eps

    def reshape_weight_to_matrix(self, weight):
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.reshape(weight.size(0), -1)

    def compute_weight(self, module, do_power_iteration):
        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        v = getattr(module, self.name + "_v")
        matrix = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with torch.no_grad():
                for _ in range(self.n_power_iterations):
                    v.copy_(F.normalize(torch.mv(matrix.t(), u), dim=0, eps=self.eps))
                    u.copy_(F.normalize(torch.mv(matrix, v), dim=0, eps=self.eps))
                # Clones: a second forward's update must not change what the first one's backward reads.
                u = u.clone()
                v = v.clone()
        sigma = torch.dot(u, torch.mv(matrix, v))
        return weight / sigma

    def remove(self, module):
        with torch.no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        delattr(module, self.name)
        delattr(module, self.name + "_u")
        delattr(module, self.name + "_v")
        delattr(module, self.name + "_orig")
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module, do_power_iteration=module.training))

    @staticmethod
    def apply(module, name, n_power_iterations, dim, eps):
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two spectral_norm hooks on the same parameter {name}")
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        with torch.no_grad():
            matrix = fn.reshape_weight_to_matrix(weight)
            rows, cols = matrix.shape
            u = F.normalize(weight.new_empty(rows).normal_(0, 1), dim=0, eps=fn.eps)
            v = F.normalize(weight.new_empty(cols).normal_(0, 1), dim=0, eps=fn.eps)
        delattr(module, fn.name)
        module.register_parameter(fn.name + "_orig", weight)
        setattr(module, fn.name, weight.data)  # a plain attribute, recomputed before each forward
        module.register_buffer(fn.name + "_u", u)
        module.register_buffer(fn.name + "_v", v)
        module.register_forward_pre_hook(fn)
        return fn


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """module.<name> is recomputed before each forward as <name>_orig divided by its spectral norm."""
    if dim is None:
        transposed = (torch.nn.ConvTranspose1d, torch.nn.ConvTranspose2d)
        transposed += (torch.nn.ConvTranspose3d,) if hasattr(torch.nn, "ConvTranspose3d") else ()
        dim = 1 if isinstance(module, transposed) else 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def remove_spectral_norm(module, name="weight"):
    return remove_pre_hook_of(module, SpectralNorm, name, "spectral_norm")
