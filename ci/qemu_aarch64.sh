#!/usr/bin/env bash
# qemu_aarch64.sh: the linux-aarch64 platform checked on an x86_64 Debian or
# Ubuntu machine (as root) that has no ARM runner: cross-compiles every native
# library and the torch._C stub with Debian's aarch64 toolchain, assembles the
# torch package, and runs the test suite with Debian's arm64 Python under
# qemu-user. GitHub builds the real aarch64 wheels natively (wheels.yml); this
# is the check a maintainer can run before pushing a tag.
#
#   bash ci/qemu_aarch64.sh            # ~2 min of compiling, ~1 min of tests on 2 cores
#
# Left out: test_build.py inspects an installed wheel's layout with host
# tools; the extension builds (test_cpp_extension.py, test_cpp_api.py,
# test_pytorch_extensions.py) need a compiler for the target, which the
# sysroot has not; and test_examples.py starts new interpreters, which
# qemu-user without binfmt_misc cannot do (nor can test_cpu_capability.py's
# two tests that run a child with ATEN_CPU_CAPABILITY set; its comparisons
# skip themselves, aarch64 having one level); so are the tests marked `workers`
# (DataLoader worker processes: qemu-user sometimes aborts with an assertion
# in its own plugin code when a threaded guest process forks). Everything
# lives in build/aarch64.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
root="$REPO_ROOT"
work="$root/build/aarch64"
sysroot="$work/sysroot"
pkgs="$work/site-packages"
pyver=3.11  # Debian 12's python3 for arm64
mkdir -p "$work/debs"

if [ "$(uname -m)" != x86_64 ] || ! command -v apt-get >/dev/null || [ "$(id -u)" != 0 ]; then
  echo "qemu_aarch64.sh: needs root on an x86_64 Debian/Ubuntu machine (apt-get)" >&2
  exit 1
fi
ensure_tools_venv
tools_python="$TOOLS_VENV/bin/python"

log "toolchain: g++-aarch64-linux-gnu, qemu-user"
command -v aarch64-linux-gnu-g++ >/dev/null && command -v qemu-aarch64 >/dev/null ||
  apt-get install -y -q g++-aarch64-linux-gnu qemu-user >/dev/null

