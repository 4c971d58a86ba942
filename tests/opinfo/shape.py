"""View and shape ops: new geometry, the same values."""
import numpy as np

import torch

from .core import ALL, INTS, NUMERIC, ErrorInput, KnownValue, OpInfo, SampleInput, make_array


def _samples(*cases):
    def gen(op, dtype, rng):
        for shape, args in cases:
            yield SampleInput((make_array(shape, dtype, rng),) + tuple(args), desc=f"{shape} {args}")
    return gen


def _squeeze_ref(x, dims=None):
    """Drops the size-1 dims among `dims` (an int, a tuple, or every dim)."""
    if x.ndim == 0:
        return x
    if dims is None:
        dims = tuple(range(x.ndim))
    elif isinstance(dims, int):
        dims = (dims,)
    return np.squeeze(x, tuple(d % x.ndim for d in dims if x.shape[d] == 1))


def method(name):
    return lambda t, *args, **kw: getattr(t, name)(*args, **kw)


def _view_errors():
    yield ErrorInput((torch.ones(2, 3), 4), {}, RuntimeError, r"shape '\[4\]' is invalid for input of size 6")
    yield ErrorInput((torch.ones(2, 3).t(), 6), {}, RuntimeError, "view size is not compatible")
    yield ErrorInput((torch.ones(2, 3), -1, -1), {}, RuntimeError, "only one dimension can be inferred")


def _permute_errors():
    yield ErrorInput((torch.ones(2, 3), (0,)), {}, RuntimeError, "number of dimensions in the tensor input does not match")
    yield ErrorInput((torch.ones(2, 3), (0, 0)), {}, RuntimeError, "duplicate dims are not allowed")


def _transpose_errors():
    yield ErrorInput((torch.ones(2, 3), 0, 2), {}, IndexError, "Dimension out of range")


def _cat_samples(op, dtype, rng):
    yield SampleInput(([make_array((2, 3), dtype, rng), make_array((4, 3), dtype, rng)],), desc="dim 0")
    yield SampleInput(([make_array((2, 3), dtype, rng), make_array((2, 1), dtype, rng)], 1), desc="dim 1")
    yield SampleInput(([make_array((2, 3), dtype, rng), make_array((0, 3), dtype, rng)], -2), desc="with empty")


def _list_op(name):
    def op(tensors, *args):
        return getattr(torch, name)([to_torch_arg(t) for t in tensors], *args)
    return op


def to_torch_arg(t):
    return t


def _cat_errors():
    yield ErrorInput(([],), {}, ValueError, r"torch.cat\(\): expected a non-empty list of Tensors")
    yield ErrorInput(([torch.ones(2, 3), torch.ones(2, 4)],), {}, RuntimeError,
                     "Sizes of tensors must match except in dimension 0")
    yield ErrorInput(([torch.ones(2), torch.ones(2, 2)], 0), {}, RuntimeError, "Tensors must have same number of dimensions")
    yield ErrorInput(([torch.tensor([1, 2], dtype=torch.uint8)],), {"out": torch.zeros(1, dtype=torch.bool)}, TypeError,
                     r"torch.cat\(\): input types can't be cast to the desired output type Bool")


def _stack_errors():
    yield ErrorInput(([torch.ones(2), torch.ones(3)],), {}, RuntimeError, "stack expects each tensor to be equal size")
    yield ErrorInput(([torch.ones(2), torch.ones(3)], 5), {}, IndexError, "Dimension out of range")  # the dim first


def _index_samples(op, dtype, rng):
    x = make_array((4, 5), dtype, rng)
    yield SampleInput((x, 0, np.array([3, 0, 0, 2])), desc="dim 0, repeats")
    yield SampleInput((x, 1, np.array([4, 1])), desc="dim 1")
    yield SampleInput((x, 1, np.array([], dtype=np.int64)), desc="empty index")


