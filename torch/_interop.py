"""Zero-copy exchange with numpy and DLPack producers/consumers."""
import torch
from torch import _C


class _NumpyView:
    """Holds a tensor and describes its memory to numpy (__array_struct__, a
    capsule numpy reads without parsing); numpy keeps it as the array's base,
    so the tensor outlives the array."""

    __slots__ = ("_tensor", "__array_struct__")

    def __init__(self, tensor):
        capsule = _C._array_struct(tensor)  # csrc/python_interop.cpp; None for a dtype numpy lacks
        if capsule is None:
            raise TypeError(f"Got unsupported ScalarType {str(tensor.dtype).replace('torch.', '')}: numpy has no such dtype")
        self._tensor = tensor
        self.__array_struct__ = capsule


def numpy(tensor, *, force=False):
    """The tensor's memory as a numpy array (shared: writes show on both sides)."""
    import numpy as np

    if tensor.requires_grad:
        raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
    if tensor.device.type != "cpu":
        raise TypeError(f"can't convert {tensor.device} device type tensor to numpy. Use Tensor.cpu() to copy the "
                        "tensor to host memory first.")
    if tensor.numel() == 0:
        # No elements, so nothing to share; and an empty tensor has no memory
        # (data pointer 0), which numpy refuses in an array interface.
        interface = _C._array_interface(tensor)
        if interface is None:
            raise TypeError(f"Got unsupported ScalarType {str(tensor.dtype).replace('torch.', '')}: numpy has no such "
                            "dtype")
        return np.empty(interface["shape"], dtype=interface["typestr"])
    return np.asarray(_NumpyView(tensor))


def from_numpy(ndarray):
    """A tensor sharing memory with a numpy array."""
    import numpy as np

    if not isinstance(ndarray, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(ndarray).__name__})")
    return _C._from_array_interface(ndarray)


def from_dlpack(ext_tensor):
    """A tensor sharing memory with any object that implements __dlpack__ (or a DLPack capsule)."""
    if hasattr(ext_tensor, "__dlpack__"):
        device_type, _ = ext_tensor.__dlpack_device__()
        if device_type != 1:
            raise RuntimeError(f"from_dlpack: only CPU tensors are supported (device type {device_type})")
        ext_tensor = ext_tensor.__dlpack__()
    return _C._from_dlpack(ext_tensor)
