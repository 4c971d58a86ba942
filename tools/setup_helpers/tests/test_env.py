"""Build settings from the environment: parsing, validation, CUDA detection."""
import os
import stat

import pytest

from tools.setup_helpers import cuda, env, matrix, version


def test_defaults():
    s = env.read({})
    assert s.build_type == "Release"
    assert s.package_name is None  # the sdist's or ci/matrix.toml's [names] index
    assert s.max_jobs >= 1
    assert s.cmake_options == {}
    assert not s.use_cuda


def test_settings_are_read():
    s = env.read({"MAX_JOBS": "3", "DEBUG": "1", "VERBOSE": "on", "USE_OPENMP": "0", "USE_CUDA": "no",
                  "CMAKE_ARGS": "-DFOO=1 -DBAR='a b'", "TORCH_PACKAGE_NAME": "torch-nightly",
                  "PYTORCH_BUILD_VERSION": "1.2.3+cpu"})
    assert s.max_jobs == 3 and s.build_type == "Debug" and s.verbose
    assert s.cmake_options == {"USE_OPENMP": False, "USE_CUDA": False}
    assert s.cmake_args == ["-DFOO=1", "-DBAR=a b"]
    assert s.package_name == "torch-nightly"
    assert version.full_version("cpu", s.version_override) == "1.2.3+cpu"


def test_sanitizers_get_their_own_build_directory():
    assert env.read({"USE_ASAN": "1", "USE_UBSAN": "on"}).sanitizers == ["asan", "ubsan"]
    assert env.read({"USE_ASAN": "0"}).sanitizers == []


def test_options_come_from_cmake():
    options = env.cmake_options()
    assert {"USE_CUDA", "USE_OPENMP", "USE_CCACHE", "BUILD_PYTHON"} <= set(options)
    assert options["USE_CUDA"][0] is False


@pytest.mark.parametrize("environ,message", [
    ({"USE_CUDAA": "1"}, "unknown build setting USE_CUDAA='1'; the known ones are: BUILD_PYTHON"),
    ({"USE_CUDA": "maybe"}, "USE_CUDA='maybe' is not a boolean"),
    ({"MAX_JOBS": "two"}, "MAX_JOBS='two' must be a positive integer"),
    ({"DEBUG": "1", "REL_WITH_DEB_INFO": "1"}, "exclusive"),
    ({"TORCH_PACKAGE_NAME": "bad name"}, "not a valid distribution name"),
    ({"USE_ASAN": "1", "USE_CUDA": "1"}, "USE_ASAN is for CPU builds"),
    ({"USE_UBSAN": "1", "TORCH_CUDA_VERSION": "13.0"}, "USE_UBSAN is for CPU builds"),
    ({"USE_ASAN": "sometimes"}, "USE_ASAN='sometimes' is not a boolean"),
])
def test_bad_settings_are_errors(environ, message):
    with pytest.raises(env.BuildSettingError, match=message.replace("(", r"\(").replace(")", r"\)")):
        env.read(environ)


def test_default_version_has_the_variant_label():
    assert version.full_version("cpu", None) == version.base_version() + "+cpu"


def test_find_cuda_home(tmp_path):
    assert env.find_cuda_home({"CUDA_HOME": str(tmp_path), "PATH": ""}) is None  # no bin/nvcc there
    nvcc = tmp_path / "bin" / "nvcc"
    nvcc.parent.mkdir()
    nvcc.write_text("#!/bin/sh\n")
    nvcc.chmod(nvcc.stat().st_mode | stat.S_IEXEC)
    assert env.find_cuda_home({"CUDA_HOME": str(tmp_path), "PATH": ""}) == str(tmp_path)
    assert env.find_cuda_home({"PATH": str(tmp_path / "bin")}) == os.path.realpath(str(tmp_path))
    assert env.find_cuda_home({"PATH": ""}) is None


