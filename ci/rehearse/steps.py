"""The release, rehearsed on this machine against real servers on loopback.

    python3 -m ci release-rehearsal [--wheelhouse wheelhouse] [--work build/release-rehearsal]

From the factory's wheelhouse (a cpu and a cu130 wheel for the Python running
this), it runs release.yml's steps with the same commands (ci/publish/release.py):
the tag check, the sdist under the PyPI name, the PyPI files (renamed,
relabelled, twine-checked), the upload guard; then uploads them with twine to
a pypiserver with authentication on (a wrong password and a second upload of
the same version must both fail, as on PyPI); writes the release notes,
checks them against the files of the GitHub Release and makes that Release
(a folder served over HTTP: ci/publish/github_releases.py's local mode); writes the per-variant indexes from the Releases' listing as Pages
serves them, and installs as users would, each in a fresh venv: the PyPI name
from the package server, `torch` from the cpu index, and the cu130 variant
with NVIDIA's runtime wheels from PyPI; then with uv's wheel-variants
preview from the variant index (the variant forms made as wheels.yml makes
them), with no driver (cpu) and a CUDA 13.0 driver (cu130) forced.
"""
from __future__ import annotations

import argparse
import glob
import html
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.request

from ci import factory
from ci.proc import CI, ROOT, ci_command
from ci.publish import pypi as publish
from ci.publish import release

RELEASE_VENV = os.path.join(ROOT, "build", "release-venv")
PYPI = "https://pypi.org/simple"
# pip as a user's: no machine-wide configuration, no version nag.
USER_PIP = {"PIP_CONFIG_FILE": os.devnull, "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
# twine's output (rich) as a log reads it: no colours, no wrapped lines.
PLAIN = {"NO_COLOR": "1", "COLUMNS": "200"}

# Runs in each fresh venv, from a directory with no checkout in sight:
# argv = expected distribution name, its version, torch.__version__, CUDA line ("" for none).
USE_TORCH = textwrap.dedent("""
    import importlib.metadata as md, os, sys
    import torch
    name, dist_version, torch_version, cuda = sys.argv[1:]
    assert os.path.realpath(torch.__file__).startswith(os.path.realpath(sys.prefix)), torch.__file__
    assert md.version(name) == dist_version, (name, md.version(name), dist_version)
    assert torch.__version__ == torch_version, (torch.__version__, torch_version)
    assert (torch.version.cuda or "") == cuda, torch.version.cuda
    a = torch.arange(6.0).reshape(2, 3)
    assert (a @ a.T).tolist() == [[5.0, 14.0], [14.0, 50.0]]
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()
    assert x.grad.tolist() == [2.0, 4.0]
    print(f"  {name} {dist_version}: torch {torch.__version__}, CUDA {torch.version.cuda}, "
          f"GPU available: {torch.cuda.is_available()}, from {os.path.dirname(torch.__file__)}")
""")


def log(msg: str) -> None:
    print(f"\n==> {msg}", flush=True)


def run(cmd: list[str], env: dict[str, str | None] | None = None, cwd: str | None = None, expect_failure: bool = False) -> str:
    merged = {k: v for k, v in {**os.environ, **(env or {})}.items() if v is not None}  # None: unset it
    proc = subprocess.run(cmd, env=merged, cwd=cwd, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if expect_failure != (proc.returncode != 0):
        print(proc.stdout[-6000:])
        what = "succeeded but had to fail" if expect_failure else f"failed ({proc.returncode})"
        raise SystemExit(f"release rehearsal: {what}: {' '.join(cmd)}")
    return proc.stdout


def release_python() -> str:
    """build/release-venv with ci/requirements-release.txt, made once per change of that file."""
    reqs = os.path.join(CI, "requirements-release.txt")
    python = os.path.join(RELEASE_VENV, "bin", "python")
    stamp = os.path.join(RELEASE_VENV, ".requirements")
    wanted = open(reqs).read()
    if not (os.path.exists(stamp) and open(stamp).read() == wanted):
        shutil.rmtree(RELEASE_VENV, ignore_errors=True)
        run([sys.executable, "-m", "venv", RELEASE_VENV])
        run([python, "-m", "pip", "install", "-q", "--upgrade", "pip"])
        run([python, "-m", "pip", "install", "-q", "-r", reqs])
        with open(stamp, "w") as f:
            f.write(wanted)
    return python


def release_step(python: str, *args: str, expect_failure: bool = False) -> str:
    """One of release.yml's steps: `python -m ci release ...`, as the workflow runs it."""
    out = run(ci_command(python, "release", *args), env=PLAIN, cwd=ROOT, expect_failure=expect_failure)
    print(textwrap.indent(out.strip(), "  "))
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url: str, proc: subprocess.Popen, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"release rehearsal: the server for {url} exited ({proc.returncode})")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"release rehearsal: {url} did not answer in {seconds:.0f} s")


