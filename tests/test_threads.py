"""Tensors, autograd, the generator and the allocator used from many Python
threads at once.

On a free-threaded Python (3.14t) the binding declares that it runs without
the GIL (Py_mod_gil), so these threads really overlap everywhere; with the
GIL they overlap wherever a kernel or a backward pass releases it. Either
way every result must equal what one thread computes.
"""
import subprocess
import sys
import sysconfig
import threading

import numpy as np
import pytest

import torch
from torch import nn

THREADS = 8
FREE_THREADED = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))


def run_threads(work, n=THREADS):
    """work(i) on n threads started together; their results, or the first error."""
    barrier = threading.Barrier(n)
    results, errors = [None] * n, []

    def body(i):
        try:
            barrier.wait()
            results[i] = work(i)
        except BaseException as e:  # noqa: BLE001 - re-raised below, in the test's thread
            errors.append(e)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return results


@pytest.mark.skipif(not FREE_THREADED, reason="a Python with the GIL")
def test_importing_torch_leaves_the_gil_off():
    out = subprocess.run([sys.executable, "-W", "error", "-c", "import torch, sys; print(sys._is_gil_enabled())"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_shared_inputs_give_every_thread_the_same_results():
    torch.manual_seed(0)
    a, b = torch.randn(64, 64), torch.randn(64, 64)
    expected = (torch.sigmoid(a @ b) + a).sum(1)
    big = torch.randn(1 << 16)
    expected_big = (big * 2).exp().sum()

    def work(i):
        small = [(torch.sigmoid(a @ b) + a).sum(1) for _ in range(100)]
        large = [(big * 2).exp().sum() for _ in range(20)]  # large enough to release the GIL
        return small, large

    for small, large in run_threads(work):
        assert all(np.array_equal(s.numpy(), expected.numpy()) for s in small)
        assert all(x.item() == expected_big.item() for x in large)


def test_backward_passes_over_one_model_all_accumulate():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.Tanh(), nn.Linear(32, 1))
    x = torch.randn(8, 16)
    model(x).sum().backward()
    single = [p.grad.clone() for p in model.parameters()]
    model.zero_grad()
    iterations = 20

    def work(i):
        for _ in range(iterations):
            model(x).sum().backward()

    run_threads(work)
    for p, g in zip(model.parameters(), single):
        np.testing.assert_allclose(p.grad.numpy(), (g * THREADS * iterations).numpy(), rtol=1e-4, atol=1e-5)


def test_backward_through_a_shared_subgraph_with_retain_graph():
    w = torch.randn(32, requires_grad=True)
    shared = (w * 3).tanh()  # one graph, walked by every thread
    iterations = 25

    def work(i):
        grads = []
        for _ in range(iterations):
            (g,) = torch.autograd.grad(shared.sum(), [w], retain_graph=True)
            grads.append(g)
        return grads

    expected = 3 * (1 - (w * 3).tanh() ** 2)
    for grads in run_threads(work):
        for g in grads:
            np.testing.assert_allclose(g.detach().numpy(), expected.detach().numpy(), rtol=1e-6)


def test_generator_draws_are_whole_and_none_is_lost():
    # Each draw takes the generator for its whole tensor, so the threads' draws
    # together are the sequential draws in some order.
    per_thread, size = 40, 7
    torch.manual_seed(123)
    drawn = [tuple(t.tolist()) for r in run_threads(lambda i: [torch.randn(size) for _ in range(per_thread)])
             for t in r]
    torch.manual_seed(123)
    sequential = [tuple(torch.randn(size).tolist()) for _ in range(THREADS * per_thread)]
    assert sorted(drawn) == sorted(sequential)


def test_allocation_and_release_from_many_threads():
    def work(i):
        rng = np.random.default_rng(i)
        kept = []
        for step in range(300):
            n = int(rng.integers(1, 1 << 14))
            t = torch.full((n,), float(i))
            if step % 7 == 0:
                kept.append(t[: n // 2 + 1])  # a view outlives its tensor
            assert t.sum().item() == float(i) * n
        return sum(v.numel() for v in kept), [float(v.mean()) for v in kept]

    for i, (_, means) in enumerate(run_threads(work)):
        assert all(m == float(i) for m in means)


def test_one_tensor_read_and_written_by_every_thread():
    t = torch.zeros(THREADS, 1000)
    leaf = torch.ones(3, requires_grad=True)

    def work(i):
        for k in range(50):
            t[i] = t[i] + 1  # each thread its own row of one shared tensor
            _ = (t.shape, t.dtype, t[i, :3].tolist(), repr(t[i, 0]))
            leaf.grad = torch.full((3,), float(k))  # racing setters and getters of one .grad
            g = leaf.grad
            assert g is None or g.shape == (3,)
        return t[i].sum().item()

    assert run_threads(work) == [50 * 1000.0] * THREADS
    assert (t == 50.0).all().item()


# parallel_for itself, on whichever backend the build has: OpenMP (the Linux
# wheels) or ATen's own thread pool (the zig-built macOS and Windows wheels).
@pytest.fixture
def restore_threads():
    n = torch.get_num_threads()
    yield n
    torch.set_num_threads(n)


def test_parallel_for_runs_on_every_thread_asked_for(restore_threads):
    for k in sorted({1, 2, restore_threads}):
        torch.set_num_threads(k)
        assert torch._C._parallel_probe(1000) == k, (k, torch._C._parallel_backend)


def test_parallel_for_hands_a_chunks_error_to_the_caller(restore_threads):
    torch.set_num_threads(max(2, restore_threads))
    with pytest.raises(RuntimeError, match="failed on purpose"):
        torch._C._parallel_probe(1000, True)
    assert torch._C._parallel_probe(1000) >= 1  # and the threads are usable afterwards


def test_parallel_for_from_many_python_threads(restore_threads):
    """Calls that overlap (a free-threaded Python, or ops that release the
    GIL) each finish with their own result; on the native pool the second
    one runs alone while the first holds the pool."""
    torch.set_num_threads(max(2, restore_threads))
    x = torch.arange(1 << 20, dtype=torch.float64)
    expected = float(x.sum())
    assert run_threads(lambda i: [float((x * 1.0).sum()) for _ in range(20)]) == [[expected] * 20] * THREADS


def test_set_num_threads_refuses_what_is_not_a_thread_count(restore_threads):
    for bad in (0, -1, 2**31, 2**70):
        with pytest.raises((RuntimeError, OverflowError)):
            torch.set_num_threads(bad)
    assert torch.get_num_threads() == restore_threads
