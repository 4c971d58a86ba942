"""Standalone reproducers: a case as a Python script that builds its inputs
literally and makes the call, to run under our torch and under PyTorch."""
from __future__ import annotations

import math
import os
import re


def _literal(v):
    if isinstance(v, float) and not math.isfinite(v):
        return f"float('{v}')"
    if isinstance(v, list):
        return "[" + ", ".join(_literal(x) for x in v) + "]"
    return repr(v)


def _tensor(spec: dict, name: str, lines: list[str]) -> str:
    # numpy only here: the run loop (__main__) is imported by the build tools'
    # tests, whose environment has no numpy.
    from tools.difftest.values import values_of

    data = values_of(spec)
    dtype = spec["dtype"]
    made = f"torch.tensor({_literal(data.astype(float if dtype in ('float16', 'bfloat16') else data.dtype).tolist())}"
    made += f", dtype=torch.{'float32' if dtype == 'bfloat16' else dtype})"
    if 0 in data.shape:  # a nested list loses the shape of an empty tensor
        made += f".reshape({list(data.shape)})"
    if dtype == "bfloat16":
        made += ".to(torch.bfloat16)"
    if spec.get("requires_grad"):
        made += ".requires_grad_()"
    lines.append(f"{name} = {made}")
    layout = spec.get("layout", "contiguous")
    view = {"transposed": ".transpose(-1, -2)", "sliced": "[..., ::2]",
            "expanded": f".expand({spec['shape']})"}.get(layout)
    if view:
        return f"{name}{view}"
    return name


def _arg(spec: dict, name: str, lines: list[str], leaves: list[str]) -> str:
    kind = spec["t"]
    if kind == "tensor":
        if spec.get("requires_grad"):
            leaves.append(name)
        return _tensor(spec, name, lines)
    if kind == "value":
        return _literal(spec["v"])
    if kind == "float_special":
        return f"float('{spec['v']}')"
    if kind == "dtype":
        return f"torch.{spec['v']}"
    if kind == "device":
        return f"torch.device({spec['v']!r})"
    if kind in ("list", "tuple"):
        items = [_arg(s, f"{name}_{i}", lines, leaves) for i, s in enumerate(spec["items"])]
        return ("[" if kind == "list" else "(") + ", ".join(items) + ("]" if kind == "list" else ",)")
    raise ValueError(kind)


def source(case: dict, header: str = "") -> str:
    lines, leaves = [], []
    args = [_arg(s, f"a{i}", lines, leaves) for i, s in enumerate(case["args"])]
    kwargs = [f"{k}={_arg(s, k, lines, leaves)}" for k, s in case["kwargs"].items()]
    if case["call"] in ("method", "inplace"):
        call = f"{args[0]}.{case['name']}({', '.join(args[1:] + kwargs)})"
    else:
        module = {"nn": "torch._C._nn", "linalg": "torch._C._linalg"}.get(case.get("module"), "torch")
        call = f"{module}.{case['name']}({', '.join(args + kwargs)})"
    body = ["import torch", "", *lines, f"result = {call}", "print(result)"]
    if case["call"] == "out":
        body.append("print(out)")
    if case.get("grad") and leaves:
        body += ["# the gradients difftest compares: of sum(result * w), w fixed by the case",
                 f"print([t.grad_fn for t in (result if isinstance(result, (tuple, list)) else [result])])"]
    return (header + "\n".join(body) + "\n")


def _size(case: dict) -> int:
    def count(spec):
        if spec.get("t") == "tensor":
            return math.prod(spec["base"]) + len(spec["shape"])
        if spec.get("t") in ("list", "tuple"):
            return sum(count(s) for s in spec["items"])
        return 1
    return sum(count(s) for s in case["args"]) + sum(count(s) for s in case["kwargs"].values())


def write_all(failures: list[tuple[dict, str, str]], directory: str) -> int:
    """One reproducer per (op, call form, category): its smallest case."""
    smallest: dict[tuple, tuple] = {}
    for case, category, detail in failures:
        key = (case["op"], case["call"], category)
        if key not in smallest or _size(case) < _size(smallest[key][0]):
            smallest[key] = (case, detail)
    if os.path.isdir(directory):
        for old in os.listdir(directory):
            os.remove(os.path.join(directory, old))
    os.makedirs(directory, exist_ok=True)
    for (op, call, category), (case, detail) in sorted(smallest.items()):
        name = re.sub(r"[^\w.-]+", "_", f"{op}-{call}-{category}") + ".py"
        header = f"# difftest case {case['id']}: {op} ({call}), {category}\n# {detail}\n"
        with open(os.path.join(directory, name), "w") as f:
            f.write(source(case, header))
    return len(smallest)
