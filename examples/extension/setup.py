"""fused_ops: a torch extension built with torch.utils.cpp_extension.

Built against the torch installed in the build environment (`pip wheel .
--no-build-isolation`, or cibuildwheel with [tool.cibuildwheel] in
pyproject.toml): a CUDA variant of torch adds the CUDA kernels. The wheel's
version carries torch's variant label (0.1.0+cu130) and requires that torch
release; fused_ops/_build_info.py records the exact torch it was built for.
"""
import os

import torch
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension, CUDAExtension

HERE = os.path.dirname(os.path.abspath(__file__))
VERSION = "0.1.0"
torch_public, _, variant = torch.__version__.partition("+")
with_cuda = torch.version.cuda is not None and os.environ.get("FUSED_OPS_CPU_ONLY") != "1"

sources = ["fused_ops/csrc/bias_relu.cpp"] + (["fused_ops/csrc/bias_relu_cuda.cu"] if with_cuda else [])
extension = (CUDAExtension if with_cuda else CppExtension)(
    "fused_ops._C", sources, py_limited_api=True,
    extra_compile_args={"cxx": ["-O2", "-g0"], "nvcc": ["-O2"]})

with open(os.path.join(HERE, "fused_ops", "_build_info.py"), "w") as f:
    f.write(f'"""Written by setup.py."""\nTORCH_VERSION = "{torch.__version__}"\nWITH_CUDA = {with_cuda}\n')

setup(
    name="fused-ops",
    version=VERSION + (f"+{variant}" if variant else ""),
    description="An example torch extension: a fused bias + ReLU with CPU and CUDA kernels",
    packages=["fused_ops"],
    ext_modules=[extension],
    cmdclass={"build_ext": BuildExtension},
    install_requires=[f"torch=={torch_public}"],
    python_requires=">=3.9",
    # The library uses no Python API at all: one wheel serves every CPython from 3.9.
    options={"bdist_wheel": {"py_limited_api": "cp39"}},
)
