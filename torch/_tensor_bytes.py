"""A CPU tensor's bytes and back, little-endian and row-major, for every
dtype this torch has, through `Tensor.view(torch.uint8)` and
`torch.frombuffer`. torch.save, torch.load and the pickling of tensors
(Tensor.__reduce_ex__: DataLoader workers, copy.deepcopy) share them."""
import torch

DTYPES = {str(d).replace("torch.", ""): d for d in (
    torch.float64, torch.float32, torch.float16, torch.bfloat16, torch.int64, torch.int32, torch.int16, torch.int8,
    torch.uint8, torch.bool, torch.complex32, torch.complex64, torch.complex128)}


def itemsize(dtype):
    return dtype.itemsize


def tensor_bytes(t):
    """The bytes of t's elements in row-major order."""
    t = t.detach().cpu().contiguous()
    if t.numel() == 0:
        return b""
    return t.reshape(-1).view(torch.uint8).numpy().tobytes()


def tensor_from_bytes(data, dtype, shape):
    """A new CPU tensor of this dtype and shape holding `data` (exactly its bytes)."""
    numel = 1
    for n in shape:
        numel *= n
    if len(data) != numel * dtype.itemsize:
        raise RuntimeError(f"{len(data)} bytes cannot hold a {dtype} tensor of shape {tuple(shape)}")
    if len(data) == 0:
        return torch.empty(shape, dtype=dtype)
    return torch.frombuffer(bytearray(data), dtype=torch.uint8).view(dtype).reshape(shape)