def _gather_samples(op, dtype, rng):
    x = make_array((3, 4), dtype, rng)
    yield SampleInput((x, 1, rng.integers(0, 4, size=(3, 2))), desc="dim 1")
    yield SampleInput((x, 0, rng.integers(0, 3, size=(2, 4))), desc="dim 0")


def _take_samples(op, dtype, rng):
    x = make_array((3, 4), dtype, rng)
    yield SampleInput((x, np.array([[0, 11], [-1, 5]])), desc="2-d index, negative")
    yield SampleInput((x, np.array([2, 2, 7])), desc="repeats")
    yield SampleInput((x.T, np.array([1, 4])), desc="non-contiguous self")
    yield SampleInput((make_array((), dtype, rng), np.array([0, -1])), desc="0-d self")
    yield SampleInput((x, np.array([], dtype=np.int64)), desc="empty index")


def _take_errors():
    yield ErrorInput((torch.ones(3), torch.tensor([3])), {}, IndexError,
                     "out of range: tried to access index 3 on a tensor of 3 elements.")
    yield ErrorInput((torch.ones(3), torch.tensor([[0, -4]])), {}, IndexError, "tried to access index -4")
    yield ErrorInput((torch.ones(3), torch.tensor([0], dtype=torch.int32)), {}, RuntimeError,
                     "take\\(\\): Expected a long tensor for index, but got Int")
    yield ErrorInput((torch.ones(0), torch.tensor([0])), {}, IndexError, "tried to take from an empty tensor")


def _put_samples(op, dtype, rng):
    x = make_array((3, 4), dtype, rng)
    accumulate = op.variant == "accumulate"
    # Without accumulate, distinct places (a repeated one would keep whichever write came last).
    index = np.array([[0, 10], [-1, 5]]) if not accumulate else np.array([[0, 11], [-1, 0]])
    yield SampleInput((x, index, make_array((2, 2), dtype, rng)), {"accumulate": accumulate}, desc="2-d index")
    yield SampleInput((x.T, np.array([1, 4, -3]), make_array((3,), dtype, rng)), {"accumulate": accumulate},
                      desc="non-contiguous self")
    yield SampleInput((x, np.array([], dtype=np.int64), make_array((0,), dtype, rng)), {"accumulate": accumulate},
                      desc="empty index")


def _put_ref(x, index, source, accumulate=False):
    out = x.copy().reshape(-1)
    flat = index.reshape(-1) % max(out.size, 1)
    if accumulate:
        np.add.at(out, flat, source.reshape(-1))
    else:
        out[flat] = source.reshape(-1)
    return out.reshape(x.shape)


def _put_errors():
    yield ErrorInput((torch.ones(2, 3), torch.tensor([6]), torch.ones(1)), {}, IndexError,
                     "out of range: tried to access index 6 on a tensor of 6 elements.")
    yield ErrorInput((torch.ones(2, 3), torch.tensor([0, 1]), torch.ones(3)), {}, IndexError,
                     "Expected source and index to have the same number of elements")
    yield ErrorInput((torch.ones(2, 3), torch.tensor([0], dtype=torch.int32), torch.ones(1)), {}, RuntimeError,
                     "Expected a long tensor for index, but got Int")
    yield ErrorInput((torch.ones(2, 3), torch.tensor([0]), torch.ones(1, dtype=torch.float64)), {}, RuntimeError,
                     "self and source expected to have the same dtype")
    yield ErrorInput((torch.ones(0), torch.tensor([0]), torch.ones(1)), {}, IndexError,
                     "Tried to put elements into an empty tensor")


def _bincount_samples(op, dtype, rng):
    values = rng.integers(0, 6, size=20)
    weighted = op.variant == "weights"
    # Weights in the sample's integer dtype: counted in double, as PyTorch (float32 weights stay float32).
    args = (values, rng.integers(0, 5, size=20)) if weighted else (values,)
    yield SampleInput(args, desc="counts")
    yield SampleInput(args, {"minlength": 9}, desc="minlength past the largest")
    if not weighted:
        yield SampleInput((np.array([], dtype=np.int64),), {"minlength": 3}, desc="empty")


