"""torch: tensors with a C++ core, built the way PyTorch is built.

Importing this package loads torch._C, a stub extension whose init function
lives in torch/lib/libtorch_python.so (next to libtorch_cpu.so and libc10.so,
found through the stub's rpath $ORIGIN/lib; on macOS .dylib and
@loader_path/lib; on Windows .dll, in a directory added to the DLL search
path first). Operators come from native_functions.yaml: torch.<op> functions
from torch._C._VariableFunctions, Tensor.<op> methods from torch._C.TensorBase.
"""
import sys as _sys

if _sys.platform == "win32":
    # Windows looks for an extension's DLLs only in directories named to it
    # (Python 3.8+): torch/lib holds libtorch_python.dll and the rest, as
    # delvewheel's .libs directories do theirs.
    import os as _os

    _os.add_dll_directory(_os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "lib"))
    del _os
del _sys

from torch import _C
from torch import _cuda_loader, return_types, version

# A CUDA wheel's kernels live in libtorch_cuda, loaded next to libtorch_cpu.
_cuda_loader.load(version.cuda)

# dtypes, with PyTorch's aliases. These shadow builtins (torch.float, torch.bool),
# so nothing in this file uses the builtins by name; they are defined
# before the submodules, which refer to them as torch.float32 etc.
uint8 = _C.uint8
int8 = _C.int8
int16 = short = _C.int16
int32 = int = _C.int32
int64 = long = _C.int64
float16 = half = _C.float16
bfloat16 = _C.bfloat16
float32 = float = _C.float32
float64 = double = _C.float64
bool = _C.bool
complex32 = chalf = _C.complex32
complex64 = cfloat = _C.complex64
complex128 = cdouble = _C.complex128

from torch import autograd
from torch.autograd import enable_grad, no_grad, set_grad_enabled
from torch.autograd.grad_mode import inference_mode
from torch._C import (
    Size,
    device,
    dtype,
    get_default_dtype,
    get_num_threads,
    is_grad_enabled,
    promote_types,
    set_default_dtype,
    set_num_threads,
)
from torch._interop import from_dlpack, from_numpy
from torch._layout import layout, strided
from torch._memory_format import (channels_last, channels_last_3d, contiguous_format, memory_format,
                                  preserve_format)
from torch._tensor import Tensor

Tensor.__module__ = "torch"  # <class 'torch.Tensor'>, as PyTorch shows it
from torch._tensor_str import set_printoptions
from torch import cuda, nn, optim  # noqa: E402
from torch.serialization import load, save  # noqa: E402
from torch.serialization import STORAGE_TYPES as _STORAGE_TYPES  # noqa: E402

globals().update(_STORAGE_TYPES)  # torch.FloatStorage, ...: the names PyTorch's pickles give storages

from torch.torch_version import TorchVersion as _TorchVersion  # noqa: E402

__version__ = _TorchVersion(version.__version__)


def _export_functions():
    names = []
    for name in dir(_C._VariableFunctions):
        if name.startswith("__"):
            continue
        globals()[name] = getattr(_C._VariableFunctions, name)
        names.append(name)
    return names


_function_names = _export_functions()
# torch.special's ops live in torch.special only, as in PyTorch; unique_dim
# is behind torch.unique(dim=) only (PyTorch's PRIVATE_OPS).
for _name in [n for n in _function_names if n.startswith("special_") or n == "unique_dim"]:
    del globals()[_name]
    _function_names.remove(_name)

from typing import TYPE_CHECKING  # noqa: E402

if TYPE_CHECKING:  # what _export_functions() put here, as type checkers see it (torch/_C/_VariableFunctions.pyi)
    from torch._C._VariableFunctions import *  # noqa: F401,F403

from torch.functional import split  # noqa: E402  (overrides the int-only binding)
from torch.functional import (  # noqa: E402
    allclose, as_tensor, atleast_1d, atleast_2d, atleast_3d, bernoulli, broadcast_tensors, broadcast_shapes, einsum, index_put, index_put_, is_floating_point, is_tensor, isclose,
    meshgrid, movedim, norm, normal, numel, tril_indices, triu_indices, unbind,
)
from torch import random  # noqa: E402
from torch.random import (  # noqa: E402
    Generator, default_generator, get_rng_state, initial_seed, manual_seed, seed, set_rng_state,
)

