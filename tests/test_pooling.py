"""max_pool3d with indices (native/MaxPool3d.cpp), the max pools' gradient
kernel (native/MaxPoolBackward.cpp), F.max_unpool1d/2d/3d and avg_pool's
ceil_mode / count_include_pad=False, against window-by-window numpy
references written here."""
import itertools
import math

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch.autograd import gradcheck, gradgradcheck


def _out_size(size, k, s, p, d, ceil_mode):
    span = size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)
    out = span // s + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


def _max_pool3d_ref(x, k, s, p, d, ceil_mode):
    """Values and flat indices, window by window: the first maximum, or the last NaN."""
    n, c = x.shape[:2]
    sizes = x.shape[2:]
    outs = [_out_size(sizes[i], k[i], s[i], p[i], d[i], ceil_mode) for i in range(3)]
    values = np.zeros((n, c, *outs), x.dtype)
    indices = np.zeros((n, c, *outs), np.int64)
    for b, ch, i, j, l in itertools.product(range(n), range(c), *map(range, outs)):
        best, best_at = None, None
        for a, bb, cc in itertools.product(*map(range, k)):
            pos = [(i, j, l)[t] * s[t] - p[t] + (a, bb, cc)[t] * d[t] for t in range(3)]
            if any(q < 0 or q >= sizes[t] for t, q in enumerate(pos)):
                continue
            v = x[(b, ch, *pos)]
            if best is None or v > best or np.isnan(v):
                best, best_at = v, (pos[0] * sizes[1] + pos[1]) * sizes[2] + pos[2]
        values[b, ch, i, j, l], indices[b, ch, i, j, l] = best, best_at
    return values, indices


def _distinct(*shape, dtype=torch.float64):
    """A permutation: no ties, so the gradient's route is unambiguous."""
    n = math.prod(shape)
    return (torch.randperm(n, dtype=torch.float64) / n - 0.5).reshape(shape).to(dtype)


CASES = [  # kernel, stride, padding, dilation, ceil_mode
    ((2, 2, 2), (2, 2, 2), (0, 0, 0), (1, 1, 1), False),
    ((3, 3, 3), (1, 1, 1), (1, 1, 1), (1, 1, 1), False),
    ((3, 2, 3), (2, 1, 2), (1, 1, 0), (1, 1, 1), True),
    ((2, 3, 2), (1, 2, 3), (0, 1, 1), (2, 1, 2), False),
    ((3, 3, 3), (2, 2, 2), (1, 1, 1), (1, 2, 1), True),
]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("dtype", [torch.float64, torch.float32, torch.int32, torch.int64, torch.uint8])
def test_max_pool3d_with_indices_matches_windows(case, dtype):
    torch.manual_seed(0)
    k, s, p, d, ceil_mode = case
    x = _distinct(2, 3, 5, 6, 7) * 200 if dtype.is_floating_point else torch.randint(0, 100, (2, 3, 5, 6, 7))
    x = x.to(dtype)
    values, indices = F.max_pool3d(x, k, s, p, d, ceil_mode, return_indices=True)
    want_v, want_i = _max_pool3d_ref(x.numpy(), k, s, p, d, ceil_mode)
    assert values.dtype == dtype and indices.dtype == torch.int64
    np.testing.assert_array_equal(values.numpy(), want_v)
    np.testing.assert_array_equal(indices.numpy(), want_i)
    # The values-only path (two separable 2-D pools) agrees with the 3-D kernel.
    np.testing.assert_array_equal(F.max_pool3d(x, k, s, p, d, ceil_mode).numpy(), want_v)


def test_max_pool3d_ties_nan_infinity_and_unbatched():
    x = torch.zeros(1, 2, 2, 2)  # unbatched [C, D, H, W]: ties give the first position
    v, i = F.max_pool3d(x, 2, return_indices=True)
    assert v.shape == (1, 1, 1, 1) and i.flatten().tolist() == [0]
    x = torch.tensor([1.0, float("nan"), 3.0, float("nan"), 0.0, 2.0, 5.0, 4.0]).reshape(1, 1, 2, 2, 2)
    v, i = F.max_pool3d(x, 2, return_indices=True)
    assert math.isnan(v.item()) and i.item() == 3  # the last NaN, as PyTorch's CPU kernel
    x = torch.full((1, 1, 2, 2, 2), float("-inf"))
    v, i = F.max_pool3d(x, 2, padding=1, return_indices=True)
    assert torch.isinf(v).all() and (i >= 0).all() and (i < 8).all()


