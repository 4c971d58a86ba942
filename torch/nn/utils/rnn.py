"""Variable-length batches for the recurrent modules: PackedSequence and the
functions that make and undo it, as PyTorch's torch.nn.utils.rnn.

A PackedSequence holds the steps of every sequence in time order, each step
holding only the sequences still running: sorted by decreasing length, step
t holds the first batch_sizes[t] of them. Packing is one boolean-mask index
of the time-major padded batch (the mask's row-major order is exactly that
layout), and padding is the same mask's index_put, so both are single
differentiable ops.
"""
from collections import namedtuple

import torch

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence", "pad_sequence",
           "unpad_sequence", "pack_sequence", "unpack_sequence"]

_PackedSequence = namedtuple("PackedSequence_", ["data", "batch_sizes", "sorted_indices", "unsorted_indices"])


def invert_permutation(permutation):
    """The permutation that undoes `permutation` (None stays None)."""
    if permutation is None:
        return None
    output = torch.empty_like(permutation)
    output.scatter_(0, permutation, torch.arange(0, permutation.numel(), device=permutation.device))
    return output


class PackedSequence(_PackedSequence):
    """data: (sum of lengths, *); batch_sizes: int64 CPU tensor, one entry per
    time step; sorted_indices / unsorted_indices: the batch order packing used
    and its inverse (None when the batch was already sorted)."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is not None:
            if batch_sizes.device.type != "cpu":
                raise ValueError("batch_sizes should always be on CPU. Instances of PackedSequence should never be "
                                 "created manually. They should be instantiated by functions like pack_sequence and "
                                 "pack_padded_sequences in nn.utils.rnn. "
                                 "https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence")
            return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)
        if not isinstance(data, (list, tuple)) or len(data) != 2:
            raise TypeError("PackedSequence(data, batch_sizes, ...): batch_sizes is required")
        return super().__new__(cls, data[0], data[1], sorted_indices, unsorted_indices)

    def _with_data(self, data):
        return type(self)(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def to(self, *args, **kwargs):
        """data moves and converts as Tensor.to says; the indices follow it to its device."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        move = (lambda t: None if t is None else t.to(data.device))
        return type(self)(data, self.batch_sizes, move(self.sorted_indices), move(self.unsorted_indices))

    def cuda(self, *args, **kwargs):
        return self.to(torch.device("cuda") if not args and "device" not in kwargs else
                       torch.device("cuda", args[0]) if args and isinstance(args[0], int) else args[0] if args
                       else kwargs["device"])

    def cpu(self):
        return self.to("cpu")

    def double(self):
        return self.to(dtype=torch.float64)

    def float(self):
        return self.to(dtype=torch.float32)

    def half(self):
        return self.to(dtype=torch.float16)

    def bfloat16(self):
        return self.to(dtype=torch.bfloat16)

    def long(self):
        return self.to(dtype=torch.int64)

    def int(self):
        return self.to(dtype=torch.int32)

    def short(self):
        return self.to(dtype=torch.int16)

    def char(self):
        return self.to(dtype=torch.int8)

    def byte(self):
        return self.to(dtype=torch.uint8)

    @property
    def is_cuda(self):
        return self.data.is_cuda

    def is_pinned(self):
        return self.data.is_pinned()


def _lengths_tensor(lengths):
    if isinstance(lengths, torch.Tensor):
        if lengths.dim() != 1 or lengths.device.type != "cpu" or lengths.dtype != torch.int64:
            kind = {torch.int64: "Long", torch.int32: "Int", torch.float32: "Float", torch.float64: "Double"}.get(
                lengths.dtype, str(lengths.dtype))
            device = "cpu" if lengths.device.type == "cpu" else str(lengths.device)
            if lengths.dim() == 1 and lengths.device.type == "cpu" and not lengths.dtype.is_floating_point:
                return lengths.to(torch.int64)
            raise RuntimeError(f"'lengths' argument should be a 1D CPU int64 tensor, but got {lengths.dim()}D "
                               f"{device} {kind} tensor")
        return lengths
    return torch.as_tensor(lengths, dtype=torch.int64)


