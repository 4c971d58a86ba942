#!/usr/bin/env bash
# README's test command: install a repaired wheel into a fresh virtual
# environment and run the test suite from outside the checkout.
#   ci/test_wheel.sh [WHEEL] [PYTEST ARGS...]
# WHEEL defaults to the newest in wheelhouse/ for $PYTHON, built if missing.
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

venv="$REPO_ROOT/build/test-venv"
log "installing $(basename "$wheel") and the test requirements into a fresh environment"
fresh_venv "$venv"
# The libraries beside torch in the same install: their torch requirement must be met by this wheel.
"$venv/bin/python" -m pip install -q "$wheel" -r "$REPO_ROOT/tests/requirements-typing.txt" \
  -r "$REPO_ROOT/tests/requirements-libraries.txt"

# The tests and their configuration, copied where no checkout is in sight.
workdir="$(mktemp -d)"
cp -r "$REPO_ROOT/tests" "$REPO_ROOT/examples" "$REPO_ROOT/pyproject.toml" "$workdir/"
# The API coverage test compares the installed torch with the report in docs/.
mkdir -p "$workdir/tools" "$workdir/docs"
cp -r "$REPO_ROOT/tools/api_coverage" "$workdir/tools/"
cp "$REPO_ROOT/docs/API_COVERAGE.md" "$workdir/docs/"
log "running the tests in $workdir"
cd "$workdir"
TORCH_TEST_WHEEL=1 TORCH_TEST_LIBRARIES=1 "$venv/bin/python" -m pytest tests "$@" -p no:cacheprovider -q

log "running the build tools' tests (code generator, build settings, matrix, index)"
ensure_tools_venv
cd "$REPO_ROOT"
"$TOOLS_VENV/bin/python" -m pip install -q pytest
"$TOOLS_VENV/bin/python" -m pytest tools ci/tests benchmarks -p no:cacheprovider -q
