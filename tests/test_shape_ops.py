"""Shape ops that return several tensors, and edge cases of the layout ops."""
import numpy as np
import pytest

import torch


def test_split_and_chunk():
    t = torch.arange(10)
    assert [p.tolist() for p in torch.split(t, 4)] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
    assert [p.tolist() for p in t.split([3, 7])] == [[0, 1, 2], list(range(3, 10))]
    assert [p.shape for p in torch.chunk(torch.zeros(5, 2), 3)] == [(2, 2), (2, 2), (1, 2)]
    parts = torch.split(torch.zeros(4, 6), 2, dim=1)
    assert len(parts) == 3 and parts[0].shape == (4, 2)
    parts[0].fill_(1.0)  # views
    with pytest.raises(RuntimeError, match="split_with_sizes expects split_sizes to sum exactly to 10"):
        torch.split(t, [3, 3])


def test_cat_promotes_and_skips_legacy_empty():
    out = torch.cat([torch.ones(2, dtype=torch.int32), torch.ones(1, dtype=torch.float64)])
    assert out.dtype == torch.float64 and out.tolist() == [1.0, 1.0, 1.0]
    assert torch.cat([torch.ones(2, 3), torch.tensor([])]).shape == (2, 3)
    out_t = torch.empty(0)
    torch.cat([torch.ones(2), torch.zeros(1)], out=out_t)
    assert out_t.tolist() == [1.0, 1.0, 0.0]


def test_zero_size_and_zero_dim_inputs():
    z = torch.zeros(0, 3)
    assert (z + 1).shape == (0, 3)
    assert z.sum().item() == 0.0 and z.sum(0).tolist() == [0.0, 0.0, 0.0]
    assert torch.isnan(z.mean()).item()
    assert z.prod().item() == 1.0
    assert z.any().item() is False and z.all().item() is True
    assert (z @ torch.ones(3, 2)).shape == (0, 2)
    assert (torch.ones(2, 0) @ torch.ones(0, 3)).tolist() == [[0.0] * 3] * 2
    s = torch.tensor(3.0)
    assert (s * 2).item() == 6.0 and s.sum(0).item() == 3.0 and s.unsqueeze(0).shape == (1,)
    assert torch.cumsum(s, 0).item() == 3.0


def test_flip_copies_and_keeps_values():
    t = torch.arange(6).reshape(2, 3)
    f = t.flip([0, 1])
    assert f.tolist() == [[5, 4, 3], [2, 1, 0]]
    f[0, 0] = 100
    assert t[1, 2].item() == 5


def test_large_dims_are_rejected_cleanly():
    with pytest.raises(RuntimeError):
        torch.empty(2**62, 2**62)
    with pytest.raises(RuntimeError, match="invalid shape dimension -2"):
        torch.ones(3).view(-2)


def test_linspace_eye_randint():
    assert torch.linspace(0, 1, 5).tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert torch.linspace(-1, 1, 1).tolist() == [-1.0]
    # Integer results start from the ends converted to the dtype (1.5 -> 1), as PyTorch's.
    assert torch.linspace(1.5, 3, 6, dtype=torch.int64).tolist() == [1, 1, 1, 2, 2, 3]
    assert torch.linspace(-2.7, 4.9, 9, dtype=torch.int32).tolist() == [-2, -1, 0, 0, 1, 1, 2, 3, 4]
    assert torch.linspace(3, -2, 7, dtype=torch.int16).tolist() == [3, 2, 1, 0, 0, -1, -2]
    # Long enough for every thread to fill a block: both ends exact, the steps even.
    long = torch.linspace(-1.0, 3.0, 200_001, dtype=torch.float64)
    np.testing.assert_allclose(long.numpy(), np.linspace(-1.0, 3.0, 200_001), rtol=0, atol=1e-15)
    assert long[0].item() == -1.0 and long[-1].item() == 3.0
    assert torch.eye(2, 3).tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
    torch.manual_seed(0)
    r = torch.randint(3, 7, (1000,))
    assert r.dtype == torch.int64 and set(r.tolist()) == {3, 4, 5, 6}
    assert torch.randint(5, (2, 2)).shape == (2, 2)
    assert torch.full_like(torch.ones(2, dtype=torch.int32), 7).tolist() == [7, 7]
    assert torch.rand_like(torch.ones(3)).shape == (3,)


def test_half_precision_storage_rounds_like_numpy():
    values = np.array([0.1, 1 / 3, 65504.0, 1e-7, 70000.0, -2.5, 1e-5], dtype=np.float64)
    h = torch.tensor(values.tolist(), dtype=torch.float16)
    assert h.tolist() == values.astype(np.float16).astype(np.float64).tolist()
    assert torch.from_numpy(values.astype(np.float16)).tolist() == h.tolist()
    b = torch.tensor([1.1, 3.14159, 1e30, -0.0], dtype=torch.bfloat16)
    assert b.tolist() == [1.1015625, 3.140625, 1.0002555517425873e30, -0.0]
    assert h.to(torch.float32).tolist() == values.astype(np.float16).astype(np.float32).tolist()
    assert repr(torch.tensor([1.5, 2.0], dtype=torch.float16)) == "tensor([1.5000, 2.0000], dtype=torch.float16)"


