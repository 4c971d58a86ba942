"""torch.save / torch.load in PyTorch's file format, so checkpoints move
between this torch and PyTorch both ways.

A file is a zip archive `<name>/...`: `data.pkl` pickles the object (protocol
2), each tensor reduced to `torch._utils._rebuild_tensor_v2(storage, offset,
size, stride, requires_grad, OrderedDict())` and each storage a persistent id
`("storage", torch.<Dtype>Storage, key, location, numel)` whose bytes are the
record `data/<key>` (little-endian); `version`, `byteorder`,
`.format_version`, `.storage_alignment` and `.data/serialization_id` as
PyTorch writes them. As in PyTorch, each storage is saved once, whole, and
each tensor as its place in it: views of one tensor come back as views of
one storage, and a small slice of a large tensor saves all of the large one.

torch.load(weights_only=True), the default as in PyTorch 2.6+, unpickles
with an allowlist: containers, numbers, strings, tensors, Parameters,
dtypes, devices, sizes, and what `add_safe_globals` / `safe_globals` add; any
other global is refused with PyTorch's message and nothing runs.
weights_only=False is a full unpickle (whole modules, any picklable object):
only for files you trust. Entries must be stored uncompressed and each
storage record must hold the bytes its numel calls for, checked before it is
read; tensors are checked to lie inside their storage. Files written by this
torch's first format (a `structure.json` zip) still load
(torch/_serialization_json.py).
"""
import io
import os
import pickle
import pickletools
import struct
import sys
import zipfile
from collections import Counter, OrderedDict

import torch
from torch import _serialization_json, _tensor_bytes, _utils

__all__ = ["add_safe_globals", "clear_safe_globals", "get_safe_globals", "load", "safe_globals", "save",
           "default_restore_location", "location_tag"]

DEFAULT_PROTOCOL = 2
_STORAGE_NAMES = {torch.float64: "DoubleStorage", torch.float32: "FloatStorage", torch.float16: "HalfStorage",
                  torch.bfloat16: "BFloat16Storage", torch.int64: "LongStorage", torch.int32: "IntStorage",
                  torch.int16: "ShortStorage", torch.int8: "CharStorage", torch.uint8: "ByteStorage",
                  torch.bool: "BoolStorage", torch.complex32: "ComplexHalfStorage",
                  torch.complex64: "ComplexFloatStorage", torch.complex128: "ComplexDoubleStorage"}
# PyTorch's storage types this torch has no dtype for: loading one is refused by name.
_UNSUPPORTED_STORAGES = ("QInt8Storage", "QUInt8Storage", "QInt32Storage", "QUInt4x2Storage", "QUInt2x4Storage")


class StorageType:
    """A storage class as pickles name it (`torch.FloatStorage`): here only its dtype."""

    def __init__(self, name, dtype):
        self.__name__ = self.__qualname__ = name
        self.dtype = dtype
        self.__module__ = "torch"

    def __repr__(self):
        return f"torch.{self.__name__}"

    def __reduce__(self):
        return self.__name__  # pickled by reference, as torch.<Name>

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"torch.{self.__name__}: typed storages are not supported by this torch; they exist so "
                           "that files naming them load")


STORAGE_TYPES = {name: StorageType(name, dtype) for dtype, name in _STORAGE_NAMES.items()}


class LoadedStorage:
    """One `data/<key>` record: its elements as a 1-D tensor on the device they load to."""

    def __init__(self, tensor, location):
        self.tensor = tensor
        self.location = location
        self.device = tensor.device
        self.dtype = tensor.dtype

    def numel(self):
        return self.tensor.numel()

    def nbytes(self):
        return self.tensor.numel() * self.tensor.element_size()

    def cpu(self):
        return LoadedStorage(self.tensor.cpu(), self.location)

    def cuda(self, device=None):
        return LoadedStorage(self.tensor.cuda(device), self.location)


# ---- safe globals (weights_only) ----
_user_safe_globals = []


def add_safe_globals(safe_globals):
    """Allows these classes and functions (or (obj, "module.name") pairs) in weights_only loads."""
    _user_safe_globals.extend(safe_globals)


def get_safe_globals():
    return list(_user_safe_globals)


def clear_safe_globals():
    _user_safe_globals.clear()


class safe_globals:  # noqa: N801 (PyTorch's name)
    """Context manager: add_safe_globals for the block only."""

    def __init__(self, safe_globals):
        self.safe_globals = list(safe_globals)

    def __enter__(self):
        self.before = list(_user_safe_globals)
        _user_safe_globals.extend(self.safe_globals)

    def __exit__(self, *exc):
        _user_safe_globals[:] = self.before


