"""Times tensor ops in this interpreter and prints the results as JSON.

Each case runs once to warm up, then repeats until about `--seconds` have
passed; the median of several such runs is reported, in seconds per call.
numpy is timed next to torch for the cases where it has an equivalent.
With --device cuda the torch tensors live on the GPU (each call waits for the
device to finish) and numpy stays the CPU baseline; without a GPU the result
says so and holds no cases.
"""
import argparse
import json
import statistics
import subprocess
import sys
import time


def timeit(fn, seconds):
    fn()
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds / 5 or n < 3:
        fn()
        n += 1
    per_run = max(1, n)
    samples = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(per_run):
            fn()
        samples.append((time.perf_counter() - start) / per_run)
    return statistics.median(samples)


def import_time():
    code = "import time; t = time.perf_counter(); import torch; print(time.perf_counter() - t)"
    runs = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
            for _ in range(5)]
    return statistics.median(runs)


def cases(torch, np, device="cpu"):
    for name, fn, np_fn in _cases(torch, np, device):
        if device == "cuda":
            yield name, (lambda fn=fn: (fn(), torch.cuda.synchronize())), np_fn
        else:
            yield name, fn, np_fn


def _cases(torch, np, device):
    torch.manual_seed(0)
    big = 10_000_000
    a, b = torch.rand(big), torch.rand(big)
    na, nb = a.numpy(), b.numpy()
    m1, m2 = torch.rand(1024, 1024), torch.rand(1024, 1024)
    nm1, nm2 = m1.numpy(), m2.numpy()
    one_a, one_b = torch.ones(1), torch.ones(1)
    n_one_a, n_one_b = np.ones(1, dtype=np.float32), np.ones(1, dtype=np.float32)
    x2 = torch.rand(1000, 10000)
    nx2 = x2.numpy()
    a, b, m1, m2, one_a, one_b, x2 = (t.to(device) for t in (a, b, m1, m2, one_a, one_b, x2))
    yield "add 1e7 f32", lambda: a + b, lambda: na + nb
    yield "mul 1e7 f32", lambda: a * b, lambda: na * nb
    yield "exp 1e7 f32", lambda: torch.exp(a), lambda: np.exp(na)
    yield "sigmoid 1e7 f32", lambda: torch.sigmoid(a), lambda: 1 / (1 + np.exp(-na))
    yield "sum 1e7 f32", lambda: a.sum(), lambda: na.sum()
    yield "mean 1e7 f32", lambda: a.mean(), lambda: na.mean()
    yield "max 1e7 f32", lambda: a.max(), lambda: na.max()
    yield "sum(dim=1) 1000x10000", lambda: x2.sum(1), lambda: nx2.sum(1)
    yield "sum(dim=0) 1000x10000", lambda: x2.sum(0), lambda: nx2.sum(0)
    yield "softmax(dim=1) 1000x10000", lambda: torch.softmax(x2, 1), None
    yield "matmul 1024 f32", lambda: m1 @ m2, lambda: nm1 @ nm2
    yield "add 1 elem (overhead)", lambda: one_a + one_b, lambda: n_one_a + n_one_b
    yield from _small_and_low_precision(torch, np, device)
    yield from _transcendental(torch, np, device)
    yield from _training_ops(torch, np, device)
    yield from _linalg(torch, np, device)
    yield from _searches_scans_and_shapes(torch, np, device)
    if device == "cpu":  # cross_entropy has no CUDA kernel yet
        yield "MLP train step (batch 32)", _train_step(torch), None
        yield from _example_steps()


def _small_and_low_precision(torch, np, device):
    """Softmax over short rows (dispatch and per-row overhead dominate) and
    reductions in the 16-bit floating types (accumulated in float32)."""
    small = torch.rand(256, 256).to(device)
    yield "softmax(dim=1) 256x256", lambda: torch.softmax(small, 1), None
    big = torch.rand(10_000_000)
    for dtype, label in ((torch.float16, "f16"), (torch.bfloat16, "bf16")):
        x = big.to(dtype).to(device)
        nx = x.float().cpu().numpy().astype(np.float16) if dtype == torch.float16 else None
        yield f"sum 1e7 {label}", lambda x=x: x.sum(), (lambda nx=nx: nx.sum()) if nx is not None else None
        yield f"mean 1e7 {label}", lambda x=x: x.mean(), None
        x2 = x.view(1000, 10000)
        yield f"sum(dim=1) 1000x10000 {label}", lambda x2=x2: x2.sum(1), None


