"""Times sweep cases in one interpreter: reads one JSON request per line on
stdin, answers one JSON line per request on stdout.

    python timer.py            (started by the sweep, once per torch)

Run as a script, outside any checkout, under our torch or PyTorch alike: it
needs only torch and numpy, builds native cases' inputs with the difftest
worker's builder and Python-level cases' inputs from inputs.py, both seeded,
so that both interpreters time the same call on the same values.

A request: {"case": ..., "budget": seconds per measurement, "probe": bool,
"threads": "1" or "both"}.
A probe runs the call once and reports its time and input size; otherwise
the answer holds the forward time and, when the result is differentiable,
the forward + backward time, each on one thread and on all of them.
{"api": true} asks for the public functions this torch has.
"""
import json
import os
import re
import resource
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "tools", "difftest"))

import numpy as np  # noqa: E402
import torch  # noqa: E402

import inputs  # noqa: E402  (this script's folder)
import worker as difftest_worker  # noqa: E402  (tools/difftest)
from worker import flat_tensors  # noqa: E402

ALL_THREADS = torch.get_num_threads()
IDLE_BEFORE_THREADS = 0.05  # seconds
MODULES = {"torch": torch, "Tensor": torch.Tensor, "F": torch.nn.functional, "linalg": torch.linalg,
           "special": torch.special, "fft": torch.fft}


def limit_memory(extra_gib=6):
    """A call that would allocate far more than a medium case needs raises
    instead of swapping the machine."""
    with open("/proc/self/status") as f:
        vm = next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmSize:"))
    cap = vm + extra_gib * 2 ** 30
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


def with_grad(spec):
    """A native case's argument description with every float tensor requiring grad."""
    if isinstance(spec, dict):
        out = {k: with_grad(v) for k, v in spec.items()}
        if spec.get("t") == "tensor" and spec["dtype"] in ("float32", "float64"):
            out["requires_grad"] = True
        return out
    if isinstance(spec, list):
        return [with_grad(s) for s in spec]
    return spec


def native_call(case, grad):
    """(fn, leaves, input elements) for a native_functions.yaml case."""
    if grad:
        case = dict(case, args=with_grad(case["args"]), kwargs=with_grad(case["kwargs"]))
    leaves = []
    args = [difftest_worker.build(s, leaves) for s in case["args"]]
    kwargs = {k: difftest_worker.build(s, leaves) for k, s in case["kwargs"].items()}
    numel = sum(t.numel() for t in flat_tensors(args) + flat_tensors(list(kwargs.values())))
    fn = lambda: difftest_worker.call(case, args, kwargs)  # noqa: E731
    if case["name"].endswith("_") and args and isinstance(args[0], torch.Tensor):
        fn = restoring(args[0], fn)
    return fn, leaves, numel


def restoring(target, fn):
    """fn, with target's values put back before each call: repeated in-place
    updates would otherwise drift into infinities and denormals, whose speed
    is not the op's."""
    original = target.clone()

    def call():
        target.copy_(original)
        return fn()
    return call


def expression_call(case, grad):
    """(fn, leaves, input elements) for a Python-level case (python_cases.py)."""
    ns = inputs.namespace(torch, grad)
    ns.update(torch=torch, F=torch.nn.functional, linalg=torch.linalg, special=torch.special, fft=torch.fft)
    if case.get("setup"):
        before = set(ns)
        with torch.no_grad():
            exec(case["setup"], ns)
        for name in set(ns) - before:
            t = ns[name]
            if isinstance(t, torch.Tensor) and t.dtype in (torch.float32, torch.float64):
                ns[name] = t.detach().requires_grad_(grad)
    code = compile(case["expr"], case["name"], "eval")
    leaves = [t for t in ns.values() if isinstance(t, torch.Tensor) and t.requires_grad]
    words = set(re.findall(r"[A-Za-z_]\w*", case["expr"]))
    numel = sum(ns[n].numel() for n in words & set(ns) if isinstance(ns[n], torch.Tensor))
    fn = lambda: eval(code, ns)  # noqa: E731
    if isinstance(ns.get("c_"), torch.Tensor):  # the target of an in-place case
        fn = restoring(ns["c_"], fn)
    return fn, leaves, numel


def make_call(case, grad):
    return (native_call if "args" in case else expression_call)(case, grad)


def backward_step(fn, leaves):
    """fn's forward and backward, or None when its result has nothing to differentiate."""
    outs = [t for t in flat_tensors(fn()) if t.requires_grad and t.dtype.is_floating_point]
    if not outs:
        return None
    grads = [torch.ones_like(t) for t in outs]

    def step():
        for leaf in leaves:
            leaf.grad = None
        results = [t for t in flat_tensors(fn()) if t.requires_grad and t.dtype.is_floating_point]
        torch.autograd.backward(results, grads)
    return step


def measure(fn, budget):
    """Seconds per call: the best of three runs of about budget/3 each (at
    least one call each). The best, because a shared machine only ever adds
    time: the other side's threads still spinning, another process."""
    fn()
    start = time.perf_counter()
    fn()
    one = time.perf_counter() - start
    n = max(1, int(budget / 3 / max(one, 1e-7)))
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - start) / n)
    return best


def on_threads(fn, budget, threads_wanted):
    out = {}
    for label, threads in (("1", 1), ("all", ALL_THREADS)):
        if label == "all" and (ALL_THREADS == 1 or threads_wanted == "1"):
            continue
        torch.set_num_threads(threads)
        if threads > 1:
            # The other side's thread pool spins for a few milliseconds after
            # its last parallel region; on a 2-core machine that stalls ours.
            time.sleep(IDLE_BEFORE_THREADS)
        try:
            out[label] = measure(fn, budget)
        finally:
            torch.set_num_threads(ALL_THREADS)
    return out


def answer(request):
    if request.get("api"):
        return {"api": {prefix: sorted(n for n in dir(mod) if not n.startswith("_") and callable(getattr(mod, n, None))
                                       and not isinstance(getattr(mod, n, None), type))
                        for prefix, mod in MODULES.items()}}
    case, budget = request["case"], request["budget"]
    fn, _, numel = make_call(case, grad=False)
    if request.get("probe"):
        torch.set_num_threads(1)
        start = time.perf_counter()
        fn()
        seconds = time.perf_counter() - start
        torch.set_num_threads(ALL_THREADS)
        return {"ok": True, "numel": numel, "seconds": seconds}
    threads = request.get("threads", "both")
    out = {"ok": True, "numel": numel, "fwd": on_threads(fn, budget, threads), "bwd": None}
    if case.get("call", "function") in ("function", "method"):
        fn, leaves, _ = make_call(case, grad=True)
        try:
            step = backward_step(fn, leaves)
        except Exception as e:  # noqa: BLE001 - a forward that fails with grad inputs is reported
            out["bwd_error"] = f"{type(e).__name__}: {str(e)[:200]}"
            step = None
        if step is not None:
            try:
                out["bwd"] = on_threads(step, budget, threads)
            except Exception as e:  # noqa: BLE001
                out["bwd_error"] = f"{type(e).__name__}: {str(e)[:200]}"
    return out


def main():
    limit_memory()
    torch.manual_seed(0)
    for line in sys.stdin:
        request = json.loads(line)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                reply = answer(request)
        except Exception as e:  # noqa: BLE001 - the class and message are the outcome
            reply = {"ok": False, "error": f"{type(e).__name__}: {str(e)[:200]}"}
        reply["torch"] = torch.__version__
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
