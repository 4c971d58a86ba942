"""check_wheel.py WHEEL: the checks every repaired wheel must pass. The
wheel's tag says which binary checks apply, so a macOS or Windows wheel is
checked on Linux too.

- The variant label matches the contents: libtorch_cuda is in a +cuXXX wheel
  and in no other.
- Linux: `auditwheel show` names a manylinux policy. A CUDA wheel (+cu126,
  +cu130) may need NVIDIA's runtime libraries from outside (their pip wheels,
  by design); anything else outside the policy fails it.
- macOS: check_macho.py (architecture, minimum macOS against the tag, load
  commands and rpaths, ad-hoc signatures).
- Windows: check_pe.py (machine, imports: python3.dll, the C runtime,
  Windows' own DLLs and the wheel's; PyInit_ exported).
- x86-64 wheels: check_cpu_code.py (libtorch_cpu carries its AVX2 and
  AVX-512 kernel copies, and no other code runs their instructions); a pass
  is remembered by the library's digest under build/check-cache/, so the
  factory's wheels of one variant, which share the file, disassemble it once.
- No NVIDIA library (libcudart, libcublas, libcuda, libnv*) is inside the wheel.
- PEP 639: License-Expression BSD-3-Clause with LICENSE; and every bundled
  third-party component (third_party/bundled.toml) is in the wheel's
  THIRD_PARTY_NOTICES.txt, with its licence text, and its CycloneDX SBOM
  (third_party_notices.py --check).
- `twine check` (metadata renders) and `check-wheel-contents` (layout).
- No shared library has an RPATH/RUNPATH entry outside the wheel: every entry
  is relative to $ORIGIN and stays inside the unpacked wheel, except, in a
  CUDA wheel, $ORIGIN/../../nvidia/... (the runtime wheels in site-packages).
- No file names the tree or the environment it was built in (the checkout's
  path, pip's temporary build environment): those are gone once installed,
  and would make two builds of one commit differ.
Exits non-zero, naming the problem, if any check fails.
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import zipfile

# macholib and pefile, which these read binaries with, come with delocate and
# delvewheel in the tools environment (ci/requirements-tools.txt).
from ci.check import cpu_code as check_cpu_code
from ci.check import macho as check_macho
from ci.check import pe as check_pe
from ci.proc import ROOT
from ci.repair import notices as third_party_notices


# NVIDIA's libraries: a CUDA wheel depends on their wheels and must not carry them.
NVIDIA_LIBRARY = re.compile(r"^lib(cuda|cudart|cublas|cublasLt|nv[A-Za-z0-9_]*)([-.].*)?\.so(\.[0-9]+)*$")
NVIDIA_WHEEL_RPATH = re.compile(r"^\$ORIGIN/\.\./\.\./nvidia/[A-Za-z0-9_]+/lib$")


def is_cuda_wheel(wheel: str) -> bool:
    return re.search(r"\+cu\d+-", os.path.basename(wheel)) is not None


def run(cmd: list[str]) -> str:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"check_wheel: {' '.join(cmd)} failed:\n{proc.stdout}{proc.stderr}")
    return proc.stdout + proc.stderr


def tool(name: str) -> list[str]:
    """A console script next to this Python, or on PATH."""
    local = os.path.join(os.path.dirname(sys.executable), name)
    return [local] if os.path.exists(local) else [name]


def rpaths(path: str) -> list[str]:
    out = subprocess.run(["readelf", "-d", path], capture_output=True, text=True, check=True).stdout
    entries = []
    for m in re.finditer(r"\((?:RPATH|RUNPATH)\).*\[(.*)\]", out):
        entries += m.group(1).split(":")
    return entries


def bundled_nvidia_libraries(wheel: str) -> list[str]:
    with zipfile.ZipFile(wheel) as z:
        return [n for n in z.namelist() if NVIDIA_LIBRARY.match(os.path.basename(n))]


def leaked_build_paths(wheel: str) -> list[str]:
    root = ROOT
    # The checkout, pip's build environment, and the caches the cross builds
    # use (zig's, which holds the libc++ it links, and the factory's).
    caches = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    zig_cache = os.environ.get("ZIG_GLOBAL_CACHE_DIR") or os.path.join(caches, "zig")
    needles = [root.encode(), b"pip-build-env-", zig_cache.encode(), os.path.join(caches, "torch-factory").encode()]
    with zipfile.ZipFile(wheel) as z:
        return [f"{name} contains {needle.decode()!r}" for name in z.namelist()
                for needle in needles if needle in z.read(name)]


def variant_problem(wheel: str) -> str | None:
    """A +cuXXX wheel carries libtorch_cuda; any other wheel must not (a stale
    build directory once put a CUDA library into a cpu wheel)."""
    with zipfile.ZipFile(wheel) as z:
        has_cuda_library = "torch/lib/libtorch_cuda.so" in z.namelist()
    if has_cuda_library != is_cuda_wheel(wheel):
        return (f"{os.path.basename(wheel)} {'lacks' if is_cuda_wheel(wheel) else 'contains'} torch/lib/libtorch_cuda.so, "
                "which its variant label says it should " + ("have" if is_cuda_wheel(wheel) else "not have"))
    return None


def check_policy(wheel: str) -> str:
    """The manylinux policy `auditwheel show` gives, allowing NVIDIA's runtime in a CUDA wheel."""
    info = json.loads(run(tool("auditwheel") + ["show", "--json", wheel]))
    tag = info["overall_tag"]
    if tag.startswith("manylinux"):
        return tag
    tag = info["sym_tag"]
    blocking = info["policy_upgrades"].get(tag, {}).get("libs_to_eliminate", [])
    outside = [lib for lib in blocking if not (is_cuda_wheel(wheel) and NVIDIA_LIBRARY.match(lib))]
    if not tag.startswith("manylinux") or outside:
        sys.exit(f"check_wheel: no manylinux policy: {info['overall_tag']}; libraries outside the policy: {outside}")
    return f"{tag} (NVIDIA runtime from its wheels: {', '.join(sorted(blocking))})"


