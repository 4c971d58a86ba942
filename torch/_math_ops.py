"""torch functions and Tensor methods composed in Python from the ops of
native_functions.yaml (the products with a bias, addmv, addbmm, baddbmm and
addr, are native: LinearAlgebra.cpp): NaN-aware and order statistics (nanmean, quantile, mode; nansum, median and
kthvalue are native: ReduceOps.cpp, Selection.cpp),
cumprod's out= (logcumsumexp is native: ReduceOps.cpp), index updates
(the *_scatter ops), counting (unique picks _unique2 or
unique_dim; bucketize and searchsorted add out=), and the
smaller helpers. Their gradients come from the ops they call; tests/oracle
compares values and gradients with PyTorch 2.13. install() binds them as
PyTorch spells them (torch.f, Tensor.f, Tensor.f_)."""
import collections
import functools
import math

import torch
from torch import return_types as _return_types


def _named(name, fields):
    cls = collections.namedtuple(name, fields)
    cls.__module__ = "torch.return_types"
    cls.__repr__ = _return_types._repr  # PyTorch's layout, as the native ones
    return cls


_aminmax_t = _named("aminmax", ("min", "max"))
_values_indices = {n: _named(n, ("values", "indices")) for n in ("mode",)}
_frexp_t = _named("frexp", ("mantissa", "exponent"))
_slogdet_t = _named("slogdet", ("sign", "logabsdet"))
_qr_t = _named("qr", ("Q", "R"))
_svd_t = _named("svd", ("U", "S", "V"))


def _out(result, out):
    if out is None:
        return result
    return out.resize_(result.shape).copy_(result)


def _inplace(fn):
    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        result = fn(self, *args, **kwargs)
        if result.dtype != self.dtype and not (result.is_floating_point() and self.is_floating_point()):
            if torch.promote_types(result.dtype, self.dtype) != self.dtype:
                raise RuntimeError(f"result type {_dtype_name(result.dtype)} can't be cast to the desired output "
                                   f"type {_dtype_name(self.dtype)}")
        return self.copy_(result)
    method.__name__ = fn.__name__ + "_"
    return method


def _dtype_name(dtype):
    return {torch.float32: "Float", torch.float64: "Double", torch.float16: "Half", torch.bfloat16: "BFloat16",
            torch.int64: "Long", torch.int32: "Int", torch.int16: "Short", torch.int8: "Char", torch.uint8: "Byte",
            torch.bool: "Bool"}[dtype]


def inner(input, other, *, out=None):
    if input.dim() == 0 or other.dim() == 0:
        return _out(input * other, out)
    if input.shape[-1] != other.shape[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but got shapes "
                           f"{list(input.shape)} and {list(other.shape)}")
    return _out(torch.tensordot(input, other, ([-1], [-1])), out)


def tensordot(a, b, dims=2, out=None):
    if isinstance(dims, int):
        dims_a, dims_b = list(range(a.dim() - dims, a.dim())), list(range(dims))
    elif isinstance(dims, torch.Tensor):
        dims = dims.tolist()
        dims_a, dims_b = ([dims[0]], [dims[1]]) if isinstance(dims[0], int) else (dims[0], dims[1])
    else:
        dims_a, dims_b = ([dims[0]], [dims[1]]) if isinstance(dims[0], int) else (list(dims[0]), list(dims[1]))
    dims_a = [d % a.dim() for d in dims_a]
    dims_b = [d % b.dim() for d in dims_b]
    free_a = [d for d in range(a.dim()) if d not in dims_a]
    free_b = [d for d in range(b.dim()) if d not in dims_b]
    size = 1
    for d in dims_a:
        size *= a.shape[d]
    left = a.permute(free_a + dims_a).reshape(-1, size)
    right = b.permute(dims_b + free_b).reshape(size, -1)
    result = (left @ right).reshape([a.shape[d] for d in free_a] + [b.shape[d] for d in free_b])
    return _out(result, out)


def kron(input, other, *, out=None):
    nd = max(input.dim(), other.dim())
    a = input.reshape((1,) * (nd - input.dim()) + tuple(input.shape))
    b = other.reshape((1,) * (nd - other.dim()) + tuple(other.shape))
    interleaved_a, interleaved_b = [], []
    for i in range(nd):
        interleaved_a += [a.shape[i], 1]
        interleaved_b += [1, b.shape[i]]
    result = a.reshape(interleaved_a) * b.reshape(interleaved_b)
    return _out(result.reshape([a.shape[i] * b.shape[i] for i in range(nd)]), out)


def vdot(input, other, *, out=None):
    if input.dim() != 1 or other.dim() != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.dim()}D and {other.dim()}D tensors")
    return _out(torch.dot(input, other), out)


def dist(input, other, p=2):
    return torch.linalg.vector_norm(input - other, p)


