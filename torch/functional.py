"""torch.<name> functions written in Python on top of the generated ones."""
import torch
from torch import _C
from torch._einsum import einsum  # noqa: F401  (torch.functional.einsum, as in PyTorch)

_F = _C._VariableFunctions


def split(tensor, split_size_or_sections, dim=0):
    """Splits into chunks of `split_size_or_sections` (an int) or of the given sizes (a list)."""
    return tensor.split(split_size_or_sections, dim)  # as PyTorch: a non-tensor fails on the attribute


def unbind(tensor, dim=0):
    """The slices along `dim`, as a tuple of views."""
    dim = dim + tensor.dim() if dim < 0 else dim
    if not 0 <= dim < max(tensor.dim(), 1) or tensor.dim() == 0:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-tensor.dim()}, "
                         f"{tensor.dim() - 1}], but got {dim})")
    if tensor.shape[dim] == 0:
        return ()
    # Views of one split: its backward is one cat of the slices' gradients,
    # where a select each wrote its slice into a zeroed copy of the whole.
    return tuple(t.squeeze(dim) for t in tensor.split(1, dim))


def index_put_(input, indices, values, accumulate=False):
    """input[indices] = values in place (added to what is there with accumulate=True,
    repeated indices included); `indices` holds a tensor or None per leading dim."""
    return input._index_put_(tuple(indices), values, bool(accumulate))


def index_put(input, indices, values, accumulate=False):
    """index_put_ on a copy of input."""
    return input.clone()._index_put_(tuple(indices), values, bool(accumulate))


def movedim(tensor, source, destination):
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({src} dims) should contain the "
                           f"same number of dims as destination ({dst} dims)")
    n = tensor.dim()
    src = [d % n if -n <= d < n else _dim_error(d, n) for d in src]
    dst = [d % n if -n <= d < n else _dim_error(d, n) for d in dst]
    order = [None] * n
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(d for d in range(n) if d not in src)
    return tensor.permute([o if o is not None else next(rest) for o in order])


def _dim_error(d, n):
    raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")


def isclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    if input.dtype != other.dtype:
        raise RuntimeError(f"{input.dtype} did not match {other.dtype}")
    if rtol < 0:
        raise RuntimeError(f"rtol must be greater than or equal to zero, but got {rtol}")
    if atol < 0:
        raise RuntimeError(f"atol must be greater than or equal to zero, but got {atol}")
    # PyTorch's rule: equal values (infinities included) are close; otherwise
    # the difference must be finite and within atol + rtol * |other|.
    close = input == other
    if equal_nan and input.is_floating_point():
        close = close | (input.isnan() & other.isnan())
    if rtol == 0 and atol == 0:
        return close
    if not input.is_floating_point():
        input, other = input.to(torch.get_default_dtype()), other.to(torch.get_default_dtype())
    error = (input - other).abs()
    return close | (error.isfinite() & (error <= atol + (rtol * other).abs()))


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(isclose(input, other, rtol, atol, equal_nan).all())


def is_tensor(obj):
    return isinstance(obj, torch.Tensor)


def is_floating_point(input):
    return input.is_floating_point()


def numel(input):
    return input.numel()


def as_tensor(data, dtype=None, device=None):
    """data itself when it is already a tensor of that dtype and device; else a new tensor."""
    if isinstance(data, torch.Tensor):
        return data.to(device=device if device is not None else data.device, dtype=dtype or data.dtype)
    if type(data).__module__ == "numpy" and hasattr(data, "dtype") and dtype is None and device is None:
        try:
            return torch.from_numpy(data)
        except (TypeError, ValueError):
            pass
    return torch.tensor(data, dtype=dtype, device=device)


def bernoulli(input, p=None):
    """1 with probability `input` (or p), else 0, in input's dtype."""
    if p is not None:
        return torch.empty_like(input).bernoulli_(p)
    prob = input
    if bool(((prob < 0) | (prob > 1)).any()):
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.")
    return (torch.rand_like(input, dtype=torch.float64 if input.dtype == torch.float64 else torch.float32)
            < prob).to(input.dtype)


