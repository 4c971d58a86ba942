"""torch.memory_format: the dense layouts a tensor's strides can take, and the
memory_format= arguments that choose one, as PyTorch has them.

- contiguous_format: row-major strides; channels_last (4-D, NHWC order in
  memory) and channels_last_3d (5-D, NDHWC);
- preserve_format, the default of clone and the *_like factories: a dense
  tensor keeps its strides, any other keeps the order of its dims in memory
  (PyTorch's infer_dense_strides).

The layouts come from two native ops, _empty_strided (memory of one's own,
not a view) and _clone_strided (a copy into given strides, CloneBackward0).
Not here: ops other than these do not propagate a layout to their results
(PyTorch's TensorIterator gives an elementwise op of a channels_last tensor
a channels_last result; ours is contiguous, with the same values), and to()
without memory_format= returns contiguous copies.
"""
import torch


class memory_format:
    __slots__ = ("_name",)

    def __new__(cls, *args, **kwargs):
        raise TypeError("cannot create 'torch.memory_format' instances")

    def __repr__(self):
        return f"torch.{self._name}"

    def __reduce__(self):  # pickles as the one instance
        return (_by_name, (self._name,))


memory_format.__module__ = "torch"


def _by_name(name):
    return globals()[name]


def _make(name):
    fmt = object.__new__(memory_format)
    fmt._name = name
    return fmt


contiguous_format = _make("contiguous_format")
preserve_format = _make("preserve_format")
channels_last = _make("channels_last")
channels_last_3d = _make("channels_last_3d")

# The order of dims from the innermost out, and the rank each format needs.
_CHANNELS_LAST = {channels_last: (4, (1, 3, 2, 0)), channels_last_3d: (5, (1, 4, 3, 2, 0))}


def _check(fmt, op):
    if not isinstance(fmt, memory_format):
        raise TypeError(f"{op}(): argument 'memory_format' must be torch.memory_format, not {type(fmt).__name__}")
    return fmt


def _channels_last_strides(sizes, fmt):
    rank, order = _CHANNELS_LAST[fmt]
    if len(sizes) != rank:
        raise RuntimeError(f"required rank {rank} tensor to use {fmt._name} format")
    strides, step = [0] * rank, 1
    for d in order:  # as c10's get_channels_last_strides: no max(size, 1)
        strides[d] = step
        step *= sizes[d]
    return tuple(strides)


def _is_channels_last(sizes, strides, fmt):
    rank, order = _CHANNELS_LAST[fmt]
    if len(sizes) != rank:
        return False
    expected = 1
    for d in order:
        if sizes[d] != 1:
            if strides[d] != expected:
                return False
            expected *= sizes[d]
    return True


def _non_overlapping_and_dense(sizes, strides):
    if len(sizes) == 1:
        return sizes[0] < 2 or strides[0] == 1
    dims = sorted((d for d in range(len(sizes)) if sizes[d] >= 2), key=lambda d: strides[d])
    expected = 1
    for d in dims:
        if strides[d] != expected:
            return False
        expected *= sizes[d]
    return True


def _dense_strides_keeping_order(sizes, strides):
    """PyTorch's infer_dense_strides: dense strides with the dims in the order
    their strides give (TensorIterator's stable insertion sort: a 0 stride
    compares as ambiguous and stays put; equal strides put the smaller size
    inside)."""
    ndim = len(sizes)
    if ndim == 0:
        return ()
    if ndim == 1:
        return (1,)
    perm = list(range(ndim - 1, -1, -1))

    def should_swap(d0, d1):
        s0, s1 = strides[d0], strides[d1]
        if s0 == 0 or s1 == 0:
            return 0
        if s0 != s1:
            return -1 if s0 < s1 else 1
        return 1 if sizes[d0] > sizes[d1] else 0

    for i in range(1, ndim):
        d1 = i
        for j in range(1, i + 1):
            d0 = i - j
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    out, step = [0] * ndim, 1
    for d in perm:
        out[d] = step
        if sizes[d] > 1:
            step *= sizes[d]
    return tuple(out)


def _contiguous_strides(sizes):
    strides, step = [0] * len(sizes), 1
    for d in range(len(sizes) - 1, -1, -1):
        strides[d] = step
        step *= max(sizes[d], 1)
    return tuple(strides)


def _plainly_contiguous(t):
    """Contiguous, with the strides the native ops give a copy. Where a dim
    has size 0 or 1, is_contiguous() ignores strides that preserve_format
    keeps: those are compared one by one."""
    if not t.is_contiguous():
        return False
    shape = t.shape
    if 1 not in shape and 0 not in shape:
        return True
    expected = 1
    for n, st in zip(reversed(shape), reversed(t.stride())):
        if st != expected:
            return False
        expected *= max(n, 1)
    return True


