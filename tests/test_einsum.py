"""torch.einsum (torch/_einsum.py) against numpy.einsum: the equation forms
PyTorch's documentation and attention code use, diagonals, ellipses,
broadcasting, empty and 0-d operands, the sublist form, gradients, and
PyTorch 2.13's error messages."""
import numpy as np
import pytest

import torch

RNG = np.random.default_rng(0)

CASES = [
    ("ij,jk->ik", [(2, 3), (3, 4)]), ("ij,jk", [(2, 3), (3, 4)]), ("ii->i", [(3, 3)]), ("ii", [(3, 3)]),
    ("ij->ji", [(2, 3)]), ("ij->", [(2, 3)]), ("i,i->", [(4,), (4,)]), ("i,j->ij", [(2,), (3,)]),
    ("bij,bjk->bik", [(5, 2, 3), (5, 3, 4)]), ("...ij,...jk", [(5, 2, 3), (3, 4)]),
    ("...ij,...jk->...ik", [(2, 1, 2, 3), (4, 3, 2)]), ("i...->...", [(2, 3, 4)]), ("iij->j", [(3, 3, 2)]),
    ("iji->j", [(3, 2, 3)]), ("ijk,ikl,jl->k", [(2, 3, 4), (2, 4, 5), (3, 5)]),
    ("bhqd,bhkd->bhqk", [(2, 3, 4, 5), (2, 3, 6, 5)]), ("bhqk,bhkd->bhqd", [(2, 3, 4, 6), (2, 3, 6, 5)]),
    ("ij,kj->ik", [(2, 3), (1, 1)]), ("bi,bi->b", [(2, 3), (1, 3)]), ("Ab,bA", [(2, 3), (3, 2)]), ("ba", [(2, 3)]),
    ("i,i", [(0,), (0,)]), ("ij,jk->ik", [(2, 0), (0, 4)]), ("ij,jk->ik", [(0, 3), (3, 4)]), ("", [()]),
    (",->", [(), ()]), ("i,->i", [(3,), ()]), ("a b , b c -> a c", [(2, 3), (3, 4)]),
    ("ijkl->lkji", [(2, 3, 4, 5)]), ("ij,ij,ij->i", [(3, 4), (3, 4), (3, 4)]), ("...,...->...", [(2, 3), (3,)]),
    ("i...i", [(3, 2, 3)]), ("ijj->ij", [(2, 3, 3)]), ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
]


@pytest.mark.parametrize("equation,shapes", CASES, ids=[f"{e or 'empty'}-{len(s)}" for e, s in CASES])
def test_matches_numpy(equation, shapes):
    arrays = [RNG.standard_normal(s) for s in shapes]
    ours = torch.einsum(equation, *[torch.tensor(a) for a in arrays])
    theirs = np.einsum(equation.replace(" ", ""), *arrays)
    assert ours.shape == theirs.shape
    np.testing.assert_allclose(ours.numpy(), theirs, rtol=1e-12, atol=1e-12)


def test_operand_list_sublist_form_and_torch_functional():
    a, b = torch.randn(2, 3), torch.randn(3, 4)
    expected = a @ b
    assert torch.allclose(torch.einsum("ij,jk->ik", [a, b]), expected)
    assert torch.allclose(torch.einsum(a, [0, 1], b, [1, 2], [0, 2]), expected)
    assert torch.allclose(torch.einsum(a, [0, 1], b, [1, 2]), expected)
    assert torch.allclose(torch.einsum(a, [Ellipsis, 1], b, [1, 2]), expected)
    assert torch.functional.einsum is torch.einsum
    assert torch.einsum("ij->j", torch.ones(2, 3, dtype=torch.int64)).tolist() == [2, 2, 2]


@pytest.mark.parametrize("equation,shapes", [
    ("ij,jk->ik", [(2, 3), (3, 4)]), ("bhqd,bhkd->bhqk", [(1, 2, 3, 2), (1, 2, 2, 2)]), ("ii->i", [(3, 3)]),
    ("...ij,...jk", [(2, 2, 3), (3, 2)]), ("ijk,ikl,jl->k", [(2, 3, 2), (2, 2, 2), (3, 2)]), ("bi,bi->b", [(2, 3), (1, 3)]),
])
def test_gradcheck(equation, shapes):
    inputs = tuple(torch.randn(*s, dtype=torch.float64, requires_grad=True) for s in shapes)
    assert torch.autograd.gradcheck(lambda *xs: torch.einsum(equation, *xs), inputs)


a, b = torch.randn(2, 3), torch.randn(3, 4)


@pytest.mark.parametrize("call,error,message", [
    (lambda: torch.einsum("ij,jk->ik", a), RuntimeError, "fewer operands were provided than specified"),
    (lambda: torch.einsum("ij->ik", a), RuntimeError, "output subscript k does not appear in the equation for any "
                                                      "input operand"),
    (lambda: torch.einsum("ij,jk->ik", a, b, b), RuntimeError, "more operands were provided than specified"),
    (lambda: torch.einsum("ijk,jk->ik", a, b), RuntimeError, r"the number of subscripts in the equation \(3\) does "
                                                             r"not match the number of dimensions \(2\) for operand 0"),
    (lambda: torch.einsum("ii", a), RuntimeError, "subscript i is repeated for operand 0 but the sizes don't match, "
                                                  "3 != 2"),
    (lambda: torch.einsum("i1", a), RuntimeError, "invalid subscript given at index 1 in the equation string, "
                                                  r"subscripts must be in \[a-zA-Z\]"),
    (lambda: torch.einsum("ij-k", a), RuntimeError, "invalid subscript given at index 2"),
    (lambda: torch.einsum("ij->ii", a), RuntimeError, "output subscript i appears more than once in the output"),
    (lambda: torch.einsum("ij,jk->ik", a, torch.ones(2, 4)), RuntimeError,
     "subscript j has size 2 for operand 1 which does not broadcast with previously seen size 3"),
    (lambda: torch.einsum("ij,jk->ik", a, b.double()), RuntimeError, "expected scalar type"),
    (lambda: torch.einsum("..i.", a), RuntimeError, "found '.' for operand 0 that is not part of any ellipsis"),
    (lambda: torch.einsum("ij", [1, 2]), TypeError, "operand 0 must be a Tensor"),
    (lambda: torch.einsum(a, [0, 60]), ValueError, r"expected subscript to be within the range \[0, 52\)"),
])
def test_errors_name_the_problem(call, error, message):
    with pytest.raises(error, match=message):
        call()