def cross(input, other, dim=None, *, out=None):
    if dim is None:
        shape = torch.broadcast_shapes(input.shape, other.shape)
        candidates = [i for i, s in enumerate(shape) if s == 3]
        if not candidates:
            raise RuntimeError(f"no dimension of size 3 in input")
        dim = candidates[0]
    return _out(torch.linalg.cross(input, other, dim=dim), out)


def clamp_min(input, min):
    return torch.clamp(input, min=min)


def clamp_max(input, max):
    return torch.clamp(input, max=max)


def positive(input):
    if input.dtype == torch.bool:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


def isneginf(input, *, out=None):
    return _out(input.isinf() & (input < 0) if input.is_floating_point() else torch.zeros_like(input, dtype=torch.bool),
                out)


def isposinf(input, *, out=None):
    return _out(input.isinf() & (input > 0) if input.is_floating_point() else torch.zeros_like(input, dtype=torch.bool),
                out)


def isreal(input):
    return torch.ones_like(input, dtype=torch.bool)


def nansum(input, dim=None, keepdim=False, *, dtype=None, out=None):
    # The native op (NaN as 0 in the sum's own pass); this adds out=.
    return _out(torch._C._VariableFunctions.nansum(input, dim, keepdim, dtype=dtype), out)


def nanmean(input, dim=None, keepdim=False, *, dtype=None, out=None):
    if not input.is_floating_point():
        raise RuntimeError(f"nanmean(): expected input to have floating point or complex dtype but got "
                           f"{_dtype_name(input.dtype)}")
    count = (~input.isnan()).sum() if dim is None else (~input.isnan()).sum(dim, keepdim=keepdim)
    return _out(nansum(input, dim, keepdim, dtype=dtype) / count, out)


def count_nonzero(input, dim=None):
    nonzero = input != 0
    return nonzero.sum() if dim is None else nonzero.sum(dim)


def float_power(input, exponent, *, out=None):
    base = input.to(torch.float64) if isinstance(input, torch.Tensor) else input
    power = exponent.to(torch.float64) if isinstance(exponent, torch.Tensor) else exponent
    return _out(torch.pow(base, power), out)


def floor_divide(input, other, *, out=None):
    return _out(torch.div(input, other, rounding_mode="floor"), out)


def ldexp(input, other, *, out=None):
    return _out(input * torch.pow(2.0, other), out)


def msort(input, *, out=None):
    return _out(input.sort(0).values, out)


def argwhere(input):
    return input.nonzero()


def nonzero(input, *, out=None, as_tuple=False):
    """The indices of the nonzero elements: a [count, dims] tensor, or with
    as_tuple=True one index tensor per dim (the native nonzero_numpy, which
    Python reaches as where(condition), as in PyTorch)."""
    if as_tuple:
        if out is not None:
            raise RuntimeError("nonzero(as_tuple=True) takes no out= argument")
        return tuple(torch._C._VariableFunctions.where(input))  # where(condition): the native nonzero_numpy
    result = torch._C._VariableFunctions.nonzero(input)
    return result if out is None else out.resize_(result.shape).copy_(result)


def aminmax(input, *, dim=None, keepdim=False):
    if dim is None:
        return _aminmax_t(input.amin(), input.amax()) if not keepdim else _aminmax_t(
            input.amin(list(range(input.dim())), keepdim=True), input.amax(list(range(input.dim())), keepdim=True))
    return _aminmax_t(input.amin(dim, keepdim), input.amax(dim, keepdim))


def cumprod(input, dim, *, dtype=None, out=None):
    # The native op (one pass per line, an exact gradient through zeros); this adds out=.
    return _out(torch._C._VariableFunctions.cumprod(input, dim, dtype=dtype), out)


def quantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None, _ignore_nan=False):
    if interpolation not in ("linear", "lower", "higher", "midpoint", "nearest"):
        raise ValueError(f"quantile() interpolation must be one of linear, lower, higher, midpoint or nearest. Got "
                         f"{interpolation}")
    if not input.is_floating_point():
        raise RuntimeError(f"quantile() input tensor must be either float or double dtype")
    scalar_q = not isinstance(q, torch.Tensor)
    qt = torch.tensor(q, dtype=input.dtype) if scalar_q else q.to(input.dtype)
    if bool(((qt < 0) | (qt > 1)).any()):
        raise RuntimeError("quantile() q values must be in the range [0, 1]")
    x = input.reshape(-1) if dim is None else input.movedim(dim, -1)
    values = x.sort(-1).values
    n = x.shape[-1]
    valid = (~values.isnan()).sum(-1, keepdim=True) if _ignore_nan else torch.full(values.shape[:-1] + (1,), n)
    qs = qt.reshape(-1)
    results = []
    for qv in qs:
        pos = qv * (valid.to(input.dtype) - 1)
        lo = pos.floor().clamp(min=0).to(torch.int64)
        hi = pos.ceil().clamp(min=0).to(torch.int64)
        a, b = values.gather(-1, lo.clamp(max=max(n - 1, 0))), values.gather(-1, hi.clamp(max=max(n - 1, 0)))
        frac = pos - lo.to(input.dtype)
        if interpolation == "linear":
            r = a + (b - a) * frac
        elif interpolation == "lower":
            r = a
        elif interpolation == "higher":
            r = b
        elif interpolation == "midpoint":
            r = (a + b) / 2
        else:
            r = torch.where(frac <= 0.5, a, b) if True else a
            rounded = pos.round().to(torch.int64)
            r = values.gather(-1, rounded.clamp(max=max(n - 1, 0)))
        if not _ignore_nan:
            r = torch.where(values.isnan().any(-1, keepdim=True), torch.full_like(r, math.nan), r)
        else:
            r = torch.where(valid == 0, torch.full_like(r, math.nan), r)
        results.append(r.squeeze(-1))
    result = torch.stack(results, 0)
    if keepdim:
        if dim is None:
            result = result.reshape((result.shape[0],) + (1,) * input.dim())
        else:
            result = result.unsqueeze(dim % input.dim() + 1)
    if scalar_q or qt.dim() == 0:
        result = result.squeeze(0)
    return _out(result, out)


def nanquantile(input, q, dim=None, keepdim=False, *, interpolation="linear", out=None):
    return quantile(input, q, dim, keepdim, interpolation=interpolation, out=out, _ignore_nan=True)


def mode(input, dim=-1, keepdim=False):
    dim = dim % max(input.dim(), 1)
    if input.dim() == 0:
        return _values_indices["mode"](input.clone(), torch.zeros((), dtype=torch.int64, device=input.device))
    n = input.shape[dim]
    if n == 0:
        raise IndexError(f"mode(): Expected reduction dim {dim} to have non-zero size.")
    values, indices = input.sort(stable=True, dim=dim)
    x = values.movedim(dim, -1)
    idx = indices.movedim(dim, -1)
    same = x[..., 1:] == x[..., :-1]
    if x.is_floating_point():
        same = same | (x[..., 1:].isnan() & x[..., :-1].isnan())  # NaNs make one run, as in PyTorch
    equal_prev = torch.cat([torch.zeros_like(x[..., :1], dtype=torch.bool), same], -1)
    # The length of the run of equal values ending at each position: its
    # distance from the run's start, the last position that differs from its
    # predecessor (a running max).
    pos = torch.arange(n, device=x.device).expand(x.shape)
    start = torch.where(equal_prev, torch.zeros_like(pos), pos).cummax(-1).values
    run = pos - start + 1
    best = run.max(-1, keepdim=True).values
    # The smallest value with the longest run; its index is the last occurrence, as PyTorch's CPU kernel.
    first_best = (run == best).to(torch.int64).argmax(-1, keepdim=True)
    value = x.gather(-1, first_best).squeeze(-1)
    index = idx.gather(-1, first_best).squeeze(-1)
    if keepdim:
        value, index = value.unsqueeze(dim), index.unsqueeze(dim)
    return _values_indices["mode"](value, index)


def _index_shape(index, dim, like):
    shape = [1] * like.dim()
    shape[dim] = -1
    return index.reshape(shape).expand(*[like.shape[d] if d != dim else index.numel() for d in range(like.dim())])


def _scatter_into(input, src, view):
    result = input.clone()
    view(result).copy_(src)
    return result


def select_scatter(input, src, dim, index):
    return _scatter_into(input, src, lambda t: t.select(dim, index))


def slice_scatter(input, src, dim=0, start=None, end=None, step=1):
    index = (slice(None),) * (dim % input.dim()) + (slice(start, end, step),)
    return _scatter_into(input, src, lambda t: t[index])


def diagonal_scatter(input, src, offset=0, dim1=0, dim2=1):
    return _scatter_into(input, src, lambda t: t.diagonal(offset, dim1, dim2))


def narrow_copy(input, dim, start, length):
    return input.narrow(dim, start, length).clone(memory_format=torch.contiguous_format)  # as PyTorch's