def _transcendental(torch, np, device):
    """The elementary functions on 100,000 float32 elements (in cache), as
    issue 33 measured them: the vectorised math of each CPU capability."""
    torch.manual_seed(0)
    positive = (torch.rand(100_000) + 0.5).to(device)
    signed = (torch.rand(100_000) * 20 - 10).to(device)
    npos, nsig = positive.cpu().numpy(), signed.cpu().numpy()
    for name, arg, narg in (("exp", signed, nsig), ("log", positive, npos), ("log1p", positive, npos),
                            ("expm1", signed, nsig), ("sin", signed, nsig), ("cos", signed, nsig),
                            ("tanh", signed, nsig)):
        fn = getattr(torch, name)
        yield f"{name} 1e5 f32", lambda fn=fn, arg=arg: fn(arg), lambda f=getattr(np, name), narg=narg: f(narg)
    yield "pow(x, 2.5) 1e5 f32", lambda: positive ** 2.5, lambda: npos ** 2.5
    yield "tan 1e5 f32", lambda: torch.tan(signed), lambda: np.tan(nsig)
    yield "atan2 1e5 f32", lambda: torch.atan2(signed, positive), lambda: np.arctan2(nsig, npos)
    yield "erf 1e5 f32", lambda: torch.erf(signed), None
    yield "clamp(-1, 1) 1e5 f32", lambda: torch.clamp(signed, -1.0, 1.0), lambda: np.clip(nsig, -1.0, 1.0)


def _linalg(torch, np, device):
    """torch.linalg at the sizes of model code, float64, against numpy.linalg
    (LAPACK both), and a batch of small float32 solves as models make them."""
    rng = np.random.default_rng(0)
    for n in (64, 256):
        m = rng.standard_normal((n, n))
        nsym = (m + m.T) / 2
        nspd = m @ m.T + n * np.eye(n)
        nb = rng.standard_normal((n, 8))
        sym, a, spd, b = (torch.tensor(x).to(device) for x in (nsym, m, nspd, nb))
        yield f"linalg.eigh {n}x{n} f64", lambda sym=sym: torch.linalg.eigh(sym), lambda nsym=nsym: np.linalg.eigh(nsym)
        yield (f"linalg.eigvalsh {n}x{n} f64", lambda sym=sym: torch.linalg.eigvalsh(sym),
               lambda nsym=nsym: np.linalg.eigvalsh(nsym))
        yield (f"linalg.solve {n}x{n} f64", lambda a=a, b=b: torch.linalg.solve(a, b),
               lambda m=m, nb=nb: np.linalg.solve(m, nb))
        yield f"linalg.inv {n}x{n} f64", lambda a=a: torch.linalg.inv(a), lambda m=m: np.linalg.inv(m)
        yield f"linalg.det {n}x{n} f64", lambda a=a: torch.linalg.det(a), lambda m=m: np.linalg.det(m)
        yield (f"linalg.cholesky {n}x{n} f64", lambda spd=spd: torch.linalg.cholesky(spd),
               lambda nspd=nspd: np.linalg.cholesky(nspd))
        yield f"linalg.qr {n}x{n} f64", lambda a=a: torch.linalg.qr(a), lambda m=m: np.linalg.qr(m)
        yield (f"linalg.svd {n}x{n} f64", lambda a=a: torch.linalg.svd(a, full_matrices=False),
               lambda m=m: np.linalg.svd(m, full_matrices=False))
        yield (f"linalg.solve_triangular {n}x{n} f64", lambda a=a, b=b: torch.linalg.solve_triangular(a, b, upper=True),
               None)
    small = rng.standard_normal((256, 8, 8)).astype(np.float32) + 4 * np.eye(8, dtype=np.float32)
    rhs = rng.standard_normal((256, 8, 1)).astype(np.float32)
    ts, tr = torch.tensor(small).to(device), torch.tensor(rhs).to(device)
    yield ("linalg.solve 256x(8x8) f32", lambda: torch.linalg.solve(ts, tr), lambda: np.linalg.solve(small, rhs))


