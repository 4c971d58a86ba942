"""Builds the CPythons of ci/matrix.toml that this machine lacks from
CPython's source tarball in Debian's source pool, into manylinux's layout:
/opt/python/cp314-cp314, and /opt/python/cp314-cp314t for the free-threaded
build (configure --disable-gil).

    python3 -m ci build-cpython [VERSION ...]     e.g. 3.14 3.14t (default: every
                                                  matrix Python with a source below
                                                  that the pool serves here)

Debian's archive is the only place reachable here that carries CPython's
sources (its pool keeps the upstream tarball as python3.14_<version>.orig.tar.xz).
Each interpreter records the key of its inputs (the tarball's sha256, the
configure flags, the source of build()) in <prefix>/.build-key and is rebuilt only when
the key changes; downloaded tarballs are kept in ~/.cache/torch-factory/sources.
The factory and the local manylinux image (ci/local/image.py) find the
interpreters there, exactly where cibuildwheel looks for them in an image.
About two minutes per interpreter on two cores.
"""
from __future__ import annotations

import argparse
import glob
import hashlib
import inspect
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import urllib.request

from ci.plan import matrix as matrix_file

DEBIAN_POOL = "http://deb.debian.org/debian/pool/main"
# The upstream release, as Debian's source package carries it. Debian's pool
# keeps older tarballs only while a suite refers to them: when this one goes,
# pick a version that the pool still serves and update the hash.
SOURCES = {
    "3.14": ("python3.14", "3.14.7", "3b48dac8fb59f62eaa67ac83c1eb12bda1b7a08406dd286e252c11a66be27f81"),
    # Released in October 2026. Debian's sid lists python3.15 3.15.2-1 with this
    # tarball, but the mirror this machine reaches serves its binary packages
    # only (the .orig.tar.xz and the .dsc answer 404, seen 2026-11-28), and
    # PyPI carries no CPython source: here 3.15 and 3.15t are left to GitHub
    # (cibuildwheel's own CPythons) until a reachable pool serves the tarball.
    "3.15": ("python3.15", "3.15.2", "8b5536d280142ecf6cdfe15d12a21ba1c65e300bbf7b28a8d0cdb849575797de"),
}
CACHE = os.path.join(os.path.expanduser("~"), ".cache", "torch-factory")
PYTHONS_ROOT = "/opt/python"
CONFIGURE = ["--disable-test-modules", "--with-ensurepip=install"]


def log(msg: str) -> None:
    print(f"==> {msg}", flush=True)


def tag(version: str) -> str:
    """3.14 -> cp314-cp314, 3.14t -> cp314-cp314t (manylinux's directory names)."""
    base = "cp" + version.rstrip("t").replace(".", "")
    return f"{base}-{base}{'t' if version.endswith('t') else ''}"


def prefix(version: str) -> str:
    return os.path.join(PYTHONS_ROOT, tag(version))


def configure_flags(version: str) -> list[str]:
    return CONFIGURE + (["--disable-gil"] if version.endswith("t") else [])


def build_key(version: str) -> str:
    """The build's inputs: the tarball, the configure flags and the steps of
    build() (its source), not the rest of this file, whose edits (how
    Pythons are found, messages) leave a built interpreter as it was."""
    package, upstream, sha256 = SOURCES[version.rstrip("t")]
    recipe = hashlib.sha256(inspect.getsource(build).encode()).hexdigest()
    return hashlib.sha256("\n".join([package, upstream, sha256, *configure_flags(version), recipe]).encode()).hexdigest()


def is_current(version: str) -> bool:
    stamp = os.path.join(prefix(version), ".build-key")
    return os.path.exists(stamp) and open(stamp).read().strip() == build_key(version)


class SourceUnavailable(Exception):
    """The pool does not serve a release's tarball (here, or any more)."""