log "arm64 Python $pyver and the libraries it loads, unpacked into $sysroot"
if [ ! -x "$sysroot/usr/bin/python$pyver" ]; then
  if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    dpkg --add-architecture arm64
    apt-get update -q >/dev/null
  fi
  (cd "$work/debs" && apt-get download -q \
    "python$pyver-minimal:arm64" "libpython$pyver-minimal:arm64" "libpython$pyver-stdlib:arm64" \
    "libpython$pyver-dev:arm64" libc6:arm64 libgcc-s1:arm64 libstdc++6:arm64 libgomp1:arm64 \
    libgfortran5:arm64 libexpat1:arm64 zlib1g:arm64 libffi8:arm64 libssl3:arm64 libbz2-1.0:arm64 \
    liblzma5:arm64 libuuid1:arm64 libsqlite3-0:arm64 libncursesw6:arm64 libtinfo6:arm64 \
    libreadline8:arm64 libcrypt1:arm64 libnsl2:arm64 libtirpc3:arm64 libdb5.3:arm64 >/dev/null)
  for deb in "$work"/debs/*.deb; do dpkg -x "$deb" "$sysroot"; done
fi

log "aarch64 wheels: scipy-openblas32 (to link), numpy, pytest, hypothesis, mpmath (to test)"
pip_target() {
  "$tools_python" -m pip install -q --target "$1" --platform manylinux2014_aarch64 --only-binary=:all: \
    --python-version "$pyver" --implementation cp --upgrade "${@:2}"
}
[ -d "$work/openblas/scipy_openblas32" ] || pip_target "$work/openblas" scipy-openblas32
[ -d "$pkgs/mpmath" ] || pip_target "$pkgs" numpy pytest hypothesis mpmath
# scipy_openblas32's __init__ loads its (aarch64) library, which this machine
# cannot: CMake asks a stand-in module that only names the directories.
openblas="$work/openblas/scipy_openblas32"
mkdir -p "$work/openblas-shim/scipy_openblas32"
version="$(sed -n 's/^Version: //p' "$work"/openblas/scipy_openblas32-*.dist-info/METADATA)"
cat > "$work/openblas-shim/scipy_openblas32/__init__.py" <<EOF
__version__ = "$version"
def get_include_dir(): return "$openblas/include"
def get_lib_dir(): return "$openblas/lib"
def get_library(): return "scipy_openblas"
EOF
cat > "$work/tools-python" <<EOF
#!/bin/sh
PYTHONPATH="$work/openblas-shim" exec "$tools_python" "\$@"
EOF
chmod +x "$work/tools-python"

log "cross-compiling libc10, libtorch_cpu, libtorch_python"
cmake -S "$root" -B "$work/cmake" -G Ninja \
  -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64 \
  -DCMAKE_C_COMPILER=aarch64-linux-gnu-gcc -DCMAKE_CXX_COMPILER=aarch64-linux-gnu-g++ \
  "-DCMAKE_CXX_FLAGS=-idirafter $sysroot/usr/include" \
  -DTORCH_TOOLS_PYTHON="$work/tools-python" -DPython_EXECUTABLE="$(command -v "python$pyver" || echo "$tools_python")" \
  -DPython_INCLUDE_DIR="$sysroot/usr/include/python$pyver" \
  -DTORCH_PYTHON_ABI3_INCLUDE_DIR="$sysroot/usr/include/python$pyver" \
  -DUSE_CUDA=OFF -DUSE_CCACHE=OFF >/dev/null
cmake --build "$work/cmake"

log "the torch package in $pkgs/torch"
rm -rf "$pkgs/torch"
cmake --install "$work/cmake" --prefix "$pkgs/torch" >/dev/null
# The package's Python files and its PEP 561 marker, as setup.py packs them.
(cd "$root/torch" && find . \( -name '*.py' -o -name py.typed \) -not -path './include/*' -not -name version.py) |
while read -r f; do
  install -D -m 644 "$root/torch/$f" "$pkgs/torch/$f"
done
(cd "$root" && "$tools_python" -c "
from tools.setup_helpers import version
version.write_version_file('$pkgs/torch/version.py', version.full_version('cpu', None), cuda=None, debug=False)")
aarch64-linux-gnu-gcc -shared -fPIC -O2 "$root/csrc/stub.c" -I"$sysroot/usr/include/python$pyver" \
  -idirafter "$sysroot/usr/include" -L"$pkgs/torch/lib" -ltorch_python \
  -Wl,-rpath,'$ORIGIN/lib' -o "$pkgs/torch/_C.cpython-${pyver/./}-aarch64-linux-gnu.so"

log "the test suite under qemu-aarch64"
rm -rf "$work/run" && mkdir -p "$work/run"
cp -r "$root/tests" "$root/pyproject.toml" "$work/run/"
cd "$work/run"
QEMU_LD_PREFIX="$sysroot" LD_LIBRARY_PATH="$openblas/lib" PYTHONPATH="$pkgs" \
  qemu-aarch64 "$sysroot/usr/bin/python$pyver" -c \
  "import platform, torch; print('torch', torch.__version__, 'on', platform.machine(), 'from', torch.__file__)"
QEMU_LD_PREFIX="$sysroot" LD_LIBRARY_PATH="$openblas/lib" PYTHONPATH="$pkgs" \
  qemu-aarch64 "$sysroot/usr/bin/python$pyver" -m pytest tests -q -p no:cacheprovider \
  --deselect tests/test_build.py --deselect tests/test_examples.py --deselect tests/test_cpp_extension.py \
  --deselect tests/test_cpp_api.py --deselect tests/test_pytorch_extensions.py \
  --deselect tests/test_cpu_capability.py::test_the_variable_caps_the_level \
  --deselect tests/test_cpu_capability.py::test_an_unknown_value_is_named_and_ignored \
  -m "not workers"
