"""Hostile input gets a Python exception or a correct result, never a crash:
the cases the fuzzers (tests/fuzz/) found or started from, as plain tests."""
import glob
import io
import os
import sys

import numpy as np
import pytest
import torch

FUZZ = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fuzz")
sys.path.insert(0, FUZZ)
import hostile  # noqa: E402
import load_seeds  # noqa: E402


def test_deeply_nested_list_is_a_value_error():
    with pytest.raises(ValueError, match="too many dimensions 'list'"):
        torch.tensor(hostile.nested(100_000))
    assert torch.tensor(hostile.nested(128)).dim() == 128
    with pytest.raises(ValueError, match="too many dimensions"):
        torch.tensor(hostile.nested(129))


def test_ragged_list_hiding_deep_nesting_is_an_error():
    with pytest.raises(TypeError):
        torch.tensor([[1.0], hostile.nested(100_000)])


def test_local_scalar_dense_of_an_empty_tensor_raises():
    # fuzz finding regressions/binding/local-scalar-dense-empty: read past an empty tensor's data
    with pytest.raises(RuntimeError, match="0 elements"):
        torch._local_scalar_dense(torch.empty(0, 3))
    assert torch._local_scalar_dense(torch.tensor([4.0, 5.0])).__float__() == 4.0


@pytest.mark.parametrize("bad", [hostile.LyingIndex(hostile.Boom("index")), hostile.LyingIndex(2**64),
                                 hostile.LyingIndex(1.5), hostile.LyingIndex(-1)])
def test_sizes_whose_index_raises_or_lies(bad):
    with pytest.raises((hostile.Boom, TypeError, RuntimeError, OverflowError, ValueError)):
        torch.zeros(bad)


@pytest.mark.parametrize("size", [2**63 - 1, 2**62, (2**40, 2**40), (-1,), (2**31, 2**31, 4)])
def test_huge_and_negative_sizes_raise(size):
    with pytest.raises((RuntimeError, ValueError, OverflowError)):
        torch.empty(size)


@pytest.mark.parametrize("make", [
    lambda base: base.as_strided((2 ** 62,), (1,)),  # the end, in bytes, wraps past int64
    lambda base: base.as_strided((2 ** 31, 2 ** 31), (2 ** 33, 1)),
    lambda base: base.as_strided((2 ** 40, 2 ** 40, 2 ** 40), (0, 0, 0)),  # more elements than int64 counts
    lambda base: torch.empty(0).set_(base.untyped_storage(), 0, (2 ** 62,), (1,)),
    lambda base: torch.empty(0).set_(base.untyped_storage(), 2 ** 62, (2,), (1,)),
])
def test_geometry_that_overflows_is_refused(make):
    with pytest.raises(RuntimeError):
        make(torch.zeros(4))
    assert torch.zeros(4).as_strided((2 ** 40, 0), (0, 0)).numel() == 0


def test_sequences_whose_len_or_items_raise():
    with pytest.raises(hostile.Boom):
        torch.tensor(hostile.LyingList([1.0], hostile.Boom("len")))
    with pytest.raises(hostile.Boom):
        torch.tensor(hostile.RaisingSequence())
    for length in (0, 5, 2**62):
        try:
            t = torch.tensor(hostile.LyingList([1.0, 2.0], length))
        except (ValueError, TypeError, RuntimeError, IndexError, OverflowError):
            continue
        assert t.tolist() in ([1.0, 2.0], [])


def test_scalars_whose_float_raises():
    with pytest.raises(hostile.Boom):
        torch.ones(2).add(hostile.LyingFloat(hostile.Boom("float")))


@pytest.mark.parametrize("dtype", ["<f4", ">f4", "<f8", "u1", "?"])
@pytest.mark.parametrize("kind", range(9))
def test_numpy_arrays_with_odd_strides_and_byte_orders(kind, dtype):
    class Fixed:  # hostile.numpy_array's choices, picked directly
        def __init__(self, kind):
            self.kind = kind

        def ConsumeIntInRange(self, lo, hi):
            return self.kind

        def PickValueInList(self, values):
            return dtype

        def ConsumeRegularFloat(self):
            return 2.5

    arr = hostile.numpy_array(Fixed(kind))
    try:
        t = torch.as_tensor(arr)
    except (TypeError, ValueError, RuntimeError):
        # object, structured and complex arrays are refused, and so are
        # non-native byte orders and negative strides (as PyTorch refuses them)
        assert arr.dtype.kind in "OVc" or not arr.dtype.isnative or min(arr.strides, default=0) < 0, arr.dtype
        return
    np.testing.assert_array_equal(t.numpy(), np.asarray(arr).astype(t.numpy().dtype))


