"""torch.utils.cpp_extension: C++ and CUDA extensions built against this torch.

Ahead of time, in a package's setup.py (PyTorch's interface):

    from setuptools import setup
    from torch.utils.cpp_extension import BuildExtension, CppExtension, CUDAExtension

    setup(name="my_ops", ext_modules=[CppExtension("my_ops._C", ["csrc/ops.cpp"], py_limited_api=True)],
          cmdclass={"build_ext": BuildExtension})

Just in time: `load(name, sources)` and `load_inline(name, cpp_sources, functions=[...])`
compile into a cache directory keyed by a hash of the sources and flags
(torch/utils/_cpp_extension_jit.py).

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
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig

import torch
from torch import _C

__all__ = [
    "BuildExtension", "CppExtension", "CUDAExtension", "CUDA_HOME", "include_paths", "library_paths", "load",
    "load_inline", "cuda_arch_flags", "verify_ninja_availability", "is_ninja_available",
]

_TORCH_ROOT = os.path.dirname(os.path.abspath(torch.__file__))
TORCH_LIB_PATH = os.path.join(_TORCH_ROOT, "lib")
# The oldest CPython of the stable ABI that py_limited_api extensions declare (as torch's binding does).
_LIMITED_API = "0x03090000"


def _find_cuda_home() -> str | None:
    """CUDA_HOME or CUDA_PATH; else the toolkit of the nvcc on PATH; else
    /usr/local/cuda; else NVIDIA's cuda-toolkit wheels (site-packages/nvidia/cuXX)."""
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    if home:
        return home
    nvcc = shutil.which("nvcc")
    if nvcc:
        return os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
    if os.path.exists("/usr/local/cuda/bin/nvcc"):
        return "/usr/local/cuda"
    major = (torch.version.cuda or "").split(".")[0]
    if major:
        for entry in sys.path:
            candidate = os.path.join(entry, "nvidia", f"cu{major}")
            if os.path.exists(os.path.join(candidate, "bin", "nvcc")):
                return candidate
    return None


CUDA_HOME = _find_cuda_home()


def _cuda_home_or_raise() -> str:
    if torch.version.cuda is None:
        raise RuntimeError(f"a CUDA extension needs a CUDA build of torch, but this is torch {torch.__version__} "
                           "(install a CUDA variant: README, 'Installing a variant')")
    if CUDA_HOME is None or not os.path.exists(os.path.join(CUDA_HOME, "bin", "nvcc")):
        raise OSError("CUDA_HOME is not set and no nvcc was found (set CUDA_HOME to a CUDA "
                      f"{torch.version.cuda} toolkit, or pip install 'cuda-toolkit[nvcc,crt,cudart,cccl]=="
                      f"{torch.version.cuda}.*')")
    return CUDA_HOME


def _cuda_lib_dir(home: str) -> str:
    for sub in ("lib64", "lib"):
        if os.path.isdir(os.path.join(home, sub)):
            return os.path.join(home, sub)
    return os.path.join(home, "lib64")


def include_paths(device_type: str | bool = "cpu") -> list[str]:
    """The include directories an extension compiles with (`cuda=True` or
    device_type="cuda" adds the CUDA toolkit's)."""
    paths = [os.path.join(_TORCH_ROOT, "include")]
    if device_type is True or device_type == "cuda":
        paths.append(os.path.join(_cuda_home_or_raise(), "include"))
    return paths


def library_paths(device_type: str | bool = "cpu") -> list[str]:
    """The library directories an extension links from (torch/lib, and the CUDA toolkit's)."""
    paths = [TORCH_LIB_PATH]
    if device_type is True or device_type == "cuda":
        paths.append(_cuda_lib_dir(_cuda_home_or_raise()))
    return paths


def common_cxx_flags() -> list[str]:
    """What every C++ (and nvcc host) compile needs to match torch's own build."""
    return ["-std=c++17", f"-D_GLIBCXX_USE_CXX11_ABI={_C._GLIBCXX_USE_CXX11_ABI}"]


