"""The rest of torch's everyday namespace: the torch.<name> forms of nn
functions (ATen's signatures: reduction as an int, batch_norm's argument
order), global switches and queries (deterministic algorithms, matmul
precision, interop threads, anomaly mode, the default device), dtype
helpers, and Tensor predicates. install() binds them."""
import warnings

import torch
import torch.nn.functional as F

_REDUCTION = {0: "none", 1: "mean", 2: "sum"}


def _reduction(value):
    return _REDUCTION[value] if isinstance(value, int) else value


# ---- torch.<nn function>, as ATen declares them -------------------------------------
def dropout(input, p, train):
    return F.dropout(input, p, train)


def dropout_(input, p, train):
    return F.dropout(input, p, train, inplace=True)


def feature_dropout(input, p, train):
    return F.dropout2d(input, p, train) if input.dim() in (3, 4) else F.dropout1d(input, p, train)


def feature_dropout_(input, p, train):
    return input.copy_(feature_dropout(input, p, train))


def alpha_dropout(input, p, train):
    return F.alpha_dropout(input, p, train)


def alpha_dropout_(input, p, train):
    return F.alpha_dropout(input, p, train, inplace=True)


def feature_alpha_dropout(input, p, train):
    return F.feature_alpha_dropout(input, p, train)


def feature_alpha_dropout_(input, p, train):
    return F.feature_alpha_dropout(input, p, train, inplace=True)


def celu(input, alpha=1.0):
    return F.celu(input, alpha)


def celu_(input, alpha=1.0):
    return F.celu(input, alpha, inplace=True)


def selu(input):
    return F.selu(input)


def selu_(input):
    return F.selu(input, inplace=True)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    return F.rrelu(input, lower, upper, training)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False, generator=None):
    return F.rrelu(input, lower, upper, training, inplace=True)


def threshold_(input, threshold, value):
    return F.threshold(input, threshold, value, inplace=True)


def prelu(input, weight):
    return F.prelu(input, weight)


def kl_div(input, target, reduction=1, *, log_target=False):
    return F.kl_div(input, target, reduction=_reduction(reduction), log_target=log_target)


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=1):
    return F.margin_ranking_loss(input1, input2, target, margin, reduction=_reduction(reduction))


def hinge_embedding_loss(input, target, margin=1.0, reduction=1):
    return F.hinge_embedding_loss(input, target, margin, reduction=_reduction(reduction))


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=1):
    return F.cosine_embedding_loss(input1, input2, target, margin, reduction=_reduction(reduction))


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, reduction=1):
    return F.triplet_margin_loss(anchor, positive, negative, margin, p, eps, swap, reduction=_reduction(reduction))


def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    return F.poisson_nll_loss(input, target, log_input, full, eps=eps, reduction=_reduction(reduction))


def binary_cross_entropy_with_logits(input, target, weight=None, pos_weight=None, reduction=1):
    return F.binary_cross_entropy_with_logits(input, target, weight, reduction=_reduction(reduction),
                                              pos_weight=pos_weight)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled):
    return F.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn_enabled):
    return F.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)


NN_FORMS = {name: globals()[name] for name in (
    "dropout", "dropout_", "feature_dropout", "feature_dropout_", "alpha_dropout", "alpha_dropout_",
    "feature_alpha_dropout", "feature_alpha_dropout_", "celu", "celu_", "selu", "selu_", "rrelu", "rrelu_",
    "threshold_", "prelu", "kl_div", "margin_ranking_loss", "hinge_embedding_loss",
    "cosine_embedding_loss", "triplet_margin_loss", "poisson_nll_loss", "binary_cross_entropy_with_logits",
    "batch_norm", "instance_norm")}
# Same arguments in torch and torch.nn.functional.
NN_SAME = ("bilinear", "cosine_similarity", "pairwise_distance", "pixel_shuffle", "pixel_unshuffle",
           "channel_shuffle", "conv_transpose1d", "conv_transpose2d", "max_pool1d", "max_pool2d",
           "max_pool3d", "max_pool1d_with_indices", "avg_pool1d", "adaptive_avg_pool1d")

# ---- global switches and queries ----------------------------------------------------
_state = {"deterministic": False, "deterministic_warn_only": False, "matmul_precision": "highest",
          "warn_always": False, "interop_threads": 1, "default_device": None}


def use_deterministic_algorithms(mode, *, warn_only=False):
    """Recorded; every kernel here is deterministic already (no atomics-based reductions)."""
    _state["deterministic"], _state["deterministic_warn_only"] = bool(mode), bool(warn_only)


def are_deterministic_algorithms_enabled():
    return _state["deterministic"]


