"""kthvalue, median and nanmedian (native quickselect, Selection.cpp),
unique_consecutive (one native pass) and signbit (a native predicate),
against numpy and PyTorch's documented behaviour: NaN, ties (the index a
stable sort gives), 0-d, empty, non-contiguous, every dtype, gradients."""
import math

import numpy as np
import pytest

import torch

NAN = float("nan")


def stable_kth(row, k):
    """(value, index) of the k-th smallest (1-based), NaN largest, ties by position."""
    order = sorted(range(len(row)), key=lambda i: (math.isnan(row[i]), 0 if math.isnan(row[i]) else row[i], i))
    return row[order[k - 1]], order[k - 1]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.int32, torch.uint8,
                                   torch.float16, torch.bfloat16])
def test_kthvalue_matches_a_stable_sort_along_each_dim(dtype):
    rng = np.random.default_rng(3)
    x = torch.from_numpy(rng.integers(0, 6, (5, 7, 4))).to(dtype)  # many ties
    for dim in (0, 1, 2, -1):
        n = x.shape[dim]
        for k in (1, (n + 1) // 2, n):
            values, indices = torch.kthvalue(x, k, dim)
            moved = x.movedim(dim, -1).reshape(-1, n).double().tolist()
            want = [stable_kth(r, k) for r in moved]
            assert values.double().reshape(-1).tolist() == [v for v, _ in want]
            assert indices.reshape(-1).tolist() == [i for _, i in want]
            assert values.dtype == dtype and indices.dtype == torch.int64


def test_kthvalue_keepdim_noncontiguous_and_0d():
    x = torch.arange(24.0).reshape(4, 6).t()  # non-contiguous
    values, indices = x.kthvalue(2, 1, keepdim=True)
    assert values.shape == (6, 1) and values.reshape(-1).tolist() == [6.0 + i for i in range(6)]
    assert indices.reshape(-1).tolist() == [1] * 6
    v, i = torch.kthvalue(torch.tensor(3.5), 1)
    assert v.item() == 3.5 and i.item() == 0 and v.dim() == 0
    assert torch.kthvalue(torch.empty(0, 3), 1, 1).values.shape == (0,)


def test_kthvalue_errors_name_the_problem():
    with pytest.raises(RuntimeError, match="selected number k out of range for dimension 0"):
        torch.kthvalue(torch.tensor([1.0, 2.0]), 3)
    with pytest.raises(RuntimeError, match="selected number k out of range"):
        torch.kthvalue(torch.tensor(1.0), 2)
    with pytest.raises(IndexError, match="Expected reduction dim 0 to have non-zero size"):
        torch.kthvalue(torch.empty(0), 1)
    with pytest.raises(NotImplementedError, match="kthvalue_cpu.*Bool"):
        torch.kthvalue(torch.tensor([True, False]), 1)
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.kthvalue(torch.tensor([1.0, 2.0]), 1, 3)


def test_median_with_nan_gives_the_first_nan():
    x = torch.tensor([[1.0, NAN, 3.0, NAN], [4.0, 1.0, 3.0, 2.0]])
    values, indices = torch.median(x, 1)
    assert math.isnan(values[0]) and indices[0].item() == 1
    assert values[1].item() == 2.0 and indices[1].item() == 3  # the lower of the two middle values
    assert math.isnan(torch.median(x).item())
    assert torch.median(x[1]).item() == 2.0


def test_nanmedian_skips_nan():
    x = torch.tensor([[1.0, NAN, 3.0, 0.5], [NAN, NAN, NAN, NAN]])
    values, indices = torch.nanmedian(x, 1)
    assert values[0].item() == 1.0 and indices[0].item() == 0
    assert math.isnan(values[1]) and indices[1].item() == 0
    assert torch.nanmedian(x).item() == 1.0
    assert math.isnan(torch.nanmedian(torch.empty(0)).item())


def test_median_edges():
    assert math.isnan(torch.median(torch.empty(0)).item())
    # An empty integer tensor's median is NaN as x86 converts it, as PyTorch's.
    assert torch.median(torch.empty(0, dtype=torch.int64)).item() == -(2**63)
    assert torch.median(torch.empty(0, dtype=torch.int32)).item() == -(2**31)
    assert torch.median(torch.empty(0, dtype=torch.int8)).item() == 0
    assert torch.median(torch.empty(0, dtype=torch.bool)).item() is True
    assert torch.median(torch.tensor([5, 3, 9, 1])).item() == 3
    assert torch.median(torch.tensor(2.5), 0).values.item() == 2.5
    assert torch.median(torch.empty(3, 0), 0).values.shape == (0,)
    with pytest.raises(IndexError, match="median\\(\\): Expected reduction dim 0 to have non-zero size"):
        torch.median(torch.empty(0, 3), 0)
    with pytest.raises(NotImplementedError, match="Bool"):
        torch.median(torch.tensor([True, False]))
    with pytest.raises(NotImplementedError, match="median_out.*Bool"):  # checked before the empty result
        torch.nanmedian(torch.empty(0, 3, dtype=torch.bool), 1)


def test_median_of_a_large_tensor_matches_numpy():
    x = np.random.default_rng(0).standard_normal(100_001).astype(np.float32)
    assert torch.from_numpy(x).median().item() == np.float32(np.median(x))
    rows = np.random.default_rng(1).standard_normal((300, 301))
    got = torch.from_numpy(rows).median(1).values.numpy()
    np.testing.assert_array_equal(got, np.median(rows, 1))


def test_gradients_go_to_the_selected_elements():
    x = torch.tensor([3.0, 1.0, 2.0, 1.0], requires_grad=True)
    torch.median(x).backward()  # shared by the equal elements, as PyTorch
    assert x.grad.tolist() == [0.0, 0.5, 0.0, 0.5]
    x = torch.tensor([[3.0, 1.0, 2.0, 4.0]], requires_grad=True)
    torch.kthvalue(x, 3, 1)[0].sum().backward()
    assert x.grad.tolist() == [[1.0, 0.0, 0.0, 0.0]]
    x = torch.tensor(2.0, requires_grad=True)  # 0-d over dim 0
    torch.median(x, 0).values.backward()
    assert x.grad.item() == 1.0
    x = torch.tensor([[1.0, NAN, 2.0]], requires_grad=True)
    torch.nanmedian(x, 1, keepdim=True).values.sum().backward()
    assert x.grad.tolist() == [[1.0, 0.0, 0.0]]


@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.bool, torch.float16])
def test_unique_consecutive_matches_its_definition(dtype):
    values = np.random.default_rng(2).integers(0, 3, 200)
    x = torch.from_numpy(values).to(dtype)
    uniq, inverse, counts = torch.unique_consecutive(x, return_inverse=True, return_counts=True)
    flat = x.tolist()
    runs = [i for i in range(len(flat)) if i == 0 or flat[i] != flat[i - 1]]
    assert uniq.tolist() == [flat[i] for i in runs]
    assert counts.tolist() == [b - a for a, b in zip(runs, runs[1:] + [len(flat)])]
    assert inverse.tolist() == [sum(1 for r in runs if r <= i) - 1 for i in range(len(flat))]
    assert uniq.dtype == dtype and inverse.dtype == counts.dtype == torch.int64


