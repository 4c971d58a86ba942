"""torch.save / torch.load in a format that never runs code on load.

A file is a zip archive: `structure.json` describes the saved object (dicts,
lists, tuples, numbers, strings, None, tensors) and `tensors/<n>` holds each
tensor's bytes, little-endian, row-major, with its device (a CUDA tensor is
saved from a host copy and loaded back onto its device unless map_location
says otherwise). Loading only ever builds those types; there is no pickle.

A hostile file gets a RuntimeError, never code execution or unbounded
memory: entries must be stored uncompressed (as save() writes them), so no
entry holds more bytes than the file; each tensor entry must hold exactly the
bytes its dtype and shape call for, checked before it is read; nothing is
ever extracted to disk, so member names cannot point anywhere.
"""
import json
import os
import struct
import zipfile
from collections import OrderedDict

import torch

_FORMAT = "torch-zip-json"
_VERSION = 1
_DTYPES = {str(d).replace("torch.", ""): d for d in (
    torch.float64, torch.float32, torch.float16, torch.bfloat16, torch.int64, torch.int32, torch.int16, torch.int8,
    torch.uint8, torch.bool)}


def _encode(obj, tensors):
    if isinstance(obj, torch.Tensor):
        t = obj.detach().contiguous()
        tensors.append(t)
        node = {"tensor": len(tensors) - 1, "dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape),
                "requires_grad": bool(obj.requires_grad and obj.is_leaf),
                "parameter": type(obj).__name__ == "Parameter"}
        if t.device.type != "cpu":
            node["device"] = str(t.device)
        return node
    if obj is None or isinstance(obj, (bool, int, float, str)):
        if isinstance(obj, float) and (obj != obj or obj in (float("inf"), float("-inf"))):
            return {"float": repr(obj)}
        return obj
    if isinstance(obj, (list, tuple)):
        return {"list" if isinstance(obj, list) else "tuple": [_encode(v, tensors) for v in obj]}
    if isinstance(obj, dict):
        items = []
        for k, v in obj.items():
            if not isinstance(k, (str, int, float, bool)) and k is not None:
                raise TypeError(f"torch.save: dict keys must be str, int, float, bool or None, got {type(k).__name__}")
            items.append([k, _encode(v, tensors)])
        return {"dict": items, "ordered": isinstance(obj, OrderedDict)}
    if isinstance(obj, torch.dtype):
        return {"dtype": str(obj).replace("torch.", "")}
    raise TypeError(f"torch.save: cannot save an object of type {type(obj).__name__} (only tensors, dicts, lists, "
                    "tuples, numbers, strings and None can be saved)")


def _tensor_bytes(t):
    t = t.cpu()
    if t.dtype == torch.bfloat16:
        return _bf16_bytes(t)
    return t.numpy().tobytes() if t.numel() else b""


def _bf16_bytes(t):
    # numpy has no bfloat16: store its float32 bits' upper halves.
    import numpy as np

    bits = t.to(torch.float32).numpy().view(np.uint32) >> 16
    return bits.astype("<u2").tobytes()


def _tensor_from_bytes(data, dtype, shape):
    """The CPU tensor that _tensor_bytes wrote."""
    import numpy as np

    if dtype == torch.bfloat16:
        bits = np.frombuffer(data, dtype="<u2").astype(np.uint32) << 16
        return torch.from_numpy(bits.view(np.float32).copy()).to(torch.bfloat16).reshape(shape)
    np_dtype = {torch.float64: "<f8", torch.float32: "<f4", torch.float16: "<f2", torch.int64: "<i8",
                torch.int32: "<i4", torch.int16: "<i2", torch.int8: "i1", torch.uint8: "u1", torch.bool: "?"}[dtype]
    return torch.from_numpy(np.frombuffer(data, dtype=np_dtype).copy()).reshape(shape)


def _rebuild_tensor(data, dtype_name, shape, requires_grad, device, parameter=False):
    """pickle's way back to a tensor (Tensor.__reduce_ex__): DataLoader workers and copy.deepcopy use it."""
    t = _tensor_from_bytes(data, _DTYPES[dtype_name], tuple(shape))
    if device != "cpu":
        t = t.to(device)
    if parameter:
        return torch.nn.Parameter(t, requires_grad)
    return t.requires_grad_(requires_grad) if requires_grad else t


def _reduce_tensor(t):
    data = t.detach().contiguous()
    return (_rebuild_tensor, (_tensor_bytes(data), str(data.dtype).replace("torch.", ""), list(data.shape),
                              bool(t.requires_grad), str(t.device), type(t).__name__ == "Parameter"))


def save(obj, f):
    """Saves `obj` to a path or a writable binary file."""
    tensors = []
    structure = {"format": _FORMAT, "version": _VERSION, "root": _encode(obj, tensors)}
    buffer = f if hasattr(f, "write") else open(os.fspath(f), "wb")
    try:
        with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as z:
            z.writestr("structure.json", json.dumps(structure))
            for i, t in enumerate(tensors):
                z.writestr(f"tensors/{i}", _tensor_bytes(t))
    finally:
        if buffer is not f:
            buffer.close()