def _target_strides(t, fmt):
    """The strides memory_format fmt gives a copy of t; None where they are
    contiguous ones (the native ops' own layout)."""
    if fmt is preserve_format:
        if _plainly_contiguous(t):
            return None
        sizes, strides = tuple(t.shape), t.stride()
        # Dense as c10's TensorImpl judges it: contiguous ones (every empty
        # tensor among them) keep even the strides of their 0- and 1-sized dims.
        if t.is_contiguous() or _non_overlapping_and_dense(sizes, strides):
            return strides
        strides = _dense_strides_keeping_order(sizes, strides)
        return None if strides == _contiguous_strides(sizes) else strides  # the native clone is quicker
    if fmt is contiguous_format:
        return None
    return _channels_last_strides(tuple(t.shape), fmt)


def _relayout(result, strides, fill=True):
    """result (a fresh contiguous tensor) in the given strides: copied, or for
    empty_like (fill=False) only allocated."""
    if strides is None:
        return result
    with torch.no_grad():
        out = torch._empty_strided(tuple(result.shape), strides, dtype=result.dtype, device=result.device)
        if fill:
            out.copy_(result)
    return out.requires_grad_() if result.requires_grad else out


def _wrap_like(native):
    fill = native.__name__ != "empty_like"

    def like(input, *args, memory_format=preserve_format, **kwargs):
        if memory_format is None:
            memory_format = preserve_format
        if memory_format is preserve_format and (not isinstance(input, torch.Tensor) or _plainly_contiguous(input)):
            return native(input, *args, **kwargs)
        strides = _target_strides(input, _check(memory_format, native.__name__))
        return _relayout(native(input, *args, **kwargs), strides, fill)
    like.__name__ = like.__qualname__ = native.__name__
    like.__doc__ = getattr(native, "__doc__", None)
    return like


def install(torch_module):
    Tensor = torch_module.Tensor
    native_clone = torch_module.clone

    def clone(input, *, memory_format=preserve_format):
        if memory_format is None:
            memory_format = preserve_format
        if not isinstance(input, Tensor) or memory_format is preserve_format and _plainly_contiguous(input):
            return native_clone(input)  # which raises PyTorch's TypeError for a non-tensor
        strides = _target_strides(input, _check(memory_format, "clone"))
        return native_clone(input) if strides is None else torch_module._clone_strided(input, strides)

    native_is_contiguous = Tensor.is_contiguous

    def is_contiguous(self, *, memory_format=contiguous_format):
        if memory_format is contiguous_format or memory_format is preserve_format:
            return native_is_contiguous(self)
        _check(memory_format, "is_contiguous")
        return _is_channels_last(tuple(self.shape), self.stride(), memory_format)

    native_contiguous = Tensor.contiguous

    def contiguous(self, *, memory_format=contiguous_format):
        if memory_format is contiguous_format:
            return native_contiguous(self)
        if _check(memory_format, "contiguous") is preserve_format:
            if native_is_contiguous(self):
                return self
            raise RuntimeError("preserve memory format is unsupported by the contiguous operator")
        strides = _channels_last_strides(tuple(self.shape), memory_format)
        return self if _is_channels_last(tuple(self.shape), self.stride(), memory_format) else \
            torch_module._clone_strided(self, strides)

    native_to = Tensor.to

    def to(self, *args, memory_format=None, **kwargs):
        if memory_format is None or _check(memory_format, "to") is preserve_format:
            strides = None if _plainly_contiguous(self) else _target_strides(self, preserve_format)
            if strides is None:
                return native_to(self, *args, **kwargs)
            # The conversion runs over the input in its memory order (a
            # permuted view that is contiguous where the input is dense), and
            # its result, permuted back, has the strides preserve_format gives:
            # one pass in memory order, and a graph through permute and to.
            order = sorted(range(self.dim()), key=lambda d: -strides[d])
            inverse = [0] * len(order)
            for i, d in enumerate(order):
                inverse[d] = i
            permuted = self.permute(order)
            result = native_to(permuted, *args, **kwargs)
            return self if result is permuted else result.permute(inverse)
        return contiguous(native_to(self, *args, **kwargs), memory_format=memory_format)

    native_empty = torch_module.empty

    def empty(*size, memory_format=None, **kwargs):
        if memory_format is None or memory_format is contiguous_format:
            return native_empty(*size, **kwargs)
        if _check(memory_format, "empty") is preserve_format:
            raise RuntimeError("unsupported memory format Preserve")
        result = native_empty(*size, **kwargs)
        out = torch_module._empty_strided(tuple(result.shape), _channels_last_strides(tuple(result.shape),
                                                                                       memory_format),
                                          dtype=result.dtype, device=result.device)
        return out.requires_grad_() if result.requires_grad else out

    for fn in (clone, empty):
        fn.__doc__ = getattr(torch_module, fn.__name__).__doc__
    for fn in (clone, is_contiguous, contiguous, to, empty):
        fn.__qualname__ = fn.__name__  # "clone() takes ...", not "install.<locals>.clone()"
    Tensor.clone, torch_module.clone = clone, clone
    Tensor.is_contiguous, Tensor.contiguous, Tensor.to = is_contiguous, contiguous, to
    torch_module.empty = empty
    for name in ("empty_like", "zeros_like", "ones_like", "full_like", "rand_like", "randn_like", "randint_like"):
        setattr(torch_module, name, _wrap_like(getattr(torch_module, name)))
