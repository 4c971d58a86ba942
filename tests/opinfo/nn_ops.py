"""Records of the ops that layers are built on: sorting, triangles, convolution, pooling, embedding,
layer normalisation, losses."""
import numpy as np

import torch
import torch.nn.functional as F

from .core import FLOATS, INTS, NUMERIC, ErrorInput, KnownValue, OpInfo, SampleInput, make_array

NAN = float("nan")


def _samples(*cases, domain=(-5.0, 5.0)):
    def gen(op, dtype, rng):
        for shape, args in cases:
            yield SampleInput((make_array(shape, dtype, rng, domain),) + tuple(args), desc=f"{shape} {args}")
    return gen


def _sort_ref(x, dim=-1, descending=False):
    return -np.sort(-x, axis=dim, kind="stable") if descending else np.sort(x, axis=dim, kind="stable")


def _distinct(op, dtype, rng):
    # Distinct values, so the indices of sort/topk are unambiguous.
    for shape, args in (((3, 5), ()), ((3, 5), (0,)), ((4, 3), (0, True)), ((6,), (-1, True))):
        n = int(np.prod(shape))
        values = rng.permutation(n).astype(np.float64) - n // 2
        yield SampleInput((values.reshape(shape).astype(make_array((1,), dtype, rng).dtype),) + args,
                          desc=f"{shape} {args}")


def _topk_ref(x, k, dim=-1, largest=True):
    order = np.argsort(-x if largest else x, axis=dim, kind="stable")
    return np.take_along_axis(x, np.take(order, range(k), axis=dim), axis=dim)


def _topk_samples(op, dtype, rng):
    for sample in _distinct(op, dtype, rng):
        x = sample.args[0]
        dim = sample.args[1] if len(sample.args) > 1 else -1
        yield SampleInput((x, 2, dim), desc=sample.desc)
        yield SampleInput((x, 1, dim, False), desc=sample.desc + " smallest")


def _kth_ref(x, k, dim=-1, keepdim=False):
    out = np.take(np.sort(x, axis=dim, kind="stable"), k - 1, axis=dim)
    return np.expand_dims(out, dim) if keepdim else out


def _kth_samples(op, dtype, rng):
    for sample in _distinct(op, dtype, rng):
        x = sample.args[0]
        yield SampleInput((x, 1, 0), desc=sample.desc + " k=1 dim 0")
        yield SampleInput((x, x.shape[-1], -1, True), desc=sample.desc + " k=n keepdim")


