"""A PEP 503 "simple" index per variant, for wheels in one directory.

index/<variant>/simple/index.html            lists the projects
index/<variant>/simple/<project>/index.html  links each wheel with its sha256
                                             fragment and data-requires-python,
                                             plus data-dist-info-metadata for the
                                             PEP 658 <wheel>.metadata file beside it
The wheels of a variant are those whose local version label is the variant
(torch-0.1.0+cpu-...). Links are relative, so the tree can be served anywhere
(GitHub Pages) or used as file:// URLs.
"""
from __future__ import annotations

import hashlib
import html
import os
import re
import shutil
import zipfile


def project_name(wheel: str) -> str:
    return re.sub(r"[-_.]+", "-", wheel.split("-")[0]).lower()


def _label(wheel: str) -> str:
    version = wheel.split("-")[1]
    return version.split("+", 1)[1] if "+" in version else ""


def sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _metadata(wheel_path: str) -> tuple[bytes, str]:
    """The wheel's METADATA file and its Requires-Python."""
    with zipfile.ZipFile(wheel_path) as z:
        name = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
        data = z.read(name)
    m = re.search(rb"^Requires-Python: (.+)$", data, re.M)
    return data, (m.group(1).decode().strip() if m else "")


def write(wheel_dir: str, index_dir: str, wheels: list[str], variants: list[str]) -> None:
    for variant in variants:
        root = os.path.join(index_dir, variant, "simple")
        shutil.rmtree(os.path.join(index_dir, variant), ignore_errors=True)
        by_project: dict[str, list[str]] = {}
        for w in sorted(set(wheels)):
            if _label(w) == variant:
                by_project.setdefault(project_name(w), []).append(w)
        files_dir = os.path.join(index_dir, variant, "files")
        os.makedirs(files_dir, exist_ok=True)
        for project, files in by_project.items():
            pdir = os.path.join(root, project)
            os.makedirs(pdir, exist_ok=True)
            links = []
            for w in files:
                src = os.path.join(wheel_dir, w)
                dst = os.path.join(files_dir, w)
                shutil.copy(src, dst)
                metadata, requires_python = _metadata(dst)
                with open(dst + ".metadata", "wb") as f:
                    f.write(metadata)
                meta_hash = hashlib.sha256(metadata).hexdigest()
                attrs = f' data-dist-info-metadata="sha256={meta_hash}" data-core-metadata="sha256={meta_hash}"'
                if requires_python:
                    attrs += f' data-requires-python="{html.escape(requires_python)}"'
                links.append(f'    <a href="../../files/{w}#sha256={sha256(dst)}"{attrs}>{w}</a><br/>')
            with open(os.path.join(pdir, "index.html"), "w") as f:
                f.write(f"<!DOCTYPE html>\n<html>\n  <body>\n    <h1>Links for {project}</h1>\n"
                        + "\n".join(links) + "\n  </body>\n</html>\n")
        os.makedirs(root, exist_ok=True)
        with open(os.path.join(root, "index.html"), "w") as f:
            items = "\n".join(f'    <a href="{p}/">{p}</a><br/>' for p in sorted(by_project))
            f.write(f"<!DOCTYPE html>\n<html>\n  <body>\n{items}\n  </body>\n</html>\n")


if __name__ == "__main__":
    import sys

    if len(sys.argv) != 3:
        sys.exit("usage: python ci/wheel_index.py WHEEL_DIR INDEX_DIR")
    wheel_dir, index_dir = sys.argv[1], sys.argv[2]
    found = sorted(w for w in os.listdir(wheel_dir) if w.endswith(".whl"))
    write(wheel_dir, index_dir, found, sorted({_label(w) for w in found}))
    print(f"{len(found)} wheels indexed under {index_dir}")
