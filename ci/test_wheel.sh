#!/usr/bin/env bash
# README's test command: install a repaired wheel into a fresh virtual
# environment and run the test suite from outside the checkout; then the
# build tools' own tests.
#   ci/test_wheel.sh [WHEEL] [PYTEST ARGS...]
# WHEEL defaults to the newest in wheelhouse/ for $PYTHON, built if missing.
# A pass is recorded under build/suite-passed/ by the digest of everything
# the run depends on: the wheel, $PYTHON, the arguments, this script and the
# files copied beside the tests. The same run again (the factory tests this
# Python's cpu wheel with this script, and then .ci/run calls it) reports the
# recorded pass instead of repeating it; TORCH_TEST_RERUN=1 runs it anyway.
# The factory sets TORCH_TEST_REPORT (pytest's JUnit report goes there) and
# TORCH_TEST_TOOLS=0 (it runs the tools' tests elsewhere).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

wheel=""
if [ $# -gt 0 ] && [[ "$1" == *.whl ]]; then
  wheel="$1"
  shift
fi
wheel="${wheel:-$(find_wheel)}"
if [ -z "$wheel" ]; then
  version="$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
  log "no wheel in $WHEELHOUSE for Python $version: building one with the factory"
  (cd "$REPO_ROOT" && "$PYTHON" -m ci factory --python "$version" --variant "${VARIANT:-cpu}" --skip-tests)
  wheel="$(find_wheel)"
fi

# What the run copies beside the tests (relative to the checkout).
inputs=(tests examples pyproject.toml tools/api_coverage docs/API_COVERAGE.md)
suite_key() {
  {
    sha256sum "$wheel" "${BASH_SOURCE[0]}" | cut -d' ' -f1
    "$PYTHON" -c 'import os, sys; print(os.path.realpath(sys.executable), sys.version)'
    printf '%s\n' "$@"
    (cd "$REPO_ROOT" && find "${inputs[@]}" -type f -not -path '*/__pycache__/*' -print0 | LC_ALL=C sort -z |
       xargs -0 sha256sum)
  } | sha256sum | cut -d' ' -f1
}
record="$REPO_ROOT/build/suite-passed/$(suite_key "$@")"
if [ -f "$record" ] && [ "${TORCH_TEST_RERUN:-0}" != 1 ]; then
  log "$(basename "$wheel") passed this suite before, with these tests and arguments: $(cat "$record")"
  log "not repeating it (TORCH_TEST_RERUN=1 runs it again)"
else
  venv="$REPO_ROOT/build/test-venv"
  log "installing $(basename "$wheel") and the test requirements into a fresh environment"
  fresh_venv "$venv"
  # The libraries beside torch in the same install: their torch requirement must be met by this wheel.
  "$venv/bin/python" -m pip install -q "$wheel" -r "$REPO_ROOT/tests/requirements-typing.txt" \
    -r "$REPO_ROOT/tests/requirements-libraries.txt"

  # The tests and their configuration, copied where no checkout is in sight.
  workdir="$(mktemp -d)"
  for item in "${inputs[@]}"; do
    mkdir -p "$workdir/$(dirname "$item")"
    cp -r "$REPO_ROOT/$item" "$workdir/$item"
  done
  log "running the tests in $workdir"
  report=()
  [ -n "${TORCH_TEST_REPORT:-}" ] && report=("--junitxml=$TORCH_TEST_REPORT")
  started="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  (cd "$workdir" && TORCH_TEST_WHEEL=1 TORCH_TEST_LIBRARIES=1 \
     "$venv/bin/python" -m pytest tests "$@" ${report[@]+"${report[@]}"} -p no:cacheprovider -q)
  mkdir -p "$(dirname "$record")"
  echo "the run started at $started" > "$record"
  rm -rf "$workdir"
fi
[ "${TORCH_TEST_TOOLS:-1}" = 0 ] && exit 0

log "running the build tools' tests (code generator, build settings, matrix, index)"
ensure_tools_venv
cd "$REPO_ROOT"
"$TOOLS_VENV/bin/python" -m pip install -q pytest
"$TOOLS_VENV/bin/python" -m pytest tools ci/tests benchmarks -p no:cacheprovider -q
