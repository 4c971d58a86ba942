#!/usr/bin/env bash
# cibuildwheel's before-all: one tools environment (cmake, ninja, pyyaml,
# OpenBLAS, the repair and check tools) shared by every Python of the job.
# With TORCH_TOOLS_PYTHON pointing at it (pyproject.toml), each Python's build
# reuses the native objects of the first and compiles only libtorch_python.
set -euo pipefail
project="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools=/tmp/torch-tools
python="$(command -v python3.12 || ls /opt/python/cp312-cp312/bin/python 2>/dev/null || command -v python3)"
"$python" -m venv "$tools"
"$tools/bin/python" -m pip install -q --upgrade pip
"$tools/bin/python" -m pip install -q -r "$project/ci/requirements-tools.txt"
echo "tools environment: $tools ($("$tools/bin/python" --version))"
