"""The local stand-ins for GitHub's hosted actions (ci/act/): each run as act
runs it, a step with its inputs in INPUT_<NAME> and a runner's environment,
in a job folder of its own. The whole tag push under act runs in .ci/run."""
import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile

import pytest

from ci.act import standins
from ci.lint import action_pins as check_action_pins
from ci.proc import CI, ROOT

STANDINS = os.path.join(CI, "act")


class Runner:
    """One workflow run: its artifact folder, and a job folder per job (workspace, temp, command files)."""

    def __init__(self, tmp_path, origin=None):
        self.tmp = tmp_path
        self.store = tmp_path / "artifacts"
        self.origin = origin

    def job(self, name):
        root = self.tmp / "jobs" / name
        (root / "workspace").mkdir(parents=True, exist_ok=True)
        (root / "temp").mkdir(exist_ok=True)
        return root

    def step(self, job, repo, inputs, via_node=False, **env):
        root = self.job(job)
        environ = {k: v for k, v in os.environ.items() if not k.startswith(("INPUT_", "GITHUB_", "TORCH_ACT_"))}
        environ.update({
            "GITHUB_ACTION_REPOSITORY": repo, "GITHUB_WORKSPACE": str(root / "workspace"),
            "RUNNER_TEMP": str(root / "temp"), "GITHUB_OUTPUT": str(root / "output"),
            "GITHUB_PATH": str(root / "path"), "GITHUB_ENV": str(root / "env"),
            "GITHUB_SERVER_URL": "https://github.com", "GITHUB_REPOSITORY": "owner/torch", "GITHUB_RUN_ID": "7",
            "GITHUB_REF": "refs/tags/v1.0.0", "GITHUB_SHA": env.pop("sha", "0" * 40),
            "TORCH_ACT_ARTIFACTS": str(self.store), "TORCH_ACT_ORIGIN": str(self.origin or ""),
            "TORCH_ACT_PYTHON": sys.executable, "TORCH_ACT_STANDINS": STANDINS, **env})
        environ.update({standins.input_variable(k): v for k, v in inputs.items()})
        # As main.cjs runs it: the module, with the checkout on PYTHONPATH and the job's workspace as cwd.
        if via_node:
            cmd = ["node", os.path.join(STANDINS, "standin", "main.cjs")]
        else:
            cmd = [sys.executable, "-m", "ci.act.standins"]
            environ["PYTHONPATH"] = ROOT
        proc = subprocess.run(cmd, env=environ, cwd=root / "workspace", capture_output=True, text=True)
        proc.outputs = dict(line.split("=", 1) for line in (root / "output").read_text().splitlines()) \
            if (root / "output").exists() else {}
        return proc


def ok(proc):
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def failed(proc, *words):
    assert proc.returncode == 1, proc.stdout + proc.stderr
    for word in words:
        assert word in proc.stdout, proc.stdout
    return proc


def write(root, files):
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


UPLOAD, DOWNLOAD = "actions/upload-artifact", "actions/download-artifact"


def test_an_artifact_goes_from_one_job_to_another_by_name_and_pattern(tmp_path):
    run = Runner(tmp_path)
    ws = run.job("build") / "workspace"
    write(ws, {"wheelhouse/a.whl": "a", "wheelhouse/b.whl": "b", "wheelhouse/log.txt": "log",
               "wheelhouse/.hidden.whl": "h", "dist/t.tar.gz": "sdist"})
    up = ok(run.step("build", UPLOAD, {"name": "wheels-linux", "path": "wheelhouse/*.whl", "if-no-files-found": "error"}))
    assert up.outputs["artifact-id"] == "1" and len(up.outputs["artifact-digest"]) == 64
    ok(run.step("build", UPLOAD, {"name": "wheels-mac", "path": "wheelhouse/b.whl"}))
    ok(run.step("build", UPLOAD, {"name": "sdist", "path": "dist/*.tar.gz"}))
    # One artifact by name: its files straight into `path`, relative to the patterns' common folder.
    ok(run.step("publish", DOWNLOAD, {"name": "sdist", "path": "sd"}))
    ws2 = run.job("publish") / "workspace"
    assert (ws2 / "sd" / "t.tar.gz").read_text() == "sdist"
    # By pattern, merged: both wheel artifacts' files in one folder; hidden files were never uploaded.
    got = ok(run.step("publish", DOWNLOAD, {"pattern": "wheels-*", "path": "wheels", "merge-multiple": "true"}))
    assert sorted(os.listdir(ws2 / "wheels")) == ["a.whl", "b.whl"]
    assert got.outputs["download-path"] == str(ws2 / "wheels")
    # Everything, one folder per artifact.
    ok(run.step("publish", DOWNLOAD, {"path": "all"}))
    assert sorted(os.listdir(ws2 / "all")) == ["sdist", "wheels-linux", "wheels-mac"]
    assert sorted(os.listdir(ws2 / "all" / "wheels-linux")) == ["a.whl", "b.whl"]