def test_max_pool3d_half_empty_batch_and_errors():
    x = _distinct(1, 2, 4, 4, 4, dtype=torch.float32)
    v, i = F.max_pool3d(x.half(), 2, return_indices=True)
    assert v.dtype == torch.float16
    torch.testing.assert_close(v.float(), F.max_pool3d(x, 2), rtol=1e-3, atol=1e-3)
    assert F.max_pool3d(torch.ones(0, 2, 4, 4, 4), 2, return_indices=True)[1].shape == (0, 2, 2, 2, 2)
    errors = [
        (lambda: F.max_pool3d(x, (2, 2), return_indices=True), "tuple of three ints"),
        (lambda: F.max_pool3d(x, 2, padding=2, return_indices=True), "pad should be at most half"),
        (lambda: F.max_pool3d(x, 2, stride=-1, return_indices=True), "stride should be greater than zero"),
        (lambda: F.max_pool3d(x, 2, dilation=0, return_indices=True), "dilation should be greater than zero"),
        (lambda: F.max_pool3d(x, 5, return_indices=True), "Output size is too small"),
        (lambda: F.max_pool3d(torch.ones(2, 3), 2, return_indices=True), "4D or 5D"),
        (lambda: F.max_pool3d(torch.ones(1, 0, 4, 4, 4), 2, return_indices=True), "non-batch dimension 1"),
    ]
    for call, match in errors:
        with pytest.raises(RuntimeError, match=match):
            call()
    with pytest.raises(NotImplementedError, match="Bool"):
        F.max_pool3d(x.bool(), 2, return_indices=True)


def test_max_pool3d_gradient_routes_to_the_maxima():
    torch.manual_seed(1)
    x = _distinct(2, 2, 4, 5, 6).requires_grad_()
    out, idx = F.max_pool3d(x, 3, 2, 1, return_indices=True)
    grad = torch.randn(out.shape, dtype=torch.float64)
    out.backward(grad)
    want = np.zeros((2, 2, 4 * 5 * 6))
    for b, c in itertools.product(range(2), range(2)):
        np.add.at(want[b, c], idx[b, c].flatten().numpy(), grad[b, c].flatten().numpy())
    np.testing.assert_allclose(x.grad.numpy(), want.reshape(x.shape))
    assert out.grad_fn.name() == "MaxPool3DWithIndicesBackward0"
    assert gradcheck(lambda t: F.max_pool3d(t, (2, 3, 2), (1, 2, 1), (1, 1, 0), (1, 1, 2), True),
                     (_distinct(1, 2, 4, 5, 6).requires_grad_(),))
    assert gradgradcheck(lambda t: F.max_pool3d(t, 2, 1), (_distinct(1, 1, 3, 3, 4).requires_grad_(),))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16])
def test_max_pool_backward_kernel_accumulates_overlaps(dtype):
    # Overlapping windows (stride 1) send several gradients to one position.
    x = _distinct(3, 2, 6, 7, dtype=dtype).requires_grad_()
    out, idx = F.max_pool2d(x, 3, 1, 1, return_indices=True)
    grad = torch.rand(out.shape, dtype=torch.float64).to(dtype)
    got = torch._max_pool_backward(grad, idx, list(x.shape), 2)
    want = torch.zeros(3, 2, 42, dtype=torch.float64).scatter_add_(-1, idx.reshape(3, 2, -1),
                                                                   grad.double().reshape(3, 2, -1))
    torch.testing.assert_close(got.double(), want.reshape(x.shape), rtol=1e-2 if dtype == torch.float16 else 1e-6,
                               atol=1e-2 if dtype == torch.float16 else 1e-6)


def test_max_pool_backward_checks_its_arguments():
    grad = torch.ones(1, 2, 2)
    idx = torch.zeros(1, 2, 2, dtype=torch.long)
    with pytest.raises(IndexError, match="outside the input plane"):
        torch._max_pool_backward(grad, idx + 16, [1, 4, 4], 2)
    with pytest.raises(IndexError, match="outside the input plane"):
        torch._max_pool_backward(grad, idx - 2, [1, 4, 4], 2)  # -1 alone means no source
    with pytest.raises(RuntimeError, match="int64 indices"):
        torch._max_pool_backward(grad, idx.int(), [1, 4, 4], 2)
    with pytest.raises(RuntimeError, match="int64 indices"):
        torch._max_pool_backward(grad, idx[..., :1], [1, 4, 4], 2)
    with pytest.raises(RuntimeError, match="does not match"):
        torch._max_pool_backward(grad, idx, [2, 4, 4], 2)
    with pytest.raises(RuntimeError, match="pooled"):
        torch._max_pool_backward(grad, idx, [1, 4, 4], 4)
    assert torch._max_pool_backward(torch.ones(0, 2, 2), idx[:0], [0, 4, 4], 2).shape == (0, 4, 4)


