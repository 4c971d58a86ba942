"""Generic operator tests, run over every record in opinfo/."""
import math
import os
import re

import pytest

import torch
from opinfo import ALL_OPS
from opinfo.params import cases, torch_args
from testing import assert_matches, noncontiguous, to_numpy


@pytest.mark.parametrize("op,dtype", cases())
def test_matches_numpy(op, dtype, rng):
    for sample in op.sample_inputs(op, dtype, rng):
        actual = op(*torch_args(sample, dtype), **sample.kwargs)
        expected = op.ref(*sample.args, **sample.kwargs)
        try:
            assert_matches(actual, expected, dtype=op.result_dtype(dtype))
        except AssertionError as e:
            raise AssertionError(f"sample {sample.desc!r}: {e}") from None


@pytest.mark.parametrize("op,dtype", cases())
def test_noncontiguous_inputs(op, dtype, rng):
    for sample in op.sample_inputs(op, dtype, rng):
        expected = op(*torch_args(sample, dtype), **sample.kwargs)
        actual = op(*torch_args(sample, dtype, noncontiguous), **sample.kwargs)
        assert_matches(actual, to_numpy(expected), dtype=expected.dtype)


@pytest.mark.parametrize("op,dtype", cases(lambda op: op.method and op.op is None))
def test_method_variant(op, dtype, rng):
    for sample in op.sample_inputs(op, dtype, rng):
        args = torch_args(sample, dtype)
        expected = op(*args, **sample.kwargs)
        actual = getattr(args[0], op.name)(*args[1:], **sample.kwargs)
        assert_matches(actual, to_numpy(expected), dtype=expected.dtype)


@pytest.mark.parametrize("op,dtype", cases(lambda op: op.inplace))
def test_inplace_variant(op, dtype, rng):
    for sample in op.sample_inputs(op, dtype, rng):
        args = torch_args(sample, dtype)
        expected = op(*args, **sample.kwargs)
        if tuple(expected.shape) != tuple(args[0].shape):
            continue  # broadcasting beyond the first operand: covered by test_tensor.py
        target = args[0].clone()
        if op.inplace_casts_result:
            expected = expected.to(dtype)
        if expected.dtype != dtype:
            # The result does not fit the first operand's dtype: refused, as in PyTorch.
            with pytest.raises(RuntimeError, match="can't be cast to the desired output type"):
                getattr(target, op.name + "_")(*args[1:], **sample.kwargs)
            continue
        returned = getattr(target, op.name + "_")(*args[1:], **sample.kwargs)
        assert returned is target
        assert_matches(target, to_numpy(expected), dtype=dtype)


@pytest.mark.parametrize("op,dtype", cases(lambda op: op.supports_out))
def test_out_variant(op, dtype, rng):
    for sample in op.sample_inputs(op, dtype, rng):
        args = torch_args(sample, dtype)
        expected = op(*args, **sample.kwargs)
        out = torch.empty(0, dtype=expected.dtype)  # resized by the op
        returned = op(*args, out=out, **sample.kwargs)
        assert returned is out
        assert_matches(out, to_numpy(expected), dtype=expected.dtype)


def _same(got, expect):
    assert got.dtype == expect.dtype and got.shape == expect.shape, (got, expect)
    g, e = got.detach().double().reshape(-1).tolist(), expect.double().reshape(-1).tolist()
    for a, b in zip(g, e):
        assert (a != a and b != b) or a == b or abs(a - b) <= 1e-6 * max(1.0, abs(b)), (got, expect)
        if a == 0 and b == 0:  # the sign of a zero is part of the answer (nll_loss's +0)
            assert math.copysign(1.0, a) == math.copysign(1.0, b), (got, expect)