def test_dlpack_producers_that_lie():
    for fake in (hostile.FakeDLPack((2, 0), None), hostile.FakeDLPack(hostile.Boom("device"), None),
                 hostile.FakeDLPack((1, 0), 3), hostile.FakeDLPack((1, 0), hostile.capsule(b"used_dltensor")),
                 hostile.capsule(b"used_dltensor"), hostile.capsule(b"not a tensor")):
        with pytest.raises((RuntimeError, TypeError, ValueError, hostile.Boom)):
            torch.from_dlpack(fake)


@pytest.mark.parametrize("name", sorted(load_seeds.hostile()))
def test_load_refuses_hostile_files(name):
    with pytest.raises(RuntimeError, match="torch.load"):
        torch.load(io.BytesIO(load_seeds.hostile()[name]))


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(FUZZ, "regressions", "load", "*"))))
def test_load_fuzz_findings(path):
    with open(path, "rb") as f:
        data = f.read()
    with pytest.raises(RuntimeError, match="torch.load"):
        torch.load(io.BytesIO(data))


@pytest.mark.parametrize("name", sorted(load_seeds.valid()))
def test_load_seeds_that_are_valid_load(name):
    assert torch.load(io.BytesIO(load_seeds.valid()[name])) is not None


def test_load_never_writes_outside(tmp_path):
    """Member names are only looked up, never extracted: nothing appears on disk."""
    before = set(os.listdir(tmp_path))
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        with pytest.raises(RuntimeError):
            torch.load(io.BytesIO(load_seeds.hostile()["path-traversal"]))
    finally:
        os.chdir(cwd)
    assert set(os.listdir(tmp_path)) == before


def test_im2col_of_a_1d_input_that_requires_grad_reads_its_sizes_first():
    """PyTorch's autograd wrapper saves the spatial sizes before the kernel
    checks the argument lengths: an IndexError with grad, the length error
    without (the OpInfo record's error input)."""
    x = torch.ones(1, requires_grad=True)
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-1, 0\], but got -2\)"):
        torch._C._nn.im2col(x, [2, 1], [2], [3, 1], [2])


def test_lu_unpack_of_a_1d_input_that_requires_grad_reads_its_sizes_first():
    with pytest.raises(IndexError, match=r"expected to be in range of \[-1, 0\], but got -2"):
        torch.lu_unpack(torch.ones(1, requires_grad=True), torch.ones(2, 3, dtype=torch.int32))
    with pytest.raises(RuntimeError, match="Expected tensor with 2 or more dimensions"):
        torch.lu_unpack(torch.ones(1), torch.ones(2, 3, dtype=torch.int32))


def test_lu_unpack_ignores_the_requires_grad_of_pivots_it_does_not_unpack():
    # LU_pivots is non_differentiable in PyTorch's derivatives.yaml: never refused, never a gradient
    p, lower, upper = torch.lu_unpack(torch.ones(0, 1, 3, requires_grad=True), torch.ones(1, requires_grad=True),
                                      True, False)
    assert lower.shape == (0, 1, 1) and upper.shape == (0, 1, 3) and p.numel() == 0
    assert lower.grad_fn is not None and not p.requires_grad


def test_lu_solve_checks_the_pivots_dtype_before_shapes_and_kernel_dtypes():
    with pytest.raises(RuntimeError, match="pivots should be a Tensor of scalar type torch.int32"):
        torch.linalg.lu_solve(torch.ones(3, 2, 1, dtype=torch.float16), torch.ones(3, 0, 3, dtype=torch.uint8),
                              torch.ones(2, 0, 2, 3, dtype=torch.float16))
    with pytest.raises(NotImplementedError):
        torch.linalg.lu_solve(torch.ones(2, 2, dtype=torch.float16), torch.ones(2, dtype=torch.int32),
                              torch.ones(2, 1, dtype=torch.float16))
    # B's batch dims broadcast with LU's; the pivots must have LU's
    LU, piv = torch.linalg.lu_factor(torch.randn(2, 3, 3, dtype=torch.float64))
    B = torch.randn(4, 2, 3, 1, dtype=torch.float64)
    X = torch.linalg.lu_solve(LU, piv, B)
    assert X.shape == (4, 2, 3, 1)
    torch.testing.assert_close(torch.linalg.lu_solve(LU, piv, B[0]), X[0])
    with pytest.raises(RuntimeError, match=r"Expected LU.shape\[:-1\] and pivots.shape to be the same"):
        torch.linalg.lu_solve(LU, piv[0], B[0])


