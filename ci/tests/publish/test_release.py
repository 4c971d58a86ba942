"""The release steps (ci/publish/release.py) on small synthetic files, and release.yml's
wiring to them. The whole path against real servers is ci/rehearse/steps.py,
which .ci/run runs on the factory's wheels."""
import hashlib
import io
import json
import os
import re
import tarfile
import urllib.parse
import zipfile

import pytest
import yaml

from ci.plan import matrix as build_matrix
from ci.proc import ROOT
from ci.publish import github_releases
from ci.publish import release
from ci.publish import variants

VERSION = release.version_txt()
NAMES = release.names()


def make_wheel(directory, name, version, tag="cp311-cp311-manylinux_2_28_x86_64"):
    stem = name.replace("-", "_")
    path = os.path.join(directory, f"{stem}-{version}-{tag}.whl")
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("torch/__init__.py", "")
        z.writestr(f"{stem}-{version}.dist-info/METADATA",
                   f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n\nName: not-a-header\n")
        z.writestr(f"{stem}-{version}.dist-info/RECORD", "")
    return path


def make_sdist(directory, name, version):
    stem = name.replace("-", "_")
    path = os.path.join(directory, f"{stem}-{version}.tar.gz")
    data = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode()
    with tarfile.open(path, "w:gz") as t:
        info = tarfile.TarInfo(f"{stem}-{version}/PKG-INFO")
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    return path


def test_names_are_in_the_matrix_and_pypi_is_not_pytorchs():
    assert NAMES["import"] == "torch" and NAMES["index"] == "torch"
    assert release.normalize(NAMES["pypi"]) != "torch"


def test_a_tag_must_be_version_txt():
    release.check_tag(f"v{VERSION}", VERSION)
    for tag in (VERSION, f"v{VERSION}.1", f"v{VERSION}rc1", "latest"):
        with pytest.raises(release.ReleaseError, match="does not match version.txt"):
            release.check_tag(tag, VERSION)


def test_a_wrong_tag_stops_the_command_with_an_actions_error(capsys):
    assert release.main(["check-tag", "v999.0"]) == 1
    assert "::error::tag 'v999.0' does not match version.txt" in capsys.readouterr().err


def test_release_yml_checks_the_tag_before_anything_is_built():
    with open(os.path.join(ROOT, ".github", "workflows", "release.yml")) as f:
        jobs = yaml.safe_load(f)["jobs"]
    assert "-m ci release check-tag" in jobs["version"]["steps"][-1]["run"]
    # Every job that builds waits for the tag check; everything else waits for the builds.
    assert jobs["wheels"]["needs"] == "version" and jobs["sdist"]["needs"] == "version"
    for name, job in jobs.items():
        if name != "version":
            needs = job["needs"] if isinstance(job["needs"], list) else [job["needs"]]
            assert needs and set(needs) <= {"version", "wheels", "sdist", "pypi", "github-release"}, name


def test_release_yml_uploads_only_what_the_guard_passed():
    with open(os.path.join(ROOT, ".github", "workflows", "release.yml")) as f:
        steps = yaml.safe_load(f)["jobs"]["pypi"]["steps"]
    runs = [s.get("run", s.get("uses", "")) for s in steps]
    guard = next(i for i, r in enumerate(runs) if "-m ci release check-upload dist" in r)
    publish = next(i for i, r in enumerate(runs) if r.strip() == "python -m ci publish dist")
    assert any("-m ci release pypi-files" in r for r in runs[:guard]) and guard == publish - 1
    # Trusted publishing needs the job's OIDC token; the attestations too.
    with open(os.path.join(ROOT, ".github", "workflows", "release.yml")) as f:
        assert yaml.safe_load(f)["jobs"]["pypi"]["permissions"] == {"contents": "read", "id-token": "write"}


def test_nothing_is_published_unless_every_build_and_the_pypi_upload_succeeded():
    """The partial-release order (docs/RELEASING.md): every publishing job needs both
    builds; Pages and the GitHub Release also wait for PyPI, whose upload cannot be redone;
    no job overrides the implicit success() of its needs."""
    with open(os.path.join(ROOT, ".github", "workflows", "release.yml")) as f:
        jobs = yaml.safe_load(f)["jobs"]

    def needs(name):
        direct = jobs[name].get("needs", [])
        direct = [direct] if isinstance(direct, str) else direct
        return set(direct).union(*(needs(n) for n in direct)) if direct else set()

    for job in ("pypi", "index", "github-release"):
        assert {"version", "wheels", "sdist"} <= needs(job), job
    assert "pypi" in needs("index") and "pypi" in needs("github-release")
    # The index is rebuilt from the Releases, so this release's must exist first.
    assert "github-release" in needs("index")
    for name, job in jobs.items():
        assert not re.search(r"always\(\)|failure\(\)|cancelled\(\)", str(job.get("if", ""))), name
        assert "continue-on-error" not in job and all("continue-on-error" not in s for s in job.get("steps", []))


def test_the_workflows_make_check_and_publish_the_variant_forms():
    """wheels.yml makes each job's variant forms and uploads them with the wheels; the github-release
    job checks them before the notes and the Release take every file of dist/."""
    with open(os.path.join(ROOT, ".github", "workflows", "wheels.yml")) as f:
        steps = yaml.safe_load(f)["jobs"]["build"]["steps"]
    runs = [s.get("run", "") for s in steps]
    make = next(i for i, r in enumerate(runs) if "-m ci variants make wheelhouse wheelhouse" in r)
    upload = next(i for i, s in enumerate(steps) if s.get("uses", "").startswith("actions/upload-artifact"))
    assert make < upload and "wheelhouse/*-variants.json" in steps[upload]["with"]["path"]
    assert "wheelhouse/*.whl" in steps[upload]["with"]["path"]
    with open(os.path.join(ROOT, ".github", "workflows", "release.yml")) as f:
        steps = yaml.safe_load(f)["jobs"]["github-release"]["steps"]
    runs = [s.get("run", s.get("uses", "")) for s in steps]
    check = next(i for i, r in enumerate(runs) if "-m ci variants check dist" in r)
    assert check < next(i for i, r in enumerate(runs) if "-m ci release notes" in r)
    assert check < next(i for i, r in enumerate(runs) if "attest-build-provenance" in r)


def test_no_step_knows_about_act():
    """The GitHub-only actions run under act as local stand-ins that say so (ci/act/), and
    the Releases are a folder there (ci/publish/github_releases.py): no step asks whether it runs under act."""
    with open(os.path.join(ROOT, ".github", "workflows", "release.yml")) as f:
        jobs = yaml.safe_load(f)["jobs"]
    github_only = {"actions/configure-pages", "actions/deploy-pages", "actions/attest-build-provenance"}
    used = set()
    for job in jobs.values():
        for step in job.get("steps", []):
            used.add(step.get("uses", "").split("@")[0])
            assert "ACT" not in str(step.get("if", "")) and "ACT" not in step.get("run", ""), step
    assert github_only <= used


def test_the_upload_guard_takes_only_the_pypi_name_at_version_txt(tmp_path):
    good = [make_wheel(tmp_path, NAMES["pypi"], VERSION), make_sdist(tmp_path, NAMES["pypi"], VERSION)]
    release.check_upload(good, NAMES["pypi"], VERSION)
    bad = {
        "distribution name 'torch'": make_wheel(tmp_path, "torch", VERSION),
        "PyPI takes no local label": make_wheel(tmp_path, NAMES["pypi"], VERSION + "+cpu"),
        "version.txt says": make_sdist(tmp_path, NAMES["pypi"], "9.9.9"),
    }
    for message, path in bad.items():
        with pytest.raises(release.ReleaseError, match=message):
            release.check_upload([*good, path], NAMES["pypi"], VERSION)
    with pytest.raises(release.ReleaseError, match="reserves for PyTorch"):
        release.check_upload([make_wheel(tmp_path, "torch", VERSION)], "torch", VERSION)


def test_the_guard_reads_the_metadata_not_only_the_file_name(tmp_path):
    """A file named as the PyPI project whose METADATA says `torch` is refused."""
    inside = make_wheel(tmp_path, "torch", VERSION)
    named = os.path.join(tmp_path, os.path.basename(inside).replace("torch", NAMES["pypi"].replace("-", "_"), 1))
    os.rename(inside, named)
    with pytest.raises(release.ReleaseError, match="distribution name 'torch'"):
        release.check_upload([named], NAMES["pypi"], VERSION)


def test_pypi_files_need_version_txt_on_every_wheel(tmp_path):
    labels = {"cpu", "cu130"}
    release.check_wheel_versions([make_wheel(tmp_path, "torch", VERSION + "+cpu")], VERSION, labels)
    for version in (VERSION, "9.9.9+cpu", VERSION + "+rocm"):
        with pytest.raises(release.ReleaseError, match="is not version.txt's"):
            release.check_wheel_versions([make_wheel(tmp_path, "torch", version)], VERSION, labels)


def test_the_release_takes_the_plain_wheels_not_the_factorys_variant_index(tmp_path):
    plain = make_wheel(tmp_path, "torch", VERSION + "+cpu")
    index = tmp_path / "index" / "variants" / "files"
    index.mkdir(parents=True)
    variant = make_wheel(index, "torch", VERSION + "+cpu", tag="cp311-cp311-manylinux_2_28_x86_64-null")
    assert os.path.basename(variant).endswith("-null.whl")
    assert release.index_wheels(str(tmp_path), "torch") == [plain]


def test_pypi_files_rename_the_cpu_wheels_and_keep_the_sdist(tmp_path, monkeypatch):
    wheels, sdists, out = (tmp_path / d for d in ("wheels", "sdists", "out"))
    for d in (wheels / "wheels-linux-x86_64-cpu", wheels / "wheels-linux-x86_64-cu130", sdists):
        d.mkdir(parents=True)
    make_wheel(wheels / "wheels-linux-x86_64-cpu", "torch", VERSION + "+cpu")
    make_wheel(wheels / "wheels-linux-x86_64-cu130", "torch", VERSION + "+cu130")
    make_sdist(sdists, NAMES["pypi"], VERSION)
    monkeypatch.setattr(release, "twine_check", lambda files: None)  # the synthetic files are not real packages
    files = sorted(os.path.basename(f) for f in release.pypi_files(str(wheels), str(sdists), str(out)))
    stem = NAMES["pypi"].replace("-", "_")
    assert files == [f"{stem}-{VERSION}-cp311-cp311-manylinux_2_28_x86_64.whl", f"{stem}-{VERSION}.tar.gz"]


def publish_release(releases, tag, version, labels=("cpu", "cu130"), variant_forms=False):
    """A Release as ci/publish/github_releases.py keeps it locally: the variant wheels, their metadata, an sdist;
    with variant_forms, also each wheel's variant form and the variants json (ci/publish/variants.py make)."""
    out = os.path.join(str(releases), "staging-" + tag)
    os.makedirs(out)
    for label in labels:
        make_wheel(out, "torch", f"{version}+{label}")
    if variant_forms:
        wheels = variants.plain_wheels(out)
        variants.make_variants(out, wheels, build_matrix.load(), out)
    make_sdist(out, NAMES["pypi"], version)
    release.write_metadata(out)
    store = github_releases.LocalReleases(str(releases), "http://releases.invalid")
    files = github_releases.release_files(out)
    github_releases.check_assets(tag, files, store.create(tag, files, "notes"))
    return store


def local_get(releases):
    """What the releases server would answer for an asset URL."""
    def get(url):
        path = urllib.parse.unquote(url.removeprefix("http://releases.invalid/"))
        with open(os.path.join(str(releases), path), "rb") as f:
            return f.read()
    return get


def test_index_writes_one_pep503_index_per_variant_and_a_landing_page(tmp_path):
    store = publish_release(tmp_path / "releases", f"v{VERSION}", VERSION)
    (tmp_path / "releases.json").write_text(json.dumps(store.list()))
    site = tmp_path / "site"
    assert release.write_index(str(tmp_path / "releases.json"), str(site), local_get(tmp_path / "releases")) == [
        "cpu", "cu130"]
    page = (site / "cu130" / "simple" / "torch" / "index.html").read_text()
    wheel = f"torch-{VERSION}+cu130-cp311-cp311-manylinux_2_28_x86_64.whl"
    digest = hashlib.sha256((tmp_path / "releases" / f"v{VERSION}" / wheel).read_bytes()).hexdigest()
    meta = hashlib.sha256((tmp_path / "releases" / f"v{VERSION}" / (wheel + ".metadata")).read_bytes()).hexdigest()
    url = f"http://releases.invalid/v{VERSION}/{urllib.parse.quote(wheel)}"
    assert f'href="{url}#sha256={digest}" data-dist-info-metadata="sha256={meta}"' in page
    assert "+cpu" not in page and NAMES["pypi"].replace("-", "_") not in page  # no sdist, no other variant
    assert 'href="cpu/simple/"' in (site / "index.html").read_text()


def test_a_second_release_keeps_the_first_ones_wheels_listed(tmp_path, monkeypatch):
    releases = tmp_path / "releases"
    publish_release(releases, "v0.0.9", "0.0.9")
    store = publish_release(releases, f"v{VERSION}", VERSION, labels=("cpu",))
    (tmp_path / "releases.json").write_text(json.dumps(store.list()))
    site = tmp_path / "site"
    assert release.write_index(str(tmp_path / "releases.json"), str(site), local_get(releases)) == ["cpu", "cu130"]
    cpu = (site / "cpu" / "simple" / "torch" / "index.html").read_text()
    assert "torch-0.0.9+cpu-" in cpu and f"torch-{VERSION}+cpu-" in cpu and "/v0.0.9/" in cpu
    # A variant the newest release no longer builds keeps its index too.
    assert "torch-0.0.9+cu130-" in (site / "cu130" / "simple" / "torch" / "index.html").read_text()
    assert "0.0.9, " + VERSION in (site / "index.html").read_text()


def test_the_index_refuses_releases_it_cannot_serve(tmp_path):
    releases = tmp_path / "releases"
    store = publish_release(releases, "v0.0.9", "0.0.9")
    listing = store.list()
    (tmp_path / "releases.json").write_text(json.dumps(listing))
    with pytest.raises(release.ReleaseError, match=f"no Release holds torch {VERSION}"):
        release.write_index(str(tmp_path / "releases.json"), str(tmp_path / "site"), local_get(releases))
    wheels = [a for a in listing[0]["assets"] if a["name"].endswith(".whl")]
    wheels[0]["digest"] = None
    listing[0]["assets"] = [a for a in listing[0]["assets"] if a["name"] != wheels[1]["name"] + ".metadata"]
    with pytest.raises(release.ReleaseError) as e:
        release.release_links(listing, "torch", local_get(releases))
    assert "has no sha256 digest" in str(e.value) and "has no " + wheels[1]["name"] + ".metadata asset" in str(e.value)
    # A draft is not published: its wheels are not listed.
    assert release.release_links([{**listing[0], "draft": True}], "torch", local_get(releases)) == []


def test_the_variant_index_links_the_variant_files_and_the_plain_cpu_wheels(tmp_path):
    releases = tmp_path / "releases"
    publish_release(releases, "v0.0.9", "0.0.9")  # a release from before variants
    store = publish_release(releases, f"v{VERSION}", VERSION, variant_forms=True)
    listing = store.list()
    (tmp_path / "releases.json").write_text(json.dumps(listing))
    site = tmp_path / "site"
    assert release.write_index(str(tmp_path / "releases.json"), str(site), local_get(releases)) == ["cpu", "cu130"]
    tag = "cp311-cp311-manylinux_2_28_x86_64"
    page = (site / "variants" / "simple" / "torch" / "index.html").read_text()
    names = re.findall(r">([^<]+)</a>", page)
    assert names == sorted([f"torch-0.0.9+cpu-{tag}.whl", f"torch-{VERSION}+cpu-{tag}.whl",
                            f"torch-{VERSION}+cpu-{tag}-null.whl", f"torch-{VERSION}+cpu-variants.json",
                            f"torch-{VERSION}+cu130-{tag}-cu130.whl", f"torch-{VERSION}+cu130-variants.json"])
    json_asset = next(a for a in listing[1]["assets"] if a["name"] == f"torch-{VERSION}+cu130-variants.json")
    assert f'href="{json_asset["browser_download_url"]}#{json_asset["digest"].replace(":", "=")}">' in page
    variant_row = next(line for line in page.splitlines() if f"{tag}-cu130.whl<" in line)
    assert "data-core-metadata=" in variant_row  # its .metadata asset, as for the plain wheels
    # The per-variant indexes stay plain: pip would choke on the variant names.
    for label in ("cpu", "cu130"):
        assert "-variants.json" not in (site / label / "simple" / "torch" / "index.html").read_text()
        assert "-null.whl" not in (site / label / "simple" / "torch" / "index.html").read_text()
    assert 'href="variants/simple/"' in (site / "index.html").read_text()
    # A variant wheel published without its json cannot be chosen by uv: the index refuses it.
    listing[1]["assets"] = [a for a in listing[1]["assets"] if not a["name"].endswith("cu130-variants.json")]
    with pytest.raises(release.ReleaseError, match="has no torch-.*cu130-variants.json asset"):
        release.release_links(listing, "torch", local_get(releases))


def test_release_notes_describe_the_variant_files(tmp_path):
    make_wheel(tmp_path, "torch", f"{VERSION}+cu130")
    variants.make_variants(str(tmp_path), variants.plain_wheels(str(tmp_path)), build_matrix.load(), str(tmp_path))
    files = release.release_files(str(tmp_path))
    assert sorted(os.path.basename(f) for f in files) == sorted(os.listdir(tmp_path))
    notes = release.release_notes(files, "https://example.github.io/repo")
    release.check_notes(files, notes)
    assert "| cu130 (variant wheel) | 3.11 | manylinux_2_28_x86_64 |" in notes
    assert "| cu130 (variants json) | any | any |" in notes
    assert "uv pip install --extra-index-url https://example.github.io/repo/variants/simple" in notes


def test_release_notes_list_every_file_with_its_sha256(tmp_path):
    files = [make_wheel(tmp_path, "torch", f"{VERSION}+cpu"), make_sdist(tmp_path, NAMES["pypi"], VERSION)]
    notes = release.release_notes(files, "https://example.github.io/repo")
    release.check_notes(files, notes)
    assert f"pip install {NAMES['pypi']}=={VERSION}" in notes
    assert "| cpu | 3.11 | manylinux_2_28_x86_64 |" in notes
    with open(files[0], "ab") as f:
        f.write(b"tampered")
    with pytest.raises(release.ReleaseError, match="the notes give sha256"):
        release.check_notes(files, notes)
    extra = make_wheel(tmp_path, "torch", f"{VERSION}+cu130")
    with pytest.raises(release.ReleaseError, match="is not in the notes"):
        release.check_notes([*files, extra], notes)


@pytest.mark.parametrize("headers, files, message", [
    ("License-Expression: BSD-3-Clause\nLicense-File: LICENSE\n", {"LICENSE": "BSD"}, None),
    ("License-Expression: BSD-3-Clause\nLicense-File: LICENSE\n", {}, "no LICENSE at the top"),
    ("License: BSD\n", {"LICENSE": "BSD"}, "PKG-INFO lacks License-Expression"),
    ("License-Expression: BSD-3-Clause\nLicense-File: LICENSE\n", {"LICENSE": "BSD", "torch/lib/libx.so": "x"},
     "binaries in the sdist: torch_wheelforge-1.0/torch/lib/libx.so"),
])
def test_the_sdist_carries_its_licence_and_no_binary(tmp_path, headers, files, message):
    path = tmp_path / "torch_wheelforge-1.0.tar.gz"
    with tarfile.open(path, "w:gz") as t:
        for name, text in {"PKG-INFO": f"Metadata-Version: 2.4\nName: torch-wheelforge\n{headers}\nbody", **files}.items():
            info = tarfile.TarInfo(f"torch_wheelforge-1.0/{name}")
            info.size = len(text.encode())
            t.addfile(info, io.BytesIO(text.encode()))
    if message is None:
        release.check_sdist_license(str(path))
    else:
        with pytest.raises(release.ReleaseError, match=message):
            release.check_sdist_license(str(path))


def test_versions_sort_numerically_and_a_label_never_meets_a_number():
    assert sorted(["0.10.0", "0.9.1", "0.1.0rc1", "0.1.0"], key=release.version_key) == [
        "0.1.0", "0.1.0rc1", "0.9.1", "0.10.0"]
