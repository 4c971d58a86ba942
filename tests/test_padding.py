"""F.pad's reflect, replicate and circular modes (native/Padding.cpp): values
against numpy.pad (reflect, edge, wrap), negative pads as PyTorch crops,
every dtype the op takes, non-contiguous and empty inputs, gradients
(gradcheck and gradgradcheck), and PyTorch's errors and node names."""
import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch.autograd import gradcheck, gradgradcheck

NUMPY_MODE = {"reflect": "reflect", "replicate": "edge", "circular": "wrap"}


def numpy_pad(a, pad, mode):
    """PyTorch's semantics in numpy: pad (lo, hi) pairs from the last dim; a negative pad crops,
    before the wrap for circular and after the reflection or replication otherwise."""
    for i in range(len(pad) // 2):
        axis = a.ndim - 1 - i
        lo, hi = pad[2 * i], pad[2 * i + 1]
        width = [(0, 0)] * a.ndim
        if mode == "circular":
            a = a[(slice(None),) * axis + (slice(max(-lo, 0), a.shape[axis] - max(-hi, 0)),)]
            width[axis] = (max(lo, 0), max(hi, 0))
            a = np.pad(a, width, mode="wrap")
        else:
            width[axis] = (max(lo, 0), max(hi, 0))
            a = np.pad(a, width, mode=NUMPY_MODE[mode])
            a = a[(slice(None),) * axis + (slice(max(-lo, 0), a.shape[axis] - max(-hi, 0)),)]
    return a


CASES = [((2, 3, 7), (1, 2)), ((3, 7), (3, 0)), ((2, 3, 7), (-1, 2)), ((3, 7), (0, 0)),
         ((2, 3, 5, 6), (1, 2, 2, 1)), ((3, 5, 6), (0, 3, 4, 0)), ((2, 3, 5, 6), (-1, 1, 2, -2)),
         ((1, 2, 4, 5, 6), (1, 1, 2, 0, 1, 3)), ((2, 4, 5, 6), (2, -1, 0, 1, 1, 0)), ((1, 1, 1), (0, 0))]


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
@pytest.mark.parametrize("shape, pad", CASES)
def test_values_match_numpy(shape, pad, mode):
    a = np.arange(np.prod(shape), dtype=np.float64).reshape(shape) * 1.5 - 7
    got = F.pad(torch.from_numpy(a), pad, mode=mode)
    assert got.dtype == torch.float64
    np.testing.assert_array_equal(got.numpy(), numpy_pad(a, pad, mode))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16, torch.int8, torch.int64,
                                   torch.uint8, torch.complex64, torch.complex128])
@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_every_dtype_moves_its_bytes(dtype, mode):
    a = (np.arange(2 * 3 * 4 * 5) % 100).reshape(2, 3, 4, 5)
    if dtype.is_complex:  # complex tensors are made from their parts here (no complex arithmetic)
        part = torch.tensor(a.tolist(), dtype=torch.float32 if dtype == torch.complex64 else torch.float64)
        x = torch.view_as_complex(torch.stack([part, -part], -1))
    else:
        x = torch.tensor(a.tolist()).to(dtype)
    got = F.pad(x, (2, 1, 1, 3), mode=mode)
    assert got.dtype == dtype and got.shape == (2, 3, 8, 8)
    want = numpy_pad(x.numpy() if dtype not in (torch.bfloat16,) else x.float().numpy(), (2, 1, 1, 3), mode)
    np.testing.assert_array_equal((got.float() if dtype == torch.bfloat16 else got).numpy(), want)


def test_bool_pads_only_circularly_as_in_pytorch():
    x = torch.tensor([[[True, False, False]]])
    assert F.pad(x, (1, 1), mode="circular").tolist() == [[[False, True, False, False, True]]]
    for mode, op in (("reflect", "reflection_pad1d"), ("replicate", "replication_pad1d")):
        with pytest.raises(NotImplementedError, match=f'"{op}" not implemented for \'Bool\''):
            F.pad(x, (1, 1), mode=mode)


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
def test_non_contiguous_and_empty_batch(mode):
    base = torch.arange(24.0).reshape(2, 3, 4)
    x = base.transpose(1, 2)  # [2, 4, 3], strided
    np.testing.assert_array_equal(F.pad(x, (1, 2), mode=mode).numpy(), numpy_pad(x.numpy(), (1, 2), mode))
    assert F.pad(torch.zeros(0, 3, 4), (1, 2), mode=mode).shape == (0, 3, 7)
    assert F.pad(torch.zeros(0, 2, 3, 4), (1, 1, 2, 2), mode=mode).shape == (0, 2, 7, 6)


@pytest.mark.parametrize("mode", ["reflect", "replicate", "circular"])
@pytest.mark.parametrize("shape, pad", [((2, 3, 6), (2, 3)), ((2, 4, 5), (-1, 2)), ((1, 2, 4, 5), (1, 2, 3, 1)),
                                        ((2, 3, 3, 4), (-1, 1, 2, -1)), ((1, 2, 3, 3, 4), (1, 0, 2, 1, 1, 2))])
