"""ci/publish/variants.py: variant wheels and the variant index, and what installers
take from it, over a loopback server. uv (the tools environment's, with the
wheel-variants preview) chooses by the driver version it is told to assume:
none or 11.8 gives the null (cpu) variant, 12.8 cu126, 13.0 cu130; pip and
uv without the preview take the plain cpu wheel. The wheels here are small
stand-ins named like torch's (torch-2.13.0.1+<label>, py3-none-any)."""
import base64
import functools
import hashlib
import http.server
import json
import os
import subprocess
import sys
import threading
import zipfile

import pytest

from ci.plan import matrix as build_matrix
from ci.publish import variants

VERSION = "2.13.0.1"
CUDA = {"cpu": None, "cu126": "12.6", "cu130": "13.0"}


def fake_torch_wheel(directory, label):
    """A torch-shaped wheel whose torch.version.cuda says which variant it is."""
    version = f"{VERSION}+{label}"
    info = f"torch-{version}.dist-info"
    files = {
        "torch/__init__.py": b"from torch import version\n",
        "torch/version.py": f"__version__ = {version!r}\ncuda = {CUDA[label]!r}\n".encode(),
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: torch\nVersion: {version}\n"
                            "Requires-Python: >=3.9\n".encode(),
        f"{info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = [f"{name},sha256={base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()},"
              f"{len(data)}" for name, data in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    name = f"torch-{version}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(directory, name), "w") as z:
        z.writestr("torch/", b"")  # a directory entry, as auditwheel's repaired wheels have: not in RECORD
        for member, data in files.items():
            z.writestr(member, data)
    return name


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    root = tmp_path_factory.mktemp("variants")
    wheels = [fake_torch_wheel(root, label) for label in CUDA]
    index_dir = root / "index"
    made = variants.write_index(str(root), str(index_dir), wheels, build_matrix.load())
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(index_dir))
    handler.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield {"dir": index_dir, "made": made, "url": f"http://127.0.0.1:{server.server_address[1]}/simple"}
    server.shutdown()


def test_variant_wheels_are_the_plain_ones_plus_variant_json(index):
    names = sorted(os.path.basename(p) for p in index["made"])
    assert names == [f"torch-{VERSION}+cpu-py3-none-any-null.whl", f"torch-{VERSION}+cu126-py3-none-any-cu126.whl",
                     f"torch-{VERSION}+cu130-py3-none-any-cu130.whl"]
    inner = variants.read_variant(str(index["dir"] / "files" / names[2]))
    assert inner["variants"] == {"cu130": {"nvidia": {"cuda_version_lower_bound": ["13.0"]}}}
    assert inner["providers"]["nvidia"]["plugin-api"] == "nvidia_variant_provider.plugin:NvidiaVariantPlugin"
    with open(index["dir"] / "files" / f"torch-{VERSION}+cu126-variants.json") as f:
        assert json.load(f)["variants"] == {"cu126": {"nvidia": {"cuda_version_lower_bound": ["12.6"],
                                                                 "cuda_version_upper_bound": ["13"]}}}
    assert variants.check(str(index["dir"] / "files")) == []
    page = (index["dir"] / "simple" / "torch" / "index.html").read_text()
    assert f"torch-{VERSION}+cpu-py3-none-any.whl#" in page  # the plain fallback
    assert f"torch-{VERSION}+cu130-variants.json#" in page


def test_check_finds_a_tampered_wheel(index, tmp_path):
    copy = tmp_path / "index"
    import shutil

    shutil.copytree(index["dir"], copy)
    name = f"torch-{VERSION}+cpu-py3-none-any-null.whl"
    with zipfile.ZipFile(index["dir"] / "files" / name) as src, zipfile.ZipFile(copy / "files" / name, "w") as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            dst.writestr(item, b"import os\n" if item.filename == "torch/__init__.py" else data)
    problems = variants.check(str(copy / "files"))
    assert any("RECORD does not match torch/__init__.py" in p for p in problems)
    assert any("torch/__init__.py differs from the plain wheel's" in p for p in problems)


