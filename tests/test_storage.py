"""The bytes under tensors: Tensor.view(dtype), torch.frombuffer,
untyped_storage() / UntypedStorage (slices, from_file), TypedStorage,
Tensor.set_, torch.asarray(storage), and torch.save keeping views of one
storage together, as PyTorch does."""
import io
import os
import pickle
import struct
import zipfile

import pytest

import torch

ORACLE = os.path.join(os.path.dirname(__file__), "oracle")


# ---- view(dtype) ----
def test_view_dtype_reinterprets_bytes():
    a = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    assert a.view(torch.int32)[0, 1].item() == struct.unpack("<i", struct.pack("<f", 1.0))[0]
    assert a.view(torch.float64).shape == (3, 2) and a.view(torch.uint8).shape == (3, 16)
    assert a.view(torch.int16).stride() == (8, 1) and a[:, :2].view(torch.float64).stride() == (2, 1)
    assert torch.zeros(()).view(torch.int32).shape == ()
    assert torch.zeros(8)[2:].view(torch.float64).storage_offset() == 1
    b = a.view(torch.uint8)
    b[0, 0:4] = torch.tensor([0, 0, 128, 63], dtype=torch.uint8)  # shared: 1.0f
    assert a[0, 0].item() == 1.0
    x = torch.randn(4, requires_grad=True)
    assert not x.view(torch.int32).requires_grad and x.view(torch.int32).grad_fn is None


@pytest.mark.parametrize("make, message", [
    (lambda: torch.zeros(3).view(torch.float64), r"self.size\(-1\) must be divisible by 2 to view Float as Double"),
    (lambda: torch.zeros(()).view(torch.float64), r"self.dim\(\) cannot be 0 to view Float as Double"),
    (lambda: torch.zeros(()).view(torch.int16), r"self.dim\(\) cannot be 0 to view Float as Short"),
    (lambda: torch.zeros(4, 4).t().view(torch.float64), r"self.stride\(-1\) must be 1 to view Float as Double"),
    (lambda: torch.zeros(8)[1:5].view(torch.float64), r"self.storage_offset\(\) must be divisible by 2"),
    (lambda: torch.zeros(8, dtype=torch.uint8)[1:5].view(torch.int16), r"to view Byte as Short"),
])
def test_view_dtype_refuses_what_pytorch_refuses(make, message):
    with pytest.raises(RuntimeError, match=message):
        make()


# ---- frombuffer ----
def test_frombuffer_shares_writable_buffers():
    buf = bytearray(struct.pack("<4f", 1, 2, 3, 4))
    t = torch.frombuffer(buf, dtype=torch.float32)
    assert t.tolist() == [1, 2, 3, 4]
    t[0] = 9
    assert struct.unpack("<f", buf[:4])[0] == 9
    assert torch.frombuffer(buf, dtype=torch.float32, count=2, offset=4).tolist() == [2, 3]
    assert torch.frombuffer(memoryview(buf), dtype=torch.int64).shape == (2,)
    assert torch.frombuffer(buf, dtype=torch.float32, requires_grad=True).requires_grad


def test_frombuffer_of_read_only_bytes_warns_once():
    import warnings

    torch._api_misc._warned_readonly_buffer = False  # (this torch's flag: the warning is once per process)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert torch.frombuffer(b"abcdefgh", dtype=torch.int16, count=2, offset=2).tolist() == [25699, 26213]
        torch.frombuffer(b"ab", dtype=torch.uint8)
    assert [str(w.message)[:34] for w in caught] == ["The given buffer is not writable, "]


@pytest.mark.parametrize("kwargs, message", [
    (dict(buffer=b"", dtype=torch.float32), r"both buffer length \(0\) and count \(-1\) must not be 0"),
    (dict(buffer=b"abc", dtype=torch.float32), r"buffer length \(3 bytes\) after offset \(0 bytes\) must be a "
                                                r"multiple of element size \(4\)"),
    (dict(buffer=b"abcdefgh", dtype=torch.float32, offset=9), r"offset \(9 bytes\) must be non-negative"),
    (dict(buffer=b"abcdefgh", dtype=torch.float32, count=3), r"requested buffer length \(3 \* 4 bytes\)"),
])
def test_frombuffer_errors(kwargs, message):
    buffer = kwargs.pop("buffer")
    with pytest.raises(ValueError, match=message):
        torch.frombuffer(buffer, **kwargs)


def test_frombuffer_refuses_non_buffers():
    with pytest.raises(ValueError, match="object does not implement Python buffer protocol"):
        torch.frombuffer([1, 2], dtype=torch.uint8)


# ---- storages ----
def test_untyped_storage_is_all_the_bytes_shared():
    a = torch.arange(6, dtype=torch.float32)
    s = a[2:].untyped_storage()
    assert isinstance(s, torch.UntypedStorage) and torch.is_storage(s)
    assert s.nbytes() == len(s) == 24 and s.data_ptr() == a.data_ptr() and s.device == torch.device("cpu")
    assert s[4:8].nbytes() == 4 and s[4:8].data_ptr() == a.data_ptr() + 4 and s[-1] == s[23]
    assert list(s[4:8]) == list(struct.pack("<f", 1.0))
    view = torch.asarray(s[4:12], dtype=torch.float32)
    view[0] = 99
    assert a[1].item() == 99 and torch.asarray(s, dtype=torch.float32).tolist() == a.tolist()
    with pytest.raises(IndexError):
        s[24]
    with pytest.raises(RuntimeError, match="step"):
        s[::2]
    assert "[torch.storage.UntypedStorage(device=cpu) of size 2]" in repr(torch.UntypedStorage([1, 2]))
    assert pickle.loads(pickle.dumps(s[:4])).tolist() == s[:4].tolist()  # (PyTorch 2.13 cannot unpickle it)
    assert torch.UntypedStorage(5).nbytes() == 5 and s.clone().data_ptr() != s.data_ptr()


