"""__getitem__ / __setitem__ with ints, slices, None and Ellipsis, against numpy."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import torch
from testing import assert_matches, to_torch

BASE = np.arange(60, dtype=np.float32).reshape(3, 4, 5)

INDICES = [
    0, -1, 2, (1, 2), (0, -1, 3), slice(None), slice(1, None), slice(None, -1), slice(0, 3, 2),
    (slice(None), 1), (Ellipsis, 0), (0, Ellipsis), (None, 0), (slice(None), None, 1), (1, slice(1, 3), Ellipsis),
    (Ellipsis,), (slice(10, 20),), (slice(-100, 100, 3),), (Ellipsis, None),
]


@pytest.mark.parametrize("index", INDICES, ids=repr)
def test_getitem_matches_numpy(index):
    t = to_torch(BASE)
    assert_matches(t[index], BASE[index])


@pytest.mark.parametrize("index", INDICES, ids=repr)
def test_setitem_number_matches_numpy(index):
    t, expected = to_torch(BASE), BASE.copy()
    t[index] = -1.0
    expected[index] = -1.0
    assert_matches(t, expected)


def test_setitem_tensor_broadcasts():
    t = torch.zeros(3, 4)
    t[1:] = torch.tensor([1.0, 2.0, 3.0, 4.0])
    assert t.tolist() == [[0.0] * 4, [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0]]
    t[:, 0] = torch.tensor([7.0, 8.0, 9.0])
    assert [row[0] for row in t.tolist()] == [7.0, 8.0, 9.0]


def test_getitem_returns_views():
    t = torch.zeros(3, 4)
    row = t[1]
    row.fill_(5.0)
    assert t.sum().item() == 20.0
    assert t[...] is not t


def test_index_errors():
    t = torch.zeros(3, 4)
    with pytest.raises(IndexError, match="index 3 is out of bounds for dimension 0 with size 3"):
        t[3]
    with pytest.raises(IndexError, match="too many indices for tensor of dimension 2"):
        t[0, 0, 0]
    with pytest.raises(IndexError, match="only integers, slices"):
        t["a"]
    with pytest.raises(ValueError, match="step must be greater than zero"):
        t[::-1]
    with pytest.raises(IndexError, match="an index can only have a single ellipsis"):
        t[..., ...]
    with pytest.raises(TypeError, match="can't assign a str to a Tensor"):
        t[0] = "x"
    with pytest.raises(RuntimeError, match="must match the size"):
        t[0] = torch.ones(5)


@settings(max_examples=200, deadline=None)
@given(
    shape=st.lists(st.integers(1, 4), min_size=1, max_size=3),
    data=st.data(),
)
def test_random_basic_indexing_matches_numpy(shape, data):
    arr = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
    index = []
    for size in shape:
        if data.draw(st.booleans()):
            index.append(None)  # adds a dim, consumes none
        if data.draw(st.booleans()):
            index.append(data.draw(st.integers(-size, size - 1)))
        else:
            start = data.draw(st.none() | st.integers(-size - 2, size + 2))
            stop = data.draw(st.none() | st.integers(-size - 2, size + 2))
            step = data.draw(st.none() | st.integers(1, 3))
            index.append(slice(start, stop, step))
    index = tuple(index)
    assert_matches(to_torch(arr)[index], arr[index])


ADVANCED = [
    np.array([0, 2]),
    np.array([[0, 1], [2, 0]]),
    (np.array([0, 2]), np.array([1, 3])),
    (slice(None), np.array([3, 0, 3])),
    (np.array([1, 0]), slice(None), np.array([4, 0])),  # separated: batch dims go first
    (Ellipsis, np.array([0, 4])),
    (slice(1, None), np.array([[0], [2]]), np.array([1, 2, 3])),
    np.array([-1, -3]),
]


@pytest.mark.parametrize("index", ADVANCED, ids=repr)
def test_integer_tensor_indexing_matches_numpy(index):
    t = to_torch(BASE)
    tindex = tuple(to_torch(i) if isinstance(i, np.ndarray) else i for i in index) if isinstance(index, tuple) \
        else to_torch(index)
    assert_matches(t[tindex], BASE[index])


def test_list_and_mask_indexing():
    t = to_torch(BASE)
    assert_matches(t[[0, 2]], BASE[[0, 2]])
    mask = BASE > 30
    assert_matches(t[to_torch(mask)], BASE[mask])
    row_mask = np.array([True, False, True])
    assert_matches(t[to_torch(row_mask)], BASE[row_mask])
    assert_matches(t[:, to_torch(np.array([True, False, True, True]))], BASE[:, [True, False, True, True]])
    assert_matches(t[True], BASE[None])
    assert_matches(t[np.array([1, 2])], BASE[np.array([1, 2])])


def test_every_python_sequence_indexes_as_pytorch_reads_it():
    base = np.arange(12, dtype=np.float32).reshape(3, 4)
    t = to_torch(base)
    rows = np.array([0, 1, 2])
    cols = np.array([1, 3, 0])
    # The classic NLL one-liner: logp[range(n), targets].
    assert_matches(t[range(3), to_torch(cols)], base[rows, cols])
    assert_matches(t[range(3), [1, 3, 0]], base[rows, cols])
    assert_matches(t[(0, 2), ], base[[0, 2]])                    # a tuple inside the index tuple: one index
    assert_matches(t[range(1, 3)], base[1:3])
    assert_matches(t[:, range(0, 4, 2)], base[:, 0:4:2])
    assert_matches(t[np.array([[0, 1], [1, 2]])], base[np.array([[0, 1], [1, 2]])])   # an array is one index

    class Index:
        def __index__(self):
            return 1
    assert_matches(t[Index()], base[1])
    view = t[np.int64(1)]  # a numpy integer is an int: a view, as t[1]
    view.add_(1000)
    assert float(t[1, 0]) == base[1, 0] + 1000

    t = to_torch(base)
    with pytest.warns(UserWarning, match="Using a non-tuple sequence for multidimensional indexing is deprecated"):
        got = t[[[0, 1], [1, 2]]]  # NumPy's old rule, which PyTorch 2.13 still follows: read as t[[0, 1], [1, 2]]
    assert_matches(got, base[[0, 1], [1, 2]])
    t[range(2), 0] = -1.0
    expected = base.copy()
    expected[[0, 1], 0] = -1.0
    assert_matches(t, expected)
    with pytest.raises((IndexError, TypeError)):  # PyTorch: TypeError from torch.tensor("a"); here IndexError
        t["a"]


def test_advanced_setitem_matches_numpy():
    t, expected = to_torch(BASE), BASE.copy()
    t[to_torch(BASE > 50)] = 0.0
    expected[BASE > 50] = 0.0
    assert_matches(t, expected)
    t[[0, 1], :, [2, 3]] = torch.tensor([-1.0, -2.0]).unsqueeze(1)
    expected[[0, 1], :, [2, 3]] = np.array([[-1.0], [-2.0]])
    assert_matches(t, expected)
    t[:, [1, 1]] = 7.0  # repeated index: last write wins, all the same here
    expected[:, [1, 1]] = 7.0
    assert_matches(t, expected)


def test_scatter_add_accumulates_repeated_indices():
    t2 = torch.zeros(3).scatter_add_(0, torch.tensor([0, 0, 2]), torch.tensor([1.0, 2.0, 3.0]))
    assert t2.tolist() == [3.0, 0.0, 3.0]


@pytest.mark.parametrize("dim,shape,index_shape", [
    (0, (40, 60, 50), (20, 60, 50)), (1, (40, 60, 50), (20, 60, 50)), (2, (40, 60, 50), (40, 60, 30)),
    (-1, (40, 60, 50), (40, 60, 30)),
    # Few positions along dim and many after it: chunks of the inner positions, every chunk its own thread.
    (0, (16, 64, 512), (8, 64, 512)), (1, (2, 16, 40000), (2, 8, 40000))])
def test_scatter_and_gather_split_across_threads_as_one_thread_computes(dim, shape, index_shape):
    """Large enough for the CPU kernel to split the positions across threads:
    gathers anywhere, scatters by the coordinates other than dim's (whole
    blocks, or chunks of the positions after dim), so no two threads write one
    target. Every thread count gives numpy's answer."""
    rng = np.random.default_rng(dim + 7)
    x = rng.standard_normal(shape).astype(np.float64)
    index = rng.integers(0, shape[dim], size=index_shape)
    src = rng.standard_normal(index.shape)
    where = list(np.indices(index.shape))
    where[dim] = index
    added = x.copy()
    np.add.at(added, tuple(where), src)
    biggest = x.copy()
    np.maximum.at(biggest, tuple(where), src)
    threads = torch.get_num_threads()
    try:
        for k in sorted({1, 2, max(threads, 2)}):
            torch.set_num_threads(k)
            t, i, s = torch.from_numpy(x), torch.from_numpy(index), torch.from_numpy(src)
            assert_matches(t.gather(dim, i), x[tuple(where)])
            assert_matches(t.scatter_add(dim, i, s), added)
            assert_matches(t.scatter_reduce(dim, i, s, "amax"), biggest)
            # A scatter of one value has one answer too: every target written, nothing else.
            filled = x.copy()
            filled[tuple(where)] = 5.0
            assert_matches(t.scatter(dim, i, 5.0), filled)
    finally:
        torch.set_num_threads(threads)


