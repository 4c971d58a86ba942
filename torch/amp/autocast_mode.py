import functools
import threading
import warnings

import torch

_DEFAULT_DTYPES = {"cpu": torch.bfloat16, "cuda": torch.float16}
_state = threading.local()  # per thread, as PyTorch's autocast state


def _current():
    if not hasattr(_state, "modes"):
        _state.modes = {}  # device type -> low dtype, while enabled
    return _state.modes


def is_autocast_available(device_type):
    return device_type in _DEFAULT_DTYPES


def is_autocast_enabled(device_type=None):
    return (device_type or "cuda") in _current()


def get_autocast_dtype(device_type):
    return _current().get(device_type, _DEFAULT_DTYPES.get(device_type))


class autocast:
    """Context manager and decorator: mixed precision for ops on device_type inside it."""

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        if not is_autocast_available(device_type):
            raise RuntimeError(f"User specified an unsupported autocast device_type '{device_type}'")
        self.device_type, self.dtype = device_type, dtype or _DEFAULT_DTYPES[device_type]
        self.enabled = bool(enabled)
        if self.enabled and device_type == "cuda" and not torch.cuda.is_available():
            warnings.warn("CUDA is not available or torch_xla is imported. Disabling autocast.", stacklevel=2)
            self.enabled = False
        if self.enabled and device_type == "cpu" and self.dtype not in (torch.bfloat16, torch.float16):
            warnings.warn(f"In CPU autocast, but the target dtype is not supported. Disabling autocast.\nCPU "
                          f"Autocast only supports dtype of {torch.bfloat16}, {torch.float16} currently.")
            self.enabled = False

    def __enter__(self):
        modes = _current()
        self._prev = modes.get(self.device_type)
        if self.enabled:
            modes[self.device_type] = self.dtype
        else:
            modes.pop(self.device_type, None)
        return self

    def __exit__(self, *exc):
        modes = _current()
        if self._prev is None:
            modes.pop(self.device_type, None)
        else:
            modes[self.device_type] = self._prev
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with autocast(self.device_type, self.dtype, self.enabled):
                return fn(*args, **kwargs)

        return wrapper


def _cast(value, device_type, dtype):
    if isinstance(value, torch.Tensor) and value.is_floating_point() and value.device.type == device_type:
        return value.to(dtype)
    if isinstance(value, (list, tuple)):
        return type(value)(_cast(v, device_type, dtype) for v in value)
    return value


def _device_type(args):
    for a in args:
        if isinstance(a, torch.Tensor):
            return a.device.type
    return None


def _casting(fn, target_dtype):
    """fn with its floating inputs cast to target_dtype(low dtype) when autocast is on for their device."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        modes = _current()
        if modes:
            device_type = _device_type(args)
            if device_type in modes:
                dtype = target_dtype(modes[device_type])
                args = tuple(_cast(a, device_type, dtype) for a in args)
                kwargs = {k: _cast(v, device_type, dtype) for k, v in kwargs.items()}
        return fn(*args, **kwargs)

    return wrapper


def lower_precision(fn):
    """fn running in the autocast dtype (PyTorch's lower-precision list: products and convolutions)."""
    return _casting(fn, lambda low: low)


def full_precision(fn):
    """fn running in float32 (PyTorch's fp32 list: the losses)."""
    return _casting(fn, lambda low: torch.float32)