# Random functions take generator= (a torch.Generator whose stream they draw from).
for _name in ("rand", "randn", "randint", "randperm", "multinomial", "bernoulli", "normal"):
    globals()[_name] = random.with_generator(globals()[_name])
for _name in ("uniform_", "normal_", "random_", "multinomial"):
    setattr(Tensor, _name, random.with_generator(getattr(_C.TensorBase, _name)))
del _name


from torch import accelerator, amp, backends, distributed, linalg, utils  # noqa: E402
from torch import compiler, jit, onnx  # noqa: E402  (out of scope: importable, refuse when called)
from torch import distributions, fft, special, testing  # noqa: E402
from torch._finfo import finfo, iinfo  # noqa: E402
from torch._unsupported import unsupported as _unsupported  # noqa: E402

compile = _unsupported("torch.compile", "torch.compile")
from torch._ops import ops  # noqa: E402
from torch._checks import (_check, _check_index, _check_is_size, _check_not_implemented,  # noqa: E402,F401
                           _check_type, _check_value, _check_with)
from torch import library  # noqa: E402
from torch.amp import autocast  # noqa: E402
from torch.amp.autocast_mode import get_autocast_dtype, is_autocast_enabled  # noqa: E402

# Under autocast the matrix products and convolutions run in the low dtype.
for _name in ("matmul", "mm", "bmm", "addmm", "conv1d", "conv2d"):
    globals()[_name] = amp.autocast_mode.lower_precision(globals()[_name])
for _name in ("matmul", "mm", "bmm", "addmm"):
    setattr(Tensor, _name, amp.autocast_mode.lower_precision(getattr(_C.TensorBase, _name)))
Tensor.__matmul__ = Tensor.matmul
del _name

from torch import _aliases  # noqa: E402

_aliases.install(__import__("sys").modules[__name__])

from torch import _math_ops  # noqa: E402

_math_ops.install(__import__("sys").modules[__name__])

from torch import _api_misc  # noqa: E402

_api_misc.install(__import__("sys").modules[__name__])

from torch import storage  # noqa: E402

storage.install(__import__("sys").modules[__name__])

from torch import _memory_format  # noqa: E402

_memory_format.install(__import__("sys").modules[__name__])

from torch import _legacy  # noqa: E402
from torch._legacy import TYPES as _LEGACY_TYPES  # noqa: E402

globals().update(_LEGACY_TYPES)
Tensor.new = _legacy.new

__all__ = sorted(
    _function_names
    + [
        "Size", "Tensor", "TypedStorage", "UntypedStorage", "from_file", "Generator", "accelerator", "amp", "compile", "compiler", "jit", "onnx", "distributions", "fft", "special", "testing", "finfo", "iinfo", "autocast", "autograd", "backends", "distributed",
        "get_autocast_dtype", "is_autocast_enabled", "utils", "allclose", "as_tensor", "bernoulli", "broadcast_shapes",
        "default_generator", "einsum", "get_rng_state", "inference_mode", "is_floating_point", "is_tensor", "isclose",
        "layout", "linalg", "meshgrid", "strided", "memory_format", "contiguous_format", "preserve_format",
        "channels_last", "channels_last_3d", "movedim", "norm", "normal", "numel", "index_put", "index_put_", "random", "seed", "set_rng_state", "unbind", "cuda", "device", "dtype", "enable_grad", "from_dlpack", "from_numpy",
        "is_grad_enabled", "load", "nn", "no_grad", "optim", "save", "set_grad_enabled", "get_default_dtype", "get_num_threads", "initial_seed",
        "manual_seed", "promote_types", "set_default_dtype", "set_num_threads", "set_printoptions",
        "uint8", "int8", "int16", "short", "int32", "int", "int64", "long", "float16", "half",
        "bfloat16", "float32", "float", "float64", "double", "bool", "complex32", "chalf", "complex64", "cfloat",
        "complex128", "cdouble",
    ]
    + list(_LEGACY_TYPES)
    + [a + s for a, (_, forms) in _aliases.ALIASES.items() for s, f in (("", "f"), ("_", "f_")) if f in forms.split()]
    + [n + s for n, (_, forms) in _math_ops.FUNCTIONS.items() for s, f in (("", "f"), ("_", "f_")) if f in forms.split()]
    + list(_api_misc.NN_FORMS) + list(_api_misc.NN_SAME) + list(_api_misc.FUNCTIONS)
    + list(_api_misc.TORCH_FORMS_OF_METHODS)
)
del _export_functions
