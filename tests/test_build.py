"""The installed wheel's layout: PyTorch's architecture, checked on disk.

- torch._C is a stub that links only libtorch_python and finds it through
  the rpath $ORIGIN/lib; libtorch_python exports initModule.
- libc10 and libtorch_cpu do not depend on Python, so one build serves
  every Python version.
- headers and TorchConfig.cmake let C++ code build against the wheel.

The checks that read ELF files run on Linux; the macOS and Windows wheels'
binaries are checked by ci/check/wheel.py (ci/check/macho.py, ci/check/pe.py),
which reads them on any machine.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import textwrap

import pytest

import torch

pytestmark = pytest.mark.build
PKG = os.path.dirname(torch.__file__)
LIB = os.path.join(PKG, "lib")
LINUX = sys.platform.startswith("linux")
# Shared libraries as each platform names them.
SHARED = ".so" if LINUX else ".dylib" if sys.platform == "darwin" else ".dll"
elf = pytest.mark.skipif(not LINUX, reason="reads the Linux wheel's ELF files (check_wheel.py reads the others')")


def readelf_dynamic(path):
    return subprocess.run(["readelf", "-d", path], capture_output=True, text=True, check=True).stdout


def needed(path):
    return re.findall(r"\(NEEDED\).*\[(.*)\]", readelf_dynamic(path))


def rpath(path):
    return re.findall(r"\((?:RPATH|RUNPATH)\).*\[(.*)\]", readelf_dynamic(path))


def dynamic_symbols(path, undefined=False):
    args = ["nm", "-D"] + (["--undefined-only"] if undefined else ["--defined-only"]) + [path]
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def stub_path():
    (path,) = glob.glob(os.path.join(PKG, "_C*" + sysconfig.get_config_var("EXT_SUFFIX")))
    return path


def test_torch_is_the_installed_wheel():
    if os.environ.get("TORCH_TEST_WHEEL") != "1":
        pytest.skip("not testing an installed wheel (TORCH_TEST_WHEEL unset)")
    # This Python's site-packages, or (the Windows wheel's run under Wine,
    # installed by pip --target for that platform) one on PYTHONPATH.
    sites = [sysconfig.get_paths()["purelib"]]
    sites += [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if os.path.basename(p) == "site-packages"]
    here = os.path.realpath(torch.__file__)
    assert any(here.startswith(os.path.realpath(site) + os.sep) for site in sites), (here, sites)


def test_native_libraries_are_present():
    for name in ("libc10", "libtorch_cpu", "libtorch_python"):
        assert os.path.exists(os.path.join(LIB, name + SHARED)), (name + SHARED, os.listdir(LIB))


@elf
def test_stub_links_only_torch_python_with_origin_rpath():
    stub = stub_path()
    libs = [n for n in needed(stub) if not n.startswith(("libc.so", "libpthread", "libm.so", "libdl"))]
    assert libs == ["libtorch_python.so"], libs
    # auditwheel may append its own $ORIGIN/../torch.libs; ours comes first.
    (entries,) = rpath(stub)
    entries = entries.split(":")
    assert entries[0] == "$ORIGIN/lib", entries
    assert all(e.startswith("$ORIGIN") for e in entries), entries
    assert os.path.getsize(stub) < 64 * 1024  # a stub, not the binding


@elf
def test_torch_python_exports_init_module():
    assert re.search(r" T initModule$", dynamic_symbols(os.path.join(LIB, "libtorch_python.so")), re.M)


def oldest_python_served():
    """(major, minor) from the installed distribution's Requires-Python (">=3.9")."""
    from importlib import metadata

    for dist in metadata.distributions():
        files = dist.files or []
        requires = dist.metadata.get("Requires-Python")
        if requires and any(str(f).startswith("torch/_C") for f in files):
            return tuple(int(x) for x in re.search(r">=\s*(\d+)\.(\d+)", requires).groups())
    pytest.skip("torch is not installed as a distribution (a develop build)")