# ---- max_unpool ------------------------------------------------------------------
@pytest.mark.parametrize("nd", [1, 2, 3])
def test_max_unpool_inverts_the_pool(nd):
    torch.manual_seed(2)
    x = _distinct(2, 3, *([6] * nd))
    pool = getattr(F, f"max_pool{nd}d")
    unpool = getattr(F, f"max_unpool{nd}d")
    out, idx = pool(x, 2, return_indices=True)
    back = unpool(out, idx, 2)
    want = np.zeros((2, 3, 6 ** nd))
    for b, c in itertools.product(range(2), range(3)):
        want[b, c, idx[b, c].flatten().numpy()] = out[b, c].flatten().numpy()
    np.testing.assert_array_equal(back.numpy(), want.reshape(x.shape))
    module = getattr(torch.nn, f"MaxUnpool{nd}d")(2)
    np.testing.assert_array_equal(module(out, idx).numpy(), back.numpy())
    assert repr(module).startswith(f"MaxUnpool{nd}d(kernel_size=(2")
    # output_size one larger (within a stride of the default), also with N and C in front
    bigger = [7] * nd
    assert unpool(out, idx, 2, output_size=bigger).shape[2:] == tuple(bigger)
    assert unpool(out, idx, 2, output_size=[2, 3] + bigger).shape[2:] == tuple(bigger)
    # unbatched, and the gradient (a gather at the indices)
    assert unpool(out[0], idx[0], 2).shape == x.shape[1:]
    assert gradcheck(lambda t: unpool(t, idx, 2), (out.detach().requires_grad_(),))


def test_max_unpool_errors():
    out, idx = F.max_pool2d(_distinct(1, 1, 4, 4), 2, return_indices=True)
    errors = [
        (lambda: F.max_unpool2d(out, idx.float(), 2), RuntimeError, "should be type int64 but got: Float"),
        (lambda: F.max_unpool2d(out, idx + 20, 2), RuntimeError, "invalid max index: 2[0-9] .*4x4"),
        (lambda: F.max_unpool2d(out, idx - 20, 2), RuntimeError, "invalid max index: -"),
        (lambda: F.max_unpool2d(out, idx, 2, output_size=(9, 9)), ValueError, "dim 0 must be between 2 and 6"),
        (lambda: F.max_unpool2d(out, idx, 2, output_size=(1, 2, 3)), ValueError, "2 or 4 elements"),
        (lambda: F.max_unpool2d(out, idx[..., :1], 2), RuntimeError, "Expected shape of indices"),
        (lambda: F.max_unpool2d(out[0, 0], idx[0, 0], 2), RuntimeError, "3d or 4d Tensor"),
        (lambda: F.max_unpool2d(out.int(), idx, 2), NotImplementedError, "'Int'"),
        (lambda: F.max_unpool3d(torch.ones(1, 1, 1, 1, 0), torch.zeros(1, 1, 1, 1, 0, dtype=torch.long), 2),
         RuntimeError, "dimension 4 being empty"),
        (lambda: F.max_unpool3d(torch.ones(1, 1, 1, 1, 1), torch.full((1, 1, 1, 1, 1), 9), 2), RuntimeError,
         "invalid max index: 9 .*2x2x2"),
    ]
    for call, error, match in errors:
        with pytest.raises(error, match=match):
            call()
    assert F.max_unpool2d(out[:0], idx[:0], 2).shape == (0, 1, 4, 4)


# ---- avg_pool: ceil_mode and count_include_pad=False ---------------------------------
def _avg_pool_ref(x, k, s, p, ceil_mode, count_include_pad, divisor_override=None):
    """PyTorch's divisor: the window's positions within the padded input
    (count_include_pad) or within the input, never past the padding."""
    sizes = x.shape[2:]
    nd = len(sizes)
    outs = [_out_size(sizes[i], k[i], s[i], p[i], 1, ceil_mode) for i in range(nd)]
    out = np.zeros(x.shape[:2] + tuple(outs))
    for pos in itertools.product(*map(range, outs)):
        lo = [pos[t] * s[t] - p[t] for t in range(nd)]
        hi = [min(lo[t] + k[t], sizes[t] + p[t]) for t in range(nd)]
        pad_count = math.prod(hi[t] - lo[t] for t in range(nd))
        lo_in = [max(v, 0) for v in lo]
        hi_in = [min(hi[t], sizes[t]) for t in range(nd)]
        window = x[(Ellipsis, *[slice(lo_in[t], hi_in[t]) for t in range(nd)])]
        count = math.prod(hi_in[t] - lo_in[t] for t in range(nd))
        divisor = divisor_override or (pad_count if count_include_pad else count)
        out[(Ellipsis, *pos)] = window.sum(axis=tuple(range(2, 2 + nd))) / divisor
    return out


