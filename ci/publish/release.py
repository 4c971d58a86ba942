"""The release steps, one subcommand each: release.yml runs them on a v* tag
and ci/rehearse/steps.py runs the same commands against local servers.

    python -m ci release check-tag TAG                 # TAG must be v<version.txt>; the first job of a release
    python -m ci release sdist OUT_DIR                 # the sdist under the PyPI name, version.txt's version
    python -m ci release pypi-files WHEELS SDISTS OUT  # cpu wheels renamed for PyPI + the sdist, twine-checked
    python -m ci release check-upload DIR              # refuses any file PyPI must not get from this project
    python -m ci release metadata DIR                  # <wheel>.metadata beside each variant wheel (PEP 658)
    python -m ci release index RELEASES SITE           # the per-variant PEP 503 indexes of every Release, for Pages
    python -m ci release notes DIR OUT [--index-url U] # release notes: the table, sha256 of every file
    python -m ci release check-notes DIR NOTES         # every file in DIR is in NOTES with its sha256

The names come from ci/matrix.toml's [names]: PyPI gets only the `pypi` name;
the indexes keep `index` (`torch`), as PyTorch's own indexes do.

The variant wheels live in the GitHub Releases (with their .metadata files,
ci/publish/github_releases.py); the Pages site holds only the index pages, rebuilt on
every release from every Release's assets, so each release keeps the earlier
versions listed and the site stays small whatever the wheels weigh.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import urllib.error
import urllib.request
import zipfile

from ci.plan import matrix as matrix_file
from ci.proc import ROOT, actions_error
from ci.publish import index as wheel_index
from ci.publish import pypi_wheel
from ci.publish import variants as wheel_variants


class ReleaseError(Exception):
    """A release step that must stop the release, with the reason."""


def version_txt() -> str:
    with open(os.path.join(ROOT, "version.txt")) as f:
        return f.read().strip()


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def names() -> dict:
    return matrix_file.load()["names"]


def check_tag(tag: str, version: str) -> None:
    if tag != f"v{version}":
        raise ReleaseError(f"tag {tag!r} does not match version.txt ({version}): tag v{version}, "
                           f"or change version.txt in a commit and tag that commit")


def file_identity(path: str) -> tuple[str, str]:
    """(distribution name, version) as the file's own metadata says (not just its file name)."""
    base = os.path.basename(path)
    if base.endswith(".whl"):
        with zipfile.ZipFile(path) as z:
            meta = next(n for n in z.namelist() if re.fullmatch(r"[^/]+\.dist-info/METADATA", n))
            text = z.read(meta).decode("utf-8")
    elif base.endswith(".tar.gz"):
        with tarfile.open(path) as t:
            member = next(m for m in t.getmembers() if re.fullmatch(r"[^/]+/PKG-INFO", m.name))
            text = t.extractfile(member).read().decode("utf-8")
    else:
        raise ReleaseError(f"{base}: neither a wheel nor an sdist")
    headers = dict(re.findall(r"^(Name|Version): (.+)$", text.split("\n\n", 1)[0], re.M))
    return headers.get("Name", ""), headers.get("Version", "")


def check_upload(files: list[str], pypi_name: str, version: str) -> None:
    """What PyPI may get from this project: the configured name, version.txt's
    version without a local label, wheels and one sdist. Raises with every problem."""
    problems = []
    if normalize(pypi_name) == "torch":
        problems.append("ci/matrix.toml [names] pypi is 'torch', which PyPI reserves for PyTorch: "
                        "set the project's own name there")
    if not files:
        problems.append("nothing to upload")
    for path in files:
        base = os.path.basename(path)
        name, got = file_identity(path)
        wrong = []
        if normalize(name) != normalize(pypi_name):
            wrong.append(f"distribution name {name!r}; this project publishes to PyPI only as {pypi_name!r} "
                         "(ci/matrix.toml [names] pypi)")
        if got != version:
            wrong.append(f"version {got!r}, but version.txt says {version!r} (PyPI takes no local label)")
        stem = pypi_wheel.wheel_stem(pypi_name)
        if not (base.startswith(f"{stem}-{version}-") or base == f"{stem}-{version}.tar.gz"):
            wrong.append(f"the file name does not start with {stem}-{version}")
        if wrong:
            problems.append(f"{base}: " + "; ".join(wrong))
    if problems:
        raise ReleaseError("refusing to upload to PyPI:\n  " + "\n  ".join(problems))


