"""check_macho.py, check_pe.py and macho_signature.py against small binaries
that zig builds here: the well-formed tree passes (so the checks are not
simply strict), and each deliberate break fails the one check it targets."""
import os
import shutil
import subprocess
import zipfile

import pytest

from ci.check import macho as check_macho
from ci.check import macho_signature
from ci.check import pe as check_pe
from ci.check import wheel as check_wheel

ziglang = pytest.importorskip("ziglang", reason="zig comes with ci/requirements-zig.txt")
ZIG = os.path.join(os.path.dirname(ziglang.__file__), "zig")
MAC_WHEEL = "torch-0.1.0+cpu-cp39-abi3-macosx_11_0_arm64.whl"
WIN_WHEEL = "torch-0.1.0+cpu-cp39-abi3-win_amd64.whl"


def zig_cc(target, out, source, *flags):
    src = out + ".c"
    with open(src, "w") as f:
        f.write(source)
    # -O2, as the zig toolchain compiles: the runtime zig links is then the one
    # the cross builds already made (a flagless compile would build a debug one).
    subprocess.run([ZIG, "cc", "-target", target, "-O2", "-shared", "-o", out, src, *flags], check=True)
    os.remove(src)


# c10::Error's type_info, as C sees the symbol: defined once in libc10, or weak.
TYPEINFO = "const char _ZTIN3c105ErrorE[16] = {1};\n"
WEAK_TYPEINFO = "__attribute__((weak)) " + TYPEINFO


def mac_tree(root, dep_name="@rpath/libdep.dylib", rpath="@loader_path/lib", dep_extra=""):
    """torch/_C.abi3.so loading torch/lib/libdep.dylib the way the real wheel does,
    and torch/lib/libc10.dylib with c10::Error's type_info."""
    lib = os.path.join(root, "torch", "lib")
    os.makedirs(lib)
    target = "aarch64-macos.11.0"
    zig_cc(target, os.path.join(lib, "libc10.dylib"), TYPEINFO, "-Wl,-install_name,@rpath/libc10.dylib")
    zig_cc(target, os.path.join(lib, "libdep.dylib"), "int dep(void) { return 1; }\n" + dep_extra,
           f"-Wl,-install_name,{dep_name}")
    zig_cc(target, os.path.join(root, "torch", "_C.abi3.so"), "int dep(void);\nint PyInit__C(void) { return dep(); }\n",
           os.path.join(lib, "libdep.dylib"), f"-Wl,-rpath,{rpath}", "-Wl,-install_name,@rpath/_C.abi3.so")
    return root


@pytest.fixture(scope="module")
def mac(tmp_path_factory):
    return mac_tree(str(tmp_path_factory.mktemp("mac")))


def problems(root, wheel=MAC_WHEEL):
    found, _summary = check_macho.check(root, wheel)
    return "\n".join(found)


def test_a_well_formed_macos_tree_passes(mac):
    assert problems(mac) == ""
    assert macho_signature.signature_problem(os.path.join(mac, "torch", "_C.abi3.so"), require_adhoc=True) is None


def test_macos_architecture_and_minimum_against_the_tag(mac):
    assert "not x86_64" in problems(mac, MAC_WHEEL.replace("arm64", "x86_64"))
    assert "needs macOS 11.0, newer than the tag's 10.9" in problems(mac, MAC_WHEEL.replace("11_0", "10_9"))


def test_macos_load_commands_outside_the_wheel(tmp_path):
    assert "loads '/opt/homebrew/lib/libdep.dylib'" in problems(
        mac_tree(str(tmp_path / "a"), dep_name="/opt/homebrew/lib/libdep.dylib"))
    assert "'/usr/local/lib' is not relative to @loader_path" in problems(
        mac_tree(str(tmp_path / "b"), rpath="/usr/local/lib"))
    assert "leaves the wheel" in problems(mac_tree(str(tmp_path / "c"), rpath="@loader_path/../../.."))


def test_macos_exception_type_infos_must_be_libc10s_alone(tmp_path):
    found = problems(mac_tree(str(tmp_path / "a"), dep_extra=WEAK_TYPEINFO.replace("{1}", "{2}")))
    assert "torch/lib/libdep.dylib: __ZTIN3c105ErrorE is a weak definition" in found
    assert "__ZTIN3c105ErrorE is defined in torch/lib/libc10.dylib, torch/lib/libdep.dylib" in found


def test_macos_dependency_missing_from_the_wheel(tmp_path, mac):
    root = str(tmp_path / "t")
    shutil.copytree(mac, root)
    os.remove(os.path.join(root, "torch", "lib", "libdep.dylib"))
    assert "loads '@rpath/libdep.dylib', which resolves to no file in the wheel" in problems(root)


