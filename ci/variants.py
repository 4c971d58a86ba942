"""Wheel variants (WheelNext's proposal, PEP 817/825 drafts, as PyTorch
publishes them since 2.8): one index from which a variant-aware installer
picks cpu, cu126 or cu130 by the machine's CUDA driver.

    python ci/variants.py index WHEELHOUSE INDEX_DIR   # the variant index of WHEELHOUSE's torch wheels
    python ci/variants.py check INDEX_DIR              # every variant wheel against its plain wheel and the json

A variant wheel is the plain wheel with `<dist-info>/variant.json` added
(and RECORD updated), named with its label as the last component:
`torch-2.13.0.1+cu130-cp39-abi3-manylinux_2_28_x86_64-cu130.whl`. Its code is
byte-identical to the plain wheel's. The labels and properties come from
ci/matrix.toml (`variant_properties`): cpu is the null variant (no
property: chosen where nothing better fits), cu126 asks for a driver of
CUDA 12.6 or newer and below 13, cu130 for 13.0 or newer. uv has the
`nvidia` provider built in and runs no plugin code; `sm_arch` is left out,
since it would make a machine whose GPU uv cannot query fall back to cpu.

The index (INDEX_DIR/simple/torch/) links the variant wheels, the plain cpu
wheels (what pip and installers without variant support take) and, per
version, `torch-<version>-variants.json`, which uv needs before it looks at
a variant wheel. Each variant keeps its local version label (2.13.0.1+cu130),
so there is one json per variant version; uv 0.13.9 takes the newest version
whose variant the machine supports, then falls back (tested in
ci/tests/test_variants.py with the forced driver versions uv reads from
NV_VARIANT_PROVIDER_FORCE_CUDA_DRIVER_VERSION).
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import matrix as build_matrix  # noqa: E402
import wheel_index  # noqa: E402

SCHEMA = "https://variants-schema.wheelnext.dev/v0.2.0.json"
# The provider uv builds in (its plugin package on PyPI is a placeholder; nothing is installed or run).
PROVIDERS = {"nvidia": {"plugin-api": "nvidia_variant_provider.plugin:NvidiaVariantPlugin",
                        "requires": ["nvidia-variant-provider"]}}
DEFAULT_PRIORITIES = {"namespace": ["nvidia"]}
NULL_LABEL = "null"


def properties(spec: list[str]) -> dict[str, dict[str, list[str]]]:
    """["nvidia :: cuda_version_lower_bound :: 13.0", ...] as variant.json nests them."""
    nested: dict[str, dict[str, list[str]]] = {}
    for item in spec:
        parts = [p.strip() for p in item.split("::")]
        if len(parts) != 3 or not all(parts):
            raise ValueError(f"variant property {item!r} is not 'namespace :: feature :: value'")
        namespace, feature, value = parts
        if namespace not in PROVIDERS:
            raise ValueError(f"variant property {item!r}: no provider for namespace {namespace!r}")
        nested.setdefault(namespace, {}).setdefault(feature, []).append(value)
    return nested


def variant_json(label: str, props: dict) -> dict:
    return {"$schema": SCHEMA, "default-priorities": DEFAULT_PRIORITIES, "providers": PROVIDERS,
            "variants": {label: props}}


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def dist_info(names: list[str]) -> str:
    dirs = {n.split("/", 1)[0] for n in names if re.fullmatch(r"[^/]+\.dist-info/METADATA", n)}
    if len(dirs) != 1:
        raise ValueError(f"a wheel needs exactly one .dist-info with METADATA, found {sorted(dirs)}")
    return dirs.pop()


def variant_name(wheel: str, label: str) -> str:
    return f"{wheel[:-len('.whl')]}-{label}.whl"


def make_variant(wheel_path: str, label: str, props: dict, out_dir: str) -> str:
    """The variant form of a wheel in out_dir: its members as they are, variant.json added, RECORD rewritten."""
    os.makedirs(out_dir, exist_ok=True)
    target = os.path.join(out_dir, variant_name(os.path.basename(wheel_path), label))
    payload = (json.dumps(variant_json(label, props), indent=4) + "\n").encode()
    with zipfile.ZipFile(wheel_path) as src, zipfile.ZipFile(target, "w") as dst:
        info_dir = dist_info(src.namelist())
        record_name, variant_file = f"{info_dir}/RECORD", f"{info_dir}/variant.json"
        if variant_file in src.namelist():
            raise ValueError(f"{wheel_path} is already a variant wheel")
        for item in src.infolist():
            if item.filename != record_name:
                dst.writestr(item, src.read(item.filename))
        dst.writestr(zipfile.ZipInfo(variant_file, date_time=(1980, 1, 1, 0, 0, 0)), payload,
                     compress_type=zipfile.ZIP_DEFLATED)
        record = [line for line in src.read(record_name).decode().splitlines()
                  if line and not line.startswith(record_name + ",")]
        record += [f"{variant_file},{_record_hash(payload)},{len(payload)}", f"{record_name},,"]
        record_info = src.getinfo(record_name)
        dst.writestr(record_info, ("\n".join(record) + "\n").encode())
    return target


def read_variant(wheel_path: str) -> dict:
    with zipfile.ZipFile(wheel_path) as z:
        return json.loads(z.read(f"{dist_info(z.namelist())}/variant.json"))


def wheel_version(wheel: str) -> tuple[str, str]:
    """(distribution, version) of a wheel file name, variant or not."""
    name, version = os.path.basename(wheel).split("-")[:2]
    return name, version


def variants_file(wheel: str) -> str:
    name, version = wheel_version(wheel)
    return f"{name}-{version}-variants.json"


def write_index(wheel_dir: str, index_dir: str, wheels: list[str], matrix: dict) -> list[str]:
    """The variant index of `wheels` (plain files in wheel_dir) under index_dir; the variant wheels made."""
    files_dir = os.path.join(index_dir, "files")
    shutil.rmtree(index_dir, ignore_errors=True)
    os.makedirs(files_dir)
    made, plain, groups = [], [], {}
    for w in sorted(set(wheels)):
        label = wheel_index.label(w)
        variant = matrix["variants"].get(label)
        if variant is None or "variant_properties" not in variant:
            raise ValueError(f"{w}: variant {label!r} has no variant_properties in ci/matrix.toml")
        spec = variant["variant_properties"]
        vlabel = NULL_LABEL if not spec else label
        made.append(make_variant(os.path.join(wheel_dir, w), vlabel, properties(spec), files_dir))
        groups.setdefault(variants_file(w), {})[vlabel] = properties(spec)
        if not spec:  # the null variant's plain wheel: what installers without variant support take
            plain.append(shutil.copy(os.path.join(wheel_dir, w), files_dir))
    for json_name, entries in groups.items():
        document = {"$schema": SCHEMA, "default-priorities": DEFAULT_PRIORITIES, "providers": PROVIDERS,
                    "variants": dict(sorted(entries.items()))}
        with open(os.path.join(files_dir, json_name), "w") as f:
            json.dump(document, f, indent=4)
            f.write("\n")
    _write_pages(index_dir, made + plain, sorted(groups))
    return made


def _write_pages(index_dir: str, wheel_paths: list[str], json_names: list[str]) -> None:
    by_project: dict[str, list[str]] = {}
    for path in wheel_paths:
        by_project.setdefault(wheel_index.project_name(os.path.basename(path)), []).append(path)
    for json_name in json_names:
        by_project.setdefault(wheel_index.project_name(json_name), [])
    root = os.path.join(index_dir, "simple")
    for project, paths in by_project.items():
        rows = []
        for path in sorted(paths):
            name = os.path.basename(path)
            metadata = wheel_index.wheel_metadata(path)
            with open(path + ".metadata", "wb") as f:
                f.write(metadata)
            meta_hash = hashlib.sha256(metadata).hexdigest()
            attrs = f' data-dist-info-metadata="sha256={meta_hash}" data-core-metadata="sha256={meta_hash}"'
            if wheel_index.requires_python(metadata):
                attrs += f' data-requires-python="{wheel_index.html.escape(wheel_index.requires_python(metadata))}"'
            rows.append(f'    <a href="../../files/{name}#sha256={wheel_index.sha256(path)}"{attrs}>{name}</a><br/>')
        for json_name in json_names:
            if wheel_index.project_name(json_name) == project:
                digest = wheel_index.sha256(os.path.join(index_dir, "files", json_name))
                rows.append(f'    <a href="../../files/{json_name}#sha256={digest}">{json_name}</a><br/>')
        os.makedirs(os.path.join(root, project), exist_ok=True)
        with open(os.path.join(root, project, "index.html"), "w") as f:
            f.write(wheel_index._page(f"Links for {project}", rows))
    with open(os.path.join(root, "index.html"), "w") as f:
        f.write(wheel_index._page("variants", [f'    <a href="{p}/">{p}</a><br/>' for p in sorted(by_project)]))


def check(index_dir: str) -> list[str]:
    """Problems with an index: a variant wheel whose label, variant.json, RECORD or code disagree with its json
    entry or its plain wheel (when the index holds it). Empty when all is well."""
    files_dir = os.path.join(index_dir, "files")
    problems = []
    names = sorted(os.listdir(files_dir))
    for name in names:
        path = os.path.join(files_dir, name)
        if not name.endswith(".whl"):
            continue
        with zipfile.ZipFile(path) as z:
            if not any(n.endswith(".dist-info/variant.json") for n in z.namelist()):
                continue  # a plain wheel
        label = name[:-4].rsplit("-", 1)[1]
        try:
            inner = read_variant(path)
            with open(os.path.join(files_dir, variants_file(name))) as f:
                listed = json.load(f)["variants"]
        except (KeyError, OSError, ValueError) as e:
            problems.append(f"{name}: {type(e).__name__}: {e}")
            continue
        if list(inner["variants"]) != [label] or listed.get(label) != inner["variants"][label]:
            problems.append(f"{name}: variant.json {inner['variants']} disagrees with its label or "
                            f"{variants_file(name)} ({listed.get(label)})")
        with zipfile.ZipFile(path) as z:
            info_dir = dist_info(z.namelist())
            record = {line.rsplit(",", 2)[0]: line.rsplit(",", 2)[1]
                      for line in z.read(f"{info_dir}/RECORD").decode().splitlines() if line}
            for member in z.namelist():
                if member.endswith("/"):
                    continue  # a directory entry (auditwheel writes them): RECORD lists files only
                if member != f"{info_dir}/RECORD" and record.get(member) != _record_hash(z.read(member)):
                    problems.append(f"{name}: RECORD does not match {member}")
            plain_name = name[: -len(f"-{label}.whl")] + ".whl"
            if plain_name in names:
                with zipfile.ZipFile(os.path.join(files_dir, plain_name)) as p:
                    for member in p.namelist():
                        if not member.startswith(info_dir + "/") and p.read(member) != z.read(member):
                            problems.append(f"{name}: {member} differs from the plain wheel's")
    return problems


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[0] == "index":
        wheel_dir, index_dir = argv[1], argv[2]
        wheels = sorted(w for w in os.listdir(wheel_dir) if w.endswith(".whl") and w.startswith("torch-"))
        made = write_index(wheel_dir, index_dir, wheels, build_matrix.load())
        print(f"{len(made)} variant wheels indexed under {index_dir}")
        return 0
    if len(argv) == 2 and argv[0] == "check":
        problems = check(argv[1])
        for p in problems:
            print(p, file=sys.stderr)
        return 1 if problems else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
