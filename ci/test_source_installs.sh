#!/usr/bin/env bash
# Every way of installing from source, each from a copy of this tree in a
# fresh environment: pip install ., the sdist, pip install -e ., README's
# Developing block, and two builds compared byte for byte
# (ci/tests/test_source_installs.py). Several full builds: minutes.
#   bash ci/test_source_installs.sh [PYTEST ARGS...]
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
ensure_tools_venv
"$TOOLS_VENV/bin/python" -m pip install -q pytest
cd "$REPO_ROOT"
# The copies, and pip's own temporary trees (the unpacked sdist), under the
# checkout's build/: ccache's base_dir covers them wherever the checkout is
# (ci/ccache.sh), so they share objects with the factory's in-tree builds.
work="$REPO_ROOT/build/source-installs"
rm -rf "$work" && mkdir -p "$work/tmp"
TMPDIR="$work/tmp" TORCH_SOURCE_INSTALL_TESTS=1 "$TOOLS_VENV/bin/python" -m pytest ci/tests/test_source_installs.py \
  -p no:cacheprovider -v --durations=0 --basetemp "$work/pytest" "$@"
