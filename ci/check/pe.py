"""The checks of a Windows wheel's DLLs and extension modules (check_wheel.py
runs them), read with pefile, so they run on any machine:

- architecture: every PE file is for the tag's machine (AMD64 for win_amd64);
- imports: only python3.dll (the stable ABI: never a versioned python3X.dll,
  which would tie the wheel to one Python), the Universal C Runtime, a short
  list of DLLs every Windows has, and DLLs that ship in the wheel itself;
- every extension module exports its PyInit_ function.
"""
from __future__ import annotations

import os
import re

import pefile

MACHINES = {"win_amd64": pefile.MACHINE_TYPE["IMAGE_FILE_MACHINE_AMD64"],
            "win_arm64": pefile.MACHINE_TYPE["IMAGE_FILE_MACHINE_ARM64"]}
# What Windows itself provides: the Universal C Runtime (its api-ms-win-crt
# forwarders and ucrtbase) and the core system DLLs. Anything else must be in
# the wheel (delvewheel vendors it) or is an error.
SYSTEM_DLLS = re.compile(r"^(api-ms-win-(crt|core)-[a-z0-9-]+\.dll|ucrtbase\.dll|kernel32\.dll|kernelbase\.dll|"
                         r"ntdll\.dll|advapi32\.dll|user32\.dll|ws2_32\.dll|bcrypt\.dll|shell32\.dll|ole32\.dll|"
                         r"oleaut32\.dll|dbghelp\.dll|psapi\.dll|shlwapi\.dll)$", re.IGNORECASE)
STABLE_ABI_DLL = "python3.dll"


def parse_tag(wheel: str) -> str:
    m = re.search(r"-(win_amd64|win_arm64)\.whl$", os.path.basename(wheel))
    if not m:
        raise ValueError(f"{wheel}: not a Windows wheel tag")
    return m.group(1)


def binary_problems(path: str, rel: str, machine: int, in_wheel: set[str]) -> list[str]:
    pe = pefile.PE(path, fast_load=True)
    pe.parse_data_directories(directories=[pefile.DIRECTORY_ENTRY["IMAGE_DIRECTORY_ENTRY_IMPORT"],
                                           pefile.DIRECTORY_ENTRY["IMAGE_DIRECTORY_ENTRY_EXPORT"]])
    problems = []
    if pe.FILE_HEADER.Machine != machine:
        problems.append(f"{rel}: machine {pe.FILE_HEADER.Machine:#x}, not {machine:#x}")
    for entry in getattr(pe, "DIRECTORY_ENTRY_IMPORT", []):
        dll = entry.dll.decode()
        if dll.lower() == STABLE_ABI_DLL or SYSTEM_DLLS.match(dll) or dll.lower() in in_wheel:
            continue
        if re.fullmatch(r"python3\d+\.dll", dll, re.IGNORECASE):
            problems.append(f"{rel}: imports {dll}, one Python's DLL: the stable ABI links python3.dll")
        else:
            problems.append(f"{rel}: imports {dll}, which is neither in the wheel nor part of Windows")
    if rel.endswith(".pyd"):
        module = os.path.basename(rel).split(".")[0]
        exports = {e.name.decode() for e in getattr(getattr(pe, "DIRECTORY_ENTRY_EXPORT", None), "symbols", [])
                   if e.name}
        if f"PyInit_{module}" not in exports:
            problems.append(f"{rel}: an extension module that does not export PyInit_{module}")
    pe.close()
    return problems


def check(root: str, wheel: str) -> tuple[list[str], str]:
    """(problems, a summary line) for the wheel unpacked in root."""
    platform = parse_tag(wheel)
    binaries = []
    for dirpath, _, files in os.walk(root):
        binaries += [os.path.join(dirpath, f) for f in files if f.lower().endswith((".dll", ".pyd"))]
    in_wheel = {os.path.basename(b).lower() for b in binaries}
    problems = []
    for path in sorted(binaries):
        problems += binary_problems(path, os.path.relpath(path, root), MACHINES[platform], in_wheel)
    if not any(b.endswith(".pyd") for b in binaries):
        problems.append("no extension module (.pyd) in the wheel")
    return problems, (f"PE: {len(binaries)} binaries for {platform}, importing only python3.dll, the C runtime, "
                      f"Windows' own DLLs and the wheel's")
