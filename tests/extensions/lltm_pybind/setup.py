# Written as PyTorch's C++ extension tutorial writes its setup.py.
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension

setup(
    name="lltm_cpp",
    version="0.0.1",
    ext_modules=[CppExtension("lltm_cpp", ["lltm.cpp"])],
    cmdclass={"build_ext": BuildExtension},
)
