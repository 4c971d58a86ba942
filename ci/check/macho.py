"""The checks of a macOS wheel's Mach-O files (check_wheel.py runs them),
read with macholib, so they run on any machine:

- architecture: every binary is thin and of the tag's architecture;
- minimum macOS: what each binary records (LC_BUILD_VERSION or
  LC_VERSION_MIN_MACOSX) is at or below the tag's version, or macOS would
  refuse to load it on the oldest system the tag admits;
- load commands: libraries are named only by @rpath/ or @loader_path/ (and
  resolve to a file in the wheel) or live in /usr/lib or /System; rpaths
  are @loader_path-relative and stay inside the wheel;
- signatures: an arm64 binary carries a valid ad-hoc signature (macOS kills
  a process that maps an unsigned or altered one); an x86_64 binary's
  signature, if it has one, is valid;
- exception types: the type_info of every c10 error (the exceptions that
  cross from one torch library into another) is defined once, in
  libc10.dylib, not weak, and only referred to elsewhere. Each zig-built
  library has its own libc++abi, which on x86_64 matches a catch by
  type_info address: a weak copy per library would make the catch depend on
  dyld merging them (c10/util/Exception.h, docs/PLATFORMS.md).
"""
from __future__ import annotations

import os
import re

from macholib import mach_o
from macholib.MachO import MachO
from macholib.SymbolTable import SymbolTable

from ci.check.macho_signature import signature_problem

# CPU_TYPE_ARM64, CPU_TYPE_X86_64 (<mach/machine.h>: the 64-bit flag 0x01000000 on ARM 12, x86 7).
CPU_TYPES = {"arm64": 0x0100000C, "x86_64": 0x01000007}
DEPENDENCY_COMMANDS = {mach_o.LC_LOAD_DYLIB, mach_o.LC_LOAD_WEAK_DYLIB, mach_o.LC_REEXPORT_DYLIB,
                       mach_o.LC_LOAD_UPWARD_DYLIB, mach_o.LC_LAZY_LOAD_DYLIB}
SYSTEM_PREFIXES = ("/usr/lib/", "/System/")
C10_ERROR_TYPEINFO = re.compile(r"^__ZTIN3c10\d+\w*ErrorE$")
N_WEAK_DEF = 0x0080  # <mach-o/nlist.h>


def parse_tag(wheel: str) -> tuple[tuple[int, int], str]:
    """((11, 0), "arm64") from ...-macosx_11_0_arm64.whl."""
    m = re.search(r"-macosx_(\d+)_(\d+)_(\w+)\.whl$", os.path.basename(wheel))
    if not m:
        raise ValueError(f"{wheel}: not a macOS wheel tag")
    return (int(m.group(1)), int(m.group(2))), m.group(3)


def _version(packed: int) -> tuple[int, int]:
    return packed >> 16, (packed >> 8) & 0xFF


def _string(cmd_data: bytes) -> str:
    return cmd_data.rstrip(b"\0").decode()


