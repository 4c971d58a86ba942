#!/usr/bin/env bash
# The fuzzers (atheris, coverage-guided) against this Python's installed cpu
# wheel: first every saved finding in tests/fuzz/regressions/ is replayed, then
# a seeded run of each target. Any crash, hang or Python exception other
# than the clean ones the targets allow fails, and libFuzzer writes the input
# to build/fuzz/findings/ (copy it into tests/fuzz/regressions/ with the fix).
#
#   bash ci/fuzz.sh            # the short seeded run (.ci/run)
#   bash ci/fuzz.sh 3600       # a long run: each target for 3600 seconds
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

seconds="${1:-}"
work="$REPO_ROOT/build/fuzz"
wheel="$(find_wheel)"
if [ -z "$wheel" ]; then
  version="$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  log "no wheel in $WHEELHOUSE for Python $version: building one with the factory"
  (cd "$REPO_ROOT" && "$PYTHON" -m ci factory --python "$version" --skip-tests)
  wheel="$(find_wheel)"
fi
venv="$work/venv"
log "installing $(basename "$wheel") and atheris into a fresh environment"
fresh_venv "$venv"
"$venv/bin/python" -m pip install -q "$wheel" numpy -r "$REPO_ROOT/tests/fuzz/requirements.txt"
rm -rf "$work/findings"
mkdir -p "$work/findings"
cd "$(mktemp -d)"  # no checkout in sight: `import torch` is the wheel

for target in binding load; do
  script="$REPO_ROOT/tests/fuzz/fuzz_$target.py"
  regressions=("$REPO_ROOT"/tests/fuzz/regressions/"$target"/*)
  log "fuzz_$target: replaying ${#regressions[@]} saved findings"
  "$venv/bin/python" "$script" "${regressions[@]}" 2>&1 | tail -n 3
  corpus="$work/corpus-$target"
  mkdir -p "$corpus"
  if [ -n "$seconds" ]; then
    limits=(-max_total_time="$seconds")
  else
    limits=(-runs=30000 -seed=1)
  fi
  log "fuzz_$target: ${limits[*]}"
  "$venv/bin/python" "$script" "$corpus" "${limits[@]}" -timeout=20 -max_len=4096 \
    -artifact_prefix="$work/findings/$target-" 2>&1 | grep -v -E "^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse)|^INFO: Instrumenting" | tail -n 25
done
log "fuzzing: no findings"
