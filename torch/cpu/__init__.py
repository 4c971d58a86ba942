"""torch.cpu: the CPU's answers to the device queries scripts ask of every device."""
from torch.cpu import amp  # noqa: F401


def is_available():
    return True


def device_count():
    return 1


def synchronize(device=None):
    """CPU ops finish before they return; nothing to wait for."""


__all__ = ["amp", "device_count", "is_available", "synchronize"]
