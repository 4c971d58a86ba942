"""torch.accelerator: the current accelerator, which here can only be CUDA."""
import torch


def is_available():
    return torch.cuda.is_available()


def device_count():
    return torch.cuda.device_count() if is_available() else 0


def current_accelerator(check_available=False):
    if is_available():
        return torch.device("cuda")
    return None


def current_device_index():
    if not is_available():
        raise RuntimeError("no accelerator is available")
    return torch.cuda.current_device()


def set_device_index(device):
    if not is_available():
        raise RuntimeError("no accelerator is available")
    torch.cuda.set_device(device)


def synchronize(device=None):
    if is_available():
        torch.cuda.synchronize(device)
