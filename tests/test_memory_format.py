"""torch.memory_format and the memory_format= arguments (torch/_memory_format.py):
the strides each gives, checked against what PyTorch 2.13 gives for the same
calls (the expected strides below were read from it), the values, autograd,
and PyTorch's errors."""
import pickle

import pytest
import torch
import torch.nn.functional as F


def nchw(*shape, dtype=torch.float32):
    return torch.arange(int(torch.tensor(shape).prod()), dtype=torch.float64).reshape(shape).to(dtype)


def test_the_formats_are_pytorchs_objects():
    assert type(torch.channels_last) is torch.memory_format and torch.memory_format.__module__ == "torch"
    assert [repr(f) for f in (torch.contiguous_format, torch.preserve_format, torch.channels_last,
                              torch.channels_last_3d)] == ["torch.contiguous_format", "torch.preserve_format",
                                                           "torch.channels_last", "torch.channels_last_3d"]
    assert pickle.loads(pickle.dumps(torch.channels_last)) is torch.channels_last
    with pytest.raises(TypeError, match="cannot create 'torch.memory_format' instances"):
        torch.memory_format()
    with pytest.raises(TypeError, match="argument 'memory_format' must be torch.memory_format, not str"):
        nchw(2, 3).clone(memory_format="channels_last")
    with pytest.raises(TypeError, match="must be torch.memory_format, not int"):
        nchw(2, 3).is_contiguous(memory_format=1)


@pytest.mark.parametrize("shape, strides, fmt, expected", [
    ((2, 3, 4, 5), (60, 1, 15, 3), torch.channels_last, True),
    ((2, 3, 4, 5), (60, 20, 5, 1), torch.channels_last, False),
    ((2, 3, 1, 1), (3, 1, 1, 1), torch.channels_last, True),  # size-1 dims: both layouts at once
    ((2, 0, 4, 5), (20, 20, 5, 1), torch.channels_last, False),
    ((2, 3, 4), (12, 4, 1), torch.channels_last, False),  # the wrong rank is simply not that layout
    ((2, 3, 4, 5, 6), (360, 1, 90, 18, 3), torch.channels_last_3d, True),
    ((2, 3, 4, 5), (60, 20, 5, 1), torch.preserve_format, True),  # preserve asks as contiguous_format does
    ((2, 3, 4, 5), (60, 1, 15, 3), torch.preserve_format, False),
])
def test_is_contiguous_in_a_format(shape, strides, fmt, expected):
    t = torch.empty_strided(shape, strides)
    assert t.is_contiguous(memory_format=fmt) is expected


def test_contiguous_in_channels_last():
    x = nchw(2, 3, 4, 5)
    y = x.contiguous(memory_format=torch.channels_last)
    assert y.stride() == (60, 1, 15, 3) and torch.equal(y, x) and y._base is None
    assert y.is_contiguous(memory_format=torch.channels_last) and not y.is_contiguous()
    assert y.contiguous(memory_format=torch.channels_last) is y
    assert y.contiguous().stride() == (60, 20, 5, 1) and torch.equal(y.contiguous(), x)
    assert x.permute(0, 2, 3, 1).contiguous(memory_format=torch.channels_last).stride() == (60, 1, 12, 4)
    assert torch.empty(0, 3, 4, 5).contiguous(memory_format=torch.channels_last).stride() == (60, 1, 15, 3)
    assert nchw(2, 3, 4, 5, 6).contiguous(memory_format=torch.channels_last_3d).stride() == (360, 1, 90, 18, 3)
    with pytest.raises(RuntimeError, match="required rank 4 tensor to use channels_last format"):
        nchw(4, 5).contiguous(memory_format=torch.channels_last)
    with pytest.raises(RuntimeError, match="preserve memory format is unsupported by the contiguous operator"):
        nchw(4, 5).t().contiguous(memory_format=torch.preserve_format)
    assert x.contiguous(memory_format=torch.preserve_format) is x


@pytest.mark.parametrize("make, strides", [
    (lambda: nchw(4, 5).t(), (1, 5)),
    (lambda: nchw(4, 5).t()[::2], (1, 3)),
    (lambda: nchw(3, 4)[:, ::2], (2, 1)),
    (lambda: nchw(2, 3, 4, 5)[:, :, :, ::2], (36, 12, 3, 1)),
    (lambda: nchw(2, 3, 4, 5).permute(0, 2, 3, 1)[:, ::2], (30, 5, 1, 10)),
    (lambda: nchw(1, 3, 4, 5).permute(0, 2, 3, 1)[:, ::2], (30, 5, 1, 10)),
    (lambda: nchw(3, 1).expand(3, 4), (4, 1)),
    (lambda: nchw(2, 3, 4, 5).contiguous(memory_format=torch.channels_last), (60, 1, 15, 3)),
    (lambda: nchw(2, 3, 4, 5), (60, 20, 5, 1)),
])
def test_clone_and_the_like_factories_preserve_the_layout(make, strides):
    x = make()
    y = x.clone()
    assert y.stride() == strides and torch.equal(y, x) and y._base is None
    assert torch.clone(x, memory_format=torch.preserve_format).stride() == strides
    assert x.clone(memory_format=None).stride() == strides
    for like in (torch.empty_like, torch.zeros_like, torch.ones_like, torch.rand_like, torch.randn_like):
        assert like(x).stride() == strides, like
    assert torch.full_like(x, 2).stride() == strides and (torch.full_like(x, 2) == 2).all()
    assert torch.zeros_like(x).eq(0).all() and torch.ones_like(x).eq(1).all()
    assert torch.randint_like(x, 5).stride() == strides
    contiguous = tuple(torch.empty(x.shape).stride())
    assert x.clone(memory_format=torch.contiguous_format).stride() == contiguous
    assert torch.ones_like(x, memory_format=torch.contiguous_format).stride() == contiguous