def check_rpaths(wheel: str) -> list[str]:
    problems = []
    cuda = is_cuda_wheel(wheel)
    with tempfile.TemporaryDirectory() as tmp:
        with zipfile.ZipFile(wheel) as z:
            z.extractall(tmp)
        for root, _, files in os.walk(tmp):
            for name in files:
                if ".so" not in name:
                    continue
                path = os.path.join(root, name)
                for entry in rpaths(path):
                    if cuda and NVIDIA_WHEEL_RPATH.match(entry):
                        continue  # site-packages/nvidia/<lib>/lib: the runtime wheels this one requires
                    if not entry.startswith("$ORIGIN"):
                        problems.append(f"{os.path.relpath(path, tmp)}: RPATH entry {entry!r} is absolute")
                        continue
                    target = os.path.normpath(entry.replace("$ORIGIN", os.path.dirname(path)))
                    if not target.startswith(tmp):
                        problems.append(f"{os.path.relpath(path, tmp)}: RPATH entry {entry!r} leaves the wheel")
    return problems


def wheel_os(wheel: str) -> str:
    name = os.path.basename(wheel)
    if re.search(r"-(manylinux|musllinux|linux)_[^-]*\.whl$", name):
        return "linux"
    if "-macosx_" in name:
        return "macos"
    if re.search(r"-win_[a-z0-9]+\.whl$", name):
        return "windows"
    sys.exit(f"check_wheel: {name}: no platform checks for this tag")


def check_binaries(wheel: str, check) -> str:
    """Unpacks the wheel and runs a platform's binary checks (check_macho, check_pe)."""
    with tempfile.TemporaryDirectory() as tmp:
        with zipfile.ZipFile(wheel) as z:
            z.extractall(tmp)
        problems, summary = check(tmp, wheel)
    if problems:
        sys.exit("check_wheel: " + "\n".join(problems))
    return summary


# Passed CPU-code checks by library digest: libtorch_cpu is one file for
# every Python's wheel of a variant, so the factory disassembles it once.
CPU_CODE_PASSED = os.path.join(ROOT, "build", "check-cache", "cpu-code")


