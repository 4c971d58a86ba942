"""Hostile Python values for the binding's fuzzer, drawn from fuzzer bytes:
numbers at and past every integer limit, objects whose __index__, __float__,
__len__ or __getitem__ raise or lie, nested lists deeper than any tensor,
numpy arrays with odd strides and byte orders, capsules and __dlpack__
objects that are not what they claim, and ordinary tensors of every layout."""
import ctypes

import numpy as np
import torch

HUGE_INTS = [0, 1, -1, 2, 3, 7, 2**31 - 1, 2**31, 2**32, 2**62, 2**63 - 1, 2**63, 2**64, -2**63, -2**63 - 1,
             10**30, -10**30]
FLOATS = [0.0, -0.0, 0.5, -1.5, 1e308, -1e308, 5e-324, float("nan"), float("inf"), float("-inf")]
DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32, torch.int16,
          torch.int8, torch.uint8, torch.bool]
STRINGS = ["", "cpu", "cuda", "cuda:0", "cuda:-1", "meta", "mps", "cpu:99999999999999999999", "float32", "sum",
           "mean", "none", "\x00", "x" * 1000]


class Boom(Exception):
    """What the lying objects raise: any Python exception must pass through cleanly."""


def _answer(value):
    """A lying object's answer: the value, or the exception it raises."""
    if isinstance(value, Exception):
        raise value
    return value


class LyingIndex:
    def __init__(self, value):
        self.value = value

    def __index__(self):
        return _answer(self.value)  # may be a non-int: CPython then raises TypeError


class LyingFloat:
    def __init__(self, value):
        self.value = value

    def __float__(self):
        return _answer(self.value)


class LyingList(list):
    """A list whose __len__ disagrees with its contents, or raises."""

    def __init__(self, items, length):
        super().__init__(items)
        self.length = length

    def __len__(self):
        return _answer(self.length)


class RaisingSequence:
    def __len__(self):
        return 3

    def __getitem__(self, i):
        if i >= 2:
            raise Boom("item")
        return 1.0


class FakeDLPack:
    """Claims to be a DLPack producer; its answers are wrong."""

    def __init__(self, device, capsule):
        self.device, self.capsule = device, capsule

    def __dlpack_device__(self):
        return _answer(self.device)

    def __dlpack__(self, *args, **kwargs):
        return _answer(self.capsule)


def capsule(name):
    """A PyCapsule named `name` around a harmless pointer (a capsule named
    "dltensor" is trusted by every DLPack consumer, so it is never made here)."""
    assert name != b"dltensor"
    new = ctypes.pythonapi.PyCapsule_New
    new.restype, new.argtypes = ctypes.py_object, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    return new(ctypes.addressof(_TARGET), name, None)


_TARGET = ctypes.c_int64(0)
_NAMES = [b"used_dltensor", b"dltensor_versioned_x", b"not a tensor"]
_KEEP_ALIVE = list(_NAMES)  # capsule names must outlive the capsules


def nested(depth, leaf=1.0):
    x = leaf
    for _ in range(depth):
        x = [x]
    return x


def numpy_array(fdp):
    base = np.arange(24).astype(fdp.PickValueInList(["<f4", ">f4", "<f8", ">i8", "<i4", "u1", "?", "<f2", ">f2"]))
    kind = fdp.ConsumeIntInRange(0, 8)
    if kind == 0:
        return base.reshape(2, 3, 4)[:, ::-1, ::2]
    if kind == 1:
        return np.lib.stride_tricks.as_strided(base, shape=(3, 1000), strides=(base.itemsize, 0))
    if kind == 2:
        return base.reshape(4, 6).T
    if kind == 3:
        raw = np.zeros(8 * 25 + 1, dtype=np.uint8)
        return np.frombuffer(raw.data, dtype="<f8", count=25, offset=1)  # misaligned
    if kind == 4:
        return np.array([1, "a", None], dtype=object)
    if kind == 5:
        return np.zeros(3, dtype=[("a", "<f4"), ("b", "<i8")])
    if kind == 6:
        return np.float64(fdp.ConsumeRegularFloat())
    if kind == 7:
        return np.empty((0, 3), dtype=np.complex64)
    return base.reshape(2, 12)[:, 1:-1:3]


