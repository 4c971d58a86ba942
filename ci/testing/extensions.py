"""The example extension (examples/extension) built against each torch wheel
the factory made, the way an extension's maintainer builds it.

    python3 -m ci extensions [--wheelhouse DIR] [--variant cpu,cu130]

Per variant: a venv with that torch wheel builds the extension's wheel
(`pip wheel --no-build-isolation`: it compiles against the installed torch;
a CUDA torch adds the CUDA kernel, compiled by the variant's toolkit from
ci/install_cuda.sh); the repair-wheel-command of the example's
[tool.cibuildwheel] repairs it (auditwheel, torch's and NVIDIA's libraries
excluded); the checks below read the repaired wheel; then torch and the
extension go into a fresh venv and the extension's tests run there, outside
the checkout. The wheels land in <wheelhouse>/extension/. Then each package
of tests/extensions (written in PyTorch's spelling only) is installed into
that venv with `pip install --no-build-isolation .` and its tests run.

The factory calls check_variant() with the venvs it already has (torch
installed from its index); run alone, this script makes its own.
"""
from __future__ import annotations

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

from ci.plan import matrix as matrix_file
from ci.proc import CI, ROOT

EXAMPLE = os.path.join(ROOT, "examples", "extension")
# Extensions written in PyTorch's spelling only (tests/extensions/README.md).
PYTORCH_STYLE = os.path.join(ROOT, "tests", "extensions")
BUILD = os.path.join(ROOT, "build", "factory")
# torch's and NVIDIA's libraries (auditwheel would graft them as libc10-<hash>.so):
# the extension links them, its wheel must not carry them.
PROVIDED_LIBRARY = re.compile(r"^(libc10|libtorch_cpu|libtorch_cuda|libtorch_python|libcudart|libcublas\w*)[-.]")


def log(msg: str) -> None:
    print(f"\n==> {msg}", flush=True)


def run(cmd: list[str], env: dict | None = None, cwd: str | None = None) -> str:
    proc = subprocess.run(cmd, env={**os.environ, **(env or {})}, cwd=cwd, text=True, capture_output=True)
    if proc.returncode != 0:
        print(proc.stdout[-6000:], proc.stderr[-6000:])
        raise SystemExit(f"extension: command failed ({proc.returncode}): {' '.join(cmd)}")
    return proc.stdout


def repair_command() -> str:
    """[tool.cibuildwheel] repair-wheel-command of the example: one command for cibuildwheel and this script."""
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        import tomli as tomllib
    with open(os.path.join(EXAMPLE, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["tool"]["cibuildwheel"]["repair-wheel-command"]


def cuda_home(variant: dict) -> str:
    out = run(["bash", os.path.join(CI, "install_cuda.sh"), variant["cuda"]])
    return out.strip().splitlines()[-1]


def build(python: str, variant: dict, tools_python: str, out_dir: str) -> str:
    """The extension's repaired wheel, built with `python` (a venv whose torch is the one to build against)."""
    run([python, "-m", "pip", "install", "-q", "setuptools>=69", "wheel"])
    env = {"CUDA_HOME": cuda_home(variant)} if "cuda" in variant else {}
    work = tempfile.mkdtemp(prefix="ext-build-", dir=BUILD)
    source = os.path.join(work, "src")
    # A copy: the build writes fused_ops/_build_info.py and build/ into its tree.
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "_build_info.py"))
    run([python, "-m", "pip", "wheel", source, "--no-build-isolation", "--no-deps", "-q", "-w",
         os.path.join(work, "dist")], env=env, cwd=work)
    (wheel,) = glob.glob(os.path.join(work, "dist", "*.whl"))
    repaired_dir = os.path.join(work, "repaired")
    command = repair_command().replace("{wheel}", wheel).replace("{dest_dir}", repaired_dir)
    run(["bash", "-c", command], env={"PATH": os.path.dirname(tools_python) + os.pathsep + os.environ["PATH"]})
    (repaired,) = glob.glob(os.path.join(repaired_dir, "*.whl"))
    os.makedirs(out_dir, exist_ok=True)
    target = os.path.join(out_dir, os.path.basename(repaired))
    shutil.move(repaired, target)
    shutil.rmtree(work, ignore_errors=True)
    return target