def is_deterministic_algorithms_warn_only_enabled():
    return _state["deterministic_warn_only"]


def set_deterministic_debug_mode(debug_mode):
    modes = {"default": 0, "warn": 1, "error": 2}
    level = modes[debug_mode] if isinstance(debug_mode, str) else int(debug_mode)
    if level not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}")
    use_deterministic_algorithms(level > 0, warn_only=level == 1)


def get_deterministic_debug_mode():
    if not _state["deterministic"]:
        return 0
    return 1 if _state["deterministic_warn_only"] else 2


def set_float32_matmul_precision(precision):
    if precision not in ("highest", "high", "medium"):
        raise RuntimeError(f"Invalid precision {precision}, expected one of 'highest', 'high', 'medium'")
    _state["matmul_precision"] = precision


def get_float32_matmul_precision():
    return _state["matmul_precision"]


def set_warn_always(b):
    _state["warn_always"] = bool(b)


def is_warn_always_enabled():
    return _state["warn_always"]


def get_num_interop_threads():
    return _state["interop_threads"]


def set_num_interop_threads(num):
    if num <= 0:
        raise RuntimeError("Number of inter-op threads must be positive")
    _state["interop_threads"] = int(num)


def init_num_threads():
    pass


def compiled_with_cxx11_abi():
    return True


def set_flush_denormal(mode):
    return False  # not supported on this build, as on CPUs without the flag


def get_default_device():
    return torch.device(_state["default_device"] or "cpu")


def set_default_device(device):
    if device is not None and torch.device(device).type not in ("cpu", "cuda"):
        raise RuntimeError(f"set_default_device: unsupported device {device}")
    if device is not None and torch.device(device).type != "cpu":
        raise NotImplementedError("set_default_device: only 'cpu' is supported as the default device in this build; "
                                  "pass device= to factories instead")
    _state["default_device"] = None if device is None else str(torch.device(device))


def set_default_tensor_type(t):
    warnings.warn("torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
                  "torch.set_default_dtype() and torch.set_default_device() as alternatives.", UserWarning)
    name = t if isinstance(t, str) else t.__name__
    dtype = {"FloatTensor": torch.float32, "DoubleTensor": torch.float64, "torch.FloatTensor": torch.float32,
             "torch.DoubleTensor": torch.float64}.get(name)
    if dtype is None:
        raise TypeError(f"invalid type {name!r} for the default tensor type")
    torch.set_default_dtype(dtype)


def is_anomaly_enabled():
    return False


def is_anomaly_check_nan_enabled():
    return False


def set_anomaly_enabled(enabled, check_nan=True):
    """Anomaly detection (per-node NaN checks and forward traces) is not in this build's engine."""
    if enabled:
        raise NotImplementedError("anomaly detection (torch.autograd.detect_anomaly) is not supported by this build "
                                  "of torch")


def is_inference_mode_enabled():
    return torch.autograd.grad_mode.inference_mode.depth > 0


# ---- dtypes and objects ---------------------------------------------------------------
def typename(obj):
    if isinstance(obj, torch.Tensor):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    qualname = getattr(obj, "__qualname__", type(obj).__qualname__)
    return f"{module}.{qualname}" if module not in ("", "builtins") else qualname


def is_storage(obj):
    return isinstance(obj, (torch.UntypedStorage, torch.TypedStorage))


def is_complex(input):
    return input.dtype.is_complex


def can_cast(from_, to):
    """Whether the cast keeps the kind (bool < integer < floating < complex), as torch.can_cast."""
    def kind(dtype):
        return 3 if dtype.is_complex else 2 if dtype.is_floating_point else 0 if dtype == torch.bool else 1
    return kind(from_) <= kind(to)


def result_type(tensor1, tensor2):
    def as_tensor(x):
        return x if isinstance(x, torch.Tensor) else torch.tensor(x)
    # Python numbers rank below tensors, as the ops' promotion does.
    a, b = as_tensor(tensor1), as_tensor(tensor2)
    return (a.reshape(-1)[:0] + b.reshape(-1)[:0]).dtype if (a.dim() and b.dim()) else torch.add(
        tensor1 if isinstance(tensor1, torch.Tensor) else tensor1,
        tensor2 if isinstance(tensor2, torch.Tensor) else tensor2).dtype