def test_macos_altered_code_breaks_the_signature(tmp_path, mac):
    root = str(tmp_path / "t")
    shutil.copytree(mac, root)
    path = os.path.join(root, "torch", "lib", "libdep.dylib")
    data = bytearray(open(path, "rb").read())
    data[len(data) // 4] ^= 0xFF  # inside the signed code, before the signature
    open(path, "wb").write(bytes(data))
    assert "torch/lib/libdep.dylib: signature: page" in problems(root)


def win_tree(root, imports="libdep.dll", export="PyInit__C"):
    """torch/_C.pyd importing torch/lib/libdep.dll and python3.dll."""
    lib = os.path.join(root, "torch", "lib")
    os.makedirs(lib)
    target = "x86_64-windows-gnu"
    zig_cc(target, os.path.join(lib, "libdep.dll"), "__declspec(dllexport) int dep(void) { return 1; }\n")
    defs = os.path.join(root, "import.def")
    with open(defs, "w") as f:  # an import library for whatever DLL the test names
        f.write(f"LIBRARY {imports}\nEXPORTS\n  dep\n")
    implib = os.path.join(root, "import.lib")
    subprocess.run([ZIG, "dlltool", "-m", "i386:x86-64", "-d", defs, "-l", implib], check=True)
    zig_cc(target, os.path.join(root, "torch", "_C.pyd"),
           f"int dep(void);\n__declspec(dllexport) int {export}(void) {{ return dep(); }}\n", implib)
    for leftover in ("import.def", "import.lib"):
        os.remove(os.path.join(root, leftover))
    for dirpath, _, files in os.walk(root):  # zig's debug files and import libraries are no wheel's
        for name in files:
            if name.endswith((".pdb", ".lib")):
                os.remove(os.path.join(dirpath, name))
    return root


def win_problems(root, wheel=WIN_WHEEL):
    found, _summary = check_pe.check(root, wheel)
    return "\n".join(found)


def test_a_well_formed_windows_tree_passes(tmp_path):
    assert win_problems(win_tree(str(tmp_path / "t"))) == ""


def test_windows_machine_against_the_tag(tmp_path):
    assert "not 0xaa64" in win_problems(win_tree(str(tmp_path / "t")), WIN_WHEEL.replace("amd64", "arm64"))


def test_windows_imports_outside_the_wheel_and_windows(tmp_path):
    assert "imports python313.dll, one Python's DLL" in win_problems(win_tree(str(tmp_path / "a"), "python313.dll"))
    assert "imports libfoo.dll, which is neither in the wheel nor part of Windows" in win_problems(
        win_tree(str(tmp_path / "b"), "libfoo.dll"))
    assert win_problems(win_tree(str(tmp_path / "c"), "python3.dll")) == ""  # the stable ABI's DLL is fine


def test_windows_module_without_its_init_function(tmp_path):
    assert "does not export PyInit__C" in win_problems(win_tree(str(tmp_path / "t"), export="PyInit_other"))


def zip_tree(root, wheel):
    os.makedirs(os.path.dirname(wheel), exist_ok=True)
    with zipfile.ZipFile(wheel, "w") as z:
        for dirpath, _, files in os.walk(root):
            for name in files:
                path = os.path.join(dirpath, name)
                z.write(path, os.path.relpath(path, root))
    return str(wheel)


def test_check_wheel_goes_by_the_tag_not_the_machine(tmp_path, mac):
    assert [check_wheel.wheel_os(n) for n in (MAC_WHEEL, WIN_WHEEL, "torch-0.1.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl")
            ] == ["macos", "windows", "linux"]
    good = zip_tree(mac, tmp_path / MAC_WHEEL)
    assert check_wheel.check_binaries(good, check_macho.check).startswith("Mach-O: 3 binaries, arm64")
    broken = zip_tree(mac_tree(str(tmp_path / "broken"), rpath="/usr/local/lib"), tmp_path / "b" / MAC_WHEEL)
    with pytest.raises(SystemExit, match="is not relative to @loader_path"):
        check_wheel.check_binaries(broken, check_macho.check)


def test_every_wheel_declares_its_licence_and_carries_its_text(tmp_path):
    def wheel(metadata, files=("torch-0.1.0.dist-info/licenses/LICENSE",)):
        path = tmp_path / "torch-0.1.0-py3-none-any.whl"
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("torch-0.1.0.dist-info/METADATA", "Metadata-Version: 2.4\nName: torch\n" + metadata + "\nbody")
            for f in files:
                z.writestr(f, "BSD 3-Clause License")
        return str(path)

    good = "License-Expression: BSD-3-Clause\nLicense-File: LICENSE\n"
    assert check_wheel.license_problem(wheel(good)) is None
    assert "License-Expression None" in check_wheel.license_problem(wheel("License: BSD-3-Clause\n"))
    assert "no .dist-info/licenses/LICENSE" in check_wheel.license_problem(wheel(good, files=()))