def find_files(top: str, suffix: str) -> list[str]:
    found = []
    for dirpath, _, files in os.walk(top):
        found += [os.path.join(dirpath, f) for f in files if f.endswith(suffix)]
    return sorted(found, key=os.path.basename)


def asset_kind(name: str, index_name: str) -> str | None:
    """What a Release file is to the indexes: "wheel" (a variant's plain wheel, torch-<version>+<label>-...),
    "variant-wheel" (its variant form, a sixth name part), "variants-json", or None (the sdist, metadata)."""
    parts = name.split("-")
    if len(parts) < 3 or normalize(parts[0]) != normalize(index_name) or "+" not in parts[1]:
        return None
    if len(parts) == 3 and parts[2] == "variants.json":
        return "variants-json"
    if name.endswith(".whl"):
        return {5: "wheel", 6: "variant-wheel"}.get(len(name[: -len(".whl")].split("-")))
    return None


def index_wheels(top: str, index_name: str) -> list[str]:
    """The variant wheels under `top` (artifact folders or a wheelhouse), one per file name."""
    by_name = {}
    for w in find_files(top, ".whl"):
        # Not the variant forms (ci/publish/variants.py: a sixth name part, their label), which go to the variant index.
        if asset_kind(os.path.basename(w), index_name) == "wheel":
            by_name.setdefault(os.path.basename(w), w)
    return sorted(by_name.values(), key=os.path.basename)


def check_wheel_versions(wheels: list[str], version: str, labels: set[str]) -> None:
    for w in wheels:
        base = os.path.basename(w)
        got = base.split("-")[1]
        public, _, label = got.partition("+")
        if public != version or label not in labels:
            raise ReleaseError(f"{base}: version {got!r} is not version.txt's {version} with a variant label "
                               f"({', '.join(sorted(labels))})")
        if file_identity(w)[1] != got:
            raise ReleaseError(f"{base}: METADATA's version {file_identity(w)[1]!r} differs from the file name's")


def twine_check(files: list[str]) -> None:
    proc = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *files], text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    print(proc.stdout, end="")
    if proc.returncode != 0:
        raise ReleaseError("twine check failed")