def cuobjdump(tools_python: str) -> str:
    """NVIDIA's cuobjdump from the tools environment (nvidia-cuda-cuobjdump, ci/requirements-tools.txt)."""
    venv = os.path.dirname(os.path.dirname(tools_python))
    found = sorted(glob.glob(os.path.join(venv, "lib", "python3*", "site-packages", "nvidia", "cu*", "bin", "cuobjdump")))
    if not found:
        raise SystemExit(f"extension: no cuobjdump in {venv} (pip install 'nvidia-cuda-cuobjdump>=13.2')")
    return found[-1]


def parse_architectures(listing: str) -> set[int]:
    """The sm numbers in `cuobjdump --list-elf` output ("ELF file 1: x.1.sm_80.cubin")."""
    return {int(n) for n in re.findall(r"\.sm_(\d+)[a-z]?\.cubin", listing)}


def device_architectures(library: str, tools_python: str) -> set[int]:
    """The sm numbers a library carries machine code for, as cuobjdump lists them (none for CPU code)."""
    proc = subprocess.run([cuobjdump(tools_python), "--list-elf", library], capture_output=True, text=True)
    if proc.returncode != 0 and "does not contain" not in proc.stdout + proc.stderr:
        raise SystemExit(f"extension: cuobjdump --list-elf {library}: {proc.stderr.strip()}")
    return parse_architectures(proc.stdout)


def check_wheel(wheel: str, torch_version: str, tools_python: str) -> None:
    """What the extension's wheel promises: torch's variant in its version, the
    torch release in its requirements, one abi3 build, CUDA device code exactly
    in a CUDA build, and no torch or NVIDIA
    library inside (they come from the installed torch and NVIDIA's wheels)."""
    name = os.path.basename(wheel)
    public, _, label = torch_version.partition("+")
    problems = []
    if not re.match(rf"fused_ops-[^-]+\+{re.escape(label)}-cp39-abi3-manylinux_\d+_\d+_", name):
        problems.append(f"name {name}: expected fused_ops-<version>+{label}-cp39-abi3-manylinux_*")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        requires = [line.split(":", 1)[1].strip() for line in z.read(metadata).decode().splitlines()
                    if line.startswith("Requires-Dist:")]
        libraries = [n for n in names if n.startswith("fused_ops/_C") and n.endswith(".so")]
        unpacked = tempfile.mkdtemp(prefix="ext-check-")
        libraries = [z.extract(n, unpacked) for n in libraries]
    if f"torch=={public}" not in requires:
        problems.append(f"Requires-Dist {requires}: expected torch=={public}")
    bundled = [n for n in names if PROVIDED_LIBRARY.match(os.path.basename(n))]
    if bundled:
        problems.append(f"bundles {bundled}: torch's and NVIDIA's libraries must come from their own wheels")
    if not libraries:
        problems.append("no compiled library in fused_ops/")
    # A CUDA build carries the CUDA kernel (machine code cuobjdump lists); a cpu build none.
    cuda = label.startswith("cu")
    if libraries and any(device_architectures(lib, tools_python) for lib in libraries) != cuda:
        problems.append(f"a {label} build {'without' if cuda else 'with'} CUDA device code (cuobjdump --list-elf)")
    shutil.rmtree(unpacked, ignore_errors=True)
    if problems:
        raise SystemExit("extension: " + wheel + ":\n  " + "\n  ".join(problems))


def test(python: str, torch_requirement: str, wheel: str, env: dict | None = None) -> str:
    """Installs the extension beside torch in `python`'s venv and runs its tests outside the checkout."""
    run([python, "-m", "pip", "install", "-q", torch_requirement, wheel, "pytest"], env=env)
    work = tempfile.mkdtemp(prefix="ext-tests-")
    shutil.copytree(os.path.join(EXAMPLE, "tests"), os.path.join(work, "tests"))
    out = run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"], cwd=work)
    shutil.rmtree(work, ignore_errors=True)
    return out.strip().splitlines()[-1]


def torch_version(python: str) -> str:
    return run([python, "-c", "import torch; print(torch.__version__)"], cwd=tempfile.gettempdir()).strip()