def start_package_index(python: str, work: str) -> tuple[subprocess.Popen, str, str, str]:
    """pypiserver on loopback, uploads only with a password (htpasswd, as passlib writes it)."""
    packages = os.path.join(work, "pypiserver-packages")
    os.makedirs(packages)
    htpasswd = os.path.join(work, "htpasswd")
    user, password = "release", secrets.token_urlsafe(16)
    run([python, "-c", "import sys; from passlib.apache import HtpasswdFile as H; "
         "h = H(sys.argv[1], new=True); h.set_password(sys.argv[2], sys.argv[3]); h.save()",
         htpasswd, user, password])
    port = free_port()
    server = subprocess.Popen([os.path.join(os.path.dirname(python), "pypi-server"), "run", "--host", "127.0.0.1",
                               "--port", str(port), "--passwords", htpasswd, "--authenticate", "update",
                               packages], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    wait_for(url + "/simple/", server)
    return server, url, user, password


def start_static(folder: str, ready_path: str) -> tuple[subprocess.Popen, str]:
    """A folder over HTTP on loopback, as Pages serves the site and GitHub the Release assets."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                               "--directory", folder], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    wait_for(url + ready_path, server)
    return server, url


def twine_upload(python: str, url: str, user: str, password: str, files: list[str], expect_failure: bool,
                 because: tuple[str, ...] = ()) -> str:
    """twine upload as release.yml's publish step does it; `because`: the server's answer a failure must carry."""
    # The credentials go in the environment, as a CI secret would, never on a command line.
    env = {**{k: None for k in os.environ if k.startswith("TWINE_")}, **PLAIN,
           "TWINE_USERNAME": user, "TWINE_PASSWORD": password}
    out = run([python, "-m", "twine", "upload", "--non-interactive", "--disable-progress-bar", "--verbose",
                "--repository-url", url + "/", *files],
              env=env, expect_failure=expect_failure)
    if because and not any(b in out for b in because):
        print(out[-3000:])
        raise SystemExit(f"release rehearsal: the upload failed, but not with {' or '.join(because)}")
    return out


def server_answer(out: str, because: tuple[str, ...]) -> str:
    """The line of twine's output that carries the server's reason."""
    line = next((line for line in out.splitlines() if any(b in line for b in because)), "")
    return re.sub(r"<[^>]+>", "", html.unescape(line)).strip()


def install_and_use(work: str, label: str, pip_args: list[str], name: str, dist_version: str, torch_version: str,
                    cuda: str) -> None:
    log(f"{label}: pip install {' '.join(pip_args)}")
    venv = os.path.join(work, f"venv-{label}")
    run([sys.executable, "-m", "venv", venv])
    python = os.path.join(venv, "bin", "python")
    run([python, "-m", "pip", "install", "-q", *pip_args], env=USER_PIP)
    print(run([python, "-c", USE_TORCH, name, dist_version, torch_version, cuda], cwd=tempfile.gettempdir()), end="")


def install_variant_and_use(work: str, tools_python: str, index_url: str, driver: str, name: str, version: str,
                            torch_version: str, cuda: str) -> None:
    """uv with the wheel-variants preview, from the Pages variant index, on a machine whose CUDA driver is `driver`."""
    label = f"variants-driver-{driver or 'none'}"
    log(f"{label}: UV_PREVIEW_FEATURES=wheel-variants uv pip install --extra-index-url {index_url} {name}")
    venv = os.path.join(work, f"venv-{label}")
    run([sys.executable, "-m", "venv", venv])
    cmd, env = factory.variant_install_command(tools_python, venv, index_url, driver, name)
    run(cmd, env={**env, "UV_CACHE_DIR": os.path.join(work, "uv-cache")})
    python = os.path.join(venv, "bin", "python")
    print(run([python, "-c", USE_TORCH, name, version, torch_version, cuda], cwd=tempfile.gettempdir()), end="")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--wheelhouse", default=os.path.join(ROOT, "wheelhouse"))
    parser.add_argument("--work", default=os.path.join(ROOT, "build", "release-rehearsal"))
    args = parser.parse_args(argv)
    names, version = release.names(), release.version_txt()
    cuda_variant = release.matrix_file.load()["variants"]["cu130"]
    tag = f"cp{sys.version_info[0]}{sys.version_info[1]}"
    for label in ("cpu", "cu130"):
        if not glob.glob(os.path.join(args.wheelhouse, f"*-{version}+{label}-{tag}-{tag}-*.whl")):
            raise SystemExit(f"release rehearsal: no {label} wheel for {tag} in {args.wheelhouse}: run "
                             f"`python3 -m ci factory --variant cpu,cu130` first")
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    dist, pypi_dir, site = (os.path.join(args.work, d) for d in ("dist", "pypi", "site"))

    log("release tools (ci/requirements-release.txt)")
    python = release_python()

    log(f"the tag: v{version} passes, v{version}.1 stops the release")
    release_step(python, "check-tag", f"v{version}")
    release_step(python, "check-tag", f"v{version}.1", expect_failure=True)

    log(f"the sdist, as {names['pypi']} {version}")
    release_step(python, "sdist", dist)

    log("the PyPI files: cpu wheels renamed and without their label, the sdist, twine check")
    release_step(python, "pypi-files", args.wheelhouse, dist, pypi_dir)
    release_step(python, "check-upload", pypi_dir)
    log("the upload guard refuses the index's `torch` wheels")
    release_step(python, "check-upload", os.path.join(args.wheelhouse), expect_failure=True)
    files = release.release_files(pypi_dir)

    servers = []
    try:
        log("pypiserver on loopback, uploads need a password")
        server, index_url, user, password = start_package_index(python, args.work)
        servers.append(server)
        out = twine_upload(python, index_url, user, "not-" + password, files, expect_failure=True,
                           because=("403", "401"))
        print(f"  wrong password refused: {server_answer(out, ('403', '401'))}")
        # release.yml's upload step itself, with attestation files beside the files
        # (stand-ins: pypiserver keeps no attestations, but twine must take them).
        for f in files:
            with open(f + publish.ATTESTATION, "w") as attestation:
                json.dump({"version": 1, "stand_in": "ci/rehearse/steps.py"}, attestation)
        out = run(ci_command(python, "publish", pypi_dir), cwd=ROOT,
                  env={"PYPI_REPOSITORY_URL": index_url + "/", "PYPI_USERNAME": user, "PYPI_PASSWORD": password,
                       "ACTIONS_ID_TOKEN_REQUEST_URL": None, "ACTIONS_ID_TOKEN_REQUEST_TOKEN": None})
        if "with PEP 740 attestations" not in out:
            raise SystemExit(f"release rehearsal: ci/publish/pypi.py did not upload the attestations:\n{out[-3000:]}")
        print(f"  uploaded {len(files)} files to {index_url} with ci/publish/pypi.py, attestations attached")
        out = twine_upload(python, index_url, user, password, files, expect_failure=True,
                           because=("already exists",))
        print(f"  second upload of {version} refused: {server_answer(out, ('already exists',))}")

        log("the GitHub Release: every variant's wheel and its variant form, each with its .metadata, the variants "
            "json and the sdist, its notes checked")
        github = os.path.join(args.work, "github-release")
        os.makedirs(github)
        for w in release.index_wheels(args.wheelhouse, names["index"]) + release.release_files(dist):
            shutil.copy(w, github)
        log("wheels.yml's variant step (ci/publish/variants.py make), then release.yml's check of it")
        run(ci_command(python, "variants", "make", github, github), cwd=ROOT)
        run(ci_command(python, "variants", "check", github), cwd=ROOT)
        print("  " + ", ".join(sorted(os.path.basename(f) for f in release.variant_files(github, names["index"]))))
        notes = os.path.join(args.work, "release-notes.md")
        releases_dir = os.path.join(args.work, "releases")
        os.makedirs(releases_dir)
        server, releases_url = start_static(releases_dir, "/")
        servers.append(server)
        release_step(python, "notes", github, notes, "--index-url", "https://<owner>.github.io/<repo>")
        release_step(python, "check-notes", github, notes)
        release_step(python, "metadata", github)
        releases_env = {"TORCH_RELEASES_DIR": releases_dir, "TORCH_RELEASES_URL": releases_url}
        print(run(ci_command(python, "github-releases", "create", f"v{version}", github, "--notes", notes),
                  env=releases_env, cwd=ROOT).strip())

        log("the per-variant indexes, from the Releases' listing, served as Pages serves them")
        listing = os.path.join(args.work, "releases.json")
        print(run(ci_command(python, "github-releases", "list", listing), env=releases_env, cwd=ROOT).strip())
        release_step(python, "index", listing, site)
        server, pages_url = start_static(site, "/cpu/simple/")
        servers.append(server)

        install_and_use(args.work, "pypi", ["--index-url", index_url + "/simple/", names["pypi"]],
                        names["pypi"], version, f"{version}+cpu", "")
        install_and_use(args.work, "index-cpu", ["--index-url", pages_url + "/cpu/simple", names["index"]],
                        names["index"], f"{version}+cpu", f"{version}+cpu", "")
        install_and_use(args.work, "index-cu130", ["--index-url", pages_url + "/cu130/simple", "--extra-index-url",
                                                   PYPI, f"{names['index']}=={version}+cu130"],
                        names["index"], f"{version}+cu130", f"{version}+cu130", cuda_variant["cuda"])
        tools_python = factory.tools_environment()
        variants_url = f"{pages_url}/{release.wheel_variants.INDEX_NAME}/simple"
        install_variant_and_use(args.work, tools_python, variants_url, "", names["index"], f"{version}+cpu",
                                f"{version}+cpu", "")
        install_variant_and_use(args.work, tools_python, variants_url, cuda_variant["cuda"], names["index"],
                                f"{version}+cu130", f"{version}+cu130", cuda_variant["cuda"])
    finally:
        for s in servers:
            s.terminate()
            s.wait()
    print(open(notes).read())
    log("release rehearsal passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