def _median_ref(x, dim=None, keepdim=False):
    if dim is None:
        return np.sort(x.ravel(), kind="stable")[(x.size - 1) // 2]
    return _kth_ref(x, (x.shape[dim] - 1) // 2 + 1, dim, keepdim)


def _median_samples(op, dtype, rng):
    for sample in _distinct(op, dtype, rng):
        x = sample.args[0]
        yield SampleInput((x,), desc=sample.desc + " whole")
        yield SampleInput((x, 0), desc=sample.desc + " dim 0")
        yield SampleInput((x, -1, True), desc=sample.desc + " dim -1 keepdim")


def _unique_consecutive_ref(x):
    flat = x.ravel()
    return flat[np.concatenate([[True], flat[1:] != flat[:-1]])] if flat.size else flat


def _slices(op, dtype, rng):
    for shape, dim in (((9, 3), 0), ((2, 7), 1), ((2, 6, 2), 1), ((3, 2, 5), -1)):
        yield SampleInput((make_array(shape, dtype, rng, domain=(0, 2)).round(), dim), desc=f"{shape} along {dim}")


def _runs(op, dtype, rng):
    for shape in ((12,), (3, 5), (0,)):
        yield SampleInput((make_array(shape, dtype, rng, domain=(0, 3)).round(),), desc=f"{shape} runs")


def _conv_ref(x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
    """Direct convolution (cross-correlation) over 1, 2 or 3 spatial dims."""
    dims = w.ndim - 2
    if x.ndim == dims + 1:  # unbatched: a batch of one
        return _conv_ref(x[None], w, b, stride, padding, dilation, groups)[0]
    expand = lambda v: (v,) * dims if isinstance(v, int) else tuple(v)  # noqa: E731
    s, d = expand(stride), expand(dilation)
    k = w.shape[2:]
    if padding == "same":  # d * (k - 1) in all, the odd one at the far end
        pads = [(d[i] * (k[i] - 1) // 2, d[i] * (k[i] - 1) - d[i] * (k[i] - 1) // 2) for i in range(dims)]
    else:
        pads = [(q, q) for q in expand(0 if padding == "valid" else padding)]
    x = np.pad(x, [(0, 0), (0, 0)] + pads)
    out_sp = [(x.shape[2 + i] - d[i] * (k[i] - 1) - 1) // s[i] + 1 for i in range(dims)]
    n, c_in = x.shape[:2]
    o = w.shape[0]
    out = np.zeros((n, o, *out_sp), dtype=np.float64)
    cg, og = c_in // groups, o // groups
    for pos in np.ndindex(*out_sp):
        for ko in np.ndindex(*k):
            idx = tuple(pos[i] * s[i] + ko[i] * d[i] for i in range(dims))
            patch = x[(slice(None), slice(None)) + idx]  # (n, c_in)
            for g in range(groups):
                out[(slice(None), slice(g * og, (g + 1) * og)) + pos] += (
                    patch[:, g * cg:(g + 1) * cg] @ w[(slice(g * og, (g + 1) * og), slice(None)) + ko].T)
    if b is not None:
        out += b.reshape((1, o) + (1,) * dims)
    return out.astype(x.dtype)


def _conv2d_samples(op, dtype, rng):
    m = lambda *s: make_array(s, dtype, rng)  # noqa: E731
    yield SampleInput((m(2, 3, 5, 4), m(4, 3, 3, 2), m(4)), desc="plain")
    yield SampleInput((m(1, 4, 6, 5), m(2, 2, 2, 2), None, 2, 1, 1, 2), desc="stride, padding, groups")
    yield SampleInput((m(1, 2, 5, 5), m(3, 2, 2, 2), m(3), 1, (1, 0), (2, 1)), desc="dilation")
    yield SampleInput((m(1, 2, 5, 4), m(3, 2, 2, 3), m(3), 1, "same"), desc="'same', even kernel height")
    yield SampleInput((m(2, 2, 5, 4), m(4, 1, 2, 3), None, 1, "same", (1, 2), 2), desc="'same', dilation, groups")
    yield SampleInput((m(1, 2, 5, 4), m(3, 2, 2, 3), None, 1, "valid"), desc="'valid'")
    # Columns that start and end in the padding, with strides and dilation (the CPU im2col's bounds).
    yield SampleInput((m(2, 2, 7, 9), m(2, 2, 3, 2), m(2), (2, 3), (2, 4), (1, 2)), desc="wide padding, strides")
    # A tap that lands right of the last input column for every output (read past the row once).
    yield SampleInput((m(1, 1, 3, 3), m(1, 1, 1, 3), None, 2, 1, (1, 2)), desc="a tap past the last column")


def _conv3d_samples(op, dtype, rng):
    m = lambda *s: make_array(s, dtype, rng)  # noqa: E731
    yield SampleInput((m(2, 3, 4, 5, 4), m(4, 3, 3, 2, 2), m(4)), desc="plain")
    yield SampleInput((m(1, 4, 5, 6, 5), m(2, 2, 2, 2, 3), None, (2, 1, 2), 1, 1, 2), desc="stride, padding, groups")
    yield SampleInput((m(1, 2, 6, 5, 5), m(3, 2, 2, 2, 2), m(3), 1, (1, 0, 2), (2, 1, 2)), desc="dilation")
    yield SampleInput((m(1, 2, 4, 5, 4), m(3, 2, 2, 3, 2), m(3), 1, "same"), desc="'same', even kernel sizes")
    yield SampleInput((m(2, 3, 4, 4), m(2, 2, 2, 2, 2)), desc="unbatched")
    yield SampleInput((m(2, 1, 5, 3, 3), m(2, 1, 1, 1, 3), m(2), 2, 1, (1, 1, 2)), desc="a tap past the last column")


def _conv1d_samples(op, dtype, rng):
    m = lambda *s: make_array(s, dtype, rng)  # noqa: E731
    yield SampleInput((m(2, 3, 7), m(4, 3, 3), m(4)), desc="plain")
    yield SampleInput((m(1, 4, 8), m(2, 2, 2), None, 2, 1, 2, 2), desc="stride, padding, dilation, groups")
    yield SampleInput((m(2, 3, 7), m(4, 3, 4), m(4), 1, "same"), desc="'same', even kernel")


def _conv_errors():
    yield ErrorInput((torch.ones(1, 3, 5, 5), torch.ones(4, 2, 3, 3)), {}, RuntimeError, "expected input")
    yield ErrorInput((torch.ones(1, 3, 2, 2), torch.ones(4, 3, 3, 3)), {}, RuntimeError, "Kernel size can't be greater")
    yield ErrorInput((torch.ones(1, 3, 5, 5), torch.ones(4, 3, 3, 3, dtype=torch.float64)), {}, RuntimeError,
                     "expected scalar type Float but found Double")
    yield ErrorInput((torch.ones(1, 3, 5, 5), torch.ones(4, 3, 3, 3)), {"stride": 0}, RuntimeError,
                     "non-positive stride")
    yield ErrorInput((torch.ones(1, 3, 5, 5), torch.ones(4, 3, 3, 3)), {"stride": 2, "padding": "same"}, RuntimeError,
                     "padding='same' is not supported for strided convolutions")
    yield ErrorInput((torch.ones(1, 3, 5, 5), torch.ones(4, 3, 3, 3)), {"padding": "x"}, RuntimeError,
                     "Invalid padding string: 'x'")
    b = torch.ones(1, 3, 5, 5, dtype=torch.bool)
    yield ErrorInput((b, b[:, :, :3, :3].expand(4, 3, 3, 3)), {}, NotImplementedError,
                     "\"slow_conv2d_cpu\" not implemented for 'Bool'")
    i32 = torch.ones(1, 3, 5, 5, dtype=torch.int32)
    yield ErrorInput((i32, i32[:, :, :2, :2]), {"dilation": 2}, NotImplementedError,
                     "\"slow_conv_dilated<>\" not implemented for 'Int'")
    yield ErrorInput((torch.ones(1, 3, 5, 5), torch.ones(4, 3, 3, 3), torch.ones(4, dtype=torch.int64)), {},
                     RuntimeError, r"Input type \(float\) and bias type \(long int\) should be the same")
    # An empty input is fine with no batch or no channels only (found by tools/difftest).
    yield ErrorInput((torch.ones(1, 2, 0, 4), torch.ones(3, 2, 1, 1)), {"padding": 1}, RuntimeError,
                     r"Only zero batch or zero channel inputs are supported, but got input shape: \[1, 2, 0, 4\]")
    yield ErrorInput((torch.ones(1, 3, 5, 5), torch.ones(2, 3, 1, 0)), {}, RuntimeError,
                     "kernel size should be greater than zero, but got kernel_height: 1 kernel_width: 0")
    yield ErrorInput((torch.ones(1, 3, 5, 5), torch.ones(2, 3, 1, 1)), {"dilation": 0}, RuntimeError,
                     r"dilation should be greater than zero, but got \[0, 0\]")
    # The input's dims are checked first, before the padding string.
    yield ErrorInput((torch.ones(3, 1), torch.ones(1)), {"padding": "x"}, RuntimeError,
                     r"Expected 3D \(unbatched\) or 4D \(batched\) input to conv2d, but got input of size: \[3, 1\]")


def _max_pool_ref(x, k, stride=None, padding=0):
    k = (k, k) if isinstance(k, int) else k
    s = k if stride is None else ((stride, stride) if isinstance(stride, int) else stride)
    p = (padding, padding) if isinstance(padding, int) else padding
    x = np.pad(x.astype(np.float64), [(0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])], constant_values=-np.inf)
    oh, ow = (x.shape[2] - k[0]) // s[0] + 1, (x.shape[3] - k[1]) // s[1] + 1
    out = np.empty(x.shape[:2] + (oh, ow))
    for i in range(oh):
        for j in range(ow):
            out[:, :, i, j] = x[:, :, i * s[0]:i * s[0] + k[0], j * s[1]:j * s[1] + k[1]].max(axis=(2, 3))
    return out


def _pool_errors():
    yield ErrorInput((torch.ones(1, 1, 4, 4), 2), {"padding": 2}, RuntimeError, "pad should be at most half")
    yield ErrorInput((torch.ones(4, 4), 2), {}, RuntimeError, "3D or 4D")


def _embedding_samples(op, dtype, rng):
    idx = np.array([[0, 3, 1], [4, 4, 2]], dtype=np.int64)
    yield SampleInput((idx, make_array((5, 3), dtype, rng)), desc="2-D indices")
    # padding_idx (whose row gets no gradient, so no gradcheck) is in oracle/cases.py.


def _embedding_errors():
    yield ErrorInput((torch.tensor([5]), torch.ones(5, 2)), {}, IndexError, "index out of range")
    yield ErrorInput((torch.tensor([-1]), torch.ones(5, 2)), {}, IndexError, "index out of range")
    yield ErrorInput((torch.tensor([1.0]), torch.ones(5, 2)), {}, RuntimeError, "Long, Int")


def _mse_ref(x, y, reduction="mean"):
    d = (x - y) ** 2
    return {"mean": d.mean(), "sum": d.sum(), "none": d}[reduction]


def _mse_samples(op, dtype, rng):
    m = lambda *s: make_array(s, dtype, rng)  # noqa: E731
    yield SampleInput((m(3, 4), m(3, 4)), desc="mean")
    yield SampleInput((m(5,), m(5,)), {"reduction": "sum"}, desc="sum")
    yield SampleInput((m(2, 3), m(2, 3)), {"reduction": "none"}, desc="none")


def _piecewise_ref(huber):
    def ref(x, y, reduction="mean", **kw):
        width = kw.get("delta" if huber else "beta", 1.0)
        a = np.abs(x - y)
        if huber:
            d = np.where(a < width, 0.5 * a * a, width * (a - 0.5 * width))
        else:
            d = a if width == 0 else np.where(a < width, 0.5 * a * a / width, a - 0.5 * width)
        return {"mean": d.mean(), "sum": d.sum(), "none": d}[reduction].astype(x.dtype)
    return ref


def _piecewise_samples(width_name):
    def gen(op, dtype, rng):
        yield from _mse_samples(op, dtype, rng)
        m = lambda *s: make_array(s, dtype, rng)  # noqa: E731
        yield SampleInput((m(4, 5), m(4, 5)), {width_name: 0.5, "reduction": "none"}, desc="width 0.5")
        yield SampleInput((m(6,), m(6,)), {width_name: 2.0, "reduction": "sum"}, desc="width 2")
        yield SampleInput((m(0, 3), m(0, 3)), {"reduction": "sum"}, desc="empty")
    return gen


def _piecewise_errors(name, width_name, message):
    def errors():
        yield ErrorInput((torch.ones(2), torch.ones(2)), {width_name: -1.0}, RuntimeError, message)
        yield ErrorInput((torch.ones(2, dtype=torch.int64), torch.ones(2, dtype=torch.int64)), {}, NotImplementedError,
                         f"\"{name}_cpu\" not implemented for 'Long'")
        yield ErrorInput((torch.ones(2), torch.ones(2)), {"reduction": "bad"}, ValueError,
                         "bad is not a valid value for reduction")
    return errors


def _nll_ref(logp, target, weight=None, ignore_index=-100, reduction="mean"):
    n = logp.shape[0]
    w = np.ones(logp.shape[1], dtype=logp.dtype) if weight is None else weight
    keep = target != ignore_index
    picked = np.where(keep, logp[np.arange(n), np.where(keep, target, 0)], 0)
    weights = np.where(keep, w[np.where(keep, target, 0)], 0)
    losses = -picked * weights
    return {"mean": losses.sum() / weights.sum(), "sum": losses.sum(), "none": losses}[reduction]


def _nll_samples(op, dtype, rng):
    logp = make_array((4, 3), dtype, rng, (-3.0, -0.1))
    target = np.array([0, 2, 1, 2], dtype=np.int64)
    weight = make_array((3,), dtype, rng, (0.5, 2.0))
    yield SampleInput((logp, target), desc="mean")
    yield SampleInput((logp, target, weight), desc="weighted mean")
    yield SampleInput((logp, target), {"reduction": "sum"}, desc="sum")
    yield SampleInput((logp, np.array([0, -100, 1, 2], dtype=np.int64)), {"reduction": "none"},
                      desc="none, ignore_index")


def _layer_norm_ref(x, shape, weight=None, bias=None, eps=1e-5):
    axes = tuple(range(x.ndim - len(shape), x.ndim))
    x64 = x.astype(np.float64)
    out = (x64 - x64.mean(axes, keepdims=True)) / np.sqrt(x64.var(axes, keepdims=True) + eps)
    if weight is not None:
        out = out * weight
    if bias is not None:
        out = out + bias
    return out.astype(x.dtype)


def _layer_norm_samples(op, dtype, rng):
    m = lambda *s: make_array(s, dtype, rng)  # noqa: E731
    yield SampleInput((m(2, 3, 4), (4,), m(4), m(4)), desc="weight and bias")
    yield SampleInput((m(3, 19), (19,)), desc="no affine, a row longer than the kernel's 8 lanes")
    yield SampleInput((m(2, 3, 5), (3, 5), m(3, 5)), desc="two normalized dims, weight only")
    yield SampleInput((m(4, 6), (6,), None, m(6)), {"eps": 1e-3}, desc="bias only, eps")
    yield SampleInput((m(7), (7,), m(7), m(7)), desc="one row")
    yield SampleInput((m(5, 4).T, (5,), m(5), m(5)), desc="transposed input")


def _group_norm_ref(x, groups, weight=None, bias=None, eps=1e-5):
    x64 = x.astype(np.float64).reshape(x.shape[0], groups, -1)
    out = ((x64 - x64.mean(2, keepdims=True)) / np.sqrt(x64.var(2, keepdims=True) + eps)).reshape(x.shape)
    affine = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    if weight is not None:
        out = out * weight.reshape(affine)
    if bias is not None:
        out = out + bias.reshape(affine)
    return out.astype(x.dtype)


def _group_norm_samples(op, dtype, rng):
    m = lambda *s: make_array(s, dtype, rng)  # noqa: E731
    yield SampleInput((m(2, 6, 5, 3), 3, m(6), m(6)), desc="weight and bias, 2-D spatial")
    yield SampleInput((m(3, 4, 19), 2), desc="no affine, blocks longer than the kernel's 8 lanes")
    yield SampleInput((m(2, 4), 4, m(4)), desc="no spatial dims, one channel per group, weight only")
    yield SampleInput((m(2, 4, 3), 1, None, m(4)), {"eps": 1e-3}, desc="one group, bias only, eps")
    yield SampleInput((m(2, 3, 4, 2).transpose(0, 2, 1, 3)[:, :2], 2, m(2), m(2)), desc="non-contiguous input")
    yield SampleInput((m(1, 2, 2, 3, 2), 1, m(2), m(2)), desc="3-D spatial")
    if dtype == torch.float64:  # float32's own rounding of a mean near 1000 is 3e-5, PyTorch's as ours
        shifted = m(1, 4, 6) + 1000  # far from zero: the backward's sums must not cancel
        yield SampleInput((shifted, 2, m(4), m(4)), desc="mean far from zero")


def _group_norm_errors():
    yield ErrorInput((torch.ones(2, 3, 4), 2), {}, RuntimeError,
                     r"channels in input to be divisible by num_groups, but got input of shape \[2, 3, 4\]")
    yield ErrorInput((torch.ones(2, 4, 3), -1), {}, RuntimeError, "Expected num groups to be greater than 0, got -1")
    yield ErrorInput((torch.ones(4), 2), {}, RuntimeError, "Expected at least 2 dimensions for input tensor")
    yield ErrorInput((torch.ones(1, 4, 1), 4), {}, ValueError, "Expected more than 1 value per channel")
    yield ErrorInput((torch.ones(2, 4, 3), 2, torch.ones(3)), {}, RuntimeError,
                     r"Expected weight to be a vector of size equal to the number of channels in input, but got "
                     r"weight of shape \[3\]")
    yield ErrorInput((torch.ones(2, 4, 3), 2, None, torch.ones(2, 2)), {}, RuntimeError,
                     r"Expected bias to be a vector of size equal to the number of channels in input")
    yield ErrorInput((torch.ones(2, 4, 3, dtype=torch.int64), 2), {}, NotImplementedError,
                     "\"GroupNormKernelImpl\" not implemented for 'Long'")
    yield ErrorInput((torch.ones(2, 4, 3), 2, torch.ones(4, dtype=torch.float64)), {}, RuntimeError,
                     "mixed dtype \\(CPU\\): expect parameter to have scalar type of Float")


def _layer_norm_errors():
    yield ErrorInput((torch.ones(2, 4), (5,)), {}, RuntimeError, r"expected input with shape \[\*, 5\]")
    yield ErrorInput((torch.ones(2, 4), (4,), torch.ones(5)), {}, RuntimeError, "Expected weight to be of same shape")
    yield ErrorInput((torch.ones(2, 4), (4,), None, torch.ones(3)), {}, RuntimeError,
                     "Expected bias to be of same shape")
    yield ErrorInput((torch.ones(2, 4), ()), {}, RuntimeError, "at least 1-dimensional")
    yield ErrorInput((torch.ones(2, 4, dtype=torch.int32), (4,)), {}, NotImplementedError, "not implemented for 'Int'")
    yield ErrorInput((torch.ones(2, 4), (4,), torch.ones(4, dtype=torch.float64)), {}, RuntimeError, "mixed dtype")
    # PyTorch's order (found by tools/difftest): the mixed-dtype rule first, the kernel's dtype before the bias's.
    yield ErrorInput((torch.ones(2, 3, dtype=torch.int64), (4,), torch.ones(3, dtype=torch.uint8)), {}, RuntimeError,
                     "expect parameter to have scalar type of Float")
    yield ErrorInput((torch.ones(2, 3, dtype=torch.int64), (3,), torch.ones(3)), {}, RuntimeError,
                     "all inputs must share same datatype")
    yield ErrorInput((torch.ones(2, 3, dtype=torch.int64), (3,), torch.ones(3, dtype=torch.int64),
                      torch.ones(3, dtype=torch.uint8)), {}, NotImplementedError, "not implemented for 'Long'")
    yield ErrorInput((torch.ones(0, 3), (3,), torch.ones(3), torch.ones(3, dtype=torch.float64)), {}, RuntimeError,
                     "expected scalar type Float but found Double")


def _nll_errors():
    yield ErrorInput((torch.zeros(2, 3), torch.tensor([0, 3])), {}, IndexError, "Target 3 is out of bounds")
    yield ErrorInput((torch.zeros(2, 3), torch.tensor([-1, 0])), {}, IndexError, "Target -1 is out of bounds")
    yield ErrorInput((torch.zeros(2, 3), torch.tensor([0, 1]), torch.ones(4)), {}, RuntimeError,
                     "weight tensor should be defined either for all 3 classes")
    yield ErrorInput((torch.zeros(2, 3), torch.tensor([0, 1]), torch.ones(3, dtype=torch.float64)), {}, RuntimeError,
                     "expected scalar type Float but found Double")
    yield ErrorInput((torch.zeros(2, 3), torch.tensor([0, 1], dtype=torch.int32)), {}, RuntimeError,
                     "expected target dtype to be Long or Byte, but got Int")
    yield ErrorInput((torch.tensor([False, True]), torch.tensor(0)), {}, NotImplementedError,
                     "\"nll_loss_out_frame\" not implemented for 'Bool'")


def _interp_ref(x, dim, low, weight):
    high = np.minimum(low + 1, x.shape[dim] - 1)
    shape = [1] * x.ndim
    shape[dim] = -1
    w = weight.reshape(shape).astype(np.float64)
    return np.take(x.astype(np.float64), low, dim) * (1 - w) + np.take(x.astype(np.float64), high, dim) * w


def _interp_samples(op, dtype, rng):
    for shape, dim, low in (((2, 3, 5), 2, [0, 0, 1, 2, 3, 4, 4]), ((2, 4, 3), 1, [3, 1, 0]),
                            ((3, 6, 4, 5), 3, [0, 2, 4]), ((2, 3, 1), 2, [0, 0, 0]), ((2, 0, 3), 2, [1, 2])):
        w = rng.uniform(0, 1, len(low)).astype(make_array((1,), dtype, rng).dtype)
        yield SampleInput((make_array(shape, dtype, rng), dim, np.array(low, np.int64), w), desc=f"{shape} dim {dim}")


def _interp_errors():
    yield ErrorInput((torch.ones(2, 3), 1, torch.tensor([0, 3]), torch.ones(2)), {}, RuntimeError,
                     "a source position is out of range for dim 1 of size 3")
    yield ErrorInput((torch.ones(2, 3), 1, torch.tensor([0, 1]), torch.ones(3)), {}, RuntimeError,
                     "one per output position")


def _glu_ref(x, dim=-1):
    a, b = np.split(x.astype(np.float64), 2, axis=dim)
    return a / (1 + np.exp(-b))


def _glu_samples(op, dtype, rng):
    for shape, dim in (((4, 6), -1), ((4, 6), 0), ((2, 3, 8), 1), ((10,), 0), ((0, 4), 1), ((3, 2, 0), 1)):
        if shape[dim] % 2 == 0:
            yield SampleInput((make_array(shape, dtype, rng), dim), desc=f"{shape} dim {dim}")


def _glu_errors():
    yield ErrorInput((torch.tensor(1.0),), {}, RuntimeError, "glu does not support scalars because halving size must be even")
    yield ErrorInput((torch.ones(2, 3), 1), {}, RuntimeError, "Halving dimension must be even, but dimension 1 is size 3")
    yield ErrorInput((torch.ones(2, 4, dtype=torch.int64),), {}, NotImplementedError,
                     "\"glu_cpu\" not implemented for 'Long'")


def _pdist_ref(x, p=2.0):
    i, j = np.triu_indices(x.shape[0], 1)
    d = np.abs(x[i].astype(np.float64) - x[j])
    if p == 0:
        return (d != 0).sum(-1).astype(np.float64)
    if np.isinf(p):
        return d.max(-1, initial=0.0)
    return (d ** p).sum(-1) ** (1 / p)


def _pdist_samples(op, dtype, rng):
    x = make_array((6, 4), dtype, rng)
    x[3] = x[1]  # a pair at distance 0: its gradient is 0, not NaN
    for p in (2.0, 1.0, 0.0, 0.5, 1.5, 3.0, float("inf")):
        yield SampleInput((x, p), desc=f"p={p}")
    yield SampleInput((make_array((40, 3), dtype, rng),), desc="enough rows for the vector lanes")
    # From 16 columns the backward runs over rows, lanes across columns, in
    # blocks of 256 columns: a tail block, and a pair at distance 0 again.
    wide = make_array((5, 20), dtype, rng)
    wide[4] = wide[0]
    for p in (2.0, 1.0, 1.5, 3.0, float("inf")):
        yield SampleInput((wide, p), desc=f"20 columns, p={p}")
    yield SampleInput((make_array((3, 300), dtype, rng),), desc="more columns than one block")
    yield SampleInput((make_array((1, 3), dtype, rng),), desc="one row: no pairs")
    yield SampleInput((make_array((3, 0), dtype, rng),), desc="no columns: zeros")


def _pdist_errors():
    yield ErrorInput((torch.ones(3),), {}, RuntimeError, "pdist only supports 2D tensors, got: 1D")
    yield ErrorInput((torch.ones(3, 2, dtype=torch.int64),), {}, RuntimeError, "pdist only supports floating-point dtypes")
    yield ErrorInput((torch.ones(3, 2), -1.0), {}, RuntimeError, "pdist only supports non-negative p values")


def _multilabel_ref(x, target, reduction="mean"):
    rows, t = np.atleast_2d(x).astype(np.float64), np.atleast_2d(target)
    losses = []
    for xr, tr in zip(rows, t):
        labels = list(tr[:np.argmax(tr < 0)] if (tr < 0).any() else tr)
        others = np.ones(xr.size, bool)
        others[labels] = False
        losses.append(sum(np.maximum(0, 1 - xr[j] + xr[others]).sum() for j in labels) / xr.size)
    losses = np.array(losses) if x.ndim == 2 else np.array(losses[0])
    return {"mean": losses.mean(), "sum": losses.sum(), "none": losses}[reduction]


def _multilabel_samples(op, dtype, rng):
    x = make_array((4, 6), dtype, rng, (-1.0, 1.0))
    # Labels before each row's first -1 (repeated, none, all, out of order).
    target = np.array([[3, 0, -1, 5, 5, 5], [-1, 1, 2, 3, 4, 5], [1, 1, 4, -1, 0, 0], [5, 4, 3, 2, 1, 0]])
    yield SampleInput((x, target), desc="mean")
    yield SampleInput((x, target), {"reduction": "sum"}, desc="sum")
    yield SampleInput((x, target), {"reduction": "none"}, desc="none")
    yield SampleInput((x[0], target[0]), {"reduction": "none"}, desc="one row")
    yield SampleInput((make_array((), dtype, rng), np.array(0)), desc="0-d")


def _multilabel_errors():
    yield ErrorInput((torch.zeros(2, 3), torch.tensor([[0, 3, -1]] * 2)), {}, RuntimeError,
                     "argument #2 'target' is out of range")
    yield ErrorInput((torch.zeros(2, 3), torch.tensor([[0, -2, -1]] * 2)), {}, RuntimeError,
                     "argument #2 'target' is out of range")
    yield ErrorInput((torch.zeros(2, 3), torch.tensor([[0, 1, -1]])), {}, RuntimeError,
                     r"inconsistent target size: \[1, 3\] for input of size: \[2, 3\]")
    yield ErrorInput((torch.zeros(2, 3), torch.zeros(2, 3)), {}, RuntimeError, "expected scalar type Long but found Float")
    yield ErrorInput((torch.zeros(2, 3, 4), torch.zeros(2, 3, 4, dtype=torch.long)), {}, RuntimeError,
                     "Expected non-empty vector or matrix with optional 0-dim batch size, but got: \\[2, 3, 4\\]")
    yield ErrorInput((torch.zeros(2, 0), torch.zeros(2, 0, dtype=torch.long)), {}, RuntimeError,
                     "Expected non-empty vector or matrix")
    yield ErrorInput((torch.zeros(2, 3, dtype=torch.long), torch.zeros(2, 3, dtype=torch.long)), {},
                     NotImplementedError, "\"multilabel_margin_loss_forward_out_frame\" not implemented for 'Long'")


def _tri_errors():
    yield ErrorInput((torch.ones(3),), {}, RuntimeError, "at least 2 dimensions")


def _blocks(height, width, k, d, p, s):
    """(row, col) of each block's top-left corner in the padded image, and the block counts."""
    rows = (height + 2 * p[0] - d[0] * (k[0] - 1) - 1) // s[0] + 1
    cols = (width + 2 * p[1] - d[1] * (k[1] - 1) - 1) // s[1] + 1
    return rows, cols


def _im2col_ref(x, k, d, p, s):
    batched = x.ndim == 4
    x = x if batched else x[None]
    n, c, h, w = x.shape
    padded = np.pad(x, ((0, 0), (0, 0), (p[0], p[0]), (p[1], p[1])))
    rows, cols = _blocks(h, w, k, d, p, s)
    out = np.zeros((n, c * k[0] * k[1], rows * cols), x.dtype)
    for ki in range(k[0]):
        for kj in range(k[1]):
            window = padded[:, :, ki * d[0]::s[0], kj * d[1]::s[1]][:, :, :rows, :cols]
            out[:, np.arange(c) * k[0] * k[1] + ki * k[1] + kj, :] = window.reshape(n, c, rows * cols)
    return out if batched else out[0]


def _col2im_ref(cols_, size, k, d, p, s):
    batched = cols_.ndim == 3
    x = cols_ if batched else cols_[None]
    n, ck, _ = x.shape
    c = ck // (k[0] * k[1])
    rows, cols = _blocks(size[0], size[1], k, d, p, s)
    padded = np.zeros((n, c, size[0] + 2 * p[0], size[1] + 2 * p[1]), np.float64)
    for ki in range(k[0]):
        for kj in range(k[1]):
            part = x[:, np.arange(c) * k[0] * k[1] + ki * k[1] + kj, :].reshape(n, c, rows, cols)
            padded[:, :, ki * d[0]:ki * d[0] + s[0] * (rows - 1) + 1:s[0],
                   kj * d[1]:kj * d[1] + s[1] * (cols - 1) + 1:s[1]] += part
    out = padded[:, :, p[0]:p[0] + size[0], p[1]:p[1] + size[1]].astype(x.dtype)
    return out if batched else out[0]


_WINDOWS = [((3, 3), (1, 1), (0, 0), (1, 1)), ((2, 3), (2, 1), (1, 2), (2, 3)), ((1, 2), (1, 3), (0, 0), (3, 1))]


def _pad_ref(mode):
    """PyTorch's padding in numpy: a negative pad crops (before the wrap for circular, after the
    reflection or replication otherwise)."""
    numpy_mode = {"reflect": "reflect", "replicate": "edge", "circular": "wrap"}[mode]

    def ref(x, pad):
        for i in range(len(pad) // 2):
            axis, lo, hi = x.ndim - 1 - i, pad[2 * i], pad[2 * i + 1]
            width = [(0, 0)] * x.ndim
            width[axis] = (max(lo, 0), max(hi, 0))
            crop = (slice(None),) * axis
            if mode == "circular":
                x = np.pad(x[crop + (slice(max(-lo, 0), x.shape[axis] - max(-hi, 0)),)], width, mode="wrap")
            else:
                x = np.pad(x, width, mode=numpy_mode)
                x = x[crop + (slice(max(-lo, 0), x.shape[axis] - max(-hi, 0)),)]
        return x
    return ref


def _pad_samples(dims):
    cases = {1: [((2, 3, 6), [2, 1]), ((3, 5), [0, 3]), ((2, 2, 7), [-2, 3])],
             2: [((2, 3, 5, 6), [1, 2, 3, 1]), ((2, 4, 5), [0, 2, 1, 0]), ((1, 2, 5, 6), [-1, 2, 2, -2]),
                 ((1, 2, 3, 4), [1, -1, 2, 1])],  # small enough to gradcheck
             3: [((1, 2, 3, 4, 5), [1, 2, 0, 1, 2, 1]), ((2, 3, 4, 4), [2, -1, 1, 0, 0, 2]),
                 ((1, 2, 2, 3), [1, 0, -1, 1, 1, 0])]}[dims]

    def gen(op, dtype, rng):
        for shape, pad in cases:
            yield SampleInput((make_array(shape, dtype, rng), pad), desc=f"{shape} pad {pad}")
    return gen


def _pad_errors(op_name, dims):
    def errors():
        yield ErrorInput((torch.ones((1,) * dims), [1] * (2 * dims - 2) if dims > 1 else [1, 1, 1, 1]), {},
                         RuntimeError, f"padding size is expected to be {2 * dims}")
        yield ErrorInput((torch.ones((2,) + (0,) + (3,) * dims), [1] * (2 * dims)), {}, RuntimeError,
                         "other non-zero dimensions for input")
        if op_name.startswith("reflection"):
            yield ErrorInput((torch.ones((1, 1) + (2,) * dims), [2] * (2 * dims)), {}, RuntimeError,
                             "Padding size should be less than the corresponding input dimension")
    return errors


def _adaptive_max_ref(nd):
    def ref(x, output_size):
        sizes = [output_size] * nd if isinstance(output_size, int) else list(output_size)
        lead = x.ndim - nd
        out = np.empty(x.shape[:lead] + tuple(sizes), dtype=x.dtype)
        for o in np.ndindex(*sizes):
            window = tuple(slice((o[i] * x.shape[lead + i]) // sizes[i],
                                 -(-((o[i] + 1) * x.shape[lead + i]) // sizes[i])) for i in range(nd))
            out[(Ellipsis,) + o] = np.max(x[(Ellipsis,) + window].reshape(x.shape[:lead] + (-1,)), axis=-1)
        return out
    return ref


def _adaptive_max_samples(nd):
    cases = {2: [((2, 3, 7, 9), (3, 4)), ((3, 5, 5), 5), ((1, 2, 9, 6), (2, 6)), ((1, 2, 3, 4), (2, 3)),
                 ((2, 2, 4, 4), 1)],
             3: [((1, 2, 5, 6, 7), (2, 3, 4)), ((2, 4, 4, 4), (3, 1, 2)), ((1, 2, 3, 2), (2, 2, 2))]}[nd]

    def gen(op, dtype, rng):
        for shape, size in cases:
            yield SampleInput((make_array(shape, dtype, rng), size), desc=f"{shape} -> {size}")
    return gen


_ADAPTIVE_MAX_RECORDS = [
    OpInfo(f"adaptive_max_pool{nd}d", _adaptive_max_ref(nd), FLOATS, _adaptive_max_samples(nd),
           op=getattr(F, f"adaptive_max_pool{nd}d"), method=False, takes_numbers=False, error_inputs=lambda nd=nd: [
               ErrorInput((torch.ones((2,) * nd), 2), {}, RuntimeError, f"Expected {nd + 1}D or {nd + 2}D tensor"),
               ErrorInput((torch.ones((1, 0) + (3,) * nd), 2), {}, RuntimeError,
                          "Expected input to have non-zero size for non-batch dimensions"),
               ErrorInput((torch.ones((1, 2) + (3,) * nd, dtype=torch.long), 2), {}, NotImplementedError,
                          f'"adaptive_max_pool{nd}d" not implemented for \'Long\'')])
    for nd in (2, 3)
]

_PAD_RECORDS = [
    OpInfo(f"{kind}_pad{dims}d", _pad_ref(mode), NUMERIC, _pad_samples(dims),
           op=getattr(torch._C._nn, f"{kind}_pad{dims}d"), method=False, takes_numbers=False, error_inputs=_pad_errors(f"{kind}_pad{dims}d", dims))
    for kind, mode in (("reflection", "reflect"), ("replication", "replicate")) for dims in (1, 2, 3)
] + [
    OpInfo("_pad_circular", _pad_ref("circular"), NUMERIC + (torch.bool,), _pad_samples(2),
           op=torch._C._nn._pad_circular, method=False, takes_numbers=False, error_inputs=lambda: [
               ErrorInput((torch.ones(1, 2, 3), [4, 0]), {}, RuntimeError, "wrapping around more than once"),
               ErrorInput((torch.ones(1, 2, 3), [-2, -2]), {}, RuntimeError, "resulting in an empty dimension")]),
]


def _im2col_samples(op, dtype, rng):
    for k, d, p, s in _WINDOWS:
        yield SampleInput((make_array((2, 3, 7, 9), dtype, rng), k, d, p, s), desc=f"kernel {k} stride {s}")
    yield SampleInput((make_array((2, 5, 6), dtype, rng), (2, 2), (1, 1), (1, 1), (2, 2)), desc="unbatched")
    yield SampleInput((make_array((1, 2, 3, 4), dtype, rng), (2, 3), (1, 1), (1, 0), (2, 1)), desc="small, overlapping")


def _col2im_samples(op, dtype, rng):
    for k, d, p, s in _WINDOWS:
        rows, cols = _blocks(7, 9, k, d, p, s)
        yield SampleInput((make_array((2, 3 * k[0] * k[1], rows * cols), dtype, rng), (7, 9), k, d, p, s),
                          desc=f"kernel {k} stride {s}")
    yield SampleInput((make_array((8, 16), dtype, rng), (6, 6), (2, 2), (1, 1), (1, 1), (2, 2)), desc="unbatched")
    yield SampleInput((make_array((1, 4, 6), dtype, rng), (3, 4), (2, 2), (1, 1), (0, 0), (1, 1)),
                      desc="small, overlapping")


def _col2im_errors():
    yield ErrorInput((torch.ones(1, 9, 5), (4, 4), (3, 3), (1, 1), (0, 0), (1, 1)), {}, RuntimeError,
                     "calculated number of sliding blocks 2 \\* 2 = 4, but got input.size\\(2\\)=5")
    yield ErrorInput((torch.ones(1, 8, 4), (4, 4), (3, 3), (1, 1), (0, 0), (1, 1)), {}, RuntimeError,
                     "divisible by the product of kernel_size")
    yield ErrorInput((torch.ones(1, 9, 4, dtype=torch.int64), (4, 4), (3, 3), (1, 1), (0, 0), (1, 1)), {},
                     NotImplementedError, "not implemented for 'Long'")


NN_OPS = [
    OpInfo("sort", lambda x, *a: _sort_ref(x, *a), NUMERIC, _distinct, variant="values",
           op=lambda x, *a: torch.sort(x, *a).values, method=False),
    OpInfo("sort", lambda x, dim=-1, descending=False: np.argsort(-x if descending else x, axis=dim, kind="stable"),
           NUMERIC, _distinct, variant="indices", op=lambda x, *a: torch.sort(x, *a).indices, method=False,
           result_dtype=lambda d: torch.int64),
    OpInfo("argsort", lambda x, dim=-1, descending=False: np.argsort(-x if descending else x, axis=dim, kind="stable"),
           NUMERIC, _distinct, result_dtype=lambda d: torch.int64),
    OpInfo("topk", _topk_ref, NUMERIC, _topk_samples, op=lambda x, *a: torch.topk(x, *a).values, method=False,
           error_inputs=lambda: iter([ErrorInput((torch.ones(3), 4), {}, RuntimeError, "out of range"),
                                      ErrorInput((torch.tensor([True, False]), 1), {}, RuntimeError,
                                                 "topk does not support bool dtypes on CPU")])),
    OpInfo("kthvalue", _kth_ref, NUMERIC, _kth_samples, op=lambda x, *a: torch.kthvalue(x, *a).values, method=False,
           error_inputs=lambda: iter([ErrorInput((torch.ones(3), 4), {}, RuntimeError, "out of range"),
                                      ErrorInput((torch.tensor([True, False]), 1), {}, NotImplementedError,
                                                 "kthvalue_cpu")])),
    OpInfo("median", _median_ref, NUMERIC, _median_samples,
           op=lambda x, *a: torch.median(x, *a) if not a else torch.median(x, *a).values, method=False),
    OpInfo("nanmedian", _median_ref, NUMERIC, _median_samples,
           op=lambda x, *a: torch.nanmedian(x, *a) if not a else torch.nanmedian(x, *a).values, method=False),
    OpInfo("signbit", np.signbit, NUMERIC, _samples(((3, 4), ()), ((5,), ()), ((), ())),
           result_dtype=lambda d: torch.bool),
    OpInfo("unique_consecutive", _unique_consecutive_ref, NUMERIC, _runs),
    OpInfo("_unique2", lambda x: np.unique(x.ravel()), NUMERIC, _runs, op=lambda x: torch.unique(x), method=False),
    OpInfo("unique_dim", lambda x, dim: np.unique(x, axis=dim), NUMERIC, _slices,
           op=lambda x, dim: torch.unique(x, dim=dim), method=False),
    OpInfo("tril", lambda x, d=0: np.tril(x, d), NUMERIC, _samples(((4, 3), ()), ((2, 3, 3), (1,)), ((3, 4), (-1,))),
           inplace=True, error_inputs=_tri_errors),
    OpInfo("triu", lambda x, d=0: np.triu(x, d), NUMERIC, _samples(((4, 3), ()), ((2, 3, 3), (-1,)), ((3, 4), (2,))),
           inplace=True, error_inputs=_tri_errors),
    # int64 too, as PyTorch's slow_conv2d and dilated kernel (found by tools/difftest).
    OpInfo("conv2d", _conv_ref, FLOATS + (torch.int64,), _conv2d_samples, method=False, error_inputs=_conv_errors),
    OpInfo("conv1d", _conv_ref, FLOATS + (torch.int64,), _conv1d_samples, method=False),
    OpInfo("conv3d", _conv_ref, FLOATS + (torch.int64,), _conv3d_samples, method=False),
    # Integers too: padding never wins, even against the dtype's lowest value (found by tools/difftest).
    OpInfo("max_pool2d", _max_pool_ref, FLOATS + INTS + (torch.int16,),
           _samples(((2, 3, 6, 6), (2,)), ((1, 2, 7, 5), (3, 2, 1)), ((1, 1, 5, 5), ((2, 3), (1, 2)))),
           op=F.max_pool2d, method=False, error_inputs=_pool_errors, known_values=lambda: [
               KnownValue((torch.tensor([[[-32768, -32768], [-32768, 5]]], dtype=torch.int16), 2, 1, 1), {},
                          torch.tensor([[[-32768, -32768, -32768], [-32768, 5, 5], [-32768, 5, 5]]], dtype=torch.int16),
                          why="int16 padding was the int64 minimum, which int16 cannot hold"),
               # Two NaNs in a window: PyTorch's CPU kernel takes the last (every NaN replaces the max).
               KnownValue((torch.tensor([[[NAN, 1.0], [2.0, NAN]]]), 2), {}, torch.tensor([[[0.0, 0.0], [0.0, 1.0]]]),
                          grad_of=0, why="the first NaN of a window took the gradient"),
               KnownValue((torch.tensor([[[NAN, 1.0, 0.0], [NAN, 3.0, NAN], [4.0, 5.0, NAN]]], dtype=torch.float64),
                           (1, 3)), {}, torch.tensor([[[1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 1.0]]],
                                                     dtype=torch.float64),
                          grad_of=0, why="the first NaN of a window took the gradient"),
               KnownValue((torch.tensor([[[NAN, 1.0, 0.0], [2.0, NAN, 7.0], [4.0, 5.0, NAN]]]), 2),
                          {"ceil_mode": True}, torch.tensor([[[0.0, 0.0, 0.0], [0.0, 1.0, 1.0], [0.0, 1.0, 1.0]]]),
                          grad_of=0, why="the first NaN of a window took the gradient (ceil_mode's bounded loop)")]),
    OpInfo("embedding", lambda idx, w, padding_idx=None: w[idx], FLOATS, _embedding_samples, op=F.embedding,
           method=False, error_inputs=_embedding_errors),
    OpInfo("layer_norm", _layer_norm_ref, FLOATS, _layer_norm_samples, op=F.layer_norm, method=False,
           error_inputs=_layer_norm_errors),
    OpInfo("group_norm", _group_norm_ref, FLOATS, _group_norm_samples, op=F.group_norm, method=False,
           error_inputs=_group_norm_errors),
    OpInfo("mse_loss", _mse_ref, FLOATS, _mse_samples, op=F.mse_loss, method=False),
    OpInfo("smooth_l1_loss", _piecewise_ref(False), FLOATS, _piecewise_samples("beta"), op=F.smooth_l1_loss,
           method=False, error_inputs=_piecewise_errors("smooth_l1", "beta",
                                                        "smooth_l1_loss does not support negative values for beta"),
           known_values=lambda: [KnownValue((torch.tensor([0.3, -2.0, 5.0]), torch.tensor([0.0, 0.0, 1.0])),
                                            {"beta": 0.0}, torch.tensor(6.3 / 3)),
                                 KnownValue((torch.tensor([0.3, -2.0, 5.0]), torch.tensor([0.0, 0.0, 1.0])),
                                            {"beta": 0.0}, torch.tensor([1.0, -1.0, 1.0]) / 3, grad_of=0)]),
    OpInfo("huber_loss", _piecewise_ref(True), FLOATS, _piecewise_samples("delta"), op=F.huber_loss, method=False,
           error_inputs=_piecewise_errors("huber", "delta", "huber_loss does not support non-positive values for delta"),
           known_values=lambda: [KnownValue((torch.ones(2), torch.zeros(2, dtype=torch.float64)), {},
                                            torch.tensor(0.5), why="the result takes self's dtype, as PyTorch's")]),
    OpInfo("nll_loss", _nll_ref, FLOATS, _nll_samples, op=F.nll_loss, method=False, nondifferentiable_args=(2,),
           error_inputs=_nll_errors, known_values=lambda: [
               KnownValue((torch.zeros(3), torch.tensor(1)), {"reduction": "none"}, torch.tensor(0.0),
                          why="a 1-D input's unreduced loss is 0 + term: +0, not -0"),
               KnownValue((torch.arange(6.0).view(2, 3), torch.tensor([2, 1]), torch.tensor([1.0, 2.0, 3.0])), {},
                          torch.tensor(-2.8), why="the weighted mean divides by the targets' total weight"),
               KnownValue((torch.zeros(2, 3), torch.tensor([-100, -100])), {}, torch.tensor(float("nan")),
                          why="every target ignored: 0 / 0"),
           ]),
    OpInfo("_interp_linear", _interp_ref, FLOATS, _interp_samples, op=torch._C._nn._interp_linear, method=False,
           nondifferentiable_args=(2, 3), error_inputs=_interp_errors, takes_numbers=False),
    OpInfo("glu", _glu_ref, FLOATS, _glu_samples, op=F.glu, method=False, error_inputs=_glu_errors),
    OpInfo("im2col", _im2col_ref, FLOATS, _im2col_samples, op=torch._C._nn.im2col, method=False, takes_numbers=False,
           error_inputs=lambda: [ErrorInput((torch.ones(1, 1, 2, 2), (3, 3), (1, 1), (0, 0), (1, 1)), {},
                                            RuntimeError, "but its components must be at least one"),
                                 ErrorInput((torch.ones(1, 1, 4, 4), (0, 3), (1, 1), (0, 0), (1, 1)), {},
                                            RuntimeError, "kernel size should be greater than zero"),
                                 # Without grad the argument lengths are checked first (with grad,
                                 # test_hostile_input.py: the sizes are read first, an IndexError).
                                 ErrorInput((torch.ones(1), (2, 2), (2,), (0, 0), (2, 3)), {}, RuntimeError,
                                            "It is expected dilation equals to 2, but got size 1")]),
    OpInfo("col2im", _col2im_ref, FLOATS, _col2im_samples, op=torch._C._nn.col2im, method=False, takes_numbers=False,
           error_inputs=_col2im_errors),
    OpInfo("pdist", _pdist_ref, FLOATS, _pdist_samples, method=False, error_inputs=_pdist_errors),
    OpInfo("multilabel_margin_loss", _multilabel_ref, FLOATS, _multilabel_samples, op=F.multilabel_margin_loss,
           method=False, error_inputs=_multilabel_errors, known_values=lambda: [
               KnownValue((torch.tensor([[0.1, 0.2, 0.4, 0.8]]), torch.tensor([[3, 0, -1, 1]])), {},
                          torch.tensor(0.85), why="PyTorch's documented example"),
               KnownValue((torch.zeros(0, 3), torch.zeros(0, 3, dtype=torch.long)), {}, torch.tensor(float("nan")),
                          why="an empty batch's mean, 0 / 0 (PyTorch's kernel leaves it unset)"),
           ]),
] + _PAD_RECORDS + _ADAPTIVE_MAX_RECORDS
