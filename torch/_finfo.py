"""torch.finfo and torch.iinfo: the numeric limits of a dtype, as PyTorch reports them."""
import torch

# bits, eps, max, tiny (smallest normal), resolution
_FLOAT = {
    "float32": (32, 2.0**-23, 3.4028234663852886e38, 2.0**-126, 1e-06),
    "float64": (64, 2.0**-52, 1.7976931348623157e308, 2.0**-1022, 1e-15),
    "float16": (16, 2.0**-10, 65504.0, 2.0**-14, 0.001),
    "bfloat16": (16, 2.0**-7, 3.3895313892515355e38, 2.0**-126, 0.01),
}
_INT = {"uint8": (8, 0, 255), "int8": (8, -128, 127), "int16": (16, -32768, 32767),
        "int32": (32, -2**31, 2**31 - 1), "int64": (64, -2**63, 2**63 - 1)}


def _name(dtype):
    return str(dtype).replace("torch.", "")


class finfo:
    def __init__(self, type=None):
        dtype = torch.get_default_dtype() if type is None else type
        if _name(dtype) not in _FLOAT:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                            "'torch.finfo'")
        self.bits, self.eps, self.max, self.tiny, self.resolution = _FLOAT[_name(dtype)]
        self.min = -self.max
        self.smallest_normal = self.tiny
        self.dtype = _name(dtype)

    def __eq__(self, other):
        return isinstance(other, finfo) and self.dtype == other.dtype

    def __hash__(self):
        return hash(("finfo", self.dtype))

    def __repr__(self):
        return (f"finfo(resolution={self.resolution:g}, min={self.min:g}, max={self.max:g}, eps={self.eps:g}, "
                f"smallest_normal={self.smallest_normal:g}, tiny={self.tiny:g}, dtype={self.dtype})")


class iinfo:
    def __init__(self, type):
        if _name(type) not in _INT:
            if type.is_floating_point:
                raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'")
            raise TypeError(f"{type} is not supported by torch.iinfo")
        self.bits, self.min, self.max = _INT[_name(type)]
        self.dtype = _name(type)

    def __eq__(self, other):
        return isinstance(other, iinfo) and self.dtype == other.dtype

    def __hash__(self):
        return hash(("iinfo", self.dtype))

    def __repr__(self):
        return f"iinfo(min={self.min:g}, max={self.max:g}, dtype={self.dtype})"
