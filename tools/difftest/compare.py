"""Verdicts: our outcome of a case against PyTorch's.

Categories (one per case, the first that applies):
  crash           our interpreter died (or hung) on the case
  rejected        we raised where PyTorch computed (valid input refused)
  missing_check   we computed where PyTorch raised
  exception_class both raised, with different classes
  dtype / shape   a result tensor differs in dtype or shape
  value           a result (or the tensor an in-place/out= op wrote) differs in value
  grad            gradients differ (or one side could not compute them)
  grad_fn         the result's grad_fn has another name
  ok
"""
from __future__ import annotations

import math

CATEGORIES = ("crash", "rejected", "missing_check", "exception_class", "dtype", "shape", "value", "grad", "grad_fn")

# Tolerances by result dtype: (rtol, atol). Reductions and transcendental
# functions may round differently in the last bits; half types much more.
TOLERANCE = {
    "float64": (1e-7, 1e-9),
    "float32": (2e-5, 1e-5),
    "float16": (2e-3, 2e-3),
    "bfloat16": (1.6e-2, 1e-2),
}


def _number(v):
    if isinstance(v, str):
        return float(v)  # 'inf', '-inf', 'nan'
    return v


def input_dtypes(case: dict) -> set[str]:
    """Every tensor dtype among a case's arguments (not out=: it only receives the result)."""
    found = set()

    def walk(spec):
        if spec.get("t") == "tensor":
            found.add(spec["dtype"])
        for item in spec.get("items", []):
            walk(item)

    for spec in [*case["args"], *(v for k, v in case["kwargs"].items() if k != "out")]:
        walk(spec)
    return found


def loosest(dtypes) -> tuple[float, float]:
    """The tolerance of the least precise floating dtype a result went through:
    float16 inputs computed into a float32 out= carry float16's rounding, and
    integer inputs compute in float32, and so do bool ones where no input is
    floating (cos(bool, out=float64); a bool mask leaves a float64 op exact)."""
    dtypes = set(dtypes)
    if "bool" in dtypes and not dtypes & set(TOLERANCE):
        dtypes.add("float32")
    tols = [TOLERANCE.get(d if d in TOLERANCE else "float32", (0.0, 0.0)) for d in dtypes if d != "bool"]
    return (max((t[0] for t in tols), default=0.0), max((t[1] for t in tols), default=0.0))


def values_differ(ours: list, ref: list, dtype: str, floor: tuple[float, float] = (0.0, 0.0)) -> str | None:
    if len(ours) != len(ref):
        return f"{len(ours)} values, PyTorch has {len(ref)}"
    rtol, atol = TOLERANCE.get(dtype, (0.0, 0.0))
    if dtype in TOLERANCE:
        rtol, atol = max(rtol, floor[0]), max(atol, floor[1])
    for i, (a, b) in enumerate(zip(ours, ref)):
        a, b = _number(a), _number(b)
        if isinstance(b, float) and math.isnan(b):
            if not (isinstance(a, float) and math.isnan(a)):
                return f"element {i}: {a} where PyTorch has nan"
            continue
        if isinstance(a, float) and math.isnan(a):
            return f"element {i}: nan where PyTorch has {b}"
        if isinstance(a, float) or isinstance(b, float):
            if math.isinf(a) or math.isinf(b):
                if a != b:
                    return f"element {i}: {a} where PyTorch has {b}"
                continue
            if abs(a - b) > atol + rtol * abs(b):
                return f"element {i}: {a} where PyTorch has {b}"
        elif a != b:
            return f"element {i}: {a} where PyTorch has {b}"
    return None