def test_unique_consecutive_shapes_and_nan():
    x = torch.tensor([[1.0, 1.0, NAN], [NAN, 2.0, 2.0]])
    uniq, inverse = torch.unique_consecutive(x, return_inverse=True)
    assert uniq.shape == (4,) and inverse.shape == (2, 3)  # each NaN a run of its own
    assert inverse.tolist() == [[0, 0, 1], [2, 3, 3]]
    assert torch.unique_consecutive(torch.empty(0)).shape == (0,)
    uniq, counts = torch.unique_consecutive(torch.tensor(7), return_counts=True)
    assert uniq.tolist() == [7] and counts.tolist() == [1]


def test_unique_consecutive_along_a_dim():
    x = torch.tensor([[1, 2], [1, 2], [3, 4], [1, 2]])
    uniq, inverse, counts = torch.unique_consecutive(x, return_inverse=True, return_counts=True, dim=0)
    assert uniq.tolist() == [[1, 2], [3, 4], [1, 2]] and inverse.tolist() == [0, 0, 1, 2] and counts.tolist() == [2, 1, 1]
    uniq, inverse, counts = x.unique_consecutive(True, True, dim=1)
    assert uniq.tolist() == x.tolist() and inverse.tolist() == [0, 1] and counts.tolist() == [1, 1]
    nan = torch.tensor([[NAN], [NAN]])
    assert torch.unique_consecutive(nan, dim=0).shape == (2, 1)  # NaN equals nothing
    uniq, inverse, counts = torch.unique_consecutive(torch.empty(0, 3), return_inverse=True, return_counts=True, dim=0)
    assert uniq.shape == (0, 3) and inverse.shape == (0,) and counts.shape == (0,)
    with pytest.raises(RuntimeError, match="aren't selected"):
        torch.unique_consecutive(torch.empty(0, 3), dim=1)
    with pytest.raises(RuntimeError, match="more than one"):
        torch.unique_consecutive(torch.empty(0, 0), dim=1)
    with pytest.raises(IndexError, match="no dimensions"):
        torch.unique_consecutive(torch.tensor(3), dim=0)
    with pytest.raises(IndexError, match="Dimension out of range"):
        torch.unique_consecutive(x, dim=2)