def _allowed_globals():
    allowed = {"collections.OrderedDict": OrderedDict, "collections.Counter": Counter,
               "torch.nn.parameter.Parameter": torch.nn.Parameter, "torch.Size": torch.Size,
               "torch.Tensor": torch.Tensor, "torch.device": torch.device, "_codecs.encode": _encode_bytes,
               "builtins.bytearray": bytearray, "builtins.set": set, "builtins.frozenset": frozenset,
               "builtins.complex": complex, "builtins.slice": slice, "builtins.range": range,
               "torch._tensor._rebuild_from_type_v2": _utils._rebuild_from_type_v2,
               "torch._utils._rebuild_from_type_v2": _utils._rebuild_from_type_v2}
    for name, dtype in _tensor_bytes.DTYPES.items():
        allowed[f"torch.{name}"] = dtype
    for name, storage_type in STORAGE_TYPES.items():
        allowed[f"torch.{name}"] = storage_type
    for fn in _utils.REBUILD_FUNCTIONS:
        allowed[f"torch._utils.{fn.__name__}"] = fn
    for entry in _user_safe_globals:
        obj, name = entry if isinstance(entry, tuple) else (entry, f"{entry.__module__}.{entry.__qualname__}")
        allowed[name] = obj
    return allowed


def _encode_bytes(text, encoding="latin1"):
    import codecs

    return codecs.encode(text, encoding)


class UnpicklingError(pickle.UnpicklingError, RuntimeError):
    """A weights_only load that failed: PyTorch raises pickle.UnpicklingError, and every bad file gives a
    RuntimeError here; this is both."""


class _WeightsOnlyUnpickler(pickle.Unpickler):
    def __init__(self, file, persistent_load):
        super().__init__(file)
        self._persistent_load = persistent_load
        self._allowed = _allowed_globals()

    def persistent_load(self, pid):
        return self._persistent_load(pid)

    def find_class(self, module, name):
        full = f"{module}.{name}"
        if full in self._allowed:
            return self._allowed[full]
        if module == "torch" and name in _UNSUPPORTED_STORAGES:
            raise UnpicklingError(f"torch.load: {full} (quantized storage) is not supported by this torch")
        raise UnpicklingError(
            "Weights only load failed. This file can still be loaded, to do so you have two options, do those steps "
            "only if you trust the source of the checkpoint. \n\t(1) In PyTorch 2.6, we changed the default value "
            "of the `weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with "
            "`weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. Do it "
            "only if you got the file from a trusted source.\n\t(2) Alternatively, to load with `weights_only=True` "
            "please check the recommended steps in the following error message.\n\tWeightsUnpickler error: "
            f"Unsupported global: GLOBAL {full} was not an allowed global by default. Please use "
            f"`torch.serialization.add_safe_globals([{full}])` or the `torch.serialization.safe_globals([{full}])` "
            "context manager to allowlist this global if you trust this class/function.")


class _FullUnpickler(pickle.Unpickler):
    def __init__(self, file, persistent_load):
        super().__init__(file)
        self._persistent_load = persistent_load

    def persistent_load(self, pid):
        return self._persistent_load(pid)

    def find_class(self, module, name):
        if module == "torch" and name in STORAGE_TYPES:
            return STORAGE_TYPES[name]
        if module == "torch" and name in _UNSUPPORTED_STORAGES:
            raise pickle.UnpicklingError(f"torch.load: torch.{name} (quantized storage) is not "
                                         "supported by this torch")
        if module == "torch._tensor" and name == "_rebuild_from_type_v2":
            return _utils._rebuild_from_type_v2
        return super().find_class(module, name)


# ---- save ----
def location_tag(tensor):
    return "cpu" if tensor.device.type == "cpu" else f"cuda:{tensor.device.index or 0}"


class _StorageOf:
    """A tensor's whole storage while pickling: the persistent id names it once, however many tensors view it."""

    def __init__(self, tensor):
        self.tensor = tensor


class _Pickler(pickle.Pickler):
    def __init__(self, file, protocol):
        super().__init__(file, protocol)
        self.records = []  # (key, 1-D uint8 tensor of the storage's bytes, dtype)
        self.storage_keys = {}  # (device, address) -> (key, dtype)

    def reducer_override(self, obj):
        if isinstance(obj, torch.Tensor):
            if isinstance(obj, torch.nn.Parameter):
                return _utils._rebuild_parameter, (obj.detach(), obj.requires_grad, OrderedDict())
            # As PyTorch: the storage, and where in it the tensor lies, so views of one storage stay views of
            # one storage after load.
            return _utils._rebuild_tensor_v2, (_StorageOf(obj.detach()), obj.storage_offset(), tuple(obj.shape),
                                               tuple(obj.stride()), bool(obj.requires_grad and obj.is_leaf),
                                               OrderedDict())
        if isinstance(obj, torch.dtype):
            return str(obj).replace("torch.", "")  # the global torch.<name>, as PyTorch pickles dtypes
        return NotImplemented

    def persistent_id(self, obj):
        if isinstance(obj, _StorageOf):
            t = obj.tensor
            if t.dtype not in _STORAGE_NAMES:
                raise TypeError(f"torch.save: cannot save a tensor of dtype {t.dtype}")
            data = torch._C._storage_bytes(t)
            identity = (str(t.device), data.data_ptr() if data.numel() else id(t))
            if identity in self.storage_keys:
                key, dtype = self.storage_keys[identity]
                if dtype != t.dtype:
                    raise RuntimeError("Cannot save multiple tensors or storages that view the same data as "
                                       "different types")
            else:
                key = str(len(self.records))
                self.storage_keys[identity] = (key, t.dtype)
                self.records.append((key, data))
            numel = data.numel() // t.element_size()
            return ("storage", STORAGE_TYPES[_STORAGE_NAMES[t.dtype]], key, location_tag(t), numel)
        return None


