"""torch.Tensor: the Python class of every tensor.

Operators and most methods come from the C base class torch._C.TensorBase
(generated from native_functions.yaml); this class adds the Python protocols:
arithmetic operators, conversions, iteration and repr.
"""
import math

import torch
from torch import _C
from torch import _interop
from torch._tensor_str import _str

_base = _C.TensorBase
_base_item = _base.item
_functions = _C._VariableFunctions


class Tensor(_base):
    __add__ = __radd__ = _base.add
    __iadd__ = _base.add_
    __sub__ = _base.sub
    __isub__ = _base.sub_
    __mul__ = __rmul__ = _base.mul
    __imul__ = _base.mul_
    __truediv__ = _base.div
    __itruediv__ = _base.div_
    __pow__ = _base.pow
    __ipow__ = _base.pow_
    __matmul__ = _base.matmul
    __neg__ = _base.neg
    __abs__ = _base.abs
    __mod__ = _base.remainder
    __imod__ = _base.remainder_
    __eq__ = _base.eq
    __ne__ = _base.ne
    __lt__ = _base.lt
    __le__ = _base.le
    __gt__ = _base.gt
    __ge__ = _base.ge
    __and__ = __rand__ = _base.bitwise_and
    __or__ = __ror__ = _base.bitwise_or
    __xor__ = __rxor__ = _base.bitwise_xor
    __iand__ = _base.bitwise_and_
    __ior__ = _base.bitwise_or_
    __ixor__ = _base.bitwise_xor_
    __lshift__ = _base.bitwise_left_shift
    __rshift__ = _base.bitwise_right_shift
    __ilshift__ = _base.bitwise_left_shift_
    __irshift__ = _base.bitwise_right_shift_

    def __rlshift__(self, other):
        return _functions.bitwise_left_shift(other, self)

    def __rrshift__(self, other):
        return _functions.bitwise_right_shift(other, self)
    __invert__ = _base.bitwise_not

    def __rsub__(self, other):
        return _functions.rsub(self, other)

    def __rtruediv__(self, other):
        return self.reciprocal() * other

    def __rpow__(self, other):
        return _functions.pow(other, self)

    def __rmatmul__(self, other):
        return _functions.matmul(other, self)

    def __floordiv__(self, other):
        return _functions.div(self, other, rounding_mode="floor")

    def __rfloordiv__(self, other):
        return _functions.div(other, self, rounding_mode="floor")

    def __rmod__(self, other):
        return _functions.remainder(other, self)

    def __pos__(self):
        return self

    def __repr__(self):
        return _str(self)

    def __format__(self, spec):
        if self.dim() == 0:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    def __bool__(self):
        if self.numel() != 1:
            raise RuntimeError(f"Boolean value of Tensor with more than one value is ambiguous")
        return bool(self.item())

    def __float__(self):
        if self.numel() != 1:
            raise TypeError("only one element tensors can be converted to Python scalars")
        return float(self.item())

    def __int__(self):
        if self.numel() != 1:
            raise TypeError("only one element tensors can be converted to Python scalars")
        return int(self.item())

    def __index__(self):
        if self.numel() != 1 or self.is_floating_point() or self.dtype == torch.bool:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __iter__(self):
        if self.dim() == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self.shape[0]))

    def __hash__(self):
        return id(self)

    numpy = _interop.numpy

    # Conversions by name, as in PyTorch.
    def float(self):
        return self.to(torch.float32)

    def double(self):
        return self.to(torch.float64)

    def half(self):
        return self.to(torch.float16)

    def bfloat16(self):
        return self.to(torch.bfloat16)

    def long(self):
        return self.to(torch.int64)

    def int(self):
        return self.to(torch.int32)

    def short(self):
        return self.to(torch.int16)

    def byte(self):
        return self.to(torch.uint8)

    def char(self):
        return self.to(torch.int8)

    def bool(self):
        return self.to(torch.bool)

    def cpu(self):
        """This tensor on the CPU: itself when it is already there."""
        return self.to("cpu")

    def cuda(self, device=None, non_blocking=False):
        """This tensor on a CUDA device (the current one by default)."""
        if device is None:
            device = "cuda"
        elif isinstance(device, int) and not isinstance(device, bool):
            device = f"cuda:{device}"
        device = torch.device(device)
        if device.type != "cuda":
            raise ValueError(f"Tensor.cuda() expects a CUDA device, got {device}")
        return self.to(device, non_blocking=non_blocking)

    @property
    def data(self):
        """The tensor's values without autograd history (shares memory; unlike detach(), writes through it
        are not seen by autograd's in-place checks)."""
        return _C._variable_data(self)

    @data.setter
    def data(self, new):
        # `w.data += x` reads .data, adds in place, then assigns the same memory back.
        _C._set_data(self, new)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Accumulates the gradient of this tensor into the .grad of the leaves it depends on."""
        torch.autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def register_hook(self, hook):
        """Calls hook(grad) when this tensor's gradient is computed; it may return a replacement.
        Returns a handle whose remove() disables the hook."""
        handle = _RemovableHandle()

        def call(grad):
            return None if handle.removed else hook(grad)

        self._register_hook(call)
        return handle

    # Shapes and dtypes taken from another tensor.
    def expand_as(self, other):
        return self.expand(other.shape)

    def view_as(self, other):
        return self.view(other.shape)

    def reshape_as(self, other):
        return self.reshape(other.shape)

    def type_as(self, other):
        return self.to(other.dtype)

    def type(self, dtype=None, non_blocking=False):
        """With no argument the type's name ('torch.FloatTensor'); else this tensor as that dtype."""
        if dtype is None:
            return _base.type(self)
        if isinstance(dtype, str):
            dtype = torch._legacy.dtype_of_type_name(dtype)
        elif isinstance(dtype, type) and hasattr(dtype, "dtype"):  # torch.LongTensor and friends
            dtype = dtype.dtype
        return self.to(dtype, non_blocking=non_blocking)

    # new_*: a tensor with this one's dtype and device unless told otherwise.
    def _like(self, dtype, device):
        return {"dtype": self.dtype if dtype is None else dtype, "device": self.device if device is None else device}

    def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
        if isinstance(data, torch.Tensor):
            return data.detach().to(**self._like(dtype, device)).clone().requires_grad_(requires_grad)
        return torch.tensor(data, requires_grad=requires_grad, **self._like(dtype, device))

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
        return torch.empty(*size, requires_grad=requires_grad, **self._like(dtype, device))

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
        return torch.zeros(*size, requires_grad=requires_grad, **self._like(dtype, device))

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
        return torch.ones(*size, requires_grad=requires_grad, **self._like(dtype, device))

    def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
        return torch.full(size, fill_value, requires_grad=requires_grad, **self._like(dtype, device))

    def clip(self, min=None, max=None):
        return self.clamp(min, max)

    def clip_(self, min=None, max=None):
        return self.clamp_(min, max)

    def unbind(self, dim=0):
        return torch.unbind(self, dim)

    def movedim(self, source, destination):
        return torch.movedim(self, source, destination)

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        return torch.allclose(self, other, rtol, atol, equal_nan)

    def is_complex(self):
        return self.dtype.is_complex

    # Complex tensors: the parts as views (view_as_real), the value as a Python complex.
    @property
    def real(self):
        return torch.real(self)

    @real.setter
    def real(self, value):
        torch.real(self).copy_(value)

    @property
    def imag(self):
        return torch.imag(self)

    @imag.setter
    def imag(self, value):
        torch.imag(self).copy_(value)

    def item(self):
        try:
            return _base_item(self)
        except NotImplementedError:
            if not self.dtype.is_complex:  # C++ Scalars hold no complex number: tolist() makes the Python one
                raise
        if self.numel() != 1:
            raise RuntimeError(f"a Tensor with {self.numel()} elements cannot be converted to Scalar")
        return self.reshape(()).tolist()

    def __complex__(self):
        if self.numel() != 1:
            raise TypeError("only one element tensors can be converted to Python scalars")
        return complex(self.item())

    def is_pinned(self, device=None):
        return False

    def index_put_(self, indices, values, accumulate=False):
        return torch.functional.index_put_(self, indices, values, accumulate)

    def index_put(self, indices, values, accumulate=False):
        return torch.functional.index_put(self, indices, values, accumulate)

    def pin_memory(self, device=None):
        """Page-locked host memory needs an accelerator; as PyTorch, a machine without one refuses. With one,
        this returns an ordinary (not page-locked) copy: page-locking is not implemented, and copies to the
        GPU read ordinary memory all the same, synchronously (is_pinned() stays False)."""
        if not torch.cuda.is_available():
            raise RuntimeError("Cannot access accelerator device when none is available.")
        if self.is_cuda:
            raise RuntimeError(f"cannot pin '{self.type()}' only dense CPU tensors can be pinned")
        return self.clone()

    def __contains__(self, element):
        if isinstance(element, (torch.Tensor, int, float, bool)):
            return bool((self == element).any())
        raise RuntimeError(f"Tensor.__contains__ only supports Tensor or scalar, but you passed in a {type(element)}.")

    def __reduce_ex__(self, protocol):
        # pickle (DataLoader workers, multiprocessing, copy) carries the bytes, not the graph.
        return torch.serialization._reduce_tensor(self)

    def __deepcopy__(self, memo):
        if not self.is_leaf:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                               "protocol at the moment.  If you were attempting to deepcopy a module, this may be "
                               "because of a torch.nn.utils.weight_norm usage, see "
                               "https://github.com/pytorch/pytorch/pull/103001")
        if id(self) not in memo:
            memo[id(self)] = self.detach().clone().requires_grad_(self.requires_grad)
        return memo[id(self)]

    def bernoulli_(self, p=0.5, *, generator=None):
        if isinstance(p, torch.Tensor):
            return self.copy_(torch.bernoulli(p.to(torch.float32).expand(self.shape), generator=generator))
        if generator is None:
            return _C.TensorBase.bernoulli_(self, p)
        return torch.random.with_generator(_C.TensorBase.bernoulli_)(self, p, generator=generator)

    def bernoulli(self, p=None, *, generator=None):
        return torch.bernoulli(self, p, generator=generator)

    def exponential_(self, lambd=1.0, *, generator=None):
        u = torch.rand(self.shape, dtype=torch.float64, generator=generator)
        return self.copy_(-(1.0 - u).log() / lambd)

    # The other in-place samplers, by inverting the CDF of uniform draws in double.
    def _check_continuous_fill(self, name, dtype_error, scale_name, scale):
        if not self.is_floating_point():
            raise RuntimeError(dtype_error + str(self.dtype).replace("torch.", ""))
        if not scale > 0.0:
            raise RuntimeError(f"{name} expects {scale_name} > 0.0, but found {scale_name}={scale}")

    def cauchy_(self, median=0.0, sigma=1.0, *, generator=None):
        self._check_continuous_fill("cauchy_", "Cauchy distribution is a continuous probability distribution. "
                                    "dtype must be a floating point but you specified ", "sigma", sigma)
        u = torch.rand(self.shape, dtype=torch.float64, generator=generator)
        return self.copy_(median + sigma * torch.tan(math.pi * (u - 0.5)))

    def log_normal_(self, mean=1.0, std=2.0, *, generator=None):
        self._check_continuous_fill("log_normal_", "log_normal_ expects a floating point tensor, but got ", "std", std)
        return self.copy_((mean + std * torch.randn(self.shape, dtype=torch.float64, generator=generator)).exp())

    def geometric_(self, p, *, generator=None):
        """The number of Bernoulli(p) trials up to the first success (1, 2, ...)."""
        if not 0 < p < 1:
            raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={p}")
        u = torch.rand(self.shape, dtype=torch.float64, generator=generator)
        return self.copy_(((1.0 - u).log() / math.log1p(-p)).ceil().clamp(min=1))

    def unflatten(self, dim, sizes):
        """`dim` split into `sizes` (one may be -1). Empty sizes are refused
        before the dim is checked, as PyTorch's Python method does."""
        if not sizes:
            raise RuntimeError("unflatten: sizes must be non-empty")
        return _C.TensorBase.unflatten(self, dim, sizes)

    def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
        """The p-norm (torch.norm)."""
        return torch.norm(self, p, dim, keepdim, dtype=dtype)

    def split(self, split_size, dim=0):
        """Chunks of `split_size` (an int) along `dim`, or of the given sizes (a list)."""
        if isinstance(split_size, int):
            return _C._VariableFunctions.split(self, split_size, dim)
        return _C._VariableFunctions.split_with_sizes(self, list(split_size), dim)

    def __array__(self, dtype=None, copy=None):
        array = _interop.numpy(self)
        if dtype is not None and array.dtype != dtype:
            return array.astype(dtype)
        return array.copy() if copy else array

    @property
    def layout(self):
        """torch.strided: every tensor here is dense."""
        return torch.strided

    @property
    def T(self):
        """The tensor with its dimensions reversed."""
        return self.permute(tuple(range(self.dim() - 1, -1, -1)))

    @property
    def mT(self):
        """The last two dimensions swapped (a batch of transposed matrices)."""
        if self.dim() < 2:
            raise RuntimeError(f"tensor.mT is only supported on matrices or batches of matrices. Got {self.dim()}-D tensor.")
        return self.transpose(-2, -1)

    @property
    def mH(self):
        """The conjugate transpose of each matrix: mT, as every tensor here is real."""
        if self.dim() < 2:
            raise RuntimeError(f"tensor.mH is only supported on matrices or batches of matrices. Got {self.dim()}-D tensor.")
        return self.transpose(-2, -1)

    @property
    def H(self):
        """The conjugate transpose of a matrix (a 0-d tensor is its own)."""
        if self.dim() not in (0, 2):
            hint = " For batches of matrices, consider using tensor.mH" if self.dim() > 2 else ""
            raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {self.dim()}-D tensor.{hint}")
        return self if self.dim() == 0 else self.transpose(0, 1)


class _RemovableHandle:
    def __init__(self):
        self.removed = False

    def remove(self):
        self.removed = True


_C._set_tensor_class(Tensor)
