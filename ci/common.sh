# Shared helpers for the ci/ scripts; source it, don't run it.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
WHEELHOUSE="${WHEELHOUSE:-$REPO_ROOT/wheelhouse}"
# Build and repair tools live in their own environment, never in the one under test.
TOOLS_VENV="${TOOLS_VENV:-$REPO_ROOT/build/tools-venv}"

log() { printf '\n==> %s\n' "$*" >&2; }

# Creates (once) the tools environment: build requirements plus repair/check tools.
ensure_tools_venv() {
  if [ ! -x "$TOOLS_VENV/bin/python" ]; then
    log "creating the tools environment in $TOOLS_VENV"
    "$PYTHON" -m venv "$TOOLS_VENV"
  fi
  local stamp="$TOOLS_VENV/.requirements"
  local lists=("$REPO_ROOT/ci/requirements-tools.txt" "$REPO_ROOT/ci/requirements-zig.txt" "$REPO_ROOT/requirements-build.txt")
  if ! cat "${lists[@]}" | cmp -s - "$stamp"; then
    "$TOOLS_VENV/bin/python" -m pip install -q --upgrade pip
    "$TOOLS_VENV/bin/python" -m pip install -q -r "$REPO_ROOT/ci/requirements-tools.txt"
    cat "${lists[@]}" > "$stamp"
  fi
  export PATH="$TOOLS_VENV/bin:$PATH"
}

# A new, empty virtual environment at $1 for the given Python.
fresh_venv() {
  rm -rf "$1"
  "$PYTHON" -m venv "$1"
  "$1/bin/python" -m pip install -q --upgrade pip
}

# The newest repaired wheel in the wheelhouse for $PYTHON, or nothing.
find_wheel() {
  local tag
  tag="$("$PYTHON" -c 'import sys; print(f"cp{sys.version_info[0]}{sys.version_info[1]}")')"
  ls -t "$WHEELHOUSE"/*+"${VARIANT:-cpu}"-"$tag"-"$tag"-*.whl 2>/dev/null | head -n 1 || true
}

# PyTorch 2.13 (CPU) in build/torch-ref, the oracle of the difftest and the
# speed sweep (pip takes the CPU wheel this machine keeps on disk); prints
# its Python.
ensure_torch_ref() {
  local ref="$REPO_ROOT/build/torch-ref"
  # Asked from / : in the checkout, `import torch` would find the checkout's.
  if ! (cd / && "$ref/bin/python" -c 'import torch, numpy; assert torch.__version__.startswith("2.13.")') 2>/dev/null; then
    log "PyTorch 2.13 in $ref"
    rm -rf "$ref"
    "$PYTHON" -m venv "$ref" >&2
    "$ref/bin/python" -m pip install -q torch==2.13.0 numpy >&2
  fi
  echo "$ref/bin/python"
}

# A fresh venv at $1 with this Python's cpu wheel from the wheelhouse (built
# if missing) and numpy; the wheel and the place are logged.
venv_with_our_wheel() {
  local wheel
  wheel="$(find_wheel)"
  if [ -z "$wheel" ]; then
    local version
    version="$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
    (cd "$REPO_ROOT" && "$PYTHON" -m ci factory --python "$version" --skip-tests) >&2
    wheel="$(find_wheel)"
  fi
  log "our wheel: $(basename "$wheel") in $1"
  fresh_venv "$1" >&2
  "$1/bin/python" -m pip install -q "$wheel" numpy >&2
}