def test_the_like_factories_keep_their_other_arguments():
    x = nchw(4, 5).t()
    y = torch.zeros_like(x, dtype=torch.int64, requires_grad=False)
    assert y.dtype == torch.int64 and y.stride() == (1, 5)
    z = torch.ones_like(x, requires_grad=True)
    assert z.requires_grad and z.is_leaf and z.stride() == (1, 5)
    (z * 2).sum().backward()
    assert torch.equal(z.grad, torch.full((5, 4), 2.0))
    assert torch.empty_like(x, memory_format=torch.contiguous_format).stride() == (4, 1)
    with pytest.raises(RuntimeError, match="required rank 5 tensor to use channels_last_3d format"):
        torch.empty_like(nchw(2, 3, 4, 5), memory_format=torch.channels_last_3d)


def test_a_preserved_clone_refuses_what_pytorch_refuses():
    # The layout is visible: a transposed clone cannot be viewed as a
    # narrower dtype, as in PyTorch (a contiguous clone could).
    with pytest.raises(RuntimeError):
        nchw(4, 5).t().clone().view(torch.int16)
    assert nchw(4, 5).t().contiguous().view(torch.int16).shape == (5, 8)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.int8, torch.bool,
                                   torch.complex64, torch.float16, torch.bfloat16])
def test_channels_last_copies_every_dtype(dtype):
    x = nchw(2, 3, 4, 5).remainder(7).to(dtype) if not dtype.is_complex else \
        torch.view_as_complex(torch.stack([nchw(2, 3, 4, 5), -nchw(2, 3, 4, 5)], -1))
    y = x.clone(memory_format=torch.channels_last)
    assert y.dtype == dtype and y.stride() == (60, 1, 15, 3) and y._base is None
    assert torch.equal(*(torch.view_as_real(t) for t in (y, x))) if dtype.is_complex else torch.equal(y, x)


def test_a_clone_in_a_format_is_differentiable():
    x = nchw(2, 3, 4, 5, dtype=torch.float64).requires_grad_()
    for y in (x.contiguous(memory_format=torch.channels_last), x.clone(memory_format=torch.channels_last),
              x.permute(0, 2, 3, 1).clone()):
        assert y.grad_fn.name() == "CloneBackward0"
    w = torch.arange(120.0, dtype=torch.float64).reshape(2, 3, 4, 5)
    (x.contiguous(memory_format=torch.channels_last) * w).sum().backward()
    assert torch.equal(x.grad, w)
    assert torch.autograd.gradcheck(lambda t: t.clone(memory_format=torch.channels_last) * 2,
                                    (torch.rand(1, 2, 2, 3, dtype=torch.float64, requires_grad=True),))


def test_empty_and_empty_strided():
    assert torch.empty(2, 3, 4, 5, memory_format=torch.channels_last).stride() == (60, 1, 15, 3)
    assert torch.empty((2, 0, 3, 4), memory_format=torch.channels_last).stride() == (0, 1, 0, 0)
    assert torch.empty(2, 3, 1, 1, memory_format=torch.channels_last).stride() == (3, 1, 3, 3)
    assert torch.empty(2, 3, 4, 5, 6, memory_format=torch.channels_last_3d).stride() == (360, 1, 90, 18, 3)
    assert torch.empty(3, memory_format=None).stride() == (1,)
    e = torch.empty(2, 3, 4, 5, memory_format=torch.channels_last, dtype=torch.float64, requires_grad=True)
    assert e.dtype == torch.float64 and e.requires_grad
    with pytest.raises(RuntimeError, match="unsupported memory format Preserve"):
        torch.empty(2, 3, 4, 5, memory_format=torch.preserve_format)
    with pytest.raises(RuntimeError, match="required rank 4 tensor to use channels_last format"):
        torch.empty(2, 3, memory_format=torch.channels_last)
    s = torch.empty_strided((2, 3), (1, 2))
    assert s.stride() == (1, 2) and s._base is None and s.untyped_storage().nbytes() == 6 * 4
    assert torch.empty_strided((2, 3), (0, 1)).untyped_storage().nbytes() == 3 * 4  # overlapping is allowed
    assert torch.empty_strided((2, 0), (5, 1)).numel() == 0
    assert torch.empty_strided((2, 3), (3, 1), requires_grad=True).requires_grad
    with pytest.raises(RuntimeError, match="strides"):
        torch.empty_strided((2, 3), (-1, 1))
    with pytest.raises(RuntimeError, match=r"dimensionality of sizes \(2\) must match dimensionality of strides \(1\)"):
        torch.empty_strided((2, 3), (1,))


