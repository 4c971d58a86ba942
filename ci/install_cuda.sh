#!/usr/bin/env bash
# install_cuda.sh VERSION: installs the CUDA toolkit of one CUDA line and
# prints the CUDA_HOME to build with (the last line of output).
#   13.x: NVIDIA's PyPI wheels (cuda-toolkit[nvcc,crt,nvvm,cudart,cublas,cccl]),
#         whose site-packages/nvidia/cu13 is a complete toolkit; works anywhere.
#   12.x: NVIDIA's RHEL 8 repository, inside a manylinux_2_28 image (CUDA 12's
#         nvcc is not on PyPI): GitHub Actions only.
set -euo pipefail
version="${1:?usage: ci/install_cuda.sh VERSION (for example 13.0)}"
major="${version%%.*}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

case "$major" in
  13)
    venv="${CUDA_VENV:-$root/build/cuda-$version}"
    python="${PYTHON:-python3}"
    if [ ! -x "$venv/bin/python" ]; then
      "$python" -m venv "$venv" >&2
    fi
    "$venv/bin/python" -m pip install -q "cuda-toolkit[nvcc,crt,nvvm,cudart,cublas,cccl]==${version}.*" >&2
    home="$("$venv/bin/python" -c 'import nvidia, os; print(os.path.join(nvidia.__path__[0], "cu13"))')"
    # The wheels ship only versioned libraries; the linker wants the plain names.
    for lib in cudart cublas cublasLt; do
      target="$(ls "$home/lib/lib$lib.so."* 2>/dev/null | head -n 1)"
      [ -n "$target" ] && ln -sf "$(basename "$target")" "$home/lib/lib$lib.so"
    done
    # nvcc.profile links from lib64 (a system toolkit's layout); the wheels use lib.
    [ -e "$home/lib64" ] || ln -s lib "$home/lib64"
    # A fixed name for it, where setup.py looks for TORCH_CUDA_VERSION's toolkit.
    ln -sfn "$home" "$venv/home"
    ;;
  12)
    command -v dnf >/dev/null || { echo "install_cuda.sh: CUDA $version needs a RHEL 8 (manylinux_2_28) image with dnf" >&2; exit 1; }
    dash="${version//./-}"
    arch="$(uname -m)"; [ "$arch" = aarch64 ] && arch=sbsa
    dnf config-manager --add-repo "https://developer.download.nvidia.com/compute/cuda/repos/rhel8/$arch/cuda-rhel8.repo" >&2
    dnf install -y "cuda-nvcc-$dash" "cuda-cudart-devel-$dash" "libcublas-devel-$dash" >&2
    home="/usr/local/cuda-$version"
    ;;
  *)
    echo "install_cuda.sh: unsupported CUDA version $version (12.x or 13.x)" >&2
    exit 1
    ;;
esac
"$home/bin/nvcc" --version | tail -n 2 >&2
echo "$home"
