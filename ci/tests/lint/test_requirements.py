"""ci/lint/requirements.py: its table names every requirements file that a
workflow or a cibuildwheel hook installs, and the cells it resolves are the
ones that install each. The resolution itself runs in the workflow lint."""
import glob
import os
import re
import stat

from ci.lint import requirements as check_requirements
from ci.plan import matrix
from ci.proc import ROOT


def installed_files() -> set[str]:
    """Every `-r FILE` of pyproject.toml's cibuildwheel hooks and the workflows, and the tools environment."""
    found = set()
    with open(os.path.join(ROOT, "pyproject.toml")) as f:
        found |= set(re.findall(r"-r \{project\}/(\S+?)[\"\s]", f.read()))
    for path in glob.glob(os.path.join(ROOT, ".github", "workflows", "*.yml")):
        with open(path) as f:
            found |= set(re.findall(r"pip install -r (\S+)", f.read()))
    with open(os.path.join(ROOT, "ci", "cibw_before_all.sh")) as f:
        found |= {p.replace("$project/", "") for p in re.findall(r'-r "(\$project/\S+)"', f.read())}
    return found


def test_the_table_names_every_installed_requirements_file():
    assert installed_files() == {path for path, _, _, _ in check_requirements.INSTALLS}


def test_each_file_resolves_where_it_is_installed():
    cells = check_requirements.cells(matrix.load())
    by_file = {}
    for path, python, name, _ in cells:
        by_file.setdefault(path, set()).add((python, name))
    pythons = matrix.load()["pythons"]
    # The zig platforms' before-build runs only in the first Python's environment (the abi3 build).
    assert by_file["ci/requirements-zig.txt"] == {(pythons[0], p) for p in ("macos-arm64", "macos-x86_64", "windows-amd64")}
    # The manylinux builds' before-build, for every Python (3.14t as 3.14).
    assert {p for p, n in by_file["requirements-build.txt"] if n == "linux-aarch64"} == {v.rstrip("t") for v in pythons}
    assert ("3.12", "windows-amd64") in by_file["ci/requirements-cibuildwheel.txt"]
    assert by_file["ci/requirements-release.txt"] == {("3.12", "linux-x86_64")}
    assert ("3.14", "macos-arm64") in by_file["tests/requirements.txt"]


def test_a_cell_that_does_not_resolve_fails_the_check_naming_it(tmp_path, capsys):
    fake = tmp_path / "uv"
    # Resolves everything but the zig requirements for Python 3.9.
    fake.write_text('#!/bin/sh\ncase "$*" in *"--python-version 3.9"*requirements-zig.txt*) '
                    'echo "repairwheel==0.8.0 only supports >=3.11" >&2; exit 1;; esac\nexit 0\n')
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    assert check_requirements.main(["--uv", str(fake)]) == 1
    err = capsys.readouterr().err
    assert "ci/requirements-zig.txt for Python 3.9 on windows-amd64" in err and "only supports >=3.11" in err
