"""ci/matrix.toml, the one description of the variants and the names, as the
build reads it (ci/plan/matrix.py is the factory's and the workflows' view)."""
from __future__ import annotations

import os

from .env import ROOT, BuildSettingError

MATRIX = os.path.join(ROOT, "ci", "matrix.toml")


def load(path: str = MATRIX) -> dict:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python < 3.11
        try:
            import tomli as tomllib
        except ModuleNotFoundError as e:
            raise BuildSettingError("building on Python < 3.11 needs the tomli package (pip install tomli)") from e
    with open(path, "rb") as f:
        return tomllib.load(f)


def index_name(matrix: dict | None = None) -> str:
    """The distribution name of a build that names none: the per-variant indexes' (`torch`)."""
    return (load() if matrix is None else matrix)["names"]["index"]


def python_classifiers(matrix: dict | None = None) -> list[str]:
    """The trove classifiers of the Pythons the matrix builds for: one stable-ABI
    wheel serves 3.9 and later, each free-threaded Python has its own wheel."""
    pythons = (load() if matrix is None else matrix)["pythons"]
    versions = sorted({v.rstrip("t") for v in pythons}, key=lambda v: tuple(int(x) for x in v.split(".")))
    out = [f"Programming Language :: Python :: {v}" for v in versions]
    if any(v.endswith("t") for v in pythons):
        # Tested without the GIL (tests/test_threads.py); not yet claimed thread-safe in every op.
        out.append("Programming Language :: Python :: Free Threading :: 2 - Beta")
    return out
