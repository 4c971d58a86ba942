"""Layer functions of torch.nn.functional written from other ops:
normalisations, pixel and channel shuffles, padding modes, 1-D/3-D and
adaptive pooling, interpolation, transposed and 3-D convolutions, fold and
unfold, bilinear, embedding bags and alpha dropout. Their gradients come
from the ops they call."""
import math

import torch


def _tuple(value, n):
    return (value,) * n if isinstance(value, int) else tuple(value)


# ---- normalisation ----------------------------------------------------------
def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """torch.group_norm's kernel (native/GroupNorm.cpp) after PyTorch's Python-level checks."""
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    # PyTorch's _verify_batch_size on [N * C // G, G, *spatial]: one value per group is an error.
    if input.shape[0] * input.shape[1] // num_groups * math.prod(input.shape[2:]) == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size "
                         f"{[input.shape[0] * input.shape[1] // num_groups, num_groups] + list(input.shape[2:])}")
    return torch.group_norm(input, num_groups, weight, bias, eps)


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    dims = tuple(range(2, input.dim()))
    c = input.shape[1]
    shape = (1, c) + (1,) * (input.dim() - 2)
    if use_input_stats:
        mean = input.mean(dims, keepdim=True)
        var = input.var(dims, unbiased=False, keepdim=True)
        if running_mean is not None:
            with torch.no_grad():
                count = math.prod(input.shape[2:])
                running_mean.mul_(1 - momentum).add_(mean.mean(0).reshape(-1), alpha=momentum)
                unbiased = input.var(dims, unbiased=True) if count > 1 else var.reshape(input.shape[:2])
                running_var.mul_(1 - momentum).add_(unbiased.mean(0).reshape(-1), alpha=momentum)
    else:
        mean, var = running_mean.reshape(shape), running_var.reshape(shape)
    out = (input - mean) / (var + eps).sqrt()
    if weight is not None:
        out = out * weight.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    return out


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    if input.dim() < 3:
        raise ValueError(f"Expected 3D or higher dimensionality input (got {input.dim()} dimensions)")
    if input.numel() == 0:
        return input
    # The mean of squares over a window of `size` channels, zero-padded as PyTorch pads it.
    sq = input * input
    padded = torch.cat([sq.new_zeros((sq.shape[0], size // 2) + sq.shape[2:]), sq,
                        sq.new_zeros((sq.shape[0], (size - 1) // 2) + sq.shape[2:])], 1)
    window = sum(padded.narrow(1, i, input.shape[1]) for i in range(size)) / size
    return input / (window * alpha + k) ** beta


def rms_norm(input, normalized_shape, weight=None, eps=None):
    shape = _tuple(normalized_shape, 1)
    if tuple(input.shape[input.dim() - len(shape):]) != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape [*, "
                           f"{', '.join(map(str, shape))}], but got input of size{list(input.shape)}")
    eps = torch.finfo(input.dtype).eps if eps is None else eps
    dims = tuple(range(-len(shape), 0))
    out = input * (input.pow(2).mean(dims, keepdim=True) + eps).rsqrt()
    return out * weight if weight is not None else out


# ---- shuffles -----------------------------------------------------------------
def pixel_shuffle(input, upscale_factor):
    r = upscale_factor
    if input.dim() < 3:
        raise RuntimeError(f"pixel_shuffle expects input to have at least 3 dimensions, but got input with "
                           f"{input.dim()} dimension(s)")
    c, h, w = input.shape[-3:]
    if c % (r * r):
        raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                           f"upscale_factor, but input.size(-3)={c} is not divisible by {r * r}")
    lead = tuple(input.shape[:-3])
    x = input.reshape(lead + (c // (r * r), r, r, h, w))
    n = len(lead)
    x = x.permute(tuple(range(n)) + (n, n + 3, n + 1, n + 4, n + 2))
    return x.reshape(lead + (c // (r * r), h * r, w * r))


def pixel_unshuffle(input, downscale_factor):
    r = downscale_factor
    if input.dim() < 3:
        raise RuntimeError(f"pixel_unshuffle expects input to have at least 3 dimensions, but got input with "
                           f"{input.dim()} dimension(s)")
    c, h, w = input.shape[-3:]
    if h % r or w % r:
        which, size = ("height", h) if h % r else ("width", w)
        raise RuntimeError(f"pixel_unshuffle expects {which} to be divisible by downscale_factor, but input.size"
                           f"({-2 if which == 'height' else -1})={size} is not divisible by {r}")
    lead = tuple(input.shape[:-3])
    n = len(lead)
    x = input.reshape(lead + (c, h // r, r, w // r, r))
    x = x.permute(tuple(range(n)) + (n, n + 2, n + 4, n + 1, n + 3))
    return x.reshape(lead + (c * r * r, h // r, w // r))


def channel_shuffle(input, groups):
    n, c = input.shape[:2]
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of groups:{groups}")
    if c % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {c} channels and {groups} groups.")
    rest = tuple(input.shape[2:])
    return input.reshape((n, groups, c // groups) + rest).transpose(1, 2).reshape(input.shape)


# ---- padding ------------------------------------------------------------------
_PAD_OPS = {"reflect": ("reflection_pad1d", "reflection_pad2d", "reflection_pad3d"),
            "replicate": ("replication_pad1d", "replication_pad2d", "replication_pad3d")}


def pad(input, pad, mode="constant", value=None):
    if mode in ("reflect", "replicate", "circular"):
        if value is not None and value != 0:
            raise RuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument")
        return pad_modes(input, pad, mode)
    if mode != "constant":
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension but got "
                           f"padding length {len(pad)} and input of dimension {input.dim()}")
    return torch.constant_pad_nd(input, list(pad), 0 if value is None else value)


def pad_modes(input, pad, mode):
    """reflect, replicate and circular padding: PyTorch's ops for them (native/Padding.cpp), which check each
    padded dim against the mode; first F.pad's own checks, in PyTorch's words."""
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    n = len(pad) // 2
    if n > input.dim():
        raise RuntimeError("Padding length should be less than or equal to two times the input dimension but got "
                           f"padding length {len(pad)} and input of dimension {input.dim()}")
    if input.dim() not in (n + 1, n + 2) or not 1 <= n <= 3:
        raise NotImplementedError(
            f"Padding size {len(pad)} is not supported for {input.dim()}D input tensor.\n"
            "Supported combinations for non-constant padding:\n"
            "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
            "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
            "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)")
    pad = [int(p) for p in pad]
    if mode == "circular":
        return torch._C._nn._pad_circular(input, pad)
    return getattr(torch._C._nn, _PAD_OPS[mode][n - 1])(input, pad)


# ---- pooling ------------------------------------------------------------------
def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    from torch.nn._functional_core import avg_pool2d
    k, s, p = _tuple(kernel_size, 1)[0], _tuple(kernel_size if stride is None else stride, 1)[0], _tuple(padding, 1)[0]
    return avg_pool2d(input.unsqueeze(-2), (1, k), (1, s), (0, p), ceil_mode, count_include_pad).squeeze(-2)


def _pool3d_split(input):
    unbatched = input.dim() == 4
    x = input.unsqueeze(0) if unbatched else input
    if x.dim() != 5:
        raise RuntimeError(f"Expected 4D or 5D input, but got a {input.dim()}D input")
    return x, unbatched


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    from torch.nn._functional_core import _check_pool_dtype, _window_counts, avg_pool2d
    k, p = _tuple(kernel_size, 3), _tuple(padding, 3)
    s = _tuple(k if stride is None else stride, 3)
    x, unbatched = _pool3d_split(input)
    n, c, d, h, w = x.shape
    if d < k[0] or h < k[1] or w < k[2]:  # PyTorch's avg_pool3d alone checks the unpadded input
        raise RuntimeError(f"input image (T: {d} H: {h} W: {w}) smaller than kernel size "
                           f"(kT: {k[0]} kH: {k[1]} kW: {k[2]})")
    _check_pool_dtype(x, "avg_pool3d_out_frame")
    integral = not x.is_floating_point()
    # A box mean is separable (so is its divisor, a product of per-dim
    # counts): height and width first, then depth. divisor_override divides
    # the sums; int64 sums exactly, then divides once, truncating.
    over = 1 if divisor_override or integral else None
    hw = avg_pool2d(x.reshape(n, c * d, h, w), k[1:], s[1:], p[1:], ceil_mode, count_include_pad, over)
    oh, ow = hw.shape[-2:]
    depth = avg_pool2d(hw.reshape(n, c, d, oh * ow), (k[0], 1), (s[0], 1), (p[0], 0), ceil_mode, count_include_pad,
                       over)
    out = depth.reshape(n, c, -1, oh, ow)
    if integral:
        divisor = divisor_override
        if not divisor:
            cd, ch, cw = (_window_counts(size, k[i], s[i], p[i], o, count_include_pad, x.device)
                          for i, (size, o) in enumerate(zip((d, h, w), out.shape[-3:])))
            divisor = (cd[:, None, None] * ch[None, :, None] * cw[None, None, :]).to(torch.int64)
        out = torch.div(out, divisor, rounding_mode="trunc")
    elif divisor_override:
        out = out / divisor_override
    return out.squeeze(0) if unbatched else out


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    from torch.nn._functional_core import max_pool2d
    no_stride = stride is None or (not isinstance(stride, int) and len(stride) == 0)
    if return_indices or (input.requires_grad and torch.is_grad_enabled()):
        # One 3-D kernel that records where each maximum came from (native/MaxPool3d.cpp).
        out, indices = torch._C._nn.max_pool3d_with_indices(input, kernel_size, [] if no_stride else stride,
                                                            padding, dilation, ceil_mode)
        return (out, indices) if return_indices else out
    k, p, dl = _tuple(kernel_size, 3), _tuple(padding, 3), _tuple(dilation, 3)
    s = _tuple(k if no_stride else stride, 3)
    x, unbatched = _pool3d_split(input)
    n, c, d, h, w = x.shape
    # The values alone: a window's maximum is separable, height and width first, then depth.
    hw = max_pool2d(x.reshape(n, c * d, h, w), k[1:], s[1:], p[1:], dl[1:], ceil_mode)
    oh, ow = hw.shape[-2:]
    depth = max_pool2d(hw.reshape(n, c, d, oh * ow), (k[0], 1), (s[0], 1), (p[0], 0), (dl[0], 1), ceil_mode)
    out = depth.reshape(n, c, -1, oh, ow)
    return out.squeeze(0) if unbatched else out


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return max_pool3d(input, kernel_size, stride, padding, dilation, ceil_mode, True)


# The kernel names in PyTorch's dtype errors (its 1-D pools run the 2-D kernel).
_ADAPTIVE_KERNEL = {"adaptive_avg_pool1d": "adaptive_avg_pool2d", "adaptive_avg_pool2d": "adaptive_avg_pool2d",
                    "adaptive_avg_pool3d": "adaptive_avg_pool3d_cpu", "adaptive_max_pool1d": "adaptive_max_pool2d",
                    "adaptive_max_pool2d": "adaptive_max_pool2d", "adaptive_max_pool3d": "adaptive_max_pool3d_cpu"}


def _adaptive_dim(x, dim, target, mean):
    """Adaptive pooling along one dim (the bins are products, so the dims go
    one at a time): bin i covers [floor(i L / T), ceil((i + 1) L / T)). Equal
    bins are a reshape; means of others a matmul; the rest gather each bin
    padded to the widest with its last element (which changes no max; a mean
    counts only the bin's own)."""
    size = x.shape[dim]
    if target == 0:
        return x.narrow(dim, 0, 0)
    if size % target == 0:
        grouped = x.unflatten(dim, (target, size // target))
        return grouped.mean(dim + 1) if mean else grouped.amax(dim + 1)
    i = torch.arange(target, device=x.device)
    start = (i * size) // target
    end = ((i + 1) * size + target - 1) // target
    if mean and target <= 256 and size * target <= (1 << 22):
        # Uneven bins' means are a linear map: one matmul with a [size, target]
        # averaging matrix (BLAS), from the left for the second-last dim.
        spot = torch.arange(size, device=x.device).unsqueeze(1)
        average = ((spot >= start) & (spot < end)).to(x.dtype) / (end - start).to(x.dtype)
        if dim == x.dim() - 1:
            return x.matmul(average)
        if dim == x.dim() - 2:
            return average.t().matmul(x)
        return x.movedim(dim, -1).matmul(average).movedim(-1, dim)
    width = int((end - start).max())
    pos = start.unsqueeze(1) + torch.arange(width, device=x.device)
    gathered = x.index_select(dim, torch.minimum(pos, end.unsqueeze(1) - 1).reshape(-1)).unflatten(dim, (target, width))
    if not mean:
        return gathered.amax(dim + 1)
    shape = [1] * gathered.dim()
    shape[dim], shape[dim + 1] = target, width
    inside = (pos < end.unsqueeze(1)).to(x.dtype).reshape(shape)
    counts = (end - start).to(x.dtype).reshape(shape[:dim + 1] + shape[dim + 2:])
    return (gathered * inside).sum(dim + 1) / counts


def _adaptive(input, output_size, nd, mean, name):
    if input.dim() not in (nd + 1, nd + 2):
        raise RuntimeError(f"{name}(): Expected {nd + 1}D or {nd + 2}D tensor, but got {list(input.shape)}")
    if not input.is_floating_point():
        from torch._math_ops import _dtype_name  # (torch/_math_ops.py imports after nn)
        raise NotImplementedError(f"\"{_ADAPTIVE_KERNEL[name]}\" not implemented for '{_dtype_name(input.dtype)}'")
    shape, first = list(input.shape), 1
    if name == "adaptive_avg_pool1d":  # PyTorch's message shows the 2-D kernel's input
        shape, first = shape[:-1] + [1] + shape[-1:], 1
    for d in range(first, len(shape)):
        if shape[d] == 0:
            raise RuntimeError(f"{name.replace('avg_pool1d', 'avg_pool2d')}(): Expected input to have non-zero size "
                               f"for non-batch dimensions, but input has sizes {shape} with dimension {d} being empty")
    sizes = _tuple(output_size, nd)
    out = input
    for i, target in enumerate(sizes):
        dim = input.dim() - nd + i
        out = _adaptive_dim(out, dim, input.shape[dim] if target is None else target, mean)
    return out


def adaptive_avg_pool1d(input, output_size):
    return _adaptive(input, output_size, 1, True, "adaptive_avg_pool1d")


def adaptive_avg_pool2d(input, output_size):
    return _adaptive(input, output_size, 2, True, "adaptive_avg_pool2d")


def adaptive_avg_pool3d(input, output_size):
    return _adaptive(input, output_size, 3, True, "adaptive_avg_pool3d")


def _adaptive_max(input, output_size, nd, return_indices, name):
    """The CPU kernel (torch._C._nn.adaptive_max_pool2d/3d: values and the flat index of each in its plane;
    1-D through 2-D, as PyTorch does); elsewhere the composition, without indices."""
    if input.device.type != "cpu":
        if return_indices:
            raise NotImplementedError(f"{name}: return_indices=True is supported on the CPU only")
        return _adaptive(input, output_size, nd, False, name)
    sizes = _tuple(output_size, nd)
    if nd == 1:
        if input.dim() not in (2, 3):
            raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.dim()}-dimensional tensor for argument "
                               f"#1 'self' (while checking arguments for adaptive_max_pool1d)")
        for d in range(1, input.dim()):
            if input.shape[d] == 0:
                raise RuntimeError(f"adaptive_max_pool1d(): Expected input to have non-zero size for non-batch "
                                   f"dimensions, but input has sizes {list(input.shape)} with dimension {d} being "
                                   "empty")
        values, indices = torch._C._nn.adaptive_max_pool2d(
            input.unsqueeze(-2), [1, input.shape[-1] if sizes[0] is None else sizes[0]])
        values, indices = values.squeeze(-2), indices.squeeze(-2)
    else:
        lead = input.dim() - nd
        sizes = [input.shape[lead + i] if s is None and lead + i >= 0 else s for i, s in enumerate(sizes)]
        values, indices = getattr(torch._C._nn, name)(input, [-1 if s is None else s for s in sizes])
    return (values, indices) if return_indices else values


def adaptive_max_pool1d(input, output_size, return_indices=False):
    return _adaptive_max(input, output_size, 1, return_indices, "adaptive_max_pool1d")


def adaptive_max_pool2d(input, output_size, return_indices=False):
    return _adaptive_max(input, output_size, 2, return_indices, "adaptive_max_pool2d")


def adaptive_max_pool3d(input, output_size, return_indices=False):
    return _adaptive_max(input, output_size, 3, return_indices, "adaptive_max_pool3d")


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    """(values, indices) whatever return_indices says, as PyTorch's."""
    return _adaptive_max(input, output_size, 1, True, "adaptive_max_pool1d")


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    return _adaptive_max(input, output_size, 2, True, "adaptive_max_pool2d")


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    return _adaptive_max(input, output_size, 3, True, "adaptive_max_pool3d")


def _lp(out, norm_type, kernel_numel):
    return (out.sign() * out.abs().relu()).mul(kernel_numel).pow(1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    return _lp(avg_pool1d(input.pow(norm_type), kernel_size, stride, 0, ceil_mode), norm_type, kernel_size)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    from torch.nn._functional_core import avg_pool2d
    k = _tuple(kernel_size, 2)
    return _lp(avg_pool2d(input.pow(norm_type), k, stride, 0, ceil_mode), norm_type, k[0] * k[1])


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    k = _tuple(kernel_size, 3)
    return _lp(avg_pool3d(input.pow(norm_type), k, stride, 0, ceil_mode), norm_type, k[0] * k[1] * k[2])


# ---- interpolation ------------------------------------------------------------
_LINEAR = {"linear": 1, "bilinear": 2, "trilinear": 3}


def _source(out_size, in_size, scale, align_corners, mode, device):
    """Where each output position samples the input along one dim (PyTorch's coordinate maps)."""
    i = torch.arange(out_size, dtype=torch.float64, device=device)
    if mode in ("nearest", "nearest-exact"):
        ratio = in_size / out_size if scale is None else 1.0 / scale
        src = ((i + 0.5) * ratio).floor() if mode == "nearest-exact" else (i * ratio).floor()
        return src.clamp(max=in_size - 1).long()
    if align_corners:
        ratio = (in_size - 1) / (out_size - 1) if out_size > 1 else 0.0
        return i * ratio
    ratio = in_size / out_size if scale is None else 1.0 / scale
    return ((i + 0.5) * ratio - 0.5).clamp(min=0)


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None, recompute_scale_factor=None,
                antialias=False):
    nd = input.dim() - 2
    if nd < 1:
        raise ValueError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.dim()}D) for the input "
                         f"dimensions")
    if mode in ("nearest", "nearest-exact", "area") and align_corners is not None:
        raise ValueError("align_corners option can only be set with the interpolating modes: linear | bilinear | "
                         "bicubic | trilinear")
    if mode in _LINEAR and _LINEAR[mode] != nd:
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs {_LINEAR[mode] + 2}D input")
    if mode not in ("nearest", "nearest-exact", "area") and mode not in _LINEAR:
        raise NotImplementedError(f"interpolate: mode {mode!r} is not supported")
    if antialias:
        raise NotImplementedError("interpolate: antialias=True is not supported")
    if (size is None) == (scale_factor is None):
        raise ValueError("only one of size or scale_factor should be defined")
    in_sizes = tuple(input.shape[2:])
    if size is not None:
        out_sizes, scales = _tuple(size, nd), (None,) * nd
    else:
        scales = tuple(float(s) for s in _tuple(scale_factor, nd)) if not isinstance(scale_factor, float) \
            else (scale_factor,) * nd
        out_sizes = tuple(int(math.floor(n * s)) for n, s in zip(in_sizes, scales))
        if recompute_scale_factor:
            scales = (None,) * nd
    if mode == "area":
        return _adaptive(input, out_sizes, nd, lambda t, d: t.mean(d), "adaptive_avg_pool")
    if min(in_sizes) <= 0 or min(out_sizes) <= 0:  # PyTorch's upsample_{1,2,3}d_common_check
        names = "DHW"[3 - nd:]
        sizes_in = ", ".join(f"{n}: {v}" for n, v in zip(names, in_sizes))
        sizes_out = ", ".join(f"{n}: {v}" for n, v in zip(names, out_sizes))
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input ({sizes_in})"
                           f"{' and' if nd == 1 else ''} output ({sizes_out})")
    out = input
    for i in range(nd):
        dim = 2 + i
        src = _source(out_sizes[i], in_sizes[i], scales[i], align_corners, mode, input.device)
        if mode in ("nearest", "nearest-exact"):
            out = out.index_select(dim, src)
            continue
        low = src.floor().long().clamp(max=in_sizes[i] - 1)
        weight = (src - low.to(torch.float64)).to(out.dtype)
        out = torch._C._nn._interp_linear(out, dim, low, weight)  # one kernel: x[low] (1 - w) + x[low + 1] w
    return out


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


# ---- convolutions ---------------------------------------------------------------
def _dilate(x, dim, stride):
    """stride - 1 zeros between neighbours along dim (a transposed convolution's input)."""
    if stride == 1:
        return x
    n = x.shape[dim]
    zeros = torch.zeros_like(x.unsqueeze(dim + 1)).expand(*x.shape[:dim + 1], stride - 1, *x.shape[dim + 1:])
    inter = torch.cat([x.unsqueeze(dim + 1), zeros], dim + 1)  # (..., n, stride, ...)
    merged = inter.reshape(*x.shape[:dim], n * stride, *x.shape[dim + 1:])
    return merged.narrow(dim, 0, (n - 1) * stride + 1)


def _conv_transpose_col2im(x, weight, bias, stride, padding, output_padding, groups, dilation, nd):
    """PyTorch's CPU algorithm: the weight's transpose times the input gives
    each input pixel's kernel-sized contribution (one gemm per group, batched
    over N), which col2im (native/Im2Col.cpp) adds into place. No zeros are
    inserted between input pixels, so a stride of s costs no s^2 more work.
    1-D runs as 2-D with a height of 1."""
    if nd == 1:
        x, weight = x.unsqueeze(2), weight.unsqueeze(2)
        stride, padding, output_padding, dilation = (1,) + stride, (0,) + padding, (0,) + output_padding, (1,) + dilation
    n, c_in, h, w = x.shape
    c_out_g, kh, kw = weight.shape[1:]
    out_size = [(size - 1) * s - 2 * p + d * (k - 1) + op + 1
                for size, s, p, d, k, op in zip((h, w), stride, padding, dilation, (kh, kw), output_padding)]
    if min(out_size) <= 0:
        raise RuntimeError(f"Given input size per channel: ({h} x {w}). Calculated output size per channel: "
                           f"({out_size[0]} x {out_size[1]}). Output size is too small")
    # [G, C_out/G * kh * kw, C_in/G] @ [N, G, C_in/G, H * W]
    w_t = weight.reshape(groups, c_in // groups, c_out_g * kh * kw).transpose(1, 2)
    cols = torch.matmul(w_t, x.reshape(n, groups, c_in // groups, h * w))
    out = torch._C._nn.col2im(cols.reshape(n, groups * c_out_g * kh * kw, h * w), out_size, (kh, kw), dilation,
                              padding, stride)
    if bias is not None:
        out = out + bias.reshape(1, -1, 1, 1)
    return out.squeeze(2) if nd == 1 else out


def _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, nd):
    from torch.nn._functional_core import conv1d, conv2d
    unbatched = input.dim() == nd + 1
    x = input.unsqueeze(0) if unbatched else input
    stride, padding = _tuple(stride, nd), _tuple(padding, nd)
    output_padding, dilation = _tuple(output_padding, nd), _tuple(dilation, nd)
    k = tuple(weight.shape[2:])
    for i in range(nd):
        if output_padding[i] >= stride[i] and output_padding[i] >= dilation[i]:
            raise RuntimeError("output padding must be smaller than either stride or dilation, but got "
                               f"output_padding_height: {output_padding[i]} stride: {stride[i]} dilation: "
                               f"{dilation[i]}")
    # With a stride, col2im: the convolution below would run over s^2 times
    # the pixels, most of them inserted zeros. (At stride 1 that convolution
    # is the quicker of the two here.) col2im's blocks are the input's
    # pixels only while output_padding < stride.
    if x.device.type == "cpu" and x.dim() == nd + 2 and weight.dim() == nd + 2 and max(stride) > 1 and \
            all(op < s for op, s in zip(output_padding, stride)) and x.shape[1] == weight.shape[0] and \
            weight.shape[0] % groups == 0 and x.numel() > 0:
        out = _conv_transpose_col2im(x, weight, bias, stride, padding, output_padding, groups, dilation, nd)
        return out.squeeze(0) if unbatched else out
    for i in range(nd):
        x = _dilate(x, 2 + i, stride[i])
    pads = []
    for i in reversed(range(nd)):
        edge = dilation[i] * (k[i] - 1) - padding[i]
        pads += [edge, edge + output_padding[i]]
    x = pad(x, pads)
    # (C_in, C_out/g, k...) -> (C_out, C_in/g, k...), kernel flipped.
    c_in, c_out_g = weight.shape[:2]
    w = weight.reshape((groups, c_in // groups, c_out_g) + k).transpose(1, 2)
    w = w.reshape((groups * c_out_g, c_in // groups) + k).flip(tuple(range(2, 2 + nd)))
    conv = conv1d if nd == 1 else conv2d
    out = conv(x, w, bias, 1, 0, dilation, groups)
    return out.squeeze(0) if unbatched else out


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 1)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _conv_transpose(input, weight, bias, stride, padding, output_padding, groups, dilation, 2)


def _patch_weight(channels, kh, kw, dtype, device):
    """One-hot kernels: output channel c*kh*kw + t copies input channel c at kernel offset t."""
    eye = torch.eye(kh * kw, dtype=dtype, device=device).reshape(kh * kw, 1, kh, kw)
    return eye.repeat(channels, 1, 1, 1)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    from torch.nn._functional_core import conv2d
    if input.dim() not in (3, 4):
        raise NotImplementedError(f"Input Error: Only 3D or 4D input Tensors are supported (got {input.dim()}D)")
    if input.device.type == "cpu":  # im2col's one pass (native/Im2Col.cpp), as PyTorch's F.unfold
        return torch._C._nn.im2col(input, _tuple(kernel_size, 2), _tuple(dilation, 2), _tuple(padding, 2),
                                   _tuple(stride, 2))
    unbatched = input.dim() == 3
    x = input.unsqueeze(0) if unbatched else input
    kh, kw = _tuple(kernel_size, 2)
    c = x.shape[1]
    cols = conv2d(x, _patch_weight(c, kh, kw, x.dtype, x.device), None, stride, padding, dilation, c)
    out = cols.reshape(x.shape[0], c * kh * kw, -1)
    return out.squeeze(0) if unbatched else out


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    if input.dim() not in (2, 3):
        raise NotImplementedError(f"Input Error: Only unbatched (2D) or batched (3D) input Tensors are supported "
                                  f"(got {input.dim()}D)")
    unbatched = input.dim() == 2
    x = input.unsqueeze(0) if unbatched else input
    kh, kw = _tuple(kernel_size, 2)
    oh, ow = _tuple(output_size, 2)
    (dh, dw), (ph, pw), (sh, sw) = _tuple(dilation, 2), _tuple(padding, 2), _tuple(stride, 2)
    if x.shape[1] % (kh * kw):
        raise RuntimeError(f"Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
                           f"got input.size(1)={x.shape[1]} and kernel_size={(kh, kw)}")
    c = x.shape[1] // (kh * kw)
    bh = (oh + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    bw = (ow + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    if bh * bw != x.shape[2]:
        raise RuntimeError(f"Given output_size={(oh, ow)}, kernel_size={(kh, kw)}, dilation={(dh, dw)}, "
                           f"padding={(ph, pw)}, stride={(sh, sw)}, expected size of input's dimension 2 to match the "
                           f"calculated number of sliding blocks {bh} * {bw} = {bh * bw}, but got "
                           f"input.size(2)={x.shape[2]}.")
    if x.device.type == "cpu":  # col2im's one pass (native/Im2Col.cpp), as PyTorch's F.fold
        out = torch._C._nn.col2im(x, (oh, ow), (kh, kw), (dh, dw), (ph, pw), (sh, sw))
        return out.squeeze(0) if unbatched else out
    blocks = x.reshape(x.shape[0], c * kh * kw, bh, bw)
    extra = (oh + 2 * ph - ((bh - 1) * sh + dh * (kh - 1) + 1), ow + 2 * pw - ((bw - 1) * sw + dw * (kw - 1) + 1))
    out = conv_transpose2d(blocks, _patch_weight(c, kh, kw, x.dtype, x.device), None, (sh, sw), (ph, pw), 0, c,
                           (dh, dw))
    if extra != (0, 0):
            out = pad(out, (0, extra[1], 0, extra[0]))
    return out.squeeze(0) if unbatched else out


def bilinear(input1, input2, weight, bias=None):
    if input1.dim() != input2.dim():
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.dim()} and {input2.dim()}")
    if input1.shape[:-1] != input2.shape[:-1]:
        raise RuntimeError(f"bilinear(): input batch dimensions do not match: got {list(input1.shape[:-1])} and "
                           f"{list(input2.shape[:-1])}")
    out_features, in1, in2 = weight.shape
    lead = tuple(input1.shape[:-1])
    x1, x2 = input1.reshape(-1, in1), input2.reshape(-1, in2)
    mixed = (x1 @ weight.permute(1, 0, 2).reshape(in1, out_features * in2)).reshape(-1, out_features, in2)
    out = (mixed * x2.unsqueeze(1)).sum(-1)
    if bias is not None:
        out = out + bias
    return out.reshape(lead + (out_features,))


_BAG_MODES = {"sum": 0, "mean": 1, "max": 2}


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    """PyTorch's argument handling (2-D input as equal bags, padding_idx
    wrapped), then the native op (aten/src/ATen/native/EmbeddingBag.cpp)."""
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}")
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, then it must "
                         f"have the same shape as the input ({input.shape})")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError("if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             "fixed length sequences. However, found offsets of type {}".format(type(offsets)))
        offsets = torch.arange(0, input.numel(), input.shape[1], dtype=input.dtype, device=input.device)
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    if mode not in _BAG_MODES:
        raise ValueError(f"mode has to be one of sum, mean or max, but got {mode}")
    if max_norm is not None:
        raise NotImplementedError("embedding_bag: max_norm is not supported")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
                                  f"GitHub.")
    if padding_idx is not None:
        if not -weight.shape[0] <= padding_idx < weight.shape[0]:
            raise RuntimeError(f"padding_idx must be within the number of embeddings, {-weight.shape[0]} through "
                               f"{weight.shape[0] - 1}, but got {padding_idx}")
        padding_idx %= weight.shape[0]
    return torch._embedding_bag(weight, input, offsets, scale_grad_by_freq, _BAG_MODES[mode], sparse,
                                per_sample_weights, include_last_offset, -1 if padding_idx is None else padding_idx)[0]


# ---- dropout variants ---------------------------------------------------------
_ALPHA = 1.7580993408473766


def _alpha_drop(input, p, noise_shape, inplace):
    keep = torch.empty(noise_shape, dtype=input.dtype, device=input.device).bernoulli_(1 - p)
    a = 1.0 / math.sqrt((_ALPHA * _ALPHA * p + 1) * (1 - p))
    b = (keep - 1) * (_ALPHA * a) + _ALPHA * a * p
    out = input * (keep * a) + b
    return input.copy_(out) if inplace else out


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0 or input.numel() == 0:
        return input
    if p == 1.0:
        return input.mul_(0) if inplace else input * 0
    return _alpha_drop(input, p, input.shape, inplace)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0 or input.numel() == 0:
        return input
    if input.dim() < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    if p == 1.0:
        return input.mul_(0) if inplace else input * 0
    return _alpha_drop(input, p, tuple(input.shape[:2]) + (1,) * (input.dim() - 2), inplace)


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    uniform = torch.rand_like(logits)
    gumbels = -(-(uniform.clamp(min=torch.finfo(logits.dtype).tiny)).log()).log()
    soft = ((logits + gumbels) / tau).softmax(dim)
    if not hard:
        return soft
    index = soft.argmax(dim, keepdim=True)
    one_hot = torch.zeros_like(logits).scatter(dim, index, torch.ones_like(index, dtype=logits.dtype))
    return one_hot - soft.detach() + soft
