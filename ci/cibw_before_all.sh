#!/usr/bin/env bash
# cibuildwheel's before-all: one tools environment (the code generator's
# pyyaml, OpenBLAS, the repair and check tools) shared by every Python of the
# job. With TORCH_TOOLS_PYTHON pointing at it (pyproject.toml), each Python's
# build configures CMake the same way and so reuses the native objects of the
# first (libtorch_python included: it is on the stable ABI); it compiles only
# the torch._C stub.
# For a CUDA variant (TORCH_CUDA_VERSION, passed in from ci/matrix.toml) it
# also installs the toolkit where setup.py looks for it (ci/install_cuda.sh).
set -euo pipefail
project="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools=/tmp/torch-tools
python="$(command -v python3.12 || ls /opt/python/cp312-cp312/bin/python 2>/dev/null || command -v python3)"
"$python" -m venv "$tools"
"$tools/bin/python" -m pip install -q --upgrade pip
"$tools/bin/python" -m pip install -q -r "$project/ci/requirements-tools.txt"
echo "tools environment: $tools ($("$tools/bin/python" --version))"

if [ -n "${TORCH_CUDA_VERSION:-}" ]; then
  PYTHON="$tools/bin/python" bash "$project/ci/install_cuda.sh" "$TORCH_CUDA_VERSION" >/dev/null
  # CUDA 12's nvcc accepts host GCC up to 13; manylinux_2_28's default
  # toolset is newer. ci/matrix.toml names gcc-toolset-13's g++ as CUDAHOSTCXX.
  if [ "${TORCH_CUDA_VERSION%%.*}" = 12 ]; then
    dnf install -y gcc-toolset-13-gcc-c++ >&2
  fi
  echo "CUDA $TORCH_CUDA_VERSION toolkit installed; architectures: ${TORCH_CUDA_ARCH_LIST:-the release default}; host compiler: ${CUDAHOSTCXX:-the default}"
fi
