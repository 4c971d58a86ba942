"""torch.amp: automatic mixed precision.

autocast(device_type, dtype) runs the ops PyTorch lists as "lower precision"
(matmul, mm, bmm, addmm, linear, conv1d/conv2d, scaled_dot_product_attention)
in the low dtype (bfloat16 on the CPU, float16 on CUDA by default) and the
losses in float32, for tensors on that device type; other ops run in the
dtype they are given. GradScaler scales the loss and unscales the gradients,
skipping steps whose gradients overflowed.
"""
from torch.amp.autocast_mode import autocast, is_autocast_available, is_autocast_enabled, get_autocast_dtype
from torch.amp.grad_scaler import GradScaler

__all__ = ["GradScaler", "autocast", "get_autocast_dtype", "is_autocast_available", "is_autocast_enabled"]
