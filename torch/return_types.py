"""torch.return_types: the named tuples that ops return (sort's values and
indices, frexp's mantissa and exponent). The native ones are made on an op's
first call (csrc/utils/wrap.cpp) and take this module's repr: PyTorch's
layout, a field per line, as tensors print over several lines anyway."""


def _repr(self):
    cls = type(self)
    fields = ",\n".join(f"{name}={value!r}" for name, value in zip(cls._fields, self))
    return f"torch.return_types.{cls.__name__}(\n{fields})"
