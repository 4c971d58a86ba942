"""The CPU kernels' fast paths at the sizes where they switch on, against
numpy: column sums that split their rows over threads (and the column split
they fall back to when the accumulators would not stay in cache), and cat of
contiguous inputs written in order, its bytes split over threads; dot
through BLAS with strides; where's branch-free select; transposing copies
in square tiles (partial tiles at the edges, batches, strided sides). Small OpInfo samples
never reach these sizes, and a path that dropped a thread's share or
misplaced a row would still pass there."""
import numpy as np
import pytest

import torch

# (rows, cols): split rows over threads; one thread's worth; columns too wide
# for the per-thread accumulators (the column-split path); few rows.
COLUMN_SHAPES = [(1000, 300), (40, 70), (3, 100_000), (9, 70_001), (1, 5), (0, 4), (4, 0)]


@pytest.mark.parametrize("shape", COLUMN_SHAPES)
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "uint8"])
def test_column_sum(shape, dtype):
    rng = np.random.default_rng(sum(shape))
    x = (rng.random(shape) * 8).astype(dtype)
    got = torch.from_numpy(x).sum(0).numpy()
    want = x.astype(np.float64).sum(0)
    if dtype.startswith("float"):
        np.testing.assert_allclose(got, want, rtol=1e-5)
    else:
        assert got.dtype == np.int64
        np.testing.assert_array_equal(got, want.astype(np.int64))


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_column_sum_of_16_bit_floats(dtype):
    x = torch.from_numpy(np.random.default_rng(0).random((2000, 64), dtype=np.float32)).to(dtype)
    want = x.double().sum(0)
    got = x.sum(0)
    assert got.dtype == dtype
    assert torch.allclose(got.double(), want, rtol=1e-2)


def test_column_sum_of_a_view_and_keepdim():
    x = np.random.default_rng(1).random((600, 200)).astype(np.float32)
    t = torch.from_numpy(x)
    np.testing.assert_allclose(t.t().sum(1).numpy(), x.sum(0, dtype=np.float64), rtol=1e-5)
    np.testing.assert_allclose(t[::2].sum(0, keepdim=True).numpy(), x[::2].sum(0, keepdims=True), rtol=1e-5)


# Reduced dims in the middle of a contiguous tensor ([A, R, B] over R, or a
# run of several) reduce each block's columns in place; many short rows
# (sum(-1) of [N, 2]) take a plain loop per row. Both against numpy.
MIDDLE_CASES = [((256, 2, 384), (1,)), ((3, 4, 5, 6), (1, 2)), ((7, 1000, 3), (1,)), ((5, 3, 2, 0), (1,)),
                ((0, 3, 4), (1,)), ((2, 3, 4, 5), (2,)), ((64, 5, 700), (1,)), ((50, 40, 1), (1,)), ((50, 40, 2), (1,))]


@pytest.mark.parametrize("shape,dims", MIDDLE_CASES)
@pytest.mark.parametrize("op", ["sum", "prod", "amax", "amin", "any", "all"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "uint8", "bool"])
def test_reduction_over_middle_dims(shape, dims, op, dtype):
    if dtype == "bool" and op in ("sum", "prod"):
        pytest.skip("bool sums are the long_out path, tested with count_nonzero")
    rng = np.random.default_rng(len(shape))
    x = (0.9 + 0.2 * rng.random(shape) if op == "prod" else rng.random(shape) * 8).astype(dtype)
    t = torch.from_numpy(x)
    if op in ("amax", "amin") and 0 in shape:
        return  # no identity: refused, as PyTorch refuses it
    if op == "prod" and len(dims) > 1:
        pytest.skip("prod takes one dim")
    arg = dims[0] if op == "prod" else dims
    got = getattr(torch, op)(t, arg)
    wide = x.astype(np.float64) if dtype.startswith("float") else x
    want = {"sum": np.sum, "prod": np.prod, "amax": np.max, "amin": np.min, "any": np.any, "all": np.all}[op](
        wide, axis=dims)
    assert list(got.shape) == list(want.shape)
    if dtype.startswith("float"):
        np.testing.assert_allclose(got.double().numpy(), want, rtol=1e-5)
    else:
        np.testing.assert_array_equal(got.numpy(), want.astype(got.numpy().dtype))
    assert getattr(torch, op)(t, arg, keepdim=True).dim() == t.dim()


@pytest.mark.parametrize("inner", [1, 2, 3, 15, 16])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int32"])
def test_sum_of_many_short_rows(inner, dtype):
    x = torch.from_numpy(np.random.default_rng(inner).random((5000, inner)) * 8).to(getattr(torch, dtype))
    want = x.double().sum(-1)
    got = x.sum(-1)
    assert got.dtype == (torch.int64 if dtype == "int32" else x.dtype)
    assert torch.allclose(got.double(), want, rtol=1e-3 if dtype == "float16" else 1e-6)
    if x.is_floating_point():
        assert torch.allclose(x.mean(-1).double(), want / inner, rtol=1e-3 if dtype == "float16" else 1e-6)
    # An expanded gradient reshaped (sum's backward through repeat_interleave).
    e = torch.ones(()).expand(4000, 6).reshape(2000, 2, 6)
    assert torch.equal(e.sum(1), torch.full((2000, 6), 2.0))


@pytest.mark.parametrize("dim", [1, 2, -1])
def test_cat_of_contiguous_inputs_row_by_row(dim):
    rng = np.random.default_rng(dim + 3)
    parts = [rng.standard_normal((64, 3 + i, 40) if dim == 1 else (64, 30, 3 + i)).astype(np.float32) for i in range(8)]
    got = torch.cat([torch.from_numpy(p) for p in parts], dim).numpy()
    np.testing.assert_array_equal(got, np.concatenate(parts, dim))


@pytest.mark.parametrize("dim", [0, 1])
@pytest.mark.parametrize("widths", [(512,) * 8, (1, 70_001, 3, 129)])
def test_cat_large_enough_for_threads(dim, widths):
    """The threads split the result's bytes evenly, so their boundaries fall
    inside rows and inside one input's segment of a row."""
    rng = np.random.default_rng(len(widths))
    parts = [rng.standard_normal((w, 64) if dim == 0 else (64, w)).astype(np.float32) for w in widths]
    got = torch.cat([torch.from_numpy(p) for p in parts], dim).numpy()
    np.testing.assert_array_equal(got, np.concatenate(parts, dim))


