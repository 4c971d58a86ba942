"""torch.utils.cpp_extension: C++ and CUDA extensions built against this torch.

Ahead of time, in a package's setup.py (PyTorch's interface):

    from setuptools import setup
    from torch.utils.cpp_extension import BuildExtension, CppExtension, CUDAExtension

    setup(name="my_ops", ext_modules=[CppExtension("my_ops._C", ["csrc/ops.cpp"], py_limited_api=True)],
          cmdclass={"build_ext": BuildExtension})

Just in time: `load(name, sources)` and `load_inline(name, cpp_sources, functions=[...])`
compile into a cache directory keyed by a hash of the sources and flags
(torch/utils/_cpp_extension_jit.py). Both take their paths and flags from
torch/utils/_cpp_extension_toolchain.py.

An extension includes <torch/extension.h> and takes one of PyTorch's two forms:
- it registers operators with TORCH_LIBRARY and uses no Python API
  (py_limited_api=True: one build serves every Python), loaded by importing
  it or with torch.ops.load_library;
- it is a pybind11 module, PYBIND11_MODULE(TORCH_EXTENSION_NAME, m), with
  torch::Tensor arguments (torch/python.h): built per Python version, linked
  with libtorch_python; pybind11's headers come with torch. It links libc10 and libtorch_cpu (and libtorch_cuda and cudart for
CUDA) from torch/lib, which `import torch` has already loaded, so the
extension carries no RPATH to them and its wheel must not bundle them
(auditwheel repair --exclude).
"""
from __future__ import annotations

import copy
import sysconfig

from torch.utils._cpp_extension_toolchain import (  # noqa: F401  (public names of this module)
    _LIMITED_API, CUDA_HOME, TORCH_LIB_PATH, _check_cuda_version, _cuda_home_or_raise, _require_linux,
    common_cxx_flags, cuda_arch_flags, include_paths, is_ninja_available, library_paths, nvcc_command, nvcc_flags,
    verify_ninja_availability)

__all__ = [
    "BuildExtension", "CppExtension", "CUDAExtension", "CUDA_HOME", "include_paths", "library_paths", "load",
    "load_inline", "cuda_arch_flags", "verify_ninja_availability", "is_ninja_available",
]

def _extension(name, sources, kwargs, cuda: bool):
    from setuptools import Extension

    _require_linux("CUDAExtension" if cuda else "CppExtension")
    kwargs = dict(kwargs)
    kwargs["include_dirs"] = kwargs.get("include_dirs", []) + include_paths("cuda" if cuda else "cpu")
    kwargs["library_dirs"] = kwargs.get("library_dirs", []) + library_paths("cuda" if cuda else "cpu")
    libraries = ["c10", "torch_cpu"] + (["torch_cuda", "cudart"] if cuda else [])
    kwargs["libraries"] = kwargs.get("libraries", []) + libraries
    kwargs["language"] = "c++"
    macros = kwargs.get("define_macros", [])
    if kwargs.get("py_limited_api") and sysconfig.get_config_var("Py_GIL_DISABLED"):
        # A free-threaded CPython has no stable ABI: a per-Python build, as setuptools makes it.
        kwargs["py_limited_api"] = False
    if kwargs.get("py_limited_api"):
        macros = macros + [("Py_LIMITED_API", _LIMITED_API)]
    else:
        # A module of one Python may use CPython's API: the pybind11 form
        # (torch/python.h) reaches torch's Python tensors through libtorch_python.
        kwargs["libraries"] = kwargs["libraries"] + ["torch_python"]
    kwargs["define_macros"] = macros
    return Extension(name, sources, **kwargs)


def CppExtension(name: str, sources: list[str], *args, **kwargs):
    """A setuptools.Extension for C++ sources: torch's include and library
    directories, libc10 and libtorch_cpu, C++17. py_limited_api=True marks
    it for the stable ABI (it uses no Python API at all)."""
    return _extension(name, sources, kwargs, cuda=False)


