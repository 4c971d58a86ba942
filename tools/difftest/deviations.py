"""The documented, deliberate differences from PyTorch (deviations.toml):
each entry names an op (or "*"), a category, optionally regular expressions
the verdict's detail, the call's non-tensor arguments and its tensors'
layouts must match, and the reason. docs/CORRECTNESS.md lists them."""
from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "deviations.toml")


@dataclass(frozen=True)
class Deviation:
    op: str
    category: str
    detail: str
    reason: str
    when: str = ""  # regex on the call's non-tensor arguments (arguments_text)
    layout: str = ""  # regex on the tensor arguments' layouts (layouts_text: "expanded contiguous")


def arguments_text(case: dict) -> str:
    """The call's arguments as `when` sees them: `<tensor float32 special>, [], false, correction=3`
    (a tensor shows its dtype and, where it is not ordinary values, its kind)."""
    def show(spec):
        if spec.get("t") == "value":
            return json.dumps(spec.get("v"))
        if spec.get("t") in ("dtype", "device"):
            return json.dumps(spec.get("v"))
        if "dtype" not in spec:
            return f"<{spec.get('t')}>"
        kind = spec.get("kind", "normal")
        return f"<{spec['t']} {spec['dtype']}{'' if kind == 'normal' else ' ' + kind}>"
    parts = [show(a) for a in case.get("args", [])]
    parts += [f"{k}={show(v)}" for k, v in case.get("kwargs", {}).items()]
    return ", ".join(parts)


def layouts_text(case: dict) -> str:
    """The layouts of the call's tensor arguments, in order: `expanded contiguous`."""
    specs = list(case.get("args", [])) + list(case.get("kwargs", {}).values())
    return " ".join(s.get("layout", "contiguous") for s in specs if isinstance(s, dict) and s.get("t") == "tensor")


class Deviations:
    def __init__(self, entries: list[Deviation]):
        self.entries = entries

    def match(self, case: dict, category: str, detail: str) -> str | None:
        for d in self.entries:
            # "add" covers add.Tensor, add_.Tensor and add.out: the op, its in-place form and overloads.
            if d.op not in ("*", case["op"], case["name"], case["name"].rstrip("_")) or d.category != category:
                continue
            if d.detail and not re.search(d.detail, detail):
                continue
            if d.when and not re.search(d.when, arguments_text(case)):
                continue
            if d.layout and not re.search(d.layout, layouts_text(case)):
                continue
            return d.reason
        return None


def load(path: str = PATH) -> Deviations:
    with open(path, "rb") as f:
        data = tomllib.load(f)
    entries = []
    for e in data.get("deviation", []):
        unknown = set(e) - {"op", "category", "detail", "when", "layout", "reason"}
        if unknown or not e.get("reason"):
            raise ValueError(f"{path}: each [[deviation]] has op, category, reason and optional detail, when and "
                             f"layout; got {e}")
        entries.append(Deviation(e["op"], e["category"], e.get("detail", ""), e["reason"], e.get("when", ""),
                                 e.get("layout", "")))
    return Deviations(entries)
