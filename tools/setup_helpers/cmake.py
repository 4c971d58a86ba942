"""Running CMake: configure (once, or when the settings change), build,
install into the package directory."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

from .env import ROOT, Settings, cmake_options


def _run(cmd: list[str], **kwargs) -> None:
    print("+ " + " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, **kwargs)


def configure(build_dir: str, settings: Settings, version: str) -> None:
    args = [
        "cmake",
        "-S", ROOT,
        "-B", build_dir,
        "-G", "Ninja",
        # One build directory serves every Python: forget the last one's
        # FindPython results. Nothing recompiles (libtorch_python keeps the
        # first Python's headers for its abi3 build) unless it is built with
        # USE_PYTHON_LIMITED_API=0.
        "-U", "_Python*",
        f"-DCMAKE_BUILD_TYPE={settings.build_type}",
        f"-DPython_EXECUTABLE={sys.executable}",
        f"-DTORCH_TOOLS_PYTHON={settings.tools_python or sys.executable}",
        f"-DTORCH_VERSION={version}",
    ]
    # Every option, every time: a value left in CMake's cache by an earlier
    # configure (USE_CUDA=1 once) must not outlive the environment that set it.
    for name, (default, _doc) in sorted(cmake_options().items()):
        value = settings.cmake_options.get(name, default)
        args.append(f"-D{name}={'ON' if value else 'OFF'}")
    args += settings.cmake_args
    _run(args)
    # clangd and IDEs look for build/compile_commands.json.
    commands = os.path.join(build_dir, "compile_commands.json")
    if os.path.exists(commands):
        shutil.copyfile(commands, os.path.join(ROOT, "build", "compile_commands.json"))


def build_and_install(build_dir: str, settings: Settings, prefix: str) -> None:
    cmd = ["cmake", "--build", build_dir, "-j", str(settings.max_jobs)]
    if settings.verbose:
        cmd.append("--verbose")
    _run(cmd)
    _run(["cmake", "--install", build_dir, "--prefix", prefix], stdout=subprocess.DEVNULL if not settings.verbose else None)


def build_dir_for(variant: str) -> str:
    return os.path.join(ROOT, "build", f"cmake-{variant}")