def normal(mean, std=1.0, size=None, *, out=None, dtype=None, device=None):
    if isinstance(mean, torch.Tensor) or isinstance(std, torch.Tensor):
        ref = mean if isinstance(mean, torch.Tensor) else std
        shape = torch.broadcast_shapes(tuple(mean.shape) if isinstance(mean, torch.Tensor) else (),
                                       tuple(std.shape) if isinstance(std, torch.Tensor) else ())
        if isinstance(std, torch.Tensor) and bool((std < 0).any()):
            raise RuntimeError("normal expects all elements of std >= 0.0")
        return torch.randn(shape, dtype=ref.dtype, device=ref.device) * std + mean
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std}")
    if size is None:
        raise TypeError("normal() with float mean and std needs a size")
    return torch.randn(size, dtype=dtype, device=device) * std + mean


def meshgrid(*tensors, indexing="ij"):
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing not in ("ij", "xy"):
        raise ValueError(f"torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: {indexing}")
    swap = indexing == "xy" and len(tensors) >= 2
    if swap:
        tensors = (tensors[1], tensors[0]) + tuple(tensors[2:])
    shape = tuple(t.numel() for t in tensors)
    grids = [t.reshape((1,) * i + (-1,) + (1,) * (len(tensors) - i - 1)).expand(shape) for i, t in enumerate(tensors)]
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)


def broadcast_shapes(*shapes):
    """The shape that tensors of these shapes broadcast to (RuntimeError if they do not)."""
    result = []
    for shape in shapes:
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        for i, n in enumerate(reversed(shape)):
            if i == len(result):
                result.insert(0, n)
            elif result[-1 - i] == 1:
                result[-1 - i] = n
            elif n != 1 and n != result[-1 - i]:
                raise RuntimeError(f"Shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
                                   f"between {list(shapes[0])} and {list(shape)}")
    return torch.Size(result)


def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    """The norm of input, as PyTorch's torch.norm: 'fro' (or None) and numbers
    are vector norms over dim, another string a matrix norm (torch.linalg)."""
    import torch.linalg as linalg

    if input.layout == torch.strided:  # the attribute first, as PyTorch: norm(None) is an AttributeError
        _dim = [dim] if isinstance(dim, int) else dim
        if isinstance(p, str):
            if p == "fro" and (dim is None or isinstance(dim, int) or len(dim) <= 2):
                return linalg.vector_norm(input, 2, _dim, keepdim, dtype=dtype, out=out)
            if _dim is None:
                _dim = list(range(input.dim()))
            return linalg.matrix_norm(input, p, _dim, keepdim, dtype=dtype, out=out)
        return linalg.vector_norm(input, 2.0 if p is None else p, _dim, keepdim, dtype=dtype, out=out)


def _atleast(op):
    def atleast(*tensors):
        # PyTorch's forms: one tensor gives a tensor; several, or one sequence, a tuple.
        if len(tensors) == 1:
            if isinstance(tensors[0], torch.Tensor):
                return op(tensors[0])
            tensors = tuple(tensors[0])
        return tuple(op(t) for t in tensors)

    atleast.__name__ = atleast.__qualname__ = op.__name__
    atleast.__doc__ = f"{op.__name__}(*tensors): each input viewed with at least {op.__name__[-2]} dimensions."
    return atleast


atleast_1d = _atleast(_F.atleast_1d)
atleast_2d = _atleast(_F.atleast_2d)
atleast_3d = _atleast(_F.atleast_3d)


def broadcast_tensors(*tensors):
    """The tensors expanded to their common broadcast shape (views)."""
    return tuple(_F.broadcast_tensors(tensors))


def _check_strided(layout):
    if layout is not None and layout != torch.strided:
        raise RuntimeError(f"only support layout=torch.strided, got{layout}")


def triu_indices(row, col, offset=0, *, dtype=torch.int64, device=None, layout=None):
    """The (row, column) indices of the upper triangle of a row x col matrix, in row-major order."""
    _check_strided(layout)
    return _F.triu_indices(row, col, offset, dtype=dtype, device=device)


def tril_indices(row, col, offset=0, *, dtype=torch.int64, device=None, layout=None):
    """The (row, column) indices of the lower triangle of a row x col matrix, in row-major order."""
    _check_strided(layout)
    return _F.tril_indices(row, col, offset, dtype=dtype, device=device)
