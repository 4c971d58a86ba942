"""embedding_bag's native op (aten/src/ATen/native/EmbeddingBag.cpp): its
four results, its gradients, its checks, and the inputs PyTorch 2.13 crashes
on (no bags at all, then backward). The values against numpy for every mode
are in test_nn_breadth.py."""
import numpy as np
import pytest
import torch
import torch.nn.functional as F


def _table(rows=6, dim=3, dtype=torch.float64):
    return torch.tensor(np.random.default_rng(rows * dim).standard_normal((rows, dim)), dtype=dtype, requires_grad=True)


def test_torch_embedding_bag_returns_bag_numbers_sizes_and_max_winners():
    w = torch.tensor([[1.0, 9.0], [5.0, 2.0], [3.0, 3.0], [0.0, 0.0]])
    idx, offsets = torch.tensor([0, 1, 2, 3, 1]), torch.tensor([0, 2, 2])
    out, offset2bag, bag_size, max_indices = torch.embedding_bag(w, idx, offsets, False, 2)
    assert torch.equal(out, torch.tensor([[5.0, 9.0], [0.0, 0.0], [5.0, 3.0]]))
    assert offset2bag.tolist() == [0, 0, 2, 2, 2]
    assert bag_size.tolist() == [2, 0, 3]
    assert max_indices.tolist() == [[1, 0], [-1, -1], [1, 2]]
    # padding_idx (given as PyTorch allows, negative) leaves index 3 out of the mean.
    out, _, bag_size, _ = torch.embedding_bag(w, idx, offsets, False, 1, False, None, False, -1)
    assert bag_size.tolist() == [2, 0, 2]
    assert torch.equal(out[2], torch.tensor([4.0, 2.5]))
    # As PyTorch binds it: padding_idx only with every argument before it given.
    with pytest.raises(TypeError):
        torch.embedding_bag(w, idx, offsets, False, 1, padding_idx=3)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_no_bags_at_all_then_backward(mode):
    """Empty offsets, or include_last_offset with one offset: an empty
    [0, dim] result whose gradient is zeros (PyTorch 2.13 segfaults here)."""
    w = _table()
    for offsets, last in [(torch.tensor([], dtype=torch.int64), False), (torch.tensor([0]), True)]:
        out = F.embedding_bag(torch.tensor([1, 2, 3]), w, offsets, mode=mode, include_last_offset=last)
        assert out.shape == (0, 3)
        out.sum().backward()
        assert torch.equal(w.grad, torch.zeros(6, 3, dtype=torch.float64))
    out = F.embedding_bag(torch.tensor([], dtype=torch.int64), w, torch.tensor([0, 0]), mode=mode)
    assert torch.equal(out, torch.zeros(2, 3, dtype=torch.float64))


def test_max_gradient_goes_to_each_elements_winning_row():
    w = torch.tensor([[1.0, 9.0], [5.0, 2.0], [3.0, 3.0]], requires_grad=True)
    out = F.embedding_bag(torch.tensor([0, 1, 2, 2]), w, torch.tensor([0, 3]), mode="max")
    out.backward(torch.tensor([[10.0, 20.0], [1.0, 2.0]]))
    assert w.grad.tolist() == [[0.0, 20.0], [10.0, 0.0], [1.0, 2.0]]


def test_per_sample_weights_gradient_is_the_bag_gradient_dotted_with_the_row():
    w = _table()
    psw = torch.tensor([0.5, -1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
    idx, offsets = torch.tensor([1, 4, 4, 0]), torch.tensor([0, 1])
    g = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]], dtype=torch.float64)
    F.embedding_bag(idx, w, offsets, mode="sum", per_sample_weights=psw, padding_idx=0).backward(g)
    rows = w.detach()[idx]
    want = (g[[0, 1, 1, 1]] * rows).sum(1)
    want[3] = 0.0  # the padding index
    assert torch.allclose(psw.grad, want)
    want_w = torch.zeros(6, 3, dtype=torch.float64)
    want_w[1] += 0.5 * g[0]
    want_w[4] += (-1.0 + 2.0) * g[1]
    assert torch.allclose(w.grad, want_w)


