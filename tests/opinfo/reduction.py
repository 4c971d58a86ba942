"""Reductions over all or some dims, with keepdim."""
import math

import numpy as np

import torch

from .core import ALL, FLOATS, INTS, NUMERIC, ErrorInput, KnownValue, OpInfo, SampleInput, make_array

NUMERIC_AND_BOOL = NUMERIC + (torch.bool,)


def reduction_samples(op, dtype, rng):
    yield SampleInput((make_array((3, 4), dtype, rng),), desc="all dims")
    yield SampleInput((make_array((), dtype, rng),), desc="0-d")
    yield SampleInput((make_array((0, 4), dtype, rng),), desc="zero-size")
    yield SampleInput((make_array((1000,), dtype, rng),), desc="long vector")
    for dim, keepdim in [(0, False), (1, True), (-1, False), ((0, 2), False), ((0, 2), True), ((), False)]:
        yield SampleInput((make_array((2, 3, 4), dtype, rng),), {"dim": dim, "keepdim": keepdim},
                          desc=f"dim={dim} keepdim={keepdim}")


def _np_reduce(fn):
    def ref(x, dim=None, keepdim=False):
        axis = None if dim in (None, ()) else dim
        return fn(x, axis=axis, keepdims=keepdim)
    return ref


def _sum_ref(x, dim=None, keepdim=False):
    acc = np.float64 if x.dtype.kind == "f" else np.int64
    return _np_reduce(np.sum)(x.astype(acc), dim, keepdim)


def _nansum_ref(x, dim=None, keepdim=False):
    acc = np.float64 if x.dtype.kind == "f" else np.int64
    return _np_reduce(np.nansum)(x.astype(acc), dim, keepdim)


def _nansum_samples(op, dtype, rng):
    yield from reduction_samples(op, dtype, rng)
    if not dtype.is_floating_point:
        return
    for shape, kwargs in (((1000,), {}), ((3, 37), {"dim": 1}), ((4, 5, 6), {"dim": 1}), ((4, 5), {"dim": 0}),
                          ((2, 5), {"dim": 1})):
        x = make_array(shape, dtype, rng)
        x.reshape(-1)[::3] = np.nan  # every third element, so lanes and tails both hold some
        yield SampleInput((x,), kwargs, desc=f"NaN every third element {shape} {kwargs}")
    yield SampleInput((np.full((2, 3), np.nan).astype(np.dtype(str(dtype)[6:])),), {"dim": 1}, desc="all NaN")


def _renorm_ref(x, p, dim, maxnorm):
    axes = tuple(k for k in range(x.ndim) if k != dim % x.ndim)
    norms = (np.abs(x.astype(np.float64)) ** p).sum(axes, keepdims=True) ** (1 / p)
    return (x * np.where(norms > maxnorm, maxnorm / (norms + 1e-7), 1.0)).astype(x.dtype)


def _renorm_samples(op, dtype, rng):
    # Slices on both sides of maxnorm in each sample.
    yield SampleInput((make_array((4, 5), dtype, rng), 2, 0, 2.5), desc="p=2 over rows")
    yield SampleInput((make_array((3, 6), dtype, rng), 1, 1, 4.0), desc="p=1 over columns")
    yield SampleInput((make_array((2, 3, 4), dtype, rng), 3, -1, 2.0), desc="p=3, 3-D, last dim")
    yield SampleInput((make_array((5, 4), dtype, rng).T, 2, 0, 2.0), desc="transposed")


def _mean_ref(x, dim=None, keepdim=False):
    with np.errstate(invalid="ignore"):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _np_reduce(np.mean)(x.astype(np.float64), dim, keepdim)


