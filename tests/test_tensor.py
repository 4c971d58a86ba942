"""Tensor creation, properties, conversions and operators."""
import math

import numpy as np
import pytest

import torch


def test_tensor_from_nested_lists_infers_dtype():
    assert torch.tensor([1, 2]).dtype == torch.int64
    assert torch.tensor([1, 2.5]).dtype == torch.float32
    assert torch.tensor([True, False]).dtype == torch.bool
    assert torch.tensor([[1, 2], [3, 4]]).shape == (2, 2)
    assert torch.tensor(3.5).dim() == 0
    assert torch.tensor([]).shape == (0,)
    assert torch.tensor([[1, 2]], dtype=torch.float64).dtype == torch.float64


def test_tensor_rejects_ragged_and_non_numbers():
    with pytest.raises(ValueError, match=r"expected sequence of length 2 at dim 1 \(got 1\)"):
        torch.tensor([[1, 2], [3]])
    with pytest.raises(TypeError, match="Could not infer dtype of str"):
        torch.tensor(["a"])


class Foo:
    pass


@pytest.mark.parametrize("other, shown", [
    (torch.device("cpu"), "torch.device"),  # a type of ours
    (Foo(), "Foo"),  # a class defined in Python
    (np.ones(1), "numpy.ndarray"),  # a type defined in C, outside builtins
    (object(), "object"),
    ({}, "dict"),
])
def test_argument_errors_name_the_type_as_pytorch_does(other, shown):
    with pytest.raises(TypeError, match=rf"^add\(\): argument 'other' \(position 2\) must be Tensor, not {shown}$"):
        torch.add(torch.ones(1), other)


def test_numpy_integers_and_0d_integer_arrays_are_ints():
    t = torch.ones(6)
    assert t.view(np.int64(2), 3).shape == (2, 3)
    assert t.view(np.array(2), 3).shape == (2, 3)
    assert torch.ones(2, 2).sum(dim=np.int32(0)).tolist() == [2.0, 2.0]
    with pytest.raises(TypeError):
        t.view(np.array([2, 3]))


def test_factories():
    assert torch.zeros(2, 3).tolist() == [[0.0] * 3] * 2
    assert torch.ones((2,), dtype=torch.int32).tolist() == [1, 1]
    assert torch.ones(2).dtype == torch.float32
    assert torch.full((2, 2), 7).dtype == torch.int64
    assert torch.full((2,), 1.5).tolist() == [1.5, 1.5]
    assert torch.empty(4, 5).shape == torch.Size([4, 5])
    assert torch.arange(5).tolist() == [0, 1, 2, 3, 4]
    assert torch.arange(1, 2, 0.25).tolist() == [1.0, 1.25, 1.5, 1.75]
    assert torch.arange(10, 0, -3).tolist() == [10, 7, 4, 1]
    assert torch.zeros_like(torch.ones(2, dtype=torch.int32)).dtype == torch.int32


def test_factory_errors():
    with pytest.raises(RuntimeError, match="negative dimension -1"):
        torch.zeros(-1)
    with pytest.raises(RuntimeError, match="step must be nonzero"):
        torch.arange(0, 5, 0)
    with pytest.raises(TypeError, match="zeros"):
        torch.zeros("a")


def test_manual_seed_reproduces_random_tensors():
    torch.manual_seed(42)
    a, b = torch.rand(100), torch.randn(3, 3)
    torch.manual_seed(42)
    assert torch.rand(100).tolist() == a.tolist()
    assert torch.randn(3, 3).tolist() == b.tolist()
    values = a.tolist()
    assert all(0.0 <= v < 1.0 for v in values)
    assert len(set(values)) == 100