@pytest.mark.parametrize("op", [pytest.param(op, id=op.id) for op in ALL_OPS if list(op.known_values())])
def test_known_values(op):
    # Each record is a difference tools/difftest found once; the answer is PyTorch 2.13's.
    for known in op.known_values():
        args = [a.detach().clone().requires_grad_(known.grad_of == i) if isinstance(a, torch.Tensor) else a
                for i, a in enumerate(known.args)]
        result = op(*args, **known.kwargs)
        if known.grad_of is None:
            _same(result, known.expect)
        else:
            result.sum().backward()
            _same(args[known.grad_of].grad, known.expect)


@pytest.mark.parametrize("op", [pytest.param(op, id=op.id) for op in ALL_OPS if list(op.error_inputs())])
def test_error_inputs(op):
    for err in op.error_inputs():
        with pytest.raises(err.error, match=err.match):
            op(*err.args, **err.kwargs)


# Ops of native_functions.yaml without an OpInfo record, each with the reason
# and where it is tested instead. A new op needs a record or a line here.
EXEMPT = {
    "equal": "returns a bool, which OpInfo records do not compare: test_kernel_paths.py (every block of the dense "
             "path, NaN, signed zeros, promotion, shapes, errors)",
    "_local_scalar_dense": "Tensor.item()'s kernel: test_tensor.py, test_hostile_input.py",
    "_batch_norm": "F.batch_norm's kernel: test_batch_norm.py (values and running statistics against numpy, "
                   "gradcheck and gradgradcheck, errors), the oracle's programs with BatchNorm",
    "_lstm_cell": "the fused LSTM cell behind nn.LSTM: test_nn.py, the oracle's recurrent programs",
    "_lstm_sequence": "a whole nn.LSTM layer: test_nn.py (against the step-by-step equations), gradchecked in "
                      "test_autograd.py",
    "_reshape_alias": "reshape of a non-contiguous tensor that a view can express: test_autograd.py (node names, "
                      "gradcheck), the reshape record",
    "_unsafe_view": "reshape that copies, and matmul's batch folding: test_autograd.py, the reshape and matmul records",
    "_empty_strided": "torch.empty_strided and the memory_format= layouts: test_memory_format.py (strides, "
                      "owning its memory, errors)",
    "_clone_strided": "clone(memory_format=), contiguous(memory_format=channels_last): test_memory_format.py "
                      "(strides against PyTorch's rules, values, every dtype), gradchecked in test_autograd.py",
    "native_layer_norm": "behind F.layer_norm: the layer_norm record; its statistics in test_autograd.py",
    "native_group_norm": "behind F.group_norm: the group_norm record; called directly in test_autograd.py",
    "leaky_relu_": "leaky_relu in place: test_kernel_paths.py (values and gradient through a strided view)",
    "max_pool2d_with_indices": "behind F.max_pool2d: the max_pool2d record",
    "max_pool3d_with_indices": "behind F.max_pool3d with indices or a gradient: test_pooling.py (values and indices "
                               "against a window-by-window numpy reference over dtypes, padding, dilation, "
                               "ceil_mode; NaN, ties, errors; gradcheck, gradgradcheck)",
    "max_unpool2d": "behind F.max_unpool1d/2d and nn.MaxUnpool1d/2d: test_pooling.py (against numpy, output_size, "
                    "PyTorch's errors, gradcheck)",
    "max_unpool3d": "behind F.max_unpool3d and nn.MaxUnpool3d: test_pooling.py (against numpy, output_size, "
                    "PyTorch's errors, gradcheck)",
    "_max_pool_backward": "every max pool's gradient: test_pooling.py (against scatter_add, overlapping windows, "
                          "bounds and shape checks), gradchecked through the pools' records",
    "_embedding_bag": "behind F.embedding_bag: test_embedding_bag.py (results, gradients, checks), "
                      "test_nn_breadth.py (every mode against numpy), gradchecked in test_autograd.py",
    "embedding_bag": "torch.embedding_bag (padding_idx only with every argument before it, as PyTorch binds it), then "
                     "_embedding_bag: test_embedding_bag.py",
    "_max_pool2d_values": "behind F.max_pool2d without a gradient: the max_pool2d record's forward samples, "
                          "test_nn_breadth.py (against the indices path)",
    "view_as_real": "complex tensors, which no OpInfo sample has: test_complex.py (views, strides, errors)",
    "view_as_complex": "complex tensors, which no OpInfo sample has: test_complex.py (views, strides, errors)",
    "arange": "factory without inputs to compare: test_tensor.py",
    "_pad_backward": "the padding ops' gradient: gradchecked through their records, gradgradchecked in "
                     "test_padding.py and, as a function of its own, in test_autograd.py",
    "empty": "factory (uninitialized values): test_tensor.py",
    "empty_like": "factory (uninitialized values): test_tensor.py",
    "eye": "factory: test_tensor.py",
    "tril_indices": "factory: test_tensor.py (against numpy's tril_indices over offsets and shapes, dtypes, errors)",
    "triu_indices": "factory: test_tensor.py (against numpy's triu_indices over offsets and shapes, dtypes, errors)",
    "full": "factory: test_tensor.py",
    "full_like": "factory: test_tensor.py",
    "linspace": "factory: test_tensor.py",
    "ones": "factory: test_tensor.py",
    "ones_like": "factory: test_tensor.py",
    "zeros": "factory: test_tensor.py",
    "zeros_like": "factory: test_tensor.py",
    "scalar_tensor": "factory behind Python numbers in expressions: test_type_promotion.py",
    "rand": "random: distributions and generators in test_api_surface.py, test_tensor.py",
    "rand_like": "random: test_api_surface.py",
    "randn": "random: test_api_surface.py, test_tensor.py",
    "randn_like": "random: test_api_surface.py",
    "randint": "random: test_api_surface.py",
    "randperm": "random: test_api_surface.py",
    "multinomial": "random: test_api_surface.py",
    "normal_": "random, in place: test_api_surface.py",
    "bernoulli_": "random, in place: test_api_surface.py",
    "uniform_": "random, in place: test_api_surface.py",
    "random_": "random, in place: test_api_surface.py",
    "as_strided": "a view by explicit strides: test_shape_ops.py",
    "chunk": "returns a list of views: test_shape_ops.py",
    "split": "returns a list of views: test_shape_ops.py",
    "split_with_sizes": "returns a list of views: test_shape_ops.py",
    "select": "behind integer indexing: test_indexing.py",
    "expand": "a broadcasting view: test_broadcasting.py, test_shape_ops.py",
    "clone": "copies: test_tensor.py",
    "copy_": "copies across dtypes and devices: test_tensor.py, test_cuda.py",
    "to": "dtype and device conversion: test_tensor.py, test_cuda.py",
    "fill_": "in place: test_tensor.py",
    "zero_": "in place: test_tensor.py",
    "resize_": "storage growth: test_tensor.py",
    "item": "to a Python number: test_tensor.py",
    "rsub": "Python's reflected subtraction (2 - t): test_type_promotion.py",
    "polygamma_": "Tensor.polygamma_(n) takes self first, unlike polygamma(n, self): test_special.py",
}


