"""Differential test of our torch against PyTorch 2.13.

    python -m tools.difftest --ours PYTHON --reference PYTHON [--seed 0] [--cases 2000]
                             [--only add,clamp] [--out build/difftest]

PYTHON: interpreters whose `import torch` is ours (a venv with our wheel)
and PyTorch's (a venv with `pip install torch==2.13.0`); ci/difftest.sh makes
both. The seeded cases (generate.py) cover every op of native_functions.yaml;
each interpreter runs them in a worker process (worker.py) that prints one
outcome per case, so a crash or a hang is pinned on its case and the worker
restarts after it. The summary counts verdicts by op and category
(compare.py); every case that differs, unless deviations.toml documents it,
gets a reproducer in OUT/repro/, the smallest of its op and category first.
Exit status 1 when any undocumented difference remains.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import selectors
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
from tools.difftest import compare, deviations, generate, repro  # noqa: E402

WORKER = os.path.join(HERE, "worker.py")
CASE_TIMEOUT = 10.0  # seconds; a case that takes longer is a hang...
RETRY_TIMEOUT = 60.0  # ...unless it finishes when run again alone (a busy machine's 8 GB arange)
STARTUP_TIMEOUT = 60.0  # a new worker imports torch first


class Worker:
    """One interpreter working through the cases file, restarted after a crash."""

    def __init__(self, python: str, cases_path: str, total: int, case_timeout: float | None = None):
        self.python, self.cases_path, self.total = python, cases_path, total
        self.case_timeout = case_timeout or CASE_TIMEOUT
        self.outcomes: dict[int, dict] = {}
        self.next = 0
        self.proc = None
        self.buffer = b""
        self.deadline = 0.0
        self.ids: list[int] = []

    def start(self, ids: list[int]) -> None:
        self.ids = ids
        self.proc = subprocess.Popen([self.python, WORKER, self.cases_path, str(self.next)],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=tempfile.gettempdir(),
                                     env={**os.environ, "PYTHONWARNINGS": "ignore"})
        self.buffer = b""
        self.deadline = time.monotonic() + STARTUP_TIMEOUT

    @property
    def done(self) -> bool:
        return self.next >= self.total

    def feed(self, data: bytes) -> None:
        self.buffer += data
        *lines, self.buffer = self.buffer.split(b"\n")
        for line in lines:
            if not line.startswith(b"{"):
                # Something a case printed past the worker's redirect (a C
                # library writing to fd 1); the outcome line follows.
                print(f"difftest: {self.python} printed {line[:200]!r}", file=sys.stderr)
                continue
            outcome = json.loads(line)
            self.outcomes[outcome["id"]] = outcome
            self.next += 1
            self.deadline = time.monotonic() + self.case_timeout

    def ended(self, reason: str) -> None:
        """The process stopped: the case it was on crashed (or hung); go on after it."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        if not self.done:
            self.outcomes[self.ids[self.next]] = {"crash": reason.format(rc=self.proc.returncode)}
            self.next += 1
        self.proc = None


def run_workers(workers: list[Worker], ids: list[int]) -> None:
    """Runs the workers side by side until each has an outcome for every case."""
    sel = selectors.DefaultSelector()
    for w in workers:
        w.start(ids)
        sel.register(w.proc.stdout, selectors.EVENT_READ, w)
    while any(w.proc is not None for w in workers):
        for key, _ in sel.select(timeout=1.0):
            w = key.data
            data = os.read(key.fileobj.fileno(), 1 << 16)
            if data:
                w.feed(data)
                continue
            sel.unregister(key.fileobj)
            w.ended("exit status {rc}")
            if not w.done:
                w.start(ids)
                sel.register(w.proc.stdout, selectors.EVENT_READ, w)
        for w in workers:
            if w.proc is not None and time.monotonic() > w.deadline:
                sel.unregister(w.proc.stdout)
                w.ended(f"no outcome within {w.case_timeout:.0f}s (hang)")
                if not w.done:
                    w.start(ids)
                    sel.register(w.proc.stdout, selectors.EVENT_READ, w)


def is_hang(outcome: dict | None) -> bool:
    return outcome is not None and "(hang)" in outcome.get("crash", "")


