"""numpy and DLPack: zero-copy in both directions, dtypes preserved."""
import numpy as np
import pytest

import torch

DTYPES = [np.float64, np.float32, np.float16, np.int64, np.int32, np.int16, np.int8, np.uint8, np.bool_]


@pytest.mark.parametrize("np_dtype", DTYPES)
def test_from_numpy_shares_memory_and_keeps_dtype(np_dtype):
    a = (np.arange(12) % 2).astype(np_dtype).reshape(3, 4)
    t = torch.from_numpy(a)
    assert t.shape == (3, 4) and t.data_ptr() == a.ctypes.data
    assert t.numpy().dtype == a.dtype
    t[1, 2] = 1
    assert a[1, 2] == 1


def test_from_numpy_views_keep_strides():
    a = np.arange(24, dtype=np.float32).reshape(4, 6)
    assert torch.from_numpy(a.T).stride() == (1, 6)
    assert torch.from_numpy(a[:, ::2]).tolist() == a[:, ::2].tolist()
    assert torch.from_numpy(a[1:]).data_ptr() == a[1:].ctypes.data


def test_from_numpy_rejects_what_it_cannot_represent():
    with pytest.raises(ValueError, match="negative"):
        torch.from_numpy(np.arange(4.0)[::-1])
    with pytest.raises(TypeError, match="can't convert np.ndarray of type"):
        torch.from_numpy(np.array(["text"]))
    assert torch.from_numpy(np.array([1 + 2j])).dtype == torch.complex128  # complex: tests/test_complex.py
    with pytest.raises(TypeError, match="expected np.ndarray"):
        torch.from_numpy([1, 2])


def test_numpy_shares_memory_and_outlives_the_tensor():
    t = torch.arange(6.0)
    n = t.numpy()
    n[0] = 42
    assert t[0].item() == 42
    del t
    assert n.tolist() == [42.0, 1.0, 2.0, 3.0, 4.0, 5.0]


@pytest.mark.parametrize("dtype,np_dtype", [(torch.float64, np.float64), (torch.float32, np.float32),
                                             (torch.float16, np.float16), (torch.int64, np.int64),
                                             (torch.int32, np.int32), (torch.int16, np.int16), (torch.int8, np.int8),
                                             (torch.uint8, np.uint8), (torch.bool, np.bool_),
                                             (torch.complex64, np.complex64)])
def test_numpy_views_every_dtype_with_its_strides(dtype, np_dtype):
    """numpy() hands numpy an __array_struct__ capsule (its type letter, item
    size, shape, byte strides, writeable): transposed, sliced and 0-d views
    come out as the same elements in the same memory."""
    base = torch.arange(24).reshape(2, 3, 4).to(dtype)
    for view in (base, base.transpose(0, 2), base[:, ::2, 1:], base[1, 2, 3]):
        n = view.numpy()
        assert n.dtype == np_dtype and n.shape == tuple(view.shape)
        assert n.strides == tuple(s * view.element_size() for s in view.stride())
        assert n.tolist() == view.tolist() and n.flags.writeable
    with pytest.raises(TypeError, match="Got unsupported ScalarType bfloat16"):
        torch.ones(2, dtype=torch.bfloat16).numpy()


@pytest.mark.parametrize("shape", [(0,), (3, 0), (0, 2, 5)])
@pytest.mark.parametrize("dtype", [torch.float32, torch.int64, torch.bool])
def test_numpy_of_an_empty_tensor(shape, dtype):
    # An empty tensor has no memory (data pointer 0): numpy 2.0, which
    # Python 3.9 and 3.10 get, refuses that in an array interface.
    t = torch.zeros(shape, dtype=dtype)
    for n in (t.numpy(), np.asarray(t)):
        assert n.shape == shape and n.dtype == torch.zeros(1, dtype=dtype).numpy().dtype


def test_array_protocol_and_numpy_operands():
    t = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert np.asarray(t).tolist() == t.tolist()
    assert np.array(t, dtype=np.float64).dtype == np.float64
    assert (t + np.float32(1)).tolist() == [[2.0, 3.0], [4.0, 5.0]]
    assert (t * np.int64(2)).dtype == torch.float32
    assert torch.tensor(np.arange(3)).dtype == torch.int64
    assert torch.tensor(np.float64(1.5)).dtype == torch.float64
    copy = torch.tensor(np.ones(3))
    assert copy.dtype == torch.float64


def test_dlpack_both_ways_is_zero_copy():
    t = torch.arange(6.0).reshape(2, 3)
    a = np.from_dlpack(t)
    t[0, 0] = 7
    assert a[0, 0] == 7 and a.shape == (2, 3)
    b = np.arange(4, dtype=np.int32)
    u = torch.from_dlpack(b)
    b[1] = 9
    assert u.tolist() == [0, 9, 2, 3] and u.dtype == torch.int32
    assert t.__dlpack_device__() == (1, 0)
    v = torch.from_dlpack(t.t())  # strided
    assert v.tolist() == t.t().tolist() and v.data_ptr() == t.data_ptr()


def test_dlpack_capsule_is_consumed_once():
    capsule = torch.ones(2).__dlpack__()
    torch.from_dlpack(capsule)
    with pytest.raises(TypeError, match="already consumed"):
        torch.from_dlpack(capsule)


def test_numpy_scalars_and_arrays_stay_alive_as_long_as_their_tensors():
    """A numpy scalar's __array_struct__ describes a temporary array that
    lives only as long as the capsule: the tensor must hold the capsule (a
    free-threaded 3.14 read freed memory, 6.9e-310 for 2.5, before it did)."""
    for k in range(200):
        scalar_tensor = torch.as_tensor(np.float64(k + 0.5))
        junk = [np.full(3, -1.0) for _ in range(5)]  # reuse freed memory, if any was
        assert scalar_tensor.item() == k + 0.5, (k, junk[0])
    arr = np.arange(1000, dtype=np.float32)
    view = torch.from_numpy(arr)
    del arr
    _ = [np.full(1000, -1.0, np.float32) for _ in range(5)]
    assert view[999].item() == 999.0