def test_unflatten_checks_as_pytorch_in_each_form():
    # torch.unflatten (C++) checks the dim first; Tensor.unflatten (Python in PyTorch) the sizes first.
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.unflatten(torch.ones(1), 1, [])
    with pytest.raises(RuntimeError, match="unflatten: sizes must be non-empty"):
        torch.ones(1).unflatten(1, [])


def test_block_diag_places_each_block_and_passes_gradients():
    a = torch.ones(2, 2, requires_grad=True)
    b = torch.tensor([1, 2, 3])  # 1-d: one row
    out = torch.block_diag(a, b, torch.tensor(5.0), torch.ones(0, 2))
    assert out.shape == (4, 8) and out.dtype == torch.float32
    want = np.zeros((4, 8), np.float32)
    want[:2, :2], want[2, 2:5], want[3, 5] = 1, [1, 2, 3], 5
    np.testing.assert_array_equal(out.detach().numpy(), want)
    (out * torch.arange(32.0).reshape(4, 8)).sum().backward()
    assert a.grad.tolist() == [[0.0, 1.0], [8.0, 9.0]]
    assert torch.block_diag().shape == (1, 0)
    with pytest.raises(RuntimeError, match="Input 0 has 3 dimensions"):
        torch.block_diag(torch.ones(2, 2, 2))


@pytest.mark.parametrize("shape,wrap", [((5, 5), False), ((7, 3), False), ((7, 3), True), ((3, 7), True),
                                        ((4, 4, 4), False), ((8, 2), True)])
def test_fill_diagonal_matches_numpy(shape, wrap):
    x = torch.zeros(shape)
    want = np.zeros(shape, np.float32)
    np.fill_diagonal(want, 5, wrap=wrap)
    assert x.fill_diagonal_(5, wrap=wrap) is x
    np.testing.assert_array_equal(x.numpy(), want)
    t = torch.zeros(shape[::-1]).transpose(0, -1) if len(shape) == 2 else None
    if t is not None:  # non-contiguous
        np.testing.assert_array_equal(t.fill_diagonal_(5, wrap=wrap).numpy(), want)


def test_renorm_scales_only_the_slices_over_maxnorm():
    x = torch.tensor([[3.0, 4.0], [0.3, 0.4]])
    out = torch.renorm(x, 2, 0, 1.0)
    np.testing.assert_allclose(out.numpy(), [[0.6, 0.8], [0.3, 0.4]], rtol=1e-5)
    y = x.clone()
    assert y.renorm_(2, 0, 1.0) is y and torch.allclose(y, out)
    with pytest.raises(RuntimeError, match="at least 2 dimensions, got 1"):
        torch.renorm(torch.ones(3), 2, 0, 1.0)
    with pytest.raises(RuntimeError, match="non-positive-norm"):
        torch.renorm(x, -1, 0, 1.0)
    with pytest.raises(RuntimeError, match="maxnorm to be >= 0"):
        torch.renorm(x, 2, 0, -1.0)
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.renorm(x, 2, 3, 1.0)


def test_splits_into_more_sections_than_memory_holds_fail_at_once():
    # An empty dim divides by any count (the fuzzer's vsplit(2**32)): the
    # room for the views is asked for first, so a count no memory holds is
    # an error before any view is made, not a process filling memory.
    empty = torch.empty(0, 3)
    for split in (lambda: empty.vsplit(2**60), lambda: torch.tensor_split(empty, 2**60)):
        with pytest.raises((RuntimeError, MemoryError)):
            split()
    parts = torch.empty(0, 3).vsplit(4)
    assert len(parts) == 4 and all(p.shape == (0, 3) for p in parts)
    assert [p.tolist() for p in torch.arange(5).tensor_split(3)] == [[0, 1], [2, 3], [4]]


@pytest.mark.parametrize("shape", [(100003,), (5, 2), (7, 4), (3, 2, 2), (6, 1), (2, 8), (3, 16), (5, 2, 1), (4, 2, 3),
                                   (2, 3, 1, 4, 5), (1, 1), (3, 1, 1), (1, 6, 1, 2)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int16, torch.uint8, torch.int64])
def test_flip_every_dim_set_against_numpy(shape, dtype):
    # A short contiguous last dim flips as one wider element, a long vector in 16-byte reversed blocks
    # split over the threads: both paths, transposed and sliced inputs (the general walk), odd
    # lengths, and size-1 and adjacent dims that merge (two kept or two flipped dims step as one).
    import itertools
    a = np.random.default_rng(0).integers(0, 100, shape)
    x = torch.from_numpy(a).to(dtype)
    for t in ([x, x.transpose(0, -1), x[..., ::2]] if len(shape) > 1 else [x, x[::3]]):
        for r in range(1, t.dim() + 1):
            for dims in itertools.combinations(range(t.dim()), r):
                np.testing.assert_array_equal(t.flip(dims).numpy(), np.flip(t.numpy(), dims))