def _step_mask(lengths, steps):
    """(steps, batch) bool: step t of sequence b exists."""
    return torch.arange(steps).unsqueeze(1) < lengths.unsqueeze(0)


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Packs a padded batch (T, B, *) (or (B, T, *) with batch_first) of sequences of the given lengths."""
    lengths = _lengths_tensor(lengths)
    if enforce_sorted:
        if lengths.numel() > 1 and bool((lengths[1:] > lengths[:-1]).any()):
            raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. "
                               "You can pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to "
                               "sidestep this requirement if you do not need ONNX exportability.")
        sorted_indices = None
    else:
        lengths, sorted_indices = torch.sort(lengths, descending=True)
        sorted_indices = sorted_indices.to(input.device)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    if batch_first:
        input = input.transpose(0, 1)
    if input.dim() < 2:
        raise ValueError(f"pack_padded_sequence: expected a padded batch of at least 2 dims, got {input.dim()}")
    steps, batch = input.shape[0], input.shape[1]
    if lengths.numel() != batch:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got {lengths.numel()} "
                           f"(batch_size={batch})")
    if batch and int(lengths.min()) <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' that "
                           "is <= 0")
    if batch and int(lengths.max()) > steps:
        raise RuntimeError(f"pack_padded_sequence: a length of {int(lengths.max())} is longer than the padded "
                           f"batch's {steps} steps")
    longest = int(lengths[0]) if batch else 0
    mask = _step_mask(lengths, longest).to(input.device)
    data = input[:longest][mask]
    batch_sizes = mask.sum(1).cpu() if batch else torch.zeros(0, dtype=torch.int64)
    return PackedSequence(data, batch_sizes.to(torch.int64), sorted_indices, None)


def _lengths_of(batch_sizes):
    """Each sequence's length, in packed (sorted) order, from the per-step counts."""
    batch = int(batch_sizes[0]) if batch_sizes.numel() else 0
    return (torch.arange(batch).unsqueeze(0) < batch_sizes.unsqueeze(1)).sum(0)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """Undoes pack_padded_sequence: (padded batch, lengths), in the original batch order."""
    data, batch_sizes = sequence.data, sequence.batch_sizes
    steps = batch_sizes.numel()
    if total_length is not None:
        if total_length < steps:
            raise ValueError("Expected total_length to be at least the length of the longest sequence in input, "
                             f"but got total_length={total_length} and max sequence length being {steps}")
    else:
        total_length = steps
    lengths = _lengths_of(batch_sizes)
    batch = lengths.numel()
    mask = _step_mask(lengths, total_length).to(data.device)
    padded = torch.full((total_length, batch, *data.shape[1:]), padding_value, dtype=data.dtype, device=data.device)
    padded = padded.index_put((mask,), data)
    if sequence.unsorted_indices is not None:
        padded = padded.index_select(1, sequence.unsorted_indices)
        lengths = lengths[sequence.unsorted_indices.cpu()]
    if batch_first:
        padded = padded.transpose(0, 1)
    return padded, lengths


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """Stacks tensors of shape (L_i, *) into (max L, B, *) (or (B, max L, *)), padding each sequence's end
    (padding_side="left": its start)."""
    if padding_side not in ("left", "right"):
        raise ValueError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    if isinstance(sequences, torch.Tensor):
        sequences = sequences.unbind(0)
    sequences = list(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    longest = max(s.shape[0] for s in sequences)
    trailing = sequences[0].shape[1:]
    for s in sequences:
        if s.shape[1:] != trailing:
            raise RuntimeError(f"The size of tensor a ({s.shape[-1]}) must match the size of tensor b "
                               f"({trailing[-1] if trailing else 0}) at non-singleton dimension 1")
    out = torch.full((len(sequences), longest, *trailing), padding_value, dtype=sequences[0].dtype,
                     device=sequences[0].device)
    # One differentiable op: every sequence's steps go where the mask says.
    lengths = torch.tensor([s.shape[0] for s in sequences])
    positions = torch.arange(longest).unsqueeze(0)
    mask = positions < lengths.unsqueeze(1) if padding_side == "right" else positions >= (longest - lengths).unsqueeze(1)
    out = out.index_put((mask.to(out.device),), torch.cat(sequences))
    return out if batch_first else out.transpose(0, 1)


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """Undoes pad_sequence: the list of unpadded tensors."""
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    return [seq[:int(n)] for seq, n in zip(padded_sequences, _lengths_tensor(lengths))]


def pack_sequence(sequences, enforce_sorted=True):
    """Packs a list of tensors of shape (L_i, *)."""
    if not len(sequences):
        raise RuntimeError("received an empty list of sequences")
    lengths = torch.as_tensor([s.shape[0] for s in sequences], dtype=torch.int64)
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """Undoes pack_sequence: the list of tensors."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
