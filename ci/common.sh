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
