"""The reader of this torch's first file format ("torch-zip-json"), which
torch.save wrote before it wrote PyTorch's: a zip of `structure.json` (dicts,
lists, tuples, numbers, strings, None, dtypes and tensors) and
`tensors/<n>` (each tensor's bytes). torch.load still reads such files; it
never runs code, and a hostile file gets a RuntimeError (see _member)."""
import json
import zipfile
from collections import OrderedDict

import torch
from torch._tensor_bytes import DTYPES as _DTYPES
from torch._tensor_bytes import tensor_from_bytes as _tensor_from_bytes

FORMAT = "torch-zip-json"


class Malformed(Exception):
    """A file that save() cannot have written; load() reports it as a RuntimeError."""


def member(z, name, expected_size=None):
    try:
        info = z.getinfo(name)
    except KeyError:
        raise Malformed(f"no entry {name!r}") from None
    if info.compress_type != zipfile.ZIP_STORED:
        raise Malformed(f"entry {name!r} is compressed (save() stores entries uncompressed; compressed ones are "
                         "refused so that a small file cannot expand into unbounded memory)")
    if expected_size is not None and info.file_size != expected_size:
        raise Malformed(f"entry {name!r} holds {info.file_size} bytes, but its dtype and shape need {expected_size}")
    return z.read(info)


def _tensor_node(node, z):
    dtype = _DTYPES.get(node.get("dtype")) if isinstance(node.get("dtype"), str) else None
    if dtype is None:
        raise Malformed(f"unknown dtype {node.get('dtype')!r}")
    shape, index = node.get("shape"), node.get("tensor")
    if not isinstance(shape, list) or not all(type(s) is int and s >= 0 for s in shape):
        raise Malformed(f"a tensor's shape must be a list of non-negative integers, got {shape!r}")
    if type(index) is not int or index < 0:
        raise Malformed(f"a tensor's index must be a non-negative integer, got {index!r}")
    numel = 1
    for s in shape:
        numel *= s
    itemsize = 2 if dtype == torch.bfloat16 else torch.empty(0, dtype=dtype).element_size()
    return _tensor_from_bytes(member(z, f"tensors/{index}", numel * itemsize), dtype, tuple(shape))


def _decode(node, z, map_location):
    if node is None or isinstance(node, (bool, int, float, str)):
        return node
    if not isinstance(node, dict):
        raise Malformed(f"unexpected {type(node).__name__} in the structure")
    if "float" in node:
        if node["float"] not in ("nan", "inf", "-inf"):
            raise Malformed(f"unexpected float {node['float']!r}")
        return float(node["float"])
    for kind in ("list", "tuple", "dict"):
        if kind in node and not isinstance(node[kind], list):
            raise Malformed(f"a {kind} entry must hold a JSON array")
    if "list" in node:
        return [_decode(v, z, map_location) for v in node["list"]]
    if "tuple" in node:
        return tuple(_decode(v, z, map_location) for v in node["tuple"])
    if "dict" in node:
        d = OrderedDict() if node.get("ordered") else {}
        for item in node["dict"]:
            if not isinstance(item, list) or len(item) != 2 or isinstance(item[0], (list, dict)):
                raise Malformed(f"a dict item must be a [key, value] pair with a plain key, got {item!r:.80}")
            d[item[0]] = _decode(item[1], z, map_location)
        return d
    if "dtype" in node and "tensor" not in node:
        if not isinstance(node["dtype"], str) or node["dtype"] not in _DTYPES:
            raise Malformed(f"unknown dtype {node['dtype']!r:.80}")
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
    raise Malformed(f"unknown entry {sorted(node)!r:.80}")


def read(z, map_location):
    """The object in an open zip of this format, or Malformed."""
    structure = json.loads(member(z, "structure.json"))
    if not isinstance(structure, dict) or structure.get("format") != FORMAT or "root" not in structure:
        raise Malformed("not a file written by torch.save")
    return _decode(structure["root"], z, map_location)