def _archive_name(f):
    if isinstance(f, (str, os.PathLike)):
        return os.path.splitext(os.path.basename(os.fspath(f)))[0] or "archive"
    return "archive"


def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL, _use_new_zipfile_serialization=True,
         _disable_byteorder_record=False):
    """Saves obj to a path or a writable binary file in PyTorch's zip format."""
    if pickle_module is not pickle:
        raise NotImplementedError("torch.save: only the standard pickle module is supported")
    if not _use_new_zipfile_serialization:
        raise NotImplementedError("torch.save: the legacy (pre-1.6) format is not supported; the zip format is")
    data = io.BytesIO()
    pickler = _Pickler(data, pickle_protocol)
    pickler.dump(obj)
    name = _archive_name(f)
    buffer = f if hasattr(f, "write") else open(os.fspath(f), "wb")
    try:
        with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as z:
            z.writestr(f"{name}/data.pkl", data.getvalue())
            z.writestr(f"{name}/.format_version", "1")
            z.writestr(f"{name}/.storage_alignment", "64")
            if not _disable_byteorder_record:
                z.writestr(f"{name}/byteorder", sys.byteorder)
            for key, data in pickler.records:
                z.writestr(f"{name}/data/{key}", _tensor_bytes.tensor_bytes(data))
            z.writestr(f"{name}/version", "3\n")
            z.writestr(f"{name}/.data/serialization_id", "0" * 40)
    finally:
        if buffer is not f:
            buffer.close()


# ---- load ----
def _target_device(map_location, location):
    """Where a storage saved at `location` goes."""
    if map_location is None:
        target = location
    elif isinstance(map_location, (str, torch.device)):
        target = map_location
    elif isinstance(map_location, dict):
        target = map_location.get(location, location)
    else:
        raise TypeError("torch.load: map_location must be None, a str, a torch.device, a dict or a callable, got "
                        f"{type(map_location).__name__}")
    device = torch.device(target)
    if device.type == "cuda" and not torch.cuda.is_available():
        raise RuntimeError("Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is "
                           "False. If you are running on a CPU-only machine, please use torch.load with "
                           "map_location=torch.device('cpu') to map your storages to the CPU.")
    return device


def default_restore_location(storage, location):
    return LoadedStorage(storage.tensor.to(_target_device(None, location)), location)


def _load_zip(z, map_location, weights_only):
    pickles = [n for n in z.namelist() if n.endswith("/data.pkl") or n == "data.pkl"]
    if not pickles:
        raise _serialization_json.Malformed("no data.pkl")
    prefix = pickles[0][: -len("data.pkl")]
    if prefix + "byteorder" in z.namelist():
        order = _serialization_json.member(z, prefix + "byteorder").decode()
        if order != "little":
            raise RuntimeError(f"torch.load: the file's byteorder is {order!r}; only little-endian files load")
    loaded = {}

    def persistent_load(pid):
        if not isinstance(pid, tuple) or len(pid) != 5 or pid[0] != "storage":
            raise pickle.UnpicklingError(f"torch.load: unknown persistent id {pid!r:.80}")
        _, storage_type, key, location, numel = pid
        if not isinstance(storage_type, StorageType):
            raise pickle.UnpicklingError(f"torch.load: unsupported storage type {storage_type!r:.80}")
        if not isinstance(key, str) or type(numel) is not int or numel < 0:
            raise pickle.UnpicklingError(f"torch.load: malformed storage id {pid!r:.80}")
        if key not in loaded:
            size = numel * _tensor_bytes.itemsize(storage_type.dtype)
            record = _serialization_json.member(z, f"{prefix}data/{key}")
            if len(record) < size:
                raise _serialization_json.Malformed(f"record data/{key} holds {len(record)} bytes, but its storage "
                                                    f"needs {size}")
            tensor = _tensor_bytes.tensor_from_bytes(record[:size], storage_type.dtype, (numel,))
            storage = LoadedStorage(tensor, location)
            if callable(map_location) and not isinstance(map_location, (str, torch.device, dict)):
                result = map_location(storage, location)
                storage = result if isinstance(result, LoadedStorage) else default_restore_location(storage, location)
            else:
                device = _target_device(map_location, location)
                if device.type != "cpu":
                    storage = LoadedStorage(tensor.to(device), location)
            loaded[key] = storage
        return loaded[key]

    pickled = _serialization_json.member(z, pickles[0])
    data = io.BytesIO(pickled)
    if not weights_only:
        return _FullUnpickler(data, persistent_load).load()
    _check_memo_indices(pickled)
    try:
        return _WeightsOnlyUnpickler(data, persistent_load).load()
    except (UnpicklingError, _serialization_json.Malformed):
        raise
    except Exception as e:  # whatever a corrupt pickle makes the allowed constructors raise
        raise UnpicklingError(f"torch.load: malformed file: {type(e).__name__}: {e}") from None


