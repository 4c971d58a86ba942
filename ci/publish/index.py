"""PEP 503 "simple" indexes, one per variant.

index/<variant>/simple/index.html            lists the projects
index/<variant>/simple/<project>/index.html  links each wheel with its sha256
                                             fragment, data-requires-python and
                                             data-core-metadata (PEP 658/714: the
                                             metadata file is at the link + ".metadata")
The wheels of a variant are those whose local version label is the variant
(torch-2.13.0.1+cpu-...).

Two users: the factory's local indexes (`write`: the wheels copied under
<variant>/files/, relative links, usable as file:// URLs) and the release's
Pages site (`write_pages` with links to the GitHub Release assets, from every
release: ci/publish/release.py index).
"""
from __future__ import annotations

import hashlib
import html
import os
import re
import shutil
import zipfile
from dataclasses import dataclass


@dataclass(frozen=True)
class Link:
    """One wheel as an index lists it."""
    filename: str
    href: str  # absolute, or relative to <variant>/simple/<project>/
    sha256: str
    metadata_sha256: str
    requires_python: str


def project_name(wheel: str) -> str:
    return re.sub(r"[-_.]+", "-", wheel.split("-")[0]).lower()


def label(wheel: str) -> str:
    version = wheel.split("-")[1]
    return version.split("+", 1)[1] if "+" in version else ""


def sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def wheel_metadata(wheel_path: str) -> bytes:
    """The wheel's .dist-info/METADATA, the file PEP 658 serves beside it."""
    with zipfile.ZipFile(wheel_path) as z:
        name = next(n for n in z.namelist() if re.fullmatch(r"[^/]+\.dist-info/METADATA", n))
        return z.read(name)


def requires_python(metadata: bytes) -> str:
    headers = metadata.split(b"\n\n", 1)[0]
    m = re.search(rb"^Requires-Python: (.+)$", headers, re.M)
    return m.group(1).decode().strip() if m else ""


def _page(title: str, body: list[str]) -> str:
    return (f"<!DOCTYPE html>\n<html>\n  <body>\n    <h1>{html.escape(title)}</h1>\n"
            + "\n".join(body) + "\n  </body>\n</html>\n")


def _row(k: Link) -> str:
    attrs = ""
    if k.metadata_sha256:  # a wheel; other files (a variants json) have no metadata
        attrs = f' data-dist-info-metadata="sha256={k.metadata_sha256}" data-core-metadata="sha256={k.metadata_sha256}"'
    if k.requires_python:
        attrs += f' data-requires-python="{html.escape(k.requires_python)}"'
    return f'    <a href="{html.escape(k.href)}#sha256={k.sha256}"{attrs}>{html.escape(k.filename)}</a><br/>'


def write_simple(root: str, title: str, links: list[Link]) -> None:
    """One PEP 503 index at root (replaced): root/index.html and a page per project."""
    shutil.rmtree(root, ignore_errors=True)
    by_project: dict[str, list[Link]] = {}
    for link in sorted(links, key=lambda k: k.filename):
        by_project.setdefault(project_name(link.filename), []).append(link)
    for project, project_links in by_project.items():
        os.makedirs(os.path.join(root, project), exist_ok=True)
        with open(os.path.join(root, project, "index.html"), "w") as f:
            f.write(_page(f"Links for {project}", [_row(k) for k in project_links]))
    os.makedirs(root, exist_ok=True)
    with open(os.path.join(root, "index.html"), "w") as f:
        f.write(_page(title, [f'    <a href="{p}/">{p}</a><br/>' for p in sorted(by_project)]))


def write_pages(index_dir: str, links: list[Link], variants: list[str]) -> None:
    """The HTML of each variant's index (each variant folder is replaced)."""
    for variant in variants:
        write_simple(os.path.join(index_dir, variant, "simple"), variant,
                     [k for k in links if label(k.filename) == variant])


def local_link(path: str, href: str) -> Link:
    """A file of a self-contained index; a wheel gets its metadata file beside it (PEP 658)."""
    if not path.endswith(".whl"):
        return Link(os.path.basename(path), href, sha256(path), "", "")
    metadata = wheel_metadata(path)
    with open(path + ".metadata", "wb") as f:
        f.write(metadata)
    return Link(os.path.basename(path), href, sha256(path), hashlib.sha256(metadata).hexdigest(),
                requires_python(metadata))


def write(wheel_dir: str, index_dir: str, wheels: list[str], variants: list[str]) -> None:
    """A self-contained index: the wheels and their metadata under <variant>/files/."""
    links = []
    for variant in variants:
        files_dir = os.path.join(index_dir, variant, "files")
        shutil.rmtree(files_dir, ignore_errors=True)
        os.makedirs(files_dir)
        for w in sorted(set(wheels)):
            if label(w) != variant:
                continue
            dst = shutil.copy(os.path.join(wheel_dir, w), files_dir)
            links.append(local_link(dst, f"../../files/{w}"))
    write_pages(index_dir, links, variants)


if __name__ == "__main__":
    import sys

    if len(sys.argv) != 3:
        sys.exit("usage: python -m ci index WHEEL_DIR INDEX_DIR")
    wheel_dir, index_dir = sys.argv[1], sys.argv[2]
    found = sorted(w for w in os.listdir(wheel_dir) if w.endswith(".whl"))
    write(wheel_dir, index_dir, found, sorted({label(w) for w in found}))
    print(f"{len(found)} wheels indexed under {index_dir}")
