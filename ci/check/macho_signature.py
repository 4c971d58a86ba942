"""Checks a thin 64-bit Mach-O file's embedded code signature, as macOS does
before it maps an arm64 binary: every page hash of the CodeDirectory must
match the file, and so must the hashes of the blobs it lists (requirements,
entitlements). No Apple tool is needed: the format is public (Apple's
TN3126, "Inside Code Signing: Hashes").

    python -m ci macho-signature FILE...    # prints each file's state; exit 1 if one is invalid

check_wheel.py calls `signature_problem`; ci/repair/macos_tools/codesign answers
delocate's `codesign --verify` with it.
"""
from __future__ import annotations

import hashlib
import struct
import sys

MH_MAGIC_64 = 0xFEEDFACF
LC_CODE_SIGNATURE = 0x1D
CSMAGIC_EMBEDDED_SIGNATURE = 0xFADE0CC0
CSMAGIC_CODEDIRECTORY = 0xFADE0C02
CSSLOT_CODEDIRECTORY = 0
CS_ADHOC = 0x2
HASHES = {1: hashlib.sha1, 2: hashlib.sha256}
NOT_SIGNED = "code object is not signed at all"


def _code_signature_range(data: bytes) -> tuple[int, int] | None:
    magic, _cpu, _sub, _type, ncmds, _size, _flags, _reserved = struct.unpack_from("<8I", data, 0)
    if magic != MH_MAGIC_64:
        raise ValueError("not a thin 64-bit little-endian Mach-O file")
    offset = 32
    for _ in range(ncmds):
        cmd, cmdsize = struct.unpack_from("<2I", data, offset)
        if cmd == LC_CODE_SIGNATURE:
            dataoff, datasize = struct.unpack_from("<2I", data, offset + 8)
            return dataoff, datasize
        offset += cmdsize
    return None


def signature_problem(path: str, require_adhoc: bool = False) -> str | None:
    """None when the signature is whole and every hash matches; otherwise what is wrong
    (NOT_SIGNED when there is no signature at all)."""
    with open(path, "rb") as f:
        data = f.read()
    found = _code_signature_range(data)
    if found is None:
        return NOT_SIGNED
    dataoff, datasize = found
    if dataoff + datasize > len(data):
        return "the signature runs past the end of the file"
    magic, _length, count = struct.unpack_from(">3I", data, dataoff)
    if magic != CSMAGIC_EMBEDDED_SIGNATURE:
        return f"the signature is not an embedded signature (magic {magic:#x})"
    blobs = {}
    for i in range(count):
        slot, blob_offset = struct.unpack_from(">2I", data, dataoff + 12 + 8 * i)
        blobs[slot] = dataoff + blob_offset
    if CSSLOT_CODEDIRECTORY not in blobs:
        return "the signature has no CodeDirectory"
    cd = blobs[CSSLOT_CODEDIRECTORY]
    (cd_magic, _cd_length, _version, flags, hash_offset, _ident, n_special, n_code, code_limit, hash_size, hash_type,
     _platform, page_log2) = struct.unpack_from(">9I4B", data, cd)
    if cd_magic != CSMAGIC_CODEDIRECTORY:
        return "the CodeDirectory is malformed"
    if hash_type not in HASHES:
        return f"unknown hash type {hash_type}"
    if require_adhoc and not flags & CS_ADHOC:
        return "the signature is not ad hoc"
    if code_limit != dataoff:
        return f"the signature covers {code_limit} bytes, but the code runs to {dataoff}"
    digest = HASHES[hash_type]
    page = 1 << page_log2 if page_log2 else code_limit
    expected_slots = (code_limit + page - 1) // page if page else 0
    if n_code != expected_slots:
        return f"the CodeDirectory hashes {n_code} pages of {expected_slots}"
    for i in range(n_code):
        chunk = data[i * page:min((i + 1) * page, code_limit)]
        stored = data[cd + hash_offset + i * hash_size:cd + hash_offset + (i + 1) * hash_size]
        if digest(chunk).digest()[:hash_size] != stored:
            return f"page {i} (bytes {i * page}-{i * page + len(chunk)}) does not match its hash"
    # Special slots hash other blobs of the signature (slot -n is just before hashOffset).
    for n in range(1, n_special + 1):
        stored = data[cd + hash_offset - n * hash_size:cd + hash_offset - (n - 1) * hash_size]
        if not any(stored) or n not in blobs:
            continue
        _blob_magic, blob_length = struct.unpack_from(">2I", data, blobs[n])
        if digest(data[blobs[n]:blobs[n] + blob_length]).digest()[:hash_size] != stored:
            return f"the hash of special slot {n} does not match its blob"
    return None


def main(argv: list[str]) -> int:
    bad = 0
    for path in argv:
        problem = signature_problem(path)
        print(f"{path}: {problem or 'valid signature'}")
        bad += problem is not None
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