def build_sdist(out_dir: str, pypi_name: str, version: str) -> str:
    """The sdist under the PyPI name and version.txt's version: a build from it keeps both."""
    os.makedirs(out_dir, exist_ok=True)
    env = {**os.environ, "TORCH_PACKAGE_NAME": pypi_name, "PYTORCH_BUILD_VERSION": version}
    proc = subprocess.run([sys.executable, "-m", "build", "--sdist", "--outdir", out_dir, ROOT], env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if proc.returncode != 0:
        print(proc.stdout[-6000:])
        raise ReleaseError(f"python -m build --sdist failed ({proc.returncode})")
    path = os.path.join(out_dir, f"{pypi_wheel.wheel_stem(pypi_name)}-{version}.tar.gz")
    if not os.path.exists(path):
        raise ReleaseError(f"python -m build wrote no {os.path.basename(path)} into {out_dir}")
    check_sdist_license(path)
    return path


def check_sdist_license(path: str) -> None:
    """PEP 639 for the sdist: License-Expression and License-File in PKG-INFO, the
    LICENSE text inside, and no binary (third-party code comes in only as build requirements)."""
    with tarfile.open(path) as t:
        names = t.getnames()
        pkg_info = next(n for n in names if re.fullmatch(r"[^/]+/PKG-INFO", n))
        head = t.extractfile(pkg_info).read().decode("utf-8").split("\n\n", 1)[0].splitlines()
    top = pkg_info.split("/")[0]
    problems = []
    if "License-Expression: BSD-3-Clause" not in head or "License-File: LICENSE" not in head:
        problems.append("PKG-INFO lacks License-Expression: BSD-3-Clause or License-File: LICENSE")
    if f"{top}/LICENSE" not in names:
        problems.append("no LICENSE at the top of the sdist")
    binaries = [n for n in names if re.search(r"\.(so(\.[0-9]+)*|dylib|dll|pyd|a|lib|whl)$", n)]
    if binaries:
        problems.append(f"binaries in the sdist: {', '.join(binaries[:5])}")
    if problems:
        raise ReleaseError(f"{os.path.basename(path)}: " + "; ".join(problems))


def pypi_files(wheels_dir: str, sdists_dir: str, out_dir: str) -> list[str]:
    n, version = names(), version_txt()
    labels = {v["label"] for v in matrix_file.load()["variants"].values()}
    wheels = index_wheels(wheels_dir, n["index"])
    check_wheel_versions(wheels, version, labels)
    cpu = [w for w in wheels if os.path.basename(w).split("-")[1].endswith("+cpu")]
    if not cpu:
        raise ReleaseError(f"no +cpu wheels under {wheels_dir}")
    sdists = [s for s in find_files(sdists_dir, ".tar.gz")
              if os.path.basename(s).startswith(pypi_wheel.wheel_stem(n["pypi"]) + "-")]
    if len(sdists) != 1:
        raise ReleaseError(f"expected one {n['pypi']} sdist under {sdists_dir}, found {len(sdists)}")
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    files = [pypi_wheel.to_pypi(w, n["pypi"], out_dir) for w in cpu]
    files.append(shutil.copy(sdists[0], out_dir))
    check_upload(files, n["pypi"], version)
    twine_check(files)
    return files


def variant_files(top: str, index_name: str) -> list[str]:
    """The variant wheels (ci/publish/variants.py make: wheels.yml's build jobs) and variants json files under top."""
    by_name = {}
    for path in find_files(top, ".whl") + find_files(top, "-variants.json"):
        if asset_kind(os.path.basename(path), index_name) in ("variant-wheel", "variants-json"):
            by_name.setdefault(os.path.basename(path), path)
    return sorted(by_name.values(), key=os.path.basename)


def write_metadata(directory: str) -> list[str]:
    """<wheel>.metadata beside each wheel of the indexes (plain and variant): a Release asset, where PEP 658
    has installers look for it."""
    written = []
    index_name = names()["index"]
    for w in index_wheels(directory, index_name) + [f for f in variant_files(directory, index_name)
                                                     if f.endswith(".whl")]:
        with open(w + ".metadata", "wb") as f:
            f.write(wheel_index.wheel_metadata(w))
        written.append(w + ".metadata")
    if not written:
        raise ReleaseError(f"no variant wheels ({names()['index']}-<version>+<variant>-...) in {directory}")
    return written


def fetch(url: str, attempts: int = 3) -> bytes:
    for attempt in range(1, attempts + 1):
        try:
            with urllib.request.urlopen(url, timeout=60) as r:
                return r.read()
        except (urllib.error.URLError, OSError) as e:
            if attempt == attempts:
                raise ReleaseError(f"could not fetch {url}: {e}") from None
            time.sleep(2 * attempt)
    raise AssertionError("unreachable")


def release_links(releases: list[dict], index_name: str, get=fetch) -> list[wheel_index.Link]:
    """Every variant wheel of every published Release (ci/publish/github_releases.py list), as the index links it."""
    links, seen, problems = [], {}, []
    for rel in releases:
        if rel.get("draft"):
            continue
        tag, assets = rel["tag_name"], {a["name"]: a for a in rel["assets"]}
        for name, asset in sorted(assets.items()):
            kind = asset_kind(name, index_name)
            if kind is None:
                continue
            if name in seen:
                problems.append(f"{name} is an asset of both {seen[name]} and {tag}")
                continue
            seen[name] = tag
            digest, meta = asset.get("digest") or "", assets.get(name + ".metadata")
            if not re.fullmatch(r"sha256:[0-9a-f]{64}", digest):
                problems.append(f"{tag}: {name} has no sha256 digest in the listing ({digest or 'none'})")
                continue
            if kind == "variants-json":
                links.append(wheel_index.Link(name, asset["browser_download_url"], digest.split(":", 1)[1], "", ""))
                continue
            if kind == "variant-wheel" and wheel_variants.variants_file(name) not in assets:
                problems.append(f"{tag}: {name} has no {wheel_variants.variants_file(name)} asset beside it")
                continue
            if meta is None:
                problems.append(f"{tag}: {name} has no {name}.metadata asset beside it (ci/publish/release.py metadata)")
                continue
            metadata = get(meta["browser_download_url"])
            meta_digest = hashlib.sha256(metadata).hexdigest()
            if meta.get("digest") and meta["digest"] != "sha256:" + meta_digest:
                problems.append(f"{tag}: {name}.metadata was not what the listing's digest says")
                continue
            headers = dict(re.findall(r"^(Name|Version): (.+)$", metadata.decode("utf-8").split("\n\n", 1)[0], re.M))
            version = name.split("-")[1]
            if normalize(headers.get("Name", "")) != normalize(index_name) or headers.get("Version") != version:
                problems.append(f"{tag}: {name}.metadata is for {headers.get('Name')} {headers.get('Version')}")
                continue
            links.append(wheel_index.Link(name, asset["browser_download_url"], digest.split(":", 1)[1], meta_digest,
                                          wheel_index.requires_python(metadata)))
    if problems:
        raise ReleaseError("the Releases cannot be indexed as they are:\n  " + "\n  ".join(problems))
    return links


def version_key(version: str) -> list[tuple[int, int | str]]:
    """An order for release numbers that never compares a number with text (0.1.0rc1 beside 0.1.0)."""
    return [(0, int(part)) if part.isdigit() else (1, part) for part in version.split(".")]


def write_index(releases_json: str, site: str, get=fetch) -> list[str]:
    """Pages' site, rebuilt from every Release: <variant>/simple/torch/ per variant linking
    the Release assets, variants/simple/torch/ for variant-aware installers (ci/publish/variants.py),
    and a page that lists them with their versions. Returns the variants with an index."""
    n, version = names(), version_txt()
    with open(releases_json) as f:
        links = release_links(json.load(f), n["index"], get)
    plain = [k for k in links if asset_kind(k.filename, n["index"]) == "wheel"]
    if not any(k.filename.split("-")[1].split("+")[0] == version for k in plain):
        raise ReleaseError(f"no Release holds {n['index']} {version}'s variant wheels: the github-release job "
                           f"creates it before the index is written")
    variants = sorted({wheel_index.label(k.filename) for k in plain})
    shutil.rmtree(site, ignore_errors=True)
    wheel_index.write_pages(site, plain, variants)
    items = []
    for v in variants:
        versions = sorted({k.filename.split("-")[1].split("+")[0] for k in plain if wheel_index.label(k.filename) == v},
                          key=version_key)
        items.append(f'    <li><a href="{v}/simple/">{v}</a> ({", ".join(versions)}): <code>pip install '
                     f'--index-url &lt;this site&gt;/{v}/simple {n["index"]}</code></li>')
    by_name = {k.filename: k for k in links}
    variant_links = [by_name[f] for f in wheel_variants.index_files(list(by_name), matrix_file.load())]
    if any(asset_kind(k.filename, n["index"]) == "variant-wheel" for k in variant_links):
        wheel_index.write_simple(os.path.join(site, wheel_variants.INDEX_NAME, "simple"), "variants", variant_links)
        versions = sorted({k.filename.split("-")[1].split("+")[0] for k in variant_links
                           if asset_kind(k.filename, n["index"]) == "variant-wheel"}, key=version_key)
        items.append(f'    <li><a href="{wheel_variants.INDEX_NAME}/simple/">{wheel_variants.INDEX_NAME}</a> '
                     f'({", ".join(versions)}), one index for every variant: <code>UV_PREVIEW_FEATURES=wheel-variants '
                     f'uv pip install --extra-index-url &lt;this site&gt;/{wheel_variants.INDEX_NAME}/simple '
                     f'{n["index"]}</code> picks by the CUDA driver (pip takes cpu)</li>')
    with open(os.path.join(site, "index.html"), "w") as f:
        f.write(f"<!DOCTYPE html>\n<html>\n  <body>\n    <h1>{n['index']}: one index per variant</h1>\n"
                f"    <ul>\n" + "\n".join(items) + "\n    </ul>\n  </body>\n</html>\n")
    return variants


def describe(base: str) -> tuple[str, str, str]:
    """(variant, python, platform) of a release file name."""
    if base.endswith(".tar.gz"):
        return "source", "any", "any"
    if base.endswith("-variants.json"):
        return f"{wheel_index.label(base)} (variants json)", "any", "any"
    parts = base[: -len(".whl")].split("-")
    kind = "variant wheel" if wheel_variants.is_variant_wheel(base) else ""
    if kind:
        parts = parts[:-1]
    version, python, abi, platform = parts[1], parts[-3], parts[-2], parts[-1]
    variant = version.split("+", 1)[1] if "+" in version else "cpu (PyPI)"
    py = f"{python[2]}.{python[3:]}" + ("t" if abi.endswith("t") else "")
    return variant + (f" ({kind})" if kind else ""), py, platform


def release_notes(files: list[str], index_url: str) -> str:
    n, version = names(), version_txt()
    rows = sorted((describe(os.path.basename(p)), os.path.basename(p), os.path.getsize(p), wheel_index.sha256(p))
                  for p in files)
    lines = [
        f"# {n['pypi']} {version}",
        "",
        f"The import package is `{n['import']}` in every file below.",
        "",
        f"- PyPI (cpu wheels and the sdist): `pip install {n['pypi']}=={version}`",
        f"- Per-variant indexes (distribution `{n['index']}`): "
        f"`pip install --index-url {index_url}/<variant>/simple {n['index']}=={version}+<variant>`",
        "  (CUDA variants add `--extra-index-url https://pypi.org/simple` for NVIDIA's runtime wheels)",
        f"- One index for every variant (uv's wheel-variants preview picks cpu or CUDA by the machine's driver): "
        f"`UV_PREVIEW_FEATURES=wheel-variants uv pip install "
        f"--extra-index-url {index_url}/{wheel_variants.INDEX_NAME}/simple "
        f"{n['index']}=={version}`",
        "",
        "| Variant | Python | Platform | File | Size (MiB) | sha256 |",
        "| --- | --- | --- | --- | ---: | --- |",
    ]
    for (variant, py, platform), base, size, digest in rows:
        lines.append(f"| {variant} | {py} | {platform} | `{base}` | {size / 2**20:.1f} | `{digest}` |")
    return "\n".join(lines) + "\n"


def check_notes(files: list[str], notes: str) -> None:
    listed = dict(re.findall(r"^\|.*\| `([^`]+)` \| [\d.]+ \| `([0-9a-f]{64})` \|$", notes, re.M))
    problems = []
    for p in files:
        base = os.path.basename(p)
        if base not in listed:
            problems.append(f"{base} is not in the notes")
        elif listed[base] != wheel_index.sha256(p):
            problems.append(f"{base}: the notes give sha256 {listed[base]}, the file has {wheel_index.sha256(p)}")
    for base in sorted(set(listed) - {os.path.basename(p) for p in files}):
        problems.append(f"the notes list {base}, which is not a release file")
    if problems:
        raise ReleaseError("release notes disagree with the files:\n  " + "\n  ".join(problems))


def release_files(top: str) -> list[str]:
    """The wheels and sdists under `top`, one per file name."""
    by_name: dict[str, str] = {}
    for path in find_files(top, ".whl") + find_files(top, ".tar.gz") + find_files(top, "-variants.json"):
        by_name.setdefault(os.path.basename(path), path)
    return list(by_name.values())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("check-tag").add_argument("tag")
    sub.add_parser("sdist").add_argument("out_dir")
    p = sub.add_parser("pypi-files")
    p.add_argument("wheels")
    p.add_argument("sdists")
    p.add_argument("out_dir")
    sub.add_parser("check-upload").add_argument("dir")
    sub.add_parser("metadata").add_argument("dir")
    p = sub.add_parser("index")
    p.add_argument("releases", help="the JSON ci/publish/github_releases.py list writes")
    p.add_argument("site")
    p = sub.add_parser("notes")
    p.add_argument("dir")
    p.add_argument("out")
    p.add_argument("--index-url", default="https://<owner>.github.io/<repo>")
    p = sub.add_parser("check-notes")
    p.add_argument("dir")
    p.add_argument("notes")
    args = parser.parse_args(argv)
    try:
        if args.command == "check-tag":
            check_tag(args.tag, version_txt())
            print(f"tag {args.tag} matches version.txt")
        elif args.command == "sdist":
            print(build_sdist(args.out_dir, names()["pypi"], version_txt()))
        elif args.command == "pypi-files":
            for f in pypi_files(args.wheels, args.sdists, args.out_dir):
                print(f)
        elif args.command == "check-upload":
            files = release_files(args.dir)
            check_upload(files, names()["pypi"], version_txt())
            print(f"{len(files)} files may go to PyPI as {names()['pypi']} {version_txt()}")
        elif args.command == "index":
            print(f"indexes for {', '.join(write_index(args.releases, args.site))} under {args.site}")
        elif args.command == "metadata":
            print(f"{len(write_metadata(args.dir))} metadata files beside the wheels in {args.dir}")
        elif args.command == "notes":
            files = release_files(args.dir)
            with open(args.out, "w") as f:
                f.write(release_notes(files, args.index_url.rstrip("/")))
            print(f"release notes for {len(files)} files: {args.out}")
        elif args.command == "check-notes":
            with open(args.notes) as f:
                check_notes(release_files(args.dir), f.read())
            print(f"{args.notes} lists every file of {args.dir} with its sha256")
    except ReleaseError as e:
        actions_error(str(e))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
