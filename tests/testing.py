"""The one comparison helper: a tensor against its numpy reference."""
import numpy as np

import torch

NUMPY_DTYPE = {
    torch.bool: np.bool_,
    torch.uint8: np.uint8,
    torch.int8: np.int8,
    torch.int16: np.int16,
    torch.int32: np.int32,
    torch.int64: np.int64,
    torch.float32: np.float32,
    torch.float64: np.float64,
}

# (rtol, atol) by the dtype of the result
TOLERANCE = {torch.float32: (1.3e-6 * 10, 1e-5), torch.float64: (1e-7, 1e-7)}


def to_torch(value, dtype=None):
    """A numpy array (or number) as a tensor, built through Python lists so
    the test does not depend on numpy interop."""
    arr = np.asarray(value)
    if dtype is None:
        dtype = {v: k for k, v in NUMPY_DTYPE.items()}[arr.dtype.type]
    # Flat then reshaped: nested lists lose shapes with a zero in them.
    return torch.tensor(arr.reshape(-1).tolist(), dtype=dtype).reshape(arr.shape)


def to_numpy(t):
    return np.array(t.tolist(), dtype=NUMPY_DTYPE[t.dtype]).reshape(tuple(t.shape))


def noncontiguous(t):
    """The same values in a tensor whose every dimension has a doubled stride."""
    big = torch.zeros(*t.shape, 2, dtype=t.dtype)
    big[..., 0] = t
    view = big[..., 0]
    assert t.numel() <= 1 or not view.is_contiguous()
    return view


def assert_matches(actual, expected, dtype=None, rtol=None, atol=None):
    """`actual` (a tensor) equals `expected` (numpy) in shape, dtype and value."""
    assert isinstance(actual, torch.Tensor), f"expected a Tensor, got {type(actual).__name__}"
    expected = np.asarray(expected)
    assert tuple(actual.shape) == expected.shape, f"shape {tuple(actual.shape)} != {expected.shape}"
    if dtype is not None:
        assert actual.dtype == dtype, f"dtype {actual.dtype} != {dtype}"
    got = to_numpy(actual)
    if actual.dtype.is_floating_point:
        default_rtol, default_atol = TOLERANCE[actual.dtype]
        np.testing.assert_allclose(
            got.astype(np.float64),
            expected.astype(np.float64),
            rtol=default_rtol if rtol is None else rtol,
            atol=default_atol if atol is None else atol,
            equal_nan=True,
        )
    else:
        np.testing.assert_array_equal(got, expected.astype(got.dtype))