def _histc_ref(x, bins=100, min=0, max=0):
    """PyTorch's histogram kernel: bin (x - lo) * bins / (hi - lo) in x's dtype, the last bin closed."""
    x = x.reshape(-1)
    lo, hi = float(min), float(max)
    if lo == hi and x.size:
        lo, hi = float(x.min()), float(x.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    left, right = x.dtype.type(lo), x.dtype.type(hi)
    inside = x[(x >= left) & (x <= right)]
    pos = ((inside - left) * x.dtype.type(bins) / (right - left)).astype(np.int64)
    return np.bincount(np.minimum(pos, bins - 1), minlength=bins).astype(x.dtype)


def _histc_samples(op, dtype, rng):
    yield SampleInput((make_array((50,), dtype, rng),), {"bins": 7}, desc="own range")
    yield SampleInput((make_array((4, 30), dtype, rng),), {"bins": 10, "min": -2, "max": 3}, desc="given range")
    yield SampleInput((np.array([1.0, 1.0, 1.0]).astype(np.dtype(str(dtype)[6:])),), {"bins": 4}, desc="one value")
    yield SampleInput((np.zeros(0).astype(np.dtype(str(dtype)[6:])),), {"bins": 3}, desc="empty")
    yield SampleInput((np.array([0.0, 0.25, 0.5, 1.0, np.nan]).astype(np.dtype(str(dtype)[6:])),),
                      {"bins": 4, "min": 0, "max": 1}, desc="edges and NaN")


def _histc_errors():
    yield ErrorInput((torch.tensor([1, 2]),), {}, NotImplementedError, "\"histogram_cpu\" not implemented for 'Long'")
    yield ErrorInput((torch.tensor([1.0, 2.0]),), {"bins": 0}, RuntimeError, "bins must be > 0, but got 0")
    yield ErrorInput((torch.tensor([1.0, 2.0]),), {"bins": 4, "min": 3, "max": 1}, RuntimeError,
                     "max must be larger than min")
    yield ErrorInput((torch.tensor([1.0, float("nan")]),), {}, RuntimeError, "is not finite")
    yield ErrorInput((torch.tensor([1.0, float("inf")]),), {}, RuntimeError, r"range of \[1, inf\] is not finite")


def _dim_errors(name):
    def errors():
        yield ErrorInput((torch.ones(2, 3),), {"dim": 2}, IndexError, r"Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)")
        yield ErrorInput((torch.ones(2, 3),), {"dim": (0, 0)}, RuntimeError, "dim 0 appears multiple times")
        # Every dim is range-checked before repeats are looked for.
        yield ErrorInput((torch.ones(2, 3),), {"dim": (0, -2, 2)}, IndexError, "Dimension out of range")
        if name == "mean":
            yield ErrorInput((torch.ones(2, dtype=torch.int64),), {}, RuntimeError, "mean\\(\\): could not infer output dtype")
    return errors


def _dim_samples(op, dtype, rng):
    yield SampleInput((make_array((3, 4), dtype, rng),), {"dim": 1}, desc="dim=1")
    yield SampleInput((make_array((2, 3, 4), dtype, rng),), {"dim": 0, "keepdim": True}, desc="dim=0 keepdim")
    yield SampleInput((make_array((5,), dtype, rng),), {"dim": -1}, desc="vector")


def _float_ref(fn):
    def ref(x, dim=None, keepdim=False, **kw):
        axis = None if dim in (None, ()) else dim
        return fn(x.astype(np.float64), axis=axis, keepdims=keepdim, **kw)
    return ref


def _norm_samples(op, dtype, rng):
    x = make_array((3, 4), dtype, rng)
    for p in (2, 1, 3, float("inf"), float("-inf"), 0):
        yield SampleInput((x,), {"p": p}, desc=f"p={p}")
    yield SampleInput((x,), {"p": 2, "dim": 1, "keepdim": True}, desc="dim")
    yield SampleInput((x,), {"p": "fro"}, desc="'fro'")
    yield SampleInput((x,), {"p": "fro", "dim": (0, 1)}, desc="'fro' over two dims")


def _norm_ref(x, p=2, dim=None, keepdim=False):
    x = x.astype(np.float64)
    p = 2 if p == "fro" else p
    axis = None if dim is None else dim
    if np.isinf(p):
        r = np.max(np.abs(x), axis=axis, keepdims=keepdim) if p > 0 else np.min(np.abs(x), axis=axis, keepdims=keepdim)
    elif p == 0:
        r = np.sum(x != 0, axis=axis, keepdims=keepdim).astype(np.float64)
    else:
        r = np.sum(np.abs(x) ** p, axis=axis, keepdims=keepdim) ** (1.0 / p)
    return r


def _vector_norm_samples(op, dtype, rng):
    x = make_array((3, 4), dtype, rng)
    for ord_ in (2, 1, 3, float("inf"), float("-inf"), 0, -1.5):
        yield SampleInput((x,), {"ord": ord_}, desc=f"ord={ord_}")
    yield SampleInput((x, 2, [1], True), desc="dim")
    yield SampleInput((x, 2, [0, 1]), desc="every dim")


def _vector_norm_ref(x, ord=2, dim=None, keepdim=False, dtype=None):
    return _norm_ref(x, ord, None if dim is None else tuple(dim), keepdim)


def _vector_norm_errors():
    # An order without an identity (negative, inf) over nothing (found by tools/difftest).
    yield ErrorInput((torch.ones(0, 3), -1), {}, RuntimeError,
                     "linalg.vector_norm cannot compute the -1 norm on an empty tensor")
    yield ErrorInput((torch.ones(0, 3), float("inf"), [0]), {}, RuntimeError,
                     "cannot compute the inf norm on the dimension 0because this dimension is empty")
    yield ErrorInput((torch.ones(3, dtype=torch.int64),), {}, RuntimeError,
                     "Expected a floating point or complex tensor as input. Got Long")
    yield ErrorInput((torch.ones(3),), {"dtype": torch.int64}, RuntimeError,
                     "dtype should be floating point or complex, but got Long")
    yield ErrorInput((torch.ones(3, dtype=torch.float64),), {"dtype": torch.float32}, RuntimeError,
                     "should be convertible without narrowing")


def _norm_errors():
    # torch.norm is Python in PyTorch: a non-tensor fails on its attribute.
    yield ErrorInput((None,), {}, AttributeError, "'NoneType' object has no attribute 'layout'")
    yield ErrorInput((torch.ones(2, 3), "x"), {}, RuntimeError, "linalg.matrix_norm: Order x not supported")
    yield ErrorInput((torch.ones(2, 3),), {"dim": [0, 1, 1]}, RuntimeError,
                     "linalg.matrix_norm: dim must be a 2-tuple. Got 0 1 1")


def _matrix_norm_samples(op, dtype, rng):
    x = make_array((2, 3, 4), dtype, rng)
    for ord_ in ("fro", 1, -1, float("inf"), float("-inf")):
        yield SampleInput((x, ord_), desc=f"ord={ord_}")
    yield SampleInput((x, 1, (0, 2), True), desc="dims, keepdim")
    if dtype in (np.float32, np.float64):  # singular values: Jacobi rotations in the input's precision
        for ord_ in (2, -2, "nuc"):
            yield SampleInput((x, ord_), desc=f"ord={ord_}")
        yield SampleInput((x, "nuc", (2, 0), True), desc="nuc over moved dims, keepdim")


def _matrix_norm_ref(x, ord="fro", dim=(-2, -1), keepdim=False):
    out = np.linalg.norm(np.moveaxis(x.astype(np.float64), dim, (-2, -1)), ord, axis=(-2, -1))
    if keepdim:
        for d in sorted(d % x.ndim for d in dim):
            out = np.expand_dims(out, d)
    return out


def _var_samples(op, dtype, rng):
    yield SampleInput((make_array((3, 4), dtype, rng),), {}, desc="all")
    yield SampleInput((make_array((3, 4), dtype, rng),), {"dim": 1, "keepdim": True}, desc="dim keepdim")
    yield SampleInput((make_array((3, 4), dtype, rng),), {"dim": 0, "unbiased": False}, desc="unbiased=False")
    yield SampleInput((make_array((3, 4), dtype, rng),), {"dim": (0, 1), "correction": 2}, desc="correction=2")


def _var_ref(fn):
    def ref(x, dim=None, keepdim=False, unbiased=True, correction=None):
        ddof = correction if correction is not None else (1 if unbiased else 0)
        axis = None if dim is None else dim
        return fn(x.astype(np.float64), axis=axis, keepdims=keepdim, ddof=ddof)
    return ref


def _max_dim_op(name):
    def op(x, dim, keepdim=False):
        values, indices = getattr(torch, name)(x, dim, keepdim)
        assert indices.dtype == torch.int64
        # The index must point at the value it reports.
        picked = torch.gather(x, dim, indices if keepdim else indices.unsqueeze(dim))
        assert picked.tolist() == (values if keepdim else values.unsqueeze(dim)).tolist()
        return values
    return op


def _minmax_errors(name):
    def errors():
        yield ErrorInput((torch.ones(0),), {}, RuntimeError, f"{name}\\(\\): Expected reduction dim to be specified")
        yield ErrorInput((torch.ones(2, 0), 1), {}, IndexError, "Expected reduction dim 1 to have non-zero size")
    return errors


def _any_samples(op, dtype, rng):
    for shape in [(3, 4), (0,), ()]:
        yield SampleInput((make_array(shape, dtype, rng, (-1, 1)),), desc=str(shape))
    yield SampleInput((make_array((3, 4), dtype, rng, (0, 1)),), {"dim": 1, "keepdim": True}, desc="dim")


def _scan_samples(op, dtype, rng):
    yield SampleInput((make_array((3, 4), dtype, rng), 1), desc="dim=1")
    yield SampleInput((make_array((3, 4), dtype, rng), 0), desc="dim=0")
    yield SampleInput((make_array((2, 3, 4), dtype, rng), -2), desc="middle dim")


def _softmax_ref(x, dim):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(axis=dim, keepdims=True))
    return e / e.sum(axis=dim, keepdims=True)