def test_randn_is_standard_normal():
    torch.manual_seed(0)
    x = torch.randn(100000)
    assert abs(x.mean().item()) < 0.02
    assert abs(((x - x.mean()) ** 2).mean().item() - 1.0) < 0.02


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("n", [1, 2, 513, 100_001])
def test_normal_fills_every_element_with_the_right_moments(dtype, n):
    # float32 runs Box-Muller in vector lanes by blocks (the odd last element
    # takes the cosine alone); every element is filled and finite.
    torch.manual_seed(1)
    x = torch.empty(n, dtype=dtype).fill_(float("nan")).normal_(2.0, 0.5)
    assert bool(torch.isfinite(x).all())
    if n > 100_000:
        assert abs(x.mean().item() - 2.0) < 0.01
        assert abs(x.std().item() - 0.5) < 0.01
        assert abs(((x - 2.0).abs() > 0.98).double().mean().item() - 0.05) < 0.005  # the 1.96-sigma tails
    torch.manual_seed(1)
    assert torch.equal(torch.empty(n, dtype=dtype).normal_(2.0, 0.5), x)


def test_properties():
    t = torch.zeros(2, 3, 4)
    assert t.shape == (2, 3, 4) and isinstance(t.shape, torch.Size) and isinstance(t.shape, tuple)
    assert t.size() == t.shape and t.size(1) == 3 and t.size(-1) == 4
    assert t.stride() == (12, 4, 1) and t.stride(0) == 12
    assert t.dim() == t.ndim == 3 and t.numel() == 24
    assert t.dtype == torch.float32 and t.device == torch.device("cpu")
    assert t.is_contiguous() and not t.transpose(0, 2).is_contiguous()
    assert len(t) == 2
    with pytest.raises(TypeError, match="len\\(\\) of a 0-d tensor"):
        len(torch.tensor(1.0))


def test_item_and_tolist():
    assert torch.tensor([2.5]).item() == 2.5
    assert isinstance(torch.tensor(3).item(), int)
    assert torch.tensor(True).item() is True
    assert torch.tensor([[1, 2], [3, 4]]).t().tolist() == [[1, 3], [2, 4]]
    with pytest.raises(RuntimeError, match="a Tensor with 2 elements cannot be converted to Scalar"):
        torch.ones(2).item()


def test_to_dtype():
    t = torch.tensor([1.7, -2.2])
    assert t.to(torch.int32).tolist() == [1, -2]
    assert t.to(torch.bool).tolist() == [True, True]
    assert t.to(torch.float32) is t
    assert t.to(torch.float32, copy=True) is not t
    assert torch.tensor([0, 3]).to(torch.float64).tolist() == [0.0, 3.0]


def test_operators():
    a = torch.tensor([1.0, 2.0])
    assert (a + 1).tolist() == [2.0, 3.0]
    assert (1 + a).tolist() == [2.0, 3.0]
    assert (a - 1).tolist() == [0.0, 1.0]
    assert (1 - a).tolist() == [0.0, -1.0]
    assert (a * 3).tolist() == [3.0, 6.0]
    assert (a / 2).tolist() == [0.5, 1.0]
    assert (2 / a).tolist() == [2.0, 1.0]
    assert (a ** 2).tolist() == [1.0, 4.0]
    assert (2 ** a).tolist() == [2.0, 4.0]
    assert (-a).tolist() == [-1.0, -2.0]
    m = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert (m @ m).tolist() == [[7.0, 10.0], [15.0, 22.0]]
    assert (m @ a).tolist() == [5.0, 11.0]


def test_inplace_operators_keep_identity():
    a = torch.tensor([1.0, 2.0])
    b = a
    a += 1
    a *= 2
    a -= 1
    a /= 3
    assert a is b
    assert a.tolist() == [1.0, 5.0 / 3.0] or all(math.isclose(x, y, rel_tol=1e-6) for x, y in zip(a.tolist(), [1.0, 5 / 3]))


def test_inplace_rejects_result_that_does_not_fit():
    a = torch.ones(3, dtype=torch.int64)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        a += 0.5
    with pytest.raises(RuntimeError, match=r"output with shape \[3\] doesn't match the broadcast shape \[2, 3\]"):
        torch.ones(3).add_(torch.ones(2, 3))


