"""Shape ops built from other ops: rolls and rotations, splits and stacks,
tiling, differences, broadcasting, diagonals."""
import numpy as np

import torch

from .core import ALL, NUMERIC, ErrorInput, OpInfo, SampleInput, make_array


def _samples(*cases):
    def gen(op, dtype, rng):
        for shape, args in cases:
            yield SampleInput((make_array(shape, dtype, rng),) + tuple(args), desc=f"{shape} {args}")
    return gen


def _flat_torch(name):
    """A list-returning op as one tensor: its pieces flattened and joined (with their sizes)."""
    def op(*args, **kwargs):
        pieces = getattr(torch, name)(*args, **kwargs)
        return torch.cat([p.reshape(-1) for p in pieces] + [torch.tensor([float(p.numel()) for p in pieces])
                                                          .to(pieces[0].dtype).to(pieces[0].device)])
    return op


def _flat_numpy(fn):
    def ref(*args, **kwargs):
        pieces = fn(*args, **kwargs)
        return np.concatenate([np.asarray(p).reshape(-1) for p in pieces]
                              + [np.array([p.size for p in pieces]).astype(np.asarray(pieces[0]).dtype)])
    return ref


def _list_samples(*shape_lists):
    def gen(op, dtype, rng):
        for shapes in shape_lists:
            yield SampleInput(([make_array(s, dtype, rng) for s in shapes],), desc=str(shapes))
    return gen


def _roll_ref(x, shifts, dims=None):
    return np.roll(x, shifts, dims)


def _diff_ref(x, n=1, dim=-1, prepend=None, append=None):
    kw = {k: v for k, v in (("prepend", prepend), ("append", append)) if v is not None}
    return np.diff(x, n, axis=dim, **kw)


def _take_along_ref(x, idx, dim=None):
    if dim is None:
        return np.take_along_axis(x.reshape(-1), idx.reshape(-1), 0)
    return np.take_along_axis(x, idx, dim)


def _take_along_samples(op, dtype, rng):
    x = make_array((3, 4), dtype, rng)
    yield SampleInput((x, rng.integers(0, 4, (3, 2))), {"dim": 1}, desc="dim 1")
    yield SampleInput((x, rng.integers(0, 3, (2, 4))), {"dim": 0}, desc="dim 0")
    yield SampleInput((x, rng.integers(0, 12, (5,))), desc="flattened")


def _diag_embed_ref(x, offset=0, dim1=-2, dim2=-1):
    n = x.shape[-1] + abs(offset)
    out = np.zeros(x.shape[:-1] + (n, n), dtype=x.dtype)
    for i in range(x.shape[-1]):
        r, c = (i, i + offset) if offset >= 0 else (i - offset, i)
        out[..., r, c] = x[..., i]
    return np.moveaxis(out, (-2, -1), (dim1, dim2)) if (dim1, dim2) != (-2, -1) else out