def _log_softmax_ref(x, dim):
    return np.log(_softmax_ref(x, dim))


def _logsumexp_ref(x, dim, keepdim=False):
    x = x.astype(np.float64)
    m = x.max(axis=dim, keepdims=True)
    r = m + np.log(np.exp(x - m).sum(axis=dim, keepdims=True))
    return r if keepdim else np.squeeze(r, axis=dim)


def _sum_16bit_known():
    """float16 and bfloat16 are widened to float in vector registers (F16C or
    bit shifts): subnormals, the tail after the last full vector, NaN and inf."""
    why = "vectorised 16-bit sums"
    for dt, tiny, tenth, halves in ((torch.float16, -0.00025916099548339844, 409.75, 5000.0),
                                    (torch.bfloat16, -0.0002593994140625, 410.0, 4992.0)):
        yield KnownValue((torch.tensor([6e-8, 1e-7, -3e-5, 1e-6] * 9, dtype=dt),), {}, torch.tensor(tiny, dtype=dt),
                         why=why)
        yield KnownValue((torch.full((4099,), 0.1, dtype=dt),), {}, torch.tensor(tenth, dtype=dt), why=why)
        yield KnownValue((torch.tensor([float("nan")] + [1.0] * 40, dtype=dt),), {},
                         torch.tensor(float("nan"), dtype=dt), why=why)
        yield KnownValue((torch.full((33,), float("inf"), dtype=dt),), {}, torch.tensor(float("inf"), dtype=dt),
                         why=why)
        yield KnownValue((torch.full((2, 10000), 0.5, dtype=dt), 1), {}, torch.full((2,), halves, dtype=dt), why=why)
        yield KnownValue((torch.full((10000, 2), 0.5, dtype=dt), 0), {}, torch.full((2,), halves, dtype=dt), why=why)


