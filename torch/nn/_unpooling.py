"""F.max_unpool1d/2d/3d: the inverse of a max pool with return_indices.
The output size and its checks are worked out here, as in PyTorch's
torch.nn.functional; the native ops torch._C._nn.max_unpool2d/3d
(native/MaxUnpool.cpp) write each value at the flat index the pool
recorded, zeros elsewhere, and raise for an index outside the output."""
import torch
from torch.nn._layers import _tuple


def _unpool_output_size(input, kernel_size, stride, padding, output_size):
    """The output's spatial sizes: (in - 1) * stride - 2 * padding + kernel,
    or output_size (its last dims) when it lies within one stride of that."""
    nd = len(kernel_size)
    default = [(input.size(-nd + d) - 1) * stride[d] + kernel_size[d] - 2 * padding[d] for d in range(nd)]
    if output_size is None:
        return default
    output_size = list(output_size)
    if len(output_size) == nd + 2:
        output_size = output_size[2:]
    if len(output_size) != nd:
        raise ValueError(f"output_size should be a sequence containing {nd} or {nd + 2} elements, but it has a "
                         f"length of '{len(output_size)}'")
    for d in range(nd):
        low, high = default[d] - stride[d], default[d] + stride[d]
        if not low < output_size[d] < high:
            raise ValueError(f'invalid output_size "{tuple(output_size)}" (dim {d} must be between {low} and {high})')
    return output_size


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    k = _tuple(kernel_size, 1)
    s = k if stride is None else _tuple(stride, 1)
    size = _unpool_output_size(input, k, s, _tuple(padding, 1), output_size)
    # PyTorch runs the 2-D kernel on a trailing dim of one.
    return torch._C._nn.max_unpool2d(input.unsqueeze(-1), indices.unsqueeze(-1), list(size) + [1]).squeeze(-1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    k = _tuple(kernel_size, 2)
    s = k if stride is None else _tuple(stride, 2)
    return torch._C._nn.max_unpool2d(input, indices, _unpool_output_size(input, k, s, _tuple(padding, 2), output_size))


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    k = _tuple(kernel_size, 3)
    s = k if stride is None else _tuple(stride, 3)
    p = _tuple(padding, 3)
    return torch._C._nn.max_unpool3d(input, indices, _unpool_output_size(input, k, s, p, output_size), s, p)