def _searches_scans_and_shapes(torch, np, device):
    """Ops that were Python compositions or index gathers until issue 40
    (searchsorted, scans, flip, padding modes, cdist), at the sizes it
    measured them."""
    import torch.nn.functional as F

    torch.manual_seed(0)
    seq = torch.randn(65536).sort().values.to(device)
    values = torch.randn(65536).to(device)
    nseq, nvalues = seq.cpu().numpy(), values.cpu().numpy()
    yield ("searchsorted 64k in 64k", lambda: torch.searchsorted(seq, values),
           lambda: np.searchsorted(nseq, nvalues))
    m = torch.randn(316, 316).to(device)
    nm = m.cpu().numpy()
    yield "cummax(dim=1) 316x316", lambda: torch.cummax(m, 1), lambda: np.maximum.accumulate(nm, 1)
    yield "cumprod(dim=1) 316x316", lambda: torch.cumprod(m, 1), lambda: np.cumprod(nm, 1)
    yield "flip(dim=1) 316x316", lambda: torch.flip(m, [1]), lambda: np.ascontiguousarray(nm[:, ::-1])
    yield "tril 316x316", lambda: torch.tril(m), lambda: np.tril(nm)
    yield "cdist 100x316 by 100x316", lambda: torch.cdist(m[:100], m[100:200]), None
    img = torch.randn(8, 16, 32, 32).to(device)
    nimg = img.cpu().numpy()
    yield ("pad reflect 8x16x32x32 by 2", lambda: F.pad(img, (2, 2, 2, 2), mode="reflect"),
           lambda: np.pad(nimg, ((0, 0), (0, 0), (2, 2), (2, 2)), mode="reflect"))


def _training_ops(torch, np, device):
    """The ops a training loop leans on, at the sizes of a small language model."""
    import torch.nn.functional as F

    torch.manual_seed(0)
    logits = torch.randn(512, 1000).to(device)
    target = torch.randint(0, 1000, (512,)).to(device)
    yield "log_softmax+nll_loss 512x1000", lambda: F.nll_loss(F.log_softmax(logits, 1), target), None
    h = torch.randn(64 * 32, 512).to(device)
    w, b = torch.ones(512).to(device), torch.zeros(512).to(device)
    yield "layer_norm 2048x512", lambda: F.layer_norm(h, (512,), w, b), None
    table = torch.randn(10000, 256).to(device)
    ids = torch.randint(0, 10000, (64, 32)).to(device)
    nt, nids = table.cpu().numpy(), ids.cpu().numpy()
    yield "embedding 64x32 of 10000x256", lambda: F.embedding(ids, table), lambda: nt[nids]
    rows = torch.randint(0, 10000, (4096,)).to(device)
    nrows = rows.cpu().numpy()
    yield "index x[int tensor] 4096 rows", lambda: table[rows], lambda: nt[nrows]
    parts = [torch.randn(256, 512).to(device) for _ in range(8)]
    nparts = [p.cpu().numpy() for p in parts]
    yield "cat 8 x 256x512 (dim=0)", lambda: torch.cat(parts), lambda: np.concatenate(nparts)
    yield "cat 8 x 256x512 (dim=1)", lambda: torch.cat(parts, 1), lambda: np.concatenate(nparts, 1)
    params = [torch.randn(512, 512).to(device).requires_grad_() for _ in range(4)]
    for p in params:
        p.grad = torch.randn_like(p)
    opt = torch.optim.Adam(params, lr=1e-3)
    yield "Adam step 4 x 512x512", opt.step, None


# The training programs under examples/: one step each, on a fixed batch.
EXAMPLES = ("char_transformer", "cnn_synthetic", "lstm_sequence", "dataloader_classifier", "vae_lbfgs")


def _example_steps():
    import importlib.util
    import os

    root = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")
    for name in EXAMPLES:
        spec = importlib.util.spec_from_file_location(f"example_{name}", os.path.join(root, f"{name}.py"))
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except ImportError as e:  # scikit-learn for the digits example
            print(f"skipping examples/{name}.py: {e}", file=sys.stderr)
            continue
        yield f"train step: {name}", module.benchmark_step(), None


def _train_step(torch):
    """One Adam step of a digits-sized MLP (64-128-64-10, batch 32): the per-op
    overhead of autograd and the bindings dominates."""
    from torch import nn

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 10))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loss_fn = nn.CrossEntropyLoss()
    x, y = torch.randn(32, 64), torch.randint(0, 10, (32,))

    def step():
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()

    return step


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=0.5, help="time budget per case")
    parser.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    args = parser.parse_args()
    import numpy as np

    import torch

    torch.set_num_threads(torch.get_num_threads())
    results = {"torch_version": torch.__version__, "threads": torch.get_num_threads(), "cases": {}}
    if args.device == "cuda" and not torch.cuda.is_available():
        results["skipped"] = "no CUDA device"
        json.dump(results, sys.stdout)
        return
    for name, fn, np_fn in cases(torch, np, args.device):
        results["cases"][name] = {"torch": timeit(fn, args.seconds), "numpy": timeit(np_fn, args.seconds) if np_fn else None}
    if args.device == "cpu":
        results["cases"]["import torch"] = {"torch": import_time(), "numpy": None}
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
