"""A manylinux-style image built offline, so that `cibuildwheel --platform
linux` runs here, where no container registry can be reached (only PyPI and
Debian's archive). Wherever a registry is reachable (GitHub, a laptop with
Docker) cibuildwheel uses the real manylinux_2_28 images that pyproject.toml
names; this image stands in for them on such a machine.

    python3 -m ci local-image        # prints the image name, building it first if needed

What it holds: Debian bookworm (`debootstrap --variant=minbase` from Debian's
archive) with gcc/g++, binutils, make, git, patchelf and ccache (the factory
mounts the host's cache: ci/builders/cibw.py), the libraries
CPython links, this machine's CA bundle (pip.conf points at it: the
registries here chain to a CA only that bundle has), and at
/opt/python/cpXY-cpXY[t] a CPython for every Python of ci/matrix.toml this
machine has (pyenv's builds copied in, with a link from their configured
prefix; 3.14 and 3.14t from ci/local/cpython.py), each with pip, build and
virtualenv from PyPI. cibuildwheel also runs helpers with
/opt/python/cp39-cp39, whatever it builds.

Why its wheels say manylinux_2_34 (or so) and not manylinux_2_28: auditwheel
tags a wheel with the oldest glibc policy whose symbol versions its binaries
satisfy, and what they reference depends on the glibc they were linked
against: bookworm's 2.36 here. The real manylinux_2_28 image links against
glibc 2.28 on purpose, so that its wheels install on older systems; releases
come from there, and this image only proves the cibuildwheel path here.

The image is named by a key over its inputs (the code that builds its root
filesystem and imports it, the suite and packages, each Python's version and
build, the CA bundle; not the rest of this file): `podman image
exists` skips the build, and older images of the same name are removed.
Building takes two to three minutes; the podman store keeps it outside the
repository. Podman runs with runc and without default ulimits (crun does
not work here): CONTAINERS_CONF points at ~/.cache/torch-factory/containers.conf.
"""
from __future__ import annotations

import glob
import hashlib
import inspect
import os
import shutil
import subprocess
import sys
import tempfile

from ci.local import cpython as build_cpython
from ci.plan import matrix as matrix_file

NAME = "localhost/torch-manylinux-bookworm"
SUITE = "bookworm"
MIRROR = "http://deb.debian.org/debian"
PACKAGES = [
    "ca-certificates", "gcc", "g++", "make", "binutils", "patchelf", "git", "xz-utils", "file", "ccache",
    # what CPython's own extension modules link
    "libssl3", "libffi8", "zlib1g", "libbz2-1.0", "liblzma5", "libsqlite3-0", "libreadline8",
    "libncursesw6", "libgdbm6", "libuuid1", "libexpat1", "libgomp1",
]
PYTHON_TOOLS = ["pip", "build", "virtualenv"]
HOST_TOOLS = {"podman": "podman", "runc": "runc", "debootstrap": "debootstrap"}
CA_BUNDLE = "/etc/ssl/certs/ca-certificates.crt"
CACHE = os.path.join(os.path.expanduser("~"), ".cache", "torch-factory")
CONTAINERS_CONF = os.path.join(CACHE, "containers.conf")
# cibuildwheel's container engine setting for this machine's podman.
CIBW_CONTAINER_ENGINE = "podman; create_args: --runtime=runc --network=host"


def log(msg: str) -> None:
    print(f"==> {msg}", file=sys.stderr, flush=True)


def run(cmd: list[str], **kwargs) -> str:
    proc = subprocess.run(cmd, text=True, capture_output=True, **kwargs)
    if proc.returncode != 0:
        sys.exit(f"local_image: {' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}")
    return proc.stdout


def engine_environment() -> dict[str, str]:
    """The environment podman (and cibuildwheel calling it) needs here."""
    os.makedirs(CACHE, exist_ok=True)
    wanted = '[containers]\ndefault_ulimits = []\n[engine]\nruntime = "runc"\n'
    if not os.path.exists(CONTAINERS_CONF) or open(CONTAINERS_CONF).read() != wanted:
        with open(CONTAINERS_CONF, "w") as f:
            f.write(wanted)
    return {**os.environ, "CONTAINERS_CONF": CONTAINERS_CONF}


def ensure_host_tools() -> None:
    missing = [pkg for tool, pkg in HOST_TOOLS.items() if shutil.which(tool) is None]
    if not missing:
        return
    if os.geteuid() != 0:
        sys.exit(f"local_image: needs {', '.join(missing)}: apt-get install {' '.join(missing)} (as root)")
    log(f"installing {', '.join(missing)} from Debian")
    run(["apt-get", "install", "-y", "-q", *missing], env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})


def python_sources() -> dict[str, tuple[str, str]]:
    """Matrix version -> (interpreter on this machine, its installation prefix)."""
    found = build_cpython.discover_pythons(matrix_file.load()["pythons"])
    out = {}
    for version, exe in found.items():
        prefix = run([exe, "-c", "import sys; print(sys.base_prefix)"]).strip()
        out[version] = (exe, prefix)
    if "3.9" not in out:
        sys.exit("local_image: cibuildwheel runs its helpers with /opt/python/cp39-cp39: this machine needs a Python 3.9")
    return out


