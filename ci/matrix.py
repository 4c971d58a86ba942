"""Reads ci/matrix.toml, the single description of the build matrix.

    python ci/matrix.py github          # the GitHub job matrix, as JSON (one job per platform x variant)
    python ci/matrix.py pythons         # the CPython versions, one per line
    python ci/matrix.py cibw-build      # cibuildwheel's CIBW_BUILD selector for them
"""
from __future__ import annotations

import json
import os
import sys

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11
    try:
        import tomli as tomllib
    except ModuleNotFoundError:
        sys.exit("ci/matrix.py needs Python 3.11+ (tomllib) or the tomli package to read ci/matrix.toml")

MATRIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "matrix.toml")


def load(path: str = MATRIX) -> dict:
    with open(path, "rb") as f:
        matrix = tomllib.load(f)
    for name, platform in matrix["platforms"].items():
        for v in platform["variants"]:
            if v not in matrix["variants"]:
                raise ValueError(f"{path}: platform {name} names unknown variant {v!r}")
    return matrix


def cibw_build(matrix: dict) -> str:
    return " ".join(f"cp{v.replace('.', '')}-*" for v in matrix["pythons"])


def github_jobs(matrix: dict) -> list[dict]:
    jobs = []
    for pname, platform in matrix["platforms"].items():
        if not platform.get("enabled", True):
            continue
        for vname in platform["variants"]:
            variant = matrix["variants"][vname]
            if not variant.get("enabled", True):
                continue
            jobs.append({
                "name": f"{pname}-{vname}",
                "runner": platform["runner"],
                "platform": platform["cibw_platform"],
                "archs": platform["cibw_archs"],
                "variant": vname,
                "cuda": variant.get("cuda", ""),
                "arch_list": variant.get("arch_list", ""),
                "build": cibw_build(matrix),
            })
    return jobs


def main(argv: list[str]) -> int:
    matrix = load()
    what = argv[1] if len(argv) > 1 else "github"
    if what == "github":
        print(json.dumps({"include": github_jobs(matrix)}))
    elif what == "pythons":
        print("\n".join(matrix["pythons"]))
    elif what == "cibw-build":
        print(cibw_build(matrix))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