def binary_problems(path: str, rel: str, root: str, min_macos: tuple[int, int], arch: str) -> list[str]:
    macho = MachO(path)
    if len(macho.headers) != 1:
        return [f"{rel}: a fat binary of {len(macho.headers)} architectures; the tag says {arch} alone"]
    header = macho.headers[0]
    problems = []
    if header.header.cputype != CPU_TYPES[arch]:
        problems.append(f"{rel}: CPU type {header.header.cputype:#x}, not {arch}")
    recorded, names, rpaths = None, [], []
    for load, cmd, data in header.commands:
        kind = load.cmd
        if kind == mach_o.LC_BUILD_VERSION:
            recorded = _version(cmd.minos)
        elif kind == mach_o.LC_VERSION_MIN_MACOSX:
            recorded = _version(cmd.version)
        elif kind in DEPENDENCY_COMMANDS:
            names.append(_string(data))
        elif kind == mach_o.LC_RPATH:
            rpaths.append(_string(data))
        elif kind == mach_o.LC_ID_DYLIB and not _string(data).startswith(("@rpath/", "@loader_path/")):
            problems.append(f"{rel}: its install name {_string(data)!r} is not @rpath/ or @loader_path/")
    if recorded is None:
        problems.append(f"{rel}: records no minimum macOS")
    elif recorded > min_macos:
        problems.append(f"{rel}: needs macOS {recorded[0]}.{recorded[1]}, newer than the tag's "
                        f"{min_macos[0]}.{min_macos[1]}")
    here = os.path.dirname(path)
    search = []
    for rpath in rpaths:
        if not rpath.startswith("@loader_path"):
            problems.append(f"{rel}: rpath {rpath!r} is not relative to @loader_path")
            continue
        target = os.path.normpath(rpath.replace("@loader_path", here, 1))
        if not (target + os.sep).startswith(root + os.sep):
            problems.append(f"{rel}: rpath {rpath!r} leaves the wheel")
        search.append(target)
    for name in names:
        if name.startswith(SYSTEM_PREFIXES):
            continue
        if name.startswith("@loader_path/"):
            candidates = [os.path.join(here, name[len("@loader_path/"):])]
        elif name.startswith("@rpath/"):
            candidates = [os.path.join(d, name[len("@rpath/"):]) for d in search]
        else:
            problems.append(f"{rel}: loads {name!r}, outside the wheel and the system")
            continue
        if not any(os.path.exists(c) and (os.path.normpath(c) + os.sep).startswith(root + os.sep) for c in candidates):
            problems.append(f"{rel}: loads {name!r}, which resolves to no file in the wheel")
    signature = signature_problem(path, require_adhoc=True)
    if arch == "arm64" and signature is not None:
        problems.append(f"{rel}: signature: {signature}")
    elif signature is not None and "not signed at all" not in signature:
        problems.append(f"{rel}: signature: {signature}")
    return problems


def exception_type_problems(binaries: dict[str, str]) -> list[str]:
    """{wheel path: file}: c10's error type_infos defined, not weak, in libc10 only."""
    defined: dict[str, list[str]] = {}
    problems = []
    for rel, path in sorted(binaries.items()):
        table = SymbolTable(MachO(path))
        for nlist, name in table.extdefsyms:
            name = name.decode() if isinstance(name, bytes) else name
            if C10_ERROR_TYPEINFO.match(name):
                defined.setdefault(name, []).append(rel)
                if nlist.n_desc & N_WEAK_DEF:
                    problems.append(f"{rel}: {name} is a weak definition (give the class an out-of-line key function)")
    if not defined:
        problems.append("no c10 error type_info is exported (libc10.dylib must define __ZTIN3c105ErrorE)")
    for name, where in sorted(defined.items()):
        if [os.path.basename(w) for w in where] != ["libc10.dylib"]:
            problems.append(f"{name} is defined in {', '.join(where)}; it must be in libc10.dylib only")
    return problems


def check(root: str, wheel: str) -> tuple[list[str], str]:
    """(problems, a summary line) for the wheel unpacked in root."""
    min_macos, arch = parse_tag(wheel)
    if arch not in CPU_TYPES:
        return [f"{os.path.basename(wheel)}: architecture {arch!r} is not built here"], ""
    problems, binaries = [], {}
    root = os.path.normpath(root)
    for dirpath, _, files in os.walk(root):
        for name in sorted(files):
            if not name.endswith((".dylib", ".so")):
                continue
            path = os.path.join(dirpath, name)
            binaries[os.path.relpath(path, root)] = path
            problems += binary_problems(path, os.path.relpath(path, root), root, min_macos, arch)
    count = len(binaries)
    if count == 0:
        problems.append("no Mach-O binary in the wheel")
    else:
        problems += exception_type_problems(binaries)
    return problems, (f"Mach-O: {count} binaries, {arch}, macOS <= {min_macos[0]}.{min_macos[1]}, loading only "
                      f"@rpath/@loader_path inside the wheel and the system, "
                      f"{'valid ad-hoc signatures' if arch == 'arm64' else 'no invalid signature'}, "
                      f"c10's error type_infos in libc10 only")