def _running_extreme_ref(x, dim, maximum, want_indices):
    """numpy's running max/min, and the index each came from (the later one on a tie, as PyTorch)."""
    x = np.moveaxis(np.asarray(x), dim, -1)
    values, indices = np.empty_like(x), np.zeros(x.shape, np.int64)
    for pos in np.ndindex(x.shape[:-1]):
        best, at = None, 0
        for i, v in enumerate(x[pos]):
            if best is None or (v >= best if maximum else v <= best):
                best, at = v, i
            values[pos + (i,)], indices[pos + (i,)] = best, at
    out = indices if want_indices else values
    return np.moveaxis(out, -1, dim)


def _cummax_errors():
    yield ErrorInput((torch.ones(2, 3), 2), {}, IndexError, r"Dimension out of range \(expected to be in range of "
                                                            r"\[-2, 1\], but got 2\)")


def _cummax_known():
    nan = float("nan")
    # Every NaN becomes the running value with its own index, as PyTorch's kernel.
    yield KnownValue((torch.tensor([1.0, nan, 3.0, nan, 0.0]), 0), {}, torch.tensor([0, 1, 1, 3, 3]),
                     why="NaN propagates; each NaN moves the index")


def _search_samples(op, dtype, rng):
    seq = np.sort(make_array((7,), dtype, rng))
    yield SampleInput((seq, make_array((3, 4), dtype, rng)), desc="1-D boundaries")
    yield SampleInput((seq, make_array((5,), dtype, rng)), {"right": True}, desc="right")
    yield SampleInput((seq, make_array((5,), dtype, rng)), {"side": "right"}, desc="side='right'")
    yield SampleInput((np.sort(make_array((2, 6), dtype, rng), -1), make_array((2, 3), dtype, rng)), desc="rows")
    yield SampleInput((seq[:0], make_array((3,), dtype, rng)), desc="no boundaries")


def _search_ref(seq, values, right=False, side=None):
    side = side or ("right" if right else "left")
    if seq.ndim == 1:
        return np.searchsorted(seq, values, side=side)
    return np.stack([np.searchsorted(s, v, side=side) for s, v in zip(seq, values)])


