"""torch: tensors with a C++ core, built the way PyTorch is built.

Importing this package loads torch._C, a stub extension whose init function
lives in torch/lib/libtorch_python.so (next to libtorch_cpu.so and libc10.so,
found through the stub's rpath $ORIGIN/lib). Operators come from
native_functions.yaml: torch.<op> functions from torch._C._VariableFunctions,
Tensor.<op> methods from torch._C.TensorBase.
"""
from torch import _C
from torch import _cuda_loader, version

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

from torch import autograd
from torch.autograd import enable_grad, no_grad, set_grad_enabled
from torch._C import (
    Size,
    device,
    dtype,
    get_default_dtype,
    get_num_threads,
    is_grad_enabled,
    initial_seed,
    manual_seed,
    promote_types,
    set_default_dtype,
    set_num_threads,
)
from torch._interop import from_dlpack, from_numpy
from torch._tensor import Tensor
from torch._tensor_str import set_printoptions
from torch import cuda, nn, optim  # noqa: E402
from torch.serialization import load, save  # noqa: E402

__version__ = version.__version__


def _export_functions():
    names = []
    for name in dir(_C._VariableFunctions):
        if name.startswith("__"):
            continue
        globals()[name] = getattr(_C._VariableFunctions, name)
        names.append(name)
    return names


_function_names = _export_functions()

from torch.functional import split  # noqa: E402  (overrides the int-only binding)

__all__ = sorted(
    _function_names
    + [
        "Size", "Tensor", "autograd", "cuda", "device", "dtype", "enable_grad", "from_dlpack", "from_numpy",
        "is_grad_enabled", "load", "nn", "no_grad", "optim", "save", "set_grad_enabled", "get_default_dtype", "get_num_threads", "initial_seed",
        "manual_seed", "promote_types", "set_default_dtype", "set_num_threads", "set_printoptions",
        "uint8", "int8", "int16", "short", "int32", "int", "int64", "long", "float16", "half",
        "bfloat16", "float32", "float", "float64", "double", "bool",
    ]
)
del _export_functions
