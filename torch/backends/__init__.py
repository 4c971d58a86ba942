"""torch.backends: the flags scripts set for GPU libraries, and what this build has.

This build has no cuDNN, MPS or oneDNN, so their is_available() is False and
their flags are plain settings nothing reads (as in PyTorch's CPU builds,
where setting them is allowed and changes nothing). OpenMP is real."""
from torch.backends import cpu, cuda, cudnn, mkldnn, mps, openmp  # noqa: F401

__all__ = ["cpu", "cuda", "cudnn", "mkldnn", "mps", "openmp"]