@pytest.mark.parametrize("dtype", ["bool", "int16", "float32", "float64", "int64"])
@pytest.mark.parametrize("rows", [1, 5, 70_001])
def test_stacking_vectors_along_the_last_dim_interleaves_them(dtype, rows):
    """One element per input and row (the typed interleave, blocked and
    split across threads)."""
    rng = np.random.default_rng(rows)
    parts = [(rng.standard_normal(rows) * 10).astype(dtype) for _ in range(3)]
    tensors = [torch.from_numpy(p) for p in parts]
    np.testing.assert_array_equal(torch.stack(tensors, -1).numpy(), np.stack(parts, -1))
    np.testing.assert_array_equal(torch.dstack(tensors).numpy(), np.dstack(parts))
    np.testing.assert_array_equal(torch.column_stack(tensors).numpy(), np.column_stack(parts))


def test_cat_mixes_layouts_and_dtypes():
    a = torch.arange(12.0).view(3, 4)
    b = torch.arange(6).view(3, 2)  # int64: promoted, so the copy path converts it
    c = torch.arange(9.0).view(3, 3).t()  # not contiguous
    got = torch.cat([a, b, c, torch.tensor([])], 1)
    want = np.concatenate([a.numpy(), b.numpy().astype(np.float32), c.numpy()], 1)
    np.testing.assert_array_equal(got.numpy(), want)



def test_searchsorted_of_large_inputs_is_a_binary_search_not_a_comparison_matrix():
    # 65536 values in 65536 boundaries: the n x m comparison this replaced needed 32 GiB.
    boundaries = torch.arange(1 << 16, dtype=torch.float64)
    values = torch.arange(1 << 16, dtype=torch.float64) + 0.5
    assert torch.equal(torch.searchsorted(boundaries, values), torch.arange(1, (1 << 16) + 1))
    assert torch.equal(torch.bucketize(values, boundaries, right=True), torch.arange(1, (1 << 16) + 1))


def test_cummax_gradient_goes_to_the_source_of_each_running_extreme():
    x = torch.tensor([[1.0, 3.0, 2.0, 5.0]], dtype=torch.float64, requires_grad=True)
    values, indices = torch.cummax(x, 1)
    assert indices.tolist() == [[0, 1, 1, 3]] and values.grad_fn.name() == "CummaxBackward0"
    values.sum().backward()
    assert x.grad.tolist() == [[1.0, 2.0, 0.0, 1.0]]
    assert torch.autograd.gradcheck(lambda t: torch.cummin(t, 0).values, (torch.randn(6, 3, dtype=torch.float64,
                                                                                      requires_grad=True),))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_clamp_with_number_bounds_takes_the_dense_loop_and_keeps_pytorchs_rules(dtype):
    x = torch.randn(100_003, dtype=dtype) * 3
    x[::97] = float("nan")
    x[1] = float("inf")
    want = np.clip(x.numpy(), -0.5, 0.5)  # NaN stays NaN, as in PyTorch
    np.testing.assert_array_equal(torch.clamp(x, -0.5, 0.5).numpy(), want)
    y = x.clone()
    y.clamp_(-0.5, 0.5)
    np.testing.assert_array_equal(y.numpy(), want)
    # min > max gives max everywhere (but NaN); a NaN bound is the result everywhere.
    assert torch.equal(torch.clamp(x[2:5], 1.0, -1.0), torch.full((3,), -1.0, dtype=dtype))
    assert torch.clamp(x[2:5], float("nan"), 1.0).isnan().all()
    # One bound: the other stays open.
    np.testing.assert_array_equal(torch.clamp(x, min=0.0).numpy(), np.where(np.isnan(x.numpy()), np.nan,
                                                                            np.maximum(x.numpy(), 0.0)))
    # A strided input takes the general loop, with the same values.
    np.testing.assert_array_equal(torch.clamp(x[::2], -0.5, 0.5).numpy(), want[::2])


def test_cumprod_gradient_is_exact_through_zeros():
    # No division by the input: the zeros' own gradients and those past them are exact.
    x = torch.tensor([2.0, 0.0, 3.0, 0.0, 5.0], dtype=torch.float64, requires_grad=True)
    y = torch.cumprod(x, 0)
    assert y.grad_fn.name() == "CumprodBackward0"
    y.backward(torch.tensor([1.0, 2, 3, 4, 5], dtype=torch.float64))
    assert x.grad.tolist() == [1.0, 22.0, 0.0, 0.0, 0.0]  # PyTorch 2.13's values
    x = torch.randn(4, 6, dtype=torch.float64)
    x[1, 2] = x[2, 0] = x[2, 4] = x[3, 5] = 0
    assert torch.autograd.gradcheck(lambda t: torch.cumprod(t, 1), (x.requires_grad_(),))


def test_cumprod_of_one_element_lines_passes_the_gradient_through_and_empty_takes_any_dtype():
    # Along a dim of size 1 the product is the input: its gradient is the incoming one, infinities included.
    x = torch.tensor([[-0.25], [float("-inf")], [-0.8]], dtype=torch.float64, requires_grad=True)
    x.cumprod(1).backward(torch.tensor([[1.0], [-2.5], [3.0]], dtype=torch.float64))
    assert x.grad.tolist() == [[1.0], [-2.5], [3.0]]
    # PyTorch's kernel refuses a bool product only when there is something to multiply.
    assert torch.cumprod(torch.empty(3, 0, 2, dtype=torch.int64), -1, dtype=torch.bool).dtype == torch.bool
    with pytest.raises(NotImplementedError, match="not implemented for 'Bool'"):
        torch.cumprod(torch.ones(2, dtype=torch.int64), 0, dtype=torch.bool)


def test_cdist_takes_one_matrix_product_past_25_rows_and_agrees_with_the_direct_norms():
    a = torch.randn(2, 40, 5, dtype=torch.float64)
    b = torch.randn(2, 30, 5, dtype=torch.float64)
    direct = torch.cdist(a, b, compute_mode="donot_use_mm_for_euclid_dist")
    np.testing.assert_allclose(torch.cdist(a, b).numpy(), direct.numpy(), atol=1e-12)
    np.testing.assert_allclose(direct.numpy(), np.linalg.norm(a.numpy()[:, :, None] - b.numpy()[:, None], axis=-1))
    # Identical rows: distance 0 with gradient 0, never NaN (PyTorch's too).
    x = torch.randn(30, 3, dtype=torch.float64, requires_grad=True)
    torch.cdist(x, x.detach().clone()).sum().backward()
    assert not x.grad.isnan().any()
    for mode in ("use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist"):
        assert torch.autograd.gradcheck(lambda t: torch.cdist(t, b[0, :4], compute_mode=mode),
                                        (a[0, :3].clone().requires_grad_(),))