def _bincount_errors():
    yield ErrorInput((torch.tensor([1, -1]),), {}, RuntimeError, "bincount only supports 1-d non-negative integral")
    yield ErrorInput((torch.tensor([[1]]),), {}, RuntimeError, "bincount only supports 1-d non-negative integral")
    yield ErrorInput((torch.tensor([1]),), {"minlength": -1}, RuntimeError, "minlength should be >= 0")
    yield ErrorInput((torch.tensor([1.0]),), {}, NotImplementedError, "\"bincount_cpu\" not implemented for 'Float'")
    yield ErrorInput((torch.tensor([1, 2]),), {"weights": torch.ones(3)}, RuntimeError,
                     "weights should be 1-d and have the same length as input")
    # The largest value sizes the result: one past int64's range was a crash (the size overflowed).
    yield ErrorInput((torch.tensor([0, 2 ** 63 - 1]),), {"weights": torch.ones(2)}, RuntimeError,
                     "maximum value of input overflowed, it should be < 9223372036854775807 but got "
                     "9223372036854775807")


def _gather_ref(x, dim, index):
    return np.take_along_axis(x, index, axis=dim)


def _scatter_samples(op, dtype, rng):
    x = make_array((3, 4), dtype, rng)
    # A permutation per row: no two writes hit one place, so the result is defined.
    index = np.stack([rng.permutation(4)[:2] for _ in range(3)])
    yield SampleInput((x, 1, index, make_array((3, 2), dtype, rng)), desc="dim 1")


def _scatter_ref(x, dim, index, src):
    out = x.copy()
    np.put_along_axis(out, index, src[:, : index.shape[1]], axis=dim)
    return out


def _scatter_add_ref(x, dim, index, src):
    out = x.copy()
    for i in range(index.shape[0]):
        for j in range(index.shape[1]):
            out[i, index[i, j]] += src[i, j]
    return out


def _scatter_reduce_samples(op, dtype, rng):
    x = make_array((3, 4), dtype, rng)
    # Repeated indices: several values meet at most positions.
    index = rng.integers(0, 4, size=(3, 5))
    src = make_array((3, 5), dtype, rng)
    for include_self in (True, False):
        yield SampleInput((x, 1, index, src, op.variant), {"include_self": include_self},
                          desc=f"dim 1, include_self={include_self}")
    yield SampleInput((make_array((4, 3), dtype, rng), 0, rng.integers(0, 4, size=(3, 2)),
                       make_array((3, 2), dtype, rng), op.variant), {"include_self": False},
                      desc="dim 0, index narrower than self")
    yield SampleInput((make_array((), dtype, rng), 0, np.array(0), make_array((), dtype, rng), op.variant), desc="0-d")
    yield SampleInput((x, 1, np.zeros((3, 0), dtype=np.int64), make_array((3, 0), dtype, rng), op.variant),
                      desc="empty index")