def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """Each slice along `dim` repeated: an index_select whose index is built
    natively (an expanded arange for a number, a searchsorted over the
    counts' running sums for a tensor), with PyTorch's checks."""
    if repeats is None:  # torch.repeat_interleave(repeats): indices repeated by their counts
        counts = input
        return torch.arange(counts.numel(), device=counts.device).repeat_interleave(counts)
    x = input.reshape(-1) if dim is None else input
    d = 0 if dim is None else dim % max(x.dim(), 1)
    n = x.shape[d] if x.dim() else 1
    if not isinstance(repeats, torch.Tensor):
        r = int(repeats)
        if r < 0:
            raise RuntimeError("Repeats must be non-negative")
        if x.dim():
            # One strided copy of an expanded view, as PyTorch does (ViewBackward0 in a graph);
            # a new tensor even for r = 1, where a reshape would hand back x's own memory.
            grouped = (*x.shape[:d + 1], r, *x.shape[d + 1:])
            out = torch.empty(grouped, dtype=x.dtype, device=x.device)
            out.copy_(x.unsqueeze(d + 1).expand(grouped))
            shape = list(x.shape)
            shape[d] *= r
            return out.view(shape)
        index = torch.arange(n, device=x.device).unsqueeze(1).expand(n, r).reshape(-1)
        return x.index_select(d, index)
    if repeats.dim() > 1:
        raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
    if repeats.is_floating_point() or repeats.dtype == torch.bool:
        raise NotImplementedError(f"\"repeat_interleave_cpu\" not implemented for '{_dtype_name(repeats.dtype)}'")
    counts = repeats.reshape(1).expand(n) if repeats.numel() == 1 else repeats
    if counts.numel() != n:
        raise RuntimeError(f"repeats must have the same size as input along dim, but got repeats.size(0) = "
                           f"{counts.numel()} and input.size({d}) = {n}")
    if n and bool((counts < 0).any()):
        raise RuntimeError("repeats can not be negative")
    ends = counts.to(torch.int64).cumsum(0)
    total = int(ends[-1]) if n else 0
    index = torch.searchsorted(ends, torch.arange(total, device=x.device), right=True)
    return x.index_select(d, index)


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    if dim is not None:
        uniq, inverse, counts = torch._C._VariableFunctions.unique_dim(input, dim, sorted, return_inverse,
                                                                       return_counts)
    elif input.device.type == "cpu":
        uniq, inverse, counts = torch._C._VariableFunctions._unique2(input, sorted, return_inverse, return_counts)
    else:
        uniq, inverse, counts = _unique_composed(input)
    out = [uniq]
    if return_inverse:
        out.append(inverse)
    if return_counts:
        out.append(counts)
    return out[0] if len(out) == 1 else tuple(out)


def _unique_composed(input):
    """unique's three outputs from native ops, for devices without _unique2."""
    flat = input.reshape(-1)
    values, order = flat.sort()
    if flat.numel() == 0:
        uniq, inverse, counts = values, torch.zeros_like(input, dtype=torch.int64), torch.zeros(0, dtype=torch.int64)
    else:
        new = torch.cat([torch.ones(1, dtype=torch.bool), values[1:] != values[:-1]])
        uniq = values[new]
        group = new.to(torch.int64).cumsum(0) - 1
        inverse = torch.empty_like(group).scatter(0, order, group).reshape(input.shape)
        counts = torch.zeros(uniq.numel(), dtype=torch.int64).scatter_add(0, group, torch.ones_like(group))
    return uniq, inverse, counts


def unique_consecutive(*args, **kwargs):
    """The native op (one pass; slices along dim), returning what PyTorch's
    boolean dispatch returns, quirk included (torch/functional.py): whether
    the inverse is returned is read from the second flag's position (index 2)
    and the counts from the first's (index 1), while the op computes with the
    arguments as given, so unique_consecutive(x, True) is (values, empty
    counts)."""
    def flag(name, index):
        return kwargs[name] if name in kwargs else (args[index] if index < len(args) else False)

    uniq, inverse, counts = _unique_consecutive_all(*args, **kwargs)
    with_inverse, with_counts = flag("return_inverse", 2), flag("return_counts", 1)
    if with_inverse and with_counts:
        return uniq, inverse, counts
    if with_inverse:
        return uniq, inverse
    return (uniq, counts) if with_counts else uniq


def _unique_consecutive_all(input, return_inverse=False, return_counts=False, dim=None):
    return torch._C._VariableFunctions.unique_consecutive(input, return_inverse, return_counts, dim)


def _unique_consecutive_method(self, return_inverse=False, return_counts=False, dim=None):
    """Tensor.unique_consecutive passes its flags by name, as PyTorch's."""
    return unique_consecutive(self, return_inverse=return_inverse, return_counts=return_counts, dim=dim)

def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None, out=None):
    # The native op (a binary search per value); this adds out=.
    result = torch._C._VariableFunctions.searchsorted(sorted_sequence, input, out_int32=out_int32, right=right,
                                                      side=side, sorter=sorter)
    return _out(result, out)


def bucketize(input, boundaries, *, out_int32=False, right=False, out=None):
    result = torch._C._VariableFunctions.bucketize(input, boundaries, out_int32=out_int32, right=right)
    return _out(result, out)