@pytest.mark.parametrize("call,error,message", [
    (lambda: torch.cdist(torch.ones(3), torch.ones(2, 3)), RuntimeError, "cdist only supports at least 2D tensors, X1 got: 1D"),
    (lambda: torch.cdist(torch.ones(2, 3), torch.ones(2, 4)), RuntimeError,
     "X1 and X2 must have the same number of columns. X1: 3 X2: 4"),
    (lambda: torch.cdist(torch.ones(2, 3), torch.ones(2, 3, dtype=torch.long)), RuntimeError,
     "cdist only supports floating-point dtypes, X2 got: Long"),
    (lambda: torch.cdist(torch.ones(2, 3), torch.ones(2, 3), p=-1), RuntimeError, "cdist only supports non-negative p"),
    (lambda: torch.cdist(torch.ones(2, 3), torch.ones(2, 3), compute_mode="x"), ValueError,
     "x is not a valid value for compute_mode"),
    (lambda: torch.cdist(torch.ones(2, 3), torch.ones(2, 3, dtype=torch.float64)), RuntimeError,
     "expected scalar type Float but found Double"),
])
def test_cdist_errors_are_pytorchs(call, error, message):
    with pytest.raises(error, match=message):
        call()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("step", [1, 3])
def test_dot_through_blas_with_strides_and_expanded_operands(dtype, step):
    # float32 and float64 dot run BLAS's sdot/ddot with the vectors' strides;
    # an expanded (stride 0) operand goes the matrix-product way instead.
    rng = np.random.default_rng(step)
    a, b = rng.standard_normal((2, 300_001)).astype(dtype)
    ta, tb = torch.from_numpy(a)[::step], torch.from_numpy(b)[::step]
    got = torch.dot(ta, tb)
    want = (a[::step].astype(np.float64) * b[::step]).sum()
    assert got.dtype == ta.dtype and got.dim() == 0
    np.testing.assert_allclose(got.item(), want, rtol=1e-4 if dtype == "float32" else 1e-12)
    expanded = torch.dot(torch.ones(1, dtype=ta.dtype).expand(7), ta[:7])
    assert expanded.item() == pytest.approx(float(a[::step][:7].astype(np.float64).sum()), rel=1e-5)


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.int64, torch.int8, torch.bool])
def test_where_and_masked_fill_select_exact_bits(dtype):
    # where/masked_fill select on the bits with no branch: -0.0, NaN and
    # every integer must come through unchanged.
    n = 10_007
    mask = torch.from_numpy(np.random.default_rng(1).random(n) < 0.5)
    if dtype.is_floating_point:
        a = torch.tensor([-0.0, float("nan"), float("inf"), 1.5], dtype=dtype).repeat(n // 4 + 1)[:n]
        b = torch.tensor([2.0, -0.0, -float("inf"), float("nan")], dtype=dtype).repeat(n // 4 + 1)[:n]
    else:
        info = torch.iinfo(dtype) if dtype != torch.bool else None
        lo, hi = (0, 2) if info is None else (info.min, info.max)
        a = torch.randint(lo, hi, (n,), dtype=torch.int64).to(dtype)
        b = torch.randint(lo, hi, (n,), dtype=torch.int64).to(dtype)
    got = torch.where(mask, a, b)
    m, av, bv = mask.numpy(), a.numpy(), b.numpy()
    want = np.where(m, av, bv)
    assert got.numpy().tobytes() == want.tobytes()
    filled = a.masked_fill(mask, 3)
    assert filled.numpy().tobytes() == np.where(m, np.array(3).astype(av.dtype), av).tobytes()


@pytest.mark.parametrize("n", [0, 1, 4095, 4096, 4097, 100_000])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.int64, torch.bool])
def test_equal_compares_every_block(n, dtype):
    """equal's dense path compares 4096 elements at a time and stops after a
    block with a difference: one differing element anywhere must count."""
    a = (torch.arange(n) % 3).to(dtype)
    assert torch.equal(a, a.clone()) and a.equal(a.clone())
    for i in {0, n // 2, n - 1} if n else ():
        b = a.clone()
        b[i] = 2 if dtype != torch.bool else not bool(b[i])
        b[i] = b[i] if not torch.equal(b[i], a[i]) else b[i] + 1
        assert not torch.equal(a, b), i


def test_equal_follows_pytorch_on_nan_zero_sign_dtypes_and_shapes():
    nan = torch.tensor([1.0, float("nan")])
    assert not torch.equal(nan, nan)  # NaN equals nothing, itself included
    assert torch.equal(torch.tensor([0.0]), torch.tensor([-0.0]))
    assert torch.equal(torch.tensor([1, 2]), torch.tensor([1.0, 2.0]))  # promoted first
    assert not torch.equal(torch.tensor([1.5]), torch.tensor([1]))
    assert torch.equal(torch.tensor([True, False]), torch.tensor([1, 0]))
    assert not torch.equal(torch.tensor([1, 2]), torch.tensor([[1, 2]]))  # shapes differ: no broadcasting
    assert not torch.equal(torch.empty(0), torch.empty(0, 3))
    assert torch.equal(torch.ones(3, 4).t(), torch.ones(4, 3))  # strided: eq and all
    with pytest.raises(TypeError, match="must be Tensor, not int"):
        torch.equal(torch.tensor([1]), 1)
    assert type(torch.equal(torch.ones(2), torch.ones(2))) is bool


def test_nan_to_num_over_threads_and_strides():
    """The select kernel over a large, a strided and an in-place input."""
    x = torch.randn(300_000)
    x[::7] = float("nan")
    x[1::11] = float("inf")
    x[2::13] = -float("inf")
    want = np.nan_to_num(x.numpy(), nan=0.5, posinf=9.0, neginf=-9.0)
    np.testing.assert_array_equal(torch.nan_to_num(x, 0.5, 9.0, -9.0).numpy(), want)
    np.testing.assert_array_equal(x[::3].nan_to_num(0.5, 9.0, -9.0).numpy(), want[::3])
    y = x.clone()
    assert y.nan_to_num_(0.5, 9.0, -9.0) is y
    np.testing.assert_array_equal(y.numpy(), want)
    # Integers have nothing to replace: in place is a no-op, even on an
    # expanded tensor (PyTorch's early return); float refuses the overlap.
    ints = torch.tensor([1, 2]).expand(3, 2)
    assert ints.nan_to_num_() is ints
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        torch.tensor([1.0]).expand(3).nan_to_num_()


@pytest.mark.parametrize("k,s,values,indices", [
    # PyTorch 2.13's answers: the first of equal values, the last NaN of a window.
    (3, 3, [3.0, "nan", "nan", 7.0], [1, 4, 6, 11]),
    (3, 1, [3.0, 3.0, "nan", "nan", "nan", "nan", "nan", 1.0, 0.0, 7.0], [1, 1, 4, 4, 6, 6, 6, 7, 8, 11]),
    (2, 2, [3.0, 3.0, "nan", "nan", 0.0, 7.0], [1, 2, 4, 6, 8, 11]),
    (5, 3, ["nan", "nan", "nan"], [4, 6, 6]),
])
def test_max_pool1d_row_kernel_ties_and_nans(k, s, values, indices):
    """max_pool1d's one-row windows run a branch-free pass per window offset
    (Pooling.cpp max_pool_rows_inside)."""
    nan = float("nan")
    x = torch.tensor([[[1.0, 3.0, 3.0, 2.0, nan, 5.0, nan, 1.0, 0.0, -0.0, 0.0, 7.0]]])
    v, i = torch.nn.functional.max_pool1d(x, k, s, return_indices=True)
    np.testing.assert_array_equal(v.reshape(-1).numpy(), np.array([float(a) for a in values], np.float32))
    assert i.reshape(-1).tolist() == indices


def _stable_order(x, descending):
    """numpy's stable order with PyTorch's rules: NaN largest, -0 equal to +0, ties by index."""
    flat = x.astype(np.float64) if x.dtype == np.float16 else x
    nan = np.isnan(flat) if flat.dtype.kind == "f" else np.zeros(flat.shape, bool)
    rank = np.unique(np.where(nan, 0, flat), return_inverse=True)[1].reshape(-1) + nan * flat.size
    return np.lexsort((np.arange(flat.size), -rank if descending else rank))


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int64", "int32", "int16", "int8", "uint8", "bool"])
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("n", [5, 33, 1000, 70_000])
def test_sort_is_stable_in_pytorchs_order(dtype, descending, n):
    # Rows longer than 32 take the radix sort, shorter ones an insertion sort.
    rng = np.random.default_rng(n)
    if dtype == "bool":
        x = rng.integers(0, 2, n).astype(bool)
    elif dtype.startswith("float"):
        x = rng.choice(np.array([-2.5, -0.0, 0.0, 1.0, np.inf, -np.inf, np.nan, 3.0, 1e-30], dtype=dtype), n)
        x[::7] = rng.standard_normal(len(x[::7])).astype(dtype)
    else:
        info = np.iinfo(dtype)
        x = rng.integers(-5 if info.min < 0 else 0, 6, n).astype(dtype)
        x[::5] = rng.integers(info.min, info.max, len(x[::5]), endpoint=True, dtype=dtype)
    values, indices = torch.from_numpy(x).sort(descending=descending, stable=True)
    want = _stable_order(x, descending)
    np.testing.assert_array_equal(indices.numpy(), want)
    np.testing.assert_array_equal(values.numpy().view(np.uint8), x[want].view(np.uint8))  # the same bits: -0, NaN


def test_sort_along_a_leading_dim_sorts_each_column():
    x = np.random.default_rng(0).integers(0, 4, (300, 7)).astype(np.float32)
    _, indices = torch.from_numpy(x).sort(0, descending=True)
    for c in range(7):
        np.testing.assert_array_equal(indices[:, c].numpy(), _stable_order(x[:, c], True))


@pytest.mark.parametrize("exponent", [2, 3, -1, -2, 0.5, -0.5, 3.0, -1.0])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pow_of_a_number_exponent_takes_the_products_and_roots(exponent, dtype):
    # 2, 3, -1, -2, 0.5, -0.5 are products, reciprocals and roots, as in
    # PyTorch's kernel: the same values as pow within an ulp or two, and the
    # same special cases (0 ** -1 is inf, (-inf) ** 0.5 is NaN).
    special = np.array([0.0, -0.0, 1.0, -1.0, 2.5, -3.0, 1e-3, 7.0, np.inf, -np.inf, np.nan], dtype=dtype)
    x = np.concatenate([special, np.random.default_rng(0).uniform(-4, 4, 1000).astype(dtype)])
    got = (torch.from_numpy(x) ** exponent).numpy()
    # The special values against PyTorch's definitions (IEEE sqrt, products
    # and reciprocals: -0 ** 0.5 is -0, -inf ** 0.5 is NaN), the others
    # against pow in double: libm's pow differs by platform at the specials.
    with np.errstate(all="ignore"):
        s = special  # in the dtype's own arithmetic, as the kernel computes
        one = s.dtype.type(1)
        defined = {2: s * s, 3: s * s * s, -1: one / s, -2: one / (s * s), 0.5: np.sqrt(s), -0.5: one / np.sqrt(s)}
        want_special = defined[exponent]
        want = np.power(x[len(special):].astype(np.float64), float(exponent)).astype(dtype)
    np.testing.assert_array_equal(got[:len(special)], want_special)
    assert np.array_equal(np.signbit(got[:len(special)]), np.signbit(want_special))
    np.testing.assert_allclose(got[len(special):], want, rtol=4 * np.finfo(dtype).eps, atol=0)


# (call, forward, derivative) in numpy float64, PyTorch's formulas: the
# branch a NaN, a 0 or a boundary (±3, the threshold, ±lambd) takes is
# PyTorch's kernel's. Each op and its backward run one fused CPU loop
# (cpu/ActivationKernel.cpp), dense float32 through VecMath's exp in blocks.
def _np_softplus_grad(x, beta=1.0, threshold=20.0):
    z = np.exp(np.minimum(x * beta, 700))
    return np.where(x * beta > threshold, 1.0, z / (z + 1))


_ACTIVATIONS = {
    "relu": (torch.relu, lambda x: np.where(x > 0, x, 0.0) + np.where(np.isnan(x), x, 0),
             lambda x: np.where(np.maximum(x, 0) <= 0, 0.0, 1.0)),
    "threshold": (lambda t: torch.threshold(t, 0.5, -2.0), lambda x: np.where(x <= 0.5, -2.0, x),
                  lambda x: np.where(x <= 0.5, 0.0, 1.0)),
    "leaky_relu": (lambda t: torch._C._nn.leaky_relu(t, 0.2), lambda x: np.where(x > 0, x, x * 0.2),
                   lambda x: np.where(x > 0, 1.0, 0.2)),
    # In place on a strided view of a non-leaf: the kernel writes through the view, autograd rebases it.
    "leaky_relu_": (lambda t: torch._C._nn.leaky_relu_(torch.stack([t, t], 1)[:, 1], 0.2),
                    lambda x: np.where(x > 0, x, x * 0.2), lambda x: np.where(x > 0, 1.0, 0.2)),
    "hardshrink": (torch.hardshrink, lambda x: np.where(np.abs(x) <= 0.5, 0.0, x),
                   lambda x: np.where((x >= -0.5) & (x <= 0.5), 0.0, 1.0)),
    "hardtanh": (lambda t: t.clamp(-1.0, 1.0), lambda x: np.where(np.isnan(x), x, np.clip(x, -1, 1)),
                 lambda x: np.where((x >= -1) & (x <= 1), 1.0, 0.0)),
    "elu": (lambda t: torch._C._nn.elu(t, 0.5, 1.5, 2.0),
            lambda x: np.where(x < 0, np.expm1(np.minimum(x, 0) * 2.0) * 0.5 * 1.5, x * 1.5),
            lambda x: np.where(x > 0, 1.5, 0.5 * 1.5 * 2.0 * np.exp(np.minimum(x, 0) * 2.0))),
    "softplus": (lambda t: torch._C._nn.softplus(t, 2.0, 3.0),
                 lambda x: np.where(x * 2 > 3, x, np.log1p(np.exp(np.minimum(x * 2, 3))) / 2),
                 lambda x: _np_softplus_grad(x, 2.0, 3.0)),
    "hardsigmoid": (torch._C._nn.hardsigmoid, lambda x: np.where(np.isnan(x), x, np.clip(x + 3, 0, 6) / 6),
                    lambda x: np.where((x > -3) & (x < 3), 1 / 6, 0.0)),
    "hardswish": (torch._C._nn.hardswish, lambda x: x * np.where(np.isnan(x), x, np.clip(x + 3, 0, 6) / 6),
                  lambda x: np.where(x <= -3, 0.0, np.where(x >= 3, 1.0, x / 3 + 0.5))),
}


@pytest.mark.parametrize("name", sorted(_ACTIVATIONS))
@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
@pytest.mark.parametrize("layout", ["dense", "strided"])
def test_activation_kernels_and_their_backward_follow_pytorchs_branches(name, dtype, layout):
    op, forward, derivative = _ACTIVATIONS[name]
    special = [np.nan, np.inf, -np.inf, 0.0, -0.0, 3.0, -3.0, 0.5, -0.5, 1.0, -1.0, 1.5, 40.0, -40.0]
    x = np.concatenate([special, np.random.default_rng(1).uniform(-5, 5, 3000)])
    dt = getattr(torch, dtype)
    t = torch.from_numpy(x).to(dt)
    if layout == "strided":  # every other element of a twice-as-long tensor
        t = torch.stack([t, torch.zeros_like(t)], 1)[:, 0]
    x = t.double().numpy()  # the values the kernel sees, after rounding to the dtype
    leaf = t.detach().requires_grad_()
    y = op(leaf)
    g = torch.from_numpy(np.random.default_rng(2).uniform(0.5, 2, x.size)).to(dt)
    y.backward(g)
    with np.errstate(all="ignore"):
        want_y, want_g = forward(x), derivative(x) * g.double().numpy()
    tol = {"float32": 1e-5, "float64": 1e-12, "bfloat16": 1e-2}[dtype]
    np.testing.assert_allclose(y.detach().double().numpy(), want_y, rtol=tol, atol=tol)
    got_g = leaf.grad.double().numpy()
    np.testing.assert_allclose(got_g, want_g, rtol=tol, atol=tol)  # NaN where the formula gives NaN


@pytest.mark.parametrize("dim", [-1, 0, 1])
def test_glu_float32_lanes_and_strided_walk_match_float64(dim):
    # Halves along the last dim are dense runs (vec::sigmoid in blocks, past
    # one 1024-element block); along another dim the runs are strided.
    x64 = torch.from_numpy(np.random.default_rng(3).standard_normal((6, 4, 3000)))
    g64 = torch.from_numpy(np.random.default_rng(4).standard_normal((6, 4, 3000)))
    halves = list(x64.shape)
    halves[dim] //= 2
    g64 = g64[tuple(slice(0, h) for h in halves)]
    want = []
    for x, g in ((x64, g64), (x64.float(), g64.float())):
        leaf = x.clone().requires_grad_()
        y = torch.nn.functional.glu(leaf, dim)
        y.backward(g)
        want.append((y.detach().double(), leaf.grad.double()))
    (y64, gr64), (y32, gr32) = want
    assert torch.allclose(y32, y64, rtol=1e-5, atol=1e-6) and torch.allclose(gr32, gr64, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (1, 1), (5, 7), (2, 3, 6, 4), (7, 5)])
