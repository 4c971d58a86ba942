"""pypi_wheel.py WHEEL...: rewrites variant wheels (torch-0.1.0+cpu-...) in
place as PyPI accepts them, without the local version label (torch-0.1.0-...).

PyPI refuses local versions, so release.yml publishes the cpu wheels this way;
the per-variant indexes keep the labelled originals. Inside, the package still
reports its variant (torch.__version__ == "0.1.0+cpu"), as PyTorch's PyPI
wheels do. The dist-info directory, METADATA's Version and RECORD (with fresh
hashes) are rewritten; nothing else changes.
"""
from __future__ import annotations

import base64
import hashlib
import os
import re
import sys
import zipfile


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def strip_local_version(wheel: str) -> str:
    """Writes the relabelled wheel beside `wheel`, removes the original, returns the new path."""
    directory, name = os.path.split(wheel)
    parts = name[: -len(".whl")].split("-")
    dist, version = parts[0], parts[1]
    public = version.split("+", 1)[0]
    if public == version:
        return wheel
    old_info, new_info = f"{dist}-{version}.dist-info", f"{dist}-{public}.dist-info"
    target = os.path.join(directory, "-".join([dist, public, *parts[2:]]) + ".whl")
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
                data, n = re.subn(rb"^Version: .*$", b"Version: " + public.encode(), data, count=1, flags=re.M)
                if n != 1:
                    sys.exit(f"pypi_wheel: {name} has no Version in METADATA")
            info = zipfile.ZipInfo(path, item.date_time)
            info.external_attr = item.external_attr
            info.compress_type = zipfile.ZIP_DEFLATED
            zout.writestr(info, data)
            records.append(f"{path},{_record_hash(data)},{len(data)}")
        records.append(f"{new_info}/RECORD,,")
        zout.writestr(f"{new_info}/RECORD", "\n".join(records) + "\n")
    os.remove(wheel)
    return target


def main(argv: list[str]) -> int:
    if not argv:
        sys.exit(__doc__)
    for wheel in argv:
        print(f"{os.path.basename(wheel)} -> {os.path.basename(strip_local_version(wheel))}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
