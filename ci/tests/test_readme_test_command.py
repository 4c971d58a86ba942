"""ci/test_wheel.sh (README's test command) records a pass by the digest of
its inputs and does not repeat it; any change to them, a failure, or
TORCH_TEST_RERUN=1 runs the suite. Driven here with a stand-in Python whose
venv, pip and pytest only log what they were asked to do."""
import os
import shutil
import subprocess
import sys

from ci.proc import ROOT

FAKE_PYTHON = """#!/usr/bin/env bash
# -c runs the real Python (the script asks for the interpreter's identity);
# the rest is logged.
case "$1" in
  -c) exec "$REAL_PYTHON" "$@" ;;
esac
if [ "$1 $2" = "-m venv" ]; then mkdir -p "$3/bin" && cp "$0" "$3/bin/python"; exit 0; fi
if [ "$1 $2" = "-m pytest" ]; then echo "pytest $*" >> "$RUN_LOG"; exit "${PYTEST_STATUS:-0}"; fi
exit 0
"""


def checkout(tmp_path):
    root = tmp_path / "checkout"
    (root / "ci").mkdir(parents=True)
    for name in ("test_wheel.sh", "common.sh"):
        shutil.copy(os.path.join(ROOT, "ci", name), root / "ci" / name)
    for path in ("tests/test_a.py", "examples/hello.py", "pyproject.toml", "tools/api_coverage/report.py",
                 "docs/API_COVERAGE.md"):
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text("# " + path)
    python = tmp_path / "python"
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)
    wheel = tmp_path / "torch-1.0+cpu-cp311-cp311-linux_x86_64.whl"
    wheel.write_bytes(b"a wheel")
    return root, python, wheel


def run(root, python, wheel, *args, **env):
    log = root / "runs.log"
    log.write_text("")
    proc = subprocess.run(["bash", str(root / "ci" / "test_wheel.sh"), str(wheel), *args], capture_output=True,
                          text=True, env={**os.environ, "PYTHON": str(python), "REAL_PYTHON": sys.executable,
                                          "RUN_LOG": str(log), "TORCH_TEST_TOOLS": "0", **env})
    return proc.returncode, len(log.read_text().splitlines()), proc.stderr


def test_a_pass_is_recorded_and_not_repeated(tmp_path):
    root, python, wheel = checkout(tmp_path)
    assert run(root, python, wheel)[:2] == (0, 1)
    rc, runs, err = run(root, python, wheel)
    assert (rc, runs) == (0, 0) and "passed this suite before" in err
    assert run(root, python, wheel, TORCH_TEST_RERUN="1")[:2] == (0, 1)


def test_changed_inputs_run_the_suite_again(tmp_path):
    root, python, wheel = checkout(tmp_path)
    assert run(root, python, wheel)[:2] == (0, 1)
    (root / "tests" / "test_a.py").write_text("# changed")
    assert run(root, python, wheel)[:2] == (0, 1)
    assert run(root, python, wheel, "-k", "some")[:2] == (0, 1)  # other arguments
    wheel.write_bytes(b"another build")
    assert run(root, python, wheel)[:2] == (0, 1)
    assert run(root, python, wheel)[:2] == (0, 0)


def test_a_failure_is_not_recorded(tmp_path):
    root, python, wheel = checkout(tmp_path)
    rc, runs, _ = run(root, python, wheel, PYTEST_STATUS="1")
    assert rc != 0 and runs == 1
    assert run(root, python, wheel)[:2] == (0, 1)


def test_the_factory_gets_a_report(tmp_path):
    root, python, wheel = checkout(tmp_path)
    report = tmp_path / "report.xml"
    assert run(root, python, wheel, TORCH_TEST_REPORT=str(report))[:2] == (0, 1)
    assert f"--junitxml={report}" in (root / "runs.log").read_text()
