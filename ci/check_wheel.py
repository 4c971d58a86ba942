"""check_wheel.py WHEEL: the checks every repaired wheel must pass.

- Linux: `auditwheel show` names a manylinux policy.
- `twine check` (metadata renders) and `check-wheel-contents` (layout).
- No shared library has an RPATH/RUNPATH entry outside the wheel: every entry
  is relative to $ORIGIN and stays inside the unpacked wheel.
Exits non-zero, naming the problem, if any check fails.
"""
from __future__ import annotations

import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile


def run(cmd: list[str]) -> str:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"check_wheel: {' '.join(cmd)} failed:\n{proc.stdout}{proc.stderr}")
    return proc.stdout + proc.stderr


def tool(name: str) -> list[str]:
    """A console script next to this Python, or on PATH."""
    local = os.path.join(os.path.dirname(sys.executable), name)
    return [local] if os.path.exists(local) else [name]


def rpaths(path: str) -> list[str]:
    out = subprocess.run(["readelf", "-d", path], capture_output=True, text=True, check=True).stdout
    entries = []
    for m in re.finditer(r"\((?:RPATH|RUNPATH)\).*\[(.*)\]", out):
        entries += m.group(1).split(":")
    return entries


def check_rpaths(wheel: str) -> list[str]:
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        with zipfile.ZipFile(wheel) as z:
            z.extractall(tmp)
        for root, _, files in os.walk(tmp):
            for name in files:
                if ".so" not in name:
                    continue
                path = os.path.join(root, name)
                for entry in rpaths(path):
                    if not entry.startswith("$ORIGIN"):
                        problems.append(f"{os.path.relpath(path, tmp)}: RPATH entry {entry!r} is absolute")
                        continue
                    target = os.path.normpath(entry.replace("$ORIGIN", os.path.dirname(path)))
                    if not target.startswith(tmp):
                        problems.append(f"{os.path.relpath(path, tmp)}: RPATH entry {entry!r} leaves the wheel")
    return problems


def main() -> int:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    wheel = sys.argv[1]
    if platform.system() == "Linux":
        shown = run(tool("auditwheel") + ["show", wheel])
        if not re.search(r"manylinux_\d+_\d+", shown):
            sys.exit(f"check_wheel: auditwheel show names no manylinux policy:\n{shown}")
        policy = re.search(r"manylinux_[0-9_]+_\w+", shown).group(0)
        print(f"auditwheel: {policy}")
        problems = check_rpaths(wheel)
        if problems:
            sys.exit("check_wheel: " + "\n".join(problems))
        print("rpath: every entry stays inside the wheel")
    run(tool("twine") + ["check", "--strict", wheel])
    print("twine check: passed")
    config = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "pyproject.toml")
    run(tool("check-wheel-contents") + ["--config", config, wheel])
    print("check-wheel-contents: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
