"""The CUDA variant of a USE_CUDA=1 build: the toolkit's version names it
(+cu130 for CUDA 13.0), and ci/matrix.toml, the one description of the
variants, gives its default architectures and the NVIDIA runtime wheels the
built wheel depends on instead of bundling them."""
from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass

from . import matrix as matrix_file
from .env import BuildSettingError


@dataclass
class CudaVariant:
    home: str
    version: str  # "13.0"
    label: str  # "cu130"
    arch_list: str  # "7.5;8.0;12.0+PTX"
    runtime: list[str]  # requirements, for Linux only


def toolkit_version(home: str) -> str:
    nvcc = os.path.join(home, "bin", "nvcc")
    out = subprocess.run([nvcc, "--version"], capture_output=True, text=True, check=True).stdout
    m = re.search(r"release (\d+)\.(\d+)", out)
    if not m:
        raise BuildSettingError(f"cannot read the CUDA version from `{nvcc} --version`:\n{out}")
    return f"{m.group(1)}.{m.group(2)}"


def load_matrix() -> dict:
    return matrix_file.load()


def normalize_arch_list(value: str) -> str:
    """PyTorch accepts spaces or semicolons between architectures."""
    archs = [a for a in re.split(r"[;\s]+", value.strip()) if a]
    for a in archs:
        if not re.fullmatch(r"\d+\.\d+(\+PTX)?", a):
            raise BuildSettingError(f"TORCH_CUDA_ARCH_LIST: {a!r} is not an architecture such as 8.0 or 9.0+PTX")
    if not archs:
        raise BuildSettingError("TORCH_CUDA_ARCH_LIST is empty")
    return ";".join(archs)


def detect(home: str, environ: dict[str, str] | None = None, matrix: dict | None = None) -> CudaVariant:
    env = os.environ if environ is None else environ
    version = toolkit_version(home)
    matrix = load_matrix() if matrix is None else matrix
    for label, v in matrix["variants"].items():
        if v.get("cuda") == version:
            archs = normalize_arch_list(env.get("TORCH_CUDA_ARCH_LIST") or v["arch_list"])
            return CudaVariant(home, version, label, archs, list(v.get("runtime", [])))
    known = ", ".join(sorted(v["cuda"] for v in matrix["variants"].values() if "cuda" in v))
    raise BuildSettingError(f"CUDA {version} (from {home}) is not a variant in ci/matrix.toml; known CUDA lines: {known}")