def fetch(version: str) -> str:
    package, upstream, sha256 = SOURCES[version.rstrip("t")]
    name = f"{package}_{upstream}.orig.tar.xz"
    path = os.path.join(CACHE, "sources", name)
    if not os.path.exists(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        url = f"{DEBIAN_POOL}/{package[0]}/{package}/{name}"
        log(f"downloading {url}")
        try:
            with urllib.request.urlopen(url, timeout=120) as response, open(path + ".part", "wb") as out:
                shutil.copyfileobj(response, out)
        except OSError as e:
            raise SourceUnavailable(f"cannot download {url}: {e}\n(Debian's pool may not serve this release "
                                    f"here: choose one it serves in SOURCES)") from None
        os.replace(path + ".part", path)
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    if digest != sha256:
        os.remove(path)
        sys.exit(f"build_cpython: {name} has sha256 {digest}, expected {sha256}")
    return path


def build(version: str, jobs: int) -> None:
    tarball = fetch(version)
    target = prefix(version)
    with tempfile.TemporaryDirectory(prefix=f"cpython-{version}-") as work:
        with tarfile.open(tarball) as tar:
            tar.extractall(work, filter="data") if hasattr(tarfile, "data_filter") else tar.extractall(work)
        (src,) = [os.path.join(work, d) for d in os.listdir(work)]
        shutil.rmtree(target, ignore_errors=True)
        log(f"building CPython {version} into {target} ({' '.join(configure_flags(version))})")
        for cmd in (["./configure", "-q", f"--prefix={target}", *configure_flags(version)],
                    ["make", f"-j{jobs}", "-s"],
                    ["make", "install", "-s", "COMPILEALL_OPTS=-j0"]):
            proc = subprocess.run(cmd, cwd=src, text=True, capture_output=True)
            if proc.returncode != 0:
                sys.exit(f"build_cpython: {' '.join(cmd)} failed:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}")
    minor = version.rstrip("t")
    # manylinux's layout: bin/python is the interpreter.
    os.symlink(f"python{minor}{'t' if version.endswith('t') else ''}", os.path.join(target, "bin", "python"))
    with open(os.path.join(target, ".build-key"), "w") as f:
        f.write(build_key(version) + "\n")


def wanted_versions(argv_versions: list[str]) -> list[str]:
    if argv_versions:
        return argv_versions
    return [v for v in matrix_file.load()["pythons"] if v.rstrip("t") in SOURCES]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("versions", nargs="*", help="e.g. 3.14 3.14t (default: the matrix's with a source here)")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    for version in wanted_versions(args.versions):
        if version.rstrip("t") not in SOURCES:
            parser.error(f"no source known for CPython {version} (SOURCES has {', '.join(SOURCES)})")
        if is_current(version):
            log(f"CPython {version}: {prefix(version)} is up to date")
            continue
        try:
            build(version, args.jobs)
        except SourceUnavailable as e:
            if args.versions:  # asked for by name: its absence is an error
                sys.exit(f"build_cpython: CPython {version}: {e}")
            log(f"CPython {version}: skipped, {e}")
            continue
        out = subprocess.run([os.path.join(prefix(version), "bin", "python"), "-c",
                              "import sys, sysconfig; print(sys.version.split()[0], "
                              "'free-threaded' if sysconfig.get_config_var('Py_GIL_DISABLED') else 'with the GIL')"],
                             capture_output=True, text=True, check=True).stdout.strip()
        log(f"CPython {version}: {out} in {prefix(version)}")
    return 0


def discover_pythons(wanted: list[str]) -> dict[str, str]:
    """version -> interpreter path, for the versions this machine has: on PATH,
    pyenv's, or in manylinux's /opt/python (where ci/local/cpython.py puts
    3.14 and the free-threaded 3.14t)."""
    found = {}
    for v in wanted:
        candidates = [shutil.which(f"python{v}"), os.path.join(prefix(v), "bin", "python")]
        candidates += sorted(glob.glob(os.path.expanduser(f"~/.pyenv/versions/{v}.*/bin/python{v}")))
        for c in filter(None, candidates):
            if not os.path.exists(c):
                continue
            try:
                got = subprocess.run([c, "-c", "import sys, sysconfig, venv; print('%d.%d' % sys.version_info[:2] "
                                      "+ ('t' if sysconfig.get_config_var('Py_GIL_DISABLED') else ''))"],
                                     capture_output=True, text=True, timeout=30).stdout.strip()
            except (OSError, subprocess.TimeoutExpired):
                continue
            if got == v:
                found[v] = c
                break
    return found


if __name__ == "__main__":
    sys.exit(main())
