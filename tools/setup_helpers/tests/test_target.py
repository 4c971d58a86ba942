"""TORCH_PLATFORM: the zig builds of ci/matrix.toml's macOS and Windows
platforms, and the settings they refuse or need."""
import os

import pytest

from tools.setup_helpers import env, matrix, target


def test_the_platform_and_what_it_implies():
    s = env.read({"TORCH_PLATFORM": "macos-arm64"}, free_threaded=False)
    assert s.platform == "macos-arm64"
    assert s.cmake_options["USE_OPENMP"] is False  # zig has no OpenMP: ATen's own pool
    t = target.find(s.platform, matrix.load())
    assert (t.zig_target, t.wheel_platform, t.os, t.arch) == ("aarch64-macos.11.0", "macosx_11_0_arm64", "macos", "arm64")
    assert target.bdist_wheel_options(t) == {"plat_name": "macosx_11_0_arm64", "py_limited_api": "cp39"}


@pytest.mark.parametrize("setting, named", [
    ({"USE_CUDA": "1"}, "USE_CUDA"),
    ({"TORCH_CUDA_VERSION": "13.0"}, "USE_CUDA/TORCH_CUDA_VERSION"),
    ({"USE_ASAN": "1"}, "USE_ASAN"),
    ({"USE_OPENMP": "1"}, "USE_OPENMP"),
    ({"USE_PYTHON_LIMITED_API": "0"}, "USE_PYTHON_LIMITED_API=0"),
])
def test_settings_a_zig_build_cannot_have(setting, named):
    with pytest.raises(env.BuildSettingError, match=f"drop {named}"):
        env.read({"TORCH_PLATFORM": "windows-amd64", **setting}, free_threaded=False)


def test_a_free_threaded_python_cannot_build_it():
    with pytest.raises(env.BuildSettingError, match="free-threaded"):
        env.read({"TORCH_PLATFORM": "macos-arm64"}, free_threaded=True)


def test_unknown_or_native_only_platforms_are_named():
    with pytest.raises(env.BuildSettingError, match="macos-arm64, macos-x86_64, windows-amd64"):
        target.find("linux-x86_64", matrix.load())
    with pytest.raises(env.BuildSettingError, match="'macos'"):
        target.find("macos", matrix.load())


def test_a_cross_build_names_what_it_lacks(tmp_path):
    mac = target.find("macos-x86_64", matrix.load())
    win = target.find("windows-amd64", matrix.load())
    if mac.native or win.native:
        pytest.skip("this machine is one of the targets")
    with pytest.raises(env.BuildSettingError, match="TORCH_OPENBLAS_DIR"):
        target.cmake_args(mac, {})
    with pytest.raises(env.BuildSettingError, match="TORCH_PYTHON_INCLUDE_DIR and TORCH_PYTHON_SABI_LIBRARY"):
        target.cmake_args(win, {"TORCH_OPENBLAS_DIR": str(tmp_path)})
    with pytest.raises(env.BuildSettingError, match="no such"):
        target.cmake_args(win, {"TORCH_OPENBLAS_DIR": str(tmp_path), "TORCH_PYTHON_INCLUDE_DIR": str(tmp_path)})
    (tmp_path / "Python.h").write_text("")
    (tmp_path / "python3.lib").write_text("")
    args = target.cmake_args(win, {"TORCH_OPENBLAS_DIR": str(tmp_path), "TORCH_PYTHON_INCLUDE_DIR": str(tmp_path),
                                   "TORCH_PYTHON_SABI_LIBRARY": str(tmp_path / "python3.lib")})
    assert "-DTORCH_ZIG_TARGET=x86_64-windows-gnu" in args and "-DBUILD_PYTHON_STUB=ON" in args
    assert f"-DTORCH_PYTHON_SABI_LIBRARY={tmp_path / 'python3.lib'}" in args
    assert any(a.startswith("-DCMAKE_TOOLCHAIN_FILE=") and a.endswith(os.path.join("toolchains", "zig.cmake"))
               for a in args)
    # macOS across: the running Python's headers serve (the stable ABI).
    assert any(a.startswith("-DTORCH_PYTHON_ABI3_INCLUDE_DIR=") for a in target.cmake_args(mac, {
        "TORCH_OPENBLAS_DIR": str(tmp_path)}))