@pytest.mark.parametrize("nd", [1, 2, 3])
@pytest.mark.parametrize("ceil_mode,count_include_pad", [(True, True), (True, False), (False, False)])
@pytest.mark.parametrize("k,s,p", [(3, 2, 1), (2, 2, 1), (3, 1, 1), (2, 3, 0)])
def test_avg_pool_ceil_mode_and_padding_counts(nd, ceil_mode, count_include_pad, k, s, p):
    torch.manual_seed(3)
    x = torch.randn(2, 3, *[7, 6, 5][:nd], dtype=torch.float64)
    pool = getattr(F, f"avg_pool{nd}d")
    got = pool(x, k, s, p, ceil_mode, count_include_pad)
    want = _avg_pool_ref(x.numpy(), (k,) * nd, (s,) * nd, (p,) * nd, ceil_mode, count_include_pad)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)
    module = getattr(torch.nn, f"AvgPool{nd}d")(k, s, p, ceil_mode, count_include_pad)
    np.testing.assert_allclose(module(x).numpy(), want, rtol=1e-12, atol=1e-12)
    if nd > 1:
        got = pool(x, k, s, p, ceil_mode, count_include_pad, divisor_override=5)
        want = _avg_pool_ref(x.numpy(), (k,) * nd, (s,) * nd, (p,) * nd, ceil_mode, count_include_pad, 5)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)


def test_avg_pool_general_path_gradient_errors_and_lp_pool():
    x = torch.randn(1, 2, 5, 5, dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda t: F.avg_pool2d(t, 3, 2, 1, True, False), (x,))
    assert F.avg_pool2d(x[0], 2, ceil_mode=True).shape == (2, 3, 3)  # unbatched
    with pytest.raises(RuntimeError, match="pad should be at most half"):
        F.avg_pool2d(x, 2, padding=2, count_include_pad=False)
    with pytest.raises(RuntimeError, match="Output size is too small"):
        F.avg_pool2d(x[..., :1, :1], 3, 1, 0, True)
    # lp_pool with ceil_mode: the power mean over the windows ceil_mode adds
    y = torch.rand(1, 1, 5, dtype=torch.float64) + 0.5
    got = F.lp_pool1d(y, 2, 2, ceil_mode=True)
    want = _avg_pool_ref((y ** 2).numpy(), (2,), (2,), (0,), True, True) * 2
    np.testing.assert_allclose(got.numpy(), np.sqrt(want), rtol=1e-12)


def test_max_unpool_native_ops():
    values = torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]])
    idx = torch.tensor([[[[0, 0], [8, 15]]]])  # a repeated index keeps the last value, as PyTorch's loop
    out = torch._C._nn.max_unpool2d(values, idx, [4, 4])
    assert out.flatten().tolist() == [2.0] + [0.0] * 7 + [3.0] + [0.0] * 6 + [4.0]
    assert torch._C._nn.max_unpool2d(values, idx, 4).shape == (1, 1, 4, 4)  # one int for both sizes
    assert torch._C._nn.max_unpool2d(values.bfloat16(), idx, [4, 4]).dtype == torch.bfloat16
    # the first invalid index in order is the one named, over every plane
    bad = torch.tensor([[[[0, 1], [2, 3]]], [[[3, 99], [-7, 3]]]])
    with pytest.raises(RuntimeError, match="invalid max index: 99 "):
        torch._C._nn.max_unpool2d(torch.ones(2, 1, 2, 2), bad, [2, 2])
    x = torch.ones(1, 1, 1, 1, 1)
    i = torch.zeros(1, 1, 1, 1, 1, dtype=torch.long)
    errors = [
        (lambda: torch._C._nn.max_unpool2d(values, idx, [1, 2, 3]), "exactly two elements"),
        (lambda: torch._C._nn.max_unpool3d(x, i, [2, 2], [1, 1, 1], [0, 0, 0]),
         "exactly three elements .* output_size"),
        (lambda: torch._C._nn.max_unpool3d(x, i, [2, 2, 2], [1, 1], [0, 0, 0]), "in stride, but got: 2"),
        (lambda: torch._C._nn.max_unpool3d(x, i, [2, 2, 2], [1, 1, 1], [0, 0]), "in padding, but got: 2"),
        (lambda: torch._C._nn.max_unpool3d(x, i, [2, 2, 2], [0, 1, 1], [0, 0, 0]), "strides should be greater"),
        (lambda: torch._C._nn.max_unpool3d(x[0, 0, 0], i[0, 0, 0], [2, 2, 2], [1, 1, 1], [0, 0, 0]), "4d or 5d"),
    ]
    for call, match in errors:
        with pytest.raises(RuntimeError, match=match):
            call()
    y = values.clone().requires_grad_()
    torch._C._nn.max_unpool2d(y, torch.tensor([[[[0, 5], [8, 15]]]]), [4, 4]).mul(
        torch.arange(16.0).view(1, 1, 4, 4)).sum().backward()
    assert y.grad.flatten().tolist() == [0.0, 5.0, 8.0, 15.0]