def CUDAExtension(name: str, sources: list[str], *args, **kwargs):
    """CppExtension plus .cu sources compiled by CUDA_HOME's nvcc for
    TORCH_CUDA_ARCH_LIST (default: this torch's architectures), linked with
    libtorch_cuda and cudart."""
    return _extension(name, sources, kwargs, cuda=True)


def _split_args(extra) -> tuple[list[str], list[str]]:
    """extra_compile_args: a list (C++ only) or {"cxx": [...], "nvcc": [...]}."""
    if isinstance(extra, dict):
        return list(extra.get("cxx", [])), list(extra.get("nvcc", []))
    return list(extra or []), []


try:
    from setuptools.command.build_ext import build_ext as _build_ext
except ImportError:  # setuptools is needed only to build, not to import this module
    _build_ext = object


class BuildExtension(_build_ext):
    """setuptools' build_ext for CppExtension/CUDAExtension: C++17 with torch's
    ABI flag, .cu sources through nvcc, extra_compile_args as a list or as
    {"cxx": [...], "nvcc": [...]}."""

    @classmethod
    def with_options(cls, **options):
        class WithOptions(cls):
            def __init__(self, *args, **kwargs):
                kwargs.update(options)
                super().__init__(*args, **kwargs)

        return WithOptions

    def __init__(self, *args, **kwargs):
        # PyTorch's options; this build compiles with setuptools' own compiler driver.
        self.no_python_abi_suffix = kwargs.pop("no_python_abi_suffix", False)
        kwargs.pop("use_ninja", None)
        super().__init__(*args, **kwargs)

    def build_extensions(self):
        compiler = self.compiler
        if "-Wstrict-prototypes" in compiler.compiler_so:  # a C-only flag in Python's CFLAGS
            compiler.compiler_so.remove("-Wstrict-prototypes")
        has_cuda = any(s.endswith(".cu") for ext in self.extensions for s in ext.sources)
        if has_cuda:
            home = _cuda_home_or_raise()
            _check_cuda_version(home)
            compiler.src_extensions = list(compiler.src_extensions) + [".cu"]
        original_compile = compiler._compile

        def compile_one(obj, src, ext, cc_args, extra_postargs, pp_opts):
            cxx, nvcc = _split_args(extra_postargs.mapping if isinstance(extra_postargs, _DictArgs)
                                    else extra_postargs)
            flags = common_cxx_flags()
            if src.endswith(".cu"):
                cmd = [*nvcc_command(home), "-c", src, "-o", obj, *pp_opts, *nvcc_flags(flags), *nvcc]
                compiler.spawn(cmd)
            else:
                # Default visibility, as PyTorch builds extensions: PyTorch's
                # template declares its PyInit__C without PyMODINIT_FUNC.
                original_compile(obj, src, ext, cc_args, flags + cxx, pp_opts)

        compiler._compile = compile_one
        try:
            super().build_extensions()
        finally:
            compiler._compile = original_compile

    def build_extension(self, ext):
        # extra_compile_args may be a dict: hand it through to compile_one whole.
        ext = copy.copy(ext)
        # As PyTorch defines it: the last component of the extension's name.
        ext.define_macros = list(ext.define_macros or []) + [("TORCH_EXTENSION_NAME", ext.name.split(".")[-1])]
        if isinstance(ext.extra_compile_args, dict):
            ext.extra_compile_args = _DictArgs(ext.extra_compile_args)
        super().build_extension(ext)

    def get_ext_filename(self, ext_name):
        filename = super().get_ext_filename(ext_name)
        if self.no_python_abi_suffix:
            parts = filename.split(".")
            filename = ".".join(parts[:-2] + parts[-1:]) if len(parts) > 2 else filename
        return filename


class _DictArgs(list):
    """A {"cxx": ..., "nvcc": ...} that setuptools passes along as a (empty) list."""

    def __init__(self, mapping):
        super().__init__()
        self.mapping = mapping

    def __bool__(self):  # setuptools reads `ext.extra_compile_args or []`
        return True


from torch.utils._cpp_extension_jit import load, load_inline  # noqa: E402
