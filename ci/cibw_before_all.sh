#!/usr/bin/env bash
# cibuildwheel's before-all: one tools environment (cmake, ninja, pyyaml,
# OpenBLAS, the repair and check tools) shared by every Python of the job.
# With TORCH_TOOLS_PYTHON pointing at it (pyproject.toml), each Python's build
# reuses the native objects of the first (libtorch_python included: it is on
# the stable ABI) and compiles only the torch._C stub.
# For a CUDA variant (TORCH_CUDA_VERSION, passed in by wheels.yml from
# ci/matrix.toml) it also installs the toolkit; pyproject.toml's environment
# reads USE_CUDA, CUDA_HOME and CUDAHOSTCXX back from /tmp/torch-use-cuda,
# /tmp/torch-cuda-home and /tmp/torch-cuda-hostcxx.
set -euo pipefail
project="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools=/tmp/torch-tools
python="$(command -v python3.12 || ls /opt/python/cp312-cp312/bin/python 2>/dev/null || command -v python3)"
"$python" -m venv "$tools"
"$tools/bin/python" -m pip install -q --upgrade pip
"$tools/bin/python" -m pip install -q -r "$project/ci/requirements-tools.txt"
echo "tools environment: $tools ($("$tools/bin/python" --version))"

if [ -n "${TORCH_CUDA_VERSION:-}" ]; then
  PYTHON="$tools/bin/python" bash "$project/ci/install_cuda.sh" "$TORCH_CUDA_VERSION" | tail -n 1 > /tmp/torch-cuda-home
  echo 1 > /tmp/torch-use-cuda
  # CUDA 12's nvcc accepts host GCC up to 13; manylinux_2_28's default
  # toolset is newer. CMake takes the host compiler from CUDAHOSTCXX.
  if [ "${TORCH_CUDA_VERSION%%.*}" = 12 ]; then
    dnf install -y gcc-toolset-13-gcc-c++ >&2
    echo /opt/rh/gcc-toolset-13/root/usr/bin/g++ > /tmp/torch-cuda-hostcxx
  fi
  echo "CUDA $TORCH_CUDA_VERSION toolkit: $(cat /tmp/torch-cuda-home); architectures: ${TORCH_CUDA_ARCH_LIST:-the release default}"
else
  echo 0 > /tmp/torch-use-cuda
  : > /tmp/torch-cuda-home
fi