def run_both(ours: str, reference: str, cases: list[dict], cases_path: str) -> tuple[dict, dict]:
    ids = [c["id"] for c in cases]
    workers = [Worker(ours, cases_path, len(cases)), Worker(reference, cases_path, len(cases))]
    run_workers(workers, ids)
    # A case of ours that timed out beside the other interpreter runs again
    # alone, with a longer limit: only a second timeout is a hang. (PyTorch's
    # timeouts only make reference_crash, which fails nothing.)
    ours_worker = workers[0]
    hung = [c for c in cases if is_hang(ours_worker.outcomes.get(c["id"]))]
    if hung:
        retry_path = cases_path + ".retry"
        with open(retry_path, "w") as f:
            for c in hung:
                f.write(json.dumps(c) + "\n")
        alone = Worker(ours, retry_path, len(hung), RETRY_TIMEOUT)
        run_workers([alone], [c["id"] for c in hung])
        ours_worker.outcomes.update(alone.outcomes)
    return workers[0].outcomes, workers[1].outcomes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ours", required=True, help="a Python whose torch is ours")
    parser.add_argument("--reference", required=True, help="a Python with PyTorch 2.13")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--only", help="comma-separated op names")
    parser.add_argument("--out", default=os.path.join(generate.ROOT, "build", "difftest"))
    parser.add_argument("--show", type=int, default=0, help="print the first N differences")
    parser.add_argument("--fail-on", default=",".join(compare.CATEGORIES),
                        help="comma-separated categories that fail the run (default: every difference); "
                             "the others are reported only")
    args = parser.parse_args(argv)
    ours_python, reference_python = os.path.abspath(args.ours), os.path.abspath(args.reference)

    os.makedirs(args.out, exist_ok=True)
    only = set(args.only.split(",")) if args.only else None
    cases = generate.generate(args.seed, args.cases, only)
    cases_path = os.path.abspath(os.path.join(args.out, "cases.jsonl"))  # workers run elsewhere
    with open(cases_path, "w") as f:
        for c in cases:
            f.write(json.dumps(c) + "\n")
    start = time.perf_counter()
    ours, ref = run_both(ours_python, reference_python, cases, cases_path)
    seconds = time.perf_counter() - start

    known = deviations.load()
    by_op = collections.defaultdict(collections.Counter)
    failures = []
    for case in cases:
        o, r = ours.get(case["id"]), ref.get(case["id"])
        if r is None or "crash" in r:
            by_op[case["op"]]["reference_crash"] += 1
            continue
        category, detail = compare.verdict(case, o, r)
        reason = known.match(case, category, detail) if category != "ok" else None
        if reason:
            category = "documented"
        by_op[case["op"]][category] += 1
        if category not in ("ok", "documented"):
            failures.append((case, category, detail))

    totals = collections.Counter()
    for counts in by_op.values():
        totals.update(counts)
    print(f"difftest: {len(cases)} cases (seed {args.seed}) over {len(by_op)} ops in {seconds:.0f}s")
    print("by category: " + ", ".join(f"{k} {v}" for k, v in totals.most_common()))
    bad_ops = sorted(((op, c) for op, c in by_op.items() if sum(v for k, v in c.items() if k not in ("ok", "documented"))),
                     key=lambda x: -sum(v for k, v in x[1].items() if k not in ("ok", "documented")))
    if bad_ops:
        print("ops with differences:")
        for op, c in bad_ops:
            print(f"  {op:<28} " + ", ".join(f"{k} {v}" for k, v in sorted(c.items()) if k not in ("ok", "documented")))
    written = repro.write_all(failures, os.path.join(args.out, "repro"))
    if written:
        print(f"reproducers: {written} in {os.path.join(args.out, 'repro')}")
    for case, category, detail in failures[: args.show]:
        print(f"\n[{category}] {case['op']} ({case['call']}): {detail}\n{repro.source(case)}")
    with open(os.path.join(args.out, "failures.jsonl"), "w") as f:  # every difference, for grep
        for case, category, detail in failures:
            f.write(json.dumps({"id": case["id"], "op": case["op"], "call": case["call"], "category": category,
                                "detail": detail}) + "\n")
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump({"cases": len(cases), "seed": args.seed, "seconds": round(seconds, 1), "totals": dict(totals),
                   "by_op": {op: dict(c) for op, c in sorted(by_op.items())}}, f, indent=1)
    failing = set(args.fail_on.split(","))
    unknown = failing - set(compare.CATEGORIES)
    if unknown:
        parser.error(f"--fail-on: unknown categories {sorted(unknown)}; known: {', '.join(compare.CATEGORIES)}")
    fatal = collections.Counter(category for _, category, _ in failures if category in failing)
    if fatal:
        print("failing: " + ", ".join(f"{k} {v}" for k, v in fatal.most_common()))
    return 1 if fatal else 0


if __name__ == "__main__":
    sys.exit(main())