def isin(elements, test_elements, *, assume_unique=False, invert=False):
    e = torch.as_tensor(elements)
    t = torch.as_tensor(test_elements).reshape(-1)
    if t.numel() == 0:
        result = torch.zeros_like(e, dtype=torch.bool)
    elif e.numel() * t.numel() <= 1 << 16:  # small: one broadcast comparison
        result = (e.unsqueeze(-1) == t).any(-1)
    else:
        # Memory linear in both: each element's place among the sorted tests, then one comparison there.
        common = torch.result_type(e, t)
        ordered = t.to(common).sort().values
        flat = e.to(common).reshape(-1)
        at = torch.searchsorted(ordered, flat).clamp_(max=ordered.numel() - 1)
        result = (ordered[at] == flat).reshape(e.shape)
    return ~result if invert else result


def frexp(input, *, out=None):
    """The native frexp; this adds out=(mantissa, exponent)."""
    result = torch._C._VariableFunctions.frexp(input)
    if out is None:
        return result
    mantissa, exponent = out
    mantissa.resize_(result.mantissa.shape).copy_(result.mantissa)
    exponent.resize_(result.exponent.shape).copy_(result.exponent)
    return _frexp_t(mantissa, exponent)


def cov(input, *, correction=1, fweights=None, aweights=None):
    x = input if input.dim() == 2 else input.reshape(1, -1)
    if not x.is_floating_point():
        x = x.to(torch.get_default_dtype())
    w = None
    if fweights is not None:
        w = fweights.to(x.dtype)
    if aweights is not None:
        w = aweights.to(x.dtype) if w is None else w * aweights
    n = x.shape[1]
    if w is None:
        mean = x.mean(1, keepdim=True)
        norm = n - correction
    else:
        w_sum = w.sum()
        mean = (x * w).sum(1, keepdim=True) / w_sum
        norm = w_sum - correction * ((w * aweights).sum() / w_sum if aweights is not None else 1)
    centred = x - mean
    weighted = centred * w if w is not None else centred
    result = weighted @ centred.T / norm
    return result.squeeze() if input.dim() < 2 else result


def corrcoef(input):
    c = cov(input)
    if c.dim() == 0:
        return c / c
    d = c.diagonal()
    std = d.sqrt()
    return (c / std.unsqueeze(1) / std.unsqueeze(0)).clamp(-1, 1)


_CDIST_MODES = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist")


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """Pairwise p-norm distances between the rows of x1 and x2 (batched).
    p = 2 goes through one matrix product, as PyTorch's does where asked or
    where either side has more than 25 rows: |x|^2 - 2 x.y + |y|^2 (clamped
    at 0); other p take the norm of every difference."""
    for name, x in (("X1", x1), ("X2", x2)):
        if x.dim() < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {x.dim()}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}")
    for name, x in (("X1", x1), ("X2", x2)):
        if not x.is_floating_point():
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: {_dtype_name(x.dtype)}")
    if x1.dtype != x2.dtype:
        raise RuntimeError(f"expected scalar type {_dtype_name(x1.dtype)} but found {_dtype_name(x2.dtype)}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if compute_mode not in _CDIST_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    use_mm = p == 2 and (compute_mode == _CDIST_MODES[1] or (
        compute_mode == _CDIST_MODES[0] and (x1.shape[-2] > 25 or x2.shape[-2] > 25)))
    if not use_mm:
        return torch.linalg.vector_norm(x1.unsqueeze(-2) - x2.unsqueeze(-3), p, dim=-1)
    squares = (x1 * x1).sum(-1, keepdim=True) - 2 * (x1 @ x2.mT) + (x2 * x2).sum(-1).unsqueeze(-2)
    # A distance of 0 (rounding may give a tiny negative square) has gradient
    # 0, as PyTorch's: sqrt only sees positive squares.
    positive = squares > 0
    return torch.where(positive, squares.clamp(min=torch.finfo(squares.dtype).tiny).sqrt(), torch.zeros_like(squares))


def block_diag(*tensors):
    """Zeros with each block copied into its place (copies into views, so
    gradients flow back to each block)."""
    for i, t in enumerate(tensors):
        if t.dim() > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has "
                               f"{t.dim()} dimensions")
    mats = [t if t.dim() == 2 else t.reshape(1, -1) if t.dim() == 1 else t.reshape(1, 1) for t in tensors]
    if not mats:
        return torch.zeros(1, 0)
    dtype = mats[0].dtype
    for m in mats[1:]:
        dtype = torch.promote_types(dtype, m.dtype)
    rows, cols = sum(m.shape[0] for m in mats), sum(m.shape[1] for m in mats)
    out = torch.zeros(rows, cols, dtype=dtype, device=mats[0].device)
    r = c = 0
    for m in mats:
        out[r:r + m.shape[0], c:c + m.shape[1]] = m
        r, c = r + m.shape[0], c + m.shape[1]
    return out

def cartesian_prod(*tensors):
    if len(tensors) == 1:
        return tensors[0]
    grids = torch.meshgrid(*tensors, indexing="ij")
    return torch.stack([g.reshape(-1) for g in grids], 1)


