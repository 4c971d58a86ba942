"""opcheck, where PyTorch's extension template imports it from."""
from torch.library import opcheck

__all__ = ["opcheck"]
