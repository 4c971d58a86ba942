"""ci/act_release.py's parts that need no act run: the action trees (nested
pins followed, a missing tree named), act's transcript read into job results,
and the Pages artifact unpacked. The whole release under act runs in .ci/run."""
import io
import os
import stat
import sys
import tarfile
import zipfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import act_release  # noqa: E402

OUTER, INNER = "a" * 40, "b" * 40


def add_tree(snapshots, repo, sha, action_yml):
    trees = snapshots / "trees"
    trees.mkdir(parents=True, exist_ok=True)
    name = f"{repo.replace('/', '+')}@{sha}"
    data = action_yml.encode()
    with tarfile.open(trees / f"{name}.tar.gz", "w:gz") as t:
        info = tarfile.TarInfo(f"{name}/action.yml")
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))


def test_trees_follow_nested_pins_and_name_a_missing_one(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    snapshots = tmp_path / "snap"
    add_tree(snapshots, "actions/outer", OUTER,
             f"runs:\n  using: composite\n  steps:\n    - uses: actions/inner@{INNER} # v1.0.0\n")
    pins = {f"actions/outer@{OUTER}": {"repo": "actions/outer", "sha": OUTER, "tag": "v2"}}
    with pytest.raises(SystemExit, match=f"no tree for actions/inner@{INNER}"):
        act_release.action_trees(str(snapshots), pins)
    add_tree(snapshots, "actions/inner", INNER, "runs:\n  using: node20\n  main: index.js\n")
    trees = act_release.action_trees(str(snapshots), pins)
    assert set(trees) == {f"actions/outer@{OUTER}", f"actions/inner@{INNER}"}
    assert all(os.path.exists(os.path.join(t, "action.yml")) for t in trees.values())


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
    artifacts = tmp_path / "artifacts" / "1" / "github-pages"
    artifacts.mkdir(parents=True)
    page = b"<a href='torch/'>torch</a>"
    tar_bytes = io.BytesIO()
    with tarfile.open(fileobj=tar_bytes, mode="w") as t:
        info = tarfile.TarInfo("./cpu/simple/index.html")
        info.size = len(page)
        t.addfile(info, io.BytesIO(page))
    with zipfile.ZipFile(artifacts / "github-pages.zip", "w") as z:
        z.writestr("artifact.tar", tar_bytes.getvalue())
    site = act_release.pages_site(str(tmp_path / "artifacts"), str(tmp_path / "work"))
    with open(os.path.join(site, "cpu", "simple", "index.html"), "rb") as f:
        assert f.read() == page
    with pytest.raises(SystemExit, match="no github-pages artifact"):
        act_release.pages_site(str(tmp_path / "nothing"), str(tmp_path / "work2"))


def test_every_job_of_release_yml_is_expected_to_run():
    names = act_release.release_job_names()
    assert "The tag matches version.txt" in names and "Publish cpu wheels and the sdist to PyPI" in names
    assert len(names) == 5  # version, sdist, pypi, index, github-release (wheels is the called workflow's)
