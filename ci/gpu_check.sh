#!/usr/bin/env bash
# The checks for a machine with an NVIDIA GPU, where CI has none: the test
# suite (its CUDA tests and the CUDA-versus-CPU comparison of every OpInfo
# run only there), then the benchmarks on the GPU against the PyTorch that
# machine has. Run from the repository root:
#   ci/gpu_check.sh WHEEL [OUTDIR] [PYTEST ARGS...]
# WHEEL is a CUDA wheel for that machine's python3; it is installed with
# --no-deps into a private folder (the NVIDIA libraries come from that
# Python's environment), so the machine's own PyTorch stays and serves as
# the benchmarks' reference. OUTDIR gets suite.log and bench.log.
set -uo pipefail
wheel="$(realpath "$1")"
out="$(realpath "${2:-gpu-check}")"
shift $(( $# < 2 ? $# : 2 ))
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
site="$(mktemp -d)"
mkdir -p "$out"
python3 -m pip install -q --no-index --no-deps --no-compile --target "$site" "$wheel" || exit 1
ours="$site/python3"
printf '#!/bin/sh\nPYTHONPATH=%s exec python3 "$@"\n' "$site" > "$ours" && chmod +x "$ours"
(cd "$site" && "$ours" -c "import torch; print(torch.__file__, torch.__version__, 'CUDA', torch.version.cuda, 'GPU:',
    torch.cuda.get_device_name(0) if torch.cuda.is_available() else None)") 2>&1 | tee "$out/suite.log"

# The tests from outside the checkout, as ci/test_wheel.sh runs them.
work="$(mktemp -d)"
cp -r "$repo/tests" "$repo/examples" "$repo/pyproject.toml" "$work/"
mkdir -p "$work/tools" "$work/docs"
cp -r "$repo/tools/api_coverage" "$work/tools/" && cp "$repo/docs/API_COVERAGE.md" "$work/docs/"
workers="$(python3 -c 'import xdist' 2>/dev/null && echo "-n $(( $(nproc) < 16 ? $(nproc) : 16 ))")"
(cd "$work" && TORCH_TEST_WHEEL=1 "$ours" -m pytest tests -q -p no:cacheprovider -rfE $workers "$@") 2>&1 \
  | tee -a "$out/suite.log" | tail -40
suite=${PIPESTATUS[0]}

cd "$work" && python3 "$repo/benchmarks/compare.py" --device cuda --python "$ours" --reference-python python3 \
  --reference-label "PyTorch $(python3 -c 'import torch; print(torch.__version__)')" --seconds 0.2 --rounds 1 \
  > "$out/bench.log" 2>&1
echo "benchmarks: rc=$? (bench.log)"
exit "$suite"
