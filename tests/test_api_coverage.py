"""docs/API_COVERAGE.md is what tools/api_coverage reports for the installed
torch against PyTorch 2.13's stored API: adding or losing a public name
without regenerating the report fails here."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, "tools", "api_coverage")
REPORT = os.path.join(ROOT, "docs", "API_COVERAGE.md")

pytestmark = pytest.mark.skipif(not os.path.isdir(TOOL), reason="tools/api_coverage is not copied beside tests/ "
                                "(ci/test_wheel.sh copies it; subset runs under qemu and Wine do not)")


def test_report_is_current(tmp_path):
    done = subprocess.run([sys.executable, TOOL, "report", "--check", "--output", REPORT], cwd=tmp_path,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr + done.stdout


def test_report_reads_this_torch_not_the_checkout(tmp_path):
    # The tool strips the checkout from sys.path: it must report the installed package.
    done = subprocess.run([sys.executable, TOOL, "report", "--output", str(tmp_path / "r.md")], cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    import torch
    assert f"from the installed torch ({torch.__version__.split('+')[0]})" in (tmp_path / "r.md").read_text()
