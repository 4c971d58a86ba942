"""The factory's cibuildwheel engine: `ci/factory.py --engine cibuildwheel`.

Runs `cibuildwheel --platform linux` with pyproject.toml's unchanged
[tool.cibuildwheel] configuration, once per variant (as wheels.yml runs one
job per variant): before-all, every Python's build in one container (reusing
the native build), repair with ci/repair/wheel.py, and the test suite against
each installed wheel, all inside the container. With a Docker daemon it uses
the real manylinux images; without one (this machine) podman and the image of
ci/local/image.py. It reports a row per wheel for the factory's table, from
cibuildwheel's own output: the seconds of each step and pytest's counts.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from ci.local import cpython as build_cpython
from ci.local import image as local_image
from ci.proc import ROOT

ANSI = re.compile(r"\x1b\[[0-9;]*m")
STEPS = {"Building wheel...": "build", "Repairing wheel...": "repair", "Testing wheel...": "test"}


def docker_available() -> bool:
    return shutil.which("docker") is not None and subprocess.run(
        ["docker", "info"], capture_output=True).returncode == 0


def engine_environment() -> dict[str, str]:
    """CIBW_CONTAINER_ENGINE and the image: Docker with manylinux_2_28 where a
    daemon runs, else podman with the local image. Either way the host's pip
    cache is mounted, so the container downloads nothing twice, and so is the
    host's compiler cache where there is one (ci/ccache.sh): the local image
    has the host's compiler and the project sits at /project, so with
    base_dir there the container's compiles hit what the factory compiled
    (a manylinux image has no ccache, and CMake then compiles as ever)."""
    pip_cache = subprocess.run([sys.executable, "-m", "pip", "cache", "dir"], capture_output=True,
                               text=True).stdout.strip() or os.path.expanduser("~/.cache/pip")
    os.makedirs(pip_cache, exist_ok=True)
    volume = f"--volume={pip_cache}:/root/.cache/pip"
    ccache = os.environ.get("CCACHE_DIR")
    if ccache and os.path.isdir(ccache):
        volume += (f" --volume={ccache}:/ccache --env=CCACHE_DIR=/ccache --env=CCACHE_BASEDIR=/project"
                   " --env=CCACHE_NOHASHDIR=1")
    if docker_available():
        return {"CIBW_CONTAINER_ENGINE": f"docker; create_args: {volume}"}
    env = local_image.engine_environment()
    env.update(CIBW_CONTAINER_ENGINE=f"{local_image.CIBW_CONTAINER_ENGINE} {volume}",
               CIBW_MANYLINUX_X86_64_IMAGE=local_image.ensure_image())
    return env


def identifier(version: str) -> str:
    return build_cpython.tag(version).split("-")[1] + "-manylinux_x86_64"


def clean_tree(dest: str) -> str:
    """cibuildwheel copies its whole working directory into the container: give
    it the tracked tree (a clean clone's content), not build/ and wheelhouse/."""
    shutil.rmtree(dest, ignore_errors=True)
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.splitlines()
    for rel in files:
        src = os.path.join(ROOT, rel)
        if os.path.exists(src):
            os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
            shutil.copy2(src, os.path.join(dest, rel))
    return dest


def parse_log(lines: list[tuple[float, str]]) -> dict[str, dict]:
    """identifier -> {seconds per step, tests passed/failed}, from cibuildwheel's
    (timestamped) output: its step headers and pytest's summary line."""
    builds: dict[str, dict] = {}
    current, step, step_start = None, None, 0.0
    for when, raw in lines:
        line = ANSI.sub("", raw).strip()
        m = re.match(r"Building (\S+) wheel$", line)
        if m:
            current = builds.setdefault(m.group(1), {"build": 0.0, "repair": 0.0, "test": 0.0,
                                                      "passed": 0, "failed": 0})
            step = None
            continue
        if current is None:
            continue
        if step and (line in STEPS or " finished in " in line):
            current[step] += when - step_start
            step = None
        if line in STEPS:
            step, step_start = STEPS[line], when
        counts = re.match(r"^=*\s*(.*(?:passed|failed).*) in [\d.]+s\b", line)
        if counts:
            for n, what in re.findall(r"(\d+) (passed|failed|errors?)", counts.group(1)):
                current["passed" if what == "passed" else "failed"] += int(n)
    return builds


def run_cibuildwheel(tools_python: str, env: dict[str, str], tree: str, out: str) -> list[tuple[float, str]]:
    """Streams cibuildwheel's output (as it would print) and keeps it, timestamped."""
    cibuildwheel = os.path.join(os.path.dirname(tools_python), "cibuildwheel")
    proc = subprocess.Popen([cibuildwheel, "--platform", "linux", "--output-dir", out], cwd=tree, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    lines = []
    assert proc.stdout
    for line in proc.stdout:
        sys.stdout.write(line)
        lines.append((time.monotonic(), line))
    if proc.wait() != 0:
        raise SystemExit(f"factory: cibuildwheel failed ({proc.returncode}) for {env.get('CIBW_BUILD')}")
    return lines


def build_variant(vname: str, variant: dict, versions: list[str], tools_python: str, release_archs: bool,
                  source_date_epoch: str, build_dir: str, test: bool = True) -> list[tuple[str, str, dict]]:
    """One cibuildwheel run for a variant: [(Python version, wheel path, parsed row data)]."""
    env = {**os.environ, **engine_environment(),
           "CIBW_BUILD": " ".join(identifier(v) for v in versions), "CIBW_ARCHS": "x86_64",
           "SOURCE_DATE_EPOCH": source_date_epoch}
    if not test:
        env["CIBW_TEST_SKIP"] = "*"
    for key in ("TORCH_CUDA_VERSION", "TORCH_CUDA_ARCH_LIST", "CUDAHOSTCXX", "CIBW_ENVIRONMENT"):
        env.pop(key, None)
    if "cuda" in variant:
        env.update(TORCH_CUDA_VERSION=variant["cuda"],
                   TORCH_CUDA_ARCH_LIST=variant["arch_list" if release_archs else "ci_arch_list"])
    tree = clean_tree(os.path.join(build_dir, "cibw-src"))
    out = tempfile.mkdtemp(prefix=f"cibw-{vname}-", dir=build_dir)
    lines = run_cibuildwheel(tools_python, env, tree, out)
    parsed = parse_log(lines)
    results = []
    for v in versions:
        ident = identifier(v)
        (wheel,) = [os.path.join(out, w) for w in os.listdir(out)
                    if f"-{build_cpython.tag(v)}-" in w and f"+{variant['label']}-" in w]
        results.append((v, wheel, parsed.get(ident, {})))
    return results
