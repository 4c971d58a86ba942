"""torch.cuda.amp: the older spellings of torch.amp's autocast("cuda") and GradScaler("cuda")."""
import functools

import torch


class autocast(torch.amp.autocast):
    def __init__(self, enabled=True, dtype=torch.float16, cache_enabled=True):
        super().__init__("cuda", dtype=dtype, enabled=enabled)


class GradScaler(torch.amp.GradScaler):
    @functools.wraps(torch.amp.GradScaler.__init__)
    def __init__(self, init_scale=2.0**16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000, enabled=True):
        super().__init__("cuda", init_scale, growth_factor, backoff_factor, growth_interval, enabled)


__all__ = ["GradScaler", "autocast"]
