"""The whole-API speed sweep: every op of native_functions.yaml and every
Python-level case of python_cases.py, timed under our torch and PyTorch.

    python -m benchmarks.sweep --ours PYTHON [--reference PYTHON] [--short]
                               [--only NAME,...] [--threshold 1.5] [--write docs/PERFORMANCE.md]

Run from the checkout's root with a Python that has PyYAML (the tools venv);
PYTHON are interpreters whose `import torch` is ours and PyTorch 2.13's
(ci/benchmark_sweep.sh makes both). Each side times the calls in its own
process (timer.py), the two taking turns case by case. For a native op,
several candidate calls are drawn (native_cases.py) and the largest that
PyTorch accepts is timed. A row's slowdown is our time over PyTorch's, in
the worst of its modes (forward and forward + backward, one thread and all
threads). Exit status 1 when a row is slower than --threshold and
benchmarks/known_slow.toml gives no reason for it, or when our torch fails
a call that PyTorch runs; such a row is timed again, longer, before it
counts (a chance slow measurement on a busy machine is not a regression).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

from benchmarks.sweep import native_cases, python_cases, report
from benchmarks.sweep.runner import Timer

FULL_BUDGET = 0.03  # seconds per measurement
SHORT_BUDGET = 0.006
RETIMES, RETIME_FACTOR = 2, 4  # a row the gate would fail is timed again (retime_slow_rows)
PROBE_LIMIT = 1.0  # seconds: a candidate slower than this under the reference is not medium-sized


def all_cases(only: set[str] | None) -> tuple[dict, dict]:
    native = native_cases.candidates()
    exprs = {}
    for name, body in python_cases.CASES.items():
        setup, expr = body if isinstance(body, tuple) else ("", body)
        exprs[name] = {"name": name, "setup": setup, "expr": expr}
    # A hand-written case replaces the generator's candidates for the same name.
    native = {k: v for k, v in native.items() if k not in exprs}
    if only:
        def wanted(row):  # "torch.median[dim]" answers to itself, "torch.median" and "median"
            base = report.base_name(row)
            return bool({row, base, base.rsplit(".", 1)[-1]} & only)
        native = {k: v for k, v in native.items() if wanted(k)}
        exprs = {k: v for k, v in exprs.items() if wanted(k)}
    return native, exprs


def pick(timer: Timer, candidates: list[dict]) -> tuple[dict | None, str]:
    """The largest candidate the timer runs without an error, or the first error."""
    best, best_key, first_error = None, None, ""
    for case in candidates:
        reply = timer.ask({"case": case, "budget": 0, "probe": True})
        if not reply.get("ok"):
            first_error = first_error or reply.get("error", "")
            continue
        if reply["seconds"] > PROBE_LIMIT:
            continue
        key = (reply["numel"], -case["id"])
        if best_key is None or key > best_key:
            best, best_key = case, key
    return best, first_error


def describe(case: dict) -> str:
    if "expr" in case:
        return case["expr"]

    def one(spec):
        if spec.get("t") == "tensor":
            return f"{spec['dtype']}{list(spec['shape'])}"
        if spec.get("t") == "list":
            return "[" + ", ".join(one(s) for s in spec["items"]) + "]"
        return repr(spec.get("v", spec.get("t")))
    args = [one(s) for s in case["args"]] + [f"{k}={one(s)}" for k, s in case["kwargs"].items()]
    return f"{case['name']}({', '.join(args)})"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ours", required=True, help="a Python whose torch is ours")
    parser.add_argument("--reference", help="a Python with PyTorch 2.13 (without it, our times only)")
    parser.add_argument("--short", action="store_true",
                        help=f"{SHORT_BUDGET}s per measurement, one thread only (CI's gate: on a shared 2-core "
                             "machine the all-threads times jitter too much to gate on)")
    parser.add_argument("--budget", type=float, help="seconds per measurement")
    parser.add_argument("--only", help="comma-separated row or API names")
    parser.add_argument("--threshold", type=float, default=report.THRESHOLD)
    parser.add_argument("--write", metavar="MD", help="write the report (docs/PERFORMANCE.md)")
    parser.add_argument("--json", default=os.path.join("build", "sweep.json"), help="every measurement")
    parser.add_argument("--from-json", metavar="JSON", help="judge and report a saved run (--json) again, timing nothing")
    args = parser.parse_args(argv)
    if args.from_json:
        with open(args.from_json) as f:
            saved = json.load(f)
        return verdict(args, saved["rows"], saved["api"], saved["versions"], saved["seconds"], saved["budget"])
    budget = args.budget or (SHORT_BUDGET if args.short else FULL_BUDGET)
    native, exprs = all_cases(set(args.only.split(",")) if args.only else None)

    start = time.perf_counter()
    ours = Timer(args.ours)
    ref = Timer(args.reference) if args.reference else None
    rows, requests = [], {}
    total = len(native) + len(exprs)
    for n, (name, body) in enumerate([*native.items(), *exprs.items()], 1):
        row = {"name": name}
        if isinstance(body, list):  # native candidates: pick one
            case, error = pick(ref or ours, body)
            if case is None:
                row["skipped"] = f"no candidate ran under {'PyTorch' if ref else 'our torch'}: {error}"
                rows.append(row)
                continue
        else:
            case = body
        row["call"] = describe(case)
        request = {"case": case, "budget": budget, "threads": "1" if args.short else "both"}
        requests[name] = request
        row["ours"] = ours.ask(request)
        if ref:
            row["ref"] = ref.ask(request)
        rows.append(row)
        if n % 50 == 0:
            print(f"  {n}/{total} rows, {time.perf_counter() - start:.0f}s", file=sys.stderr, flush=True)
    if ref:
        retime_slow_rows(rows, requests, ours, ref, args.threshold)
    api = ours.ask({"api": True}).get("api", {})
    versions = (ours.version, ref.version if ref else None)
    ours.close()
    if ref:
        ref.close()
    seconds = time.perf_counter() - start

    os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump({"budget": budget, "seconds": seconds, "versions": versions, "api": api, "rows": rows}, f, indent=1)
    return verdict(args, rows, api, versions, seconds, budget)


def retime_slow_rows(rows: list[dict], requests: dict, ours: Timer, ref: Timer, threshold: float) -> None:
    """Times each row the gate would fail again, both sides, with RETIME_FACTOR
    times the budget, up to RETIMES times, keeping its best measurement: on a
    shared 2-core machine one measurement in a few hundred comes out 2-3x
    slow by chance, while a real slowdown shows in every one."""
    known = report.load_known()
    for _ in range(RETIMES):
        failing = {r["name"] for r in report.analyse(rows, known, threshold)["unexplained"]}
        if not failing:
            return
        print(f"  timing again, {RETIME_FACTOR}x longer: {', '.join(sorted(failing))}", file=sys.stderr, flush=True)
        for i, row in enumerate(rows):
            if row["name"] not in failing:
                continue
            request = dict(requests[row["name"]])
            request["budget"] = request["budget"] * RETIME_FACTOR
            again = dict(row, ours=ours.ask(request), ref=ref.ask(request))
            if again["ours"]["ok"] and again["ref"]["ok"] and worst_ratio(again) < worst_ratio(row):
                rows[i] = again


def worst_ratio(row: dict) -> float:
    timed = report.analyse([row], {}, report.THRESHOLD)["timed"]
    return (timed[0].get("gated_worst") or 0.0) if timed else float("inf")


def verdict(args, rows, api, versions, seconds, budget) -> int:
    known = report.load_known()
    result = report.analyse(rows, known, args.threshold)
    print(report.summary(result, seconds, budget, versions))
    if args.write:
        with open(args.write, "w") as f:
            f.write(report.markdown(result, api, versions, args.threshold))
        print(f"wrote {args.write}")
    return 1 if (result["unexplained"] or result["ours_fail"]) else 0


if __name__ == "__main__":
    sys.exit(main())