def test_torch_python_targets_the_stable_abi_of_the_oldest_python():
    # Wheels are built with USE_PYTHON_LIMITED_API=1 (the default): one
    # libtorch_python for every Python the wheel's metadata accepts. A
    # free-threaded Python has no stable ABI: its wheel is built for its full API.
    if sysconfig.get_config_var("Py_GIL_DISABLED"):
        assert torch._C._limited_api == 0
        return
    if not os.environ.get("TORCH_TEST_WHEEL") and torch._C._limited_api == 0:
        pytest.skip("built with USE_PYTHON_LIMITED_API=0")
    major, minor = oldest_python_served()
    assert torch._C._limited_api == (major << 24) | (minor << 16)


def other_cpythons():
    """CPython interpreters on this machine other than the running one
    (pyenv's, manylinux's /opt/python, or on PATH)."""
    candidates = glob.glob(os.path.expanduser("~/.pyenv/versions/3.*/bin/python3.*[0-9]"))
    candidates += glob.glob("/opt/python/cp3*/bin/python")
    candidates += filter(None, (shutil.which(f"python3.{m}") for m in range(6, 20)))
    found = {}
    for exe in sorted(set(candidates)):
        out = subprocess.run([exe, "-c", "import sys, sysconfig; print(*sys.version_info[:2], "
                                   "sysconfig.get_config_var('Py_GIL_DISABLED') or 0, sys.implementation.name)"],
                             capture_output=True, text=True)
        if out.returncode != 0:
            continue
        major, minor, free_threaded, impl = out.stdout.split()
        version = (int(major), int(minor))
        if impl == "cpython" and free_threaded == "0" and version != sys.version_info[:2]:
            found.setdefault(version, exe)
    return found


CROSS_VERSION_SCRIPT = """
import ctypes, sys
lib = ctypes.PyDLL(sys.argv[1])
lib.initModule.restype = ctypes.py_object
C = lib.initModule()
F = C._VariableFunctions
t = F.ones([2, 3]).mul(2)
print(t.sum().item(), t.shape, t.dtype, F.arange(4).view(2, 2).tolist())
try:
    F.add(t, "x")
except TypeError as e:
    print(e)
"""


@elf
def test_the_same_torch_python_serves_every_other_python(tmp_path):
    # The stable ABI claim, tested: this wheel's libtorch_python, built once,
    # is loaded into each other CPython here and computes there.
    if torch._C._limited_api == 0:
        pytest.skip("built with USE_PYTHON_LIMITED_API=0: this libtorch_python serves one Python")
    floor = (torch._C._limited_api >> 24, (torch._C._limited_api >> 16) & 0xFF)
    pythons = {v: exe for v, exe in other_cpythons().items() if v >= floor}
    if not pythons:
        pytest.skip("no other CPython on this machine")
    script = tmp_path / "load.py"
    script.write_text(CROSS_VERSION_SCRIPT)
    for version, exe in pythons.items():
        out = subprocess.run([exe, str(script), os.path.join(LIB, "libtorch_python.so")],
                             capture_output=True, text=True, cwd=tmp_path)
        assert out.returncode == 0, f"Python {version}: {out.stderr[-2000:]}"
        assert out.stdout.splitlines() == [
            "12.0 torch.Size([2, 3]) torch.float32 [[0, 1], [2, 3]]",
            "add(): argument 'other' (position 2) must be Tensor, not str",
        ], f"Python {version}"


@elf
@pytest.mark.parametrize("lib", ["libc10.so", "libtorch_cpu.so", "libtorch_cuda.so"])
def test_core_libraries_have_no_python_symbols(lib):
    if not os.path.exists(os.path.join(LIB, lib)):
        pytest.skip(f"{lib} is not in this variant")
    undefined = dynamic_symbols(os.path.join(LIB, lib), undefined=True)
    python_symbols = re.findall(r"\b_?Py\w+", undefined)
    assert python_symbols == [], python_symbols
    assert not any("python" in n for n in needed(os.path.join(LIB, lib)))


