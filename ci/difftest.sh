#!/usr/bin/env bash
# The differential test against PyTorch 2.13 (tools/difftest), from installed wheels:
#   bash ci/difftest.sh [--cases N] [--seed S] [--fail-on CATEGORIES] [...]
# Defaults: a short seeded pass (3000 cases) that fails on a crash, a wrong
# value or a wrong dtype, as .ci/run runs it. The long pass:
#   bash ci/difftest.sh --cases 100000 --seed 11 --fail-on crash,value,dtype
# Ours: this Python's cpu wheel from wheelhouse/ (built if missing) in a fresh
# venv. PyTorch: `pip install torch==2.13.0` in build/torch-ref (pip takes the
# CPU wheel this machine keeps on disk).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ensure_tools_venv
"$TOOLS_VENV/bin/python" -m pip install -q numpy

ours="$REPO_ROOT/build/difftest-ours"
venv_with_our_wheel "$ours"
ref_python="$(ensure_torch_ref)"

cd "$REPO_ROOT"
args=("$@")
[[ " ${args[*]} " == *" --cases "* ]] || args+=(--cases 3000)
[[ " ${args[*]} " == *" --fail-on "* ]] || args+=(--fail-on crash,value,dtype)
"$TOOLS_VENV/bin/python" -m tools.difftest --ours "$ours/bin/python" --reference "$ref_python" "${args[@]}"
