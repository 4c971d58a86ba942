"""Every op on CUDA against the same op on the CPU (whose results
test_ops.py checks against numpy), plus the CUDA runtime pieces: the caching
allocator, the generator, autograd across devices. These run wherever a CUDA
device is visible; elsewhere each skips itself with the reason."""
import functools
import os
import re

import pytest
import torch
from opinfo import ALL_OPS
from opinfo.params import cases, torch_args
from testing import assert_matches, to_numpy

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA device")

NATIVE_FUNCTIONS = os.path.join(os.path.dirname(torch.__file__), "share", "torch", "native_functions.yaml")
NO_KERNEL = re.compile(r"Could not run '([\w.]+)' with arguments from the 'cuda:0' backend: this build has no kernel")


@functools.lru_cache(maxsize=None)
def cuda_kernels() -> dict:
    """func name (with overload) -> whether native_functions.yaml gives it a CUDA kernel
    (a function without `dispatch` is made of other ops and runs wherever they do)."""
    import yaml

    with open(NATIVE_FUNCTIONS) as f:
        entries = yaml.safe_load(f)
    table = {}
    for entry in entries:
        name = entry["func"].split("(", 1)[0]
        dispatch = entry.get("dispatch")
        table[name] = dispatch is None or any("CUDA" in [k.strip() for k in key.split(",")] for key in dispatch)
    return table


def _to_cuda(value):
    if isinstance(value, torch.Tensor):
        return value.cuda()
    if isinstance(value, (list, tuple)):
        return type(value)(_to_cuda(v) for v in value)
    return value


def _assert_same(actual, expected):
    if isinstance(expected, torch.Tensor):
        assert actual.is_cuda, "the result of a CUDA op must live on CUDA"
        assert_matches(actual.cpu(), to_numpy(expected), dtype=expected.dtype)
    elif isinstance(expected, (tuple, list)):
        assert len(actual) == len(expected)
        for a, e in zip(actual, expected):
            _assert_same(a, e)
    else:
        assert actual == expected


@pytest.mark.parametrize("op,dtype", cases())
def test_cuda_matches_cpu(op, dtype, rng):
    for sample in op.sample_inputs(op, dtype, rng):
        cpu_args = torch_args(sample, dtype)
        cuda_args = torch_args(sample, dtype, lambda t: t.cuda())
        cuda_kwargs = {k: _to_cuda(v) for k, v in sample.kwargs.items()}
        expected = op(*cpu_args, **sample.kwargs)
        try:
            actual = op(*cuda_args, **cuda_kwargs)
        except NotImplementedError as e:
            # Only an op that native_functions.yaml gives no CUDA kernel may refuse,
            # or a matrix product of integers (cuBLAS has none; PyTorch refuses them too).
            missing = NO_KERNEL.search(str(e))
            if missing:
                assert not cuda_kernels()[missing.group(1)], f"{missing.group(1)} declares a CUDA kernel: {e}"
            else:
                assert not dtype.is_floating_point and "not implemented for" in str(e), e
            continue
        _assert_same(actual, expected)


def test_tensors_of_two_devices_are_refused():
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        torch.ones(3) + torch.ones(3, device="cuda")
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device"):
        torch.mm(torch.ones(2, 2), torch.ones(2, 2, device="cuda"))
    # A 0-d CPU tensor (a number) joins a CUDA tensor, and the result stays on CUDA.
    assert (torch.tensor(2.0) * torch.ones(3, device="cuda")).is_cuda


def test_copies_between_devices_cast_and_keep_layout():
    x = torch.arange(12, dtype=torch.int32).reshape(3, 4)
    y = x.t().to("cuda", torch.float64)
    assert y.dtype == torch.float64 and y.is_cuda
    assert torch.equal(y.cpu(), x.t().to(torch.float64))
    z = torch.zeros(4, 3)
    z.copy_(y)
    assert torch.equal(z, x.t().to(torch.float32))
    assert y[1, 2].item() == x[2, 1].item()
    assert "device='cuda:0'" in repr(y)


def test_caching_allocator_counts_and_reuses_memory():
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    x = torch.empty(1 << 20, device="cuda")
    assert torch.cuda.memory_allocated() - before >= 4 << 20
    ptr = x.data_ptr()
    del x
    assert torch.cuda.memory_allocated() == before
    y = torch.empty(1 << 20, device="cuda")
    assert y.data_ptr() == ptr  # the freed block came back from the cache
    del y
    torch.cuda.empty_cache()


def test_generator_is_seeded_and_in_range():
    torch.cuda.manual_seed(7)
    a = torch.rand(10000, device="cuda")
    torch.cuda.manual_seed(7)
    b = torch.rand(10000, device="cuda")
    assert torch.equal(a, b)
    assert 0 <= a.min().item() and a.max().item() < 1
    assert abs(a.mean().item() - 0.5) < 0.02
    n = torch.randn(100000, device="cuda", dtype=torch.float64)
    assert abs(n.mean().item()) < 0.02 and abs(n.std().item() - 1) < 0.02
    r = torch.randint(3, 9, (1000,), device="cuda")
    assert r.min().item() >= 3 and r.max().item() <= 8
    p = torch.randperm(50, device="cuda")
    assert p.is_cuda and sorted(p.tolist()) == list(range(50))


