"""torch.unique and Tensor.unique against numpy.unique: values
sorted, the inverse shaped as the input, counts; every dtype a sort takes,
0-d, empty and non-contiguous inputs; NaNs each their own value, as in
PyTorch; unique slices along a dim; and PyTorch's answer to backward."""
import numpy as np
import pytest

import torch


@pytest.mark.parametrize("dtype", [torch.int64, torch.int32, torch.uint8, torch.int8, torch.float32, torch.float64,
                                   torch.float16, torch.bool])
def test_values_inverse_and_counts_match_numpy(dtype):
    rng = np.random.default_rng(0)
    raw = rng.integers(-20, 20, (37, 11))
    x = torch.tensor(raw).to(dtype)
    values, inverse, counts = torch.unique(x, return_inverse=True, return_counts=True)
    want, want_inverse, want_counts = np.unique(x.numpy(), return_inverse=True, return_counts=True)
    np.testing.assert_array_equal(values.numpy(), want)
    assert values.dtype == dtype and inverse.dtype == counts.dtype == torch.int64
    assert inverse.shape == x.shape
    np.testing.assert_array_equal(inverse.numpy().reshape(-1), want_inverse.reshape(-1))
    np.testing.assert_array_equal(counts.numpy(), want_counts)
    assert torch.equal(values[inverse], x)


def test_the_flags_choose_the_outputs():
    x = torch.tensor([3, 1, 3, 2, 1])
    assert torch.equal(torch.unique(x), torch.tensor([1, 2, 3]))
    values, counts = torch.unique(x, return_counts=True)
    assert counts.tolist() == [2, 1, 2]
    values, inverse = x.unique(return_inverse=True)
    assert inverse.tolist() == [2, 0, 2, 1, 0]
    assert torch.equal(x.unique(sorted=False), torch.tensor([1, 2, 3]))  # sorted either way, as PyTorch's CPU


def test_nan_is_never_equal_to_another_nan():
    x = torch.tensor([1.0, float("nan"), 1.0, float("nan"), -0.0, 0.0])
    values, inverse, counts = torch.unique(x, return_inverse=True, return_counts=True)
    assert values.shape == (4,) and values[:2].tolist() == [0.0, 1.0] and values[2:].isnan().all()
    assert counts.tolist() == [2, 2, 1, 1]
    assert inverse.tolist()[:3] == [1, inverse[1].item(), 1] and inverse[1] != inverse[3]


def test_zero_dim_empty_and_strided():
    values, inverse, counts = torch.unique(torch.tensor(5.0), return_inverse=True, return_counts=True)
    assert values.tolist() == [5.0] and inverse.shape == () and inverse.item() == 0 and counts.tolist() == [1]
    values, inverse, counts = torch.unique(torch.empty(0, 3), return_inverse=True, return_counts=True)
    assert values.shape == (0,) and inverse.shape == (0, 3) and counts.shape == (0,)
    x = torch.arange(24).reshape(4, 6) % 5
    t = x.t()
    values, inverse = torch.unique(t, return_inverse=True)
    assert torch.equal(values[inverse], t)


def test_backward_is_refused_as_in_pytorch():
    x = torch.tensor([2.0, 1.0, 2.0], requires_grad=True)
    values = torch.unique(x)
    assert values.requires_grad
    with pytest.raises(RuntimeError, match="derivative for .*_unique2.* is not implemented"):
        values.sum().backward()


@pytest.mark.parametrize("dim", [0, 1, -1, 2])
def test_unique_slices_along_a_dim_match_numpy(dim):
    rng = np.random.default_rng(3)
    x = torch.tensor(rng.integers(0, 2, (6, 4, 3)))
    values, inverse, counts = torch.unique(x, dim=dim, return_inverse=True, return_counts=True)
    want, want_inverse, want_counts = np.unique(x.numpy(), axis=dim, return_inverse=True, return_counts=True)
    np.testing.assert_array_equal(values.numpy(), want)
    np.testing.assert_array_equal(inverse.numpy(), want_inverse.reshape(-1))
    np.testing.assert_array_equal(counts.numpy(), want_counts)
    assert torch.equal(values.index_select(dim, inverse), x)
    assert torch.equal(x.unique(dim=dim), values)


def test_unique_along_a_dim_of_empty_tensors_as_pytorch():
    values, inverse, counts = torch.unique(torch.empty(0, 3), dim=0, return_inverse=True, return_counts=True)
    assert values.shape == (0, 3) and inverse.shape == (0,) and counts.shape == (0,)
    with pytest.raises(RuntimeError, match="aren't selected"):
        torch.unique(torch.empty(2, 0), dim=0)


def test_unique_along_a_dim_puts_slices_with_nan_last_and_keeps_each_apart():
    # PyTorch's comparator treats NaN as equal to everything, which is no
    # order at all (its result then depends on the sort's path, and a
    # distinct slice can come out twice); ours is torch.sort's: NaN after
    # every number, and == keeps each slice with NaN a run of its own.
    nan = float("nan")
    x = torch.tensor([[1.0, nan], [0.0, 2.0], [1.0, nan], [0.0, 2.0], [1.0, 1.0]])
    values, inverse, counts = torch.unique(x, dim=0, return_inverse=True, return_counts=True)
    assert torch.allclose(values, torch.tensor([[0.0, 2.0], [1.0, 1.0], [1.0, nan], [1.0, nan]]), equal_nan=True)
    assert inverse.tolist() == [2, 0, 3, 0, 1] and counts.tolist() == [2, 1, 1, 1]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bool, torch.uint8, torch.int32])
def test_unique_along_a_dim_of_many_slices_matches_numpy(dtype):
    rng = np.random.default_rng(5)
    x = torch.tensor(rng.integers(0, 2, (3, 5000, 4))).to(dtype)
    values, inverse, counts = torch.unique(x, dim=1, return_inverse=True, return_counts=True)
    want, want_inverse, want_counts = np.unique(x.numpy(), axis=1, return_inverse=True, return_counts=True)
    np.testing.assert_array_equal(values.numpy(), want)
    np.testing.assert_array_equal(inverse.numpy(), want_inverse.reshape(-1))
    np.testing.assert_array_equal(counts.numpy(), want_counts)
    assert values.dtype == dtype