@pytest.mark.parametrize("rows,cols", [(256, 384), (1000, 512), (300, 3)])
def test_index_add_and_copy_of_rows_at_every_thread_count(rows, cols):
    """index_add_/index_copy_/index_put_ of whole rows (the row kernel, its
    bounds checked a block per thread): repeated rows add in index order,
    whatever the thread count."""
    rng = np.random.default_rng(rows)
    x, vals = rng.standard_normal((rows, cols)), rng.standard_normal((rows, cols))
    index = rng.integers(0, rows, rows)
    added = x.copy()
    np.add.at(added, index, 0.5 * vals)
    permutation = rng.permutation(rows)
    copied = x.copy()
    copied[permutation] = vals
    threads = torch.get_num_threads()
    try:
        for k in sorted({1, 2, max(threads, 2)}):
            torch.set_num_threads(k)
            t, v, i = torch.from_numpy(x), torch.from_numpy(vals), torch.from_numpy(index)
            assert_matches(t.index_add(0, i, v, alpha=0.5), added)
            assert_matches(t.clone().index_copy_(0, torch.from_numpy(permutation), v), copied)
            assert_matches(t.clone().index_put_((i,), 0.5 * v, accumulate=True), added)
    finally:
        torch.set_num_threads(threads)


def test_scatter_reduce_aliases_max_and_min_have_no_gradient_as_in_pytorch():
    x, src = torch.tensor([1.0, 2.0], requires_grad=True), torch.tensor([3.0, 0.5], requires_grad=True)
    index = torch.tensor([0, 1])
    assert x.scatter_reduce(0, index, src, "max").tolist() == [3.0, 2.0]  # the forward takes them
    for alias in ("max", "min"):
        with pytest.raises(RuntimeError, match=f"Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', "
                                               f"'amin' but got {alias}"):
            x.scatter_reduce(0, index, src, alias).sum().backward()