def cpu_code_summary(wheel: str) -> str | None:
    """check_cpu_code.py on an x86-64 wheel's libtorch_cpu; None for other
    architectures (only the DEFAULT copy is built there). A pass is
    remembered under the digests of the library and of the checker."""
    if not re.search(r"(x86_64|amd64)\.whl$", os.path.basename(wheel)):
        return None
    with zipfile.ZipFile(wheel) as z:
        names = [n for n in z.namelist() if re.search(r"/(lib)?torch_cpu\.(so|dylib|dll)$", n)]
        if len(names) != 1:
            sys.exit(f"check_wheel: expected one torch_cpu library in {wheel}, found {names}")
        key = hashlib.sha256(z.read(names[0]) + open(check_cpu_code.__file__, "rb").read()).hexdigest()
        passed = os.path.join(CPU_CODE_PASSED, key)
        if os.path.exists(passed):
            return open(passed).read() + " (this library's check passed before)"
        with tempfile.TemporaryDirectory() as tmp:
            library = z.extract(names[0], tmp)
            problems, summary = check_cpu_code.check(library)
    if problems:
        sys.exit("check_wheel: " + "\n".join(problems))
    with contextlib.suppress(OSError):  # a read-only checkout only loses the shortcut
        os.makedirs(CPU_CODE_PASSED, exist_ok=True)
        with open(passed, "w") as f:
            f.write(summary)
    return summary


def license_problem(wheel: str) -> str | None:
    """PEP 639: the wheel declares its licence by SPDX expression and carries the licence text."""
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        metadata = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    head = metadata.split("\n\n", 1)[0].splitlines()
    headers = dict(line.split(": ", 1) for line in head if ": " in line)
    files = [line.split(": ", 1)[1] for line in head if line.startswith("License-File: ")]
    if headers.get("License-Expression") != "BSD-3-Clause" or "LICENSE" not in files:
        return (f"METADATA says License-Expression {headers.get('License-Expression')!r}, License-File "
                f"{files}; setup.py declares BSD-3-Clause and LICENSE (PEP 639)")
    if not any(n.endswith(".dist-info/licenses/LICENSE") for n in names):
        return "no .dist-info/licenses/LICENSE: the licence text does not travel with the wheel"
    return None


def main() -> int:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    wheel = sys.argv[1]
    problem = variant_problem(wheel)
    if problem:
        sys.exit(f"check_wheel: {problem}")
    print("variant: libtorch_cuda present exactly when the label is +cuXXX")
    kind = wheel_os(wheel)
    if kind == "linux":
        print(f"auditwheel: {check_policy(wheel)}")
        problems = check_rpaths(wheel)
        if problems:
            sys.exit("check_wheel: " + "\n".join(problems))
        print("rpath: every entry stays inside the wheel" + (" or points at the NVIDIA runtime wheels" if is_cuda_wheel(wheel) else ""))
    elif kind == "macos":
        print(check_binaries(wheel, check_macho.check))
    else:
        print(check_binaries(wheel, check_pe.check))
    summary = cpu_code_summary(wheel)
    if summary:
        print(summary)
    leaks = leaked_build_paths(wheel)
    if leaks:
        sys.exit("check_wheel: build paths inside the wheel:\n" + "\n".join(leaks))
    print("no build path inside the wheel")
    bundled = bundled_nvidia_libraries(wheel)
    if bundled:
        sys.exit(f"check_wheel: NVIDIA libraries inside the wheel (they come from NVIDIA's wheels): {bundled}")
    print("no NVIDIA library inside the wheel")
    problem = license_problem(wheel)
    if problem:
        sys.exit(f"check_wheel: {problem}")
    print("licence: License-Expression BSD-3-Clause, LICENSE in .dist-info/licenses/")
    found = third_party_notices.problems(wheel)
    if found:
        sys.exit("check_wheel: " + "\n".join(found))
    print("third-party notices and SBOM: " + ", ".join(c["id"] for c in third_party_notices.describe(wheel)))
    run(tool("twine") + ["check", "--strict", wheel])
    print("twine check: passed")
    config = os.path.join(ROOT, "pyproject.toml")
    run(tool("check-wheel-contents") + ["--config", config, wheel])
    print("check-wheel-contents: passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