def combinations(input, r=2, with_replacement=False):
    if input.dim() != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return input.new_empty(0)
    n = input.shape[0]
    if r == 2:  # the pairs (i, j), i < j (or <=), in row-major order: the triangle's indices
        index = torch.triu_indices(n, n, 0 if with_replacement else 1, device=input.device).t()
        return input[index.reshape(-1)].reshape(index.shape[0], 2)
    # PyTorch's way: the r-dim grid of indices, kept where they increase
    # (or do not decrease), in row-major order, itertools' order.
    grids = torch.meshgrid(*([torch.arange(n, device=input.device)] * r), indexing="ij")
    keep = torch.ones(grids[0].shape, dtype=torch.bool, device=input.device)
    for a, b in zip(grids[:-1], grids[1:]):
        keep &= (a <= b) if with_replacement else (a < b)
    index = torch.stack([g[keep] for g in grids], 1)
    return input[index.reshape(-1)].reshape(index.shape[0], r)


def chain_matmul(*matrices, out=None):
    return _out(torch.linalg.multi_dot(list(matrices)), out)


def trapezoid(y, x=None, *, dx=None, dim=-1):
    if x is not None:
        if x.dim() == 1:
            shape = [1] * y.dim()
            shape[dim] = -1
            x = x.reshape(shape)
        d = x.diff(dim=dim)
    else:
        d = 1.0 if dx is None else dx
    n = y.shape[dim]
    if not n:
        return y.sum(dim)
    if x is None:
        # Evenly spaced: PyTorch's form, one sum over y and its two ends halved.
        return (y.sum(dim) - (y.select(dim, 0) + y.select(dim, -1)) * 0.5) * d
    return ((y.narrow(dim, 1, n - 1) + y.narrow(dim, 0, n - 1)) * d / 2).sum(dim)


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    if x is not None:
        if x.dim() == 1:
            shape = [1] * y.dim()
            shape[dim] = -1
            x = x.reshape(shape)
        d = x.diff(dim=dim)
    else:
        d = 1.0 if dx is None else dx
    n = y.shape[dim]
    return ((y.narrow(dim, 1, n - 1) + y.narrow(dim, 0, n - 1)) * d / 2).cumsum(dim)


def logspace(start, end, steps, base=10.0, *, dtype=None, device=None, requires_grad=False, out=None):
    result = torch.pow(base, torch.linspace(start, end, steps, dtype=torch.float64)).to(
        dtype or torch.get_default_dtype())
    return _out(result.requires_grad_(requires_grad), out)


def _powers(x, n):
    """[..., n]: x^0 .. x^(n-1) along a new last dim, as PyTorch builds them: ones,
    then the running product of x (integers and bool promoted to int64)."""
    dtype = torch.promote_types(x.dtype, torch.int64)
    if n <= 1:
        return torch.ones(tuple(x.shape) + (n,), dtype=dtype, device=x.device)
    rest = x.to(dtype).unsqueeze(-1).expand(tuple(x.shape) + (n - 1,))
    if torch.is_grad_enabled() and x.requires_grad:
        ones = torch.ones(tuple(x.shape) + (1,), dtype=dtype, device=x.device)
        return torch.cat([ones, rest.cumprod(-1)], -1)
    # Without a graph, PyTorch's way: the products written beside the column of ones, no concatenation.
    out = torch.empty(tuple(x.shape) + (n,), dtype=dtype, device=x.device)
    out[..., 0] = 1
    torch.cumprod(rest, -1, out=out[..., 1:])
    return out


def vander(x, N=None, increasing=False):
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    powers = _powers(x, n)
    return powers if increasing else powers.flip(-1)


def _window(name, fn):
    """A window function computed as PyTorch computes it: arange in the target
    dtype and in-place ops on it (the same roundings, float32 lanes for float32)."""
    def window(window_length, periodic=True, *params, dtype=None, layout=None, device=None, requires_grad=False,
               **kw):
        dtype = dtype or torch.get_default_dtype()
        if not dtype.is_floating_point:
            raise RuntimeError(f"{name} expects floating point dtypes, got: {dtype}")
        if window_length < 0:
            raise RuntimeError(f"{name} requires non-negative window_length, got window_length={window_length}")
        if window_length <= 1:
            values = torch.ones(window_length, dtype=dtype, device=device)
            return values.requires_grad_(requires_grad)
        n = window_length + 1 if periodic else window_length
        values = fn(torch.arange(n, dtype=dtype, device=device), n, *params, **kw)
        values = values[:-1] if periodic else values
        return values.requires_grad_(requires_grad)
    window.__name__ = name
    return window


def _hamming(i, n, alpha=0.54, beta=0.46):
    return i.mul_(2 * math.pi / (n - 1)).cos_().mul_(-beta).add_(alpha)


