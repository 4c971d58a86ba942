"""torch.testing: assert_close (PyTorch's per-dtype tolerances and failure
messages) and make_tensor (random tensors for tests)."""
from torch.testing._comparison import assert_allclose, assert_close
from torch.testing._creation import make_tensor

__all__ = ["assert_allclose", "assert_close", "make_tensor"]
