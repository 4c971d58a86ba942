"""Runs difftest cases in one interpreter and prints each outcome as a JSON line.

    python worker.py CASES.jsonl START

Run once with our torch and once with PyTorch (tools/difftest/__main__.py
starts both): it builds each case's inputs from its description with numpy
(so both see the same values), calls the op, and prints what came back (the
values, dtype and shape of every tensor, Python values, or the exception's
class), and for a case that asks for it, the gradients of its inputs. It
needs only torch and numpy: it is run as a script, outside any checkout. One
line is printed, and flushed, per case, so a crash is pinned on the case
that caused it.
"""
import json
import math
import sys
import warnings

import numpy as np
import torch

from values import values_of  # this script's folder is on sys.path

DTYPES = {name: getattr(torch, name) for name in
          ("float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8", "bool")}
MAX_RESULT_ELEMENTS = 4096


def make_tensor(spec):
    # A tensor that owns its memory (from_numpy's would refuse resize_ in PyTorch).
    base = torch.from_numpy(values_of(spec)).clone()
    if spec["dtype"] == "bfloat16":
        base = base.to(torch.bfloat16)
    leaf = base
    if spec.get("requires_grad"):
        leaf = base.detach().requires_grad_(True)
    layout = spec.get("layout", "contiguous")
    if layout == "transposed":
        t = leaf.transpose(-1, -2)
    elif layout == "sliced":
        t = leaf[..., ::2]
    elif layout == "expanded":
        t = leaf.expand(spec["shape"])
    else:
        t = leaf
    return t, (leaf if spec.get("requires_grad") else None)


def build(spec, leaves):
    kind = spec["t"]
    if kind == "tensor":
        t, leaf = make_tensor(spec)
        if leaf is not None:
            leaves.append(leaf)
        return t
    if kind == "value":
        return spec["v"]
    if kind == "list":
        return [build(s, leaves) for s in spec["items"]]
    if kind == "tuple":
        return tuple(build(s, leaves) for s in spec["items"])
    if kind == "dtype":
        return DTYPES[spec["v"]]
    if kind == "device":
        return torch.device(spec["v"])
    if kind == "float_special":
        return float(spec["v"])
    raise ValueError(f"unknown argument kind {kind}")


def encode(value):
    """A JSON-able description of what an op returned."""
    if isinstance(value, torch.Tensor):
        t = value.detach()
        out = {"t": "tensor", "dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape)}
        if t.numel() <= MAX_RESULT_ELEMENTS:
            if t.dtype in (torch.bfloat16, torch.float16):
                t = t.to(torch.float32)
            if t.dtype.is_complex:  # (real, imag) pairs: numpy has no complex32, JSON no complex
                t = torch.view_as_real(t.to(torch.complex64) if t.dtype == torch.complex32 else t)
            data = t.contiguous().numpy().reshape(-1).tolist()
            out["values"] = [v if not isinstance(v, float) or math.isfinite(v) else repr(v) for v in data]
        out["requires_grad"] = bool(value.requires_grad)
        if value.grad_fn is not None:
            out["grad_fn"] = type(value.grad_fn).__name__ if not hasattr(value.grad_fn, "name") else value.grad_fn.name()
        return out
    if isinstance(value, (tuple, list)):
        return {"t": "tuple" if isinstance(value, tuple) else "list", "items": [encode(v) for v in value]}
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return {"t": "py", "type": type(value).__name__, "v": value}
    if isinstance(value, (int, float)):
        v = value if not isinstance(value, float) or math.isfinite(value) else repr(value)
        return {"t": "py", "type": type(value).__name__, "v": v}
    if isinstance(value, torch.Size):
        return {"t": "py", "type": "Size", "v": list(value)}
    if isinstance(value, torch.dtype):
        return {"t": "py", "type": "dtype", "v": str(value)}
    return {"t": "py", "type": type(value).__name__, "v": repr(value)}


def call(case, args, kwargs):
    name = case["name"]
    if case["call"] in ("method", "inplace"):
        self_, rest = args[0], args[1:]
        return getattr(self_, name)(*rest, **kwargs)
    module = {"nn": torch._C._nn, "linalg": torch._C._linalg}.get(case.get("module"), torch)
    return getattr(module, name)(*args, **kwargs)


def flat_tensors(value):
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in flat_tensors(v)]
    return []


def gradients(case, result, leaves):
    """Backward from sum(output * w) for fixed weights w; the leaves' .grad."""
    outs = [t for t in flat_tensors(result) if t.requires_grad and t.dtype.is_floating_point]
    if not outs:
        return {"t": "py", "type": "NoneType", "v": None}
    rng = np.random.default_rng(case["id"])
    total = None
    for out in outs:
        w = torch.from_numpy(rng.standard_normal(tuple(out.shape)).astype(np.float64)).to(out.dtype)
        term = (out * w).sum()
        total = term if total is None else total + term
    total.backward()
    return encode([leaf.grad for leaf in leaves])


def run_case(case):
    leaves = []
    args = [build(s, leaves) for s in case["args"]]
    kwargs = {k: build(s, leaves) for k, s in case["kwargs"].items()}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = call(case, args, kwargs)
    except Exception as e:  # noqa: BLE001 - the class is the outcome
        return {"error": type(e).__name__, "message": str(e)[:300]}
    outcome = {"result": encode(result)}
    if case["call"] in ("inplace", "out"):
        outcome["mutated"] = encode(kwargs["out"] if case["call"] == "out" else args[0])
    if case.get("grad") and leaves:
        try:
            outcome["grads"] = gradients(case, result, leaves)
        except Exception as e:  # noqa: BLE001
            outcome["grads"] = {"error": type(e).__name__, "message": str(e)[:300]}
    return outcome


def main():
    path, start = sys.argv[1], int(sys.argv[2])
    torch.set_num_threads(1)
    out = sys.stdout
    with open(path) as f:
        for n, line in enumerate(f):
            if n < start:  # cases before a crash were done by an earlier worker
                continue
            case = json.loads(line)
            outcome = run_case(case)
            outcome["id"] = case["id"]
            out.write(json.dumps(outcome) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