def cuda_arch_flags(arch_list: str | None = None) -> list[str]:
    """nvcc -gencode flags for TORCH_CUDA_ARCH_LIST ("8.0;9.0+PTX"), by default
    the architectures this torch's libtorch_cuda was built for."""
    archs = arch_list or os.environ.get("TORCH_CUDA_ARCH_LIST") or _C._cuda_arch_list()
    flags = []
    for arch in re.split(r"[;\s]+", archs.strip()):
        if not arch:
            continue
        match = re.fullmatch(r"(\d+)\.(\d+)(a|f)?(\+PTX)?", arch)
        if not match:
            raise ValueError(f"TORCH_CUDA_ARCH_LIST: unknown architecture {arch!r} (expected e.g. 8.0, 9.0a, 8.6+PTX)")
        number = match.group(1) + match.group(2) + (match.group(3) or "")
        flags.append(f"-gencode=arch=compute_{number},code=sm_{number}")
        if match.group(4):
            flags.append(f"-gencode=arch=compute_{number},code=compute_{number}")
    if not flags:
        raise ValueError("no CUDA architecture to build for: set TORCH_CUDA_ARCH_LIST (for example 8.0)")
    return flags


def _require_linux(what: str) -> None:
    """Extensions build against the Linux wheels only: the macOS and Windows
    wheels are built with zig, whose libc++ is linked statically into each
    torch library, so an extension compiled by the platform's own compiler
    would bring a second C++ runtime (docs/PLATFORMS.md)."""
    if not sys.platform.startswith("linux"):
        raise RuntimeError(f"{what}: building C++ extensions against this torch is supported on Linux only, "
                           f"not on {sys.platform} (the macOS and Windows wheels link zig's libc++ statically; "
                           "see docs/PLATFORMS.md)")


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


def nvcc_command(home: str) -> list[str]:
    """nvcc, with CUDAHOSTCXX (CMake's variable) as its host compiler when set."""
    nvcc = [os.path.join(home, "bin", "nvcc")]
    host = os.environ.get("CUDAHOSTCXX")
    return nvcc + (["-ccbin", host] if host else [])


def nvcc_flags(cxx_flags: list[str]) -> list[str]:
    """Device-compile flags: torch's C++ flags passed to the host compiler, PIC, the architectures."""
    host = ",".join(["-fPIC"] + [f for f in cxx_flags if f.startswith("-D_GLIBCXX")])
    return ["-std=c++17", "--expt-relaxed-constexpr", f"-Xcompiler={host}", *cuda_arch_flags()]


def _check_cuda_version(home: str) -> None:
    out = subprocess.run([os.path.join(home, "bin", "nvcc"), "--version"], capture_output=True, text=True).stdout
    match = re.search(r"release (\d+)\.(\d+)", out)
    if match and torch.version.cuda and match.group(1) != torch.version.cuda.split(".")[0]:
        raise RuntimeError(f"The detected CUDA version ({match.group(1)}.{match.group(2)}, {home}) differs in its "
                           f"major version from the one that compiled torch ({torch.version.cuda}): "
                           "set CUDA_HOME to a matching toolkit")


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


def is_ninja_available() -> bool:
    return _ninja() is not None


def verify_ninja_availability() -> None:
    if not is_ninja_available():
        raise RuntimeError("Ninja is required to load C++ extensions (pip install ninja)")


def _ninja() -> str | None:
    found = shutil.which("ninja")
    if found:
        return found
    try:
        import ninja  # the PyPI package

        path = os.path.join(ninja.BIN_DIR, "ninja")
        return path if os.path.exists(path) else None
    except ImportError:
        return None


def _quote(args: list[str]) -> str:
    return " ".join(shlex.quote(a) for a in args)


from torch.utils._cpp_extension_jit import load, load_inline  # noqa: E402