def _search_errors():
    s = torch.tensor([1.0, 2.0, 3.0])
    yield ErrorInput((torch.tensor(1.0), s), {}, RuntimeError,
                     "boundaries tensor should have positive dimension, but got 0 dimension")
    yield ErrorInput((torch.ones(2, 3), torch.ones(3, 3)), {}, RuntimeError, "boundaries tensor should be 1 dimension "
                     r"or the first N-1 dimensions of boundaries tensor and input value tensor must match")
    yield ErrorInput((s, s), {"side": "x"}, RuntimeError, "side can only be 'left' or 'right' but got x")
    yield ErrorInput((s, s), {"side": "left", "right": True}, RuntimeError,
                     "side and right can't be set to opposites, got side of left while right was True")
    yield ErrorInput((s, s), {"sorter": torch.tensor([0, 1])}, RuntimeError, "boundary and sorter must have the same size")
    yield ErrorInput((s, s), {"sorter": torch.tensor([0, 1, 3])}, RuntimeError, "sorter index out of range")
    yield ErrorInput((s, s), {"sorter": torch.tensor([0.0, 1, 2])}, RuntimeError, "sorter must be a tensor of long dtype")
    yield ErrorInput((torch.tensor([True]), torch.tensor([True])), {}, NotImplementedError,
                     "\"searchsorted_out_cpu\" not implemented for 'Bool'")


def _search_known():
    nan = float("nan")
    s = torch.tensor([1.0, 2.0, 3.0])
    yield KnownValue((s, torch.tensor([nan, 2.0])), {"right": True}, torch.tensor([3, 2]),
                     why="a NaN value lands past every boundary")
    yield KnownValue((torch.tensor([1, 3, 5]), 2.5), {}, torch.tensor(1), why="a float number against integers")
    yield KnownValue((torch.tensor([3.0, 1.0, 2.0]), torch.tensor([2.5])), {"sorter": torch.tensor([1, 2, 0])},
                     torch.tensor([2]), why="sorter orders the boundaries")


