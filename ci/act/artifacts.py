"""The workflow run's artifacts on this machine: what the upload-artifact,
download-artifact and upload-pages-artifact stand-ins (standins.py) share
between the jobs of one local run.

GitHub keeps a run's artifacts in its own storage; here they live in one
folder per run ($TORCH_ACT_ARTIFACTS, made by ci/rehearse/workflows.py). Each
artifact is a folder `<store>/<name>/` holding `artifact.json` (how it was
uploaded, its file list and sha256) and its payload: `artifact.zip`, as
GitHub stores an archived artifact, or the one file as it was for
`archive: false` (upload-artifact v7's direct upload).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import tarfile
import zipfile

from ci.publish.index import sha256

# upload-artifact refuses these in a name (the artifact service's rule).
_BAD_NAME = re.compile(r'[":<>|*?\r\n\\/]')
_GLOB = re.compile(r"[*?\[]")


class ArtifactError(Exception):
    """A step's failure, with the message GitHub's action would print."""


def _pattern_regex(pattern: str) -> re.Pattern:
    """A path glob as @actions/glob reads it: `**` any depth (none included), `*` and `?` within one segment."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append(r"(?:[^/]*/)*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(r".*")
            i += 2
        elif pattern[i] == "*":
            out.append(r"[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append(r"[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out) + r"(?:/.*)?\Z")  # a matched folder brings everything below it


def search_path(pattern: str) -> str:
    """The part of an absolute pattern before its first glob segment (@actions/glob's search path)."""
    parts = pattern.split("/")
    literal = []
    for part in parts:
        if _GLOB.search(part):
            break
        literal.append(part)
    return "/".join(literal) or "/"


def _files_below(path: str) -> list[str]:
    if os.path.isfile(path):
        return [path]
    found = []
    for top, dirs, files in os.walk(path, followlinks=True):
        dirs.sort()
        found += [os.path.join(top, f) for f in sorted(files)]
    return found


def _hidden(relpath: str) -> bool:
    return any(part.startswith(".") for part in relpath.split("/"))


def resolve_paths(spec: str, workspace: str, include_hidden: bool) -> tuple[list[str], str]:
    """upload-artifact's `path`: one pattern a line, `!` excluding, relative to the workspace.
    Returns (files, root): the root is the least common ancestor of the patterns' search paths,
    so each file is stored relative to it, as the real action stores them."""
    includes, excludes = [], []
    for line in (raw.strip() for raw in spec.splitlines()):
        if not line:
            continue
        target = excludes if line.startswith("!") else includes
        line = line[1:] if line.startswith("!") else line
        target.append(os.path.normpath(os.path.join(workspace, os.path.expanduser(line))))
    files, searches = [], []
    for pattern in includes:
        base = search_path(pattern)
        searches.append(base)
        if not os.path.exists(base):
            continue
        rx = _pattern_regex(pattern)
        files += [f for f in _files_below(base) if rx.match(f)]
    exclude_rx = [_pattern_regex(p) for p in excludes]
    files = sorted({f for f in files if not any(rx.match(f) for rx in exclude_rx)})
    root = os.path.commonpath(searches) if searches else workspace
    if os.path.isfile(root):
        root = os.path.dirname(root)
    if not include_hidden:  # upload-artifact v4.4 and later leave hidden files out unless asked
        files = [f for f in files if not _hidden(os.path.relpath(f, root))]
    return files, root


def names(store: str) -> list[str]:
    """The run's artifacts (none before the first upload made the folder)."""
    if not os.path.isdir(store):
        return []
    return sorted(n for n in os.listdir(store) if os.path.exists(os.path.join(store, n, "artifact.json")))


