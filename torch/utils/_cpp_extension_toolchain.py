"""The toolchain that torch's C++ extensions compile with, shared by the
setuptools path (torch/utils/cpp_extension.py) and the just-in-time one
(torch/utils/_cpp_extension_jit.py): torch's include and library
directories and C++ flags, the CUDA toolkit (CUDA_HOME, nvcc and its flags,
the architectures), Ninja, and the platform check.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys

import torch
from torch import _C

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
                           "(install a CUDA variant: README, 'Installing a released wheel')")
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