def test_index_reduce_of_a_bool_matrix_as_pytorch_computes_it():
    # PyTorch's slice-wise path takes bool (its vector path does not: an OpInfo error input).
    x, index, source = torch.ones(3, 2, dtype=torch.bool), torch.tensor([0, 2, 0]), torch.zeros(3, 2, dtype=torch.bool)
    assert x.index_reduce(0, index, source, "prod").tolist() == [[False, False], [True, True], [False, False]]
    assert x.index_reduce(0, index, source, "amax").tolist() == [[True, True]] * 3
    assert x.clone().index_reduce_(0, index, source, "amin").tolist() == [[False, False], [True, True], [False, False]]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64,
                                   torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool])
def test_index_reduce_of_large_slices_in_one_kernel_matches_the_slice_ops(dtype):
    # A contiguous self folds source's slices in one kernel (cpu/IndexingKernel.cpp); a strided
    # one takes an elementwise op per slice (mul_, add_, maximum_, minimum_). Both, on the same
    # values: repeated rows (folded in index order), NaN (it wins), wrapping integers, include_self.
    gen = torch.Generator().manual_seed(5)
    for shape, dim in [((6, 300), 0), ((4, 5, 70), 1), ((3, 2, 600), -2), ((2, 8, 4, 40), 1)]:
        index = torch.tensor([0, shape[dim] - 1, 1, 0, shape[dim] - 1])
        src_shape = list(shape)
        src_shape[dim] = len(index)
        for reduce in ["prod", "mean", "amax", "amin"]:
            for include_self in [True, False]:
                if dtype == torch.bool and (reduce == "mean" or not include_self):
                    continue  # PyTorch refuses these for bool
                if dtype == torch.bool:
                    x, src = (torch.randint(0, 2, s, generator=gen).bool() for s in (shape, src_shape))
                elif dtype.is_floating_point:
                    x, src = ((torch.randn(s, generator=gen) * 3).to(dtype) for s in (shape, src_shape))
                    x.view(-1)[::37], src.view(-1)[::41] = float("nan"), float("nan")
                else:
                    x, src = (torch.randint(-100, 100, s, generator=gen).to(dtype) for s in (shape, src_shape))
                one_kernel = x.clone().index_reduce_(dim, index, src, reduce, include_self=include_self)
                strided = torch.empty(shape + (2,), dtype=dtype)[..., 0]
                strided.copy_(x)
                by_slices = strided.index_reduce_(dim, index, src, reduce, include_self=include_self)
                if dtype.is_floating_point:
                    assert torch.equal(one_kernel.isnan(), by_slices.isnan())
                assert torch.equal(torch.nan_to_num(one_kernel), torch.nan_to_num(by_slices)), (shape, reduce)


