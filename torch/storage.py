"""Storages: the bytes under tensors, as PyTorch exposes them.

`Tensor.untyped_storage()` gives an `UntypedStorage`: all the bytes of the
tensor's storage (not only the part the tensor reads), shared, on its device.
Here one is a 1-D uint8 tensor over those bytes, so a storage made from a
tensor, a slice of a storage (`storage[a:b]`, shared too), a mapped file
(`UntypedStorage.from_file`) and a new allocation all come to the same thing;
`Tensor.set_(storage, offset, size, stride)` and `torch.asarray(storage,
dtype=...)` read them as tensors. `TypedStorage` (`Tensor.storage()`,
deprecated in PyTorch) is an UntypedStorage with a dtype.
"""
import mmap
import os
import warnings

import torch
from torch import _C

__all__ = ["TypedStorage", "UntypedStorage"]


def _contiguous_strides(size):
    strides, step = [], 1
    for n in reversed(tuple(size)):
        strides.insert(0, step)
        step *= max(n, 1)
    return tuple(strides)


class UntypedStorage:
    """Bytes on a device: `UntypedStorage(nbytes, device=...)` (uninitialised), `UntypedStorage(list_of_ints)`,
    `tensor.untyped_storage()`, `UntypedStorage.from_file(...)`, `UntypedStorage.from_buffer(...)`."""

    __slots__ = ("_bytes", "__weakref__")
    is_sparse = False

    def __init__(self, *args, device=None):
        if len(args) > 1:
            raise TypeError(f"UntypedStorage() takes at most 1 positional argument ({len(args)} given)")
        arg = args[0] if args else 0
        if isinstance(arg, int) and not isinstance(arg, bool):
            if arg < 0:
                raise RuntimeError(f"UntypedStorage: size must be non-negative, got {arg}")
            data = torch.empty(arg, dtype=torch.uint8, device=device)
        else:
            data = torch.tensor(list(arg), dtype=torch.uint8, device=device)
        self._bytes = _C._storage_bytes(data)

    @classmethod
    def _wrap(cls, byte_tensor):
        """The storage of a 1-D uint8 tensor that covers all of it (what _C._storage_bytes gives)."""
        storage = cls.__new__(cls)
        storage._bytes = byte_tensor
        return storage

    @classmethod
    def _of(cls, tensor):
        return cls._wrap(_C._storage_bytes(tensor))

    # ---- what it is ----
    @property
    def device(self):
        return self._bytes.device

    @property
    def is_cuda(self):
        return self._bytes.is_cuda

    @property
    def dtype(self):
        return torch.uint8

    def data_ptr(self):
        return self._bytes.data_ptr()

    def nbytes(self):
        return self._bytes.numel()

    def size(self):
        return self._bytes.numel()

    def __len__(self):
        return self._bytes.numel()

    def element_size(self):
        return 1

    def type(self):
        return "torch.storage.UntypedStorage"

    def untyped(self):
        return self

    def is_shared(self):
        return False

    def share_memory_(self):
        return self

    def is_pinned(self, device="cuda"):
        return False

    def __repr__(self):
        values = "\n".join(f" {v}" for v in self.tolist())
        head = values + "\n" if values else ""
        return f"{head}[torch.storage.UntypedStorage(device={self.device}) of size {len(self)}]"

    # ---- elements ----
    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                raise RuntimeError(f"Trying to slice with a step of {step}, but only a step of 1 is supported")
            return UntypedStorage._wrap(_C._storage_slice(self._bytes, start, max(start, stop)))
        if not isinstance(index, int):
            raise RuntimeError(f"can't index a torch.UntypedStorage with {type(index).__name__}")
        if not -len(self) <= index < len(self):
            raise IndexError(f"index {index} out of range for storage of size {len(self)}")
        return int(self._bytes[index])

    def __setitem__(self, index, value):
        self._bytes[index] = value

    def tolist(self):
        return self._bytes.tolist()

    def __iter__(self):
        return iter(self.tolist())

    def fill_(self, value):
        self._bytes.fill_(value)
        return self

    def copy_(self, source, non_blocking=False):
        source = source.untyped() if isinstance(source, TypedStorage) else source
        if source.nbytes() != self.nbytes():
            raise RuntimeError(f"size mismatch: copying {source.nbytes()} bytes into a storage of {self.nbytes()}")
        self._bytes.copy_(source._bytes)
        return self

    def clone(self):
        return UntypedStorage._of(self._bytes.clone())

    def to(self, *, device=None, non_blocking=False):
        device = torch.device(device) if device is not None else self.device
        return self if device == self.device else UntypedStorage._of(self._bytes.to(device))

    def cpu(self):
        return self.to(device="cpu")

    def cuda(self, device=None, non_blocking=False):
        return self.to(device=torch.device("cuda", device) if isinstance(device, int) else device or "cuda")

    def resize_(self, size):
        if size == self.nbytes():
            return self
        raise RuntimeError("UntypedStorage.resize_: storages here have a fixed size (a tensor's set_ or a new "
                           "storage gives another size)")

    def __reduce__(self):
        return UntypedStorage, (self.tolist(),)

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return memo.setdefault(id(self), self.clone())

    # ---- made from outside ----
    @classmethod
    def from_buffer(cls, buffer, byte_order="native", count=-1, offset=0, dtype=None):
        """A copy of an object's buffer (bytes, bytearray, ...), as PyTorch's from_buffer."""
        data = torch.frombuffer(bytearray(buffer), dtype=dtype or torch.uint8, count=count, offset=offset)
        if byte_order not in ("native", "little", "big"):
            raise ValueError(f"byte_order must be 'native', 'little' or 'big', got {byte_order!r}")
        if byte_order == "big" and data.element_size() > 1:
            raise NotImplementedError("UntypedStorage.from_buffer: big-endian data is not supported")
        return cls._of(data)

    @classmethod
    def from_file(cls, filename, shared=False, nbytes=0):
        """The file's first `nbytes` bytes, mapped: shared=True writes go to the file (created, or grown, to
        nbytes as needed); shared=False maps it copy-on-write (the file must hold nbytes bytes)."""
        filename = os.fspath(filename)
        if nbytes < 0:
            raise RuntimeError(f"from_file: nbytes must be non-negative, got {nbytes}")
        flags = os.O_RDWR | os.O_CREAT if shared else os.O_RDONLY
        fd = os.open(filename, flags, 0o644)
        try:
            length = os.fstat(fd).st_size
            if shared and length < nbytes:
                os.ftruncate(fd, nbytes)
                length = nbytes
            if nbytes > length:
                raise RuntimeError(f"file <{filename}> size <{length}> is smaller than the required mapping size "
                                   f"<{nbytes}>")
            size = nbytes or length
            if size == 0:
                return cls(0)
            mapped = mmap.mmap(fd, size, access=mmap.ACCESS_WRITE if shared else mmap.ACCESS_COPY)
        finally:
            os.close(fd)
        # The tensor holds the mapping's buffer: it is unmapped when the last user goes.
        return cls._of(torch.frombuffer(mapped, dtype=torch.uint8))

    def _as_tensor(self, dtype, offset=0, size=None, stride=None):
        """A tensor of `dtype` over these bytes (offset, size and stride in its elements)."""
        itemsize = torch.empty(0, dtype=dtype).element_size()
        if size is None:
            size = ((self.nbytes() - offset * itemsize) // itemsize,)
        result = torch.empty(0, dtype=dtype, device=self.device)
        return _C._set_storage(result, self._bytes, offset, tuple(size), tuple(stride or _contiguous_strides(size)))


class TypedStorage:
    """An UntypedStorage read as elements of one dtype (PyTorch's `Tensor.storage()`, deprecated there)."""

    __slots__ = ("_untyped_storage", "dtype")
    is_sparse = False

    def __init__(self, *args, dtype=None, device=None, wrap_storage=None, _internal=False):
        if not _internal:
            _warn_typed_storage_removal()
        self.dtype = dtype or torch.get_default_dtype()
        if wrap_storage is not None:
            self._untyped_storage = wrap_storage
            return
        if len(args) == 1 and isinstance(args[0], int):
            data = torch.empty(args[0], dtype=self.dtype, device=device)
        else:
            data = torch.tensor(list(args[0]) if args else [], dtype=self.dtype, device=device)
        self._untyped_storage = UntypedStorage._of(data)

    @property
    def device(self):
        return self._untyped_storage.device

    @property
    def is_cuda(self):
        return self._untyped_storage.is_cuda

    def untyped(self):
        return self._untyped_storage

    def _tensor(self):
        return self._untyped_storage._as_tensor(self.dtype)

    def element_size(self):
        return torch.empty(0, dtype=self.dtype).element_size()

    def data_ptr(self):
        return self._untyped_storage.data_ptr()

    def nbytes(self):
        return self._untyped_storage.nbytes()

    def size(self):
        return self.nbytes() // self.element_size()

    def __len__(self):
        return self.size()

    def tolist(self):
        return self._tensor().tolist()

    def __getitem__(self, index):
        return self._tensor()[index].item() if isinstance(index, int) else TypedStorage(
            wrap_storage=UntypedStorage._of(self._tensor()[index].clone()), dtype=self.dtype, _internal=True)

    def __setitem__(self, index, value):
        self._tensor()[index] = value

    def fill_(self, value):
        self._tensor().fill_(value)
        return self

    def type(self):
        return f"torch.{str(self.dtype).replace('torch.', '').capitalize()}Storage"

    def __repr__(self):
        values = "\n".join(f" {v}" for v in self.tolist())
        head = values + "\n" if values else ""
        return f"{head}[torch.storage.TypedStorage(dtype={self.dtype}, device={self.device}) of size {len(self)}]"


_typed_storage_warned = False


def _warn_typed_storage_removal():
    global _typed_storage_warned
    if not _typed_storage_warned:
        _typed_storage_warned = True
        warnings.warn("TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the "
                      "only storage class. This should only matter to you if you are using storages directly.  To "
                      "access UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()",
                      UserWarning, stacklevel=3)


# ---- the Tensor methods and torch functions that take storages ----
def untyped_storage(self):
    return UntypedStorage._of(self)


def storage(self):
    _warn_typed_storage_removal()
    return TypedStorage(wrap_storage=UntypedStorage._of(self), dtype=self.dtype, _internal=True)


def set_(self, source=None, storage_offset=0, size=None, stride=None):
    """Points self at other memory: a storage (with offset, size, stride in self's elements), another tensor's
    memory and geometry, or nothing (an empty storage)."""
    if source is None:
        return _C._set_storage(self, _C._storage_bytes(torch.empty(0, dtype=self.dtype, device=self.device)), 0,
                               (0,), (1,))
    if isinstance(source, torch.Tensor):
        if source.dtype != self.dtype:
            raise RuntimeError(f"Could not set tensor of type {source.dtype} to a tensor of type {self.dtype}")
        return _C._set_storage(self, _C._storage_bytes(source), source.storage_offset(), tuple(source.shape),
                               tuple(source.stride()))
    if isinstance(source, TypedStorage):
        if source.dtype != self.dtype:
            raise RuntimeError(f"Expected a Storage of type {self.dtype} but got type {source.dtype} for argument 1 "
                               "'storage'")
        source = source.untyped()
    if not isinstance(source, UntypedStorage):
        raise TypeError(f"set_(): argument 'source' must be Tensor or Storage, not {type(source).__name__}")
    if size is None:
        itemsize = self.element_size()
        size = (source.nbytes() // itemsize,)
    size = tuple(size)
    return _C._set_storage(self, source._bytes, storage_offset, size, tuple(stride or _contiguous_strides(size)))


def from_file(filename, shared=None, size=0, *, dtype=None, layout=None, device=None, pin_memory=False):
    """torch.from_file: `size` elements of dtype mapped from the file (UntypedStorage.from_file)."""
    dtype = dtype or torch.get_default_dtype()
    storage = UntypedStorage.from_file(filename, bool(shared), size * dtype.itemsize)
    result = storage._as_tensor(dtype, size=(size,))
    return result if device is None else result.to(device)


def is_set_to(self, tensor):
    """Whether both tensors read the same memory the same way (storage, offset, sizes, strides)."""
    return (self.untyped_storage().data_ptr() == tensor.untyped_storage().data_ptr() and self.device == tensor.device
            and self.storage_offset() == tensor.storage_offset() and self.shape == tensor.shape
            and self.stride() == tensor.stride())


def install(torch_module):
    torch_module.from_file = from_file
    torch_module.Tensor.is_set_to = is_set_to
    torch_module.UntypedStorage = UntypedStorage
    torch_module.TypedStorage = TypedStorage
    torch_module.Tensor.untyped_storage = untyped_storage
    torch_module.Tensor.storage = storage
    torch_module.Tensor.set_ = set_
