"""The functions PyTorch's pickles name to rebuild tensors
(`torch._utils._rebuild_tensor_v2`, `_rebuild_parameter`, ...): torch.save
writes them and torch.load calls them, so files move between this torch and
PyTorch both ways. A `storage` here is what torch.load made of one
`data/<key>` record: a 1-D tensor of its elements (serialization.LoadedStorage)."""
import torch

__all__ = []


def _check_fits(storage, storage_offset, size, stride):
    numel = storage.numel()
    if storage_offset < 0 or any(s < 0 for s in size) or any(s < 0 for s in stride):
        raise RuntimeError(f"torch.load: a tensor with size {tuple(size)}, stride {tuple(stride)} and offset "
                           f"{storage_offset} cannot be read from a storage")
    count = 1
    for n in size:
        count *= n
    if count >= 1 << 62:
        raise RuntimeError(f"torch.load: a tensor of size {tuple(size)} is too large")
    if all(s > 0 for s in size) and size:
        last = storage_offset + sum((n - 1) * st for n, st in zip(size, stride))
        if last >= numel:
            raise RuntimeError(f"torch.load: a tensor with size {tuple(size)}, stride {tuple(stride)} and offset "
                               f"{storage_offset} reads past its storage of {numel} elements")
    elif not size and storage_offset >= numel:
        raise RuntimeError(f"torch.load: a 0-d tensor at offset {storage_offset} reads past its storage of {numel} "
                           "elements")


def _rebuild_tensor(storage, storage_offset, size, stride):
    data = storage.tensor if hasattr(storage, "tensor") else storage
    size, stride = tuple(size), tuple(stride)
    _check_fits(data, storage_offset, size, stride)
    # A tensor of its own over the storage's memory (not a view of it): every tensor rebuilt from one storage
    # shares that memory, as in PyTorch.
    result = torch.empty(0, dtype=data.dtype, device=data.device)
    return torch._C._set_storage(result, torch._C._storage_bytes(data), data.storage_offset() + storage_offset,
                                 size, stride)


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks, metadata=None):
    tensor = _rebuild_tensor(storage, storage_offset, size, stride)
    if requires_grad:
        tensor.requires_grad_(True)
    return tensor


def _rebuild_tensor_v3(storage, storage_offset, size, stride, requires_grad, backward_hooks, dtype, metadata=None):
    return _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks, metadata)


def _rebuild_parameter(data, requires_grad, backward_hooks):
    return torch.nn.Parameter(data, requires_grad)


def _rebuild_parameter_with_state(data, requires_grad, backward_hooks, state):
    param = torch.nn.Parameter(data, requires_grad)
    for name, value in (state or {}).items():
        setattr(param, name, value)
    return param


def _rebuild_from_type_v2(func, new_type, args, state):
    ret = func(*args)
    if new_type is torch.nn.Parameter and not isinstance(ret, torch.nn.Parameter):
        ret = torch.nn.Parameter(ret, ret.requires_grad)
    elif new_type not in (torch.Tensor, torch.nn.Parameter) and type(ret) is not new_type:
        raise RuntimeError(f"torch.load: tensor subclasses ({new_type.__name__}) are not supported")
    if state:
        for name, value in (state.items() if isinstance(state, dict) else ()):
            setattr(ret, name, value)
    return ret


def _rebuild_device_tensor_from_numpy(data, dtype, device, requires_grad):
    tensor = torch.from_numpy(data).to(dtype=dtype, device=device)
    return tensor.requires_grad_(requires_grad) if requires_grad else tensor


def _rebuild_meta_tensor_no_storage(dtype, size, stride, requires_grad):
    raise RuntimeError("torch.load: meta tensors are not supported")


def _refuse(kind):
    def rebuild(*args, **kwargs):
        raise RuntimeError(f"torch.load: {kind} tensors are not supported by this torch")
    rebuild.__name__ = f"_rebuild_{kind}"
    return rebuild


_rebuild_qtensor = _refuse("quantized")
_rebuild_sparse_tensor = _refuse("sparse")
_rebuild_nested_tensor = _refuse("nested")
_rebuild_wrapper_subclass = _refuse("wrapper subclass")

# What a weights_only load may call (torch.serialization's allowlist).
REBUILD_FUNCTIONS = [_rebuild_tensor, _rebuild_tensor_v2, _rebuild_tensor_v3, _rebuild_parameter,
                     _rebuild_parameter_with_state, _rebuild_device_tensor_from_numpy,
                     _rebuild_meta_tensor_no_storage, _rebuild_qtensor, _rebuild_sparse_tensor,
                     _rebuild_nested_tensor, _rebuild_wrapper_subclass]