@pytest.mark.parametrize("diagonal", [-9, -2, 0, 1, 3, 9, -2**63, 2**63 - 1])
@pytest.mark.parametrize("lower", [True, False])
def test_tril_triu_in_place_zero_the_rows_outside_the_triangle(shape, diagonal, lower):
    # The contiguous CPU path writes each row's zeros in place; numpy is the
    # oracle (at an offset beyond the matrix where numpy's arithmetic overflows).
    np_diagonal = max(-100, min(diagonal, 100))
    a = np.random.default_rng(len(shape)).random(shape).astype(np.float32) + 1
    x = torch.from_numpy(a.copy())
    (x.tril_ if lower else x.triu_)(diagonal)
    want = (np.tril if lower else np.triu)(a, np_diagonal)
    np.testing.assert_array_equal(x.numpy(), want)
    # Column-major matrices (LAPACK's factors) take the rows of the other
    # triangle at the negated offset; other strides the masked path.
    strided = torch.from_numpy(a.copy()).transpose(-1, -2)
    got = (strided.tril_ if lower else strided.triu_)(diagonal)
    np.testing.assert_array_equal(got.numpy(), (np.tril if lower else np.triu)(a.swapaxes(-1, -2), np_diagonal))
    wide = np.concatenate([a, a], -1)
    sliced = torch.from_numpy(wide.copy())[..., ::2]
    got = (sliced.tril_ if lower else sliced.triu_)(diagonal)
    np.testing.assert_array_equal(got.numpy(), (np.tril if lower else np.triu)(wide[..., ::2], np_diagonal))


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64"])
def test_integer_abs_and_relu_are_exact_at_the_ends_of_the_range(dtype):
    # Branch-free sign masks (UnaryFunctors.h): the most negative value wraps to itself, as in PyTorch.
    info = np.iinfo(dtype)
    a = np.array([info.min, info.min + 1, -3, -1, 0, 1, 5, info.max] * 9, dtype=dtype)  # past one vector
    x = torch.from_numpy(a)
    np.testing.assert_array_equal(x.abs().numpy(), np.abs(a))
    np.testing.assert_array_equal(x.relu().numpy(), np.maximum(a, 0))
    np.testing.assert_array_equal(x.clone().abs_().numpy(), np.abs(a))


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_arange_of_floats_is_start_plus_step_times_the_index(dtype):
    # The kernel forms each index from a block start and an int32 offset.
    n = 100_003
    got = torch.arange(2.5, 2.5 + 0.25 * n, 0.25, dtype=dtype)
    want = (2.5 + 0.25 * np.arange(n, dtype=np.float64)).astype(str(dtype).split(".")[1])
    assert got.shape == (n,)
    np.testing.assert_array_equal(got.numpy(), want)
    assert torch.arange(3 * 2**31, 3 * 2**31 + 5, dtype=torch.float64).tolist() == [3 * 2**31 + k for k in range(5)]