def _generated_ops():
    """Every op native_functions.yaml binds to Python: the functions of the
    generated modules and the generated Tensor methods (as the installed stubs,
    generated from the same YAML, list them)."""
    names = {n for mod in (torch._C._VariableFunctions, torch._C._nn) for n in dir(mod) if not n.startswith("__")}
    with open(os.path.join(os.path.dirname(torch.__file__), "_C", "__init__.pyi")) as f:
        generated_part = f.read().split("# Generated from native_functions.yaml.", 1)[1]
    names |= set(re.findall(r"^    def (\w+)\(", generated_part, re.M))
    return names - {"tensor"}  # torch.tensor is written by hand (csrc/tensor_new.cpp): test_tensor.py


def test_every_op_has_a_record_or_an_exemption():
    ops = _generated_ops()
    covered = {op.name for op in ALL_OPS} | {op.name + "_" for op in ALL_OPS if op.inplace}
    missing = sorted(ops - covered - set(EXEMPT))
    assert not missing, f"ops without an OpInfo record or an entry in EXEMPT: {missing}"
    stale = sorted(set(EXEMPT) - ops)
    assert not stale, f"EXEMPT names ops that no longer exist: {stale}"
    redundant = sorted(set(EXEMPT) & covered)
    assert not redundant, f"EXEMPT names ops that have records now: {redundant}"
    assert len(ops) > 150  # the list really comes from the bindings


