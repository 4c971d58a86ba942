"""macos_repair.py WHEEL DEST_DIR: a macOS wheel repaired, on macOS or off it.

1. delocate-wheel, as cibuildwheel runs it on macOS (--require-archs the
   wheel's architecture), with MACOSX_DEPLOYMENT_TARGET at the wheel tag's
   version, so that a library needing a newer macOS is an error instead of a
   silently raised tag.
2. The rpaths delocate leaves behind: it sanitises only the libraries whose
   dependencies it rewrites, so a leaf library keeps the absolute rpaths of
   the machine it was built on (scipy-openblas32's dylib names
   /opt/gfortran/...: a directory a user's machine may not have, or anyone
   could fill). Every rpath that is not @loader_path/@rpath-relative is
   deleted and the file signed again (ad hoc).

Off macOS, Apple's otool, install_name_tool, lipo and codesign are stood in
for by ci/repair/macos_tools/ (LLVM's tools from Debian's llvm package, installed
here when missing; repairwheel's ad-hoc signer), put first on PATH.
"""
from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

from delocate.tools import replace_signature
from delocate.wheeltools import InWheel
from macholib import mach_o
from macholib.MachO import MachO

HERE = os.path.dirname(os.path.abspath(__file__))
LLVM_TOOLS = {"TORCH_LLVM_OTOOL": "llvm-otool", "TORCH_LLVM_INSTALL_NAME_TOOL": "llvm-install-name-tool",
              "TORCH_LLVM_LIPO": "llvm-lipo"}
ARCHS = {"arm64": "arm64", "x86_64": "x86_64", "universal2": "universal2"}


def find_llvm_tool(name: str) -> str | None:
    candidates = [name] + [f"{name}-{v}" for v in range(22, 13, -1)]
    return next((shutil.which(c) for c in candidates if shutil.which(c)), None)


def stand_in_tools() -> dict[str, str]:
    """PATH and the LLVM tools for ci/repair/macos_tools/, installing Debian's LLVM if needed."""
    env = {}
    for var, name in LLVM_TOOLS.items():
        found = find_llvm_tool(name)
        if found is None and os.geteuid() == 0 and shutil.which("apt-get"):
            print("macos_repair: installing LLVM's Mach-O tools (Debian's llvm)", file=sys.stderr)
            subprocess.run(["apt-get", "install", "-y", "-q", "llvm"], check=True, stdout=subprocess.DEVNULL,
                           env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
            found = find_llvm_tool(name)
        if found is None:
            sys.exit(f"macos_repair: {name} not found: install LLVM (Debian/Ubuntu: apt-get install llvm)")
        env[var] = found
    env["PATH"] = os.path.join(HERE, "macos_tools") + os.pathsep + os.environ["PATH"]
    env.setdefault("TORCH_TOOLS_PYTHON", os.environ.get("TORCH_TOOLS_PYTHON", sys.executable))
    return env


def wheel_platform(wheel: str) -> tuple[str, str]:
    """(deployment target "11.0", architecture "arm64") from the wheel's tag."""
    m = re.search(r"-macosx_(\d+)_(\d+)_(\w+)\.whl$", os.path.basename(wheel))
    if not m:
        sys.exit(f"macos_repair: {wheel} is not a macOS wheel")
    return f"{m.group(1)}.{m.group(2)}", ARCHS.get(m.group(3), m.group(3))


def rpaths(path: str) -> list[str]:
    return [data.rstrip(b"\0").decode() for header in MachO(path).headers
            for load, _cmd, data in header.commands if load.cmd == mach_o.LC_RPATH]


def remove_outside_rpaths(wheel: str) -> list[str]:
    """Deletes absolute rpaths from every Mach-O file of the wheel (rewriting
    its RECORD) and signs each changed file again; what was deleted."""

    removed = []
    with InWheel(wheel, wheel):  # unpacks into a temporary directory, repacks with a new RECORD on exit
        for path in glob.glob("**/*", recursive=True):
            if not path.endswith((".dylib", ".so")) or os.path.islink(path):
                continue
            outside = [r for r in rpaths(path) if not r.startswith(("@loader_path", "@executable_path"))]
            for rpath in outside:
                subprocess.run(["install_name_tool", "-delete_rpath", rpath, path], check=True)
                removed.append(f"{path}: {rpath}")
            if outside:
                replace_signature(path, "-")
    return removed


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        sys.exit(__doc__)
    wheel, dest = os.path.abspath(argv[0]), os.path.abspath(argv[1])
    target, arch = wheel_platform(wheel)
    if sys.platform != "darwin":
        os.environ.update(stand_in_tools())
    os.environ["MACOSX_DEPLOYMENT_TARGET"] = target
    with tempfile.TemporaryDirectory() as out:
        delocate = shutil.which("delocate-wheel", path=os.path.dirname(sys.executable)) or "delocate-wheel"
        subprocess.run([delocate, "--require-archs", arch, "-w", out, "-v", wheel], check=True)
        (repaired,) = glob.glob(os.path.join(out, "*.whl"))
        for line in remove_outside_rpaths(repaired):
            print(f"macos_repair: deleted rpath {line}")
        os.makedirs(dest, exist_ok=True)
        shutil.move(repaired, os.path.join(dest, os.path.basename(repaired)))
    print(f"repaired: {os.path.join(dest, os.path.basename(repaired))}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