def test_unique_consecutive_returns_what_pytorchs_dispatch_returns():
    # torch/functional.py reads return_inverse at position 2 and return_counts at position 1.
    x = torch.tensor([1.0, 1.0, 2.0, 3.0, 3.0])
    uniq, counts = torch.unique_consecutive(x, True)
    assert uniq.tolist() == [1.0, 2.0, 3.0] and counts.shape == (0,)
    assert len(torch.unique_consecutive(x, True, True)) == 3
    assert torch.unique_consecutive(x, False, True)[1].shape == (0,)
    assert torch.unique_consecutive(x, return_inverse=True)[1].tolist() == [0, 0, 1, 2, 2]
    assert torch.unique_consecutive(x, True, return_counts=True)[1].tolist() == [2, 1, 2]
    assert x.unique_consecutive(True)[1].tolist() == [0, 0, 1, 2, 2]  # the method passes flags by name


def test_signbit_reads_the_sign_bit():
    x = torch.tensor([-0.0, 0.0, -1.5, 2.0, float("-inf"), float("inf"), NAN, -NAN])
    want = np.signbit(x.numpy()).tolist()
    for dtype in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
        assert torch.signbit(x.to(dtype)).tolist() == want
        assert x.to(dtype).signbit().dtype == torch.bool
    assert torch.signbit(torch.tensor([-3, 0, 4])).tolist() == [True, False, False]
    assert torch.signbit(torch.tensor([0, 255], dtype=torch.uint8)).tolist() == [False, False]
    assert torch.signbit(torch.tensor([True, False])).tolist() == [False, False]
    out = torch.empty(8, dtype=torch.bool)
    assert torch.signbit(x, out=out) is out and out.tolist() == want
    big = torch.randn(100_003)[::2]  # non-contiguous, past one block
    assert torch.equal(big.signbit(), big < 0)


def test_sorts_of_rows_longer_than_the_kept_scratch_then_shorter_ones():
    # Each thread keeps its radix scratch up to 2^18 elements and frees
    # larger: a long sort, short ones after it, rows across threads, and
    # int64 keys that differ in their high bytes only.
    rng = np.random.default_rng(9)
    for n in (300_000, 1000, 2**18, 5):
        x = torch.from_numpy(rng.integers(-2**40, 2**40, n))
        values, order = x.sort()
        np.testing.assert_array_equal(values.numpy(), np.sort(x.numpy()))
        assert torch.equal(x[order], values)
    rows = torch.from_numpy(rng.standard_normal((64, 3000)).astype(np.float32))
    np.testing.assert_array_equal(rows.sort(dim=1)[0].numpy(), np.sort(rows.numpy(), axis=1))
    high = torch.tensor([3 << 48, 1 << 48, 2 << 48, 1 << 48] * 20)
    assert torch.equal(high.sort(stable=True)[1][:40], torch.arange(1, 80, 2))  # the 1 << 48s, in order