def test_autograd_across_devices():
    x = torch.randn(4, 3, requires_grad=True)
    w = torch.randn(3, 2, device="cuda", requires_grad=True)
    loss = (x.cuda() @ w).sigmoid().sum()
    loss.backward()
    assert x.grad.device.type == "cpu" and w.grad.is_cuda
    xc, wc = x.detach().requires_grad_(), w.detach().cpu().requires_grad_()
    (xc @ wc).sigmoid().sum().backward()
    assert torch.allclose(x.grad, xc.grad, atol=1e-5) and torch.allclose(w.grad.cpu(), wc.grad, atol=1e-5)


def test_training_step_on_cuda_matches_cpu():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 1))
    x, y = torch.randn(32, 8), torch.randn(32, 1)
    cpu_loss = torch.nn.functional.mse_loss(model(x), y)
    cuda_model = model.to("cuda")
    cuda_loss = torch.nn.functional.mse_loss(cuda_model(x.cuda()), y.cuda())
    assert abs(cuda_loss.item() - cpu_loss.item()) < 1e-5


def test_factories_and_views_on_cuda():
    assert torch.equal(torch.linspace(0, 1, 5, device="cuda").cpu(), torch.linspace(0, 1, 5))
    assert torch.equal(torch.eye(3, device="cuda").cpu(), torch.eye(3))
    assert torch.equal(torch.arange(2, 11, 3, device="cuda").cpu(), torch.arange(2, 11, 3))
    x = torch.zeros(3, 4, device="cuda")
    x[1] = 5.0
    x[:, 2] = torch.arange(3.0, device="cuda")
    expected = torch.zeros(3, 4)
    expected[1] = 5.0
    expected[:, 2] = torch.arange(3.0)
    assert torch.equal(x.cpu(), expected)
    assert x[1, 3].item() == 5.0


def test_tensor_indexing_on_cuda_matches_cpu():
    x = torch.arange(24.0).reshape(4, 6)
    xc = x.cuda()
    idx = torch.tensor([3, -1, 0])
    assert torch.equal(xc[idx.cuda()].cpu(), x[idx])
    assert torch.equal(xc[idx].cpu(), x[idx])  # CPU indices move to the tensor's device
    assert torch.equal(xc[:, idx.cuda()].cpu(), x[:, idx])
    assert torch.equal(xc[xc > 10].cpu(), x[x > 10])
    yc, y = xc.clone(), x.clone()
    yc[idx.cuda()] = -1.0
    y[idx] = -1.0
    assert torch.equal(yc.cpu(), y)
    zc, z = torch.zeros(5, device="cuda"), torch.zeros(5)
    rows = torch.tensor([1, 1, 3])
    zc.index_put_((rows.cuda(),), torch.ones(3, device="cuda"), accumulate=True)
    z.index_put_((rows,), torch.ones(3), accumulate=True)
    assert torch.equal(zc.cpu(), z)
    with pytest.raises(IndexError, match="out of bounds"):
        xc[torch.tensor([4], device="cuda")]
    with pytest.raises(RuntimeError, match="indices should be either on cpu"):
        x[idx.cuda()]


def test_classifier_trains_on_cuda_as_on_the_cpu():
    def train(device):
        torch.manual_seed(0)
        x, y = torch.randn(64, 8), torch.randint(0, 3, (64,))
        model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 3)).to(device)
        opt = torch.optim.SGD(model.parameters(), lr=0.5)
        losses = []
        for _ in range(20):
            opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(model(x.to(device)), y.to(device))
            loss.backward()
            opt.step()
            losses.append(loss.item())
        assert all(p.grad.device.type == device for p in model.parameters())
        return losses

    on_cuda, on_cpu = train("cuda"), train("cpu")
    assert on_cuda[-1] < on_cuda[0]
    assert on_cuda == pytest.approx(on_cpu, rel=1e-4), "one training step on CUDA differs from the same on the CPU"


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bag_on_cuda_matches_cpu(mode):
    """CUDA composes embedding_bag of its own ops (native/EmbeddingBag.cpp);
    the CPU runs one loop. Both outputs and both gradients agree."""
    gen = torch.Generator().manual_seed(5)
    weight = torch.randn(50, 7, generator=gen, dtype=torch.float64)
    idx = torch.randint(0, 50, (40,), generator=gen)
    offsets = torch.tensor([0, 3, 3, 17, 39])
    psw = torch.randn(40, generator=gen, dtype=torch.float64) if mode == "sum" else None
    results = []
    for device in ["cpu", "cuda"]:
        w = weight.to(device).requires_grad_()
        p = psw.to(device).requires_grad_() if psw is not None else None
        out = torch.nn.functional.embedding_bag(idx.to(device), w, offsets.to(device), mode=mode, padding_idx=idx[5].item(),
                                                per_sample_weights=p)
        out.backward(torch.arange(out.numel(), dtype=out.dtype, device=device).reshape(out.shape))
        results.append([out.cpu(), w.grad.cpu()] + ([p.grad.cpu()] if p is not None else []))
    for got, want in zip(results[1], results[0]):
        assert torch.allclose(got, want)
