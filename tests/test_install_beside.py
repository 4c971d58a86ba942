"""Installing a library that requires torch keeps this torch, with pip and uv.

The distribution's version is the PyTorch API level it implements plus this
project's release (2.13.0.1: the first release of PyTorch 2.13's API), so a
library's `torch>=2.0` is already satisfied and neither installer touches
torch, even with a newer torch on offer. A library that needs a newer torch
would make them replace it; README's pin file (`torch==<torch.__version__>`
as a constraint) turns that into a refusal. Both installers run as dry runs
against a folder of hand-made wheels, offline, so the environment under test
is never changed.
"""
import importlib.metadata
import importlib.util
import json
import os
import subprocess
import sys
import zipfile

import pytest
import torch
from packaging.version import Version


def make_wheel(folder, name, version, requires=()):
    """A pure-Python wheel holding nothing but its metadata."""
    dist = f"{name.replace('-', '_')}-{version}"
    path = os.path.join(folder, f"{dist}-py3-none-any.whl")
    metadata = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
    metadata += "".join(f"Requires-Dist: {r}\n" for r in requires)
    with zipfile.ZipFile(path, "w") as z:
        z.writestr(f"{dist}.dist-info/METADATA", metadata)
        z.writestr(f"{dist}.dist-info/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        z.writestr(f"{dist}.dist-info/RECORD", "")
    return path


@pytest.fixture
def offer(tmp_path):
    """A find-links folder with PyTorch's next release and two libraries."""
    folder = str(tmp_path / "wheels")
    os.makedirs(folder)
    make_wheel(folder, "torch", "2.14.1")
    make_wheel(folder, "needs-torch", "1.0", ["torch>=2.0"])
    make_wheel(folder, "needs-newer-torch", "1.0", ["torch>=2.14"])
    return folder


@pytest.fixture
def torch_distribution():
    try:
        return importlib.metadata.distribution("torch")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("this torch is installed under another distribution name (the PyPI files)")


def pin_file(tmp_path):
    path = tmp_path / "torch-pin.txt"
    path.write_text("torch==" + torch.__version__ + "\n")  # README's command writes exactly this
    return str(path)


def test_version_states_the_api_level(torch_distribution):
    version = Version(torch.__version__)
    assert torch_distribution.version == torch.__version__
    # Above PyTorch 2.13.0 itself (so pip can tell the two apart), below 2.13.1.
    assert Version("2.13.0") < version < Version("2.13.1"), torch.__version__
    assert version.local == torch.__version__.partition("+")[2] or version.local is None


def clean_env():
    """The installers run without the sanitizer run's preloaded runtime (they are not what it checks)."""
    drop = ("LD_PRELOAD", "ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS", "PYTHONMALLOC")
    return {k: v for k, v in os.environ.items() if k not in drop}


def pip(*args):
    if importlib.util.find_spec("pip") is None:
        pytest.skip("this Python has no pip (an embedded CPython)")
    return subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "install", "--dry-run",
                           "--no-index", *args], capture_output=True, text=True, timeout=300, env=clean_env())


def test_pip_keeps_this_torch(torch_distribution, offer, tmp_path):
    report = tmp_path / "report.json"
    out = pip("--find-links", offer, "--report", str(report), "needs-torch")
    assert out.returncode == 0, out.stdout + out.stderr
    planned = {item["metadata"]["name"]: item["metadata"]["version"] for item in json.loads(report.read_text())["install"]}
    assert planned == {"needs-torch": "1.0"}


def test_pip_would_swap_for_a_newer_requirement_and_the_pin_refuses(torch_distribution, offer, tmp_path):
    report = tmp_path / "report.json"
    out = pip("--find-links", offer, "--report", str(report), "needs-newer-torch")
    assert out.returncode == 0, out.stdout + out.stderr
    planned = {item["metadata"]["name"]: item["metadata"]["version"] for item in json.loads(report.read_text())["install"]}
    assert planned.get("torch") == "2.14.1"  # what the pin file is for

    out = pip("--find-links", offer, "-c", pin_file(tmp_path), "needs-newer-torch")
    assert out.returncode != 0
    assert "torch" in out.stdout + out.stderr and "2.14" in out.stdout + out.stderr, out.stdout + out.stderr


def uv(*args):
    uv_module = pytest.importorskip("uv")
    return subprocess.run([uv_module.find_uv_bin(), "pip", "install", "--python", sys.executable, "--dry-run",
                           "--offline", "--no-index", *args], capture_output=True, text=True, timeout=300,
                          env={**clean_env(), "NO_COLOR": "1"})


def test_uv_keeps_this_torch(torch_distribution, offer):
    out = uv("--find-links", offer, "needs-torch")
    assert out.returncode == 0, out.stdout + out.stderr
    lines = (out.stdout + out.stderr).splitlines()
    assert any("needs-torch==1.0" in line for line in lines), lines
    assert not any("torch==2.14.1" in line for line in lines), lines


def test_uv_with_the_pin_refuses_a_newer_requirement(torch_distribution, offer, tmp_path):
    out = uv("--find-links", offer, "needs-newer-torch")
    assert out.returncode == 0 and "torch==2.14.1" in out.stdout + out.stderr, out.stdout + out.stderr
    out = uv("--find-links", offer, "-c", pin_file(tmp_path), "needs-newer-torch")
    assert out.returncode != 0
    assert "torch" in out.stdout + out.stderr and "2.14" in out.stdout + out.stderr, out.stdout + out.stderr