def compare_results(ours: dict, ref: dict, metadata_only: bool, path: str = "result",
                    floor: tuple[float, float] = (0.0, 0.0)) -> tuple[str, str] | None:
    """(category, detail) of the first difference between two encoded results."""
    if ours["t"] != ref["t"]:
        return "value", f"{path}: {ours['t']} where PyTorch returns {ref['t']}"
    if ref["t"] == "tensor":
        if ours["dtype"] != ref["dtype"]:
            return "dtype", f"{path}: {ours['dtype']} where PyTorch gives {ref['dtype']}"
        if ours["shape"] != ref["shape"]:
            return "shape", f"{path}: shape {ours['shape']} where PyTorch gives {ref['shape']}"
        if not metadata_only and "values" in ref:
            diff = values_differ(ours.get("values", []), ref["values"], ref["dtype"], floor)
            if diff:
                return "value", f"{path}: {diff}"
        return None
    if ref["t"] in ("tuple", "list"):
        if len(ours["items"]) != len(ref["items"]):
            return "shape", f"{path}: {len(ours['items'])} items where PyTorch gives {len(ref['items'])}"
        for i, (a, b) in enumerate(zip(ours["items"], ref["items"])):
            d = compare_results(a, b, metadata_only, f"{path}[{i}]", floor)
            if d:
                return d
        return None
    if ours.get("type") != ref.get("type"):
        return "dtype", f"{path}: Python {ours.get('type')} where PyTorch gives {ref.get('type')}"
    if not metadata_only and ref.get("type") in ("int", "float", "bool", "str", "Size"):
        a, b = ours.get("v"), ref.get("v")
        if ref.get("type") == "float":
            if values_differ([a], [b], "float64"):
                return "value", f"{path}: {a} where PyTorch gives {b}"
        elif a != b:
            return "value", f"{path}: {a!r} where PyTorch gives {b!r}"
    return None


def grad_fn_names(encoded: dict) -> list:
    if encoded.get("t") == "tensor":
        return [encoded.get("grad_fn")]
    if encoded.get("t") in ("tuple", "list"):
        return [n for item in encoded["items"] for n in grad_fn_names(item)]
    return []


def verdict(case: dict, ours: dict | None, ref: dict) -> tuple[str, str]:
    if ours is None or "crash" in ours:
        return "crash", (ours or {}).get("crash", "no outcome")
    if "error" in ours and "error" not in ref:
        return "rejected", f"{ours['error']}: {ours['message']}"
    if "error" in ref and "error" not in ours:
        return "missing_check", f"PyTorch raises {ref['error']}: {ref['message']}"
    if "error" in ref:
        if ours["error"] != ref["error"]:
            return "exception_class", f"{ours['error']} where PyTorch raises {ref['error']}: {ref['message']}"
        return "ok", ""
    metadata_only = case.get("random", False)
    floor = loosest(input_dtypes(case))
    d = compare_results(ours["result"], ref["result"], metadata_only, floor=floor)
    if d:
        return d
    if "mutated" in ref:
        d = compare_results(ours["mutated"], ref["mutated"], metadata_only, "written tensor", floor)
        if d:
            return d
    if "grads" in ref or "grads" in ours:
        og, rg = ours.get("grads"), ref.get("grads")
        if og is None or rg is None or ("error" in og) != ("error" in rg):
            return "grad", f"gradients: ours {og and og.get('error', 'computed')}, PyTorch {rg and rg.get('error', 'computed')}"
        if "error" not in rg:
            # Gradients pass through the result's dtype too (prod(x, dtype=bfloat16)), and
            # through more roundings than the value: twice its tolerance (a last-bit
            # difference in a float16 rsqrt is three in its gradient, result ** 3).
            result_dtypes = {r.get("dtype") for r in [ref["result"], *ref["result"].get("items", [])] if r.get("dtype")}
            rtol, atol = loosest(input_dtypes(case) | result_dtypes)
            d = compare_results(og, rg, False, "grad", (2 * rtol, 2 * atol))
            if d:
                return "grad", d[1]
    ours_names, ref_names = grad_fn_names(ours["result"]), grad_fn_names(ref["result"])
    if ours_names != ref_names:
        return "grad_fn", f"grad_fn {ours_names} where PyTorch has {ref_names}"
    return "ok", ""