def test_upload_honours_if_no_files_found_overwrite_hidden_files_and_exclusions(tmp_path):
    run = Runner(tmp_path)
    write(run.job("a") / "workspace", {"out/x.txt": "1", "out/.env": "secret", "out/skip.log": "2"})
    failed(run.step("a", UPLOAD, {"name": "n", "path": "nothing/*", "if-no-files-found": "error"}),
           "No files were found with the provided path: nothing/*")
    warned = ok(run.step("a", UPLOAD, {"name": "n", "path": "nothing/*"}))
    assert "::warning::No files were found" in warned.stdout
    failed(run.step("a", UPLOAD, {"name": "n", "path": "nothing/*", "if-no-files-found": "sometimes"}),
           "must be one of warn, error, ignore")
    ok(run.step("a", UPLOAD, {"name": "out", "path": "out\n!out/*.log"}))
    with zipfile.ZipFile(run.store / "out" / "artifact.zip") as z:
        assert z.namelist() == ["x.txt"]
    failed(run.step("a", UPLOAD, {"name": "out", "path": "out"}), "already exists")
    ok(run.step("a", UPLOAD, {"name": "out", "path": "out", "overwrite": "true", "include-hidden-files": "true"}))
    with zipfile.ZipFile(run.store / "out" / "artifact.zip") as z:
        assert sorted(z.namelist()) == [".env", "skip.log", "x.txt"]
    failed(run.step("a", UPLOAD, {"name": "a/b", "path": "out"}), "is not valid")
    failed(run.step("a", UPLOAD, {"name": "x", "path": "out", "overwrite": "yes"}), "must be a boolean")


def test_a_direct_upload_keeps_its_file_and_downloads_as_is(tmp_path):
    run = Runner(tmp_path)
    write(run.job("a") / "workspace", {"report.html": "<p>", "two/a": "", "two/b": ""})
    ok(run.step("a", UPLOAD, {"path": "report.html", "archive": "false"}))
    assert json.loads((run.store / "report.html" / "artifact.json").read_text())["archive"] is False
    failed(run.step("a", UPLOAD, {"path": "two", "archive": "false"}), "exactly one file")
    ok(run.step("b", DOWNLOAD, {"name": "report.html"}))
    assert (run.job("b") / "workspace" / "report.html").read_text() == "<p>"


def test_download_names_a_missing_artifact_and_checks_the_digest(tmp_path):
    run = Runner(tmp_path)
    write(run.job("a") / "workspace", {"f.txt": "data"})
    ok(run.step("a", UPLOAD, {"name": "one", "path": "f.txt"}))
    failed(run.step("b", DOWNLOAD, {"name": "two"}), "Artifact not found for name: two", "this run has: one")
    with zipfile.ZipFile(run.store / "one" / "artifact.zip", "a") as z:  # changed after the upload
        z.writestr("extra", "x")
    failed(run.step("b", DOWNLOAD, {"name": "one"}), "digest")
    warned = ok(run.step("b", DOWNLOAD, {"name": "one", "digest-mismatch": "warn"}))
    assert "::warning::" in warned.stdout


def test_every_stand_in_refuses_an_input_it_does_not_know(tmp_path):
    run = Runner(tmp_path)
    for repo, stand_in in standins.STANDINS.items():
        failed(run.step("a", repo, {"no-such-input": "1"}), "'no-such-input' is not an input of", repo)
        for name in stand_in.unimplemented:
            failed(run.step("a", repo, {name: "x"}), f"input '{name}'", "not implemented by its local stand-in")
    failed(run.step("a", UPLOAD, {}), "input required and not supplied: path")
    failed(run.step("a", "actions/cache", {}), "no local stand-in for the action actions/cache")


def test_checkout_clones_the_tag_without_credentials(tmp_path):
    origin = tmp_path / "origin"
    origin.mkdir()
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(origin)]
    subprocess.run(["git", "init", "-q", str(origin)], check=True)
    for n in (1, 2):
        (origin / "f.txt").write_text(str(n))
        subprocess.run([*git, "add", "f.txt"], check=True)
        subprocess.run([*git, "commit", "-qm", f"c{n}"], check=True)
    subprocess.run([*git, "tag", "v1.0.0"], check=True)
    sha = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    run = Runner(tmp_path, origin)
    write(run.job("a") / "workspace", {"left-over": "from before"})
    got = ok(run.step("a", "actions/checkout", {"persist-credentials": "false"}, sha=sha))
    ws = run.job("a") / "workspace"
    assert (ws / "f.txt").read_text() == "2" and not (ws / "left-over").exists()
    assert got.outputs == {"ref": "refs/tags/v1.0.0", "commit": sha}
    remote = subprocess.run(["git", "-C", str(ws), "config", "--get-regexp", r"remote\..*|http\..*"],
                            capture_output=True, text=True).stdout
    assert "remote.origin.url https://github.com/owner/torch" in remote and "extraheader" not in remote
    shallow = subprocess.run(["git", "-C", str(ws), "rev-list", "--count", "HEAD"], capture_output=True, text=True)
    assert shallow.stdout.strip() == "1"  # fetch-depth 1, as GitHub's default
    ok(run.step("a", "actions/checkout", {"path": "deep", "fetch-depth": "0"}, sha=sha))
    full = subprocess.run(["git", "-C", str(ws / "deep"), "rev-list", "--count", "HEAD"], capture_output=True, text=True)
    assert full.stdout.strip() == "2"
    failed(run.step("a", "actions/checkout", {"path": "../outside"}, sha=sha), "is not under the workspace")
    failed(run.step("a", "actions/checkout", {}, sha="1" * 40), "but the event's commit is")