def empty_strided(size, stride, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    result = torch._empty_strided(tuple(size), tuple(stride), dtype=dtype, device=device)
    return result.requires_grad_() if requires_grad else result


def fill(input, value):
    return torch.full_like(input, value) if not isinstance(value, torch.Tensor) else \
        torch.full_like(input, value.item())


_warned_readonly_buffer = False


def frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False):
    """A 1-D tensor sharing the memory of an object with the buffer protocol (bytes, bytearray, mmap...)."""
    global _warned_readonly_buffer
    from torch._buffer import BufferExport

    export = BufferExport(buffer)
    length, itemsize = export.nbytes, dtype.itemsize
    if length <= 0 or count == 0:
        raise ValueError(f"both buffer length ({length}) and count ({count}) must not be 0")
    if not 0 <= offset < length:
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than buffer length ({length} "
                         "bytes) minus 1")
    if count < 0:
        if (length - offset) % itemsize:
            raise ValueError(f"buffer length ({length - offset} bytes) after offset ({offset} bytes) must be a "
                             f"multiple of element size ({itemsize})")
        count = (length - offset) // itemsize
    elif count * itemsize > length - offset:
        raise ValueError(f"requested buffer length ({count} * {itemsize} bytes) after offset ({offset} bytes) must "
                         f"not be greater than actual buffer length ({length} bytes)")
    if export.readonly and not _warned_readonly_buffer:
        _warned_readonly_buffer = True
        warnings.warn("The given buffer is not writable, and PyTorch does not support non-writable tensors. This "
                      "means you can write to the underlying (supposedly non-writable) buffer using the tensor. You "
                      "may want to copy the buffer to protect its data or make it writable before converting it to a "
                      "tensor. This type of warning will be suppressed for the rest of this program.", UserWarning,
                      stacklevel=2)
    result = torch._C._from_address(export.address + offset, count * itemsize, export).view(dtype)
    return result.requires_grad_() if requires_grad else result


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    if isinstance(obj, (torch.UntypedStorage, torch.TypedStorage)):
        # The storage's bytes read as dtype, shared (a copy only when asked or on another device).
        typed = isinstance(obj, torch.TypedStorage)
        storage = obj.untyped() if typed else obj
        result = storage._as_tensor(dtype or (obj.dtype if typed else torch.get_default_dtype()))
        if copy or (device is not None and torch.device(device) != result.device):
            result = result.to(device=device or result.device, copy=True)
        return result.requires_grad_(requires_grad) if requires_grad else result
    if isinstance(obj, torch.Tensor) and not copy:
        result = obj if dtype is None else obj.to(dtype)
    else:
        result = torch.tensor(obj, dtype=dtype, device=device) if not isinstance(obj, torch.Tensor) else \
            obj.clone().to(dtype or obj.dtype)
    return result.requires_grad_(requires_grad) if requires_grad else result


def detach(input):
    return input.detach()


def detach_(input):
    return input.detach_()


def conj_physical(input):
    """The complex conjugate as a new tensor; a real tensor is returned as it is, as in PyTorch."""
    if not input.dtype.is_complex:
        return input
    result = input.clone()
    torch.view_as_real(result).select(-1, 1).neg_()
    return result


def conj(input):
    """PyTorch returns a lazily conjugated view; here a complex input gives a conjugated copy."""
    return conj_physical(input)


def resolve_conj(input):
    return input


def resolve_neg(input):
    return input


def adjoint(input):
    return conj(input.mT)


def real(input):
    return torch.view_as_real(input).select(-1, 0) if input.dtype.is_complex else input


def imag(input):
    if not input.dtype.is_complex:
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return torch.view_as_real(input).select(-1, 1)


FUNCTIONS = {name: globals()[name] for name in (
    "use_deterministic_algorithms", "are_deterministic_algorithms_enabled",
    "is_deterministic_algorithms_warn_only_enabled", "set_deterministic_debug_mode", "get_deterministic_debug_mode",
    "set_float32_matmul_precision", "get_float32_matmul_precision", "set_warn_always", "is_warn_always_enabled",
    "get_num_interop_threads", "set_num_interop_threads", "init_num_threads", "compiled_with_cxx11_abi",
    "set_flush_denormal", "get_default_device", "set_default_device", "set_default_tensor_type",
    "is_anomaly_enabled", "is_anomaly_check_nan_enabled", "set_anomaly_enabled", "is_inference_mode_enabled",
    "typename", "is_storage", "is_complex", "can_cast", "result_type", "empty_strided", "fill", "frombuffer",
    "asarray", "detach", "detach_", "conj", "conj_physical", "resolve_conj", "resolve_neg", "adjoint",
    "real", "imag")}


# ---- Tensor predicates and helpers ------------------------------------------------------
def _is_nonzero(self):
    if self.numel() != 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous" if self.numel() else
                           "Boolean value of Tensor with no values is ambiguous")
    return bool(self.item() != 0)