def _diff_step_by_step(x, n, dim):
    """diff as n separate subtractions (what PyTorch runs), for the oracle."""
    for _ in range(n):
        if x.shape[dim] == 0:
            break
        k = x.shape[dim] - 1
        nxt, prev = x.narrow(dim, 1, k), x.narrow(dim, 0, k)
        x = nxt != prev if x.dtype == torch.bool else nxt - prev
    return x


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64,
                                   torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool])
def test_diff_of_order_n_matches_n_subtractions(dtype):
    # diff(x, n >= 2) without autograd runs one tiled kernel
    # (cpu/RepeatedDiffKernel.cpp): rows in tiles of 2048 results, other dims
    # in column blocks of at least 256. The shapes cross both edges.
    gen = torch.Generator().manual_seed(7)
    for shape, dim, n in [((4100,), 0, 3), ((3, 2500), -1, 2), ((5, 7), 0, 2), ((9, 700), 0, 4),
                          ((3, 6, 300), 1, 5), ((2, 5, 3), 2, 9), ((0, 5), 1, 2), ((4, 0), 0, 3), ((6,), 0, 6)]:
        if dtype == torch.bool:
            x = torch.randint(0, 2, shape, generator=gen).bool()
        elif dtype.is_floating_point:
            x = (torch.randn(shape, generator=gen) * 50).to(dtype)
        else:
            x = torch.randint(-120, 120, shape, generator=gen).to(dtype)
        for t in (x, x.transpose(0, -1)):
            got = torch.diff(t, n, dim)
            want = _diff_step_by_step(t, n, dim)
            assert got.shape == want.shape and got.dtype == want.dtype and got.is_contiguous()
            assert torch.equal(got, want), (shape, dim, n)
    if dtype in (torch.float64, torch.int64, torch.bool):  # numpy's own diff (it wraps integers too)
        a = np.random.default_rng(0).integers(-2**62, 2**62, (40, 3000)).astype(
            {torch.float64: np.float64, torch.int64: np.int64, torch.bool: np.bool_}[dtype])
        np.testing.assert_array_equal(torch.diff(torch.from_numpy(a), 5, 1).numpy(), np.diff(a, 5, 1))


def test_diff_of_order_n_keeps_gradients_and_operands():
    x = torch.randn(4, 6, dtype=torch.float64, requires_grad=True)
    before = torch.randn(4, 2, dtype=torch.float64)
    out = torch.diff(x, 3, 1, prepend=before, append=x[:, :1])
    want = _diff_step_by_step(torch.cat([before, x, x[:, :1]], 1), 3, 1)
    assert torch.equal(out, want) and out.grad_fn is not None
    (g,) = torch.autograd.grad(out.sum(), x)
    with torch.no_grad():
        assert torch.equal(torch.diff(x, 3, 1, prepend=before, append=x[:, :1]), want)
    assert g.shape == x.shape and g.abs().sum() > 0
    assert torch.diff(torch.randn(3, 4), 2, 1, prepend=torch.ones(3, 1, dtype=torch.int64)).dtype == torch.float32


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32", "bool"])
@pytest.mark.parametrize("n", [None, 0, 1, 2, 6])
def test_vander_matches_numpy_in_both_orders_and_promotes_like_pytorch(dtype, n):
    x = np.array([1, 2, -3, 0, 1.5] if dtype.startswith("float") else [1, 2, -3, 0, 1]).astype(dtype)
    for increasing in (False, True):
        got = torch.vander(torch.from_numpy(x), n, increasing=increasing)
        # Integers and bool promote to int64 (PyTorch's rule; numpy keeps int32).
        assert got.dtype == (torch.int64 if dtype in ("int32", "bool") else torch.from_numpy(x).dtype)
        want = np.vander(x.astype(np.float64), n, increasing=increasing)
        np.testing.assert_allclose(got.double().numpy(), want)
    if dtype != "bool" and n not in (0, 1):  # linalg.vander refuses bool and N < 2
        assert torch.equal(torch.linalg.vander(torch.from_numpy(x), N=n), torch.vander(torch.from_numpy(x), n, True))


def test_vander_gradient_and_no_graph_under_no_grad():
    x = torch.randn(4, dtype=torch.float64, requires_grad=True)
    # PyTorch 2.13's torch.vander fails here (its cumprod writes into the tensor it then flips).
    assert torch.autograd.gradcheck(lambda t: torch.vander(t, 5), (x,))
    assert torch.autograd.gradcheck(lambda t: torch.linalg.vander(t, N=3), (x,))
    with torch.no_grad():
        assert not torch.vander(x, 3).requires_grad
    with pytest.raises(RuntimeError, match="one-dimensional"):
        torch.vander(torch.ones(2, 2))