def test_views_share_storage():
    base = torch.zeros(3, 4)
    v = base.view(4, 3)
    v.fill_(1.0)
    assert base.sum().item() == 12.0
    t = base.transpose(0, 1)
    t.mul_(2)
    assert base.tolist()[0] == [2.0] * 4
    r = base.reshape(12)
    assert r.data_ptr() == base.data_ptr()
    c = base.t().reshape(12)  # not viewable: a copy
    assert c.data_ptr() != base.data_ptr()


def test_overlapping_copy_is_rejected():
    a = torch.arange(6.0)
    with pytest.raises(RuntimeError, match="refer to a single memory location"):
        a[1:].copy_(a[:-1])


def test_bool_conversions():
    assert bool(torch.tensor([1.0])) is True
    assert float(torch.tensor(2.5)) == 2.5
    assert int(torch.tensor(7)) == 7
    with pytest.raises(RuntimeError, match="Boolean value of Tensor with more than one value is ambiguous"):
        bool(torch.ones(2))


def test_num_threads():
    n = torch.get_num_threads()
    assert n >= 1
    torch.set_num_threads(1)
    try:
        assert torch.get_num_threads() == 1
        assert torch.ones(100000).sum().item() == 100000.0
    finally:
        torch.set_num_threads(n)


def test_large_parallel_ops_match_serial():
    torch.manual_seed(0)
    x = torch.rand(3, 100003)
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        serial = ((x * 2 + 1).exp().sum(1)).tolist()
    finally:
        torch.set_num_threads(n)
    assert ((x * 2 + 1).exp().sum(1)).tolist() == pytest.approx(serial, rel=1e-6)


@pytest.mark.parametrize("call, error, match", [
    # PyTorch's checks, in its order (found by tools/difftest).
    (lambda: torch.tensor([True]).random_(-5, 5), RuntimeError, "from is out of bounds for bool"),
    (lambda: torch.zeros(2, dtype=torch.uint8).random_(0, 300), RuntimeError,
     "to - 1 is out of bounds for unsigned char"),
    (lambda: torch.randint(-1, 300, (2,), dtype=torch.uint8), RuntimeError, "from is out of bounds for unsigned char"),
    (lambda: torch.zeros(2, dtype=torch.int16).random_(0, 2**40), RuntimeError, "to - 1 is out of bounds for short int"),
    (lambda: torch.zeros(2, dtype=torch.int32).uniform_(3.0), NotImplementedError,
     "\"check_uniform_bounds\" not implemented for 'Int'"),
    (lambda: torch.zeros(2).uniform_(3.0), RuntimeError, "uniform_ expects to return a \\[from, to\\) range"),
])
def test_random_fill_bounds(call, error, match):
    with pytest.raises(error, match=match):
        call()


@pytest.mark.parametrize("call, type_name", [
    # A Python number converted to the tensor's dtype is checked, as in PyTorch
    # (found by tools/difftest); `t + 70000` is not such a conversion.
    (lambda: torch.zeros(2, dtype=torch.float16).fill_(70000), "c10::Half"),
    (lambda: torch.zeros(0, dtype=torch.int32).fill_(-1e30), "int"),
    (lambda: torch.full_like(torch.zeros(0, 3, dtype=torch.int16), -2**63), "int16_t"),
    (lambda: torch.full([2], 2**31, dtype=torch.float16), "c10::Half"),
    (lambda: torch.zeros(2, dtype=torch.float16).add(1, alpha=70000), "c10::Half"),
    (lambda: torch.zeros(2, dtype=torch.float16).clamp(-1, 70000), "c10::Half"),
    (lambda: torch.zeros(2, dtype=torch.float16).masked_fill(torch.tensor([True, False]), 70000), "c10::Half"),
    (lambda: torch.zeros(2, dtype=torch.float16).pow(70000.0), "c10::Half"),
    (lambda: torch.zeros(2, dtype=torch.int8).pow_(300), "int8_t"),
    (lambda: torch.linspace(float("nan"), 2**31, 5, dtype=torch.int32), "int"),
    (lambda: torch.linspace(0, 1e6, 5, dtype=torch.float16), "c10::Half"),
    (lambda: torch.arange(3.5e38, -1.5, -3, dtype=torch.int64), "int64_t"),
    (lambda: torch.where(torch.tensor([True, False]), torch.ones(2, dtype=torch.uint8), 300), "uint8_t"),
    (lambda: torch.where(torch.tensor([True, False]), 1e300, torch.ones(2)), "float"),
])
def test_numbers_that_do_not_fit_the_dtype(call, type_name):
    with pytest.raises(RuntimeError, match=f"value cannot be converted to type {type_name} without overflow"):
        call()