@pytest.mark.parametrize("dtype", [torch.float64, torch.float16])
def test_a_window_of_padding_only_has_index_minus_one_and_sends_no_gradient(dtype):
    # kernel 2, padding 1, dilation 2 over a dim of 1: the windows reach positions -1 and 1 only.
    # PyTorch 2.13 returns indices outside the input there (and its 3-D backward crashes).
    for pool, shape in ((F.max_pool2d, (1, 1, 1, 3)), (F.max_pool3d, (1, 1, 1, 3, 3))):
        x = torch.randn(shape, dtype=torch.float64).to(dtype).requires_grad_()
        out, idx = pool(x, 2, 1, 1, dilation=2, return_indices=True)
        assert (idx == -1).all() and torch.isinf(out).all()
        grad = torch.ones_like(out).requires_grad_()
        (gx,) = torch.autograd.grad(out, x, grad, create_graph=dtype == torch.float64)
        assert (gx == 0).all()
        if dtype == torch.float64:  # the double backward gathers nothing there either
            assert (torch.autograd.grad(gx.sum(), grad, allow_unused=True)[0] == 0).all()
    assert torch._max_pool_backward(torch.ones(1, 2), torch.tensor([[-1, 1]]), [1, 3], 1).tolist() == [[0, 1, 0]]
    with pytest.raises(IndexError, match="outside the input plane"):
        torch._max_pool_backward(torch.ones(1, 2), torch.tensor([[-2, 1]]), [1, 3], 1)


@pytest.mark.parametrize("nd", [1, 2, 3])
@pytest.mark.parametrize("kw", [{}, {"ceil_mode": True}, {"padding": 1, "count_include_pad": False},
                                {"divisor_override": 3}, {"ceil_mode": True, "padding": 1, "divisor_override": 4}])
def test_integer_avg_pool_sums_exactly_and_divides_truncating(nd, kw):
    # int64 is PyTorch's one integer dtype here: each window's exact sum, divided once toward zero
    # (a kernel of 1/divisor in int64 used to give 0 everywhere).
    shape = (2, 3) + (7, 6, 5)[:nd]
    x = torch.arange(-(math.prod(shape) // 2), math.prod(shape) - math.prod(shape) // 2).reshape(shape) * 7
    if nd == 1 and "divisor_override" in kw:
        return  # avg_pool1d has no divisor_override
    got = getattr(F, f"avg_pool{nd}d")(x, 3, 2, **kw)
    assert got.dtype == torch.int64
    p = kw.get("padding", 0)
    sums = _avg_pool_ref(x.double().numpy(), (3,) * nd, (2,) * nd, (p,) * nd, kw.get("ceil_mode", False),
                         kw.get("count_include_pad", True), 1)
    ones = np.ones(x.shape)  # each window's divisor: the sum of ones over its mean of ones
    divisors = (_avg_pool_ref(ones, (3,) * nd, (2,) * nd, (p,) * nd, kw.get("ceil_mode", False),
                              kw.get("count_include_pad", True), 1) /
                _avg_pool_ref(ones, (3,) * nd, (2,) * nd, (p,) * nd, kw.get("ceil_mode", False),
                              kw.get("count_include_pad", True), kw.get("divisor_override")))
    want = np.fix(np.round(sums) / np.round(divisors)).astype(np.int64)
    np.testing.assert_array_equal(got.numpy(), want)
    with pytest.raises(NotImplementedError, match="not implemented for 'Int'"):
        getattr(F, f"avg_pool{nd}d")(x.int(), 3, 2)