def test_nonzero_of_a_wide_sparse_tensor_lists_coordinates_in_order():
    a = np.zeros((3, 5, 1000), dtype=np.float32)
    a[0, 0, 0] = a[1, 4, 999] = a[2, 2, 500] = a[2, 2, 501] = 1
    a[1, 0, :] = np.arange(1000) % 3  # a dense row between sparse ones
    got = torch.from_numpy(a).nonzero()
    np.testing.assert_array_equal(got.numpy(), np.argwhere(a))
    assert torch.zeros(4, 0, 2).nonzero().shape == (0, 3)
    assert torch.tensor(2.0).nonzero().shape == (1, 0) and torch.tensor(0).nonzero().shape == (0, 0)


def test_bincount_sums_float32_weights_in_float32_and_others_in_float64():
    x = torch.tensor([0, 3, 3, 1])
    got = torch.bincount(x, torch.tensor([0.5, 1.0, 2.0, 4.0]))
    assert got.dtype == torch.float32 and got.tolist() == [0.5, 4.0, 0.0, 3.0]
    for w in (torch.ones(4, dtype=torch.float16), torch.ones(4, dtype=torch.bool), torch.ones(4, dtype=torch.float64)):
        assert torch.bincount(x, w).dtype == torch.float64
    # An empty input counts nothing, in int64 whatever the weights (PyTorch's early return).
    assert torch.bincount(torch.tensor([], dtype=torch.int64), torch.ones(0), minlength=2).dtype == torch.int64
    big = torch.randint(0, 1000, (100_000,))
    np.testing.assert_array_equal(torch.bincount(big).numpy(), np.bincount(big.numpy()))


