"""Property tests: broadcasting of pointwise ops agrees with numpy for any compatible shapes."""
import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import torch
from testing import assert_matches, to_torch

shapes = hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=4, min_side=0, max_side=4)


@settings(max_examples=150, deadline=None)
@given(shapes=shapes, data=st.data())
def test_binary_ops_broadcast_like_numpy(shapes, data):
    (sa, sb), result = shapes.input_shapes, shapes.result_shape
    a = data.draw(hnp.arrays(np.float64, sa, elements=st.floats(-100, 100)))
    b = data.draw(hnp.arrays(np.float64, sb, elements=st.floats(-100, 100)))
    ta, tb = to_torch(a), to_torch(b)
    assert tuple((ta + tb).shape) == result
    assert_matches(ta + tb, a + b)
    assert_matches(ta * tb, a * b)
    assert_matches(torch.maximum(ta, tb), np.maximum(a, b))
    assert_matches(ta < tb, a < b)
    assert_matches(torch.where(ta > 0, ta, tb), np.where(a > 0, a, b))


@settings(max_examples=100, deadline=None)
@given(shapes=shapes)
def test_incompatible_shapes_raise(shapes):
    (sa, sb) = shapes.input_shapes
    # Make the last dim disagree, both sides larger than 1 (a 1 would broadcast).
    assume(sa and sb)
    if sa[-1] == 1:
        sa = (*sa[:-1], 2)
    bad = list(sb)
    bad[-1] = (sa[-1] if sa[-1] > 1 else 2) + 1
    try:
        torch.zeros(*sa) + torch.zeros(*bad)
    except RuntimeError as e:
        assert "must match the size of tensor b" in str(e)
    else:
        raise AssertionError(f"{sa} + {bad} should not broadcast")