def test_to_with_a_memory_format():
    x = nchw(2, 3, 4, 5)
    y = x.to(memory_format=torch.channels_last)
    assert y is not x and y.stride() == (60, 1, 15, 3) and torch.equal(y, x)
    assert y.to(memory_format=torch.channels_last) is y
    assert x.to(memory_format=torch.contiguous_format) is x and x.to(memory_format=torch.preserve_format) is x
    assert y.to(memory_format=torch.contiguous_format).stride() == (60, 20, 5, 1)
    z = x.to(torch.float64, memory_format=torch.channels_last)
    assert z.dtype == torch.float64 and z.stride() == (60, 1, 15, 3)


def test_to_a_dtype_keeps_the_layout_as_pytorch_does():
    # preserve_format, to's default: a dense input keeps its strides, any
    # other takes dense strides in its strides' order; values and gradients
    # are the contiguous conversion's.
    x = nchw(2, 3, 4, 5).to(memory_format=torch.channels_last)
    for convert in (lambda t: t.to(torch.float16), lambda t: t.double(), lambda t: t.half(), lambda t: t.int(),
                    lambda t: t.to(torch.float32, copy=True), lambda t: t.to("cpu", torch.float64)):
        y = convert(x)
        assert y.stride() == (60, 1, 15, 3) and torch.equal(y.contiguous(), convert(x.contiguous()))
    t = torch.arange(12.0).reshape(3, 4).t()
    assert t.double().stride() == (1, 4) and t.to(torch.float32) is t and t.to("cpu") is t
    assert torch.equal(t.double(), t.contiguous().double())
    strided = torch.arange(24.0).reshape(4, 6).t()[::2]  # strides (2, 6): not dense
    assert strided.double().stride() == (1, 3) and torch.equal(strided.double(), strided.contiguous().double())
    w = torch.randn(3, 4, requires_grad=True)
    (w.t().double() * torch.arange(12.0).reshape(4, 3)).sum().backward()
    assert torch.equal(w.grad, torch.arange(12.0).reshape(4, 3).t())


def test_a_module_to_channels_last_and_its_convolution():
    torch.manual_seed(0)
    conv, lin = torch.nn.Conv2d(3, 4, 3), torch.nn.Linear(3, 4)
    x = torch.rand(2, 3, 8, 8)
    before = conv(x)
    assert conv.to(memory_format=torch.channels_last) is conv
    assert conv.weight.stride() == (27, 1, 9, 3) and isinstance(conv.weight, torch.nn.Parameter)
    assert lin.to(memory_format=torch.channels_last).weight.stride() == (3, 1)
    after = conv(x.contiguous(memory_format=torch.channels_last))
    assert torch.allclose(after, before, atol=1e-6)
    after.sum().backward()
    assert conv.weight.grad.shape == conv.weight.shape
    assert torch.allclose(F.conv2d(x.to(memory_format=torch.channels_last), conv.weight), F.conv2d(x, conv.weight),
                          atol=1e-6)
    with pytest.raises(TypeError, match="memory_format"):
        conv.to(memory_format="channels_last")


@pytest.mark.parametrize("make, strides", [
    (lambda: torch.empty(0, 3), (3, 1)),
    (lambda: torch.empty(3, 0).t(), (1, 1)),
    (lambda: torch.zeros(3, 4)[:, :1], (1, 1)),
    (lambda: torch.zeros(4, 1, 3).transpose(0, 1), (3, 3, 1)),
    (lambda: torch.empty_strided((2, 1), (1, 7)), (1, 7)),  # dense: a size-1 dim keeps its stride
    (lambda: torch.empty_strided((0, 3), (0, 0)), (0, 0)),  # empty: contiguous, so dense, strides kept
    (lambda: torch.empty_strided((0, 3), (1, 0)), (1, 0)),
    (lambda: torch.zeros(2, 3, 1, 1).contiguous(memory_format=torch.channels_last), (3, 1, 1, 1)),
    (lambda: torch.zeros(5)[::2], (1,)),
    (lambda: torch.tensor(1.0), ()),
    (lambda: torch.zeros(1, 3).expand(0, 3), (0, 1)),
])
def test_preserve_format_at_the_edges(make, strides):
    # Read from PyTorch 2.13 for each case.
    x = make()
    assert x.clone().stride() == strides
    assert torch.empty_like(x).stride() == strides and torch.zeros_like(x).stride() == strides


def test_narrow_copy_is_contiguous_as_pytorchs():
    x = nchw(6, 5).t()
    y = torch.narrow_copy(x, 1, 1, 3)
    assert y.is_contiguous() and torch.equal(y, x[:, 1:4])