TENSOR_METHODS = {
    "is_inference": lambda self: False,
    "is_conj": lambda self: False,
    "is_neg": lambda self: False,
    "is_nonzero": _is_nonzero,
    "is_same_size": lambda self, other: self.shape == other.shape,
    "is_signed": lambda self: self.dtype.is_signed,
    "get_device": lambda self: self.device.index if self.device.type == "cuda" else -1,
    "new_empty_strided": lambda self, size, stride, *, dtype=None, device=None, requires_grad=False:
        empty_strided(size, stride, dtype=dtype or self.dtype, device=device or self.device,
                      requires_grad=requires_grad),
    "sum_to_size": lambda self, *size: _sum_to_size(self, size[0] if len(size) == 1 and not isinstance(
        size[0], int) else size),
    "resize_as": lambda self, other: self.clone().resize_(other.shape),
    "resize_as_": lambda self, other: self.resize_(other.shape),
    "unsafe_chunk": lambda self, chunks, dim=0: self.chunk(chunks, dim),
    "unsafe_split": lambda self, split_size, dim=0: self.split(split_size, dim),
    "isclose": lambda self, other, rtol=1e-05, atol=1e-08, equal_nan=False: torch.isclose(self, other, rtol, atol,
                                                                                          equal_nan),
    "prelu": lambda self, weight: F.prelu(self, weight),
    "conj": conj,
    "conj_physical": conj_physical,
    "resolve_conj": lambda self: self,
    "resolve_neg": lambda self: self,
    "adjoint": adjoint,
    "positive": lambda self: torch.positive(self),
    "fill_diagonal_": lambda self, fill_value, wrap=False: _fill_diagonal_(self, fill_value, wrap),
    "share_memory_": lambda self: self,
    "is_shared": lambda self: False,
    "apply_": lambda self, callable: _apply_(self, callable),
    "map_": lambda self, tensor, callable: _map_(self, tensor, callable),
}


# torch.<name> forms of these predicates and helpers, as PyTorch has them.
TORCH_FORMS_OF_METHODS = ("is_inference", "is_conj", "is_neg", "is_nonzero", "is_same_size", "is_signed", "get_device",
                          "unsafe_chunk", "unsafe_split", "resize_as_")


def _sum_to_size(self, size):
    size = tuple(size)
    lead = self.dim() - len(size)
    dims = list(range(lead)) + [lead + i for i, s in enumerate(size) if s == 1 and self.shape[lead + i] != 1]
    result = self.sum(dims, keepdim=True) if dims else self
    return result.reshape(size)


def _fill_diagonal_(self, fill_value, wrap):
    """The main diagonal set to fill_value; for a tall matrix with wrap=True it
    restarts below, as numpy's fill_diagonal: every (cols + 1)-th element.
    One strided view filled in place (the diagonal's stride is the sum of
    the dims' strides), no index tensor."""
    if self.dim() < 2:
        raise RuntimeError("dimensions must larger than 1")
    if self.dim() > 2 and len(set(self.shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    rows, cols = self.shape[0], self.shape[1]
    if self.dim() == 2 and wrap and rows > cols + 1:
        # Every (cols + 1)-th element of the row-major order: a stride over a contiguous buffer.
        target = self if self.is_contiguous() else self.contiguous()
        count = (rows * cols + cols) // (cols + 1)
        target.as_strided((count,), (cols + 1,), target.storage_offset()).fill_(fill_value)
        if target is not self:
            self.copy_(target)
        return self
    count = min(self.shape)
    self.as_strided((count,), (sum(self.stride()),), self.storage_offset()).fill_(fill_value)
    return self


def _apply_(self, fn):
    if self.device.type != "cpu":
        raise TypeError("apply_ is only implemented on CPU tensors")
    values = [fn(v) for v in self.reshape(-1).tolist()]
    return self.copy_(torch.tensor(values, dtype=self.dtype).reshape(self.shape))


def _map_(self, tensor, fn):
    other = tensor.expand(self.shape).reshape(-1).tolist()
    values = [fn(a, b) for a, b in zip(self.reshape(-1).tolist(), other)]
    return self.copy_(torch.tensor(values, dtype=self.dtype).reshape(self.shape))


def install(torch_module):
    for name, fn in NN_FORMS.items():
        setattr(torch_module, name, fn)
    for name in NN_SAME:
        setattr(torch_module, name, getattr(F, name))
    for name, fn in FUNCTIONS.items():
        setattr(torch_module, name, fn)
    for name, fn in TENSOR_METHODS.items():
        setattr(torch_module.Tensor, name, fn)
    for name in TORCH_FORMS_OF_METHODS:
        setattr(torch_module, name, TENSOR_METHODS[name])
