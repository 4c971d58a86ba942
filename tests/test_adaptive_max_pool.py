"""F.adaptive_max_pool1d/2d/3d (native/AdaptiveMaxPooling.cpp): the indices
(return_indices=True and nn.AdaptiveMaxPool*d(return_indices=True)), NaN,
ties, uneven bins, reduced precision, second derivatives, PyTorch's errors.
Values against numpy are the OpInfo records' (tests/opinfo/nn_ops.py)."""
import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import gradcheck, gradgradcheck


def test_indices_are_flat_positions_in_each_plane():
    x = torch.arange(16.0).reshape(1, 4, 4)
    values, indices = F.adaptive_max_pool2d(x, (3, None), return_indices=True)  # rows [0,2) [1,3) [2,4)
    assert values.tolist() == [[[4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]]
    assert indices.tolist() == [[[4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]]
    assert indices.dtype == torch.int64
    values, indices = F.adaptive_max_pool1d(torch.tensor([[0.0, 4.0, 1.0, 3.0, 2.0]]), 3, return_indices=True)
    assert values.tolist() == [[4.0, 4.0, 3.0]] and indices.tolist() == [[1, 1, 3]]
    v3, i3 = F.adaptive_max_pool3d(torch.arange(8.0).reshape(1, 2, 2, 2), 1, return_indices=True)
    assert v3.tolist() == [[[[7.0]]]] and i3.tolist() == [[[[7]]]]


def test_with_indices_spellings():
    x = torch.arange(24.0).reshape(2, 3, 4)
    for nd, arg in ((1, x), (2, x), (3, x.unsqueeze(0))):
        values, indices = getattr(F, f"adaptive_max_pool{nd}d_with_indices")(arg, 2)
        assert torch.equal(values, getattr(F, f"adaptive_max_pool{nd}d")(arg, 2)) and indices.dtype == torch.int64


def test_nan_wins_and_ties_keep_the_first():
    values, indices = F.adaptive_max_pool2d(torch.tensor([[[1.0, float("nan")], [3.0, 2.0]]]), 1,
                                            return_indices=True)
    assert values.isnan().all() and indices.tolist() == [[[1]]]
    values, indices = F.adaptive_max_pool2d(torch.tensor([[[5.0, 1.0], [5.0, 5.0]]]), 1, return_indices=True)
    assert values.tolist() == [[[5.0]]] and indices.tolist() == [[[0]]]


def test_modules_return_indices_and_unpool():
    x = torch.randn(2, 3, 8, 8)
    values, indices = nn.AdaptiveMaxPool2d(4, return_indices=True)(x)
    assert values.shape == indices.shape == (2, 3, 4, 4)
    assert torch.equal(x.flatten(2).gather(2, indices.flatten(2)).view_as(values), values)
    values1, indices1 = nn.AdaptiveMaxPool1d(3, return_indices=True)(torch.randn(2, 5))
    assert values1.shape == indices1.shape == (2, 3)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.float32])
def test_reduced_precision_keeps_its_dtype(dtype):
    x = torch.arange(36.0).reshape(1, 6, 6).to(dtype)
    values = F.adaptive_max_pool2d(x, 2)
    assert values.dtype == dtype and values.float().tolist() == [[[14.0, 17.0], [32.0, 35.0]]]


def test_empty_batch_and_empty_output():
    assert F.adaptive_max_pool2d(torch.ones(0, 2, 3, 3), 2).shape == (0, 2, 2, 2)
    assert F.adaptive_max_pool2d(torch.ones(1, 2, 3, 3), (0, 2)).shape == (1, 2, 0, 2)


@pytest.mark.parametrize("nd, shape, size", [(1, (2, 3, 7), 3), (2, (1, 2, 5, 4), (3, 2)), (3, (1, 2, 3, 3, 2), 2)])
def test_second_derivatives(nd, shape, size):
    x = torch.randn(*shape, dtype=torch.float64, requires_grad=True)
    fn = getattr(F, f"adaptive_max_pool{nd}d")
    assert gradcheck(lambda t: fn(t, size), (x,))
    assert gradgradcheck(lambda t: fn(t, size), (x,))


def test_a_negative_output_size_is_named():
    """This torch's own words (PyTorch 2.13: "Trying to create tensor with negative dimension -1")."""
    with pytest.raises(RuntimeError, match=r"adaptive_max_pool2d\(\): output_size must be non-negative"):
        F.adaptive_max_pool2d(torch.ones(1, 2, 3, 3), (-1, 2))


def test_node_names_are_pytorchs():
    x = torch.ones(1, 2, 3, 3, requires_grad=True)
    assert F.adaptive_max_pool2d(x, 2).grad_fn.name() == "AdaptiveMaxPool2DBackward0"
    assert F.adaptive_max_pool1d(x[0], 2).grad_fn.name() == "SqueezeBackward1"  # through the 2-D op, as PyTorch


@pytest.mark.parametrize("call, error, message", [
    (lambda: F.adaptive_max_pool2d(torch.ones(2, 3), 2), RuntimeError,
     r"adaptive_max_pool2d\(\): Expected 3D or 4D tensor, but got: \[2, 3\]"),
    (lambda: F.adaptive_max_pool2d(torch.ones(1, 0, 3, 3), 2), RuntimeError,
     r"adaptive_max_pool2d\(\): Expected input to have non-zero size for non-batch dimensions, but input has "
     r"sizes \[1, 0, 3, 3\] with dimension 1 being empty"),
    (lambda: F.adaptive_max_pool2d(torch.ones(1, 2, 3, 3, dtype=torch.long), 2), NotImplementedError,
     "\"adaptive_max_pool2d\" not implemented for 'Long'"),
    (lambda: torch._C._nn.adaptive_max_pool2d(torch.ones(1, 2, 3, 3), [2, 2, 2]), RuntimeError,
     "output_size.size\\(\\) must be 2"),
    (lambda: F.adaptive_max_pool3d(torch.ones(2, 3, 3), 2), RuntimeError, "Expected 4D or 5D tensor"),
    (lambda: F.adaptive_max_pool1d(torch.ones(2, 3, 3, 4), 2), RuntimeError,
     "Expected 2 to 3 dimensions, but got 4-dimensional tensor for argument #1 'self'"),
    (lambda: F.adaptive_max_pool1d(torch.ones(2, 0, 3), 2), RuntimeError,
     r"adaptive_max_pool1d\(\): Expected input to have non-zero size for non-batch dimensions"),
])
def test_errors_name_the_problem(call, error, message):
    with pytest.raises(error, match=message):
        call()