def test_numbers_that_fit_or_are_not_converted():
    assert torch.linspace(1e6, 2, 1, dtype=torch.int32).tolist() == [1000000]  # one step: only `start` is converted
    assert torch.arange(0, 70000, 10000, dtype=torch.float16)[-1].item() == 60000
    assert torch.zeros(2, dtype=torch.float16).add(70000).isinf().all()  # t + number: no checked conversion
    assert torch.where(torch.tensor([True, False]), torch.ones(2, dtype=torch.float16), 70000)[1].isinf()
    # A one-element fill is PyTorch's scalar_fill: float16/bfloat16 take any number.
    assert torch.full_like(torch.zeros(1, dtype=torch.bfloat16), 3.5e38).isinf().all()
    with pytest.raises(RuntimeError, match="without overflow"):
        torch.zeros(2, dtype=torch.float16).fill_(70000)
    with pytest.raises(RuntimeError, match="to - 1 is out of bounds for c10::Half"):
        torch.zeros(2, dtype=torch.float16).random_(0, 70000)


def test_random_fills_of_empty_integer_tensors():
    # An empty tensor returns before the kernel's dtype check, as in PyTorch.
    assert torch.empty(0, dtype=torch.uint8).normal_(-2.0).shape == (0,)
    assert torch.randn(1, 0, dtype=torch.int64).shape == (1, 0)
    with pytest.raises(NotImplementedError, match="normal_kernel_cpu"):
        torch.empty(2, dtype=torch.int64).normal_()


def test_random_fill_within_bounds():
    assert torch.zeros(100, dtype=torch.int8).random_(-5, 5).min() >= -5
    assert set(torch.zeros(100, dtype=torch.bool).random_(0, 2).tolist()) <= {False, True}
    # PyTorch's three forms: [0, to), [from, to) and, without to, up to the dtype's largest exact integer.
    assert set(torch.zeros(200).random_(3).tolist()) == {0.0, 1.0, 2.0}
    assert 0 <= torch.zeros(200, dtype=torch.uint8).random_().min() and torch.zeros(200).random_(5, None).min() >= 5
    assert torch.zeros(200, dtype=torch.float16).random_().max() <= 2048
    with pytest.raises(RuntimeError, match="from is out of bounds for unsigned char"):
        torch.zeros(0, dtype=torch.uint8).random_(-5, None)  # checked before the empty shortcut


@pytest.mark.parametrize("args, kwargs, expect", [
    # PyTorch counts in double for every integer dtype but int64, stepping from the truncated start.
    ((0.5,), {"dtype": torch.int16}, [0]),
    ((1.5, 4.2, 0.9), {"dtype": torch.int32}, [1, 1, 1]),
    ((-1.5, -1, 3), {"dtype": torch.int64}, []),
    ((5, -1.5, -2), {"dtype": torch.uint8}, [5, 3, 1, 255]),
])
def test_arange_integer_lengths(args, kwargs, expect):
    assert torch.arange(*args, **kwargs).tolist() == expect


def test_arange_int64_step_truncated_to_zero_is_a_value_error():
    with pytest.raises(ValueError, match="step must be nonzero"):
        torch.arange(-3, 3, 0.5, dtype=torch.int64)
    with pytest.raises(RuntimeError, match="step must be nonzero"):
        torch.arange(0, 3, 0)


_b = torch.tensor([True, False])


