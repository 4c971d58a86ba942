"""Leaks and growth: loops of common work must not grow the number of live
tensors, the CPU allocator's live blocks, the refcounts of the binding's
Python objects, or resident memory.

Each check runs its step some times to warm caches (kernels' static state,
named-tuple types, the autograd engine's buffers), takes a snapshot, runs the
step many more times and compares. A leak of one tensor per iteration shows
as hundreds in the counts; RSS gets a loose bound, as the allocator keeps
freed pages.
"""
import gc
import io
import os
import sys

import pytest
import torch

WARMUP, ITERATIONS = 20, 300
# ASan keeps freed memory in quarantine (up to 256 MiB), so resident memory
# says nothing under ci/test_sanitizers.sh; LeakSanitizer watches there instead.
UNDER_ASAN = "asan" in os.environ.get("LD_PRELOAD", "")
# Objects the binding hands out on every call (dtype and device attributes,
# sizes, the Tensor type itself): a missing Py_DECREF grows their refcount.
WATCHED = {
    "torch.Tensor": torch.Tensor,
    "torch.float32": torch.float32,
    "torch.int64": torch.int64,
    "torch.bool": torch.bool,
    "torch.Size": torch.Size,
    "torch.nn.Parameter": torch.nn.Parameter,
    "torch.device": torch.device,
    "torch.dtype": torch.dtype,
}


def rss_bytes():
    """Resident memory where the system says it (/proc: Linux); None elsewhere
    (the Windows wheel's run under Wine), where only the counters are compared."""
    if not hasattr(os, "sysconf") or not os.path.exists("/proc/self/statm"):
        return None
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def snapshot():
    gc.collect()
    tensors, blocks = torch._C._live_objects()
    refs = {name: sys.getrefcount(obj) for name, obj in WATCHED.items()}
    return tensors, blocks, refs, rss_bytes()


def assert_no_growth(step, rss_slack=16 << 20):
    for _ in range(WARMUP):
        step()
    tensors, blocks, refs, rss = snapshot()
    for _ in range(ITERATIONS):
        step()
    tensors2, blocks2, refs2, rss2 = snapshot()
    assert tensors2 <= tensors, f"live tensors grew from {tensors} to {tensors2} over {ITERATIONS} iterations"
    assert blocks2 <= blocks, f"live CPU blocks grew from {blocks} to {blocks2} over {ITERATIONS} iterations"
    grown = {name: refs2[name] - refs[name] for name in refs if refs2[name] > refs[name]}
    assert not grown, f"refcounts grew over {ITERATIONS} iterations: {grown}"
    if not UNDER_ASAN and rss is not None:
        assert rss2 - rss <= rss_slack, f"resident memory grew by {(rss2 - rss) >> 20} MiB"


def test_the_counters_see_a_leak():
    """The checks can fail: keeping one tensor per iteration is caught."""
    kept = []
    with pytest.raises(AssertionError, match="live tensors grew"):
        assert_no_growth(lambda: kept.append(torch.ones(4)))
    kept_dtypes = []
    with pytest.raises(AssertionError, match="refcounts grew"):
        assert_no_growth(lambda: kept_dtypes.append(torch.ones(1).dtype))


def test_creation():
    def step():
        torch.tensor([[1.0, 2.0], [3.0, 4.0]])
        torch.zeros(3, 4, dtype=torch.int64)
        torch.arange(10).reshape(2, 5).t().contiguous()
        torch.randn(16, 16).to(torch.float64)
        torch.empty(0)
        torch.full((2, 2), True).dtype
        torch.ones(3).device
        torch.ones(2, 3).shape
    assert_no_growth(step)


def test_arithmetic_and_reductions():
    a, b = torch.randn(64, 64), torch.randn(64)
    def step():
        c = (a + b) * 2 - a.exp() / (b.abs() + 1)
        c.add_(1).clamp_(-3, 3)
        c.sum(dim=0).max(dim=0)
        torch.sort(c[0]).values
        c.topk(3, dim=1)
        (c > 0).any().item()
    assert_no_growth(step)


def test_matmul():
    a, b = torch.randn(32, 48), torch.randn(48, 16)
    def step():
        a @ b
        torch.bmm(a.expand(4, 32, 48), b.expand(4, 48, 16))
        torch.matmul(a, b[:, 0])
    assert_no_growth(step)


def test_mask_and_integer_indexing():
    x = torch.randn(50, 8)
    idx = torch.tensor([0, 3, 7, 3])
    def step():
        y = x.clone()
        y[y > 0] = 0
        y[idx] = 1.0
        y[idx, 2:5]
        y[x < 0]
        y.index_select(0, idx)
        y.masked_fill(y == 0, 2.0)
        y.scatter_add(0, idx.unsqueeze(1).expand(4, 8), torch.ones(4, 8))
        y[[1, 2], [3, 4]]
    assert_no_growth(step)


def test_autograd_training_with_adam():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 3))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x, y = torch.randn(32, 8), torch.randint(0, 3, (32,))
    def step():
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        loss.item()
    assert_no_growth(step)


def test_graph_dropped_without_backward():
    w = torch.randn(10, 10, requires_grad=True)
    def step():
        (w @ w).tanh().sum()  # a graph built and never used
        with torch.no_grad():
            w * 2
    assert_no_growth(step)


def test_save_and_load_through_bytesio():
    state = {"w": torch.randn(20, 20), "step": 3, "ids": torch.arange(5)}
    def step():
        buf = io.BytesIO()
        torch.save(state, buf)
        buf.seek(0)
        torch.load(buf)
    assert_no_growth(step)


def test_bad_input_that_raises():
    a, b = torch.ones(2, 3), torch.ones(4, 5)
    def expect(exc, fn):
        try:
            fn()
        except exc:
            pass
        else:
            raise AssertionError(f"{fn} did not raise {exc}")
    def step():
        expect(RuntimeError, lambda: a + b)
        expect(RuntimeError, lambda: a @ a)
        expect(IndexError, lambda: a[5])
        expect(TypeError, lambda: torch.zeros("x"))
        expect((RuntimeError, IndexError), lambda: a.index_select(0, torch.tensor([9])))
        expect(ValueError, lambda: torch.tensor([[1.0], [2.0, 3.0]]))
        expect(RuntimeError, lambda: torch.ones(3).view(2, 2))
        expect(TypeError, lambda: torch.ones(3, dtype="float"))
    assert_no_growth(step)