# Ops that refuse float16 and bfloat16, as PyTorch's do (LAPACK has no such types).
NO_LOW_PRECISION = {"_linalg_eigh", "linalg_lu_factor_ex", "lu_unpack", "linalg_lu_solve", "_linalg_solve_ex",
                    "linalg_inv_ex", "_linalg_det", "_linalg_slogdet", "linalg_cholesky_ex", "cholesky_inverse", "cholesky_solve",
                    "linalg_solve_triangular",
                    "linalg_qr", "_linalg_svd", "linalg_lstsq", "multilabel_margin_loss", "pdist"}


def _half_cases():
    return [
        pytest.param(op, dtype, id=f"{op.id}-{str(dtype).replace('torch.', '')}")
        for op in ALL_OPS
        if torch.float32 in op.dtypes and op.name not in NO_LOW_PRECISION
        for dtype in (torch.float16, torch.bfloat16)
    ]


@pytest.mark.parametrize("op", [pytest.param(op, id=op.id) for op in ALL_OPS if op.name in NO_LOW_PRECISION])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_ops_without_low_precision_refuse_it(op, dtype, rng):
    """The record's call (the public function over the op) with its first
    sample in low precision: refused with PyTorch's message."""
    sample = next(iter(op.sample_inputs(op, torch.float32, rng)))
    # PyTorch's composite refuses some ("Low precision"), its kernels' dispatch others.
    with pytest.raises(RuntimeError, match="Low precision dtypes not supported|\" not implemented for '|"
                                           "doesn't handle types other than float and double"):
        op(*_cast_floats(torch_args(sample, torch.float32), dtype), **sample.kwargs)


def test_every_op_without_low_precision_has_a_record():
    assert NO_LOW_PRECISION <= {op.name for op in ALL_OPS}


def _cast_floats(args, dtype):
    out = []
    for a in args:
        if isinstance(a, list):
            out.append(_cast_floats(a, dtype))
        elif isinstance(a, torch.Tensor) and a.is_floating_point():
            out.append(a.to(dtype))
        else:
            out.append(a)
    return out


@pytest.mark.parametrize("op,dtype", _half_cases())
def test_half_precision_matches_float32(op, dtype, rng):
    """float16/bfloat16 results equal float32 ones on the same (rounded) inputs, to their precision,
    wherever the float32 result is within the low dtype's range (nan_to_num's default replacement of
    inf is each dtype's own largest value)."""
    tol = 1e-2 if dtype == torch.float16 else 4e-2
    for sample in op.sample_inputs(op, torch.float32, rng):
        low = _cast_floats(torch_args(sample, torch.float32), dtype)
        high = _cast_floats(low, torch.float32)
        expected = op(*high, **sample.kwargs)
        actual = op(*low, **sample.kwargs)
        if expected.is_floating_point():
            assert actual.dtype == dtype, sample.desc
            expected, actual = expected.reshape(-1), actual.reshape(-1)
            representable = ~(expected.abs() > torch.finfo(dtype).max) | expected.isinf()
            assert representable.any() or expected.numel() == 0, sample.desc
            assert_matches(actual.to(torch.float32)[representable], to_numpy(expected[representable]),
                           rtol=tol, atol=tol)
        else:
            assert_matches(actual, to_numpy(expected), dtype=expected.dtype)