def check_variant(vname: str, variant: dict, build_python: str, test_python: str, torch_requirement: str,
                  tools_python: str, wheelhouse: str, pip_env: dict | None = None) -> str:
    """Builds, repairs, checks and tests the extension for one variant; returns its wheel."""
    version = torch_version(build_python)
    log(f"extension: examples/extension against torch {version} ({vname})")
    wheel = build(build_python, variant, tools_python, os.path.join(wheelhouse, "extension"))
    check_wheel(wheel, version, tools_python)
    print(f"   {os.path.basename(wheel)}")
    summary = test(test_python, torch_requirement, wheel, pip_env)
    print(f"   its tests, torch {torch_version(test_python)} in a fresh venv: {summary}")
    for package in sorted(os.listdir(PYTORCH_STYLE)):
        if os.path.isfile(os.path.join(PYTORCH_STYLE, package, "setup.py")):
            log(f"extension: tests/extensions/{package} (PyTorch's spelling) against torch {version} ({vname})")
            print(f"   {pytorch_style(package, test_python, variant, tools_python)}")
    return wheel


def pytorch_style(package: str, python: str, variant: dict, tools_python: str) -> str:
    """A package of tests/extensions installed as its users install it,
    `pip install --no-build-isolation .` beside the venv's torch (a CUDA
    variant compiles its CUDA kernels, which cuobjdump must find), then its
    tests run outside its source tree."""
    run([python, "-m", "pip", "install", "-q", "setuptools>=69", "wheel", "pytest"])
    env = {"CUDA_HOME": cuda_home(variant)} if "cuda" in variant else {}
    work = tempfile.mkdtemp(prefix=f"ext-{package}-", dir=BUILD)
    source = os.path.join(work, "src")
    shutil.copytree(os.path.join(PYTORCH_STYLE, package), source,
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    run([python, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "-q", "."], env=env, cwd=source)
    built = glob.glob(os.path.join(source, "build", "lib*", "**", "*.so"), recursive=True)
    archs = set().union(*(device_architectures(lib, tools_python) for lib in built)) if built else set()
    has_cuda_sources = bool(glob.glob(os.path.join(source, "**", "*.cu"), recursive=True))
    if "cuda" in variant and has_cuda_sources and not archs:
        raise SystemExit(f"extension: {package}: the CUDA build carries no device code (cuobjdump --list-elf)")
    tests = os.path.join(work, "tests")
    os.makedirs(tests)
    for test_file in glob.glob(os.path.join(source, "test_*.py")):
        shutil.copy(test_file, tests)
    out = run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", tests], cwd=tests)
    shutil.rmtree(work, ignore_errors=True)
    device = f"; device code for sm_{', sm_'.join(map(str, sorted(archs)))}" if archs else ""
    return f"{out.strip().splitlines()[-1]}{device}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--wheelhouse", default=os.path.join(ROOT, "wheelhouse"))
    parser.add_argument("--variant", default="cpu")
    args = parser.parse_args(argv)
    m = matrix_file.load()
    tools_python = os.path.join(ROOT, "build", "tools-venv", "bin", "python")
    tag = "cp%d%d" % sys.version_info[:2]
    for vname in args.variant.split(","):
        label = m["variants"][vname]["label"]
        wheels = glob.glob(os.path.join(args.wheelhouse, f"torch-*+{label}-{tag}-*.whl"))
        if not wheels:
            raise SystemExit(f"extension: no {label} torch wheel for {tag} in {args.wheelhouse} (run `python3 -m ci factory`)")
        venvs = []
        for role in ("build", "test"):
            venv = os.path.join(BUILD, f"ext-{role}-{vname}")
            shutil.rmtree(venv, ignore_errors=True)
            run([sys.executable, "-m", "venv", venv])
            venvs.append(os.path.join(venv, "bin", "python"))
        run([venvs[0], "-m", "pip", "install", "-q", wheels[0]])
        check_variant(vname, m["variants"][vname], venvs[0], venvs[1], wheels[0], tools_python, args.wheelhouse)
    return 0


if __name__ == "__main__":
    sys.exit(main())
