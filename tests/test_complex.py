"""Complex dtypes: complex32/64/128 as PyTorch's dtypes, tensors that hold,
view, copy, convert, print and save complex numbers, and a clear
NotImplementedError from every op that would compute with them."""
import io
import warnings

import pytest

import torch

COMPLEX = [torch.complex32, torch.complex64, torch.complex128]


def test_the_dtype_objects():
    assert (torch.cfloat, torch.cdouble, torch.chalf) == (torch.complex64, torch.complex128, torch.complex32)
    assert [d.itemsize for d in COMPLEX] == [4, 8, 16]
    assert all(d.is_complex and d.is_signed and not d.is_floating_point for d in COMPLEX)
    assert not torch.float32.is_complex and not torch.int64.is_complex
    assert [d.to_real() for d in COMPLEX] == [torch.float16, torch.float32, torch.float64]
    assert torch.float32.to_real() is torch.float32
    assert [d.to_complex() for d in (torch.float16, torch.float32, torch.float64)] == COMPLEX
    with pytest.raises(RuntimeError, match="Unknown Complex ScalarType for Int"):
        torch.int32.to_complex()
    assert str(torch.complex64) == "torch.complex64"


@pytest.mark.parametrize("a, b, expected", [
    (torch.complex64, torch.float64, torch.complex128),
    (torch.complex32, torch.bfloat16, torch.complex64),
    (torch.complex32, torch.float16, torch.complex32),
    (torch.complex32, torch.int64, torch.complex32),
    (torch.complex64, torch.complex128, torch.complex128),
    (torch.bool, torch.complex64, torch.complex64),
    (torch.uint8, torch.complex128, torch.complex128),
])
def test_promotion_as_pytorch(a, b, expected):
    assert torch.promote_types(a, b) == expected and torch.promote_types(b, a) == expected
    assert torch.can_cast(a, expected) and not torch.can_cast(expected, torch.float64)


def test_view_as_real_and_view_as_complex_share_memory():
    parts = torch.arange(8.0).reshape(2, 2, 2)
    z = torch.view_as_complex(parts)
    assert z.dtype == torch.complex64 and z.shape == (2, 2) and z.stride() == (2, 1)
    assert torch.view_as_real(z).stride() == (4, 2, 1) and torch.view_as_real(z).data_ptr() == parts.data_ptr()
    assert z.real.tolist() == [[0, 2], [4, 6]] and z.imag.tolist() == [[1, 3], [5, 7]]
    z.imag[0, 0] = -9  # the parts are views
    assert parts[0, 0, 1].item() == -9
    assert torch.view_as_complex(torch.zeros(3, 2, dtype=torch.float64)).dtype == torch.complex128
    with pytest.raises(RuntimeError, match="last dimension of size 2"):
        torch.view_as_complex(torch.zeros(3))
    with pytest.raises(RuntimeError, match="last dimension with stride 1"):
        torch.view_as_complex(torch.zeros(2, 3).t())
    with pytest.raises(RuntimeError, match="only supported for complex tensors"):
        torch.view_as_real(torch.zeros(3))
    with pytest.raises(RuntimeError, match="only supported for half, float and double tensors"):
        torch.view_as_complex(torch.zeros(3, 2, dtype=torch.int64))
    with pytest.raises(RuntimeError, match="imag is not implemented for tensors with non-complex dtypes"):
        torch.zeros(2).imag


def test_made_from_python_numbers_and_converted():
    z = torch.tensor([1 + 2j, 3.5 - 1j, 2])
    assert z.dtype == torch.complex64 and z.tolist() == [1 + 2j, 3.5 - 1j, 2 + 0j]
    assert torch.tensor(1 + 2j).item() == 1 + 2j and complex(torch.tensor([2j])) == 2j
    assert torch.tensor([[1j]], dtype=torch.complex128).dtype == torch.complex128
    assert torch.tensor([1, 2], dtype=torch.complex64).tolist() == [1 + 0j, 2 + 0j]
    assert torch.zeros(2, dtype=torch.cfloat).tolist() == [0j, 0j] and torch.ones(1, dtype=torch.cdouble).item() == 1
    assert torch.full((2,), 3.0, dtype=torch.complex64).tolist() == [3 + 0j, 3 + 0j]
    assert torch.arange(3.0).to(torch.complex64).tolist() == [0j, 1 + 0j, 2 + 0j]
    assert z.to(torch.complex128).to(torch.complex32).to(torch.complex64).tolist() == z.tolist()
    with pytest.warns(UserWarning, match="discards the imaginary part"):
        assert z.to(torch.float32).tolist() == [1.0, 3.5, 2.0]
    with pytest.raises(TypeError, match="must be real number, not complex"):
        torch.tensor([1j], dtype=torch.float32)
    assert z.type() == "torch.ComplexFloatTensor" and torch.is_complex(z) and z.is_complex()
    assert not z.is_floating_point() and not torch.is_complex(torch.zeros(1))


