"""repr() in PyTorch's format."""
import torch


def test_hello_world_format():
    assert repr(torch.tensor([0.8506])) == "tensor([0.8506])"
    assert repr(torch.tensor(0.0223)) == "tensor(0.0223)"


def test_integer_valued_floats_and_ints():
    assert repr(torch.tensor([1.0, 2.0])) == "tensor([1., 2.])"
    assert repr(torch.tensor([1, 20])) == "tensor([ 1, 20])"
    assert repr(torch.tensor([True, False])) == "tensor([ True, False])"


def test_dtype_suffix_for_non_default_dtypes():
    assert repr(torch.tensor([1, 2], dtype=torch.int32)) == "tensor([1, 2], dtype=torch.int32)"
    assert repr(torch.tensor([1.5], dtype=torch.float64)) == "tensor([1.5000], dtype=torch.float64)"


def test_matrix_alignment():
    assert repr(torch.tensor([[1.5, -2.25], [10.0, 3.0]])) == "tensor([[ 1.5000, -2.2500],\n        [10.0000,  3.0000]])"


def test_scientific_notation():
    assert repr(torch.tensor([1e-5, 1.0])) == "tensor([1.0000e-05, 1.0000e+00])"


def test_empty_tensors():
    assert repr(torch.tensor([])) == "tensor([])"
    assert repr(torch.zeros(0, 3)) == "tensor([], size=(0, 3))"
    assert repr(torch.zeros(0, dtype=torch.int64)) == "tensor([], dtype=torch.int64)"


def test_summarised_large_tensor():
    assert repr(torch.ones(2000)) == "tensor([1., 1., 1.,  ..., 1., 1., 1.])"
    text = repr(torch.arange(10000).reshape(100, 100))
    assert text.startswith("tensor([[   0,    1,    2,  ...,   97,   98,   99],")
    assert "        ...,\n" in text
    assert text.endswith("[9900, 9901, 9902,  ..., 9997, 9998, 9999]])")


def test_long_vector_wraps_lines():
    text = repr(torch.arange(30.0))
    assert text.count("\n") == 2
    assert text.splitlines()[1].startswith("        ")


def test_named_tuples_print_a_field_per_line_as_pytorch():
    native = torch.tensor([3.0, 1.0]).sort()  # a type made by the binding (csrc/utils/wrap.cpp)
    assert repr(native) == "torch.return_types.sort(\nvalues=tensor([1., 3.]),\nindices=tensor([1, 0]))"
    assert type(native)._fields == ("values", "indices") and type(native).__module__ == "torch.return_types"
    composed = torch.tensor([3.0, 1.0]).median(0)  # a namedtuple made in Python
    assert repr(composed) == "torch.return_types.median(\nvalues=tensor(1.),\nindices=tensor(1))"
    assert torch.return_types is not None