def image_key(pythons: dict[str, tuple[str, str]]) -> str:
    """The image's inputs: the code that makes its root filesystem and imports
    it (not the rest of this file), the Debian suite and packages, each
    Python's build and the CA bundle."""
    h = hashlib.sha256()
    for recipe in (copy_python, build_rootfs, ensure_image):
        h.update(inspect.getsource(recipe).encode())
    h.update("\n".join([SUITE, MIRROR, *PACKAGES, *PYTHON_TOOLS]).encode())
    for version, (exe, prefix) in sorted(pythons.items()):
        build = run([exe, "-c", "import sys, sysconfig; print(sys.version, sysconfig.get_config_var('CONFIG_ARGS'))"])
        h.update(f"{version} {prefix} {build}".encode())
    with open(CA_BUNDLE, "rb") as f:
        h.update(f.read())
    return h.hexdigest()[:16]


def copy_python(prefix: str, rootfs: str, target: str) -> None:
    """An installed CPython without its site-packages and console scripts; a
    link from the prefix it was configured with (pyenv's are --enable-shared,
    with an absolute RPATH and baked-in paths) to where it now lives."""
    dest = rootfs + target
    if os.path.realpath(prefix) == os.path.realpath(target):
        shutil.copytree(prefix, dest, symlinks=True)
        return
    os.makedirs(os.path.join(dest, "bin"))
    for exe in glob.glob(os.path.join(prefix, "bin", "python*")):
        shutil.copy2(exe, os.path.join(dest, "bin"), follow_symlinks=False)
    if not os.path.lexists(os.path.join(dest, "bin", "python")):
        os.symlink(os.path.basename(sorted(glob.glob(os.path.join(prefix, "bin", "python3.*[0-9]")))[0]),
                   os.path.join(dest, "bin", "python"))
    for sub in ("include", "lib"):
        shutil.copytree(os.path.join(prefix, sub), os.path.join(dest, sub), symlinks=True,
                        ignore=lambda d, names: [n for n in names if n == "site-packages" and d.count("/python3")])
    for site in glob.glob(os.path.join(dest, "lib", "python3*")):
        os.makedirs(os.path.join(site, "site-packages"), exist_ok=True)
    link = rootfs + prefix
    os.makedirs(os.path.dirname(link), exist_ok=True)
    os.symlink(target, link)


def build_rootfs(rootfs: str, pythons: dict[str, tuple[str, str]]) -> None:
    log(f"debootstrap {SUITE} (minbase) into {rootfs}")
    run(["debootstrap", "--variant=minbase", f"--include={','.join(PACKAGES)}", SUITE, rootfs, MIRROR])
    shutil.copyfile(CA_BUNDLE, rootfs + CA_BUNDLE)
    with open(rootfs + "/etc/pip.conf", "w") as f:
        f.write(f"[global]\ncert = {CA_BUNDLE}\n")
    shutil.copyfile("/etc/resolv.conf", rootfs + "/etc/resolv.conf")
    for version, (_, prefix) in sorted(pythons.items()):
        target = build_cpython.prefix(version)
        log(f"CPython {version}: {prefix} -> {target}")
        copy_python(prefix, rootfs, target)
        python = f"{target}/bin/python"
        chroot = ["chroot", rootfs, "env", "HOME=/root", "PATH=/usr/local/bin:/usr/bin:/bin"]
        if subprocess.run(chroot + [python, "-m", "pip", "--version"], capture_output=True).returncode != 0:
            run(chroot + [python, "-m", "ensurepip"])
        run(chroot + [python, "-m", "pip", "install", "-q", "--upgrade", *PYTHON_TOOLS])


def image_exists(name: str, env: dict[str, str]) -> bool:
    return subprocess.run(["podman", "image", "exists", name], env=env).returncode == 0


def remove_stale_images(current: str, env: dict[str, str]) -> None:
    out = run(["podman", "images", "--format", "{{.Repository}}:{{.Tag}}", NAME], env=env)
    for image in out.split():
        if image != current:
            subprocess.run(["podman", "rmi", "-f", image], env=env, capture_output=True)


def ensure_image() -> str:
    """The image's name, building it when its inputs changed."""
    ensure_host_tools()
    env = engine_environment()
    pythons = python_sources()
    image = f"{NAME}:{image_key(pythons)}"
    if image_exists(image, env):
        log(f"image {image} is up to date")
        return image
    remove_stale_images(image, env)
    with tempfile.TemporaryDirectory(prefix="torch-image-", dir=CACHE) as work:
        rootfs = os.path.join(work, "rootfs")
        build_rootfs(rootfs, pythons)
        log(f"podman import -> {image}")
        tar = subprocess.Popen(["tar", "-C", rootfs, "-c", "."], stdout=subprocess.PIPE)
        run(["podman", "import", "--change", "ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
             "-", image], stdin=tar.stdout, env=env)
        if tar.wait() != 0:
            sys.exit("local_image: tar of the root filesystem failed")
    return image


if __name__ == "__main__":
    print(ensure_image())
