"""ci/publish/github_releases.py: the `gh` commands it runs on GitHub (against a fake
`gh` that records them), the local Releases, and pip installing an older
release's wheel through the index a later release rebuilt."""
import functools
import http.server
import json
import os
import stat
import subprocess
import sys
import threading
import zipfile

import pytest

from ci.proc import ROOT, ci_command
from ci.publish import github_releases
from ci.publish import release
from .test_release import make_sdist, make_wheel  # noqa: E402

FAKE_GH = """#!{python}
import json, os, sys
with open(os.environ["GH_LOG"], "a") as f:
    f.write(json.dumps(sys.argv[1:]) + "\\n")
args = sys.argv[1:]
if args[:2] == ["release", "view"]:
    sys.exit(0 if os.environ.get("GH_EXISTS") else 1)
if args[0] == "api" and "/releases/tags/" in args[1]:
    print(os.environ["GH_ASSETS"])
elif args[0] == "api":
    for release in json.loads(os.environ["GH_RELEASES"]):
        print(json.dumps(release))
"""


@pytest.fixture
def fake_gh(tmp_path, monkeypatch):
    gh = tmp_path / "gh"
    gh.write_text(FAKE_GH.format(python=sys.executable))
    gh.chmod(gh.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("GH_LOG", str(tmp_path / "gh.log"))

    def calls():
        return [json.loads(line) for line in (tmp_path / "gh.log").read_text().splitlines()]
    return str(gh), calls


def dist(tmp_path):
    out = tmp_path / "dist"
    out.mkdir()
    wheel = make_wheel(str(out), "torch", f"{release.version_txt()}+cpu")
    return [wheel, make_sdist(str(out), "torch-wheelforge", release.version_txt())]


def assets_of(files, rename=None):
    return json.dumps([{"name": (rename or {}).get(os.path.basename(f), os.path.basename(f)), "size": 1,
                        "browser_download_url": "https://github.com/o/r/releases/download/v1/" + os.path.basename(f),
                        "digest": "sha256:" + github_releases.sha256(f)} for f in files])


def test_create_makes_the_release_then_reads_it_back(tmp_path, fake_gh, monkeypatch):
    gh, calls = fake_gh
    files = dist(tmp_path)
    monkeypatch.setenv("GH_ASSETS", assets_of(files))
    assets = github_releases.GitHubReleases("o/r", gh).create("v1", files, "notes")
    github_releases.check_assets("v1", files, assets)
    made = calls()
    assert made[0][:3] == ["release", "view", "v1"] and made[0][-2:] == ["--repo", "o/r"]
    assert made[1][:2] == ["release", "create"] and made[1][2] == "v1" and made[1][3:5] == files
    assert "--verify-tag" in made[1] and "--notes-file" in made[1]
    assert made[2][:2] == ["api", "repos/o/r/releases/tags/v1"]


def test_a_rerun_uploads_over_the_existing_release(tmp_path, fake_gh, monkeypatch):
    gh, calls = fake_gh
    files = dist(tmp_path)
    monkeypatch.setenv("GH_EXISTS", "1")
    monkeypatch.setenv("GH_ASSETS", assets_of(files))
    github_releases.GitHubReleases("o/r", gh).create("v1", files, "notes")
    made = calls()
    assert made[1][:3] == ["release", "upload", "v1"] and "--clobber" in made[1]
    assert made[2][:3] == ["release", "edit", "v1"]


def test_a_renamed_or_changed_asset_fails_naming_it(tmp_path):
    files = dist(tmp_path)
    wheel = os.path.basename(files[0])
    renamed = json.loads(assets_of(files, {wheel: wheel.replace("+", ".")}))
    with pytest.raises(github_releases.ReleasesError, match=r"is not an asset of v1 under its own name"):
        github_releases.check_assets("v1", files, renamed)
    changed = json.loads(assets_of(files))
    changed[1]["digest"] = "sha256:" + "0" * 64
    with pytest.raises(github_releases.ReleasesError, match="the Release's asset has sha256:000"):
        github_releases.check_assets("v1", files, changed)


def test_list_reads_every_page_as_one_release_per_line(fake_gh, monkeypatch):
    gh, calls = fake_gh
    releases = [{"tag_name": f"v{i}", "draft": False, "prerelease": False, "assets": []} for i in range(3)]
    monkeypatch.setenv("GH_RELEASES", json.dumps(releases))
    assert github_releases.GitHubReleases("o/r", gh).list() == releases
    assert calls()[0][:3] == ["api", "--paginate", "repos/o/r/releases"]


def test_the_environment_picks_github_or_a_local_folder(tmp_path):
    assert isinstance(github_releases.releases_from_environment({"GITHUB_REPOSITORY": "o/r"}),
                      github_releases.GitHubReleases)
    local = github_releases.releases_from_environment({"GITHUB_REPOSITORY": "o/r", "TORCH_RELEASES_DIR": str(tmp_path),
                                                       "TORCH_RELEASES_URL": "http://127.0.0.1:1/"})
    assert isinstance(local, github_releases.LocalReleases) and local.list() == []
    for env, message in (({"TORCH_RELEASES_DIR": str(tmp_path)}, "without TORCH_RELEASES_URL"),
                         ({}, "neither GITHUB_REPOSITORY")):
        with pytest.raises(github_releases.ReleasesError, match=message):
            github_releases.releases_from_environment(env)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def installable_wheel(directory, version):
    """A wheel pip accepts: METADATA, WHEEL and RECORD."""
    path = os.path.join(directory, f"torch-{version}-cp311-cp311-manylinux_2_28_x86_64.whl")
    info = f"torch-{version}.dist-info"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("torch/__init__.py", "")
        z.writestr(f"{info}/METADATA", f"Metadata-Version: 2.1\nName: torch\nVersion: {version}\n")
        z.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: false\nTag: cp311-cp311-manylinux_2_28_x86_64\n")
        z.writestr(f"{info}/RECORD", "")
    return path


def serve(directory):
    handler = functools.partial(QuietHandler, directory=directory)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def test_pip_gets_an_older_release_from_the_index_a_later_release_wrote(tmp_path):
    """Two tag pushes, as release.yml runs them: each creates its Release, then
    rebuilds Pages from the listing; pip then finds both versions there."""
    version = release.version_txt()
    releases_dir = tmp_path / "releases"
    releases_dir.mkdir()
    releases_server, releases_url = serve(str(releases_dir))
    try:
        env = {**os.environ, "TORCH_RELEASES_DIR": str(releases_dir), "TORCH_RELEASES_URL": releases_url}
        for tag, v in (("v0.0.9", "0.0.9"), (f"v{version}", version)):
            out = tmp_path / tag
            out.mkdir()
            installable_wheel(str(out), f"{v}+cpu")
            release.write_metadata(str(out))
            (tmp_path / "notes.md").write_text("notes")
            subprocess.run(ci_command(sys.executable, "github-releases", "create", tag, str(out), "--notes",
                                      str(tmp_path / "notes.md")), env=env, cwd=ROOT, check=True)
        subprocess.run(ci_command(sys.executable, "github-releases", "list", str(tmp_path / "releases.json")), env=env,
                       cwd=ROOT, check=True)
        release.write_index(str(tmp_path / "releases.json"), str(tmp_path / "site"))
        pages_server, pages_url = serve(str(tmp_path / "site"))
        try:
            for v in ("0.0.9", version):
                got = tmp_path / f"got-{v}"
                subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                                "--platform", "manylinux_2_28_x86_64", "--python-version", "3.11",
                                "--index-url", pages_url + "/cpu/simple", "--dest", str(got), f"torch=={v}+cpu"],
                               env={**os.environ, "PIP_CONFIG_FILE": os.devnull}, check=True)
                assert [p.name for p in got.iterdir()] == [f"torch-{v}+cpu-cp311-cp311-manylinux_2_28_x86_64.whl"]
        finally:
            pages_server.shutdown()
    finally:
        releases_server.shutdown()