def test_copies_views_and_concatenation_move_complex_values():
    z = torch.tensor([[1 + 1j, 2 - 2j, 3j], [4, 5 + 5j, -6j]], dtype=torch.complex128)
    assert z.t().contiguous().tolist() == [list(col) for col in zip(*z.tolist())]
    assert torch.cat([z, z], 1).shape == (2, 6) and torch.stack([z, z]).tolist() == [z.tolist()] * 2
    assert z.flip(1).tolist() == [row[::-1] for row in z.tolist()]
    assert z[1, 1:].tolist() == [5 + 5j, -6j] and z.reshape(3, 2).tolist()[2] == [5 + 5j, -6j]
    assert z.repeat(2, 1).shape == (4, 3) and z.unsqueeze(0).squeeze(0).tolist() == z.tolist()
    w = torch.empty(2, 3, dtype=torch.complex128)
    w.copy_(z.t().t())
    assert w.tolist() == z.tolist()
    w.fill_(2)
    assert w.tolist() == [[2 + 0j] * 3] * 2
    assert torch.conj(z).tolist() == [[v.conjugate() for v in row] for row in z.tolist()]


def test_arithmetic_is_refused_naming_the_op():
    """This torch's own: PyTorch computes with complex numbers; here every such op says it does not."""
    z = torch.tensor([1 + 2j])
    for name, run in [("add", lambda: z + z), ("mul", lambda: z * 2), ("sum", lambda: z.sum()),
                      ("exp", lambda: z.exp()), ("eq", lambda: z == z), ("normal_", lambda: torch.randn(
                          2, dtype=torch.complex64)), ("mm", lambda: torch.mm(z.reshape(1, 1), z.reshape(1, 1)))]:
        with pytest.raises(NotImplementedError, match=f'"{name}" not implemented for \'ComplexFloat\''):
            run()
    with pytest.raises(NotImplementedError, match="ComplexDouble"):
        torch.add(torch.zeros(2), 1, out=torch.zeros(2, dtype=torch.complex128))


def test_printed_as_pytorch_prints_them():
    assert repr(torch.tensor([1 + 2j, 3.5 - 1j])) == "tensor([1.0000+2.j, 3.5000-1.j])"
    assert repr(torch.tensor(2 - 1j)) == "tensor(2.-1.j)"
    assert repr(torch.tensor([[1 + 2j, -3.25j], [0, 1e-5 + 1j]], dtype=torch.complex128)) == (
        "tensor([[1.0000e+00+2.0000j, -0.0000e+00-3.2500j],\n"
        "        [0.0000e+00+0.0000j, 1.0000e-05+1.0000j]], dtype=torch.complex128)")
    assert repr(torch.zeros(0, dtype=torch.complex64)) == "tensor([], dtype=torch.complex64)"


def test_numpy_dlpack_and_save_round_trips():
    np = pytest.importorskip("numpy")
    z = torch.tensor([1 + 2j, -3j], dtype=torch.complex128)
    a = z.numpy()
    assert a.dtype == np.complex128 and a.tolist() == [1 + 2j, -3j]
    a[0] = 7  # shared
    assert z[0].item() == 7
    assert torch.from_numpy(np.array([1j], dtype=np.complex64)).dtype == torch.complex64
    assert torch.from_dlpack(z).tolist() == z.tolist() and torch.from_dlpack(z).dtype == torch.complex128
    buf = io.BytesIO()
    torch.save({"z": z, "h": torch.tensor([0.5j], dtype=torch.complex32)}, buf)
    buf.seek(0)
    back = torch.load(buf)
    assert back["z"].dtype == torch.complex128 and back["z"].tolist() == z.tolist()
    assert back["h"].dtype == torch.complex32 and back["h"].item() == 0.5j


def test_no_autograd_through_complex_values():  # this torch's own: PyTorch differentiates complex functions
    with pytest.raises(RuntimeError, match="floating point"):
        torch.zeros(2, dtype=torch.complex64).requires_grad_()


def test_warnings_can_be_errors():  # this torch warns each time; PyTorch once per process
    z = torch.tensor([1j])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(UserWarning, match="discards the imaginary part"):
            z.to(torch.float64)