def test_sdist_keeps_its_version(tmp_path):
    assert version.sdist_version(str(tmp_path)) is None
    (tmp_path / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: torch\nVersion: 0.1.0\n")
    assert version.full_version("cu130", None, root=str(tmp_path)) == "0.1.0"
    assert version.full_version("cpu", "9.9.9", root=str(tmp_path)) == "9.9.9"  # an explicit override wins


def test_name_comes_from_the_matrix_the_sdist_or_the_setting(tmp_path):
    assert version.distribution_name(None, matrix.index_name(), root=str(tmp_path)) == "torch"
    (tmp_path / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: torch-wheelforge\nVersion: 0.1.0\n\n"
                                       "Name: in the description, not a header\n")
    assert version.distribution_name(None, "torch", root=str(tmp_path)) == "torch-wheelforge"  # PyPI's sdist
    assert version.distribution_name("torch-nightly", "torch", root=str(tmp_path)) == "torch-nightly"


def _fake_toolkit(tmp_path, release):
    nvcc = tmp_path / "bin" / "nvcc"
    nvcc.parent.mkdir()
    nvcc.write_text(f"#!/bin/sh\necho 'Cuda compilation tools, release {release}, V{release}.88'\n")
    nvcc.chmod(nvcc.stat().st_mode | stat.S_IEXEC)
    return str(tmp_path)


def test_cuda_variant_comes_from_the_toolkit_and_the_matrix(tmp_path):
    home = _fake_toolkit(tmp_path, "13.0")
    v = cuda.detect(home, environ={})
    assert (v.version, v.label) == ("13.0", "cu130")
    assert v.arch_list.endswith("12.0+PTX")  # the release default from ci/matrix.toml
    assert any(r.startswith("nvidia-cuda-runtime") for r in v.runtime)
    assert cuda.detect(home, environ={"TORCH_CUDA_ARCH_LIST": "7.5 8.0+PTX"}).arch_list == "7.5;8.0+PTX"


@pytest.mark.parametrize("archs, message", [("sm_80", "not an architecture"), (" ; ", "empty")])
def test_bad_arch_lists_are_errors(tmp_path, archs, message):
    home = _fake_toolkit(tmp_path, "13.0")
    with pytest.raises(env.BuildSettingError, match=message):
        cuda.detect(home, environ={"TORCH_CUDA_ARCH_LIST": archs})


def test_unknown_cuda_line_is_an_error(tmp_path):
    home = _fake_toolkit(tmp_path, "11.8")
    with pytest.raises(env.BuildSettingError, match="CUDA 11.8 .* is not a variant in ci/matrix.toml"):
        cuda.detect(home, environ={})


def test_cuda_version_asks_for_a_cuda_build():
    s = env.read({"TORCH_CUDA_VERSION": "13.0"})
    assert s.use_cuda and s.cuda_version == "13.0"
    with pytest.raises(env.BuildSettingError, match="asks for a CUDA build, but USE_CUDA=0"):
        env.read({"TORCH_CUDA_VERSION": "13.0", "USE_CUDA": "0"})
    with pytest.raises(env.BuildSettingError, match="not a CUDA version"):
        env.read({"TORCH_CUDA_VERSION": "cu130"})


def test_cuda_version_finds_the_installed_toolkit(tmp_path, monkeypatch):
    home = tmp_path / "cuda-13.0" / "home"
    home.parent.mkdir()
    _fake_toolkit(home.parent, "13.0")
    home.symlink_to(home.parent)
    monkeypatch.setattr(env, "cuda_home_candidates", lambda v: [str(tmp_path / f"cuda-{v}" / "home")])
    assert env.find_cuda_home({"PATH": ""}, version="13.0") == str(home)
    assert env.find_cuda_home({"PATH": ""}, version="12.6") is None
    # CUDA_HOME, when given, wins.
    assert env.find_cuda_home({"CUDA_HOME": str(home.parent), "PATH": ""}, version="12.6") == str(home.parent)


def test_free_threaded_python_builds_on_the_full_api():
    assert env.read({}, free_threaded=True).cmake_options == {"USE_PYTHON_LIMITED_API": False}
    assert env.read({}, free_threaded=False).cmake_options == {}
    # An explicit setting stays (CMake then says why it cannot work).
    assert env.read({"USE_PYTHON_LIMITED_API": "1"}, free_threaded=True).cmake_options == {"USE_PYTHON_LIMITED_API": True}
