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


def pytorch_archive(pickled, records=(), name="archive"):
    """PyTorch's layout around a hand-made data.pkl."""
    return archive([(f"{name}/data.pkl", pickled), *((f"{name}/data/{k}", v) for k, v in records),
                    (f"{name}/version", b"3\n"), (f"{name}/byteorder", b"little")])


def rebuild(pid, offset=0, size=(2,), stride=(1,)):
    """data.pkl of one tensor: _rebuild_tensor_v2 over the persistent id `pid` (a tuple of strings and ints)."""
    def text(s):
        data = s.encode()
        return b"X" + len(data).to_bytes(4, "little") + data

    def value(v):
        if isinstance(v, str):
            return text(v)
        data = int(v).to_bytes(9, "little", signed=True)
        return b"\x8a\x09" + data  # LONG1: any integer these seeds need

    kind, storage, key, location, numel = pid
    storage_global = b"cos\nsystem\n" if storage == "os.system" else f"ctorch\n{storage}\n".encode()
    out = b"\x80\x02ctorch._utils\n_rebuild_tensor_v2\n("
    out += b"(" + text(kind) + storage_global + text(key) + text(location) + value(numel) + b"tQ"
    out += value(offset) + b"(" + b"".join(value(n) for n in size) + b"t(" + b"".join(value(n) for n in stride)
    out += b"t\x89ccollections\nOrderedDict\n)RtR."
    return out


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
        # PyTorch's format: code, lies about sizes and positions, bombs.
        "pickle-runs-code": pytorch_archive(b"\x80\x02cos\nsystem\nX\x04\x00\x00\x00trueq\x00\x85R."),
        "pickle-storage-bigger-than-record": pytorch_archive(rebuild(("storage", "FloatStorage", "0", "cpu", 1 << 40)),
                                                             [("0", bytes(8))]),
        "pickle-view-past-its-storage": pytorch_archive(rebuild(("storage", "FloatStorage", "0", "cpu", 2), offset=1,
                                                                size=(4,)), [("0", bytes(8))]),
        "pickle-negative-stride": pytorch_archive(rebuild(("storage", "FloatStorage", "0", "cpu", 2), stride=(-1,)),
                                                  [("0", bytes(8))]),
        "pickle-huge-size": pytorch_archive(rebuild(("storage", "FloatStorage", "0", "cpu", 2), size=(1 << 40, 1 << 40),
                                                    stride=(0, 0)), [("0", bytes(8))]),
        "pickle-missing-record": pytorch_archive(rebuild(("storage", "FloatStorage", "7", "cpu", 2))),
        "pickle-unknown-storage": pytorch_archive(rebuild(("storage", "QInt8Storage", "0", "cpu", 2)),
                                                  [("0", bytes(16))]),
        "pickle-storage-is-a-function": pytorch_archive(rebuild(("storage", "os.system", "0", "cpu", 2)),
                                                        [("0", bytes(8))]),
        "pickle-memo-bomb": pytorch_archive(b"\x80\x02K\x01r\xff\xff\xff\x7f."),
        "pickle-compressed-record": archive([("archive/data.pkl", rebuild(("storage", "FloatStorage", "0", "cpu", 1 << 24))),
                                             ("archive/data/0", bytes(1 << 26))], compression=zipfile.ZIP_DEFLATED),
        "pickle-garbage": pytorch_archive(b"\x80\x02\xff\xfe garbage"),
        "empty-file": b"",
        "not-a-zip": b"PK\x03\x04" + bytes(100),
    }

