# Written as PyTorch's extension template writes its setup.py.
import glob
import os
import sysconfig

import torch
from setuptools import find_packages, setup
from torch.utils.cpp_extension import CUDA_HOME, BuildExtension, CppExtension, CUDAExtension

library_name = "muladd_ops"
# The stable ABI: one wheel for every CPython from 3.9 (a free-threaded CPython has none).
py_limited_api = not sysconfig.get_config_var("Py_GIL_DISABLED")
# A CUDA build of torch with a toolkit builds the CUDA kernels too (whether a GPU is present or not).
use_cuda = os.getenv("USE_CUDA", "1") == "1" and torch.version.cuda is not None and CUDA_HOME is not None

csrc = os.path.join(library_name, "csrc")
sources = sorted(glob.glob(os.path.join(csrc, "*.cpp")))
if use_cuda:
    sources += sorted(glob.glob(os.path.join(csrc, "cuda", "*.cu")))

extension = CUDAExtension if use_cuda else CppExtension
setup(
    name=library_name,
    version="0.0.1",
    packages=find_packages(),
    ext_modules=[
        extension(
            f"{library_name}._C",
            sources,
            extra_compile_args={"cxx": ["-O2"] + (["-DPy_LIMITED_API=0x03090000"] if py_limited_api else []),
                                "nvcc": ["-O2"]},
            py_limited_api=py_limited_api,
        )
    ],
    install_requires=["torch"],
    cmdclass={"build_ext": BuildExtension},
    options={"bdist_wheel": {"py_limited_api": "cp39"}} if py_limited_api else {},
)