class _Malformed(Exception):
    """A file that save() cannot have written; load() reports it as a RuntimeError."""


def _member(z, name, expected_size=None):
    try:
        info = z.getinfo(name)
    except KeyError:
        raise _Malformed(f"no entry {name!r}") from None
    if info.compress_type != zipfile.ZIP_STORED:
        raise _Malformed(f"entry {name!r} is compressed (save() stores entries uncompressed; compressed ones are "
                         "refused so that a small file cannot expand into unbounded memory)")
    if expected_size is not None and info.file_size != expected_size:
        raise _Malformed(f"entry {name!r} holds {info.file_size} bytes, but its dtype and shape need {expected_size}")
    return z.read(info)


def _tensor_node(node, z):
    dtype = _DTYPES.get(node.get("dtype")) if isinstance(node.get("dtype"), str) else None
    if dtype is None:
        raise _Malformed(f"unknown dtype {node.get('dtype')!r}")
    shape, index = node.get("shape"), node.get("tensor")
    if not isinstance(shape, list) or not all(type(s) is int and s >= 0 for s in shape):
        raise _Malformed(f"a tensor's shape must be a list of non-negative integers, got {shape!r}")
    if type(index) is not int or index < 0:
        raise _Malformed(f"a tensor's index must be a non-negative integer, got {index!r}")
    numel = 1
    for s in shape:
        numel *= s
    itemsize = 2 if dtype == torch.bfloat16 else torch.empty(0, dtype=dtype).element_size()
    return _tensor_from_bytes(_member(z, f"tensors/{index}", numel * itemsize), dtype, tuple(shape))


def _decode(node, z, map_location):
    if node is None or isinstance(node, (bool, int, float, str)):
        return node
    if not isinstance(node, dict):
        raise _Malformed(f"unexpected {type(node).__name__} in the structure")
    if "float" in node:
        if node["float"] not in ("nan", "inf", "-inf"):
            raise _Malformed(f"unexpected float {node['float']!r}")
        return float(node["float"])
    for kind in ("list", "tuple", "dict"):
        if kind in node and not isinstance(node[kind], list):
            raise _Malformed(f"a {kind} entry must hold a JSON array")
    if "list" in node:
        return [_decode(v, z, map_location) for v in node["list"]]
    if "tuple" in node:
        return tuple(_decode(v, z, map_location) for v in node["tuple"])
    if "dict" in node:
        d = OrderedDict() if node.get("ordered") else {}
        for item in node["dict"]:
            if not isinstance(item, list) or len(item) != 2 or isinstance(item[0], (list, dict)):
                raise _Malformed(f"a dict item must be a [key, value] pair with a plain key, got {item!r:.80}")
            d[item[0]] = _decode(item[1], z, map_location)
        return d
    if "dtype" in node and "tensor" not in node:
        if not isinstance(node["dtype"], str) or node["dtype"] not in _DTYPES:
            raise _Malformed(f"unknown dtype {node['dtype']!r:.80}")
        return _DTYPES[node["dtype"]]
    if "tensor" in node:
        t = _tensor_node(node, z)
        device = map_location if map_location is not None else torch.device(node.get("device", "cpu"))
        if device.type != "cpu":
            t = t.to(device)
        if node.get("parameter"):
            return torch.nn.Parameter(t, node.get("requires_grad", True))
        if node.get("requires_grad"):
            t.requires_grad_(True)
        return t
    raise _Malformed(f"unknown entry {sorted(node)!r:.80}")


def load(f, map_location=None, weights_only=True):
    """Loads what save() wrote. Only data is ever created: no code runs.
    map_location: None (each tensor to the device it was saved from), or a
    device (str or torch.device) for every tensor."""
    if map_location is not None:
        if not isinstance(map_location, (str, torch.device)):
            raise TypeError(f"torch.load: map_location must be None, a str or a torch.device, got "
                            f"{type(map_location).__name__}")
        map_location = torch.device(map_location)
    if not weights_only:
        raise ValueError("torch.load: weights_only=False (arbitrary pickled objects) is not supported")
    buffer = f if hasattr(f, "read") else open(os.fspath(f), "rb")
    try:
        with zipfile.ZipFile(buffer) as z:
            structure = json.loads(_member(z, "structure.json"))
            if not isinstance(structure, dict) or structure.get("format") != _FORMAT or "root" not in structure:
                raise RuntimeError("torch.load: not a file written by torch.save")
            return _decode(structure["root"], z, map_location)
    # What zipfile and json raise on corrupt input (a damaged directory gives
    # ValueError for a negative seek, struct.error for short headers, ...).
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError, struct.error, OverflowError,
            NotImplementedError) as e:
        raise RuntimeError(f"torch.load: not a file written by torch.save ({type(e).__name__}: {e})") from None
    except _Malformed as e:
        raise RuntimeError(f"torch.load: malformed file: {e}") from None
    except RecursionError:
        raise RuntimeError("torch.load: malformed file: nested too deeply") from None
    finally:
        if buffer is not f:
            buffer.close()
