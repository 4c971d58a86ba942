"""The examples, run as a user would (from the copy next to these tests)."""
import os
import re
import subprocess
import sys

import pytest

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")


def _run(name):
    path = os.path.join(EXAMPLES, name)
    if not os.path.exists(path):
        pytest.skip(f"{name} not next to the tests (run through ci/test_wheel.sh)")
    return subprocess.run([sys.executable, path], capture_output=True, text=True, check=True).stdout


def test_hello_world_prints_pytorch_format():
    lines = _run("hello_world.py").splitlines()
    assert re.fullmatch(r"tensor\(\[\d\.\d{4}\], grad_fn=<SigmoidBackward0>\)", lines[0]), lines[0]
    assert re.fullmatch(r"tensor\(\d\.\d{4}, grad_fn=<MseLossBackward0>\)", lines[1]), lines[1]
    assert lines[2].startswith("after one step: loss")
