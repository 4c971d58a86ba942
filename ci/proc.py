"""Helpers the factory's Python modules share: where the checkout is, a log
line, a checked command, a job of this package as a command, a virtual
environment."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

CI = os.path.dirname(os.path.abspath(__file__))  # this package; its data files (matrix.toml, requirements) lie here
ROOT = os.path.dirname(CI)  # the checkout


def ci_command(python: str, job: str, *args: str) -> list[str]:
    """`python -m ci JOB ARGS` as a command list; run it with cwd=ROOT, where `ci` imports from."""
    return [python, "-m", "ci", job, *args]


def log(msg: str) -> None:
    print(f"\n==> {msg}", flush=True)


def actions_error(message: str) -> None:
    """A step's failure on stderr, its first line as GitHub Actions' ::error:: (shown on the run's page)."""
    first, *rest = message.splitlines() or [""]
    print(f"::error::{first}", file=sys.stderr)
    for line in rest:
        print(line, file=sys.stderr)


def run(cmd: list[str], env: dict | None = None, cwd: str | None = None, quiet: bool = False) -> str:
    """Runs cmd (its output shown, or captured with quiet); a failure ends the
    program naming the command, with the captured output's tail."""
    merged = {**os.environ, **(env or {})}
    proc = subprocess.run(cmd, env=merged, cwd=cwd, text=True, stdout=subprocess.PIPE if quiet else None,
                          stderr=subprocess.STDOUT if quiet else None)
    if proc.returncode != 0:
        if quiet and proc.stdout:
            print(proc.stdout[-4000:])
        raise SystemExit(f"{os.path.basename(sys.argv[0])}: command failed ({proc.returncode}): {' '.join(cmd)}")
    return proc.stdout or ""


def venv_python(venv: str) -> str:
    return os.path.join(venv, "bin", "python")


def make_venv(python: str, path: str, packages: list[str], fresh: bool) -> str:
    """A virtual environment at path with packages (fresh: made anew); its python."""
    if fresh and os.path.exists(path):
        shutil.rmtree(path)
    if not os.path.exists(venv_python(path)):
        run([python, "-m", "venv", path])
        run([venv_python(path), "-m", "pip", "install", "-q", "--upgrade", "pip"], quiet=True)
    if packages:
        run([venv_python(path), "-m", "pip", "install", "-q", *packages], quiet=True)
    return venv_python(path)


def cache_dir(*parts: str) -> str:
    """A folder of the factory's cache outside the repository (inputs fetched
    or built once and reused, keyed by what they were made from)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = os.path.join(base, "torch-factory", *parts)
    os.makedirs(path, exist_ok=True)
    return path


def junit_counts(report: str) -> tuple[int, int, int]:
    """(passed, failed, skipped) from pytest's JUnit report (errors count as failed)."""
    suite = ET.parse(report).getroot()
    suite = suite if suite.tag == "testsuite" else suite.find("testsuite")
    total, failures, errors, skipped = (int(suite.get(k, 0)) for k in ("tests", "failures", "errors", "skipped"))
    return total - failures - errors - skipped, failures + errors, skipped
