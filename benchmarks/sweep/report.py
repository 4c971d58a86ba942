"""The sweep's verdicts: slowdowns per row and mode, the gate, the summary
printed after a run and docs/PERFORMANCE.md."""
from __future__ import annotations

import math
import os
import platform
import tomllib

from benchmarks.compare import fmt

THRESHOLD = 1.5
# Below this many microseconds per call a difference is per-call overhead
# and timer noise, not the kernel: reported, never gated.
NOISE_FLOOR_US = 2.0
KNOWN = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "known_slow.toml")
MODES = (("fwd", "1", "forward, 1 thread"), ("fwd", "all", "forward, all threads"),
         ("bwd", "1", "forward + backward, 1 thread"), ("bwd", "all", "forward + backward, all threads"))
UTILITY_PREFIXES = ("set_", "get_", "is_", "are_", "use_", "register_", "compiled_", "init_", "manual_seed",
                    "seed", "initial_seed", "typename", "can_cast", "promote_types", "result_type", "save", "load",
                    "broadcast_shapes", "compile", "numel", "dim", "size", "stride", "storage_offset", "element_size",
                    "data_ptr", "ndimension", "nelement", "get_device", "requires_grad_", "retain_grad", "backward",
                    "apply_", "map_", "pin_memory", "share_memory_", "cuda", "equal", "tolist")


def base_name(row_name: str) -> str:
    return row_name.split("[", 1)[0]


# A listed row still fails when it gets this much slower than the slowdown
# known_slow.toml records for it: a regression on top of a known gap.
REGRESSION_FACTOR = 2.0


def load_known(path: str = KNOWN) -> dict[str, dict]:
    """{row name: {"why": ..., "slowdown": recorded worst slowdown}} from known_slow.toml."""
    with open(path, "rb") as f:
        return tomllib.load(f).get("slow", {})


def ratios(ours: dict, ref: dict) -> dict[str, tuple[float, float, float]]:
    """{mode label: (ours seconds, reference seconds, slowdown)} for the modes both measured."""
    out = {}
    for kind, threads, label in MODES:
        a, b = (ours.get(kind) or {}).get(threads), (ref.get(kind) or {}).get(threads)
        if a and b:
            out[label] = (a, b, a / b)
    return out


def analyse(rows: list[dict], known: dict[str, dict], threshold: float) -> dict:
    timed, ours_fail, case_error, skipped = [], [], [], []
    for row in rows:
        ours, ref = row.get("ours"), row.get("ref")
        if "skipped" in row:
            skipped.append(row)
        elif not ours["ok"]:
            (case_error if ref is not None and not ref["ok"] else ours_fail).append(row)
        elif ref is not None and not ref["ok"]:
            case_error.append(row)
        elif ref is None:
            timed.append(dict(row, modes={}, worst=None))
        else:
            modes = ratios(ours, ref)
            if ref.get("bwd") and not ours.get("bwd"):
                row = dict(row, missing_backward=ours.get("bwd_error", "no gradient"))
                ours_fail.append(row)
            gated = [r for a, b, r in modes.values() if (a - b) * 1e6 > NOISE_FLOOR_US]
            worst = max((r for _, _, r in modes.values()), default=None)
            timed.append(dict(row, modes=modes, worst=worst, gated_worst=max(gated, default=None)))
    slow = [r for r in timed if r.get("gated_worst") and r["gated_worst"] > threshold]
    unexplained = [r for r in slow if r["name"] not in known
                   or r["gated_worst"] > REGRESSION_FACTOR * max(known[r["name"]]["slowdown"], threshold)]
    slow_names = {r["name"] for r in slow}
    stale = sorted(n for n in known if n not in slow_names and any(r["name"] == n for r in timed))
    geo = {}
    for _, _, label in MODES:
        values = [r["modes"][label][2] for r in timed if label in r.get("modes", {})]
        if values:
            geo[label] = (math.exp(sum(math.log(v) for v in values) / len(values)), len(values))
    return {"timed": timed, "slow": slow, "unexplained": unexplained, "stale": stale, "ours_fail": ours_fail,
            "case_error": case_error, "skipped": skipped, "geomean": geo, "known": known, "threshold": threshold}


def summary(result: dict, seconds: float, budget: float, versions) -> str:
    lines = [f"sweep: {len(result['timed'])} rows timed in {seconds:.0f}s ({budget * 1000:.0f} ms per measurement); "
             f"ours {versions[0]}, reference {versions[1] or 'none'}"]
    for label, (g, n) in result["geomean"].items():
        lines.append(f"  geometric mean slowdown, {label}: {g:.2f} over {n} rows")
    lines.append(f"  slower than {result['threshold']}x: {len(result['slow'])} "
                 f"({len(result['slow']) - len(result['unexplained'])} with a reason in known_slow.toml)")
    for r in sorted(result["unexplained"], key=lambda r: -r["gated_worst"]):
        recorded = result["known"].get(r["name"])
        what = f"REGRESSED past {recorded['slowdown']}x" if recorded else "UNEXPLAINED"
        lines.append(f"  {what} {r['name']}: {r['gated_worst']:.2f}x  {r['call']}")
        for label, (a, b, q) in r["modes"].items():
            lines.append(f"      {label}: ours {fmt(a)}, PyTorch {fmt(b)}, {q:.2f}x")
    for r in result["ours_fail"]:
        why = r.get("missing_backward") and f"no backward: {r['missing_backward']}" or r["ours"].get("error")
        lines.append(f"  FAILS UNDER OURS {r['name']}: {why}  {r.get('call', '')}")
    for n in result["stale"] if result["threshold"] == THRESHOLD else ():
        lines.append(f"  no longer slow (remove from known_slow.toml): {n}")
    if result["case_error"]:
        lines.append(f"  cases PyTorch rejects too: {', '.join(r['name'] for r in result['case_error'])}")
    if result["skipped"]:
        lines.append(f"  no valid candidate: {', '.join(r['name'] for r in result['skipped'])}")
    return "\n".join(lines)


