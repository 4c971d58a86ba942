"""Checks the runner labels the build matrix and the workflows name against
ci/runner_labels.toml, the list of GitHub-hosted labels with where each was read.

    python3 -m ci check-runners

A job on a retired label is ended by GitHub with an error: the first tag
push after a retirement would fail there. This fails first, naming the
replacement; also for a label past its announced end (`until`) and for a
label the list does not know.
"""
from __future__ import annotations

import datetime
import glob
import os
import re
import sys

from ci.plan import matrix as matrix_toml
from ci.plan.matrix import tomllib
from ci.proc import CI, ROOT

LABELS = os.path.join(CI, "runner_labels.toml")
_RUNS_ON = re.compile(r"^\s*runs-on:\s*([^\s#]+)", re.M)


def load_labels(path: str = LABELS) -> dict[str, dict]:
    with open(path, "rb") as f:
        return tomllib.load(f)["labels"]


def used_labels(matrix: dict) -> list[tuple[str, str]]:
    """(where, label): every platform's runner, and every literal `runs-on:` of the workflows."""
    used = [(f"ci/matrix.toml platforms.{name}", p["runner"]) for name, p in matrix["platforms"].items()
            if p.get("enabled", True)]
    for path in sorted(glob.glob(os.path.join(ROOT, ".github", "workflows", "*.yml"))):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for m in _RUNS_ON.finditer(text):
            if "${{" not in m[1]:  # a matrix expression: the matrix's labels are checked above
                used.append((f"{os.path.relpath(path, ROOT)}:{text.count(chr(10), 0, m.start()) + 1}", m[1]))
    return used


def errors(used: list[tuple[str, str]], labels: dict[str, dict], today: datetime.date) -> list[str]:
    found = []
    for where, label in used:
        entry = labels.get(label)
        if entry is None:
            found.append(f"{where}: {label!r} is not a GitHub-hosted label ci/runner_labels.toml knows "
                         "(add it with the announcement you read it in)")
        elif entry["status"] == "retired":
            found.append(f"{where}: {label} was retired on {entry['retired']} ({entry['source']}): "
                         f"use {entry['replacement']}")
        elif "until" in entry and today > datetime.date.fromisoformat(entry["until"]):
            found.append(f"{where}: {label} was announced to run only until {entry['until']} ({entry['source']})")
    return found


def main() -> int:
    used = used_labels(matrix_toml.load())
    found = errors(used, load_labels(), datetime.date.today())
    for e in found:
        print(f"check_runners: ERROR {e}", file=sys.stderr)
    if not found:
        print(f"check_runners: {len(used)} runner labels, all GitHub-hosted and current "
              f"({', '.join(sorted({label for _, label in used}))})")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
