"""torch.cpu.amp.autocast: the older spelling of torch.amp.autocast("cpu")."""
import torch


class autocast(torch.amp.autocast):
    def __init__(self, enabled=True, dtype=torch.bfloat16, cache_enabled=True):
        super().__init__("cpu", dtype=dtype, enabled=enabled)


__all__ = ["autocast"]
