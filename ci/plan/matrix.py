"""Reads ci/matrix.toml, the single description of the build matrix.

    python -m ci matrix github          # the GitHub job matrix, as JSON (one job per platform x variant)
    TORCH_MATRIX_ONLY="linux-x86_64:cpu,cu130:3.12" python -m ci matrix github   # a reduced one
    python -m ci matrix pythons         # the CPython versions, one per line
    python -m ci matrix cibw-build      # cibuildwheel's CIBW_BUILD selector for them
    python -m ci matrix sync            # writes that selector into pyproject.toml's [tool.cibuildwheel]
"""
from __future__ import annotations

import json
import os
import re
import sys

from ci.proc import CI, ROOT

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    try:
        import tomli as tomllib
    except ModuleNotFoundError:
        sys.exit("ci/plan/matrix.py needs Python 3.11+ (tomllib) or the tomli package to read ci/matrix.toml")

MATRIX = os.path.join(CI, "matrix.toml")
PYPROJECT = os.path.join(ROOT, "pyproject.toml")
_BUILD_LINE = re.compile(r'^(build = )"[^"]*"$', re.M)


def load(path: str = MATRIX) -> dict:
    with open(path, "rb") as f:
        matrix = tomllib.load(f)
    for name, platform in matrix["platforms"].items():
        for v in platform["variants"]:
            if v not in matrix["variants"]:
                raise ValueError(f"{path}: platform {name} names unknown variant {v!r}")
    return matrix


def cibw_build(matrix: dict, stable_abi: bool = False) -> str:
    """cibuildwheel's selector for the matrix's Pythons; for a stable-ABI
    (zig-built) platform, without the free-threaded ones, which have no stable ABI."""
    versions = [v for v in matrix["pythons"] if not (stable_abi and v.endswith("t"))]
    return " ".join(f"cp{v.replace('.', '')}-*" for v in versions)


def pyproject_build(path: str = PYPROJECT) -> str:
    """The `build` selector currently in pyproject.toml's [tool.cibuildwheel]."""
    with open(path) as f:
        section = f.read().split("[tool.cibuildwheel]", 1)[1].split("\n[", 1)[0]
    m = _BUILD_LINE.search(section)
    return m.group(0).split('"')[1] if m else ""


def sync(matrix: dict, path: str = PYPROJECT) -> None:
    with open(path) as f:
        text = f.read()
    head, rest = text.split("[tool.cibuildwheel]", 1)
    rest = _BUILD_LINE.sub(lambda m: f'{m.group(1)}"{cibw_build(matrix)}"', rest, count=1)
    with open(path, "w") as f:
        f.write(head + "[tool.cibuildwheel]" + rest)


def reduce(matrix: dict, only: str) -> dict:
    """The matrix cut down to `PLATFORMS:VARIANTS:PYTHONS` (comma lists; an
    empty field keeps all): $TORCH_MATRIX_ONLY, which a local run of the
    release under act sets in the runner's environment (ci/rehearse/workflows.py)
    and GitHub's runners do not have. A name the matrix lacks is an error, not an empty matrix."""
    if not only.strip():
        return matrix
    fields = (only.split(":") + ["", ""])[:3]
    if only.count(":") > 2:
        raise ValueError(f"TORCH_MATRIX_ONLY={only!r}: expected PLATFORMS:VARIANTS:PYTHONS")
    wanted = [set(filter(None, f.split(","))) for f in fields]
    for names, known, what in zip(wanted, (matrix["platforms"], matrix["variants"], matrix["pythons"]),
                                  ("platform", "variant", "Python")):
        unknown = sorted(names - set(known))
        if unknown:
            raise ValueError(f"TORCH_MATRIX_ONLY={only!r}: no {what} {', '.join(unknown)} in ci/matrix.toml")
    platforms, variants, pythons = wanted
    reduced = dict(matrix)
    reduced["platforms"] = {n: {**p, "variants": [v for v in p["variants"] if not variants or v in variants]}
                            for n, p in matrix["platforms"].items() if not platforms or n in platforms}
    reduced["pythons"] = [v for v in matrix["pythons"] if not pythons or v in pythons]
    return reduced


def github_jobs(matrix: dict) -> list[dict]:
    jobs = []
    for pname, platform in matrix["platforms"].items():
        if not platform.get("enabled", True):
            continue
        for vname in platform["variants"]:
            variant = matrix["variants"][vname]
            if not variant.get("enabled", True):
                continue
            zig = "zig_target" in platform
            jobs.append({
                "name": f"{pname}-{vname}",
                "runner": platform["runner"],
                "platform": platform["cibw_platform"],
                "archs": platform["cibw_archs"],
                "variant": vname,
                "cuda": variant.get("cuda", ""),
                "arch_list": variant.get("arch_list", ""),
                "host_cxx": variant.get("host_cxx", ""),
                # setup.py's TORCH_PLATFORM: the zig build of that platform (tools/setup_helpers/target.py).
                "torch_platform": pname if zig else "",
                "build": cibw_build(matrix, stable_abi=zig),
            })
    return jobs


def main(argv: list[str]) -> int:
    matrix = load()
    what = argv[1] if len(argv) > 1 else "github"
    if what == "github":
        try:
            jobs = github_jobs(reduce(matrix, os.environ.get("TORCH_MATRIX_ONLY", "")))
        except ValueError as e:
            print(f"ci/plan/matrix.py: {e}", file=sys.stderr)
            return 2
        if not jobs:
            print(f"ci/plan/matrix.py: TORCH_MATRIX_ONLY={os.environ.get('TORCH_MATRIX_ONLY')!r} leaves no job",
                  file=sys.stderr)
            return 1
        print(json.dumps({"include": jobs}))
    elif what == "pythons":
        print("\n".join(matrix["pythons"]))
    elif what == "cibw-build":
        print(cibw_build(matrix))
    elif what == "sync":
        sync(matrix)
        print(f"pyproject.toml: build = \"{cibw_build(matrix)}\"")
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
