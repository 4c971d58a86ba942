"""ci/rehearse/workflows.py's parts that need no act run: every pin mapped to the
local stand-in, act's transcript read into job results, and the Pages
artifact unpacked. The stand-ins have their own tests (ci/tests/act/test_standins.py);
the whole release under act runs in .ci/run."""
import io
import os
import stat
import tarfile

import pytest

from ci.act import artifacts
from ci.rehearse import workflows as act_release
from ci.proc import CI


def test_the_transcript_gives_each_jobs_result(tmp_path):
    fake = tmp_path / "act"
    fake.write_text("#!/bin/sh\n"
                    "echo '[release/The tag matches version.txt] \U0001F3C1  Job succeeded'\n"
                    "echo 'noise'\n"
                    "echo '[release/wheels/linux-x86_64-cpu       ]   | building'\n"
                    "echo '[release/wheels/linux-x86_64-cpu       ] \U0001F3C1  Job failed'\n"
                    "echo '[release/Source distribution] |  still going'\n"
                    "exit 1\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    code, jobs = act_release.run_act(str(fake), str(tmp_path), [], dict(os.environ), str(tmp_path / "log"))
    assert code == 1
    assert {name: result for name, (result, _, _) in jobs.items()} == {
        "The tag matches version.txt": "succeeded", "wheels/linux-x86_64-cpu": "failed",
        "Source distribution": "running"}
    assert "noise" in (tmp_path / "log").read_text()


def test_the_pages_artifact_is_unpacked_as_pages_serves_it(tmp_path):
    page = b"<a href='torch/'>torch</a>"
    tar_bytes = io.BytesIO()
    with tarfile.open(fileobj=tar_bytes, mode="w") as t:
        info = tarfile.TarInfo("./cpu/simple/index.html")
        info.size = len(page)
        t.addfile(info, io.BytesIO(page))
    (tmp_path / "artifact.tar").write_bytes(tar_bytes.getvalue())
    store = tmp_path / "artifacts"
    artifacts.upload(str(store), "github-pages", [str(tmp_path / "artifact.tar")], str(tmp_path))
    site = act_release.pages_site(str(store), str(tmp_path / "work"))
    with open(os.path.join(site, "cpu", "simple", "index.html"), "rb") as f:
        assert f.read() == page
    with pytest.raises(SystemExit, match="Artifact not found for name: github-pages"):
        act_release.pages_site(str(tmp_path / "nothing"), str(tmp_path / "work2"))


def test_every_pin_runs_as_the_local_stand_in():
    pins = {"actions/checkout@" + "a" * 40: {}, "actions/setup-python@" + "b" * 40: {}}
    args = act_release.standin_arguments(pins)
    standin = os.path.join(CI, "act", "standin")
    assert args == ["--local-repository", f"actions/checkout@{'a' * 40}={standin}",
                    "--local-repository", f"actions/setup-python@{'b' * 40}={standin}"]
    assert os.path.exists(os.path.join(standin, "action.yml")) and os.path.exists(os.path.join(standin, "main.cjs"))


def test_every_job_of_release_yml_is_expected_to_run():
    names = act_release.release_job_names()
    assert "The tag matches version.txt" in names and "Publish cpu wheels and the sdist to PyPI" in names
    assert len(names) == 5  # version, sdist, pypi, index, github-release (wheels is the called workflow's)
