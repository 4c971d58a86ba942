#!/usr/bin/env bash
# README's main command: build the wheel, repair it into wheelhouse/, install
# it in a fresh virtual environment and run the examples there
# (hello_world.py, then train_digits.py, which needs scikit-learn's data).
#   PYTHON=python3.12 ci/build_wheelhouse.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

ensure_tools_venv
mkdir -p "$WHEELHOUSE" "$REPO_ROOT/build/dist"
rm -f "$REPO_ROOT"/build/dist/*.whl

log "building the wheel with $("$PYTHON" --version)"
start=$(date +%s)
# The tools environment is the build environment (no isolation), so CMake's
# build directory and its objects are reused from one run to the next.
"$TOOLS_VENV/bin/python" -m pip wheel "$REPO_ROOT" --no-build-isolation --no-deps -w "$REPO_ROOT/build/dist"
log "built in $(( $(date +%s) - start ))s"

wheel="$(ls "$REPO_ROOT"/build/dist/*.whl)"
log "repairing $(basename "$wheel")"
bash "$REPO_ROOT/ci/repair_wheel.sh" "$wheel" "$WHEELHOUSE"

repaired="$(find_wheel)"
log "installing $(basename "$repaired") into a fresh environment"
venv="$REPO_ROOT/build/hello-venv"
fresh_venv "$venv"
"$venv/bin/python" -m pip install -q "$repaired" -r "$REPO_ROOT/examples/requirements.txt"

cd "$(mktemp -d)"
log "running examples/hello_world.py from the installed wheel"
"$venv/bin/python" "$REPO_ROOT/examples/hello_world.py"
log "running examples/train_digits.py from the installed wheel"
"$venv/bin/python" "$REPO_ROOT/examples/train_digits.py"