def _scatter_reduce_ref(x, dim, index, src, reduce, include_self=True):
    if x.ndim == 0:
        return _scatter_reduce_ref(x.reshape(1), 0, index.reshape(1), src.reshape(1), reduce, include_self).reshape(())
    fold = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum, "amin": np.minimum}[reduce]
    where = list(np.indices(index.shape))
    values = src[tuple(where)]  # src's part in index's shape
    where[dim] = index
    where = tuple(where)
    out = x.copy()
    if not include_self:
        if x.dtype == np.bool_:
            start = reduce == "amin" or reduce == "prod"
        elif reduce in ("amax", "amin"):
            info = np.finfo(x.dtype) if x.dtype.kind == "f" else np.iinfo(x.dtype)
            start = (-np.inf if reduce == "amax" else np.inf) if x.dtype.kind == "f" else (
                info.min if reduce == "amax" else info.max)
        else:
            start = 1 if reduce == "prod" else 0
        out[where] = start
    fold.at(out, where, values)
    if reduce == "mean":
        count = np.full(x.shape, 1 if include_self else 0)
        np.add.at(count, where, 1)
        count[count == 0] = 1
        out = (out // count if x.dtype.kind in "iu" else out / count).astype(x.dtype)
    return out


def _scatter_reduce_errors():
    x, index, src = torch.zeros(3), torch.tensor([0, 1]), torch.ones(2)
    yield ErrorInput((x, 0, index, src, "max_"), {}, RuntimeError,
                     "reduce argument must be either sum, prod, mean, amax or amin, got max_")
    yield ErrorInput((x, 0, index, src.double(), "sum"), {}, RuntimeError,
                     r"scatter\(\): Expected self.dtype to be equal to src.dtype")
    yield ErrorInput((x, 0, index.float(), src, "sum"), {}, RuntimeError, "Expected dtype int32/int64 for index")
    yield ErrorInput((x, 0, torch.tensor([0, 3]), src, "amax"), {}, RuntimeError,
                     "index 3 is out of bounds for dimension 0 with size 3")
    yield ErrorInput((x, 0, torch.tensor([0, 1, 2]), src, "prod"), {}, RuntimeError, "no larger size than src")
    yield ErrorInput((x.bool(), 0, index, src.bool(), "mean"), {}, NotImplementedError, "not implemented for 'Bool'")


def _index_reduce_samples(op, dtype, rng):
    x = make_array((4, 3), dtype, rng)
    for include_self in (True, False):
        yield SampleInput((x, 0, np.array([3, 0, 0, 2, 0]), make_array((5, 3), dtype, rng), op.variant),
                          {"include_self": include_self}, desc=f"dim 0, repeats, include_self={include_self}")
    yield SampleInput((x, 1, np.array([2, 2]), make_array((4, 2), dtype, rng), op.variant), desc="dim 1")
    yield SampleInput((make_array((), dtype, rng), 0, np.array([0]), make_array((), dtype, rng), op.variant),
                      desc="0-d")
    yield SampleInput((x, 1, np.array([], dtype=np.int64), make_array((4, 0), dtype, rng), op.variant),
                      desc="empty index")


def _index_reduce_ref(x, dim, index, source, reduce, include_self=True):
    if x.ndim == 0:
        return _index_reduce_ref(x.reshape(1), 0, index, source.reshape(1), reduce, include_self).reshape(())
    shape = [1] * source.ndim
    shape[dim] = index.size
    spread = np.broadcast_to(index.reshape(shape), source.shape)
    return _scatter_reduce_ref(x, dim, spread, source, reduce, include_self)


def _index_reduce_errors():
    x, index, source = torch.ones(3, 2), torch.tensor([0, 2, 0]), torch.ones(3, 2)
    yield ErrorInput((x, 0, index, source, "sum"), {}, RuntimeError,
                     "index_reduce\\(\\): Expected reduce to be one of prod, mean, amax or amin but got sum")
    yield ErrorInput((x, 0, index.float(), source, "prod"), {}, RuntimeError,
                     "Expected dtype int32/int64 for index but got: Float")
    yield ErrorInput((x, 0, index.view(3, 1), source, "prod"), {}, IndexError, "Index is supposed to be a vector")
    yield ErrorInput((x, 0, index, source.double(), "amax"), {}, RuntimeError, "must have the same scalar type")
    yield ErrorInput((x, 0, index + 3, source, "amin"), {}, IndexError, "index out of range in self")
    yield ErrorInput((x, 0, index[:2], source, "mean"), {}, RuntimeError,
                     r"Number of indices \(2\) should be equal to source.size\(dim\)")
    yield ErrorInput((x, 0, index, torch.ones(3), "prod"), {}, RuntimeError, "source tensor shape must match self")
    # bool: refused where PyTorch's kernels refuse it (a vector self, include_self=False, mean).
    yield ErrorInput((x[:, 0].bool(), 0, index, source[:, 0].bool(), "amax"), {}, NotImplementedError,
                     "\"index_func_\" not implemented for 'Bool'")
    yield ErrorInput((x.bool(), 0, index, source.bool(), "amax"), {"include_self": False}, NotImplementedError,
                     "\"index_reduce_func_exclude_input_init\" not implemented for 'Bool'")
    yield ErrorInput((x.bool(), 0, index, source.bool(), "mean"), {}, NotImplementedError,
                     "\"div_floor_cpu\" not implemented for 'Bool'")


def _index_add_samples(op, dtype, rng):
    x = make_array((4, 5), dtype, rng)
    yield SampleInput((x, 0, np.array([3, 0, 0, 2]), make_array((4, 5), dtype, rng)), desc="dim 0, repeats add up")
    yield SampleInput((x, 1, np.array([4, 1]), make_array((4, 2), dtype, rng)), {"alpha": 2}, desc="dim 1, alpha")
    yield SampleInput((x, 1, np.array([], dtype=np.int64), make_array((4, 0), dtype, rng)), desc="empty index")


def _index_add_ref(x, dim, index, source, alpha=1):
    out = x.copy()
    moved = np.moveaxis(out, dim, 0)
    np.add.at(moved, index, np.moveaxis(source, dim, 0) * np.array(alpha).astype(x.dtype))
    return out


def _index_copy_samples(op, dtype, rng):
    x = make_array((4, 5), dtype, rng)
    yield SampleInput((x, 0, np.array([3, 0, 2]), make_array((3, 5), dtype, rng)), desc="dim 0")
    yield SampleInput((x, 1, np.array([4, 1]), make_array((4, 2), dtype, rng)), desc="dim 1")


def _index_fill_samples(op, dtype, rng):
    x = make_array((4, 5), dtype, rng)
    value = make_array((), dtype, rng)
    yield SampleInput((x, 0, np.array([3, 0, 2]), 1), desc="dim 0, a number")
    yield SampleInput((x, 1, np.array([-1, 1, 1]), value), desc="negative and repeated indices, a 0-d tensor value")
    if dtype.is_floating_point:  # (for integer dtypes the harness reads a 0-d integer array as a value)
        yield SampleInput((make_array((2, 3, 4), dtype, rng), -2, np.array(2), value), desc="0-d index, 3-D, dim -2")
    yield SampleInput((make_array((), dtype, rng), 0, np.array([-1]), value), desc="0-d self")
    yield SampleInput((x, 1, np.array([], dtype=np.int64), 1), desc="no index")


def _index_fill_ref(x, dim, index, value):
    out = x.copy()
    view = out.reshape(1) if out.ndim == 0 else out
    np.moveaxis(view, dim, 0)[np.asarray(index).reshape(-1)] = np.asarray(value).astype(x.dtype)
    return out


def _index_fill_errors():
    x = torch.zeros(2, 3)
    yield ErrorInput((x, 1, torch.tensor([3]), 1.0), {}, IndexError, "index 3 is out of bounds for dimension 1 with size 3")
    yield ErrorInput((x, 1, torch.tensor([-4]), 1.0), {}, IndexError, "index -4 is out of bounds for dimension 1")
    yield ErrorInput((x, 1, torch.tensor([0.0]), 1.0), {}, IndexError, "index_fill_\\(\\): Expected dtype int64 for index.")
    yield ErrorInput((x, 1, torch.tensor([[0]]), 1.0), {}, RuntimeError, "Index has to be a vector/scalar")
    yield ErrorInput((x, 2, torch.tensor([0]), 1.0), {}, IndexError, "Dimension out of range")
    yield ErrorInput((x, 1, torch.tensor([0]), torch.tensor([7.0])), {}, RuntimeError,
                     "index_fill_ only supports a 0-dimensional value tensor, but got tensor with 1 dimension")


def _index_copy_ref(x, dim, index, source):
    out = x.copy()
    np.moveaxis(out, dim, 0)[index] = np.moveaxis(source, dim, 0)
    return out


def _index_update_errors(name):
    def errors():
        x = torch.zeros(3, 4)
        yield ErrorInput((x, 0, torch.tensor([0, 1]), torch.ones(1, 4)), {}, RuntimeError if name == "index_add" else
                         IndexError, rf"{name}_\(\): Number of indices \(2\) should be equal to source.size\(dim\)")
        yield ErrorInput((x, 0, torch.tensor([0]), torch.ones(1, 5)), {}, RuntimeError,
                         "source tensor shape must match self tensor shape, excluding the specified dimension"
                         if name == "index_add" else "Source/destination tensor must have same slice shapes. "
                         "Destination slice shape: 4 at dimension 0 and source slice shape: 5 at dimension 0")
        yield ErrorInput((x, 0, torch.tensor([3]), torch.ones(1, 4)), {}, RuntimeError if name == "index_add" else
                         IndexError, "index 3 is out of bounds for dimension 0 with size 3")
        yield ErrorInput((x, 0, torch.tensor([-1]), torch.ones(1, 4)), {}, RuntimeError if name == "index_add" else
                         IndexError, "index -1 is out of bounds for dimension 0 with size 3")
        # A vector (or 0-d) self: index_add's other words, an IndexError.
        yield ErrorInput((torch.zeros(3), 0, torch.tensor([0, 5]), torch.ones(2)), {}, IndexError,
                         "index out of range in self" if name == "index_add" else
                         "index_copy_\\(\\): index 5 is out of bounds for dimension 0 with size 3")
        if name == "index_copy":  # int32 indices are index_add's only
            yield ErrorInput((x, 0, torch.tensor([0], dtype=torch.int32), torch.ones(1, 4)), {}, RuntimeError,
                             "index_copy_\\(\\): Expected a long tensor for index, but got Int")
    return errors


def _index_errors():
    yield ErrorInput((torch.ones(3), 0, torch.tensor([3])), {}, IndexError, "index out of range in self")
    # Negative indices do not wrap (as in PyTorch), and dim 1 reports in other words.
    yield ErrorInput((torch.ones(3), 0, torch.tensor([-1])), {}, IndexError, "index out of range in self")
    yield ErrorInput((torch.ones(2, 3), 1, torch.tensor([-1])), {}, RuntimeError,
                     "INDICES element is out of DATA bounds, id=-1 axis_dim=3")
    yield ErrorInput((torch.ones(3), 0, torch.tensor([0.0])), {}, RuntimeError, "Expected dtype int32 or int64 for index")
    yield ErrorInput((torch.ones(3), 100, torch.tensor([0.0])), {}, IndexError, "Dimension out of range")  # dim first


def _gather_errors():
    yield ErrorInput((torch.ones(2, 3), 1, torch.tensor([[5]])), {}, RuntimeError,
                     "index 5 is out of bounds for dimension 1 with size 3")
    yield ErrorInput((torch.ones(2, 3), 1, torch.tensor([[-1]])), {}, RuntimeError,
                     "index -1 is out of bounds for dimension 1 with size 3")
    yield ErrorInput((torch.ones(3), 0, torch.tensor([0.0])), {}, RuntimeError, "Expected dtype int32/int64 for index")


def _scatter_errors():
    # Once a crash: an index longer than src read past src's end.
    yield ErrorInput((torch.zeros(3), 0, torch.tensor([1]), torch.zeros(0)), {}, RuntimeError,
                     r"to be no larger size than src \[0\]")
    yield ErrorInput((torch.tensor(3.0), 0, torch.tensor(0), torch.tensor([])), {}, RuntimeError,
                     "no larger size than src")
    yield ErrorInput((torch.zeros(1).expand(3), 0, torch.tensor([1]), torch.ones(1)), {}, RuntimeError,
                     "more than one element of the written-to tensor refers to a single memory location")


SHAPE_OPS = [
    OpInfo("view", lambda x, *s: x.reshape(*s), ALL,
           _samples(((2, 6), (3, 4)), ((2, 6), (-1,)), ((2, 3, 4), (6, -1)), ((), (1,)), ((0, 4), (4, 0))),
           op=method("view"), method=False, error_inputs=_view_errors),
    OpInfo("reshape", lambda x, s: x.reshape(s), ALL,
           _samples(((2, 6), ((3, 4),)), ((2, 6), ((-1,),)), ((5,), ((5, 1),))),
           error_inputs=lambda: iter([ErrorInput((torch.ones(2, 3), (4,)), {}, RuntimeError, "is invalid for input of size 6")])),
    OpInfo("transpose", lambda x, a, b: np.swapaxes(x, a, b), ALL,
           _samples(((2, 3), (0, 1)), ((2, 3, 4), (0, 2)), ((2, 3, 4), (-1, 1)), ((4,), (0, 0))),
           error_inputs=_transpose_errors),
    OpInfo("permute", lambda x, d: np.transpose(x, d), ALL,
           _samples(((2, 3, 4), ((2, 0, 1),)), ((2, 3), ((1, 0),)), ((), ((),))), error_inputs=_permute_errors),
    OpInfo("t", lambda x: x.T, ALL, _samples(((2, 3), ()), ((4,), ()))),
    OpInfo("contiguous", lambda x: x, ALL, _samples(((2, 3), ()), ((), ())), op=method("contiguous"), method=False),
    OpInfo("unsqueeze", lambda x, d: np.expand_dims(x, d), ALL, _samples(((2, 3), (0,)), ((2, 3), (-1,)), ((), (0,))),
           inplace=True),
    OpInfo("squeeze", _squeeze_ref, ALL,
           _samples(((1, 3, 1), ()), ((1, 3), (0,)), ((2, 3), (1,)), ((1, 3, 1, 1), ((0, 2),)), ((2, 1), ((-1, 0),)),
                    ((), ((0,),))),
           inplace=True, error_inputs=lambda: [ErrorInput((torch.ones(1, 2), (0, -2)), {}, RuntimeError,
                                                          "dim 0 appears multiple times in the list of dims")]),
    OpInfo("flatten", lambda x, *a: x.reshape(-1) if not a else x.reshape(x.shape[: a[0]] + (-1,)), ALL,
           _samples(((2, 3, 4), ()), ((2, 3, 4), (1,)), ((), ()), ((5,), (-1,)))),
    OpInfo("unflatten", lambda x, d, s: x.reshape(x.shape[:d] + tuple(s) + x.shape[d + 1:]), ALL,
           _samples(((6, 2), (0, (2, 3))), ((2, 6), (1, (3, -1)) if False else (1, (3, 2)))),
           error_inputs=lambda: [ErrorInput((torch.ones(2), 0, []), {}, RuntimeError, "sizes must be non-empty"),
                                 ErrorInput((torch.ones(2), 5, []), {}, IndexError, "Dimension out of range")]),
    OpInfo("broadcast_to", lambda x, s: np.broadcast_to(x, s), ALL, _samples(((3, 1), ((2, 3, 4),)), ((), ((2,),)))),
    OpInfo("narrow", lambda x, d, st, n: np.take(x, range(st, st + n), axis=d), ALL,
           _samples(((5, 3), (0, 1, 3)), ((5, 3), (1, -2, 2)) if False else ((5, 3), (1, 1, 2))),
           error_inputs=lambda: [ErrorInput((torch.ones(2), 0, 5, -1), {}, RuntimeError,
                                            "length must be non-negative")]),
    OpInfo("flip", lambda x, dims: np.flip(x, dims), ALL, _samples(((3, 4), ((0,),)), ((2, 3, 4), ((0, 2),)), ((5,), ((-1,),)))),
    OpInfo("repeat", lambda x, reps: np.tile(x, reps), ALL, _samples(((2, 3), ((2, 1),)), ((3,), ((2, 2),))),
           op=method("repeat"), method=False),
    OpInfo("cat", lambda ts, dim=0: np.concatenate(ts, axis=dim), ALL, _cat_samples, method=False,
           error_inputs=_cat_errors),
    OpInfo("stack", lambda ts, dim=0: np.stack(ts, axis=dim), ALL,
           lambda op, d, rng: [SampleInput(([make_array((2, 3), d, rng), make_array((2, 3), d, rng)], 1))],
           method=False, error_inputs=_stack_errors),
    OpInfo("index_select", lambda x, dim, idx: np.take(x, idx, axis=dim), ALL, _index_samples, error_inputs=_index_errors),
    OpInfo("gather", _gather_ref, ALL, _gather_samples, error_inputs=_gather_errors),
    OpInfo("take", lambda x, idx: np.take(x.reshape(-1), idx), ALL, _take_samples, error_inputs=_take_errors),
    OpInfo("put", _put_ref, ALL, _put_samples, inplace=True, error_inputs=_put_errors),
    OpInfo("put", _put_ref, NUMERIC, _put_samples, variant="accumulate", inplace=True),
    OpInfo("bincount", lambda x, minlength=0: np.bincount(x, minlength=minlength), INTS, _bincount_samples,
           result_dtype=lambda d: torch.int64, error_inputs=_bincount_errors),
    OpInfo("bincount", lambda x, weights, minlength=0: np.bincount(x, weights, minlength), INTS, _bincount_samples,
           variant="weights", result_dtype=lambda d: torch.float64),
    OpInfo("scatter", _scatter_ref, ALL, _scatter_samples, inplace=True,
           error_inputs=lambda: (e for e in _scatter_errors() if "memory location" not in e.match)),
    OpInfo("scatter_add", _scatter_add_ref, NUMERIC, _scatter_samples, inplace=True,
           error_inputs=lambda: (e for e in _scatter_errors() if "memory location" not in e.match)),
    *[OpInfo("scatter_reduce", _scatter_reduce_ref, NUMERIC if reduce == "mean" else ALL, _scatter_reduce_samples,
             variant=reduce, inplace=True, error_inputs=_scatter_reduce_errors if reduce == "sum" else lambda: ())
      for reduce in ("sum", "prod", "mean", "amax", "amin")],
    *[OpInfo("index_reduce", _index_reduce_ref, NUMERIC, _index_reduce_samples, variant=reduce, inplace=True,
             error_inputs=_index_reduce_errors if reduce == "prod" else lambda: ())
      for reduce in ("prod", "mean", "amax", "amin")],
    OpInfo("index_add", _index_add_ref, NUMERIC, _index_add_samples, inplace=True,
           error_inputs=_index_update_errors("index_add"), known_values=lambda: [
               KnownValue((torch.tensor([False, True]), 0, torch.tensor([0]), torch.tensor([True])), {"alpha": False},
                          torch.tensor([False, True]), why="a bool alpha of False adds nothing, as PyTorch ands it in")]),
    OpInfo("index_fill", _index_fill_ref, ALL, _index_fill_samples, inplace=True, error_inputs=_index_fill_errors),
    OpInfo("index_copy", _index_copy_ref, ALL, _index_copy_samples, inplace=True,
           error_inputs=_index_update_errors("index_copy")),
    OpInfo("nonzero", lambda x: np.argwhere(x), ALL, _samples(((3, 4), ()), ((5,), ()), ((0, 2), ())),
           result_dtype=lambda d: torch.int64),
    OpInfo("masked_select", lambda x, m: np.broadcast_to(x, np.broadcast_shapes(x.shape, m.shape))[
               np.broadcast_to(m, np.broadcast_shapes(x.shape, m.shape))], ALL,
           lambda op, d, rng: [SampleInput((make_array((3, 4), d, rng), rng.integers(0, 2, size=(3, 4)).astype(bool))),
                               SampleInput((make_array((3, 1), d, rng), rng.integers(0, 2, size=(4,)).astype(bool)))]),
]
