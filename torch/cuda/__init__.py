"""torch.cuda: CUDA device queries and control.

Every answer comes from the native CUDA hooks (aten/src/ATen/detail/CUDAHooks.h):
a CPU build reports no CUDA and raises "Torch not compiled with CUDA enabled"
for anything that needs a device, as PyTorch's CPU wheels do.
"""
import torch
from torch import _C

__all__ = [
    "current_device", "device_count", "empty_cache", "get_arch_list", "get_device_name", "is_available",
    "is_bf16_supported", "manual_seed", "manual_seed_all", "memory_allocated", "set_device", "synchronize",
]


def _index(device):
    """The CUDA device index named by an int, "cuda[:N]", torch.device or None (the current device)."""
    if device is None:
        return current_device()
    if isinstance(device, str):
        device = torch.device(device)
    if isinstance(device, torch.device):
        if device.type != "cuda":
            raise ValueError(f"expected a CUDA device, got {device}")
        return current_device() if device.index is None else device.index
    if isinstance(device, int) and not isinstance(device, bool):
        return device
    raise TypeError(f"expected a CUDA device (int, str or torch.device), got {type(device).__name__}")


def is_available():
    """True when this build has CUDA and a CUDA device is present."""
    return _C._cuda_is_built() and _C._cuda_device_count() > 0


def device_count():
    """The number of CUDA devices (0 in a CPU build or without a driver)."""
    return _C._cuda_device_count()


def current_device():
    return _C._cuda_current_device()


def set_device(device):
    _C._cuda_set_device(_index(device))


def synchronize(device=None):
    """Waits for all work queued on `device` to finish."""
    _C._cuda_synchronize(_index(device))


def get_device_name(device=None):
    return _C._cuda_device_name(_index(device))


def memory_allocated(device=None):
    """Bytes of device memory held by tensors on `device` (0 without CUDA, as in PyTorch)."""
    if not is_available():
        return 0
    return _C._cuda_memory_allocated(_index(device))


def get_arch_list():
    """The architectures this build carries code for ("sm_80", "compute_120" for PTX), or [] without CUDA."""
    if not is_available():
        return []
    archs = []
    for arch in _C._cuda_arch_list().split():
        number = arch.replace("+PTX", "").replace(".", "")
        archs.append(f"sm_{number}")
        if arch.endswith("+PTX"):
            archs.append(f"compute_{number}")
    return archs


def empty_cache():
    """Returns the caching allocator's unused device memory to the driver."""
    _C._cuda_empty_cache()


def manual_seed(seed):
    """Seeds the CUDA generators; a no-op without CUDA, as in PyTorch."""
    _C._cuda_manual_seed(seed)


manual_seed_all = manual_seed


def is_bf16_supported(including_emulation=True):
    """Whether CUDA bfloat16 kernels can run: False without a device (as PyTorch answers on a CPU-only
    machine); with one, True, since the CUDA kernels carry bfloat16 for every architecture built."""
    return is_available()


def __getattr__(name):
    # torch.cuda.amp imports torch.amp, which needs the rest of torch first.
    if name == "amp":
        import importlib

        return importlib.import_module("torch.cuda.amp")
    raise AttributeError(f"module 'torch.cuda' has no attribute '{name}'")