def untimed_names(api: dict, rows: list[dict]) -> dict[str, list[str]]:
    """Our public functions with no row: {module prefix: names}, utilities left out."""
    covered = {base_name(r["name"]) for r in rows if "skipped" not in r}
    out = {}
    for prefix, names in api.items():
        missing = []
        for name in names:
            if f"{prefix}.{name}" in covered or (prefix == "Tensor" and f"torch.{name}" in covered):
                continue
            if name.startswith(UTILITY_PREFIXES):
                continue
            missing.append(name)
        if missing:
            out[prefix] = missing
    return out


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            return next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        return platform.processor() or "unknown CPU"


def markdown(result: dict, api: dict, versions, threshold: float) -> str:
    known = result["known"]
    out = [
        "# Speed against PyTorch 2.13",
        "",
        "Generated by `bash ci/benchmark_sweep.sh --write docs/PERFORMANCE.md` (benchmarks/sweep) on "
        f"{cpu_model()}, {os.cpu_count()} CPUs; ours {versions[0]}, PyTorch {versions[1]}. The numbers depend on "
        "the machine; rerun it rather than trust them elsewhere.",
        "",
        "Each row is one call at a medium size (about 1e5 elements, 256x256 matrices): every op of "
        "native_functions.yaml with the largest valid candidate its generator drew, and the Python-level "
        "functions of `benchmarks/sweep/python_cases.py`. **Slowdown** is our time over PyTorch's (below 1: "
        "faster). A row's verdict is its worst mode; differences under "
        f"{NOISE_FLOOR_US:g} us per call count as overhead, not kernels. Rows slower than {threshold}x need a "
        "reason in `benchmarks/known_slow.toml`, or the sweep fails.",
        "",
        "| mode | geometric mean slowdown | rows |",
        "|---|---:|---:|",
    ]
    for label, (g, n) in result["geomean"].items():
        out.append(f"| {label} | {g:.2f} | {n} |")
    slowest = sorted((r for r in result["timed"] if r.get("worst")), key=lambda r: -r["worst"])[:20]
    out += ["", "## The slowest 20", "", "| row | worst slowdown | mode | ours | PyTorch | why |", "|---|---:|---|---:|---:|---|"]
    unexplained = {r["name"] for r in result["unexplained"]}
    for r in slowest:
        label, (a, b, q) = max(r["modes"].items(), key=lambda kv: kv[1][2])
        if r["name"] in unexplained:  # the sweep that wrote this failed on it
            why = "**no reason recorded**: slower than the threshold and not in known_slow.toml"
        elif r["name"] in known:
            why = known[r["name"]]["why"]
        else:
            why = "overhead below the noise floor" if r["worst"] > threshold else ""
        out.append(f"| `{r['name']}` | {q:.2f} | {label} | {fmt(a)} | {fmt(b)} | {why} |")
    if result["ours_fail"]:
        out += ["", "## Calls PyTorch runs and ours does not", ""]
        for r in result["ours_fail"]:
            why = r.get("missing_backward") and f"no backward: {r['missing_backward']}" or r["ours"].get("error")
            out.append(f"- `{r['name']}`: {why}")
    out += ["", "## Every row", "", "Slowdowns by mode: forward on 1 thread / all threads, forward + backward on "
            "1 thread / all threads (`-`: not differentiable or not measured).", "",
            "| row | call | ours (fwd, 1 thread) | PyTorch | fwd 1 | fwd all | f+b 1 | f+b all |",
            "|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in sorted(result["timed"], key=lambda r: r["name"]):
        cells = [f"{r['modes'][label][2]:.2f}" if label in r["modes"] else "-" for _, _, label in MODES]
        first = r["modes"].get(MODES[0][2])
        call = r["call"].replace("|", "\\|")
        if len(call) > 70:
            call = call[:67] + "..."
        out.append(f"| `{r['name']}` | `{call}` | {fmt(first[0]) if first else '-'} | "
                   f"{fmt(first[1]) if first else '-'} | " + " | ".join(cells) + " |")
    untimed = untimed_names(api, result["timed"])
    out += ["", "## Not timed", ""]
    if result["case_error"]:
        out.append("Cases PyTorch rejects too (the case is wrong, not the op): "
                   + ", ".join(f"`{r['name']}`" for r in result["case_error"]) + ".")
        out.append("")
    if result["skipped"]:
        out.append("Native ops with no valid medium candidate: " + ", ".join(f"`{r['name']}`" for r in result["skipped"])
                   + ".")
        out.append("")
    out.append("Public functions of ours with no row yet (utilities, predicates and seeding left out; a Tensor "
               "method counts as timed when its torch function is):")
    out.append("")
    for prefix, names in untimed.items():
        out.append(f"- `{prefix}` ({len(names)}): " + ", ".join(names))
    return "\n".join(out) + "\n"
