#!/usr/bin/env bash
# The platform proofs that do not fit beside .ci/run in CI's time on a
# 2-core machine (its header says why): run them before a release and after a
# change to platform code (the toolchain files, setup.py's platform logic,
# ci/builders/cross.py, the repair tools, pyproject.toml's cibuildwheel table).
#
#   bash ci/platforms.sh
#
# 1. The macOS (arm64, x86_64) and Windows wheels cross-built with zig,
#    repaired with delocate and delvewheel, checked, and the Windows one's
#    suite run under Wine (`ci/factory.py --platform ...`); zig's runtimes
#    and the targets' inputs are made first and cached in
#    ~/.cache/torch-factory.
# 2. `cibuildwheel --platform linux` with pyproject.toml's configuration in
#    containers of ci/local/image.py's image, for 3.11 and the free-threaded
#    3.14t (cpu) and cu130 (3.11), each wheel's suite run in the container
#    (`ci/factory.py --engine cibuildwheel`), into wheelhouse/cibuildwheel.
# 3. linux-aarch64: the native libraries cross-compiled with Debian's aarch64
#    GCC and the suite run under qemu-user (ci/qemu_aarch64.sh).
# 4. The reproducibility pair of ci/test_source_installs.sh: two wheels of
#    one tree built in two places, the second without ccache (a full cold
#    build), byte-identical before and after auditwheel.
# Each step prints its wall time. About 50 minutes on a fresh 2-core machine,
# much less with warm caches (ccache, zig's, the image).
set -euo pipefail
cd "$(dirname "$0")/.."
step() {
  local start=$SECONDS
  "$@"
  printf '\n==> ci/platforms.sh step took %ss: %s\n' "$((SECONDS - start))" "$*"
}
source ci/ccache.sh
step bash ci/host_packages.sh image cross qemu
step python3 -m ci build-cpython 3.14t
step bash -c 'source ci/common.sh && ensure_tools_venv'
platforms=macos-arm64,macos-x86_64,windows-amd64
step python3 -m ci cross-build --prepare "$platforms"
step python3 -m ci factory --platform "$platforms"
step python3 -m ci factory --engine cibuildwheel --python 3.11,3.14t --variant cpu,cu130 --wheelhouse wheelhouse/cibuildwheel
step bash ci/qemu_aarch64.sh
step bash ci/test_source_installs.sh -k reproducible
