"""What differs between the platforms' wheels, checked on whichever one runs
the suite: Linux (the factory, cibuildwheel), Windows (under Wine here, on
GitHub's runner) and macOS (GitHub's runners).

- The thread backend: OpenMP in the Linux wheels, ATen's own pool in the
  zig-built ones (zig has no OpenMP).
- Windows: torch/lib, where the DLLs are, is on the DLL search path once
  torch is imported; a process that imports torch from another directory works.
- C++ extensions build against the Linux wheels only: elsewhere
  torch.utils.cpp_extension refuses with an error that says so, instead of
  failing in a compiler or at load time.
"""
import os
import subprocess
import sys

import pytest

import torch
from torch.utils import cpp_extension

LINUX = sys.platform.startswith("linux")


def test_thread_backend_of_this_platform():
    assert torch._C._parallel_backend in ("OpenMP", "native thread pool")
    assert torch.backends.openmp.is_available() is (torch._C._parallel_backend == "OpenMP")
    if not LINUX:
        assert torch._C._parallel_backend == "native thread pool"


@pytest.mark.skipif(sys.platform != "win32", reason="Windows' DLL search path")
def test_windows_finds_the_dlls_from_any_directory(tmp_path):
    out = subprocess.run([sys.executable, "-c", "import torch; print(torch.ones(3).sum().item())"],
                         cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "3.0"
    lib = os.path.join(os.path.dirname(torch.__file__), "lib")
    assert os.path.exists(os.path.join(lib, "libtorch_python.dll"))


@pytest.mark.skipif(LINUX, reason="extensions build on Linux (tests/test_cpp_extension.py)")
def test_extensions_are_refused_with_a_reason_off_linux(tmp_path):
    src = tmp_path / "ops.cpp"
    src.write_text("#include <torch/extension.h>\n")
    for attempt in (lambda: cpp_extension.load("plat_ops", [str(src)]),
                    lambda: cpp_extension.load_inline("plat_inline", "int f() { return 1; }"),
                    lambda: cpp_extension.CppExtension("pkg._C", [str(src)])):
        with pytest.raises(RuntimeError, match="supported on Linux only"):
            attempt()