def test_scalars_that_do_not_fit_the_dtype_are_refused_even_when_nothing_is_written():
    v = torch.ones(2)
    for kwargs in ({"beta": 3.5e38}, {"alpha": 3.5e38}):
        with pytest.raises(RuntimeError, match="value cannot be converted to type float without overflow"):
            torch.addr(v[:1], v, v[:1], **kwargs)
    empty = torch.tensor([], dtype=torch.long)
    for value in (float("-inf"), 300):
        with pytest.raises(RuntimeError, match="value cannot be converted to type int8_t without overflow"):
            torch.zeros(3, dtype=torch.int8).index_fill_(0, empty, value)
    assert torch.zeros(3, dtype=torch.int8).index_fill_(0, empty, 100).tolist() == [0, 0, 0]


@pytest.mark.parametrize("op", [torch.cummax, torch.cummin])
def test_running_extremes_of_an_empty_input_never_read_dim(op):
    # PyTorch returns before wrapping dim; a non-empty input still checks it.
    for dim in (-3, 5):
        values, indices = op(torch.zeros(3, 0, requires_grad=True), dim)
        assert values.shape == indices.shape == (3, 0) and indices.dtype == torch.int64
    values.sum().backward()
    with pytest.raises(IndexError, match="Dimension out of range"):
        op(torch.zeros(3, 1), -3)