def test_an_op_without_a_formula_keeps_an_optional_tensors_history():
    # bincount has no derivative: weights that require grad give a result whose backward refuses (not a cut graph).
    w = torch.ones(3, requires_grad=True)
    counts = torch.bincount(torch.tensor([0, 1, 1]), w)
    assert counts.requires_grad
    with pytest.raises(NotImplementedError, match="the derivative for 'bincount' is not implemented"):
        counts.sum().backward()
    assert not torch.bincount(torch.tensor([0, 1, 1]), w.detach()).requires_grad


def test_isin_of_large_inputs_is_memory_linear_and_matches_numpy():
    # 200k x 100k as one broadcast comparison would be 20 GB of bools; sorted search needs a few MB.
    rng = np.random.default_rng(3)
    e, t = rng.integers(0, 300_000, 200_000), rng.integers(0, 300_000, 100_000)
    np.testing.assert_array_equal(torch.isin(torch.from_numpy(e), torch.from_numpy(t)).numpy(), np.isin(e, t))
    floats = torch.tensor([1.0, float("nan"), 2.5, -0.0] * 20_000)
    tests = torch.cat([torch.tensor([float("nan"), 0.0, 2.5]), torch.arange(100.0)])
    assert torch.isin(floats, tests)[:4].tolist() == [True, False, True, True]  # NaN is in nothing
    assert torch.isin(floats, tests, invert=True)[:4].tolist() == [False, True, False, False]
    assert int(torch.isin(torch.arange(70_000), torch.tensor([3.0, 5.5])).sum()) == 1  # compared as floats


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64,
                                   torch.int32, torch.int16, torch.uint8, torch.int8, torch.bool])
@pytest.mark.parametrize("where", [0, 255, 256, 70_000, 99_999])
def test_any_and_all_find_one_odd_element_in_any_block(dtype, where):
    """any/all read blocks of 256 with no branch per element, integers and
    bool by their bits, float16/bfloat16 by their bits without the sign: one
    zero among ones (or one nonzero among zeros) decides, wherever it is;
    -0.0 is zero, NaN and int64's most negative value are not."""
    ones, zeros = torch.ones(100_000, dtype=dtype), torch.zeros(100_000, dtype=dtype)
    assert ones.all() and ones.any() and not zeros.any() and not zeros.all()
    one_zero, one_set = ones.clone(), zeros.clone()
    one_zero[where] = 0
    one_set[where] = 1
    assert not one_zero.all() and one_zero.any()
    assert one_set.any() and not one_set.all()
    if dtype.is_floating_point:
        signed_zero = ones.clone()
        signed_zero[where] = -0.0
        assert not signed_zero.all()
        nan = zeros.clone()
        nan[where] = float("nan")
        assert nan.any()
    if dtype == torch.int64:
        lowest = zeros.clone()
        lowest[where] = -2 ** 63
        assert lowest.any() and not lowest.all()


# (shape, the view copied): a transpose of whole tiles, of partial ones, a
# batch, a column slice (strided input rows), reversed rows, a strided output.
TRANSPOSES = [
    ((64, 64), lambda t: t.mT),
    ((70, 33), lambda t: t.mT),
    ((3, 40, 50), lambda t: t.mT),
    ((40, 3, 50), lambda t: t.permute(1, 2, 0)),
    ((100, 90), lambda t: t[:, 5:80].mT),
    ((64, 48), lambda t: t.flip(0).mT),
    ((31, 200), lambda t: t.mT),
]


