"""torch.nn.utils.rnn: PackedSequence and its functions, and the recurrent
modules taking packed input. Values against PyTorch are in the oracle
(packed_sequences_through_rnns); these check the layout, the invariants and
the errors."""
import pytest
import torch
import torch.nn as nn
from torch.nn.utils.rnn import (
    PackedSequence, invert_permutation, pack_padded_sequence, pack_sequence, pad_packed_sequence, pad_sequence,
    unpack_sequence, unpad_sequence,
)


def test_packed_layout_and_round_trip():
    x = torch.arange(12.0).reshape(3, 4, 1)  # (T, B, 1): x[t, b] = 4 t + b
    packed = pack_padded_sequence(x, [1, 3, 2, 2], enforce_sorted=False)
    assert isinstance(packed, PackedSequence) and isinstance(packed, tuple)
    assert PackedSequence._fields == ("data", "batch_sizes", "sorted_indices", "unsorted_indices")
    assert packed.batch_sizes.tolist() == [4, 3, 1] and packed.batch_sizes.dtype == torch.int64
    assert packed.sorted_indices.tolist() == [1, 2, 3, 0] and packed.unsorted_indices.tolist() == [3, 0, 1, 2]
    assert packed.data.flatten().tolist() == [1, 2, 3, 0, 5, 6, 7, 9]
    padded, lengths = pad_packed_sequence(packed, padding_value=-1.0)
    assert lengths.tolist() == [1, 3, 2, 2]
    expected = x.clone()
    for b, n in enumerate([1, 3, 2, 2]):
        expected[n:, b] = -1.0
    assert torch.equal(padded, expected)
    padded, _ = pad_packed_sequence(packed, batch_first=True, total_length=5)
    assert padded.shape == (4, 5, 1)


def test_pad_unpad_pack_unpack_sequences():
    seqs = [torch.ones(2, 3), 2 * torch.ones(4, 3), 3 * torch.ones(1, 3)]
    padded = pad_sequence(seqs, batch_first=True)
    assert padded.shape == (3, 4, 3) and padded[0, 2:].abs().sum() == 0
    left = pad_sequence(seqs, padding_side="left", padding_value=9.0)
    assert left.shape == (4, 3, 3) and left[:2, 0].eq(9).all() and left[2:, 0].eq(1).all()
    assert [s.shape[0] for s in unpad_sequence(padded, torch.tensor([2, 4, 1]), batch_first=True)] == [2, 4, 1]
    back = unpack_sequence(pack_sequence(seqs, enforce_sorted=False))
    assert all(torch.equal(a, b) for a, b in zip(back, seqs))
    assert invert_permutation(torch.tensor([2, 0, 1])).tolist() == [1, 2, 0] and invert_permutation(None) is None


def test_packing_is_differentiable():
    x = torch.randn(3, 2, 2, requires_grad=True)
    packed = pack_padded_sequence(x, [3, 1])
    pad_packed_sequence(packed)[0].sum().backward()
    assert x.grad[:, 0].eq(1).all() and x.grad[0, 1].eq(1).all() and x.grad[1:, 1].eq(0).all()
    seqs = [torch.randn(n, 2, requires_grad=True) for n in (2, 3)]
    pad_sequence(seqs).sum().backward()
    assert all(s.grad.eq(1).all() for s in seqs)


@pytest.mark.parametrize("mode", ["LSTM", "GRU", "RNN"])
@pytest.mark.parametrize("bidirectional", [False, True])
def test_packed_rnn_equals_each_sequence_alone(mode, bidirectional):
    torch.manual_seed(0)
    m = getattr(nn, mode)(3, 5, num_layers=2, bidirectional=bidirectional).double()
    lengths = [4, 1, 6, 3]
    seqs = [torch.randn(n, 3, dtype=torch.float64) for n in lengths]
    out, h = m(pack_sequence(seqs, enforce_sorted=False))
    assert isinstance(out, PackedSequence)
    padded, got_lengths = pad_packed_sequence(out)
    assert got_lengths.tolist() == lengths
    h_n = h[0] if mode == "LSTM" else h
    for b, s in enumerate(seqs):
        alone, h_alone = m(s.unsqueeze(1))
        assert torch.allclose(padded[:len(s), b], alone[:, 0], atol=1e-12)
        assert padded[len(s):, b].abs().sum() == 0
        assert torch.allclose(h_n[:, b], (h_alone[0] if mode == "LSTM" else h_alone)[:, 0], atol=1e-12)


def test_errors_as_pytorch():
    x = torch.randn(3, 4, 2)
    with pytest.raises(RuntimeError, match=r"Expected `len\(lengths\)` to be equal to batch_size, but got 3 \(batch_size=4\)"):
        pack_padded_sequence(x, [3, 3, 2])
    with pytest.raises(RuntimeError, match="must be sorted in decreasing order when `enforce_sorted` is True"):
        pack_padded_sequence(x, [1, 3, 2, 2])
    with pytest.raises(RuntimeError, match="Length of all samples has to be greater than 0"):
        pack_padded_sequence(x, [3, 0, 2, 1], enforce_sorted=False)
    with pytest.raises(RuntimeError, match="'lengths' argument should be a 1D CPU int64 tensor, but got 2D cpu Long"):
        pack_padded_sequence(x, torch.tensor([[3, 2, 1, 1]]))
    with pytest.raises(RuntimeError, match="longer than the padded batch.s 3 steps"):  # PyTorch 2.13 does not check this
        pack_padded_sequence(x, [5, 3, 2, 1])
    packed = pack_padded_sequence(x, [3, 2, 2, 1])
    with pytest.raises(ValueError, match="Expected total_length to be at least the length of the longest sequence"):
        pad_packed_sequence(packed, total_length=2)
    with pytest.raises(RuntimeError, match="received an empty list of sequences"):
        pad_sequence([])
    with pytest.raises(RuntimeError, match="received an empty list of sequences"):
        pack_sequence([])
    with pytest.raises(ValueError, match="Expected padding_side to be one of left or right"):
        pad_sequence([torch.ones(2)], padding_side="middle")
    with pytest.raises(RuntimeError, match="input.size\\(-1\\) must be equal to input_size. Expected 3, got 2"):
        nn.LSTM(3, 4)(packed)
    assert packed.double().data.dtype == torch.float64 and packed.to(torch.float64).batch_sizes is packed.batch_sizes
