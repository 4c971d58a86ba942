"""Tensors that oracle/record.py writes to files with PyTorch (and the
libraries beside it) and the tests rebuild with this torch to compare: built
from arange alone, so both torches make the same values without sharing RNG."""


def safetensors_tensors(torch):
    """One tensor per safetensors dtype both torches have (F64 ... BOOL, C64), shapes 0-d to 3-d, one empty."""
    base = torch.arange(24, dtype=torch.float64).reshape(2, 3, 4) - 7.5
    return {
        "f64": base / 3,
        "f32": (base * 0.25).float(),
        "f16": (base * 0.5).half(),
        "bf16": (base * 1.5).bfloat16(),
        "i64": torch.arange(-3, 3, dtype=torch.int64) * (1 << 40),
        "i32": torch.arange(-6, 6, dtype=torch.int32).reshape(3, 4) * 100000,
        "i16": torch.arange(-4, 4, dtype=torch.int16) * 1000,
        "i8": torch.arange(-128, 128, 16, dtype=torch.int64).to(torch.int8),
        "u8": torch.arange(0, 256, 17, dtype=torch.int64).to(torch.uint8),
        "bool": torch.arange(5) % 2 == 0,
        "c64": torch.view_as_complex((base[0] / 8).float().reshape(3, 2, 2).contiguous()),
        "scalar": torch.tensor(2.5),
        "empty": torch.zeros(0, 3),
    }
