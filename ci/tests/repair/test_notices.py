"""ci/repair/notices.py on synthetic repaired wheels: what each platform's
wheel carries is described, a binary nobody listed stops the repair, and the
check (ci/check/wheel.py runs it) fails a wheel without its notices."""
import json
import os
import zipfile

import pytest

from ci.repair import notices as tpn

OPENBLAS_TEXT = "OpenBLAS licence ... GCC RUNTIME LIBRARY EXCEPTION ...\n"
GRAFTED = {"components": [{"name": "libgomp1", "version": "12.2.0-14+deb12u1"}]}


def make_wheel(directory, platform, extra=(), texts=True):
    name = f"torch-0.1.0+cpu-cp311-cp311-{platform}.whl"
    path = os.path.join(str(directory), name)
    ext = {"win_amd64": ".dll", "macosx_11_0_arm64": ".dylib"}.get(platform, ".so")
    files = {"torch/__init__.py": "", f"torch/lib/libtorch_cpu{ext}": "x", f"torch/lib/libscipy_openblas{ext}": "x",
             "torch/_C.abi3.so" if ext != ".dll" else "torch/_C.pyd": "x",
             "torch-0.1.0+cpu.dist-info/METADATA": "Metadata-Version: 2.4\nName: torch\nVersion: 0.1.0+cpu\n"
                                                   "License-Expression: BSD-3-Clause\nLicense-File: LICENSE\n\nbody\n",
             "torch-0.1.0+cpu.dist-info/licenses/LICENSE": "BSD", "torch-0.1.0+cpu.dist-info/RECORD": ""}
    if texts:
        files["torch/share/licenses/openblas/LICENSE.txt"] = OPENBLAS_TEXT
        files["torch/share/licenses/openblas/VERSION"] = "0.3.34.481.3\n"
        files["torch/share/licenses/zig/LLVM-LICENSE.TXT"] = "llvm-runtimes text\n"
        files["torch/share/licenses/zig/LICENSE"] = "zig text\n"
        files["torch/share/licenses/zig/mingw-w64-COPYING"] = "mingw text\n"
        files["torch/share/licenses/zig/VERSION"] = "0.17.1\n"
    files.update(dict(extra))
    with zipfile.ZipFile(path, "w") as z:
        for n, data in files.items():
            z.writestr(n, data)
    return path


def read(wheel, name):
    with zipfile.ZipFile(wheel) as z:
        return z.read(name).decode()


def test_a_linux_wheel_lists_openblas_and_what_auditwheel_grafted(tmp_path):
    wheel = make_wheel(tmp_path, "manylinux_2_28_x86_64", {
        "torch.libs/libgomp-f9a9ad78.so.1.0.0": "x",
        "torch-0.1.0+cpu.dist-info/sboms/auditwheel.cdx.json": json.dumps(GRAFTED)})
    assert tpn.problems(wheel)  # before: no notices
    components = tpn.add(wheel)
    assert [(c["id"], c["version"]) for c in components] == [("libgomp", "12.2.0-14+deb12u1"),
                                                              ("openblas", "0.3.34.481.3")]
    notices = read(wheel, "torch-0.1.0+cpu.dist-info/licenses/THIRD_PARTY_NOTICES.txt")
    assert "In: torch.libs/libgomp-f9a9ad78.so.1.0.0" in notices and notices.count(OPENBLAS_TEXT.strip()) == 1
    bom = json.loads(read(wheel, "torch-0.1.0+cpu.dist-info/sboms/third-party.cdx.json"))
    assert {c["purl"] for c in bom["components"]} == {"pkg:generic/libgomp@12.2.0-14%2Bdeb12u1",
                                                       "pkg:pypi/scipy-openblas32@0.3.34.481.3"}
    assert bom["components"][1]["licenses"] == [{"expression": "BSD-3-Clause AND GPL-3.0-or-later WITH GCC-exception-3.1"}]
    metadata = read(wheel, "torch-0.1.0+cpu.dist-info/METADATA")
    assert "License-File: LICENSE\nLicense-File: THIRD_PARTY_NOTICES.txt\n\nbody" in metadata
    record = read(wheel, "torch-0.1.0+cpu.dist-info/RECORD")
    assert "torch-0.1.0+cpu.dist-info/licenses/THIRD_PARTY_NOTICES.txt,sha256=" in record
    assert tpn.problems(wheel) == []
    tpn.add(wheel)  # twice: still one License-File line
    assert read(wheel, "torch-0.1.0+cpu.dist-info/METADATA").count("THIRD_PARTY_NOTICES") == 1


@pytest.mark.parametrize("platform, static", [("win_amd64", ["llvm-runtimes", "mingw-w64", "zig-compiler-rt"]),
                                              ("macosx_11_0_arm64", ["llvm-runtimes", "zig-compiler-rt"])])
def test_a_zig_build_lists_the_runtimes_linked_into_every_library(tmp_path, platform, static):
    wheel = make_wheel(tmp_path, platform)
    ids = [c["id"] for c in tpn.add(wheel)]
    assert ids == sorted(static + ["openblas"])
    notices = read(wheel, "torch-0.1.0+cpu.dist-info/licenses/THIRD_PARTY_NOTICES.txt")
    assert "llvm-runtimes text" in notices and "License: Apache-2.0 WITH LLVM-exception" in notices
    assert tpn.problems(wheel) == []


def test_a_binary_nobody_listed_stops_the_repair(tmp_path):
    wheel = make_wheel(tmp_path, "manylinux_2_28_x86_64", {"torch.libs/libfoo-1234.so.2": "x"})
    with pytest.raises(tpn.NoticeError, match="torch.libs/libfoo-1234.so.2, which is neither the project's"):
        tpn.add(wheel)


def test_a_component_without_its_licence_text_stops_the_repair(tmp_path):
    wheel = make_wheel(tmp_path, "manylinux_2_28_x86_64", texts=False)
    with pytest.raises(tpn.NoticeError, match="openblas: torch/share/licenses/openblas/LICENSE.txt, "
                                              "torch/share/licenses/openblas/VERSION is not in the wheel"):
        tpn.add(wheel)


def test_the_check_fails_notices_that_miss_a_component(tmp_path):
    wheel = make_wheel(tmp_path, "win_amd64")
    tpn.add(wheel)
    # The same notices in a wheel that also carries libgomp: the check names what is missing.
    with zipfile.ZipFile(wheel, "a") as z:
        z.writestr("torch.libs/libgomp-1.so.1", "x")
    found = tpn.problems(wheel)
    assert any("does not describe libgomp" in p for p in found) and any("does not list libgomp" in p for p in found)


def test_every_component_names_its_licence_and_where_its_text_is():
    table = tpn.load()
    for cid, c in table["components"].items():
        assert c["license"] and c["purl"], cid
        assert c["texts"] and all(t.startswith("torch/share/licenses/") for t in c["texts"]), cid
        assert ("{version}" in c["purl"]) == bool(c.get("version_file")), cid
        assert bool(c.get("binaries")) != bool(c.get("static_in")), cid