def test_set_points_a_tensor_at_a_storage():
    a = torch.arange(6.0)
    x = torch.empty(0).set_(a.untyped_storage(), 2, (2, 2), (2, 1))
    assert x.tolist() == [[2, 3], [4, 5]] and not x._is_view()
    x[0, 0] = -1
    assert a[2].item() == -1
    y = torch.empty(0).set_(a)
    assert y.data_ptr() == a.data_ptr() and y.shape == a.shape and y.is_set_to(a) and not y.is_set_to(a[1:])
    with pytest.raises(RuntimeError, match="require a storage larger than"):  # PyTorch grows the storage
        torch.empty(0).set_(a.untyped_storage(), 4, (3,), (1,))
    with pytest.raises(RuntimeError, match="Could not set tensor of type"):
        torch.empty(0, dtype=torch.int64).set_(a)
    assert torch.empty(3).set_().numel() == 0


def test_typed_storage_warns_and_reads_elements():
    a = torch.arange(4.0)
    with pytest.warns(UserWarning, match="TypedStorage is deprecated"):
        torch.storage._typed_storage_warned = False
        ts = a.storage()
    assert isinstance(ts, torch.TypedStorage) and torch.is_storage(ts)
    assert len(ts) == 4 and ts[1] == 1.0 and ts.dtype == torch.float32 and ts.tolist() == [0, 1, 2, 3]
    assert torch.asarray(ts).tolist() == [0, 1, 2, 3]


@pytest.mark.parametrize("shared", [False, True])
def test_from_file_maps_the_file(tmp_path, shared):
    path = tmp_path / "data.bin"
    path.write_bytes(struct.pack("<4f", 1, 2, 3, 4))
    s = torch.UntypedStorage.from_file(str(path), shared=shared, nbytes=16)
    t = torch.asarray(s, dtype=torch.float32)
    assert t.tolist() == [1, 2, 3, 4]
    t[0] = 5
    del t, s
    assert struct.unpack("<f", path.read_bytes()[:4])[0] == (5 if shared else 1)
    with pytest.raises(RuntimeError, match="is smaller than the required mapping size <64>"):
        torch.UntypedStorage.from_file(str(path), shared=False, nbytes=64)
    values = torch.from_file(str(path), shared=False, size=2, dtype=torch.float32)
    assert values.tolist() == [5 if shared else 1, 2]
    grown = torch.UntypedStorage.from_file(str(tmp_path / "new.bin"), shared=True, nbytes=8)
    assert grown.nbytes() == 8 and os.path.getsize(tmp_path / "new.bin") == 8


# ---- torch.save keeps storages shared ----
def test_views_of_one_storage_stay_together():
    base = torch.arange(10.0)
    buf = io.BytesIO()
    torch.save({"head": base[:6], "tail": base[4:], "grid": base.reshape(2, 5).t()}, buf)
    buf.seek(0)
    back = torch.load(buf)
    back["head"][5] = -1
    assert back["tail"][1].item() == -1 and back["grid"][0, 1].item() == -1
    assert back["head"].untyped_storage().data_ptr() == back["tail"].untyped_storage().data_ptr()
    assert not back["head"]._is_view()
    buf.seek(0)
    assert len([n for n in zipfile.ZipFile(buf).namelist() if "/data/" in n]) == 1  # one storage record


def test_one_storage_as_two_dtypes_is_refused():
    a = torch.zeros(4)
    with pytest.raises(RuntimeError, match="view the same data as different types"):
        torch.save([a, a.view(torch.int32)], io.BytesIO())


def test_pytorchs_views_and_complex_tensors_load_shared():
    """oracle/pytorch_views.pt: PyTorch 2.13 saved three views of one storage and two complex tensors."""
    state = torch.load(os.path.join(ORACLE, "pytorch_views.pt"))
    assert state["head"].tolist() == [0, 1, 2, 3, 4, 5] and state["tail"].tolist() == [4, 5, 6, 7, 8, 9]
    state["tail"][0] = 40
    assert state["head"][4].item() == 40 and state["grid"][4, 0].item() == 40
    assert state["complex"].dtype == torch.complex64 and state["complex"].tolist() == [1j, 2 + 3j, 4 + 5j, 6 + 7j]
    assert state["complex128"].dtype == torch.complex128 and state["complex128"].tolist() == [1j, 2 + 3j]
    checkpoint = torch.load(os.path.join(ORACLE, "pytorch_checkpoint.pt"))
    assert checkpoint["transposed"].untyped_storage().data_ptr() == checkpoint["row"].untyped_storage().data_ptr()


def test_meta_device_exists_but_holds_no_tensors():  # this torch's own: PyTorch has shape-only meta tensors
    assert torch.device("meta").type == "meta" and torch.device("meta") != torch.device("cpu")
    with pytest.raises(NotImplementedError, match="meta"):
        torch.empty(2, device="meta")
    with pytest.raises(NotImplementedError, match="meta"):
        torch.zeros(2).to("meta")
