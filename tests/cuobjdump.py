"""Which GPU architectures a CUDA library carries code for, read by NVIDIA's
own cuobjdump: the PyPI wheel nvidia-cuda-cuobjdump (13.2 and later, in
tests/requirements.txt and ci/requirements-tools.txt) puts it at
site-packages/nvidia/cu13/bin/cuobjdump."""
from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys


def find() -> str | None:
    """The cuobjdump of an installed nvidia-cuda-cuobjdump wheel, else one on PATH."""
    for entry in sys.path:
        found = sorted(glob.glob(os.path.join(entry, "nvidia", "cu*", "bin", "cuobjdump")))
        if found:
            return found[-1]
    return shutil.which("cuobjdump")


def _listed(path: str, what: str) -> set[int]:
    tool = find()
    if tool is None:
        raise FileNotFoundError("cuobjdump not found: pip install 'nvidia-cuda-cuobjdump>=13.2'")
    proc = subprocess.run([tool, f"--list-{what}", path], capture_output=True, text=True)
    if proc.returncode != 0 and "does not contain" not in proc.stderr + proc.stdout:
        raise RuntimeError(f"cuobjdump --list-{what} {path} failed: {proc.stderr.strip()}")
    # ELF file    1: libtorch_cuda.1.sm_80.cubin / PTX file    1: libtorch_cuda.1.sm_90.ptx
    return {int(n) for n in re.findall(r"\.sm_(\d+)[a-z]?\.(?:cubin|ptx)", proc.stdout)}


def architectures(path: str) -> tuple[set[int], set[int]]:
    """(sm numbers with machine code, sm numbers with PTX) in the library."""
    return _listed(path, "elf"), _listed(path, "ptx")
