"""Wheel variants (WheelNext's proposal, PEP 817/825 drafts, as PyTorch
publishes them since 2.8): one index from which a variant-aware installer
picks cpu, cu126 or cu130 by the machine's CUDA driver.

    python -m ci variants make WHEEL_DIR OUT_DIR       # each torch wheel's variant form and variants json, checked
    python -m ci variants index WHEEL_DIR INDEX_DIR    # the variant index of those wheels (the factory's)
    python -m ci variants check DIR                    # every variant wheel against its plain wheel and the json

wheels.yml runs `make` after each build job's cibuildwheel (the variant
files go up with the plain wheels); the release publishes them as Release
assets and `ci/publish/release.py index` links them from the Pages site's
variants/simple.

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
ci/tests/publish/test_variants.py with the forced driver versions uv reads from
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

from ci.plan import matrix as build_matrix
from ci.publish import index as wheel_index

SCHEMA = "https://variants-schema.wheelnext.dev/v0.2.0.json"
# The provider uv builds in (its plugin package on PyPI is a placeholder; nothing is installed or run).
PROVIDERS = {"nvidia": {"plugin-api": "nvidia_variant_provider.plugin:NvidiaVariantPlugin",
                        "requires": ["nvidia-variant-provider"]}}
DEFAULT_PRIORITIES = {"namespace": ["nvidia"]}
NULL_LABEL = "null"
# The variant index's folder beside the per-variant ones: wheelhouse/index/variants/, the Pages site's variants/.
INDEX_NAME = "variants"


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


def is_variant_wheel(name: str) -> bool:
    """A variant wheel's name has a sixth part, its label (wheels here carry no build tag)."""
    return name.endswith(".whl") and len(os.path.basename(name)[: -len(".whl")].split("-")) == 6


def plain_wheels(directory: str, project: str = "torch") -> list[str]:
    """The file names of the plain (not variant) wheels of `project` in directory."""
    return sorted(w for w in os.listdir(directory) if w.endswith(".whl") and not is_variant_wheel(w)
                  and wheel_index.project_name(w) == project)


def null_variant(matrix: dict, label: str) -> bool:
    """A variant without properties: installers take it where nothing better fits."""
    return not _spec(matrix, label)


def _spec(matrix: dict, label: str) -> list[str]:
    variant = matrix["variants"].get(label)
    if variant is None or "variant_properties" not in variant:
        raise ValueError(f"variant {label!r} has no variant_properties in ci/matrix.toml")
    return variant["variant_properties"]


def make_variants(wheel_dir: str, wheels: list[str], matrix: dict, out_dir: str) -> tuple[list[str], list[str]]:
    """The variant form of each of `wheels` (plain files in wheel_dir) and each version's
    variants json, written into out_dir (which may be wheel_dir): (variant wheels, json files)."""
    made, groups = [], {}
    for w in sorted(set(wheels)):
        spec = _spec(matrix, wheel_index.label(w))
        vlabel = NULL_LABEL if not spec else wheel_index.label(w)
        made.append(make_variant(os.path.join(wheel_dir, w), vlabel, properties(spec), out_dir))
        groups.setdefault(variants_file(w), {})[vlabel] = properties(spec)
    written = []
    for json_name, entries in sorted(groups.items()):
        document = {"$schema": SCHEMA, "default-priorities": DEFAULT_PRIORITIES, "providers": PROVIDERS,
                    "variants": dict(sorted(entries.items()))}
        written.append(os.path.join(out_dir, json_name))
        with open(written[-1], "w") as f:
            json.dump(document, f, indent=4)
            f.write("\n")
    return made, written


def index_files(names: list[str], matrix: dict) -> list[str]:
    """Which of a folder's file names the variant index links: the variant wheels, the variants
    json files, and the plain wheels of the null variant (what pip and uv without the preview take)."""
    return sorted(n for n in names if is_variant_wheel(n) or n.endswith("-variants.json")
                  or (n.endswith(".whl") and wheel_index.label(n) in matrix["variants"]
                      and null_variant(matrix, wheel_index.label(n))))


def write_index(wheel_dir: str, index_dir: str, wheels: list[str], matrix: dict) -> list[str]:
    """The variant index of `wheels` (plain files in wheel_dir) under index_dir; the variant wheels made."""
    files_dir = os.path.join(index_dir, "files")
    shutil.rmtree(index_dir, ignore_errors=True)
    os.makedirs(files_dir)
    made, _ = make_variants(wheel_dir, wheels, matrix, files_dir)
    for w in sorted(set(wheels)):
        if null_variant(matrix, wheel_index.label(w)):
            shutil.copy(os.path.join(wheel_dir, w), files_dir)
    links = [wheel_index.local_link(os.path.join(files_dir, n), f"../../files/{n}")
             for n in index_files(os.listdir(files_dir), matrix)]
    wheel_index.write_simple(os.path.join(index_dir, "simple"), "variants", links)
    return made


def check(files_dir: str) -> list[str]:
    """Problems with a folder of variant wheels (an index's files/, a release's): a variant wheel whose label,
    variant.json, RECORD or code disagree with its json entry or its plain wheel (when the folder holds it),
    a plain wheel without its variant form. Empty when all is well."""
    problems = []
    names = sorted(os.listdir(files_dir))
    for name in names:
        if name.endswith(".whl") and not is_variant_wheel(name) and wheel_index.project_name(name) == "torch" \
                and not any(n.startswith(name[: -len(".whl")] + "-") and is_variant_wheel(n) for n in names):
            problems.append(f"{name} has no variant form beside it (python3 -m ci variants make)")
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
    if len(argv) == 3 and argv[0] in ("index", "make"):
        wheel_dir, out_dir = argv[1], argv[2]
        wheels, matrix = plain_wheels(wheel_dir), build_matrix.load()
        if not wheels:
            print(f"no torch wheels in {wheel_dir}", file=sys.stderr)
            return 1
        if argv[0] == "index":
            made = write_index(wheel_dir, out_dir, wheels, matrix)
            print(f"{len(made)} variant wheels indexed under {out_dir}")
            return 0
        os.makedirs(out_dir, exist_ok=True)
        made, jsons = make_variants(wheel_dir, wheels, matrix, out_dir)
        for path in made + jsons:
            print(path)
        argv = ["check", out_dir]
    if len(argv) == 2 and argv[0] == "check":
        problems = check(argv[1])
        for p in problems:
            print(p, file=sys.stderr)
        return 1 if problems else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
