"""torch.FloatTensor, torch.LongTensor, ...: PyTorch's legacy typed constructors.

torch.LongTensor(2, 3) is an uninitialised int64 tensor of that shape,
torch.FloatTensor([1, 2]) a float32 tensor of that data, and
isinstance(t, torch.FloatTensor) asks whether t is a float32 CPU tensor.
Tensor.new is the same constructor for the tensor's own dtype.
"""
import torch


class _LegacyType(type):
    def __instancecheck__(cls, obj):
        return isinstance(obj, torch.Tensor) and obj.dtype == cls.dtype and obj.device.type == "cpu"

    def __call__(cls, *args, device=None):
        if len(args) == 1 and not isinstance(args[0], int) and not isinstance(args[0], torch.Size):
            data = args[0]
            if isinstance(data, torch.Tensor):
                return data.to(cls.dtype)
            return torch.tensor(data, dtype=cls.dtype, device=device)
        if len(args) == 1 and isinstance(args[0], torch.Size):
            args = tuple(args[0])
        if not all(isinstance(a, int) and not isinstance(a, bool) for a in args):
            raise TypeError(f"{cls.__name__}(): expected sizes (ints) or data (a sequence), got "
                            f"{tuple(type(a).__name__ for a in args)}")
        return torch.empty(args, dtype=cls.dtype, device=device)

    def __repr__(cls):
        return f"<class 'torch.{cls.__name__}'>"


_NAMES = {"FloatTensor": "float32", "DoubleTensor": "float64", "HalfTensor": "float16", "BFloat16Tensor": "bfloat16",
          "LongTensor": "int64", "IntTensor": "int32", "ShortTensor": "int16", "CharTensor": "int8",
          "ByteTensor": "uint8", "BoolTensor": "bool"}

TYPES = {name: _LegacyType(name, (), {"dtype": getattr(torch, dtype)}) for name, dtype in _NAMES.items()}


def new(self, *args, device=None):
    """Tensor.new, the legacy constructor of self's dtype: x.new(2, 3) is
    uninitialised, x.new([1, 2]) holds that data, x.new(t) shares t's."""
    device = device if device is not None else self.device
    if len(args) == 1 and isinstance(args[0], torch.Tensor):
        other = args[0]
        if other.dtype != self.dtype:
            raise TypeError(f"new(): expected a tensor of dtype {self.dtype} (got {other.dtype})")
        return other.view_as(other)
    if len(args) == 1 and not isinstance(args[0], (int, torch.Size)):
        data = args[0]
        if not isinstance(data, (list, tuple)) and not hasattr(data, "__array__"):
            raise TypeError(f"new(): data must be a sequence (got {type(data).__name__})")
        return torch.tensor(data, dtype=self.dtype, device=device)
    sizes = tuple(args[0]) if len(args) == 1 and isinstance(args[0], torch.Size) else args
    if not all(isinstance(a, int) and not isinstance(a, bool) for a in sizes):
        raise TypeError(f"new(): expected sizes (ints) or data (a sequence), got {tuple(type(a).__name__ for a in sizes)}")
    return torch.empty(sizes if sizes else (0,), dtype=self.dtype, device=device)


def dtype_of_type_name(name):
    """'torch.LongTensor' (or 'LongTensor') -> torch.int64, as Tensor.type(str) takes."""
    short = name.split(".")[-1]
    if short not in TYPES or (name.count(".") and not name.startswith("torch.")):
        raise ValueError(f"invalid type: '{name}'")
    return TYPES[short].dtype
