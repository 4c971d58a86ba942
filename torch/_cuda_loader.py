"""Loads libtorch_cuda.so in a CUDA wheel (it registers the CUDA kernels,
allocator and hooks with libtorch_cpu as it loads).

A CUDA wheel bundles none of NVIDIA's libraries: it depends on NVIDIA's
runtime wheels (nvidia-cuda-runtime, nvidia-cublas), which pip puts under
site-packages/nvidia/. libtorch_cuda's RPATH points there; when that fails
(a different site-packages layout, a --target install), the libraries are
found on sys.path and preloaded by path, cublasLt before cublas, as PyTorch
does. A source build may also take them from CUDA_HOME.
"""
from __future__ import annotations

import ctypes
import glob
import os
import sys

_LIBRARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib", "libtorch_cuda.so")


def _nvidia_dirs(major: str) -> list[str]:
    dirs = []
    for root in sys.path:
        base = os.path.join(root or ".", "nvidia")
        if major.isdigit() and int(major) >= 13:
            dirs.append(os.path.join(base, f"cu{major}", "lib"))
        else:
            dirs += [os.path.join(base, "cublas", "lib"), os.path.join(base, "cuda_runtime", "lib")]
    home = os.environ.get("CUDA_HOME") or os.environ.get("CUDA_PATH")
    if home:
        dirs += [os.path.join(home, "lib64"), os.path.join(home, "lib")]
    return [d for d in dirs if os.path.isdir(d)]


def _preload_nvidia_libraries(cuda_version: str) -> list[str]:
    major = cuda_version.split(".")[0]
    loaded = []
    for name in ("libcudart.so.*[0-9]", "libcublasLt.so.*[0-9]", "libcublas.so.*[0-9]"):
        for d in _nvidia_dirs(major):
            found = sorted(glob.glob(os.path.join(d, name)))
            if found:
                ctypes.CDLL(found[0], mode=ctypes.RTLD_GLOBAL)
                loaded.append(found[0])
                break
    return loaded


def load(cuda_version: str | None) -> bool:
    """Loads libtorch_cuda when this build has it; False for a CPU build."""
    if cuda_version is None or not os.path.exists(_LIBRARY):
        return False
    try:
        ctypes.CDLL(_LIBRARY, mode=ctypes.RTLD_GLOBAL)
        return True
    except OSError:
        pass
    loaded = _preload_nvidia_libraries(cuda_version)
    try:
        ctypes.CDLL(_LIBRARY, mode=ctypes.RTLD_GLOBAL)
    except OSError as e:
        raise ImportError(
            f"this torch is built for CUDA {cuda_version}, but {_LIBRARY} could not be loaded: {e}. "
            f"Its NVIDIA runtime libraries come from pip (nvidia-cuda-runtime, nvidia-cublas): reinstall torch "
            f"with pip so that its dependencies are installed (found and preloaded: {loaded or 'none'})."
        ) from e
    return True
