"""Reads which GPU architectures a CUDA library carries code for, from its
.nv_fatbin ELF section, without the CUDA toolkit's cuobjdump (which has no
PyPI wheel). Each fat binary is a 16-byte header (magic 0xBA55ED50) and
entries whose headers give the kind (1: PTX, 2: ELF/SASS) and the sm number."""
from __future__ import annotations

import struct

FATBIN_MAGIC = 0xBA55ED50
KIND_PTX, KIND_ELF = 1, 2


def _section(path: str, name: str) -> bytes:
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise ValueError(f"{path} is not a 64-bit ELF file")
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    headers = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names_offset = headers[shstrndx][4]
    for h in headers:
        start = names_offset + h[0]
        if data[start:data.index(b"\0", start)].decode() == name:
            return data[h[4]:h[4] + h[5]]
    raise ValueError(f"{path} has no {name} section")


def architectures(path: str) -> tuple[set[int], set[int]]:
    """(sm numbers with machine code, sm numbers with PTX) in the library."""
    data = _section(path, ".nv_fatbin")
    elf, ptx = set(), set()
    pos = 0
    while pos + 16 <= len(data):
        magic, _version, header_size, fat_size = struct.unpack_from("<IHHQ", data, pos)
        if magic != FATBIN_MAGIC:
            pos += 8  # fat binaries are 8-byte aligned
            continue
        entry, end = pos + header_size, pos + header_size + fat_size
        while entry < end:
            kind, _, entry_header, payload = struct.unpack_from("<HHIQ", data, entry)
            arch, = struct.unpack_from("<I", data, entry + 28)
            (ptx if kind == KIND_PTX else elf).add(arch)
            entry += entry_header + payload
        pos = end
    return elf, ptx