@pytest.mark.parametrize("call, expect", [
    # Inputs PyTorch accepts that were refused here (found by tools/difftest), with PyTorch's answers.
    (lambda: torch.ones(1, 3).expand(3, 3).tril_(), [[1.0, 0.0, 0.0]] * 3),  # only zeros are written
    (lambda: torch.ones(3, 1).expand(3, 3).tril_(1), [[0.0] * 3, [1.0] * 3, [1.0] * 3]),
    (lambda: torch.clamp(_b, min=torch.tensor([False, True])), [True, True]),  # one tensor bound: maximum
    (lambda: _b.clamp(max=torch.tensor(False)), [False, False]),  # a 0-d tensor picks the Tensor overload
    (lambda: torch.clamp(_b, 0, 1), [1, 0]),  # int bounds promote to int64
    (lambda: _b.pow(True), [True, False]),  # x ** 1 and x ** 0 need no kernel
    (lambda: _b.pow(False), [True, True]),
    (lambda: torch.linspace(3, False, 1, dtype=torch.bool), [True]),  # one step is a fill
    (lambda: torch.scalar_tensor(70000, dtype=torch.float16).item(), float("inf")),
    (lambda: torch.amax(torch.tensor([[1.0, 5.0]]), None).item(), 5.0),  # None for dim=[]
    (lambda: list(torch.ones(2, 2, 3, 5).gather(2, torch.zeros(0, 3, 1, 3, dtype=torch.int64)).shape), [0, 3, 1, 3]),
    (lambda: torch.softmax(torch.zeros(2, 0), 0, torch.int32).dtype, torch.int32),
])
def test_inputs_pytorch_accepts(call, expect):
    result = call()
    assert (result.tolist() if isinstance(result, torch.Tensor) else result) == expect