@pytest.mark.parametrize("case", range(len(TRANSPOSES)))
@pytest.mark.parametrize("dtype", ["float32", "float64", "int16", "uint8", "bool"])
def test_transposing_copy(case, dtype):
    shape, view = TRANSPOSES[case]
    x = torch.from_numpy((np.random.default_rng(case).random(shape) * 100).astype(dtype))
    want = np.ascontiguousarray(view(x).numpy())
    np.testing.assert_array_equal(view(x).contiguous().numpy(), want)
    np.testing.assert_array_equal(view(x).clone().numpy(), want)
    # Into a strided output: every other column of a wider tensor.
    out = torch.zeros(want.shape[:-1] + (2 * want.shape[-1],), dtype=x.dtype)
    out[..., ::2].copy_(view(x))
    np.testing.assert_array_equal(out[..., ::2].numpy(), want)
    assert not out[..., 1::2].any()


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16])
def test_float_to_uint8_takes_int64s_low_byte_in_and_out_of_int32s_range(dtype):
    # Tiles (256 values) within int32's range convert through int32, the
    # others through int64: both give int64's low byte, as PyTorch's cast does.
    # Strided, the elementwise path: it cast directly (3e9 + 1 gave 0, not 1).
    small = [(-1) ** i * (i * 7.25) for i in range(600)]
    large = [3e9 + 1, -3e9 - 7, 2.0 ** 40 + 5, -(2.0 ** 40) - 9, 2147483648.0, -2147483648.0, 2147483647.0]
    for values in (small, small[:300] + large + small[300:], large):
        t = torch.tensor(values, dtype=dtype)
        want = (t.to(torch.int64) & 255).to(torch.uint8)
        assert torch.equal(t.byte(), want), dtype
        assert torch.equal(t[::2].byte(), want[::2])
    assert torch.tensor([-3.0, 12.5, 256.0, -0.5], dtype=dtype).byte().tolist() == [253, 12, 0, 0]


# Scans along a dim with elements after it run the columns side by side in
# blocks of 512 (ReduceOps.cpp, CumulativeProducts.cpp): block edges, one
# trailing element (the line path), several leading blocks, empty sides.
SCAN_COLUMN_CASES = [((5, 700), 0), ((3, 4, 600), 1), ((2, 3, 4, 5), 1), ((4, 1030), 0), ((7, 1, 3), 0),
                     ((6, 2), 1), ((0, 5), 0), ((5, 0, 3), 0), ((1, 513), 0)]


def _scan_as_lines(op, x, dim):
    """The scan with `dim` moved last and made contiguous: the line kernels' path."""
    return op(x.movedim(dim, -1).contiguous(), -1).movedim(-1, dim)


@pytest.mark.parametrize("shape,dim", SCAN_COLUMN_CASES)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16, torch.int32, torch.uint8])
def test_scans_along_leading_dims_equal_the_line_scans(shape, dim, dtype):
    g = torch.Generator().manual_seed(len(shape) * 100 + shape[0])
    x = (torch.randn(shape, generator=g) * 3).to(dtype)
    ops = [torch.cumsum, torch.cumprod] + ([torch.logcumsumexp] if dtype.is_floating_point else [])
    for op in ops:
        got, want = op(x, dim), _scan_as_lines(op, x, dim)
        assert got.dtype == want.dtype and got.shape == want.shape and got.is_contiguous()
        # The same operations in the same order per column: bit for bit.
        assert torch.equal(got.nan_to_num(), want.nan_to_num()) and torch.equal(got.isnan(), want.isnan()), op


# Inputs stored in another order: a transposed matrix scanned along its last
# dim, a column-major 3-d tensor, channels_last along channels and along
# width; the columns kernel reads them as they lie (ReduceOps.cpp).
STORED_ORDER_CASES = [(lambda x: x.t(), (300, 40), 1), (lambda x: x.t(), (3, 600), 0),
                      (lambda x: x.permute(2, 1, 0), (5, 6, 7), 2), (lambda x: x.permute(2, 1, 0), (5, 6, 7), 1),
                      (lambda x: x.permute(0, 2, 3, 1), (2, 5, 4, 3), 1),
                      (lambda x: x.permute(0, 2, 3, 1), (2, 5, 4, 3), 3), (lambda x: x.t(), (1, 9), 1)]


@pytest.mark.parametrize("case", range(len(STORED_ORDER_CASES)))
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int32])
def test_scans_of_inputs_stored_in_another_order_equal_the_line_scans(case, dtype):
    view, shape, dim = STORED_ORDER_CASES[case]
    g = torch.Generator().manual_seed(case)
    x = view((torch.randn(shape, generator=g) * 3).to(dtype).contiguous())
    assert not x.is_contiguous() or x.dim() == 2 and 1 in x.shape
    ops = [torch.cumsum, lambda t, d: torch.cumsum(t, d, dtype=torch.float64)]
    if dtype.is_floating_point:
        ops += [torch.logcumsumexp]
    if dtype == torch.float32:
        ops += [torch.softmax, torch.log_softmax]
    for op in ops:
        got, want = op(x, dim), _scan_as_lines(op, x, dim)
        assert got.dtype == want.dtype and got.shape == want.shape and got.is_contiguous(), op
        if op in (torch.softmax, torch.log_softmax):
            torch.testing.assert_close(got, want, rtol=2e-6, atol=1e-7)
        else:
            assert torch.equal(got, want), op


@pytest.mark.parametrize("rows", [1, 7, 8, 9, 17, 64])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.int64, torch.bool])
def test_cumsum_of_rows_in_groups_equals_each_row_alone(rows, dtype):
    # Rows are summed eight at a time, interleaved; each keeps its own order.
    g = torch.Generator().manual_seed(rows)
    x = (torch.randn(rows, 301, generator=g) * 5).to(dtype)
    got = x.cumsum(1)
    want = torch.stack([row.cumsum(0) for row in x])
    assert got.dtype == want.dtype and torch.equal(got, want)


