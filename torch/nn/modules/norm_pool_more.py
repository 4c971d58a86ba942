"""Normalisation, pooling, 3-D and transposed convolution, dropout and
embedding-bag modules beyond the first set, over their functional forms."""
import math

import torch
from torch.nn import functional as F
from torch.nn import init
from torch.nn.modules.batchnorm import _BatchNorm
from torch.nn.modules.conv import _ConvNd, _tuple
from torch.nn.modules.dropout import Dropout
from torch.nn.modules.module import Module
from torch.nn.parameter import Parameter


class BatchNorm3d(_BatchNorm):
    _input_dims = (5,)


class GroupNorm(Module):
    def __init__(self, num_groups, num_channels, eps=1e-5, affine=True, device=None, dtype=None):
        super().__init__()
        if num_channels % num_groups:
            raise ValueError("num_channels must be divisible by num_groups")
        self.num_groups, self.num_channels, self.eps, self.affine = num_groups, num_channels, eps, affine
        kw = {"device": device, "dtype": dtype}
        if affine:
            self.weight = Parameter(torch.ones(num_channels, **kw))
            self.bias = Parameter(torch.zeros(num_channels, **kw))
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)

    def forward(self, input):
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self):
        return f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}"


class _InstanceNorm(_BatchNorm):
    _dims = 1

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=False, track_running_stats=False, device=None,
                 dtype=None):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype)

    def forward(self, input):
        if input.dim() not in (self._dims + 1, self._dims + 2):
            raise ValueError(f"expected {self._dims + 1}D or {self._dims + 2}D input (got {input.dim()}D input)")
        unbatched = input.dim() == self._dims + 1
        x = input.unsqueeze(0) if unbatched else input
        use_input_stats = self.training or not self.track_running_stats
        out = F.instance_norm(x, self.running_mean, self.running_var, self.weight, self.bias, use_input_stats,
                              self.momentum if self.momentum is not None else 0.1, self.eps)
        return out.squeeze(0) if unbatched else out


class InstanceNorm1d(_InstanceNorm):
    _dims = 1


class InstanceNorm2d(_InstanceNorm):
    _dims = 2


class InstanceNorm3d(_InstanceNorm):
    _dims = 3


class LocalResponseNorm(Module):
    def __init__(self, size, alpha=1e-4, beta=0.75, k=1.0):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)


class RMSNorm(Module):
    def __init__(self, normalized_shape, eps=None, elementwise_affine=True, device=None, dtype=None):
        super().__init__()
        self.normalized_shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        self.eps, self.elementwise_affine = eps, elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(torch.ones(self.normalized_shape, device=device, dtype=dtype))
        else:
            self.register_parameter("weight", None)

    def forward(self, x):
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self):
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class _Pool(Module):
    def __init__(self, kernel_size, stride=None, padding=0, **options):
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride if stride is not None else kernel_size, padding
        self.__dict__.update(options)

    def extra_repr(self):
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


class AvgPool1d(_Pool):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__(kernel_size, stride, padding, ceil_mode=ceil_mode, count_include_pad=count_include_pad)

    def forward(self, input):
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode, self.count_include_pad)


class AvgPool3d(_Pool):
    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__(kernel_size, stride, padding, ceil_mode=ceil_mode, count_include_pad=count_include_pad,
                         divisor_override=divisor_override)

    def forward(self, input):
        return F.avg_pool3d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode, self.count_include_pad,
                            self.divisor_override)


class MaxPool3d(_Pool):
    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__(kernel_size, stride, padding, dilation=dilation, return_indices=return_indices,
                         ceil_mode=ceil_mode)

    def forward(self, input):
        return F.max_pool3d(input, self.kernel_size, self.stride, self.padding, self.dilation, self.ceil_mode,
                            self.return_indices)


class _AdaptivePool(Module):
    _function = None

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size, self.return_indices = output_size, return_indices

    def extra_repr(self):
        return f"output_size={self.output_size}"


class AdaptiveAvgPool1d(_AdaptivePool):
    def forward(self, input):
        return F.adaptive_avg_pool1d(input, self.output_size)


class AdaptiveAvgPool3d(_AdaptivePool):
    def forward(self, input):
        return F.adaptive_avg_pool3d(input, self.output_size)


class AdaptiveMaxPool1d(_AdaptivePool):
    def forward(self, input):
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool2d(_AdaptivePool):
    def forward(self, input):
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool3d(_AdaptivePool):
    def forward(self, input):
        return F.adaptive_max_pool3d(input, self.output_size, self.return_indices)


