"""Build settings read from the environment, each documented in docs/FACTORY.md.

Only settings declared here or as option() in cmake/Options.cmake are
accepted: an unknown USE_*/BUILD_* variable is an error, not a silent no-op.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import sysconfig
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_TRUE = {"1", "ON", "YES", "TRUE", "Y"}
_FALSE = {"0", "OFF", "NO", "FALSE", "N", ""}
# Variables with these prefixes belong to other tools and are left alone.
_FOREIGN = ("BUILD_ID", "BUILD_NUMBER", "BUILD_URL", "BUILD_TAG", "BUILD_DIR")


class BuildSettingError(Exception):
    pass


def parse_bool(name: str, value: str) -> bool:
    v = value.strip().upper()
    if v in _TRUE:
        return True
    if v in _FALSE:
        return False
    raise BuildSettingError(f"{name}={value!r} is not a boolean: use 1 or 0")


def cmake_options() -> dict[str, tuple[bool, str]]:
    """name -> (default, description), from cmake/Options.cmake."""
    with open(os.path.join(ROOT, "cmake", "Options.cmake")) as f:
        text = f.read()
    found = re.findall(r'^option\((\w+)\s+"([^"]*)"\s+(ON|OFF)\)', text, re.M)
    return {name: (default == "ON", doc) for name, doc, default in found}


@dataclass
class Settings:
    max_jobs: int
    build_type: str
    verbose: bool
    package_name: str | None  # TORCH_PACKAGE_NAME; None: the sdist's or ci/matrix.toml's
    version_override: str | None
    tools_python: str | None = None
    cuda_version: str | None = None  # TORCH_CUDA_VERSION: the CUDA line asked for ("13.0")
    platform: str | None = None  # TORCH_PLATFORM: a zig-built platform of ci/matrix.toml (target.py)
    cmake_options: dict[str, bool] = field(default_factory=dict)
    cmake_args: list[str] = field(default_factory=list)

    @property
    def use_cuda(self) -> bool:
        return self.cmake_options.get("USE_CUDA", False)

    @property
    def sanitizers(self) -> list[str]:
        """The sanitizers asked for ("asan", "ubsan"): they get a build directory of their own."""
        return [n[4:].lower() for n in ("USE_ASAN", "USE_UBSAN") if self.cmake_options.get(n)]


def running_free_threaded() -> bool:
    return bool(sysconfig.get_config_var("Py_GIL_DISABLED"))


def read(environ: dict[str, str] | None = None, free_threaded: bool | None = None) -> Settings:
    """free_threaded: whether the target Python is a free-threaded build
    (default: the running one), which has no stable ABI."""
    env = dict(os.environ if environ is None else environ)
    options = cmake_options()
    chosen = {}
    for name, value in env.items():
        if not name.startswith(("USE_", "BUILD_")) or name.startswith(_FOREIGN):
            continue
        if name not in options:
            known = ", ".join(sorted(options))
            raise BuildSettingError(f"unknown build setting {name}={value!r}; the known ones are: {known}")
        chosen[name] = parse_bool(name, value)

    jobs = env.get("MAX_JOBS", "")
    if jobs and not jobs.isdigit():
        raise BuildSettingError(f"MAX_JOBS={jobs!r} must be a positive integer")
    debug = parse_bool("DEBUG", env.get("DEBUG", ""))
    relwithdeb = parse_bool("REL_WITH_DEB_INFO", env.get("REL_WITH_DEB_INFO", ""))
    if debug and relwithdeb:
        raise BuildSettingError("DEBUG=1 and REL_WITH_DEB_INFO=1 are exclusive")
    if (running_free_threaded() if free_threaded is None else free_threaded):
        # No stable ABI without the GIL: libtorch_python is built for this
        # Python's full API unless the user insists (configure then explains).
        chosen.setdefault("USE_PYTHON_LIMITED_API", False)
    cuda_version = env.get("TORCH_CUDA_VERSION", "").strip() or None
    if cuda_version is not None:
        if not re.fullmatch(r"\d+\.\d+", cuda_version):
            raise BuildSettingError(f"TORCH_CUDA_VERSION={cuda_version!r} is not a CUDA version such as 13.0")
        # Naming a CUDA line asks for a CUDA build; USE_CUDA=0 beside it is a contradiction.
        if chosen.get("USE_CUDA") is False:
            raise BuildSettingError(f"TORCH_CUDA_VERSION={cuda_version} asks for a CUDA build, but USE_CUDA=0")
        chosen["USE_CUDA"] = True
    sanitizers = [n for n in ("USE_ASAN", "USE_UBSAN") if chosen.get(n)]
    platform = env.get("TORCH_PLATFORM", "").strip() or None
    if platform is not None:
        # zig's cpu build: no CUDA, no sanitizer runtime, no OpenMP (ATen's
        # pool instead), and the stable ABI (one module for every Python).
        if (running_free_threaded() if free_threaded is None else free_threaded):
            raise BuildSettingError(f"TORCH_PLATFORM={platform} builds a stable-ABI wheel, which a free-threaded "
                                    f"Python cannot build or load: run setup.py with a regular CPython")
        clashes = [n for n in ("USE_CUDA/TORCH_CUDA_VERSION", *sanitizers) if chosen.get(n.split("/")[0])] + (
            ["USE_OPENMP"] if chosen.get("USE_OPENMP") else []) + (
            ["USE_PYTHON_LIMITED_API=0"] if chosen.get("USE_PYTHON_LIMITED_API") is False else [])
        if clashes:
            raise BuildSettingError(f"TORCH_PLATFORM={platform} builds the cpu wheel with zig on the stable ABI, "
                                    f"without OpenMP: drop {', '.join(clashes)}")
        chosen["USE_OPENMP"] = False
    if sanitizers and chosen.get("USE_CUDA"):
        raise BuildSettingError(f"{'/'.join(sanitizers)} is for CPU builds (nvcc's device code cannot be "
                                f"instrumented): drop USE_CUDA / TORCH_CUDA_VERSION, or the sanitizer")
    name = env.get("TORCH_PACKAGE_NAME") or None
    if name is not None and not re.match(r"^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$", name):
        raise BuildSettingError(f"TORCH_PACKAGE_NAME={name!r} is not a valid distribution name")
    return Settings(
        max_jobs=int(jobs) if jobs else (os.cpu_count() or 1),
        build_type="Debug" if debug else ("RelWithDebInfo" if relwithdeb else "Release"),
        verbose=parse_bool("VERBOSE", env.get("VERBOSE", "")),
        package_name=name,
        version_override=env.get("PYTORCH_BUILD_VERSION") or None,
        tools_python=env.get("TORCH_TOOLS_PYTHON") or None,
        cuda_version=cuda_version,
        platform=platform,
        cmake_options=chosen,
        cmake_args=shlex.split(env.get("CMAKE_ARGS", "")),
    )


def cuda_home_candidates(version: str) -> list[str]:
    """Where ci/install_cuda.sh VERSION puts a CUDA line's toolkit: NVIDIA's
    wheels under build/ (13.x), NVIDIA's packages under /usr/local (12.x)."""
    return [os.path.join(ROOT, "build", f"cuda-{version}", "home"), f"/usr/local/cuda-{version}"]


def find_cuda_home(environ: dict[str, str] | None = None, version: str | None = None) -> str | None:
    """CUDA_HOME; else, for TORCH_CUDA_VERSION, the toolkit where
    ci/install_cuda.sh installs that line; else the toolkit around the nvcc on PATH."""
    env = os.environ if environ is None else environ
    home = env.get("CUDA_HOME") or env.get("CUDA_PATH")
    if home:
        return home if os.path.exists(os.path.join(home, "bin", "nvcc")) else None
    if version:
        return next((h for h in cuda_home_candidates(version) if os.path.exists(os.path.join(h, "bin", "nvcc"))), None)
    nvcc = shutil.which("nvcc", path=env.get("PATH"))
    return os.path.dirname(os.path.dirname(os.path.realpath(nvcc))) if nvcc else None