REDUCTION_OPS = [
    OpInfo("sum", _sum_ref, ALL, reduction_samples,
           result_dtype=lambda d: d if d.is_floating_point else torch.int64, error_inputs=_dim_errors("sum"),
           known_values=lambda: _sum_16bit_known()),
    OpInfo("nansum", _nansum_ref, ALL, _nansum_samples,
           result_dtype=lambda d: d if d.is_floating_point else torch.int64, error_inputs=_dim_errors("nansum")),
    OpInfo("renorm", _renorm_ref, FLOATS, _renorm_samples, inplace=True, error_inputs=lambda: [
        ErrorInput((torch.ones(3), 2, 0, 1.0), {}, RuntimeError, "renorm: input needs at least 2 dimensions, got 1"),
        ErrorInput((torch.ones(2, 3), -1, 0, 1.0), {}, RuntimeError, "renorm: non-positive-norm not supported"),
        ErrorInput((torch.ones(2, 3), 2, 0, -1.0), {}, RuntimeError, "renorm: expected maxnorm to be >= 0 but got -1"),
        ErrorInput((torch.ones(2, 3), 2, 2, 1.0), {}, IndexError, "Dimension out of range")], known_values=lambda: [
        KnownValue((torch.tensor([[0.0, 2.0, -3.0], [1.0, 0.0, 4.0]], dtype=torch.float64), 0.5, 0, 2.5), {},
                   torch.tensor([[0.25255128353282347, 0.3093108886968002, 0.20620725998162878],
                                 [-0.18518517798353923, 0.27777777469135806, 0.046296298353909415]],
                                dtype=torch.float64),
                   grad_of=0, why="p below 1: a zero element's share of the norm's gradient is 0, not NaN")]),
    OpInfo("mean", _mean_ref, FLOATS, reduction_samples, error_inputs=_dim_errors("mean"), known_values=lambda: [
        KnownValue((torch.ones(70000, dtype=torch.float16),), {}, torch.tensor(1.0, dtype=torch.float16),
                   why="the float16 sum overflowed"),
        KnownValue((torch.full((10_000_000,), 0.5, dtype=torch.bfloat16),), {}, torch.tensor(0.5, dtype=torch.bfloat16),
                   why="the element count 1e7 was converted to float16/bfloat16"),
        KnownValue((torch.full((100_000,), 0.5, dtype=torch.float16),), {}, torch.tensor(0.5, dtype=torch.float16),
                   why="the element count 1e5 overflowed float16"),
    ]),
    OpInfo("prod", lambda x, dim=None, keepdim=False: np.prod(x.astype(np.float64 if x.dtype.kind == "f" else np.int64),
                                                              axis=dim, keepdims=keepdim),
           ALL, lambda op, d, rng: [SampleInput((make_array((3, 4), d, rng, (-2, 2)),)),
                                    SampleInput((make_array((3, 4), d, rng, (-2, 2)),), {"dim": 1, "keepdim": True})],
           result_dtype=lambda d: d if d.is_floating_point else torch.int64, known_values=lambda: [
               KnownValue((torch.tensor([3e38, 3e38, -0.0, 2.0]),), {}, torch.tensor(float("nan")),
                          why="float products overflow in float (inf * -0 is NaN), as in PyTorch"),
               # With a zero in the input, each element's gradient is the product of the others (found by tools/difftest).
               KnownValue((torch.tensor([[float("nan"), 2.0], [0.0, 3.0], [4.0, 5.0]]), 0), {},
                          torch.tensor([[0.0, 15.0], [float("nan"), 10.0], [float("nan"), 6.0]]), grad_of=0,
                          why="a NaN's gradient is the product of the others, not NaN"),
               KnownValue((torch.tensor([float("inf"), 2.0, 0.0]),), {}, torch.tensor([0.0, float("nan"), float("inf")]),
                          grad_of=0, why="inf and a zero: products of the others")]),
    OpInfo("max", lambda x: np.max(x), ALL, lambda op, d, rng: [SampleInput((make_array((3, 4), d, rng),))],
           variant="all", error_inputs=_minmax_errors("max")),
    OpInfo("min", lambda x: np.min(x), ALL, lambda op, d, rng: [SampleInput((make_array((3, 4), d, rng),))],
           variant="all", error_inputs=_minmax_errors("min")),
    OpInfo("max", lambda x, dim, keepdim=False: np.max(x, axis=dim, keepdims=keepdim), NUMERIC_AND_BOOL,
           lambda op, d, rng: (SampleInput(s.args + (s.kwargs["dim"],), {"keepdim": s.kwargs.get("keepdim", False)})
                               for s in _dim_samples(op, d, rng)),
           variant="dim", op=_max_dim_op("max"), method=False),
    OpInfo("min", lambda x, dim, keepdim=False: np.min(x, axis=dim, keepdims=keepdim), NUMERIC_AND_BOOL,
           lambda op, d, rng: (SampleInput(s.args + (s.kwargs["dim"],), {"keepdim": s.kwargs.get("keepdim", False)})
                               for s in _dim_samples(op, d, rng)),
           variant="dim", op=_max_dim_op("min"), method=False),
    OpInfo("histc", _histc_ref, FLOATS, _histc_samples, supports_out=True, error_inputs=_histc_errors),
    OpInfo("amax", lambda x, dim=(), keepdim=False: np.max(x, axis=None if dim == () else dim, keepdims=keepdim), ALL, _dim_samples,
           known_values=lambda: [
               KnownValue((torch.tensor([[float("nan"), 1.0], [2.0, 3.0]]), 1), {},
                          torch.tensor([[float("nan")] * 2, [0.0, 1.0]]), grad_of=0,
                          why="a NaN maximum matches no element: its row's gradient is NaN, as in PyTorch"),
               KnownValue((torch.tensor([1.0, 3.0, 3.0]),), {}, torch.tensor([0.0, 0.5, 0.5]), grad_of=0,
                          why="ties share the gradient")]),
    OpInfo("amin", lambda x, dim=(), keepdim=False: np.min(x, axis=None if dim == () else dim, keepdims=keepdim), ALL, _dim_samples),
    OpInfo("argmax", lambda x, dim=None, keepdim=False: np.argmax(x, axis=dim, keepdims=keepdim), NUMERIC,
           _dim_samples, result_dtype=lambda d: torch.int64),
    OpInfo("argmin", lambda x, dim=None, keepdim=False: np.argmin(x, axis=dim, keepdims=keepdim), NUMERIC,
           _dim_samples, result_dtype=lambda d: torch.int64),
    OpInfo("var", _var_ref(np.var), FLOATS, _var_samples,
           error_inputs=lambda: iter([ErrorInput((torch.ones(2, dtype=torch.int64),), {}, RuntimeError,
                                                 "std and var only support floating point")])),
    OpInfo("std", _var_ref(np.std), FLOATS, _var_samples, known_values=lambda: [
        KnownValue((torch.tensor([0.0, 3e19]),), {}, torch.tensor(2.1213203e19), why="squares overflowed float"),
        KnownValue((torch.zeros(0, 2),), {"dim": 0, "correction": -3}, torch.tensor([float("nan")] * 2),
                   why="the std of nothing is NaN whatever the correction")]),
    OpInfo("linalg_vector_norm", _vector_norm_ref, FLOATS, _vector_norm_samples, op=torch.linalg.vector_norm,
           method=False, error_inputs=_vector_norm_errors),
    OpInfo("matrix_norm", _matrix_norm_ref, FLOATS, _matrix_norm_samples, op=torch.linalg.matrix_norm, method=False),
    OpInfo("norm", _norm_ref, FLOATS, _norm_samples, error_inputs=_norm_errors, known_values=lambda: [
        KnownValue((torch.tensor([0.0, 3e19]),), {}, torch.tensor(3e19), why="squares overflowed float"),
        KnownValue((torch.tensor([[0.4018, 0.1647]]), -1e30, [0], True), {}, torch.tensor([[0.4018, 0.1647]]),
                   why="|x|^p vanished for a huge |p|")]),
    OpInfo("any", lambda x, dim=None, keepdim=False: np.any(x, axis=dim, keepdims=keepdim), ALL, _any_samples,
           known_values=lambda: [
               KnownValue((torch.tensor([0, 2], dtype=torch.uint8),), {}, torch.tensor(1, dtype=torch.uint8),
                          why="uint8 input gives uint8, as in PyTorch"),
               KnownValue((torch.zeros(2, 0),), {"dim": [], "keepdim": True}, torch.zeros(2, 0, dtype=torch.bool),
                          why="an empty dim list reduces nothing")],
           result_dtype=lambda d: torch.bool),
    OpInfo("all", lambda x, dim=None, keepdim=False: np.all(x, axis=dim, keepdims=keepdim), ALL, _any_samples,
           result_dtype=lambda d: torch.bool),
    OpInfo("logsumexp", _logsumexp_ref, FLOATS,
           lambda op, d, rng: [SampleInput((make_array((3, 4), d, rng), 1)),
                               SampleInput((make_array((3, 4), d, rng), (0, 1)), {"keepdim": True})],
           known_values=lambda: [KnownValue((torch.tensor([float("inf"), float("nan")]), 0), {},
                                            torch.tensor(float("nan")), why="an inf hid the NaN")],
           # dim=[] fails in PyTorch 2.13 for a non-empty tensor (its broadcast of the kept max); same error here.
           error_inputs=lambda: [ErrorInput((torch.ones(2, 3), []), {}, RuntimeError,
                                            r"output with shape \[\] doesn't match the broadcast shape \[1, 1\]")]),
    OpInfo("cummax", lambda x, dim: _running_extreme_ref(x, dim, True, False), ALL, _scan_samples, variant="values",
           op=lambda x, dim: torch.cummax(x, dim).values, error_inputs=_cummax_errors),
    OpInfo("cummax", lambda x, dim: _running_extreme_ref(x, dim, True, True), ALL, _scan_samples, variant="indices",
           op=lambda x, dim: torch.cummax(x, dim).indices, result_dtype=lambda d: torch.int64, known_values=_cummax_known),
    OpInfo("cummin", lambda x, dim: _running_extreme_ref(x, dim, False, False), ALL, _scan_samples, variant="values",
           op=lambda x, dim: torch.cummin(x, dim).values),
    OpInfo("cummin", lambda x, dim: _running_extreme_ref(x, dim, False, True), ALL, _scan_samples, variant="indices",
           op=lambda x, dim: torch.cummin(x, dim).indices, result_dtype=lambda d: torch.int64),
    OpInfo("searchsorted", _search_ref, FLOATS + INTS, _search_samples, method=False,
           result_dtype=lambda d: torch.int64, error_inputs=_search_errors, known_values=_search_known),
    OpInfo("bucketize", lambda x, b, right=False: np.searchsorted(b, x, side="right" if right else "left"),
           FLOATS + INTS, lambda op, d, rng: [SampleInput((make_array((3, 4), d, rng), np.sort(make_array((6,), d, rng))),
                                                          desc="2-D values"),
                                              SampleInput((make_array((5,), d, rng), np.sort(make_array((6,), d, rng))),
                                                          {"right": True}, desc="right")],
           method=False, result_dtype=lambda d: torch.int64,
           error_inputs=lambda: [ErrorInput((torch.ones(2), torch.ones(2, 2)), {}, RuntimeError,
                                            r"boundaries tensor must be 1 dimension, but got dim\(2\)")]),
    OpInfo("cumprod", lambda x, dim: np.cumprod(x.astype(np.float64 if x.dtype.kind == "f" else np.int64), axis=dim),
           ALL, _scan_samples, domain=(-2.0, 2.0), result_dtype=lambda d: d if d.is_floating_point else torch.int64),
    OpInfo("cumsum", lambda x, dim: np.cumsum(x.astype(np.float64 if x.dtype.kind == "f" else np.int64), axis=dim),
           ALL, _scan_samples, result_dtype=lambda d: d if d.is_floating_point else torch.int64),
    OpInfo("logcumsumexp", lambda x, dim: np.logaddexp.accumulate(x.astype(np.float64), axis=dim), FLOATS,
           _scan_samples, supports_out=True, error_inputs=lambda: [
               ErrorInput((torch.arange(3), 0), {}, NotImplementedError,
                          "\"logcumsumexp_out_cpu\" not implemented for 'Long'"),
               ErrorInput((torch.ones(3), 0), {"out": torch.empty(3, dtype=torch.float64)}, RuntimeError,
                          "expected scalar_type Float but found Double")],
           known_values=lambda: [
               KnownValue((torch.tensor([-math.inf, -math.inf, 1.0, math.inf, math.nan, 2.0]), 0), {},
                          torch.tensor([-math.inf, -math.inf, 1.0, math.inf, math.nan, math.nan]),
                          why="equal infinities stay, NaN carries on (PyTorch's _log_add_exp_helper)"),
               KnownValue((torch.tensor([1.0, 2.0, -1.0, 3.0]), 0), {},
                          torch.tensor([1.617384672164917, 1.6782255172729492, 0.047156669199466705, 0.6572330594062805]),
                          grad_of=0, why="the gradient by reversed logcumsumexps (PyTorch's formula)")]),
    OpInfo("softmax", _softmax_ref, FLOATS, _scan_samples, error_inputs=lambda: [
        ErrorInput((torch.ones(2, dtype=torch.int32), 100), {}, IndexError, "Dimension out of range")],
           known_values=lambda: [
        KnownValue((torch.tensor([[1.0, float("inf"), 2.0]]), 1), {}, torch.tensor([[float("nan")] * 3]),
                   why="a +inf row is NaN, not one-hot"),
        KnownValue((torch.linspace(-2.7, 1.9, 3).to(torch.bfloat16), 0), {},
                   torch.tensor([-1.5497207641601562e-05, -0.0001544952392578125, -0.0015411376953125],
                                dtype=torch.bfloat16), grad_of=0,
                   why="the bfloat16 gradient rounded each step to 16 bits and gave 0: PyTorch computes it in float")]),
    OpInfo("log_softmax", _log_softmax_ref, FLOATS, _scan_samples, error_inputs=lambda: [
        ErrorInput((torch.ones(3, dtype=torch.int64), -2), {}, IndexError, "Dimension out of range"),
        ErrorInput((torch.ones(3, dtype=torch.int64), 0), {}, NotImplementedError, "not implemented for 'Long'")],
           known_values=lambda: [
        KnownValue((torch.tensor([1e8, 1e8]), 0), {}, torch.tensor([-0.6931472, -0.6931472]),
                   why="large equal values gave [0, 0]"),
        KnownValue((torch.linspace(-2.7, 1.9, 3).to(torch.float16), 0), {},
                   torch.tensor([0.97265625, 0.72900390625, -1.7021484375], dtype=torch.float16), grad_of=0,
                   why="the float16 gradient rounded each step to 16 bits (-1.703125): PyTorch computes it in float")]),
    # The kernels behind softmax(dtype=...), which converts first: an integer
    # dtype drops the history (tests/test_autograd.py), as in PyTorch.
    OpInfo("_softmax", lambda x, dim, half_to_float: _softmax_ref(x, dim), FLOATS,
           lambda op, d, rng: (SampleInput(s.args + (False,), desc=s.desc) for s in _scan_samples(op, d, rng)),
           method=False, error_inputs=lambda: [
               ErrorInput((torch.ones(2, dtype=torch.float16), 0, True), {}, RuntimeError,
                          "softmax with half to float conversion is not supported on CPU")]),
    OpInfo("_log_softmax", lambda x, dim, half_to_float: _log_softmax_ref(x, dim), FLOATS,
           lambda op, d, rng: (SampleInput(s.args + (False,), desc=s.desc) for s in _scan_samples(op, d, rng)),
           method=False),
]
