"""Builds for a platform of ci/matrix.toml with the zig toolchain.

TORCH_PLATFORM=macos-arm64 (or macos-x86_64, windows-amd64: a platform whose
matrix entry names a `zig_target`) builds the cpu wheel for that platform
with cmake/toolchains/zig.cmake, natively on it (GitHub's runners) or across
from any other (the factory on Linux). The binding is on the stable ABI and
CMake builds the torch._C module too, so one wheel, tagged cp39-abi3 and the
entry's `wheel_platform`, serves every CPython of the platform.

A cross build cannot use the running Python's platform pieces; it names them:
TORCH_OPENBLAS_DIR (an unpacked scipy_openblas32 package of the target
platform), and for Windows TORCH_PYTHON_INCLUDE_DIR and
TORCH_PYTHON_SABI_LIBRARY (a Windows CPython's include/ and libs/python3.lib).
ci/builders/cross.py fetches all three from PyPI.
"""
from __future__ import annotations

import os
import platform as host
import sys
import sysconfig
from dataclasses import dataclass

from .env import ROOT, BuildSettingError

# The oldest CPython the stable-ABI wheel loads into (setup.py's python_requires).
LIMITED_API_TAG = "cp39"


@dataclass(frozen=True)
class Target:
    name: str  # the matrix's platform name, macos-arm64
    os: str  # cibuildwheel's platform: macos, windows
    arch: str  # cibuildwheel's arch: arm64, x86_64, AMD64
    zig_target: str  # aarch64-macos.11.0
    wheel_platform: str  # macosx_11_0_arm64

    @property
    def is_windows(self) -> bool:
        return self.os == "windows"

    @property
    def native(self) -> bool:
        """Whether this machine is the target (a GitHub runner of that platform)."""
        running = {"darwin": "macos", "win32": "windows"}.get(sys.platform)
        return running == self.os and host.machine() == self.arch


def find(name: str, matrix: dict) -> Target:
    platforms = matrix["platforms"]
    zig = sorted(p for p, entry in platforms.items() if "zig_target" in entry)
    if name not in platforms or name not in zig:
        raise BuildSettingError(f"TORCH_PLATFORM={name!r} is not a zig-built platform of ci/matrix.toml "
                                f"(those are: {', '.join(zig)})")
    entry = platforms[name]
    return Target(name, entry["cibw_platform"], entry["cibw_archs"], entry["zig_target"], entry["wheel_platform"])


def _existing(path: str, variable: str, what: str) -> str:
    if not os.path.exists(path):
        raise BuildSettingError(f"{variable}={path}: no such {what}")
    return os.path.abspath(path)


def cmake_args(target: Target, environ: dict[str, str]) -> list[str]:
    """The toolchain, the stable-ABI module, no OpenMP (zig has none: ATen's
    own thread pool), and the target's OpenBLAS and Python pieces."""
    args = [
        f"-DCMAKE_TOOLCHAIN_FILE={os.path.join(ROOT, 'cmake', 'toolchains', 'zig.cmake')}",
        f"-DTORCH_ZIG_TARGET={target.zig_target}",
        "-DBUILD_PYTHON_STUB=ON",
    ]
    openblas = environ.get("TORCH_OPENBLAS_DIR")
    if openblas:
        args.append(f"-DTORCH_OPENBLAS_DIR={_existing(openblas, 'TORCH_OPENBLAS_DIR', 'directory')}")
    elif not target.native:
        raise BuildSettingError(f"TORCH_PLATFORM={target.name} on another platform needs TORCH_OPENBLAS_DIR, an "
                                f"unpacked scipy_openblas32 package for {target.wheel_platform} "
                                f"(python3 -m ci cross-build fetches one)")
    include = environ.get("TORCH_PYTHON_INCLUDE_DIR")
    if include:
        include = _existing(os.path.join(include, "Python.h"), "TORCH_PYTHON_INCLUDE_DIR", "Python.h in that directory")
        include = os.path.dirname(include)
    elif target.is_windows and not target.native:
        raise BuildSettingError("TORCH_PLATFORM=windows-amd64 on another platform needs TORCH_PYTHON_INCLUDE_DIR and "
                                "TORCH_PYTHON_SABI_LIBRARY: a Windows CPython's include/ and libs/python3.lib "
                                "(python3 -m ci cross-build fetches one)")
    else:
        # Any CPython's headers under Py_LIMITED_API give the same stable-ABI
        # objects; across to macOS, the running (Linux) Python's serve.
        include = sysconfig.get_paths()["include"]
    args.append(f"-DTORCH_PYTHON_ABI3_INCLUDE_DIR={include}")
    if target.is_windows:
        library = environ.get("TORCH_PYTHON_SABI_LIBRARY") or os.path.join(sys.base_prefix, "libs", "python3.lib")
        args.append(f"-DTORCH_PYTHON_SABI_LIBRARY={_existing(library, 'TORCH_PYTHON_SABI_LIBRARY', 'file')}")
    return args


def bdist_wheel_options(target: Target) -> dict:
    """The wheel's tag: cp39-abi3-<platform>."""
    return {"plat_name": target.wheel_platform, "py_limited_api": LIMITED_API_TAG}