def _blackman(i, n):
    w = i.mul_(math.pi / (n - 1))
    return w.mul(4).cos_().mul_(0.08) - w.mul(2).cos_().mul_(0.5) + 0.42


def _bartlett(i, n):
    w = i.mul_(2.0 / (n - 1))
    first_half = ((n - 1) >> 1) + 1
    w.narrow(0, first_half, n - first_half).mul_(-1).add_(2)
    return w


hann_window = _window("hann_window", lambda i, n: _hamming(i, n, 0.5, 0.5))
hamming_window = _window("hamming_window", _hamming)
blackman_window = _window("blackman_window", _blackman)
bartlett_window = _window("bartlett_window", _bartlett)


def inverse(input, *, out=None):
    return _out(torch.linalg.inv(input), out)


def det(input):
    return torch.linalg.det(input)


def logdet(input):
    sign, logabs = torch.linalg.slogdet(input)
    return torch.where(sign < 0, torch.full_like(logabs, math.nan), torch.where(sign == 0,
                       torch.full_like(logabs, -math.inf), logabs))


def slogdet(input):
    return _slogdet_t(*torch.linalg.slogdet(input))


def matrix_exp(input):
    return torch.linalg.matrix_exp(input)


def matrix_power(input, n):
    return torch.linalg.matrix_power(input, n)


def pinverse(input, rcond=1e-15):
    return torch.linalg.pinv(input, rtol=rcond)


def qr(input, some=True, *, out=None):
    return _qr_t(*torch.linalg.qr(input, "reduced" if some else "complete"))


def svd(input, some=True, compute_uv=True, *, out=None):
    U, S, Vh = torch.linalg.svd(input, full_matrices=not some)
    return _svd_t(U, S, Vh.mT)


def cholesky(input, upper=False, *, out=None):
    return _out(torch.linalg.cholesky(input, upper=upper), out)


def cholesky_solve(B, L, upper=False, *, out=None):
    """The native op (LAPACK potrs); this adds out=."""
    return _out(torch._C._VariableFunctions.cholesky_solve(B, L, upper), out)


def cholesky_inverse(L, upper=False, *, out=None):
    """The native op (LAPACK potri); this adds out=, which takes any dtype
    the result casts to safely, as in PyTorch."""
    result = torch._C._VariableFunctions.cholesky_inverse(L, upper)
    if out is not None and not torch.can_cast(result.dtype, out.dtype):
        raise RuntimeError(f"cholesky_inverse: Expected result to be safely castable from {_dtype_name(result.dtype)} "
                           f"dtype, but got result with dtype {_dtype_name(out.dtype)}")
    return _out(result, out)


def _with_mean(name, spread):
    """std_mean / var_mean: the spread and the mean over the same dims, in
    any of torch.std's forms (dim=None, *, correction, keepdim; dim,
    unbiased, keepdim; unbiased)."""
    def moments(input, *args, **kwargs):
        if not input.is_floating_point():
            raise RuntimeError(f"{name} only support floating point and complex dtypes")
        dim, keepdim = kwargs.get("dim"), kwargs.get("keepdim", False)
        if args and not isinstance(args[0], bool):
            dim = args[0]
            if len(args) >= 3:
                keepdim = args[2]
        dims = list(range(input.dim())) if dim is None else [dim] if isinstance(dim, int) else list(dim)
        return spread(input, *args, **kwargs), input.mean(dims, keepdim)
    moments.__name__ = name
    return moments


std_mean = _with_mean("std_mean", torch.std)
var_mean = _with_mean("var_mean", torch.var)