def test_gradients_and_second_derivatives(shape, pad, mode):
    x = torch.randn(*shape, dtype=torch.float64, requires_grad=True)
    assert gradcheck(lambda t: F.pad(t, pad, mode=mode), (x,))
    assert gradgradcheck(lambda t: F.pad(t, pad, mode=mode), (x,))


def test_gradient_sums_what_each_input_feeds():
    x = torch.zeros(1, 1, 3, requires_grad=True)
    F.pad(x, (2, 2), mode="reflect").sum().backward()  # [2 1 | 0 1 2 | 1 0]
    assert x.grad.tolist() == [[[2.0, 3.0, 2.0]]]
    x.grad = None
    F.pad(x, (2, 2), mode="replicate").sum().backward()  # [0 0 | 0 1 2 | 2 2]
    assert x.grad.tolist() == [[[3.0, 1.0, 3.0]]]
    x.grad = None
    F.pad(x, (2, 2), mode="circular").sum().backward()  # [1 2 | 0 1 2 | 0 1]
    assert x.grad.tolist() == [[[2.0, 3.0, 2.0]]]


@pytest.mark.parametrize("mode, node", [("reflect", "ReflectionPad2DBackward0"),
                                        ("replicate", "ReplicationPad2DBackward0")])
def test_node_names_are_pytorchs(mode, node):
    x = torch.ones(1, 1, 3, 3, requires_grad=True)
    assert F.pad(x, (1, 1, 1, 1), mode=mode).grad_fn.name() == node


def test_the_ops_under_torch_c_nn():
    x = torch.arange(6.0).reshape(1, 2, 3)
    assert torch._C._nn.reflection_pad1d(x, [1, 1]).tolist() == [[[1, 0, 1, 2, 1], [4, 3, 4, 5, 4]]]
    assert torch._C._nn.replication_pad1d(x, [0, 2]).tolist() == [[[0, 1, 2, 2, 2], [3, 4, 5, 5, 5]]]
    assert torch._C._nn._pad_circular(x, [1, 0]).tolist() == [[[2, 0, 1, 2], [5, 3, 4, 5]]]
    assert torch._C._nn.replication_pad3d(torch.ones(2, 1, 1, 1), [1] * 6).shape == (2, 3, 3, 3)


@pytest.mark.parametrize("call, error, message", [
    (lambda: F.pad(torch.ones(1, 1, 3), (3, 3), mode="reflect"), RuntimeError,
     r"Argument #4: Padding size should be less than the corresponding input dimension, but got: padding \(3, 3\) "
     r"at dimension 2 of input \[1, 1, 3\]"),
    (lambda: F.pad(torch.ones(1, 1, 3), (4, 0), mode="circular"), RuntimeError,
     "Padding value causes wrapping around more than once"),
    (lambda: F.pad(torch.ones(1, 2, 3), (-2, -2), mode="circular"), RuntimeError,
     "Negative padding value is resulting in an empty dimension"),
    (lambda: F.pad(torch.ones(1, 2, 3), (-3, -1), mode="replicate"), RuntimeError, "is too small"),
    (lambda: F.pad(torch.ones(1, 0, 3), (1, 1), mode="replicate"), RuntimeError,
     r"Expected 2D or 3D \(batch mode\) tensor with possibly 0 batch size and other non-zero dimensions for input, "
     r"but got: \[1, 0, 3\]"),
    (lambda: F.pad(torch.ones(3), (1, 1), mode="reflect"), NotImplementedError,
     "Padding size 2 is not supported for 1D input tensor"),
    (lambda: F.pad(torch.tensor(1.0), (1, 1), mode="reflect"), RuntimeError,
     "Padding length should be less than or equal to two times the input dimension"),
    (lambda: F.pad(torch.ones(1, 2, 3, 3), (1, 1, 1), mode="reflect"), RuntimeError,
     "Padding length must be divisible by 2"),
    (lambda: F.pad(torch.ones(1, 2, 3, 3), (1, 1), mode="reflect", value=1.0), RuntimeError,
     'Padding mode "reflect" doesn\'t take in value argument'),
    (lambda: F.pad(torch.ones(1, 2, 3, 3), (1, 1), mode="wrap"), NotImplementedError,
     "Unrecognised padding mode wrap"),
    (lambda: torch._C._nn.reflection_pad2d(torch.ones(2, 3, 3), [1, 1]), RuntimeError,
     "padding size is expected to be 4, but got: 2"),
    (lambda: torch._C._nn.reflection_pad2d(torch.ones(3, 3), [1, 1, 1, 1]), RuntimeError,
     r"Expected 3D or 4D \(batch mode\) tensor"),
    (lambda: torch._C._nn._pad_circular(torch.ones(3), [1, 1, 1, 1]), RuntimeError,
     "Invalid padding size, expected 1 or 2 non-padded dimensions"),
])
def test_errors_name_the_problem(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_circular_padding_of_nothing_kept_is_refused():
    """This torch's own: cropping all of a dim and wrapping the rest around it, PyTorch 2.13
    returns uninitialised memory (an output of the dim's size); here it is the error PyTorch
    gives when the output itself would be empty."""
    with pytest.raises(RuntimeError, match="Negative padding value is resulting in an empty dimension"):
        F.pad(torch.ones(1, 2, 3), (-3, 3), mode="circular")
