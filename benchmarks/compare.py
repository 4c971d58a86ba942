"""Runs bench_ops.py under this project's torch and a reference PyTorch; prints a table.

Ratios above 1 mean this project is faster: reference time / our time. The
two sides take turns (--rounds, ours then PyTorch each round) and each case
keeps its fastest round, so that a slow spell of a shared machine lands on
both sides rather than on one.
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def run(python, seconds, device, env=None):
    out = subprocess.run([python, os.path.join(HERE, "bench_ops.py"), "--seconds", str(seconds), "--device", device],
                         capture_output=True, text=True, cwd="/", env=env)
    if out.returncode != 0:
        # Say which side failed and why: the case's traceback is in its stderr.
        sys.exit(f"bench_ops.py failed under {python} (exit {out.returncode}):\n{out.stderr}")
    return json.loads(out.stdout)


def fastest(best, result):
    """Merges one run into the best so far: each case's smaller time."""
    if best is None or "skipped" in result:
        return result
    for name, t in result["cases"].items():
        old = best["cases"].setdefault(name, t)
        for key in ("torch", "numpy"):
            if t[key] is not None and (old[key] is None or t[key] < old[key]):
                old[key] = t[key]
    return best


def fmt(seconds):
    if seconds is None:
        return "-"
    for unit, scale in (("s", 1), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--python", default=sys.executable, help="interpreter with this project's torch")
    parser.add_argument("--reference-python", default=os.environ.get("TORCH_REFERENCE_PYTHON"),
                        help="interpreter with PyTorch installed (optional)")
    parser.add_argument("--reference-label", default="PyTorch",
                        help="what the reference is, for the table (OpenMP when it is this project's OpenMP build "
                             "against a USE_OPENMP=0 one: docs/USING.md, 'Threads')")
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--rounds", type=int, default=2, help="alternating runs per side; the fastest counts")
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu",
                        help="where the torch tensors live (numpy stays the CPU baseline)")
    args = parser.parse_args()
    # The reference must import its own torch: no PYTHONPATH pointing at a checkout.
    ref_env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    ours = ref = None
    for _ in range(max(1, args.rounds)):
        ours = fastest(ours, run(args.python, args.seconds, args.device))
        if "skipped" in ours:
            print(f"nothing to compare: {ours['skipped']} for this project's torch {ours['torch_version']}")
            return
        if args.reference_python:
            ref = fastest(ref, run(args.reference_python, args.seconds, args.device, ref_env))
    label = args.reference_label
    if ref and "skipped" in ref:
        print(f"reference {label} {ref['torch_version']}: {ref['skipped']}; comparing with numpy only")
        ref = None
    print(f"this project: torch {ours['torch_version']} ({ours['threads']} threads)"
          + (f"; reference: {label} {ref['torch_version']} ({ref['threads']} threads)" if ref else ""))
    header = f"{'case':<28} {'ours':>10} {'numpy':>10} {label:>10} {'vs numpy':>9} {'vs ' + label:>10}"
    print(header)
    print("-" * len(header))
    for name, t in ours["cases"].items():
        mine, np_t = t["torch"], t["numpy"]
        ref_t = ref["cases"][name]["torch"] if ref else None
        vs_np = f"{np_t / mine:.2f}x" if np_t else "-"
        vs_ref = f"{ref_t / mine:.2f}x" if ref_t else "-"
        print(f"{name:<28} {fmt(mine):>10} {fmt(np_t):>10} {fmt(ref_t):>10} {vs_np:>9} {vs_ref:>10}")


if __name__ == "__main__":
    main()