# PyTorch 2.13's order of checks, where the long differential pass (seed 11) found ours differing.
@pytest.mark.parametrize("call,error,match", [
    (lambda: torch.rot90(torch.zeros(1, 1, 1), 5, [3, -3]), IndexError, r"range of \[-3, 2\], but got 3"),
    (lambda: torch.rot90(torch.zeros(2, 2), 1, [1, -1]), RuntimeError, "expected rotation dims to be different"),
    (lambda: torch._C._nn.col2im(torch.ones(5), [1, 1], [3, 3], [1, 2], [1, 3], [1, 2]), RuntimeError,
     "Expected 2D or 3D"),
    (lambda: torch.ones(1, 3, 3, dtype=torch.bool).baddbmm(torch.ones(1, 3, 3, dtype=torch.bool), torch.ones(1, 3, 3)),
     NotImplementedError, "\"baddbmm\" not implemented for 'Bool'"),
    (lambda: torch.ones(3, 1, 3, dtype=torch.bool).baddbmm(torch.ones(3, 1, 3, dtype=torch.bool), torch.ones(3, 1, 3)),
     RuntimeError, r"Expected size for first two dimensions of batch2 tensor to be: \[3, 3\] but got: \[3, 1\]"),
    (lambda: torch._C._nn.reflection_pad1d(torch.ones(3, 3, 3, dtype=torch.bool), [0, 3]), RuntimeError,
     r"Argument #4: Padding size should be less than the corresponding input dimension, but got: padding \(0, 3\)"),
    (lambda: torch._C._nn.reflection_pad3d(torch.ones(3, 2, 1, 3, dtype=torch.bool), [1, 1, 2, 2, 0, 2]),
     RuntimeError, r"Padding size should be less than the corresponding input dimension, but got: padding \(2, 2\)"),
    (lambda: torch._C._nn.reflection_pad1d(torch.ones(3, 3, 3, dtype=torch.bool), [0, 2]), NotImplementedError,
     "\"reflection_pad1d\" not implemented for 'Bool'"),
    (lambda: torch.native_group_norm(torch.zeros(2, 1, 1, 1, dtype=torch.bool).expand(2, 1, 1, 2), None, None, 2, 1,
                                     2, 1, 1e-5), RuntimeError, r"Expected X.is_contiguous\(memory_format\) to be true"),
    (lambda: torch.native_group_norm(torch.ones(0, dtype=torch.bool), None, None, 4, 1, -2, 1, 1e-5),
     NotImplementedError, "GroupNormKernelImpl"),
    (lambda: torch.native_group_norm(torch.ones(4, 2), None, None, 4, 1, 2, 1, 1e-5), RuntimeError,
     "do not describe an input"),
    (lambda: torch.linalg.lstsq(torch.ones(2, 2, dtype=torch.long), torch.ones(2, 2, dtype=torch.long),
                                driver="none"), RuntimeError, "parameter `driver` should be one of"),
    (lambda: torch.pow(2, torch.ones(3), out=torch.zeros(3, dtype=torch.bool)), RuntimeError, "can't be cast"),
    (lambda: torch.constant_pad_nd(torch.ones(2, 2, dtype=torch.int16), [1, 0], 1e10), RuntimeError,
     "value cannot be converted to type int16_t without overflow"),
])
def test_checks_in_pytorchs_order(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_an_empty_factorisation_takes_any_floating_dtype_as_pytorch():
    L, info = torch.linalg.cholesky_ex(torch.zeros(2, 0, 0, dtype=torch.float16))
    assert L.shape == (2, 0, 0) and L.dtype == torch.float16 and info.tolist() == [0, 0]
    with pytest.raises(RuntimeError, match="Expected a floating point or complex tensor as input. Got Long"):
        torch.linalg.cholesky_ex(torch.zeros(0, 0, dtype=torch.int64))


def test_nothing_to_look_up_takes_any_dtype_as_pytorch():
    assert torch.bucketize(torch.zeros(0, dtype=torch.bool), torch.zeros(0, dtype=torch.bool)).shape == (0,)
    found = torch.searchsorted(torch.zeros(2, 0, dtype=torch.bool), torch.zeros(2, 0, dtype=torch.bool), out_int32=True)
    assert found.shape == (2, 0) and found.dtype == torch.int32
    with pytest.raises(NotImplementedError, match="\"searchsorted_out_cpu\" not implemented for 'Bool'"):
        torch.bucketize(torch.zeros(1, dtype=torch.bool), torch.zeros(0, dtype=torch.bool))


def test_what_pytorch_accepts_without_converting_a_scalar():
    # maxnorm beyond float32: no row is above it
    x = torch.tensor([[-0.05, 0.005, 0.01]])
    torch.testing.assert_close(torch.renorm(x, 2, 1, 3.5e38), x)
    # no padding at all copies, whatever the value
    y = torch.ones(2, 2, dtype=torch.int16)
    assert torch.equal(torch.constant_pad_nd(y, [], 1e10), y) and torch.equal(torch.constant_pad_nd(y, [0, 0], 1e10), y)
    # 1 ** x fills any out= tensor with 1
    out = torch.zeros(5, dtype=torch.bool)
    assert torch.pow(1, torch.tensor([-0.0, 2.0, -3.0, float("nan"), 0.0]), out=out).tolist() == [True] * 5
    assert torch.pow(1.0, torch.ones(3), out=torch.zeros(1, dtype=torch.int32)).tolist() == [1, 1, 1]
    with pytest.raises(NotImplementedError, match="\"pow\" not implemented for 'Bool'"):  # True is no 1 there
        torch.pow(True, torch.ones(3, dtype=torch.bool), out=torch.zeros(3, dtype=torch.uint8))


@pytest.mark.parametrize("dtype", [torch.int64, torch.bool, torch.float16, torch.float32])
def test_lu_factor_of_an_empty_matrix_takes_any_dtype(dtype):
    # no kernel runs, so PyTorch checks neither the dtype nor pivot=False
    LU, pivots, info = torch.linalg.lu_factor_ex(torch.zeros(2, 3, 0, dtype=dtype), pivot=False)
    assert LU.dtype == dtype and LU.shape == (2, 3, 0)
    assert pivots.dtype == info.dtype == torch.int32 and pivots.shape == (2, 0) and info.tolist() == [0, 0]
    with pytest.raises(NotImplementedError, match="lu_cpu"):  # the kernel's dtype before pivot=False
        torch.linalg.lu_factor_ex(torch.zeros(2, 2, dtype=torch.int64), pivot=False)
    if dtype.is_floating_point:  # and the gradient of nothing is nothing, without pivots
        x = torch.zeros(0, 5, 2, 1, dtype=dtype, requires_grad=True)
        torch.linalg.lu_factor_ex(x, pivot=False)[0].sum().backward()
        assert x.grad.shape == x.shape


def test_histc_checks_its_final_edges_in_the_dtype():
    # PyTorch converts the edges it ends with (after taking the data's range when min == max, and widening
    # an empty range by 1 each side), so an empty uint8 input overflows at -1 and min == max == 300 is fine
    u8 = torch.tensor([2, 10, 3, 8], dtype=torch.uint8)
    for call in (lambda: torch.histc(torch.tensor([], dtype=torch.uint8), 3), lambda: torch.histc(u8, 1, -3)):
        with pytest.raises(RuntimeError, match="value cannot be converted to type uint8_t without overflow"):
            call()
    for call in (lambda: torch.histc(u8, 4, 300, 300), lambda: torch.histc(torch.tensor([], dtype=torch.int8), 3)):
        with pytest.raises(NotImplementedError, match="histogram_cpu"):
            call()
    with pytest.raises(RuntimeError, match="c10::Half without overflow"):
        torch.histc(torch.tensor([1.0, 2.0]).half(), 2, 0, 1e6)
