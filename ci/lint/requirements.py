"""Checks that every requirements file the workflows and cibuildwheel's hooks
install resolves, from wheels only, for every (Python, platform) cell of
ci/matrix.toml that installs it.

    python3 -m ci check-requirements [--uv UV]

A pin that a cell's Python cannot take (a release that requires a newer
Python, a wheel missing for a platform) otherwise fails only on that
GitHub runner, mid-release. uv resolves each cell for its target
(`uv pip compile --python-version X --python-platform P --only-binary
:all:`), with the environment markers evaluated for that platform, which
pip's --platform does not do. Free-threaded Pythons resolve as their
version (uv takes no `t` there); their own wheels are checked by the
factory's cp314t builds.

Which file each cell installs (INSTALLS, checked against pyproject.toml's
hooks and the workflows' `pip install -r` by ci/tests/lint/test_requirements.py):
"""
from __future__ import annotations

import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys

from ci.plan import matrix as matrix_toml
from ci.proc import ROOT

# uv's name for each (cibuildwheel platform, arch): manylinux_2_28 as
# pyproject.toml's images; macOS and Windows as GitHub's runners.
UV_PLATFORMS = {("linux", "x86_64"): "x86_64-manylinux_2_28", ("linux", "aarch64"): "aarch64-manylinux_2_28",
                ("macos", "arm64"): "aarch64-apple-darwin", ("macos", "x86_64"): "x86_64-apple-darwin",
                ("windows", "AMD64"): "x86_64-pc-windows-msvc"}

# (file, which Pythons, which platforms, who installs it). Pythons: "all" the
# matrix's, "abi3" the first one (which builds the stable-ABI wheel),
# "tested" those a platform's wheel is tested with, or one version.
# Platforms: "linux", "zig" (macOS and Windows), "runners" (every platform's job).
INSTALLS = [
    ("requirements-build.txt", "all", "linux", "pyproject.toml before-build (manylinux)"),
    ("ci/requirements-zig.txt", "abi3", "zig", "pyproject.toml before-build (macOS, Windows)"),
    ("tests/requirements.txt", "tested", "runners", "pyproject.toml before-test"),
    ("ci/requirements-tools.txt", "3.12", "linux", "ci/cibw_before_all.sh (the job's tools environment)"),
    ("ci/requirements-cibuildwheel.txt", "3.12", "runners", "wheels.yml (setup-python 3.12)"),
    ("ci/requirements-release.txt", "3.12", "ubuntu", "release.yml sdist and pypi jobs (setup-python 3.12)"),
]
__doc__ += "".join(f"- {f}: {who}\n" for f, _, _, who in INSTALLS)


def cells(matrix: dict) -> list[tuple[str, str, str, str]]:
    """(file, Python, platform name, uv platform) for every cell that installs a file."""
    pythons = matrix["pythons"]
    out = []
    for path, which, where, _ in INSTALLS:
        for name, platform in matrix["platforms"].items():
            if not platform.get("enabled", True):
                continue
            zig = "zig_target" in platform
            kind = platform["cibw_platform"]
            if (where == "linux" and kind != "linux") or (where == "zig" and not zig) or \
                    (where == "ubuntu" and platform["runner"] != "ubuntu-latest"):
                continue
            if which == "all":
                versions = pythons
            elif which == "abi3":
                versions = pythons[:1]
            elif which == "tested":
                versions = [v for v in pythons if not (zig and v.endswith("t"))]
            else:
                versions = [which]
            uv_platform = UV_PLATFORMS[(kind, platform["cibw_archs"])]
            out += [(path, v.rstrip("t"), name, uv_platform) for v in versions]
    return sorted(set(out))


def resolve(uv: str, path: str, python: str, uv_platform: str) -> str | None:
    """None when the cell resolves; uv's reason when it does not. From uv's cache first
    (about a second a cell; revalidating every index page takes ten), then, where that
    fails (a cache without the pinned release, or a real failure), against the index."""
    cmd = [uv, "pip", "compile", "--quiet", "--no-header", "--only-binary", ":all:", "--python-version", python,
           "--python-platform", uv_platform, os.path.join(ROOT, path), "-o", os.devnull]
    if subprocess.run([*cmd, "--offline"], capture_output=True).returncode == 0:
        return None
    proc = subprocess.run(cmd, capture_output=True, text=True)
    return None if proc.returncode == 0 else (proc.stderr.strip() or proc.stdout.strip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--uv", default=shutil.which("uv"), help="the uv to resolve with (default: on PATH)")
    args = parser.parse_args(argv)
    if not args.uv:
        raise SystemExit("check_requirements: needs uv (the tools environment has it)")
    todo = cells(matrix_toml.load())
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        verdicts = list(pool.map(lambda c: resolve(args.uv, c[0], c[1], c[3]), todo))
    failures = [(cell, why) for cell, why in zip(todo, verdicts) if why]
    for (path, python, name, uv_platform), why in failures:
        print(f"check_requirements: ERROR {path} for Python {python} on {name} ({uv_platform}):\n    "
              + why.replace("\n", "\n    "), file=sys.stderr)
    print(f"check_requirements: {len(todo) - len(failures)} of {len(todo)} cells resolve "
          f"({len({c[0] for c in todo})} files)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