@pytest.mark.parametrize("op", ["index_add_", "index_reduce_", "index_copy_"])
def test_index_updates_refuse_a_source_or_index_sharing_self_memory(op):
    # PyTorch's overlap checks: the result would depend on the order the slices are written in.
    def call(self, index, source):
        if op == "index_reduce_":
            return self.index_reduce_(0, index, source, "amax")
        return getattr(self, op)(0, index, source)
    x = torch.arange(2048.0).reshape(8, 256)
    with pytest.raises(RuntimeError, match="some elements of the input tensor and the written-to tensor refer"):
        call(x, torch.arange(8).flip(0), x)
    with pytest.raises(RuntimeError, match="some elements of the input tensor and the written-to tensor refer"):
        call(x, torch.arange(4), x[2:6])
    i = torch.arange(4)
    with pytest.raises(RuntimeError, match="some elements of the input tensor and the written-to tensor refer"):
        call(i, i, torch.arange(4))
    assert call(x.clone(), torch.arange(8).flip(0), x).shape == (8, 256)  # a copy is fine


@pytest.mark.parametrize("op", ["scatter_add_", "scatter_", "scatter_add", "scatter"])
def test_scatter_refuses_a_src_of_another_rank(op):
    # A 0-d index against an empty 3-d src read past src's end (a crash); PyTorch refuses it.
    with pytest.raises(RuntimeError, match="Index tensor must have the same number of dimensions as src tensor"):
        getattr(torch.tensor(1.0), op)(0, torch.tensor(0), torch.empty(3, 1, 0))
    with pytest.raises(RuntimeError, match="Index tensor must have the same number of dimensions as src tensor"):
        getattr(torch.zeros(3), op)(0, torch.tensor([0, 1]), torch.ones(2, 1))
    # Same rank (a 0-d and a 1-d tensor count as one dim) is fine.
    assert getattr(torch.tensor(1.0), op)(0, torch.tensor(0), torch.tensor([5.0])).item() in (5.0, 6.0)


def test_advanced_index_errors():
    t = torch.zeros(3, 4)
    with pytest.raises(IndexError, match="index 5 is out of bounds for dimension 0 with size 3"):
        t[torch.tensor([5])]
    with pytest.raises(IndexError, match=r"The shape of the mask \[2\] at index 0 does not match"):
        t[torch.tensor([True, False])]
    with pytest.raises(IndexError, match="tensors used as indices must be long, int, byte or bool tensors"):
        t[torch.tensor([0.0])]
    with pytest.raises(RuntimeError, match=r"shape mismatch: value tensor of shape \[3, 5\] cannot be broadcast to indexing result of shape \[2, 4\]"):
        t[torch.tensor([0, 1])] = torch.ones(3, 5)


