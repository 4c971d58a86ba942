import torch  # noqa: F401  (loads torch's libraries before the extension's)

from . import _C, ops  # noqa: F401  (importing _C runs its TORCH_LIBRARY blocks)