@pytest.mark.parametrize("mode", ["sum", "mean"])
def test_scale_grad_by_freq_divides_by_each_index_count_in_the_batch(mode):
    """The documented meaning (and F.embedding's in PyTorch): the gradient
    of an index over how often it appears. PyTorch 2.13's embedding_bag
    divides by another index's count on the CPU."""
    w = _table(5, 2)
    idx, offsets = torch.tensor([1, 1, 2, 1, 3, 3]), torch.tensor([0, 2, 3])
    F.embedding_bag(idx, w, offsets, mode=mode, scale_grad_by_freq=True).sum().backward()
    scaled = w.grad.clone()
    w.grad = None
    F.embedding_bag(idx, w, offsets, mode=mode).sum().backward()
    counts = torch.tensor([1.0, 3.0, 1.0, 2.0, 1.0], dtype=torch.float64).unsqueeze(1)
    assert torch.allclose(scaled, w.grad / counts)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_reduced_precision_tables_accumulate_in_float(dtype):
    w = torch.full((2, 4), 0.1).to(dtype)
    idx = torch.zeros(4096, dtype=torch.int64)
    out = F.embedding_bag(idx, w, torch.tensor([0]), mode="sum")
    assert out.dtype == dtype
    # Summed in float16 the running total would stall far below 409.6.
    assert torch.allclose(out.float(), torch.full((1, 4), 4096 * w[0, 0].float().item()), rtol=1e-2)


def test_int32_indices_offsets_and_a_transposed_table():
    w = torch.randn(3, 4).t()  # [4, 3], not contiguous
    got = F.embedding_bag(torch.tensor([3, 0, 1], dtype=torch.int32), w, torch.tensor([0, 1], dtype=torch.int32))
    assert torch.allclose(got, torch.stack([w[3], (w[0] + w[1]) / 2]))


@pytest.mark.parametrize("call, error, match", [
    (lambda w: F.embedding_bag(torch.tensor([1, 2]), w, torch.tensor([1])), RuntimeError, "offsets\\[0\\] has to be 0"),
    (lambda w: F.embedding_bag(torch.tensor([1, 2]), w, torch.tensor([0, 3])), RuntimeError,
     "offsets\\[-1\\] can not be greater than input's length 2 but got offsets\\[-1\\] of 3"),
    (lambda w: F.embedding_bag(torch.tensor([1, 2, 3]), w, torch.tensor([0, 2, 1])), RuntimeError,
     "offsets must be non-decreasing"),
    (lambda w: F.embedding_bag(torch.tensor([1, 6]), w, torch.tensor([0])), RuntimeError,
     "index 6 \\(at position 1\\) is out of range for a weight of 6 rows"),
    (lambda w: F.embedding_bag(torch.tensor([-1]), w, torch.tensor([0])), RuntimeError, "index -1"),
    (lambda w: F.embedding_bag(torch.tensor([1.0]), w, torch.tensor([0])), RuntimeError,
     "argument #1 'indices' to have one of the following scalar types: Long, Int"),
    (lambda w: F.embedding_bag(torch.tensor([1]), w, torch.tensor([0.0])), RuntimeError,
     "argument #2 'offsets' to have one of the following scalar types: Long, Int"),
    (lambda w: F.embedding_bag(torch.tensor([1]), w.int(), torch.tensor([0])), RuntimeError,
     "argument #1 'weight' to have one of the following scalar types: Half, BFloat16, Float, Double"),
    (lambda w: F.embedding_bag(torch.tensor([1]), w, torch.tensor([0]), mode="sum",
                               per_sample_weights=torch.ones(1)), RuntimeError,
     "'weight' to have the same type as tensor for argument #1 'per_sample_weights'"),
    (lambda w: F.embedding_bag(torch.tensor([1, 2]), w, torch.tensor([0]), mode="sum",
                               per_sample_weights=torch.ones(3, dtype=torch.float64)), ValueError,
     "must have the same shape as the input"),
    (lambda w: F.embedding_bag(torch.tensor([1]), w, torch.tensor([0]), sparse=True), NotImplementedError,
     "sparse gradients are not supported"),
    (lambda w: F.embedding_bag(torch.tensor([1]), w, torch.tensor([0]), max_norm=1.0), NotImplementedError,
     "max_norm is not supported"),
    (lambda w: F.embedding_bag(torch.tensor([1]), w, torch.tensor([0]), padding_idx=6), RuntimeError,
     "padding_idx must be within the number of embeddings, -6 through 5, but got 6"),
    (lambda w: F.embedding_bag(torch.tensor(1), w, torch.tensor([0])), ValueError,
     "input has to be 1D or 2D Tensor, but got Tensor of dimension 0"),
    (lambda w: F.embedding_bag(torch.tensor([1]), w[0], torch.tensor([0])), ValueError,
     "weight has to be a 2D Tensor, but got Tensor of dimension 1"),
    (lambda w: torch._embedding_bag(w, torch.tensor([1]), torch.tensor([0]), False, 3), RuntimeError,
     "mode has to be 0 \\(sum\\), 1 \\(mean\\) or 2 \\(max\\), but got 3"),
    (lambda w: torch._embedding_bag(w, torch.tensor([1]), torch.tensor([0]), False, 0, False, None, False, 9),
     RuntimeError, "padding_idx must be -1 \\(none\\) or within the number of embeddings"),
])
def test_bad_input_is_refused_before_any_read(call, error, match):
    with pytest.raises(error, match=match):
        call(_table())