def tensor(fdp):
    dtype = fdp.PickValueInList(DTYPES)
    kind = fdp.ConsumeIntInRange(0, 6)
    base = torch.arange(24).to(dtype)
    if kind == 0:
        return base.reshape(2, 3, 4)
    if kind == 1:
        return base.reshape(4, 6).t()
    if kind == 2:
        return torch.tensor(3).to(dtype)
    if kind == 3:
        return torch.empty(0, 3, dtype=dtype)
    if kind == 4:
        return base[:4].expand(3, 4)
    if kind == 5:
        return base.reshape(2, 12)[:, ::5]
    return torch.randn(3, 4, requires_grad=True)


def value(fdp, depth=0):
    """One hostile argument."""
    kind = fdp.ConsumeIntInRange(0, 19 if depth < 2 else 13)
    if kind == 0:
        return fdp.PickValueInList(HUGE_INTS)
    if kind == 1:
        return fdp.ConsumeIntInRange(-5, 5)
    if kind == 2:
        return fdp.PickValueInList(FLOATS)
    if kind == 3:
        return fdp.PickValueInList([True, False, None, Ellipsis, (), [], {}])
    if kind == 4:
        return fdp.PickValueInList(STRINGS)
    if kind == 5:
        return fdp.PickValueInList(DTYPES)
    if kind == 6:
        return LyingIndex(fdp.PickValueInList([*HUGE_INTS, Boom("index"), 1.5, "3", None]))
    if kind == 7:
        return LyingFloat(fdp.PickValueInList([*FLOATS, Boom("float"), "1.0", None, 3]))
    if kind == 8:
        return tensor(fdp)
    if kind == 9:
        return numpy_array(fdp)
    if kind == 10:
        return slice(fdp.PickValueInList([None, *HUGE_INTS]), fdp.PickValueInList([None, *HUGE_INTS]),
                     fdp.PickValueInList([None, 1, 2, -1, 0, 2**63]))
    if kind == 11:
        return torch.device("cpu") if fdp.ConsumeBool() else torch.Size([2, 3])
    if kind == 12:
        return fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 8))
    if kind == 13:
        return RaisingSequence()
    if kind == 14:
        return nested(fdp.PickValueInList([1, 2, 127, 128, 129, 1000, 100_000]),
                      fdp.PickValueInList([1.0, 2, True, [], "x", None]))
    if kind == 15:
        items = [value(fdp, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 3))]
        return LyingList(items, fdp.PickValueInList([0, 1, 5, 2**62, -1, Boom("len")]))
    if kind == 16:
        return FakeDLPack(fdp.PickValueInList([(1, 0), (2, 0), (1, 99), None, "cpu", Boom("device")]),
                          fdp.PickValueInList([None, 3, capsule(fdp.PickValueInList(_NAMES)), Boom("capsule")]))
    if kind == 17:
        return capsule(fdp.PickValueInList(_NAMES))
    items = [value(fdp, depth + 1) for _ in range(fdp.ConsumeIntInRange(0, 4))]
    return items if kind == 18 else tuple(items)


def plausible(fdp):
    """An argument of a type ops take (tensors, small or extreme ints, dims,
    shapes, floats, dtypes), so that calls get past argument parsing into the
    kernels' own checks."""
    kind = fdp.ConsumeIntInRange(0, 7)
    if kind <= 2:
        return tensor(fdp)
    if kind == 3:
        return fdp.ConsumeIntInRange(-4, 6)
    if kind == 4:
        return [fdp.ConsumeIntInRange(-3, 5) for _ in range(fdp.ConsumeIntInRange(0, 4))]
    if kind == 5:
        return fdp.PickValueInList(HUGE_INTS + FLOATS)
    if kind == 6:
        return fdp.PickValueInList(DTYPES)
    return value(fdp)
