"""torch.utils: data loading (torch.utils.data); C++/CUDA extensions
(torch.utils.cpp_extension, imported on demand: it needs setuptools to build)."""
from torch.utils import data

__all__ = ["data"]