@elf
def test_libraries_find_each_other_through_origin():
    for lib in ("libtorch_cpu.so", "libtorch_python.so", "libtorch_cuda.so"):
        if not os.path.exists(os.path.join(LIB, lib)):
            continue  # libtorch_cuda: CUDA variants only
        entries = ":".join(rpath(os.path.join(LIB, lib))).split(":")
        assert entries[0] == "$ORIGIN", (lib, entries)
        # Every build, develop builds included, points nowhere outside the
        # package (but for libtorch_cuda's entries into NVIDIA's wheels beside it).
        assert all(e.startswith("$ORIGIN") for e in entries), (lib, entries)
    if os.path.exists(os.path.join(LIB, "libtorch_cuda.so")):
        entries = ":".join(rpath(os.path.join(LIB, "libtorch_cuda.so"))).split(":")
        assert any(re.fullmatch(r"\$ORIGIN/\.\./\.\./nvidia/\w+/lib", e) for e in entries), entries


@elf
def test_openblas_ships_in_torch_lib():
    # Installed next to libtorch_cpu by every build (not found in a build
    # environment that no longer exists), under the name libtorch_cpu needs.
    (openblas,) = [n for n in needed(os.path.join(LIB, "libtorch_cpu.so")) if "openblas" in n]
    assert os.path.exists(os.path.join(LIB, openblas)), os.listdir(LIB)


def test_headers_are_installed():
    inc = os.path.join(PKG, "include")
    for header in ("c10/core/TensorImpl.h", "ATen/ATen.h", "ATen/Functions.h", "ATen/core/TensorBody.h"):
        assert os.path.exists(os.path.join(inc, header)), header


def test_version():
    assert re.match(r"^\d+\.\d+\.\d+", torch.__version__)
    label = torch.__version__.split("+")[1]  # the variant
    if torch.version.cuda is None:
        assert label == "cpu"
    else:
        assert re.fullmatch(r"\d+\.\d+", torch.version.cuda) and label == "cu" + torch.version.cuda.replace(".", "")
    assert torch.version.git_version
    assert torch.version.debug is False
    assert torch._C._version == torch.__version__


@pytest.mark.skipif(not LINUX, reason="C++ code builds against the Linux wheels only (docs/PLATFORMS.md)")
@pytest.mark.skipif(shutil.which("c++") is None, reason="no C++ compiler")
def test_cmake_config_builds_a_cpp_program(tmp_path):
    cmake = shutil.which("cmake") or os.path.join(os.path.dirname(sys.executable), "cmake")
    (tmp_path / "CMakeLists.txt").write_text(textwrap.dedent("""
        cmake_minimum_required(VERSION 3.18)
        project(consumer CXX)
        find_package(Torch REQUIRED)
        add_executable(consumer main.cpp)
        target_link_libraries(consumer ${TORCH_LIBRARIES})
        set_target_properties(consumer PROPERTIES BUILD_RPATH "${TORCH_INCLUDE_DIRS}/../lib")
    """))
    (tmp_path / "main.cpp").write_text(textwrap.dedent("""
        #include <ATen/ATen.h>
        #include <iostream>
        int main() {
          at::Tensor a = at::arange(6, at::ScalarType::Float).reshape({2, 3});
          at::Tensor s = (a.mul(a)).sum();
          std::cout << s.item().toDouble() << std::endl;
          return 0;
        }
    """))
    torch_dir = os.path.join(PKG, "share", "cmake", "Torch")
    build = tmp_path / "build"
    subprocess.run([cmake, "-S", str(tmp_path), "-B", str(build), f"-DTorch_DIR={torch_dir}"], check=True,
                   capture_output=True)
    subprocess.run([cmake, "--build", str(build)], check=True, capture_output=True)
    out = subprocess.run([str(build / "consumer")], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "55"

