"""What a repaired wheel must say about the third-party code it carries.

    python -m ci notices WHEEL          # adds them to WHEEL (ci/repair/wheel.py, after the repair tool)
    python -m ci notices --check WHEEL  # every bundled binary is covered (ci/check/wheel.py)

From the wheel itself, after repair, so that what was bundled is what is
described: every binary that is not the project's must match a component of
third_party/bundled.toml (else it fails, naming the binary), and a zig build
(macOS, Windows) statically carries zig's runtimes. For those components the
wheel gets

- .dist-info/licenses/THIRD_PARTY_NOTICES.txt: each component, its version,
  SPDX licence, the files of this wheel that hold it, and its licence texts
  (installed by the build: third_party/licenses.cmake), listed in METADATA
  as a License-File (PEP 639);
- .dist-info/sboms/third-party.cdx.json: a CycloneDX 1.4 SBOM of them (PEP
  770), on every platform; auditwheel's own SBOM of what it grafted stays
  beside it on Linux, and delocate and delvewheel write none.
"""
from __future__ import annotations

import base64
import fnmatch
import hashlib
import json
import os
import re
import sys
import tempfile
import urllib.parse
import zipfile

from ci.proc import ROOT

try:
    import tomllib
except ModuleNotFoundError:  # Python < 3.11: requirements-build.txt installs tomli
    import tomli as tomllib

BUNDLED = os.path.join(ROOT, "third_party", "bundled.toml")
NOTICES = "THIRD_PARTY_NOTICES.txt"
SBOM = "third-party.cdx.json"
BINARY = re.compile(r"(\.so(\.[0-9]+)*|\.dylib|\.dll|\.pyd)$")


class NoticeError(Exception):
    """The wheel carries something this script cannot describe."""


def load(path: str = BUNDLED) -> dict:
    with open(path, "rb") as f:
        return tomllib.load(f)


def wheel_os(wheel: str) -> str:
    name = os.path.basename(wheel)
    if "-macosx_" in name:
        return "macos"
    if re.search(r"-win_(amd64|arm64)\.whl$", name):
        return "windows"
    return "linux"


def _matches(path: str, patterns: list[str]) -> bool:
    return any(fnmatch.fnmatch(path, p) for p in patterns)


def bundled(names: list[str], os_name: str, table: dict) -> dict[str, list[str]]:
    """{component: the wheel's files that hold it}; raises naming a binary no entry covers."""
    own = [n for n in names if BINARY.search(n) and _matches(n, table["project"]["binaries"])]
    found: dict[str, list[str]] = {}
    unknown = []
    for n in names:
        if not BINARY.search(n) or n in own:
            continue
        ids = [cid for cid, c in table["components"].items() if _matches(n, c.get("binaries", []))]
        if not ids:
            unknown.append(n)
        for cid in ids:
            found.setdefault(cid, []).append(n)
    if unknown:
        raise NoticeError(f"the wheel carries {', '.join(unknown)}, which is neither the project's nor a component of "
                          f"third_party/bundled.toml: add it there, with its licence text (third_party/licenses.cmake)")
    for cid, c in table["components"].items():
        if os_name in c.get("static_in", []):
            found[cid] = sorted(own)
    return dict(sorted(found.items()))


def _grafted_versions(z: zipfile.ZipFile, names: list[str]) -> dict[str, str]:
    """{package name: version} of what auditwheel's SBOM says it grafted."""
    found = {}
    for n in names:
        if re.fullmatch(r"[^/]+\.dist-info/sboms/auditwheel\.cdx\.json", n):
            for c in json.loads(z.read(n)).get("components", []):
                found[c.get("name", "")] = c.get("version", "")
    return found


def describe(wheel: str, table: dict | None = None) -> list[dict]:
    """Each bundled component: id, name, version, license, files, texts, purl."""
    table = table or load()
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        grafted = _grafted_versions(z, names)
        out = []
        for cid, files in bundled(names, wheel_os(wheel), table).items():
            c = table["components"][cid]
            missing = [t for t in c["texts"] + [c.get("version_file") or c["texts"][0]] if t not in names]
            if missing:
                raise NoticeError(f"{cid}: {', '.join(missing)} is not in the wheel (third_party/licenses.cmake "
                                  f"installs the licence texts and versions)")
            texts = [(t, z.read(t).decode("utf-8", errors="replace")) for t in c["texts"]]
            if c.get("text_must_contain") and not any(c["text_must_contain"] in t for _, t in texts):
                raise NoticeError(f"{cid}: {', '.join(c['texts'])} do not contain {c['text_must_contain']!r}")
            if c.get("version_file"):
                version = z.read(c["version_file"]).decode().strip()
            else:  # grafted by the repair tool: its SBOM says which
                version = next((v for k, v in grafted.items() if cid.replace("lib", "", 1) in k), "")
            quoted = urllib.parse.quote(version, safe="")
            purl = c["purl"].format(version=quoted)
            if "{version}" not in c["purl"] and version:
                purl += "@" + quoted
            out.append({"id": cid, "name": c["name"], "version": version, "license": c["license"],
                        "files": files, "texts": texts, "purl": purl})
    return out