def test_index_put_function_and_methods():
    x = torch.zeros(5)
    rows = torch.tensor([1, 1, 3])
    assert x.index_put_((rows,), torch.ones(3), accumulate=True) is x
    assert x.tolist() == [0.0, 2.0, 0.0, 1.0, 0.0]
    y = torch.index_put(x, [rows], torch.tensor(7.0))  # a copy; a 0-d value broadcasts
    assert y.tolist() == [0.0, 7.0, 0.0, 7.0, 0.0] and x.tolist() == [0.0, 2.0, 0.0, 1.0, 0.0]
    m = torch.zeros(2, 3)
    torch.index_put_(m, (None, torch.tensor([0, 2])), torch.tensor([1.0, 2.0]))
    assert m.tolist() == [[1.0, 0.0, 2.0], [1.0, 0.0, 2.0]]
    assert m.index_put((torch.tensor([1]),), torch.tensor([9.0, 9.0, 9.0])).tolist() == [[1.0, 0.0, 2.0], [9.0] * 3]
    with pytest.raises(TypeError, match="expected Tensor or None in 'indices', but element 0 is int"):
        x.index_put_([1], torch.ones(1))
    with pytest.raises(IndexError, match="out of bounds"):
        x.index_put_((torch.tensor([5]),), torch.ones(1))


@pytest.mark.parametrize("shape", [(), (0,), (5,), (3, 4), (2, 0, 3), (2, 3, 4)])
def test_nonzero_as_tuple_and_where_of_a_condition_are_numpys_nonzero(shape):
    a = np.random.default_rng(1).integers(0, 2, size=shape).astype(np.float32)
    x = torch.tensor(a)
    expected = np.nonzero(np.atleast_1d(a))
    for got in (x.nonzero(as_tuple=True), torch.nonzero(x, as_tuple=True), torch.where(x != 0)):
        assert isinstance(got, tuple) and len(got) == max(1, len(shape))
        for g, e in zip(got, expected):
            assert g.dtype == torch.int64 and g.tolist() == e.tolist()
    assert torch.equal(torch.nonzero(x, as_tuple=False), x.nonzero())
    assert tuple(x.nonzero().shape) == np.argwhere(a).shape and x.nonzero().tolist() == np.argwhere(a).tolist()
    if shape:  # indexing with the tuple picks the nonzero elements, as in numpy
        assert x[x.nonzero(as_tuple=True)].tolist() == a[np.nonzero(a)].tolist()


@pytest.mark.parametrize("value", [torch.tensor(7.0), torch.tensor(7.0, dtype=torch.float64)])
def test_masked_fill_takes_a_0d_tensor_value_with_its_gradient(value):
    x = torch.arange(4.0).reshape(2, 2)
    mask = torch.tensor([[True, False], [False, True]])
    assert x.masked_fill(mask, value).tolist() == [[7.0, 1.0], [2.0, 7.0]]
    assert torch.masked_fill(x, mask, value).tolist() == [[7.0, 1.0], [2.0, 7.0]]
    y = x.clone()
    assert y.masked_fill_(mask, value) is y and y.tolist() == [[7.0, 1.0], [2.0, 7.0]]
    v = value.clone().requires_grad_()
    w = x.clone().requires_grad_()
    (w.masked_fill(mask, v) * torch.tensor([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    assert v.grad.item() == 5.0 and w.grad.tolist() == [[0.0, 2.0], [3.0, 0.0]]


def test_masked_fill_refuses_a_value_with_dims_as_pytorch():
    x = torch.zeros(2, 2)
    with pytest.raises(RuntimeError, match=r"masked_fill_ only supports a 0-dimensional value tensor, but got tensor "
                                           r"with 1 dimension\(s\)."):
        x.masked_fill(x > 0, torch.tensor([1.0, 2.0]))
    with pytest.raises(RuntimeError, match="masked_fill_ only supports boolean masks"):
        x.masked_fill(torch.zeros(2, 2), torch.tensor(1.0))


def test_a_long_index_reports_its_first_bad_position_whatever_the_threads():
    """gather/scatter check a long index a block per thread: the value
    reported is the first out-of-range one in order, as a serial check finds."""
    index = torch.zeros(200_000, dtype=torch.int64)
    index[150_000], index[70_000] = 99, -3
    threads = torch.get_num_threads()
    try:
        for k in sorted({1, 2, max(threads, 2)}):
            torch.set_num_threads(k)
            with pytest.raises(RuntimeError, match="index -3 is out of bounds for dimension 0 with size 5"):
                torch.zeros(5).gather(0, index)
            with pytest.raises(RuntimeError, match="index -3 is out of bounds for dimension 0 with size 5"):
                torch.zeros(5).scatter_add_(0, index, torch.ones(200_000))
    finally:
        torch.set_num_threads(threads)
