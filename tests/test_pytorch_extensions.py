"""The extensions of tests/extensions, written in PyTorch's spelling only,
installed as their users install them (`pip install --no-build-isolation .`,
here into a target directory) against the torch under test, then their own
tests run in a fresh process outside their source tree. ci/testing/extensions.py
does the same for each variant the factory builds (with the CUDA kernels
for a CUDA variant)."""
import glob
import os
import shutil
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGES = sorted(p for p in os.listdir(os.path.join(HERE, "extensions"))
                  if os.path.isfile(os.path.join(HERE, "extensions", p, "setup.py")))

pytestmark = [pytest.mark.build,
              pytest.mark.skipif(not sys.platform.startswith("linux"), reason="extensions build on Linux only")]


def test_both_forms_are_here():
    assert PACKAGES == ["lltm_pybind", "muladd_ops"]


@pytest.mark.parametrize("package", PACKAGES)
def test_extension_builds_and_passes_its_tests(package, tmp_path):
    source = tmp_path / "src"
    shutil.copytree(os.path.join(HERE, "extensions", package), source)
    site = tmp_path / "site"
    # The cpu kernels only: a CUDA toolkit is the factory's business (ci/testing/extensions.py).
    env = {**os.environ, "USE_CUDA": "0"}
    build = subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "-q",
                            "--target", str(site), "."], cwd=source, env=env, capture_output=True, text=True)
    assert build.returncode == 0, build.stdout[-4000:] + build.stderr[-4000:]
    tests = tmp_path / "tests"
    tests.mkdir()
    for test_file in glob.glob(str(source / "test_*.py")):
        shutil.copy(test_file, tests)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests)],
                         cwd=tests, env={**os.environ, "PYTHONPATH": str(site)}, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-3000:]
    assert " passed" in run.stdout and "failed" not in run.stdout