@pytest.mark.parametrize("call, error, match", [
    (lambda: torch.clamp(_b, _b, _b), NotImplementedError, "\"clamp_cpu\" not implemented for 'Bool'"),
    (lambda: torch.clamp(_b, min=True), NotImplementedError, "\"clamp_min_scalar_cpu\" not implemented for 'Bool'"),
    (lambda: torch.linspace(3, False, 2, dtype=torch.bool), NotImplementedError, "linspace_cpu"),
    (lambda: torch.scalar_tensor(1e39, dtype=torch.float32), RuntimeError, "value cannot be converted to type float"),
    (lambda: torch.softmax(torch.zeros(2, 1), 0, torch.int32), NotImplementedError, "not implemented for 'Int'"),
])
def test_inputs_pytorch_refuses_the_same_way(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_to_forms_as_pytorch():
    x = torch.ones(2)
    assert x.to(torch.ones(1, dtype=torch.int64)).dtype == torch.int64  # another tensor's dtype and device
    assert x.to() is x and x.to(None) is x and x.to(x) is x  # nothing to change: the same tensor
    assert x.to(None, torch.float64).dtype == torch.float64
    assert x.to(None, copy=True) is not x


def test_mH_and_H_are_the_transposes_of_real_matrices():
    x = torch.arange(24.0).reshape(2, 3, 4)
    assert torch.equal(x.mH, x.transpose(-2, -1)) and torch.equal(x[0].H, x[0].T)
    assert torch.tensor(3.0).H.item() == 3.0
    with pytest.raises(RuntimeError, match="tensor.mH is only supported on matrices or batches of matrices. Got 1-D"):
        torch.ones(3).mH
    with pytest.raises(RuntimeError, match=r"tensor.H is only supported on matrices \(2-D tensors\). Got 3-D tensor. "
                                           "For batches of matrices, consider using tensor.mH"):
        x.H


@pytest.mark.parametrize("args", [(torch.tensor([1.0, 2.0, 3.0]), 2), (torch.tensor([1.0, 2.0, 3.0]),
                                                                        torch.tensor([2.0, 0.5, 1.0])),
                                  (2, torch.tensor([1.0, 2.0, 3.0]))])
def test_pow_writes_into_out(args):
    out = torch.empty(0)
    assert torch.pow(*args, out=out) is out
    assert torch.allclose(out, torch.pow(*args))


@pytest.mark.parametrize("upper", [False, True])
def test_triangle_indices_match_numpy(upper):
    """tril_indices/triu_indices against numpy's over shapes (empty, wide,
    tall) and offsets reaching past either corner."""
    ours = torch.triu_indices if upper else torch.tril_indices
    theirs = np.triu_indices if upper else np.tril_indices
    for row, col in [(0, 0), (0, 3), (3, 0), (1, 1), (4, 4), (3, 7), (7, 3), (256, 200)]:
        for offset in (-9, -3, -1, 0, 1, 2, 8):
            got = ours(row, col, offset)
            assert got.dtype == torch.int64 and got.shape[0] == 2
            np.testing.assert_array_equal(got.numpy(), np.stack(theirs(row, offset, col)).reshape(2, -1))


def test_triangle_indices_dtypes_layout_and_errors():
    assert torch.tril_indices(3, 3, dtype=torch.int32).dtype == torch.int32
    assert torch.triu_indices(3, 3, layout=torch.strided).tolist() == [[0, 0, 0, 1, 1, 2], [0, 1, 2, 1, 2, 2]]
    with pytest.raises(RuntimeError, match="row must be non-negative, got-1"):
        torch.tril_indices(-1, 3)
    with pytest.raises(RuntimeError, match="col must be non-negative, got-2"):
        torch.triu_indices(3, -2)
    for dtype, name in [(torch.bool, "Bool"), (torch.int16, "Short"), (torch.float32, "Float"),
                        (torch.bfloat16, "BFloat16")]:
        with pytest.raises(NotImplementedError, match=f"\"tril_indices\" not implemented for '{name}'"):
            torch.tril_indices(3, 0, dtype=dtype)


@pytest.mark.parametrize("dim", [None, 0, 1, -1])
def test_repeat_interleave_matches_numpy_repeat(dim):
    """Number and tensor counts (zeros among them), against np.repeat; the
    result is new memory even when every count is 1."""
    x = np.arange(24.0).reshape(4, 6)
    n = x.size if dim is None else x.shape[dim]
    rng = np.random.default_rng(0)
    for repeats in (0, 1, 3, rng.integers(0, 4, n), np.ones(n, np.int64)):
        r = torch.from_numpy(repeats) if isinstance(repeats, np.ndarray) else repeats
        got = torch.from_numpy(x).repeat_interleave(r, dim=dim)
        np.testing.assert_array_equal(got.numpy(), np.repeat(x, repeats, axis=dim))
        assert got.is_contiguous()
        if got.numel():
            got.view(-1)[0] = -1
            assert x.flat[0] == 0  # not a view of the input
    assert torch.repeat_interleave(torch.tensor([2, 0, 3])).tolist() == [0, 0, 2, 2, 2]


def test_repeat_interleave_errors_and_gradient():
    with pytest.raises(RuntimeError, match="Repeats must be non-negative"):
        torch.ones(3).repeat_interleave(-1)
    with pytest.raises(RuntimeError, match="repeats can not be negative"):
        torch.ones(3).repeat_interleave(torch.tensor([1, -1, 2]))
    with pytest.raises(RuntimeError, match=r"but got repeats.size\(0\) = 2 and input.size\(1\) = 3"):
        torch.ones(2, 3).repeat_interleave(torch.tensor([1, 2]), dim=1)
    with pytest.raises(NotImplementedError, match="not implemented for 'Float'"):
        torch.ones(3).repeat_interleave(torch.tensor([1.0, 2.0, 3.0]))
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    x.repeat_interleave(torch.tensor([2, 0, 1]), dim=1).sum().backward()
    assert x.grad.tolist() == [[2.0, 0.0, 1.0], [2.0, 0.0, 1.0]]
    x.grad = None
    x.repeat_interleave(3).sum().backward()
    assert x.grad.tolist() == [[3.0] * 3] * 2