class _LPPool(Module):
    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type, self.kernel_size, self.stride, self.ceil_mode = norm_type, kernel_size, stride, ceil_mode

    def extra_repr(self):
        return f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, stride={self.stride}, " \
               f"ceil_mode={self.ceil_mode}"


class LPPool1d(_LPPool):
    def forward(self, input):
        return F.lp_pool1d(input, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class LPPool2d(_LPPool):
    def forward(self, input):
        return F.lp_pool2d(input, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class LPPool3d(_LPPool):
    def forward(self, input):
        return F.lp_pool3d(input, self.norm_type, self.kernel_size, self.stride, self.ceil_mode)


class Conv3d(_ConvNd):
    _dims = 3

    def forward(self, input):
        return F.conv3d(input, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class _ConvTransposeNd(_ConvNd):
    _transposed = True
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, device, dtype)
        self.output_padding = _tuple(output_padding, self._dims)

    def _output_padding(self, input, output_size):
        """The output_padding that makes the output output_size (its
        spatial sizes, or the whole shape), as PyTorch's modules take it."""
        if output_size is None:
            return self.output_padding
        nd = self._dims
        leading = 2 if input.dim() == nd + 2 else 1
        output_size = list(output_size)
        if len(output_size) == leading + nd:
            output_size = output_size[leading:]
        if len(output_size) != nd:
            raise ValueError(f"ConvTranspose{nd}D: for {input.dim()}D input, output_size must have {nd} or "
                             f"{leading + nd} elements (got {len(output_size)})")
        smallest = [(input.shape[leading + i] - 1) * self.stride[i] - 2 * self.padding[i]
                    + self.dilation[i] * (self.kernel_size[i] - 1) + 1 for i in range(nd)]
        largest = [smallest[i] + self.stride[i] - 1 for i in range(nd)]
        if any(not lo <= size <= hi for size, lo, hi in zip(output_size, smallest, largest)):
            raise ValueError(f"requested an output size of {output_size}, but valid sizes range from {smallest} "
                             f"to {largest} (for an input of {tuple(input.shape[leading:])})")
        return tuple(size - lo for size, lo in zip(output_size, smallest))


class ConvTranspose1d(_ConvTransposeNd):
    _dims = 1

    def forward(self, input, output_size=None):
        return F.conv_transpose1d(input, self.weight, self.bias, self.stride, self.padding,
                                  self._output_padding(input, output_size), self.groups, self.dilation)


class ConvTranspose2d(_ConvTransposeNd):
    _dims = 2

    def forward(self, input, output_size=None):
        return F.conv_transpose2d(input, self.weight, self.bias, self.stride, self.padding,
                                  self._output_padding(input, output_size), self.groups, self.dilation)


class Dropout3d(Dropout):
    def forward(self, input):
        return F.dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(Dropout):
    def forward(self, input):
        return F.alpha_dropout(input, self.p, self.training)  # PyTorch ignores inplace here


class FeatureAlphaDropout(Dropout):
    def forward(self, input):
        return F.feature_alpha_dropout(input, self.p, self.training)  # as PyTorch: no inplace


class EmbeddingBag(Module):
    def __init__(self, num_embeddings, embedding_dim, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
                 mode="mean", sparse=False, _weight=None, include_last_offset=False, padding_idx=None, device=None,
                 dtype=None):
        super().__init__()
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        self.max_norm, self.norm_type, self.scale_grad_by_freq = max_norm, norm_type, scale_grad_by_freq
        self.mode, self.sparse, self.include_last_offset = mode, sparse, include_last_offset
        if padding_idx is not None and padding_idx < 0:
            padding_idx += num_embeddings
        self.padding_idx = padding_idx
        if _weight is None:
            self.weight = Parameter(torch.empty((num_embeddings, embedding_dim), device=device, dtype=dtype))
            self.reset_parameters()
        else:
            self.weight = Parameter(_weight)

    def reset_parameters(self):
        init.normal_(self.weight)
        if self.padding_idx is not None:
            with torch.no_grad():
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input, offsets=None, per_sample_weights=None):
        return F.embedding_bag(input, self.weight, offsets, self.max_norm, self.norm_type, self.scale_grad_by_freq,
                               self.mode, self.sparse, per_sample_weights, self.include_last_offset, self.padding_idx)

    def extra_repr(self):
        return f"{self.num_embeddings}, {self.embedding_dim}, mode={self.mode!r}"