def test_make_writes_the_variant_files_beside_the_plain_wheels(tmp_path):
    """What wheels.yml runs after each build: variant wheels and json files in the wheelhouse, checked."""
    for label in CUDA:
        fake_torch_wheel(tmp_path, label)
    assert variants.main(["make", str(tmp_path), str(tmp_path)]) == 0
    names = sorted(os.listdir(tmp_path))
    assert f"torch-{VERSION}+cu130-py3-none-any-cu130.whl" in names
    assert f"torch-{VERSION}+cpu-variants.json" in names
    assert variants.index_files(names, build_matrix.load()) == sorted([
        f"torch-{VERSION}+cpu-py3-none-any.whl", f"torch-{VERSION}+cpu-py3-none-any-null.whl",
        f"torch-{VERSION}+cpu-variants.json", f"torch-{VERSION}+cu126-py3-none-any-cu126.whl",
        f"torch-{VERSION}+cu126-variants.json", f"torch-{VERSION}+cu130-py3-none-any-cu130.whl",
        f"torch-{VERSION}+cu130-variants.json"])
    # A plain wheel whose variant form went missing is found.
    os.remove(tmp_path / f"torch-{VERSION}+cu126-py3-none-any-cu126.whl")
    assert variants.check(str(tmp_path)) == [
        f"torch-{VERSION}+cu126-py3-none-any.whl has no variant form beside it (python3 -m ci variants make)"]
    # A folder without torch wheels is an error, not an empty success.
    empty = tmp_path / "empty"
    empty.mkdir()
    assert variants.main(["make", str(empty), str(empty)]) == 1


def test_properties_are_checked():
    assert variants.properties(["nvidia :: sm_arch :: 80", "nvidia :: sm_arch :: 90"]) == {
        "nvidia": {"sm_arch": ["80", "90"]}}
    with pytest.raises(ValueError, match="namespace :: feature :: value"):
        variants.properties(["nvidia :: 13.0"])
    with pytest.raises(ValueError, match="no provider"):
        variants.properties(["amd :: rocm :: 6"])


def _uv():
    uv = pytest.importorskip("uv")
    return uv.find_uv_bin()


def _installed_cuda(env_dir):
    python = os.path.join(env_dir, "bin", "python")
    # From the environment's folder: the checkout's own torch/ must not be what imports.
    out = subprocess.run([python, "-I", "-c", "import torch; print(torch.version.cuda)"], capture_output=True,
                         text=True, check=True, cwd=env_dir)
    return out.stdout.strip()


@pytest.mark.parametrize("driver, expected", [(None, "None"), ("11.8", "None"), ("12.8", "12.6"), ("13.0", "13.0")])
def test_uv_picks_the_variant_the_driver_supports(index, tmp_path, driver, expected):
    uv = _uv()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("UV_", "PIP_", "NV_"))}
    env.update(UV_NO_CONFIG="1", UV_PREVIEW_FEATURES="wheel-variants", UV_CACHE_DIR=str(tmp_path / "cache"))
    if driver:
        env["NV_VARIANT_PROVIDER_FORCE_CUDA_DRIVER_VERSION"] = driver
    venv = tmp_path / "venv"
    subprocess.run([uv, "venv", "-q", "--python", sys.executable, str(venv)], env=env, check=True)
    subprocess.run([uv, "pip", "install", "-q", "--python", str(venv / "bin" / "python"), "--index-url",
                    index["url"], "torch"], env=env, check=True)
    assert _installed_cuda(venv) == expected


def test_installers_without_variants_take_the_plain_wheel(index, tmp_path):
    uv = _uv()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("UV_", "PIP_", "NV_"))}
    env.update(UV_NO_CONFIG="1", UV_CACHE_DIR=str(tmp_path / "cache"),
               NV_VARIANT_PROVIDER_FORCE_CUDA_DRIVER_VERSION="13.0")  # a driver, but no preview flag
    venv = tmp_path / "venv"
    subprocess.run([uv, "venv", "-q", "--python", sys.executable, str(venv)], env=env, check=True)
    subprocess.run([uv, "pip", "install", "-q", "--python", str(venv / "bin" / "python"), "--index-url",
                    index["url"], "torch"], env=env, check=True)
    assert _installed_cuda(venv) == "None"
    target = tmp_path / "pip-target"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target),
                    "--index-url", index["url"], "torch"], env={**env, "PIP_CONFIG_FILE": os.devnull}, check=True)
    assert (target / f"torch-{VERSION}+cpu.dist-info").is_dir()
