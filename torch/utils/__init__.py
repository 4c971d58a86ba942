"""torch.utils: data loading (torch.utils.data)."""
from torch.utils import data

__all__ = ["data"]
