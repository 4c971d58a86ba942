"""default_collate: a list of samples -> one batch, structure kept (tensors
stacked, numbers and numpy arrays made tensors, dicts/tuples collated by
field), as PyTorch's."""
import collections.abc

import torch


def default_convert(data):
    if isinstance(data, torch.Tensor):
        return data
    if type(data).__module__ == "numpy" and hasattr(data, "dtype") and data.dtype.kind not in "USO":
        return torch.as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return type(data)({k: default_convert(v) for k, v in data.items()}) if not isinstance(data, dict) else \
            {k: default_convert(v) for k, v in data.items()}
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, (list, tuple)):
        return [default_convert(d) for d in data]
    return data


def default_collate(batch):
    elem = batch[0]
    if isinstance(elem, torch.Tensor):
        if any(b.shape != elem.shape for b in batch):
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {list(elem.shape)} at entry 0 "
                               f"and {list(next(b.shape for b in batch if b.shape != elem.shape))} at a later entry")
        return torch.stack(list(batch), 0)
    module = type(elem).__module__
    if module == "numpy" and hasattr(elem, "dtype"):
        if elem.dtype.kind in "USO":
            raise TypeError(f"default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
                            f"found {elem.dtype}")
        if getattr(elem, "shape", ()) == ():
            return torch.as_tensor(batch)  # numpy scalars
        return default_collate([torch.as_tensor(b) for b in batch])
    if isinstance(elem, bool):
        return torch.tensor(batch)
    if isinstance(elem, float):
        return torch.tensor(batch, dtype=torch.float64)
    if isinstance(elem, int):
        return torch.tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        return {key: default_collate([d[key] for d in batch]) for key in elem}
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):  # namedtuple
        return type(elem)(*(default_collate(samples) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        if any(len(b) != len(elem) for b in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        transposed = list(zip(*batch))
        # A tuple sample gives a list batch, as PyTorch's (for backward compatibility there).
        return [default_collate(samples) for samples in transposed]
    raise TypeError(f"default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found "
                    f"{type(elem)}")
