"""F.conv_transpose1d/2d against a direct numpy scatter (every input pixel
adds its kernel-weighted copy into the output), over strides, padding,
output_padding, dilation and groups; strided calls take the col2im path
(torch/nn/_layers.py), stride 1 the convolution of the padded input. Also
gradients (gradcheck) and nn.ConvTranspose2d's output_size."""
import itertools

import numpy as np
import pytest

import torch
import torch.nn.functional as F


def _reference(x, w, bias, stride, padding, output_padding, groups, dilation):
    n, c_in = x.shape[:2]
    spatial = x.shape[2:]
    c_out_g, ks = w.shape[1], w.shape[2:]
    size = [(s - 1) * st - 2 * p + d * (k - 1) + op + 1
            for s, st, p, d, k, op in zip(spatial, stride, padding, dilation, ks, output_padding)]
    out = np.zeros((n, c_out_g * groups, *size))
    c_in_g = c_in // groups
    for c in range(c_in):
        g = c // c_in_g
        for pos in itertools.product(*(range(s) for s in spatial)):
            for kpos in itertools.product(*(range(k) for k in ks)):
                target = [i * st - p + a * d for i, st, p, a, d in zip(pos, stride, padding, kpos, dilation)]
                if all(0 <= t < s for t, s in zip(target, size)):
                    index = (slice(None), slice(g * c_out_g, (g + 1) * c_out_g), *target)
                    out[index] += x[(slice(None), c, *pos)][:, None] * w[(c, slice(None), *kpos)][None, :]
    if bias is not None:
        out += bias.reshape((1, -1) + (1,) * len(spatial))
    return out


CASES = [
    # (input shape, weight shape, stride, padding, output_padding, groups, dilation)
    ((2, 4, 5, 6), (4, 3, 3, 3), (2, 2), (0, 0), (0, 0), 1, (1, 1)),
    ((2, 4, 5, 6), (4, 3, 3, 2), (2, 3), (1, 0), (1, 2), 1, (1, 1)),
    ((1, 4, 4, 4), (4, 2, 3, 3), (3, 2), (1, 2), (0, 1), 2, (2, 1)),
    ((2, 6, 3, 5), (6, 1, 2, 4), (2, 2), (0, 1), (1, 0), 3, (1, 2)),
    ((2, 4, 5, 6), (4, 3, 3, 3), (1, 1), (1, 1), (0, 0), 1, (1, 1)),
    ((1, 2, 3, 3), (2, 2, 2, 2), (1, 1), (0, 0), (1, 0), 1, (2, 1)),  # output_padding < dilation only
]


@pytest.mark.parametrize("case", CASES, ids=[f"stride{c[2]}-groups{c[5]}" for c in CASES])
@pytest.mark.parametrize("with_bias", [False, True])
def test_conv_transpose2d_matches_the_direct_scatter(case, with_bias):
    xs, ws, stride, padding, output_padding, groups, dilation = case
    rng = np.random.default_rng(0)
    x, w = rng.standard_normal(xs), rng.standard_normal(ws)
    bias = rng.standard_normal(ws[1] * groups) if with_bias else None
    got = F.conv_transpose2d(torch.tensor(x), torch.tensor(w), None if bias is None else torch.tensor(bias),
                             stride, padding, output_padding, groups, dilation)
    want = _reference(x, w, bias, stride, padding, output_padding, groups, dilation)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)
    # float32, and unbatched
    got32 = F.conv_transpose2d(torch.tensor(x[0], dtype=torch.float32), torch.tensor(w, dtype=torch.float32),
                               None if bias is None else torch.tensor(bias, dtype=torch.float32),
                               stride, padding, output_padding, groups, dilation)
    np.testing.assert_allclose(got32.numpy(), want[0], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("stride,padding,output_padding,dilation", [(3, 1, 2, 1), (2, 0, 1, 2), (1, 1, 0, 1)])
def test_conv_transpose1d_matches_the_direct_scatter(stride, padding, output_padding, dilation):
    rng = np.random.default_rng(1)
    x, w, b = rng.standard_normal((2, 4, 7)), rng.standard_normal((4, 3, 3)), rng.standard_normal(3)
    got = F.conv_transpose1d(torch.tensor(x), torch.tensor(w), torch.tensor(b), stride, padding, output_padding, 1,
                             dilation)
    want = _reference(x, w, b, (stride,), (padding,), (output_padding,), 1, (dilation,))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("stride,groups", [((2, 2), 1), ((2, 1), 2), ((1, 1), 1)])
def test_gradients_and_second_derivatives(stride, groups):
    rng = np.random.default_rng(2)
    x = torch.tensor(rng.standard_normal((2, 4, 3, 4)), requires_grad=True)
    w = torch.tensor(rng.standard_normal((4, 2, 3, 2)), requires_grad=True)
    b = torch.tensor(rng.standard_normal(2 * groups), requires_grad=True)

    def fn(x, w, b):
        return F.conv_transpose2d(x, w, b, stride, 1, (1, 0) if stride[0] > 1 else 0, groups)

    assert torch.autograd.gradcheck(fn, (x, w, b))
    if max(stride) > 1:  # matmul and col2im: differentiable twice
        assert torch.autograd.gradgradcheck(fn, (x, w, b))
    else:  # a convolution, whose gradient kernel records nothing
        with pytest.raises(NotImplementedError, match="second derivative through '_convolution_batched'"):
            torch.autograd.gradgradcheck(fn, (x, w, b))


def test_module_output_size_and_errors():
    m = torch.nn.ConvTranspose2d(3, 5, 3, stride=2, padding=1)
    x = torch.randn(1, 3, 8, 8)
    assert m(x).shape == (1, 5, 15, 15)
    assert m(x, output_size=(16, 16)).shape == (1, 5, 16, 16)
    assert m(x, output_size=[1, 5, 16, 15]).shape == (1, 5, 16, 15)
    assert m(x[0], output_size=(16, 16)).shape == (5, 16, 16)
    with pytest.raises(ValueError, match=r"valid sizes range from \[15, 15\] to \[16, 16\]"):
        m(x, output_size=(17, 16))
    m1 = torch.nn.ConvTranspose1d(3, 2, 4, stride=3)
    assert m1(torch.randn(2, 3, 5), output_size=(17,)).shape == (2, 2, 17)
    with pytest.raises(RuntimeError, match="output padding must be smaller than either stride or dilation"):
        F.conv_transpose2d(x, torch.randn(3, 5, 3, 3), stride=2, output_padding=2)
    with pytest.raises(RuntimeError):
        F.conv_transpose2d(torch.randn(1, 4, 8, 8), torch.randn(3, 5, 3, 3), stride=2)  # channels differ
