"""check_cpu_code.py LIBRARY...: the x86-64 kernels' wide copies are in the
shipped library, and nothing else runs their instructions.

Every file under aten/src/ATen/native/cpu/ is compiled once per CPU
capability (cmake/CpuCapabilities.cmake), into the namespaces
at::native::AVX2 / AVX512 (and vec:: ones). A disassembler (llvm-objdump,
else GNU objdump) reads the library:
- AVX2 code (ymm registers) and AVX-512 code (zmm registers) must be there:
  a build that lost its wide copies (a flag dropped on one compiler or
  platform) fails.
- Where the library keeps its symbols (Linux, macOS), every function that
  uses ymm or zmm registers must belong to a copy at least that wide, or be
  called only from such copies: an inline function that a wide copy emitted
  out of line and the linker kept in place of the baseline one would run
  wide instructions on any CPU (the link order in cmake/CpuCapabilities.cmake
  prevents it; this proves it).
check_wheel.py runs it on each x86-64 wheel's libtorch_cpu; exits non-zero,
naming the problem.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys

# Functions are told apart by address: local copies in different
# translation units share a name (std::vector<long>::vector (.constprop.0)).
FUNCTION = re.compile(r"^0*([0-9a-fA-F]+) <(.+)>:$")
# Calls and jumps with their target's address and name; those to another
# function's start count (tail calls): a jump within a function names its
# target <function+0x...>. (Matched in two linear steps: one pattern that
# excluded the offset backtracked for milliseconds on long demangled names.)
CALL = re.compile(r"\b(?:call|jmp)[a-z]*\s+(?:0x)?0*([0-9a-fA-F]+)\s*<(.*)>$")
OFFSET = re.compile(r"\+0x[0-9a-fA-F]+$")
# The level a function's name places it at: 2 for AVX512 copies, 1 for AVX2.
LEVEL_OF_NAMESPACE = (("::AVX512::", 2), ("::AVX2::", 1))


def disassembler() -> str:
    for name in ("llvm-objdump", "objdump"):
        path = shutil.which(name)
        if path:
            return path
    sys.exit("check_cpu_code: no llvm-objdump or objdump on PATH (install LLVM or binutils)")


def disassemble(library: str) -> list[str]:
    got = subprocess.run([disassembler(), "-d", "-C", "--no-show-raw-insn", library],
                         capture_output=True, text=True, errors="replace")
    if got.returncode != 0:
        sys.exit(f"check_cpu_code: {disassembler()} cannot read {library}: {got.stderr.strip()[:500]}")
    return got.stdout.splitlines()


def namespace_level(function: str) -> int:
    for marker, level in LEVEL_OF_NAMESPACE:
        if marker in function:
            return level
    return 0


def scan(lines: list[str]):
    """Each function's (address, name) with its widest instructions (1 ymm,
    2 zmm), each address's callers, and the ymm and zmm instruction counts."""
    widest: dict[tuple[str, str], int] = {}
    callers: dict[str, set[tuple[str, str]]] = {}
    ymm = zmm = 0
    current = ("?", "?")
    # Two million lines for libtorch_cpu: the regular expressions run only on
    # the lines that cheap substring tests let through (a function's header
    # ends in ">:"; a call or jump names its mnemonic).
    for line in lines:
        if line.endswith(">:"):
            header = FUNCTION.match(line)
            if header:
                current = (header.group(1).lower(), header.group(2))
                continue
        low = line.lower()
        if "mm" in low:
            # The instruction without its trailing comment ("#" AT&T, ";" Intel).
            code = low.split("#")[0].split(";")[0]
            if "zmm" in code:
                zmm += 1
                widest[current] = 2
            elif "ymm" in code:
                ymm += 1
                widest[current] = max(widest.get(current, 0), 1)
        if "call" in low or "jmp" in low:
            call = CALL.search(line.strip())
            if call and not OFFSET.search(call.group(2)):
                callers.setdefault(call.group(1).lower(), set()).add(current)
    return widest, callers, ymm, zmm


def misplaced(widest, callers) -> list[str]:
    """Functions with instructions wider than their own copy, called from code
    not at least that wide."""
    problems = []
    for (address, function), level in sorted(widest.items()):
        if namespace_level(function) >= level:
            continue
        narrow = sorted(name for a, name in callers.get(address, ()) if namespace_level(name) < level and a != address)
        if narrow:
            problems.append(f"{function[:160]} uses {'zmm' if level == 2 else 'ymm'} registers and is called from "
                            f"{narrow[0][:160]}" + (f" and {len(narrow) - 1} more" if len(narrow) > 1 else ""))
    return problems


def check(library: str) -> tuple[list[str], str]:
    widest, callers, ymm, zmm = scan(disassemble(library))
    problems = []
    if ymm == 0:
        problems.append(f"{library}: no AVX2 (ymm) instructions: the AVX2 kernel copies are missing")
    if zmm == 0:
        problems.append(f"{library}: no AVX-512 (zmm) instructions: the AVX512 kernel copies are missing")
    named = any(namespace_level(name) for _, name in widest)
    if named:
        problems += [f"{library}: {p}" for p in misplaced(widest, callers)]
    where = "each in its copy's namespace or called only from one" if named else "no symbols to place them"
    return problems, f"wide kernel copies: {ymm} ymm and {zmm} zmm instructions ({where})"


def main() -> int:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    failed = False
    for library in sys.argv[1:]:
        problems, summary = check(library)
        for p in problems:
            print(f"check_cpu_code: {p}", file=sys.stderr)
        failed |= bool(problems)
        print(f"{library}: {summary}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
