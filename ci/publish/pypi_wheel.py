"""A variant wheel as PyPI takes it: the project's PyPI name and no local
version label (torch-2.13.0.1+cpu-cp311-... -> torch_wheelforge-2.13.0.1-cp311-...).

PyPI refuses local versions, and its `torch` belongs to PyTorch, so the
release publishes the cpu wheels under ci/matrix.toml's [names] pypi; the
per-variant indexes keep the originals. Inside, the package is the same
`torch` and still reports its variant (torch.__version__ == "2.13.0.1+cpu"), as
PyTorch's PyPI wheels do. The dist-info directory, METADATA's Name and
Version, and RECORD (with fresh hashes) are rewritten; nothing else changes.

    python -m ci pypi-wheel NAME OUT_DIR WHEEL...
"""
from __future__ import annotations

import base64
import hashlib
import os
import re
import sys
import zipfile


def wheel_stem(name: str) -> str:
    """The distribution name as wheel file names and dist-info directories spell it (PEP 427)."""
    return re.sub(r"[-_.]+", "_", name).lower()


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _set_header(metadata: bytes, header: str, value: str, wheel: str) -> bytes:
    data, n = re.subn(rb"^" + header.encode() + rb": .*$", f"{header}: {value}".encode(), metadata, count=1,
                      flags=re.M)
    if n != 1:
        sys.exit(f"pypi_wheel: {wheel} has no {header} in METADATA")
    return data


def to_pypi(wheel: str, name: str, out_dir: str) -> str:
    """Writes `wheel` renamed to `name` without its local label into out_dir; returns the new path."""
    base = os.path.basename(wheel)
    parts = base[: -len(".whl")].split("-")
    dist, version = parts[0], parts[1]
    public = version.split("+", 1)[0]
    old_info, new_info = f"{dist}-{version}.dist-info", f"{wheel_stem(name)}-{public}.dist-info"
    target = os.path.join(out_dir, "-".join([wheel_stem(name), public, *parts[2:]]) + ".whl")
    records = []
    with zipfile.ZipFile(wheel) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            path = item.filename
            if path.startswith(old_info + "/"):
                path = new_info + path[len(old_info):]
            if path == f"{new_info}/RECORD":
                continue
            data = zin.read(item.filename)
            if path == f"{new_info}/METADATA":
                data = _set_header(_set_header(data, "Name", name, base), "Version", public, base)
            info = zipfile.ZipInfo(path, item.date_time)
            info.external_attr = item.external_attr
            info.compress_type = zipfile.ZIP_DEFLATED
            zout.writestr(info, data)
            records.append(f"{path},{_record_hash(data)},{len(data)}")
        records.append(f"{new_info}/RECORD,,")
        zout.writestr(f"{new_info}/RECORD", "\n".join(records) + "\n")
    return target


def main(argv: list[str]) -> int:
    if len(argv) < 3:
        sys.exit(__doc__)
    name, out_dir = argv[0], argv[1]
    os.makedirs(out_dir, exist_ok=True)
    for wheel in argv[2:]:
        print(f"{os.path.basename(wheel)} -> {os.path.basename(to_pypi(wheel, name, out_dir))}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