def unravel_index(indices, shape):
    """The coordinates in `shape` of flat indices, wrapping as PyTorch does ((i // stride) % size)."""
    if not isinstance(indices, torch.Tensor):
        raise AttributeError(f"'{type(indices).__name__}' object has no attribute 'is_complex'")
    if indices.is_floating_point() or indices.dtype == torch.bool:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    if any(s < 0 for s in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {shape}")
    if 0 in shape:
        raise RuntimeError("ZeroDivisionError")
    coordinates, stride = [], 1
    for size in reversed(shape):
        coordinates.append(torch.remainder(torch.div(indices, stride, rounding_mode="floor"), size))
        stride *= size
    return tuple(reversed(coordinates))


def randint_like(input, low=0, high=None, *, dtype=None, layout=None, device=None, requires_grad=False,
                 memory_format=None, generator=None):
    if high is None:
        low, high = 0, low
    return torch.randint(low, high, tuple(input.shape), dtype=dtype or input.dtype, device=device or input.device,
                         requires_grad=requires_grad, generator=generator)


def unfold_windows(self, dimension, size, step):
    """Tensor.unfold: windows of `size` every `step` along a dim, as a new last dim (a view)."""
    dim = dimension % max(self.dim(), 1)
    length = self.shape[dim] if self.dim() else 1
    if size > length:
        raise RuntimeError(f"maximum size for tensor at dimension {dim} is {length} but size is {size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    count = (length - size) // step + 1
    sizes = list(self.shape)
    strides = list(self.stride())
    if self.dim() == 0:
        return self.reshape(1)
    sizes[dim] = count
    stride = strides[dim]
    strides[dim] = stride * step
    return self.as_strided(sizes + [size], strides + [stride], self.storage_offset())


# name -> (function, forms): f torch.name, m Tensor.name, m_ Tensor.name_ (in place), f_ torch.name_
FUNCTIONS = {
    "inner": (inner, "f m"), "tensordot": (tensordot, "f"), "kron": (kron, "f m"),
    "vdot": (vdot, "f m"), "dist": (dist, "f m"), "cross": (cross, "f m"), "clamp_min": (clamp_min, "f m m_ f_"),
    "clamp_max": (clamp_max, "f m m_ f_"), "positive": (positive, "f m"), "isneginf": (isneginf, "f m"),
    "isposinf": (isposinf, "f m"), "isreal": (isreal, "f m"),
    "nansum": (nansum, "f m"), "nanmean": (nanmean, "f m"), "count_nonzero": (count_nonzero, "f m"),
    "float_power": (float_power, "f m m_"), "floor_divide": (floor_divide, "f m m_"), "ldexp": (ldexp, "f m m_ f_"),
    "msort": (msort, "f m"), "argwhere": (argwhere, "f m"), "nonzero": (nonzero, "f m"), "aminmax": (aminmax, "f m"),
    "cumprod": (cumprod, "f m m_"),
    "quantile": (quantile, "f m"), "nanquantile": (nanquantile, "f m"), "mode": (mode, "f m"),
    "select_scatter": (select_scatter, "f m"), "slice_scatter": (slice_scatter, "f m"),
    "diagonal_scatter": (diagonal_scatter, "f m"), "narrow_copy": (narrow_copy, "f m"),
    "repeat_interleave": (repeat_interleave, "f m"), "unique": (unique, "f m"),
    "unique_consecutive": (unique_consecutive, "f"),
    "searchsorted": (searchsorted, "f"), "bucketize": (bucketize, "f"), "isin": (isin, "f"),
    "frexp": (frexp, "f m"), "cov": (cov, "f m"),
    "corrcoef": (corrcoef, "f m"), "cdist": (cdist, "f"), "block_diag": (block_diag, "f"),
    "cartesian_prod": (cartesian_prod, "f"), "combinations": (combinations, "f"), "chain_matmul": (chain_matmul, "f"),
    "trapezoid": (trapezoid, "f"), "trapz": (trapezoid, "f"), "cumulative_trapezoid": (cumulative_trapezoid, "f"),
    "logspace": (logspace, "f"), "vander": (vander, "f"), "hann_window": (hann_window, "f"),
    "hamming_window": (hamming_window, "f"), "blackman_window": (blackman_window, "f"),
    "bartlett_window": (bartlett_window, "f"), "inverse": (inverse, "f m"), "det": (det, "f m"),
    "logdet": (logdet, "f m"), "slogdet": (slogdet, "f m"), "matrix_exp": (matrix_exp, "f m"),
    "matrix_power": (matrix_power, "f m"), "pinverse": (pinverse, "f m"), "qr": (qr, "f m"), "svd": (svd, "f m"),
    "cholesky": (cholesky, "f m"), "cholesky_solve": (cholesky_solve, "f"),
    "cholesky_inverse": (cholesky_inverse, "f"), "std_mean": (std_mean, "f"), "var_mean": (var_mean, "f"),
    "unravel_index": (unravel_index, "f"), "randint_like": (randint_like, "f"),
}


def install(torch_module):
    for name, (fn, forms) in FUNCTIONS.items():
        forms = forms.split()
        if "f" in forms:
            setattr(torch_module, name, fn)
        if "m" in forms:
            setattr(torch_module.Tensor, name, fn)
        if "m_" in forms:
            setattr(torch_module.Tensor, name + "_", _inplace(fn))
        if "f_" in forms:
            setattr(torch_module, name + "_", _inplace(fn))
    torch_module.Tensor.unfold = unfold_windows
    torch_module.Tensor.cumsum_ = lambda self, dim, *, dtype=None: self.copy_(self.cumsum(dim, dtype=dtype))
    torch_module.Tensor.sgn = torch_module.Tensor.sign
    torch_module.Tensor.sgn_ = torch_module.Tensor.sign_
    torch_module.sgn = torch_module.sign
    torch_module.signbit = signbit
    torch_module.Tensor.unique_consecutive = _unique_consecutive_method


def signbit(input, *, out=None):
    """The native signbit; this adds out=."""
    return _out(torch._C._VariableFunctions.signbit(input), out)