@pytest.mark.parametrize("shape,dim", SCAN_COLUMN_CASES)
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.int64, torch.bool])
def test_cummax_and_cummin_along_leading_dims_equal_the_line_scans(shape, dim, dtype):
    g = torch.Generator().manual_seed(shape[-1] + 1)
    x = (torch.randn(shape, generator=g) * 2).round().to(dtype)  # rounded: ties, where the index moves on
    if dtype.is_floating_point and x.numel():
        x.view(-1)[::11] = float("nan")
    for op in (torch.cummax, torch.cummin):
        got = op(x, dim)
        want = [t.movedim(-1, dim) for t in op(x.movedim(dim, -1).contiguous(), -1)]
        assert torch.equal(got.indices, want[1]), op
        assert torch.equal(got.values.isnan(), want[0].isnan()) if dtype.is_floating_point else True
        assert torch.equal(got.values.nan_to_num(), want[0].nan_to_num()) if dtype.is_floating_point \
            else torch.equal(got.values, want[0])


@pytest.mark.parametrize("shape,dim", SCAN_COLUMN_CASES)
def test_softmax_along_leading_dims_matches_the_rows(shape, dim):
    g = torch.Generator().manual_seed(shape[-1])
    x = torch.randn(shape, generator=g) * 4
    if x.numel():
        x.view(-1)[::7] = float("-inf")  # columns with -inf entries, some wholly -inf
    for op in (torch.softmax, torch.log_softmax):
        got, want = op(x, dim), _scan_as_lines(op, x, dim)
        torch.testing.assert_close(got, want, rtol=2e-6, atol=1e-7, equal_nan=True)


def test_softmax_columns_nan_and_all_minus_inf():
    x = torch.tensor([[1.0, float("nan"), float("-inf")], [2.0, 1.0, float("-inf")]]).repeat(1, 200)
    soft, log_soft = torch.softmax(x, 0), torch.log_softmax(x, 0)
    assert torch.allclose(soft[:, 0], torch.tensor([0.26894142, 0.73105858]))
    assert soft[:, 1].isnan().all() and soft[:, 2].isnan().all()  # a NaN column, and exp(-inf - 0) / 0
    assert log_soft[:, 1].isnan().all() and log_soft[:, 2].isnan().all()
    assert torch.equal(torch.logcumsumexp(x, 0)[:, 2], torch.tensor([float("-inf")] * 2))


# Causal attention from 128 query rows on runs in blocks of 64 rows, each
# attending only to the keys up to its last row (nn/_functional_core.py).
@pytest.mark.parametrize("L,S", [(128, 128), (200, 200), (300, 130), (130, 300), (128, 1)])
def test_causal_attention_in_blocks_equals_the_masked_scores(L, S):
    import torch.nn.functional as F

    g = torch.Generator().manual_seed(L + S)
    q = torch.randn(2, 3, L, 8, dtype=torch.float64, generator=g).requires_grad_()
    k = torch.randn(2, 3, S, 8, dtype=torch.float64, generator=g).requires_grad_()
    v = torch.randn(2, 3, S, 5, dtype=torch.float64, generator=g).requires_grad_()
    w = torch.randn(2, 3, L, 5, dtype=torch.float64, generator=g)
    got = F.scaled_dot_product_attention(q, k, v, is_causal=True)
    got_grads = torch.autograd.grad((got * w).sum(), (q, k, v))
    keep = torch.ones(L, S, dtype=torch.bool).tril()  # PyTorch's causal mask: top-left aligned
    want = F.scaled_dot_product_attention(q, k, v, attn_mask=keep)
    want_grads = torch.autograd.grad((want * w).sum(), (q, k, v))
    torch.testing.assert_close(got, want, rtol=1e-12, atol=1e-12)
    for a, b in zip(got_grads, want_grads):
        torch.testing.assert_close(a, b, rtol=1e-10, atol=1e-12)
    # Grouped heads and float32 take the same path.
    kv = torch.randn(2, 1, S, 8, generator=g)
    got = F.scaled_dot_product_attention(q.detach().float(), kv, kv, is_causal=True, enable_gqa=True)
    want = F.scaled_dot_product_attention(q.detach().float(), kv.expand(2, 3, S, 8), kv.expand(2, 3, S, 8),
                                          attn_mask=keep)
    torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-6)


# Copies between two tensors laid out alike and densely (transposed,
# channels_last, any permutation) run over both as flat lines (Copy.cpp).
def _alike_pairs():
    g = torch.Generator().manual_seed(5)
    base = torch.randn(6, 5, 4, 3, generator=g)
    yield base.permute(0, 2, 3, 1)  # channels_last's order
    yield base.permute(3, 2, 1, 0)
    yield base[2:5].permute(0, 2, 3, 1)  # a storage offset
    yield base.reshape(30, 12).t()
    yield base.reshape(1, 30, 1, 12).transpose(1, 3)  # size-1 dims


@pytest.mark.parametrize("case", range(5))
@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.int32, torch.bool])
def test_copies_between_alike_layouts_are_elementwise(case, dtype):
    src = list(_alike_pairs())[case]
    dst = torch.empty_strided(src.shape, src.stride(), dtype=dtype)
    dst.copy_(src)
    assert dst.stride() == src.stride()
    assert torch.equal(dst.contiguous(), src.contiguous().to(dtype))
    back = torch.empty_strided(src.shape, src.stride())
    back.copy_(dst)
    assert torch.equal(back.contiguous(), src.contiguous().to(dtype).to(torch.float32))
    clone = src.clone()
    assert clone.stride() == src.stride() and torch.equal(clone.contiguous(), src.contiguous())


def test_copies_between_unlike_layouts_still_go_element_by_element():
    x = torch.arange(12.0).reshape(3, 4)
    y = torch.empty(4, 3).t()  # the same sizes, strides (1, 3)
    y.copy_(x)
    assert torch.equal(y, x)
    z = torch.empty(3, 4)
    z.copy_(x.t().contiguous().t())  # column-major into row-major
    assert torch.equal(z, x)
    s = torch.arange(6.0).reshape(2, 3)
    s.t().copy_(torch.arange(6.0).reshape(3, 2))  # a transposed view of itself as the destination
    assert s.tolist() == [[0.0, 2.0, 4.0], [1.0, 3.0, 5.0]]


def test_pow_of_an_empty_tensor_with_zero_strides():
    # numpy's empty arrays have all-zero strides; pow's number-exponent path
    # took such an exponent for one value and read it (a segfault).
    import numpy as np

    t = torch.from_numpy(np.zeros((5, 2, 0, 6), np.float32))[..., ::2]
    assert t.stride() == (0, 0, 0, 0)
    for result in (torch.pow(-1.5, t), torch.pow(2.0, t), t.pow(t), torch.pow(t, t), t.clone().pow_(t)):
        assert result.shape == (5, 2, 0, 3) and result.numel() == 0
