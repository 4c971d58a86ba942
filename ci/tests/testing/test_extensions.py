"""ci/testing/extensions.py's checks of an extension wheel, on wheels made here: each
promise (variant in the version, torch pinned, abi3, no torch library inside,
device code exactly in a CUDA build) is refused when broken. cuobjdump itself
reads real libraries in the factory run; here a stand-in answers for the
made-up ones, and the parsing of its listing is checked on its real output."""
import sys
import zipfile

import pytest

from ci.testing import extensions as extension

TOOLS = sys.executable  # where cuobjdump would be looked up (the stand-in ignores it)


def make_wheel(tmp_path, name="fused_ops-0.1.0+cu130-cp39-abi3-manylinux_2_34_x86_64.whl",
               requires=("torch==0.1.0",), extra=(), library=b"\x7fELF .nv_fatbin"):
    path = tmp_path / name
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("fused_ops/__init__.py", "")
        z.writestr("fused_ops/_C.abi3.so", library)
        metadata = "Metadata-Version: 2.1\nName: fused-ops\n" + "".join(f"Requires-Dist: {r}\n" for r in requires)
        z.writestr("fused_ops-0.1.0+cu130.dist-info/METADATA", metadata)
        for member in extra:
            z.writestr(member, b"")
    return str(path)


@pytest.fixture(autouse=True)
def fake_cuobjdump(monkeypatch):
    """sm_80 for a made-up library that mentions .nv_fatbin, nothing otherwise."""
    monkeypatch.setattr(extension, "device_architectures",
                        lambda library, tools_python: {80} if b".nv_fatbin" in open(library, "rb").read() else set())


def test_cuobjdump_listings_are_parsed():
    assert extension.parse_architectures("ELF file    1: muladd_cu.1.sm_80.cubin\n"
                                         "ELF file    2: muladd_cu.2.sm_90a.cubin\n") == {80, 90}
    assert extension.parse_architectures("") == set()


def test_a_good_wheel_passes(tmp_path):
    extension.check_wheel(make_wheel(tmp_path), "0.1.0+cu130", TOOLS)


@pytest.mark.parametrize("kwargs, problem", [
    ({"name": "fused_ops-0.1.0+cpu-cp39-abi3-manylinux_2_34_x86_64.whl"}, r"expected fused_ops-<version>\+cu130"),
    ({"name": "fused_ops-0.1.0+cu130-cp311-cp311-manylinux_2_34_x86_64.whl"}, "cp39-abi3"),
    ({"name": "fused_ops-0.1.0+cu130-cp39-abi3-linux_x86_64.whl"}, "manylinux"),
    ({"requires": ("torch",)}, r"expected torch==0\.1\.0"),
    ({"extra": ("fused_ops.libs/libtorch_cpu-1a2b3c4d.so",)}, "bundles"),
    ({"extra": ("fused_ops.libs/libcudart-5e6f.so.13",)}, "bundles"),
    ({"library": b"\x7fELF"}, r"cu130 build without CUDA device code"),
])
def test_each_broken_promise_is_refused(tmp_path, kwargs, problem):
    with pytest.raises(SystemExit, match=problem):
        extension.check_wheel(make_wheel(tmp_path, **kwargs), "0.1.0+cu130", TOOLS)


def test_repair_command_comes_from_the_example_pyproject():
    command = extension.repair_command()
    assert command.startswith("auditwheel repair")
    for lib in ("libc10.so", "libtorch_cpu.so", "libtorch_cuda.so", "'libcudart.so.*'"):
        assert f"--exclude {lib}" in command
    assert "{wheel}" in command and "{dest_dir}" in command


def test_a_cpu_build_carries_no_device_code(tmp_path):
    name = "fused_ops-0.1.0+cpu-cp39-abi3-manylinux_2_34_x86_64.whl"
    extension.check_wheel(make_wheel(tmp_path, name=name, library=b"\x7fELF"), "0.1.0+cpu", TOOLS)
    with pytest.raises(SystemExit, match="cpu build with CUDA device code"):
        extension.check_wheel(make_wheel(tmp_path, name=name), "0.1.0+cpu", TOOLS)