def test_setup_python_gives_a_fresh_venv_of_the_machines_cpython(tmp_path):
    run = Runner(tmp_path)
    version = "%d.%d" % sys.version_info[:2]
    got = ok(run.step("a", "actions/setup-python", {"python-version": version}))
    bin_dir = (run.job("a") / "path").read_text().strip()
    assert os.path.exists(os.path.join(bin_dir, "python")) and got.outputs["python-version"].startswith(version)
    assert f"pythonLocation={os.path.dirname(bin_dir)}" in (run.job("a") / "env").read_text()
    failed(run.step("a", "actions/setup-python", {"python-version": "3.2"}), "this machine has no CPython 3.2")
    failed(run.step("a", "actions/setup-python", {"python-version": "pypy3.10"}), "sets up CPython")
    failed(run.step("a", "actions/setup-python", {"python-version": version, "cache": "pip"}), "'cache'")


def test_the_pages_artifact_is_a_tar_pages_can_deploy(tmp_path):
    run = Runner(tmp_path)
    write(run.job("index") / "workspace", {"site/cpu/simple/index.html": "<a>", "site/.nojekyll": "",
                                           "site/.git/HEAD": "ref"})
    failed(run.step("index", "actions/deploy-pages", {}), "Artifact not found for name: github-pages")
    ok(run.step("index", "actions/upload-pages-artifact", {"path": "site"}))
    with zipfile.ZipFile(run.store / "github-pages" / "artifact.zip") as z:
        assert z.namelist() == ["artifact.tar"]
    deployed = ok(run.step("index", "actions/deploy-pages", {}))
    assert "exists only on GitHub" in deployed.stdout
    site = tmp_path / "served"
    from ci.act import artifacts
    artifacts.unpack_pages(str(run.store), "github-pages", str(site))
    assert sorted(os.path.relpath(os.path.join(d, f), site) for d, _, fs in os.walk(site) for f in fs) == \
        ["cpu/simple/index.html"]
    with tarfile.open(run.job("index") / "temp" / "artifact.tar") as t:
        assert all(name.startswith(".") for name in t.getnames())
    failed(run.step("index", "actions/upload-pages-artifact", {"path": "nowhere"}), "is not a folder")


def test_the_github_only_stand_ins_check_what_they_can(tmp_path):
    run = Runner(tmp_path)
    write(run.job("a") / "workspace", {"dist/a.whl": "a"})
    assert "exists only on GitHub" in ok(run.step("a", "actions/configure-pages", {})).stdout
    attested = ok(run.step("a", "actions/attest-build-provenance", {"subject-path": "dist/*"}))
    assert "subject a.whl sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb" in attested.stdout
    failed(run.step("a", "actions/attest-build-provenance", {"subject-path": "nothing/*"}), "Could not find subject")
    failed(run.step("a", "actions/attest-build-provenance", {}), "exactly one of subject-path")


@pytest.mark.skipif(not shutil.which("node"), reason="act runs the stand-in with node; none here")
def test_acts_entry_point_runs_the_stand_in_with_every_input(tmp_path):
    run = Runner(tmp_path)
    failed(run.step("a", "actions/configure-pages", {"bogus": "1"}, via_node=True), "'bogus' is not an input")
    ok(run.step("a", "actions/configure-pages", {}, via_node=True))
    proc = run.step("a", "actions/configure-pages", {}, via_node=True, TORCH_ACT_PYTHON="")
    failed(proc, "runs only under python3 -m ci act-release")


def test_each_pinned_action_has_a_stand_in_following_its_release():
    pins = check_action_pins.load_pins()
    assert check_action_pins.standin_errors(pins) == []
    assert {p["repo"] for p in pins.values()} == set(standins.STANDINS)
    moved = {k: {**v, "tag": "v99.0.0"} if v["repo"] == "actions/checkout" else v for k, v in pins.items()}
    (error,) = check_action_pins.standin_errors(moved)
    assert "pinned at v99.0.0, but its local stand-in follows v7.0.1" in error
    (error,) = check_action_pins.standin_errors(pins, {k: v for k, v in standins.STANDINS.items()
                                                       if k != "actions/deploy-pages"})
    assert "actions/deploy-pages has no local stand-in" in error
