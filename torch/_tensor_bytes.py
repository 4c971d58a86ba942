"""A CPU tensor's bytes and back, little-endian and row-major, for every
dtype this torch has (bfloat16 as the upper halves of its float32 bits, as
numpy has no bfloat16). torch.save, torch.load and the pickling of tensors
(Tensor.__reduce_ex__: DataLoader workers, copy.deepcopy) share them."""
import torch

DTYPES = {str(d).replace("torch.", ""): d for d in (
    torch.float64, torch.float32, torch.float16, torch.bfloat16, torch.int64, torch.int32, torch.int16, torch.int8,
    torch.uint8, torch.bool)}
_NUMPY = {torch.float64: "<f8", torch.float32: "<f4", torch.float16: "<f2", torch.int64: "<i8", torch.int32: "<i4",
          torch.int16: "<i2", torch.int8: "i1", torch.uint8: "u1", torch.bool: "?"}


def itemsize(dtype):
    return 2 if dtype == torch.bfloat16 else torch.empty(0, dtype=dtype).element_size()


def tensor_bytes(t):
    """The bytes of t's elements in row-major order."""
    t = t.detach().cpu().contiguous()
    if t.numel() == 0:
        return b""
    if t.dtype == torch.bfloat16:
        import numpy as np

        bits = t.to(torch.float32).numpy().view(np.uint32) >> 16
        return bits.astype("<u2").tobytes()
    return t.numpy().tobytes()


def tensor_from_bytes(data, dtype, shape):
    """A new CPU tensor of this dtype and shape holding `data` (exactly its bytes)."""
    import numpy as np

    if dtype == torch.bfloat16:
        bits = np.frombuffer(data, dtype="<u2").astype(np.uint32) << 16
        return torch.from_numpy(bits.view(np.float32).copy()).to(torch.bfloat16).reshape(shape)
    return torch.from_numpy(np.frombuffer(data, dtype=_NUMPY[dtype]).copy()).reshape(shape)