def _check_memo_indices(pickled):
    """Refuses a memo index no pickler writes: pickle's C unpickler grows its memo table to the largest index it
    is given (LONG_BINPUT 2**31 is a 16 GiB table, zeroed), before anything else could fail."""
    puts = 0
    try:
        for op, arg, _ in pickletools.genops(pickled):
            if op.name in ("PUT", "BINPUT", "LONG_BINPUT"):
                if not isinstance(arg, int) or arg < 0 or arg > puts:
                    raise UnpicklingError(f"torch.load: malformed file: memo index {arg} out of order")
                puts += 1
            elif op.name == "MEMOIZE":
                puts += 1
    except UnpicklingError:
        raise
    except Exception as e:  # what pickletools raises on bytes that are not a pickle
        raise UnpicklingError(f"torch.load: malformed file: {type(e).__name__}: {e}") from None


def _weights_only_default(weights_only):
    if os.environ.get("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "0") not in ("0", ""):
        return True
    if weights_only is None:
        return os.environ.get("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "0") in ("0", "")
    return bool(weights_only)


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    """Loads what torch.save (this torch's or PyTorch's) wrote.

    map_location: None (each storage to the device it was saved from), a device (str or torch.device), a dict
    {saved location: device}, or a callable(storage, location). weights_only (default True): only tensors,
    containers and allowlisted globals; False unpickles anything (trusted files only)."""
    if pickle_module is not None and pickle_module is not pickle:
        raise NotImplementedError("torch.load: only the standard pickle module is supported")
    weights_only = _weights_only_default(weights_only)
    if map_location is not None and not isinstance(map_location, (str, torch.device, dict)) and \
            not callable(map_location):
        raise TypeError("torch.load: map_location must be None, a str, a torch.device, a dict or a callable, got "
                        f"{type(map_location).__name__}")
    buffer = f if hasattr(f, "read") else open(os.fspath(f), "rb")
    try:
        with zipfile.ZipFile(buffer) as z:
            if "structure.json" in z.namelist():
                if callable(map_location) and not isinstance(map_location, (str, torch.device, dict)):
                    raise TypeError("torch.load: a callable map_location is not supported for this file's format")
                device = None if map_location is None or isinstance(map_location, dict) else torch.device(map_location)
                return _serialization_json.read(z, device)
            return _load_zip(z, map_location, weights_only)
    # What zipfile and pickle raise on corrupt input (a damaged directory gives
    # ValueError for a negative seek, struct.error for short headers, ...).
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError, struct.error, OverflowError,
            NotImplementedError) as e:
        raise RuntimeError(f"torch.load: not a file written by torch.save ({type(e).__name__}: {e})") from None
    except _serialization_json.Malformed as e:
        raise RuntimeError(f"torch.load: malformed file: {e}") from None
    except RecursionError:
        raise RuntimeError("torch.load: malformed file: nested too deeply") from None
    finally:
        if buffer is not f:
            buffer.close()


# Tensor.__reduce_ex__ (plain pickle: DataLoader workers, copy.deepcopy): bytes in the pickle itself.
def _rebuild_tensor(data, dtype_name, shape, requires_grad, device, parameter=False):
    t = _tensor_bytes.tensor_from_bytes(data, _tensor_bytes.DTYPES[dtype_name], tuple(shape))
    if device != "cpu":
        t = t.to(device)
    if parameter:
        return torch.nn.Parameter(t, requires_grad)
    return t.requires_grad_(requires_grad) if requires_grad else t


def _reduce_tensor(t):
    data = t.detach().contiguous()
    return (_rebuild_tensor, (_tensor_bytes.tensor_bytes(data), str(data.dtype).replace("torch.", ""),
                              list(data.shape), bool(t.requires_grad), str(t.device),
                              type(t).__name__ == "Parameter"))
