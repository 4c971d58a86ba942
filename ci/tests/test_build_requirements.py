"""One list of build requirements: requirements-build.txt (what README's
Developing block installs) says exactly what pyproject.toml's
[build-system] requires says (what pip installs for an isolated build)."""
import os
import tomllib

from packaging.requirements import Requirement

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def normalized(requirements):
    return sorted(str(Requirement(r)) for r in requirements)


def test_build_requirements_agree_with_pyproject():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        pyproject = tomllib.load(f)["build-system"]["requires"]
    with open(os.path.join(ROOT, "requirements-build.txt")) as f:
        listed = [line.strip() for line in f if line.strip() and not line.startswith("#")]
    assert normalized(listed) == normalized(pyproject)


def test_readme_developing_block_installs_the_list():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        section = f.read().split("\n## Developing\n", 1)[1].split("\n## ", 1)[0]
    assert "pip install -r requirements-build.txt" in section


def test_tools_environment_includes_the_list():
    """The factory's tools environment holds the macOS/Windows tools, and
    they (as GitHub's runners install them) the build requirements."""
    with open(os.path.join(ROOT, "ci", "requirements-tools.txt")) as f:
        assert "-r requirements-zig.txt" in f.read().splitlines()
    with open(os.path.join(ROOT, "ci", "requirements-zig.txt")) as f:
        assert "-r ../requirements-build.txt" in f.read().splitlines()