def upload(store: str, name: str, files: list[str], root: str, *, overwrite: bool = False, archive: bool = True,
           compression_level: int = 6, retention_days: int = 0) -> dict:
    """Stores files (relative to root) as the artifact `name`; returns its record."""
    if not archive:
        if len(files) != 1:
            raise ArtifactError(f"archive: false uploads exactly one file; the path matched {len(files)}")
        name = os.path.basename(files[0])  # a direct upload is named after its file
    if not name or _BAD_NAME.search(name):
        raise ArtifactError(f"the artifact name {name!r} is not valid: it may not contain "
                            '" : < > | * ? \\ / or a line break')
    if not 0 <= compression_level <= 9:
        raise ArtifactError(f"compression-level must be 0 to 9, not {compression_level}")
    folder = os.path.join(store, name)
    if os.path.exists(os.path.join(folder, "artifact.json")):
        if not overwrite:
            raise ArtifactError(f"an artifact named {name!r} already exists in this run (409 Conflict); "
                                "give another name or overwrite: true")
        shutil.rmtree(folder)
    os.makedirs(folder)
    members = [os.path.relpath(f, root) for f in files]
    if archive:
        payload = os.path.join(folder, "artifact.zip")
        method = zipfile.ZIP_STORED if compression_level == 0 else zipfile.ZIP_DEFLATED
        with zipfile.ZipFile(payload, "w", method, compresslevel=compression_level or None) as z:
            for path, member in zip(files, members):
                z.write(path, member)
    else:
        payload = os.path.join(folder, name)
        shutil.copyfile(files[0], payload)
    record = {"name": name, "id": len(names(store)) + 1, "archive": archive, "files": members,
              "payload": os.path.basename(payload), "sha256": sha256(payload), "retention_days": retention_days}
    with open(os.path.join(folder, "artifact.json"), "w") as f:
        json.dump(record, f, indent=1)
    return record


def record_of(store: str, name: str) -> dict:
    path = os.path.join(store, name, "artifact.json")
    if not os.path.exists(path):
        raise ArtifactError(f"Unable to download artifact(s): Artifact not found for name: {name} "
                            f"(this run has: {', '.join(names(store)) or 'none'})")
    with open(path) as f:
        return json.load(f)


def download(store: str, name: str, dest: str, *, skip_decompress: bool = False, digest_mismatch: str = "error") -> list[str]:
    """Unpacks the artifact `name` into dest; returns the paths written."""
    record = record_of(store, name)
    payload = os.path.join(store, name, record["payload"])
    if sha256(payload) != record["sha256"]:
        message = f"the digest of artifact {name!r} does not match what was uploaded"
        if digest_mismatch == "error":
            raise ArtifactError(message)
        if digest_mismatch != "ignore":
            print(f"::{'warning' if digest_mismatch == 'warn' else 'notice'}::{message}")
    os.makedirs(dest, exist_ok=True)
    if not record["archive"] or skip_decompress:
        target = os.path.join(dest, record["payload"] if not record["archive"] else f"{name}.zip")
        shutil.copyfile(payload, target)
        return [target]
    with zipfile.ZipFile(payload) as z:
        for member in z.namelist():
            if member.startswith("/") or ".." in member.split("/"):
                raise ArtifactError(f"artifact {name!r} holds a path outside its folder: {member}")
        z.extractall(dest)
    return [os.path.join(dest, m) for m in record["files"]]


def pages_tar(site: str, out: str, include_hidden: bool) -> None:
    """upload-pages-artifact's archive: the site's files under `./`, links followed,
    .git and .github left out, and hidden files too unless asked for."""
    if not os.path.isdir(site):
        raise ArtifactError(f"upload-pages-artifact: the path {site} is not a folder")

    def keep(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
        parts = info.name.split("/")[1:]
        if any(p in (".git", ".github") for p in parts) or (not include_hidden and any(p.startswith(".") for p in parts)):
            return None
        return info

    with tarfile.open(out, "w", dereference=True, format=tarfile.GNU_FORMAT) as t:
        t.add(site, arcname=".", filter=keep)


def unpack_pages(store: str, name: str, site: str) -> str:
    """What Pages would serve from the artifact `name` of the store: artifact.tar unpacked into site."""
    unpacked = site + ".artifact"
    shutil.rmtree(unpacked, ignore_errors=True)
    download(store, name, unpacked)
    tar = os.path.join(unpacked, "artifact.tar")
    if not os.path.exists(tar):
        raise ArtifactError(f"the {name} artifact holds no artifact.tar, which Pages deploys")
    with tarfile.open(tar) as t:
        t.extractall(site, filter="data") if hasattr(tarfile, "data_filter") else t.extractall(site)
    return site
