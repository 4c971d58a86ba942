#!/usr/bin/env bash
# The whole-API speed sweep against PyTorch 2.13 (benchmarks/sweep), from
# installed wheels:
#   bash ci/benchmark_sweep.sh [--short] [--only NAMES] [--write docs/PERFORMANCE.md] [...]
# .ci/run runs the short form (6 ms per measurement) as a regression gate: it
# fails when a row is more than 1.5x slower than PyTorch with no reason in
# benchmarks/known_slow.toml, or when our torch fails a call PyTorch runs.
# The full form (30 ms per measurement, about ten minutes) writes
# docs/PERFORMANCE.md. Ours: this Python's cpu wheel in a fresh venv; PyTorch:
# build/torch-ref, shared with ci/difftest.sh.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ensure_tools_venv
ours="$REPO_ROOT/build/sweep-ours"
venv_with_our_wheel "$ours"
ref_python="$(ensure_torch_ref)"
cd "$REPO_ROOT"
"$TOOLS_VENV/bin/python" -m benchmarks.sweep --ours "$ours/bin/python" --reference "$ref_python" "$@"
