""".ci/run and ci/platforms.sh, read without running them (each runs for tens
of minutes): valid bash, every script they name exists, the factory accepts
the arguments they pass it, and between them they still run every stage
(none dropped when one moves from CI to the platform run)."""
from __future__ import annotations

import os
import re
import shlex
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ENTRY_POINTS = [os.path.join(ROOT, ".ci", "run"), os.path.join(ROOT, "ci", "platforms.sh")]


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def commands(path):
    """The command lines of the script (comments and blank lines left out)."""
    return [line.strip() for line in read(path).splitlines() if line.strip() and not line.strip().startswith("#")]


@pytest.mark.parametrize("path", ENTRY_POINTS, ids=os.path.basename)
def test_is_valid_bash(path):
    done = subprocess.run(["bash", "-n", path], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("path", ENTRY_POINTS, ids=os.path.basename)
def test_every_script_it_names_exists(path):
    named = set(re.findall(r"\bci/[\w./-]+\.(?:py|sh)\b", "\n".join(commands(path))))
    assert named, path
    missing = sorted(n for n in named if not os.path.exists(os.path.join(ROOT, n)))
    assert missing == [], f"{os.path.relpath(path, ROOT)} names scripts that do not exist: {missing}"


def factory_invocations(path):
    text = "\n".join(commands(path))
    text = re.sub(r'"\$(\w+)"', lambda m: "{" + m.group(1) + "}", text)
    for line in text.splitlines():
        m = re.search(r"python3 -m ci factory(.*)$", line)
        if m:
            yield shlex.split(m.group(1))


@pytest.mark.parametrize("path", ENTRY_POINTS, ids=os.path.basename)
def test_the_factory_accepts_what_it_is_given(path, monkeypatch):
    import sys
    from ci import factory
    from ci.plan import matrix as matrix_file

    m = matrix_file.load()
    # Which Pythons this machine has is not the question here.
    monkeypatch.setattr(factory, "discover_pythons", lambda wanted: {v: sys.executable for v in wanted})
    variables = dict(re.findall(r"^(\w+)=([\w.,-]+)$", read(path), re.M))
    runs = list(factory_invocations(path))
    for argv in runs:
        argv = [a.format(**variables) for a in argv]
        factory.parse_args(argv, m)  # exits (SystemExit) on an unknown flag, platform or variant
    if path.endswith("run"):
        assert any("--variant" in a for a in runs), "README's main command is CI's factory step"


def test_every_stage_runs_in_one_of_them():
    both = "\n".join("\n".join(commands(p)) for p in ENTRY_POINTS)
    for stage in ("-m ci factory --variant cpu,cu130", "ci/test_wheel.sh", "-m ci release-rehearsal",
                  "ci/test_sanitizers.sh", "ci/fuzz.sh", "ci/difftest.sh", "ci/benchmark_sweep.sh",
                  "ci/test_source_installs.sh", "-k reproducible", "-m ci act-release", "ci/qemu_aarch64.sh",
                  "--platform", "--engine cibuildwheel", "ci/lint_workflows.sh", "-m ci build-cpython"):
        assert stage in both, f"no entry point runs {stage}"
