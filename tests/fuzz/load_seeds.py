"""Files for torch.load's fuzzer to start from, and for the regression tests:
valid files torch.save wrote, and hostile ones (path traversal names, a
compressed bomb, lying sizes, huge declared shapes, truncations)."""
import functools
import io
import json
import zipfile

import torch


def saved(obj):
    buf = io.BytesIO()
    torch.save(obj, buf)
    return buf.getvalue()


def archive(entries, compression=zipfile.ZIP_STORED):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=compression) as z:
        for name, data in entries:
            z.writestr(name, data)
    return buf.getvalue()


def structure(root):
    return json.dumps({"format": "torch-zip-json", "version": 1, "root": root})


def tensor_node(index=0, dtype="float32", shape=(2,)):
    return {"tensor": index, "dtype": dtype, "shape": list(shape), "requires_grad": False, "parameter": False}


@functools.lru_cache(maxsize=None)
def valid():
    return {
        "dict": saved({"w": torch.randn(3, 4), "b": torch.zeros(4, dtype=torch.int64), "step": 7, "name": "x"}),
        "nested": saved([torch.ones(2), (torch.tensor(True), {"k": [1.5, None, float("nan")]})]),
        "bf16": saved(torch.arange(6.0).to(torch.bfloat16).reshape(2, 3)),
        "empty": saved(torch.empty(0, 5)),
        "parameter": saved(torch.nn.Linear(2, 2).state_dict()),
    }


@functools.lru_cache(maxsize=None)
def hostile():
    """name -> bytes: each must make torch.load raise RuntimeError."""
    eight = bytes(8)
    bomb = archive([("structure.json", structure(tensor_node(shape=(1 << 24,)))), ("tensors/0", bytes(1 << 26))],
                   compression=zipfile.ZIP_DEFLATED)  # 64 MiB of zeros in 64 KiB
    return {
        "path-traversal": archive([("structure.json", structure(tensor_node())), ("../../etc/passwd", eight),
                                   ("/abs/tensors/0", eight)]),
        "traversal-index": archive([("structure.json", structure({"tensor": "../0", "dtype": "float32",
                                                                  "shape": [2]})), ("tensors/0", eight)]),
        "compressed-bomb": bomb,
        "lying-size": archive([("structure.json", structure(tensor_node(shape=(1000,)))), ("tensors/0", eight)]),
        "huge-shape": archive([("structure.json", structure(tensor_node(shape=(1 << 40, 1 << 40)))),
                               ("tensors/0", eight)]),
        "negative-shape": archive([("structure.json", structure(tensor_node(shape=(-1,)))), ("tensors/0", eight)]),
        "unknown-dtype": archive([("structure.json", structure(tensor_node(dtype="object"))), ("tensors/0", eight)]),
        "not-json": archive([("structure.json", b"\xff{not json")]),
        "deep-json": archive([("structure.json", '{"format": "torch-zip-json", "root": ' + "[" * 100000 + "]" * 100000
                               + "}")]),
        "deep-structure": archive([("structure.json", '{"format": "torch-zip-json", "root": '
                                    + '{"list": [' * 5000 + "1" + "]}" * 5000 + "}")]),
        "root-is-a-list": archive([("structure.json", json.dumps(["format", "root"]))]),
        "dict-items-not-pairs": archive([("structure.json", structure({"dict": [[1, 2, 3]]}))]),
        "bad-float": archive([("structure.json", structure({"float": "1e999999"}))]),
        "missing-tensor": archive([("structure.json", structure(tensor_node(index=3)))]),
        "truncated": saved({"w": torch.randn(10)})[:-30],
        "empty-file": b"",
        "not-a-zip": b"PK\x03\x04" + bytes(100),
    }