def notices(dist: str, version: str, components: list[dict]) -> str:
    lines = [f"Third-party code in this {dist} {version} wheel", "",
             f"The project's own licence is LICENSE. This wheel also carries the following, each under its licence, "
             f"whose text follows. (Written by ci/repair/notices.py from what the repaired wheel holds.)", ""]
    for c in components:
        lines += [f"- {c['name']} {c['version']}".rstrip(), f"  License: {c['license']}",
                  f"  In: {', '.join(c['files'])}", ""]
    texts: dict[str, tuple[list[str], str]] = {}
    for c in components:
        for path, text in c["texts"]:
            texts.setdefault(path, ([], text))[0].append(c["name"])
    for path, (users, text) in texts.items():
        lines += ["=" * 78, f"{'; '.join(users)}: {path}", "=" * 78, "", text.rstrip(), ""]
    return "\n".join(lines) + "\n"


def sbom(wheel: str, dist: str, version: str, components: list[dict]) -> dict:
    me = f"pkg:pypi/{dist}@{urllib.parse.quote(version, safe='')}?file_name={urllib.parse.quote(os.path.basename(wheel))}"
    parts = [{"type": "library", "bom-ref": c["purl"] + "#" + c["id"], "name": c["id"], "version": c["version"],
              "description": c["name"], "purl": c["purl"], "licenses": [{"expression": c["license"]}]}
             for c in components]
    return {"bomFormat": "CycloneDX", "specVersion": "1.4", "version": 1,
            "metadata": {"component": {"type": "library", "bom-ref": me, "name": dist, "version": version, "purl": me},
                         "tools": [{"name": "ci/repair/notices.py"}]},
            "components": parts,
            "dependencies": [{"ref": me, "dependsOn": [p["bom-ref"] for p in parts]}]}


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _dist_info(names: list[str]) -> str:
    return next(n.split("/")[0] for n in names if re.fullmatch(r"[^/]+\.dist-info/METADATA", n))


def add(wheel: str) -> list[dict]:
    """Writes the notices, the SBOM and the License-File line into `wheel` (in place)."""
    components = describe(wheel)
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
    info = _dist_info(names)
    dist, version = info[: -len(".dist-info")].rsplit("-", 1)
    added = {f"{info}/licenses/{NOTICES}": notices(dist, version, components).encode(),
             f"{info}/sboms/{SBOM}": (json.dumps(sbom(wheel, dist, version, components), indent=1) + "\n").encode()}
    fd, tmp = tempfile.mkstemp(suffix=".whl", dir=os.path.dirname(os.path.abspath(wheel)))
    os.close(fd)
    records = []
    with zipfile.ZipFile(wheel) as zin, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            if item.filename == f"{info}/RECORD" or item.filename in added:
                continue
            data = zin.read(item.filename)
            if item.filename == f"{info}/METADATA":
                data = _with_license_file(data)
            copy = zipfile.ZipInfo(item.filename, item.date_time)
            copy.external_attr, copy.compress_type = item.external_attr, zipfile.ZIP_DEFLATED
            zout.writestr(copy, data)
            if not item.filename.endswith("/"):
                records.append(f"{item.filename},{_record_hash(data)},{len(data)}")
        # Dated as the wheel's METADATA (SOURCE_DATE_EPOCH's date in a reproducible build).
        stamp = zin.getinfo(f"{info}/METADATA").date_time
        for path, data in added.items():
            zout.writestr(zipfile.ZipInfo(path, stamp), data, zipfile.ZIP_DEFLATED)
            records.append(f"{path},{_record_hash(data)},{len(data)}")
        records.append(f"{info}/RECORD,,")
        zout.writestr(f"{info}/RECORD", "\n".join(records) + "\n")
    os.replace(tmp, wheel)
    return components


def _with_license_file(metadata: bytes) -> bytes:
    head, sep, body = metadata.partition(b"\n\n")
    line = f"License-File: {NOTICES}".encode()
    if line in head.split(b"\n"):
        return metadata
    lines = head.split(b"\n")
    last = max((i for i, k in enumerate(lines) if k.startswith(b"License-File: ")), default=len(lines) - 1)
    lines.insert(last + 1, line)
    return b"\n".join(lines) + sep + body


def problems(wheel: str) -> list[str]:
    """What --check finds wrong: the notices and the SBOM must cover every bundled component."""
    try:
        components = describe(wheel)
    except NoticeError as e:
        return [str(e)]
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        info = _dist_info(names)
        found = []
        try:
            text = z.read(f"{info}/licenses/{NOTICES}").decode()
            bom = json.loads(z.read(f"{info}/sboms/{SBOM}"))
        except KeyError as e:
            return [f"no {e.args[0].split()[-1] if e.args else 'notice'}: run `python3 -m ci notices WHEEL` after the repair"]
        head = z.read(f"{info}/METADATA").decode().split("\n\n", 1)[0]
    if f"License-File: {NOTICES}" not in head.splitlines():
        found.append(f"METADATA does not list License-File: {NOTICES}")
    listed = {c.get("name") for c in bom.get("components", [])}
    for c in components:
        if f"- {c['name']}" not in text or any(f not in text for f in c["files"]):
            found.append(f"{NOTICES} does not describe {c['id']} ({', '.join(c['files'])})")
        if c["id"] not in listed:
            found.append(f"{SBOM} does not list {c['id']}")
    return found


def main(argv: list[str]) -> int:
    check = argv[:1] == ["--check"]
    args = argv[1:] if check else argv
    if len(args) != 1:
        sys.exit(__doc__)
    if check:
        found = problems(args[0])
        if found:
            sys.exit("third_party_notices: " + "\n".join(found))
        print(f"third-party notices and SBOM cover every bundled component: {', '.join(c['id'] for c in describe(args[0]))}")
        return 0
    try:
        components = add(args[0])
    except NoticeError as e:
        sys.exit(f"third_party_notices: {e}")
    print(f"third-party notices: {', '.join(c['id'] + ' ' + c['version'] for c in components)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