def _constant_pad_ref(x, pad, value=0):
    """Crop where a pad is negative, then numpy's constant pad; the last dim first."""
    x = np.asarray(x)
    widths = [(0, 0)] * x.ndim
    for i in range(len(pad) // 2):
        d = x.ndim - 1 - i
        lo, hi = pad[2 * i], pad[2 * i + 1]
        x = x[(slice(None),) * d + (slice(max(-lo, 0), x.shape[d] - max(-hi, 0)),)]
        widths[d] = (max(lo, 0), max(hi, 0))
    return np.pad(x, widths, constant_values=np.array(value).astype(x.dtype))


def _index_args(op, dtype, rng):
    """Integer index tensors stay int64, whatever the sample dtype."""
    return rng


SHAPE_COMPOSITE_OPS = [
    OpInfo("roll", _roll_ref, ALL, _samples(((3, 4), (1, 0)), ((3, 4), (-5, 1)), ((3, 4), ((1, 2), (0, 1))),
                                            ((2, 3), (4,)), ((0, 3), (1, 0))),
           error_inputs=lambda: [ErrorInput((torch.ones(2, 3), (1, 2), 0), {}, RuntimeError,
                                            "shifts and dimensions must align. shifts: 2, dims:1")]),
    OpInfo("constant_pad_nd", _constant_pad_ref, ALL,
           _samples(((3, 4), ([1, 2],)), ((2, 3, 4), ([1, 1, 2, 0], 1)), ((3, 5), ([-1, 2, 0, -1],)),
                    ((2, 3), ([],)), ((0, 3), ([1, 1, 1, 1],)), ((3,), ([-3, 1],))),
           method=False,
           error_inputs=lambda: [
               ErrorInput((torch.ones(2, 3), [1, 1, 1]), {}, RuntimeError, "Length of pad must be even"),
               ErrorInput((torch.ones(2, 3), [1] * 6), {}, RuntimeError,
                          "Length of pad should be no more than twice the number of dimensions"),
               ErrorInput((torch.ones(2, 3), [-2, -2]), {}, RuntimeError, "narrow")]),
    OpInfo("rot90", lambda x, k=1, dims=(0, 1): np.rot90(x, k, dims), ALL,
           _samples(((3, 4), ()), ((3, 4), (2,)), ((2, 3, 4), (-1, (2, 0))), ((3, 4), (3, (1, 0))))),
    OpInfo("fliplr", np.fliplr, ALL, _samples(((3, 4), ()), ((2, 3, 4), ())),
           error_inputs=lambda: [ErrorInput((torch.ones(3),), {}, RuntimeError, "Input must be >= 2-d.")]),
    OpInfo("flipud", np.flipud, ALL, _samples(((3, 4), ()), ((5,), ()))),
    OpInfo("diff", _diff_ref, NUMERIC, _samples(((5,), ()), ((3, 4), (2, 0)), ((3, 4), (1, -1)), ((4,), (7,)))),
    OpInfo("ravel", np.ravel, ALL, _samples(((3, 4), ()), ((), ()))),
    OpInfo("tile", np.tile, ALL, _samples(((3,), ((2,),)), ((2, 3), ((2,),)), ((2, 3), ((2, 1, 2),)))),
    OpInfo("tensor_split", _flat_numpy(lambda x, s, dim=0: np.array_split(x, s, dim)), NUMERIC,
           _samples(((7,), (3,)), ((4, 6), (4, 1)), ((2, 5), (7, 1))), op=_flat_torch("tensor_split"), method=False,
           error_inputs=lambda: [ErrorInput((torch.ones(3), 0), {}, RuntimeError,
                                            "number of sections must be larger than 0, got 0")]),
    OpInfo("tensor_split", _flat_numpy(lambda x, idx, dim=0: np.split(x, idx, dim)), NUMERIC,
           _samples(((7,), ([1, 5],)), ((4, 6), ([2, 9, 3], 1)), ((7,), ([-2],))), variant="indices",
           op=_flat_torch("tensor_split"), method=False),
    OpInfo("hsplit", _flat_numpy(np.hsplit), NUMERIC, _samples(((4, 4), (2,)), ((6,), ([2, 4],))),
           op=_flat_torch("hsplit"), method=False),
    OpInfo("vsplit", _flat_numpy(np.vsplit), NUMERIC, _samples(((4, 3), (2,)), ((4, 3), ([1],))),
           op=_flat_torch("vsplit"), method=False, error_inputs=lambda: [
               ErrorInput((torch.ones(4), 2), {}, RuntimeError,
                          "torch.vsplit requires a tensor with at least 2 dimension, but got a tensor with 1 dimensions!"),
               ErrorInput((torch.ones(3, 2), 2), {}, RuntimeError, "is not divisible by the split_size 2!")]),
    OpInfo("dsplit", _flat_numpy(np.dsplit), NUMERIC, _samples(((2, 2, 4), (2,)), ((2, 2, 4), ([3],))),
           op=_flat_torch("dsplit"), method=False),
    OpInfo("atleast_1d", np.atleast_1d, ALL, _samples(((), ()), ((3,), ()), ((2, 3), ())), method=False),
    OpInfo("atleast_2d", np.atleast_2d, ALL, _samples(((), ()), ((3,), ()), ((2, 3), ())), method=False),
    OpInfo("atleast_3d", np.atleast_3d, ALL, _samples(((), ()), ((3,), ()), ((2, 3), ()), ((2, 3, 4), ())),
           method=False),
    OpInfo("hstack", np.hstack, ALL, _list_samples([(3,), (2,)], [(2, 1), (2, 3)]), method=False,
           error_inputs=lambda: [ErrorInput(([],), {}, RuntimeError, "hstack expects a non-empty TensorList")]),
    OpInfo("vstack", np.vstack, ALL, _list_samples([(3,), (3,)], [(2, 3), (1, 3)], [(), ()]), method=False),
    OpInfo("dstack", np.dstack, ALL, _list_samples([(3,), (3,)], [(2, 3), (2, 3)]), method=False),
    OpInfo("column_stack", np.column_stack, ALL, _list_samples([(3,), (3, 2)], [(2,), (2,)]), method=False),
    OpInfo("broadcast_tensors", lambda ts: np.concatenate([a.reshape(-1) for a in np.broadcast_arrays(*ts)]), ALL,
           _list_samples([(3, 1), (4,)], [(2, 3), (2, 3)], [(), (2, 2)]),
           op=lambda ts: torch.cat([t.reshape(-1) for t in torch.broadcast_tensors(*ts)]), method=False),
    OpInfo("take_along_dim", _take_along_ref, ALL, _take_along_samples, error_inputs=lambda: [
        ErrorInput((torch.ones(2, 3), torch.zeros(2, 1, dtype=torch.int32), 1), {}, RuntimeError,
                   "dtype of indices should be Long but got Int")]),
    OpInfo("diagonal", lambda x, offset=0, dim1=0, dim2=1: np.diagonal(x, offset, dim1, dim2), ALL,
           _samples(((3, 4), ()), ((3, 4), (1,)), ((3, 4), (-2,)), ((2, 3, 4), (1, 2, 0)), ((3, 4), (7,))),
           error_inputs=lambda: [ErrorInput((torch.ones(2, 3), 0, 1, 1), {}, RuntimeError,
                                            "diagonal dimensions cannot be identical 1, 1")]),
    OpInfo("diagonal_copy", lambda x, offset=0, dim1=0, dim2=1: np.diagonal(x, offset, dim1, dim2).copy(), ALL,
           _samples(((3, 4), ()), ((2, 3, 4), (1, 2, 0))), method=False),
    OpInfo("diag_embed", _diag_embed_ref, ALL, _samples(((3,), ()), ((2, 3), (1,)), ((2, 3), (-1,)))),
    OpInfo("diag", np.diag, ALL, _samples(((3,), ()), ((3,), (-1,)), ((3, 4), (1,)), ((3, 4), ())),
           error_inputs=lambda: [ErrorInput((torch.ones(2, 2, 2),), {}, RuntimeError,
                                            "diag\\(\\): Supports 1D or 2D tensors. Got 3D")]),
    OpInfo("diagflat", np.diagflat, ALL, _samples(((2, 2), ()), ((3,), (1,)))),
    OpInfo("trace", np.trace, NUMERIC, _samples(((3, 4), ()), ((4, 4), ())),
           result_dtype=lambda d: d if d.is_floating_point else torch.int64,
           error_inputs=lambda: [ErrorInput((torch.ones(3),), {}, RuntimeError,
                                            "trace: expected a matrix, but got tensor with dim 1")]),
]
