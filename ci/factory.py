"""The wheel factory on one machine (README's main command).

    python3 -m ci factory [--python 3.11,3.12] [--variant cpu,cu130] [--cuda-pythons one|all]
                          [--release-archs] [--skip-tests] [--engine host|cibuildwheel] [--wheelhouse DIR]
                          [--platform linux-x86_64,macos-arm64,macos-x86_64,windows-amd64]

For each CPython found (default: every version in ci/matrix.toml that this
machine has) and each requested variant (default: cpu), it builds the wheel,
repairs it (ci/repair/wheel.py), installs it into a fresh virtual environment
and runs the test suite there from outside the checkout; then it runs the
examples from an installed wheel, writes wheelhouse/summary.json and a
PEP 503 index per variant under wheelhouse/index/, and proves the index works
by installing from it with both `pip install --index-url` and `uv pip install`.
Last, the example extension (examples/extension) is built against each
variant's torch, repaired, and tested beside it (ci/testing/extensions.py).

The native libraries are built once per variant: every Python reuses one
CMake build directory and one tools environment (cmake, ninja, pyyaml,
OpenBLAS), and libtorch_python is on the stable ABI, so an extra Python only
compiles the torch._C stub and packs its wheel (a free-threaded Python
rebuilds libtorch_python for its full API).

`--engine cibuildwheel` builds, repairs and tests the same Pythons with
`cibuildwheel --platform linux` and pyproject.toml's configuration instead,
in containers (ci/builders/cibw.py); the table, summary.json, the index and the
install checks are the same.

`--platform` (default: this machine's) adds the zig-built platforms of the
matrix: for each, the one stable-ABI cpu wheel, cross-compiled here
(ci/builders/cross.py), repaired with delocate or delvewheel and checked like
every wheel (ci/repair/wheel.py), and for Windows tested under Wine
(ci/testing/wine.py); macOS wheels are checked, not run (nothing here runs
macOS binaries). Their rows join summary.json and the index beside the
Linux ones; rows of platforms a run leaves out stay while their wheels do.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import functools
import glob
import hashlib
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

if not __package__:  # `python3 ci/factory.py`: the package's imports below would fail with less to go on
    sys.exit("the factory is a module of the ci package: run `python3 -m ci factory ...` from the checkout's root")

from ci.builders import cross as cross_build  # noqa: E402 (and below: after the check above)
from ci.local.cpython import discover_pythons  # noqa: E402,F401  (the factory's Pythons)
from ci.plan import matrix as matrix_file
from ci.proc import CI, ROOT, ci_command, junit_counts, log, make_venv, run, venv_python
from ci.publish import index as wheel_index
from ci.publish import variants as wheel_variants
from ci.testing import wine as wine_test

BUILD = os.path.join(ROOT, "build", "factory")
DEFAULT_WHEELHOUSE = os.path.join(ROOT, "wheelhouse")
TOOLS_VENV = os.path.join(ROOT, "build", "tools-venv")
PYPI = "https://pypi.org/simple"
# pip here must see only what the factory asks for (no machine-wide index config).
ISOLATED_PIP = {"PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def tools_environment() -> str:
    reqs = os.path.join(CI, "requirements-tools.txt")
    wanted = "".join(open(p).read() for p in (reqs, os.path.join(CI, "requirements-zig.txt"),
                                              os.path.join(ROOT, "requirements-build.txt")))
    stamp = os.path.join(TOOLS_VENV, ".requirements")
    up_to_date = os.path.exists(stamp) and open(stamp).read() == wanted
    python = make_venv(sys.executable, TOOLS_VENV, [] if up_to_date else ["-r", reqs], fresh=False)
    if not up_to_date:
        with open(stamp, "w") as f:
            f.write(wanted)
    return python


def install_cuda(variant: dict) -> None:
    """Installs (once) the variant's CUDA toolkit with ci/install_cuda.sh, where
    setup.py finds it for TORCH_CUDA_VERSION (as under cibuildwheel)."""
    log(f"CUDA {variant['cuda']} toolkit: ci/install_cuda.sh")
    run(["bash", os.path.join(CI, "install_cuda.sh"), variant["cuda"]], quiet=True)


def commit_time() -> str:
    """SOURCE_DATE_EPOCH for reproducible wheels: the commit's time (or the caller's)."""
    if os.environ.get("SOURCE_DATE_EPOCH"):
        return os.environ["SOURCE_DATE_EPOCH"]
    out = subprocess.run(["git", "log", "-1", "--format=%ct"], cwd=ROOT, capture_output=True, text=True)
    return out.stdout.strip() or "315532800"  # no git (an sdist): 1980-01-01, the earliest a zip can say


def build_env(variant: dict, tools_python: str, release_archs: bool) -> dict:
    env = {"TORCH_TOOLS_PYTHON": tools_python, "PATH": os.path.dirname(tools_python) + os.pathsep + os.environ["PATH"],
           "SOURCE_DATE_EPOCH": commit_time()}
    if "cuda" in variant:
        install_cuda(variant)
        env.update(TORCH_CUDA_VERSION=variant["cuda"],
                   TORCH_CUDA_ARCH_LIST=variant["arch_list" if release_archs else "ci_arch_list"])
    return env


def build_wheel(python: str, tag: str, variant: dict, env: dict) -> tuple[str, float]:
    # tomli: setup.py reads ci/matrix.toml for a CUDA variant (tomllib is 3.11+).
    venv = make_venv(python, os.path.join(BUILD, f"build-{tag}"),
                     ["setuptools>=69", "wheel", "tomli>=1.1; python_version < '3.11'"], fresh=False)
    dist = os.path.join(BUILD, f"dist-{variant['label']}-{tag}")
    shutil.rmtree(dist, ignore_errors=True)
    start = time.perf_counter()
    run([venv, "-m", "pip", "wheel", ROOT, "--no-build-isolation", "--no-deps", "-q", "-w", dist], env=env)
    seconds = time.perf_counter() - start
    (wheel,) = glob.glob(os.path.join(dist, "*.whl"))
    return wheel, seconds


def binding_digest(wheel: str) -> str:
    """sha256 of the wheel's libtorch_python: on the stable ABI, one file for every Python."""
    with zipfile.ZipFile(wheel) as z:
        return hashlib.sha256(z.read("torch/lib/libtorch_python.so")).hexdigest()


def repair(wheel: str, tools_python: str, wheelhouse: str) -> str:
    out = tempfile.mkdtemp(dir=BUILD)
    env = {"PATH": os.path.dirname(tools_python) + os.pathsep + os.environ["PATH"], "TORCH_TOOLS_PYTHON": tools_python}
    run(ci_command(tools_python, "repair", wheel, out), env=env, cwd=ROOT, quiet=True)
    (repaired,) = glob.glob(os.path.join(out, "*.whl"))
    os.makedirs(wheelhouse, exist_ok=True)
    target = os.path.join(wheelhouse, os.path.basename(repaired))
    shutil.move(repaired, target)
    shutil.rmtree(out, ignore_errors=True)
    return target


# Tests of compiled code that is the same file in every Python's wheel of a
# variant (the kernels, and C++ built against the headers): run in full with
# the factory's own Python and with any Python whose libtorch_python is its
# own (free-threaded); the other Pythons, which share the stable-ABI binding
# of that full run, run everything else (the binding, numpy interop with
# their numpy, typing, data loading, serialization, ...).
PYTHON_INDEPENDENT_TESTS = ("tests/test_vec_math.py", "tests/test_kernel_paths.py", "tests/test_cpu_capability.py",
                            "tests/test_formulas.py", "tests/test_cpp_extension.py", "tests/test_cpp_api.py")
# Builds tests/extensions' packages: the factory does that against each
# variant in ci/testing/extensions.py (CUDA kernels included), so its suites leave it out.
FACTORY_SKIPPED_TESTS = ("tests/test_pytorch_extensions.py",)
# The wheel README's test command tests (ci/test_wheel.sh: this Python's, of
# this variant) is tested with that command in full, extensions and the
# libraries beside torch included, and once: the command records the pass.
README_TEST_VARIANT = "cpu"


def test_wheel(python: str, name: str, wheel: str, env: dict, ignore: tuple[str, ...] = ()) -> tuple[int, int]:
    """Installs the wheel in a fresh venv and runs the suite outside the checkout,
    less `ignore`: (passed, failed). A CUDA wheel pulls NVIDIA's runtime wheels
    here, as it would for a user."""
    venv_dir = os.path.join(BUILD, f"test-{name}")
    venv = make_venv(python, venv_dir,
                     [wheel, "-r", os.path.join(ROOT, "tests", "requirements.txt")], fresh=True)
    work = tempfile.mkdtemp(prefix="torch-tests-")
    for item in ("tests", "examples", "pyproject.toml"):
        src = os.path.join(ROOT, item)
        (shutil.copytree if os.path.isdir(src) else shutil.copy)(src, os.path.join(work, item))
    report = os.path.join(work, "report.xml")
    environ = {k: v for k, v in os.environ.items() if k not in ("CUDA_HOME", "CUDA_PATH")}
    ignored = [f"--ignore={path}" for path in ignore]
    proc = subprocess.run([venv, "-m", "pytest", "tests", "-q", "-p", "no:cacheprovider", f"--junitxml={report}",
                           *ignored],
                          cwd=work, env={**environ, **env, "TORCH_TEST_WHEEL": "1"}, text=True, capture_output=True)
    tail = proc.stdout.strip().splitlines()[-1:] if proc.stdout else []
    print(f"    {name}:", *tail)
    if not os.path.exists(report):
        print(proc.stdout[-4000:], proc.stderr[-2000:])
        return 0, 1
    passed, failed, _skipped = junit_counts(report)
    shutil.rmtree(work, ignore_errors=True)
    if not failed:
        # A passing run's venv is not needed again (a CUDA one holds ~700 MB of
        # NVIDIA's wheels); a failing one stays for a look.
        shutil.rmtree(venv_dir, ignore_errors=True)
    return passed, failed


def test_with_readme_command(python: str, wheel: str) -> tuple[int, int]:
    """README's test command (ci/test_wheel.sh) on the wheel, less the tools'
    tests: (passed, failed). It records the pass, so that the same command
    run next (as .ci/run does) reports it instead of running it again."""
    report = os.path.join(tempfile.mkdtemp(prefix="torch-tests-"), "report.xml")
    proc = subprocess.run(["bash", os.path.join(CI, "test_wheel.sh"), wheel], cwd=ROOT, text=True,
                          capture_output=True, env={**os.environ, "PYTHON": python, "TORCH_TEST_REPORT": report,
                                                    "TORCH_TEST_TOOLS": "0", "TORCH_TEST_RERUN": "1"})
    tail = proc.stdout.strip().splitlines()[-1:] if proc.stdout else []
    print("    ci/test_wheel.sh:", *tail)
    if not os.path.exists(report):
        print(proc.stdout[-4000:], proc.stderr[-2000:])
        return 0, 1
    passed, failed, _skipped = junit_counts(report)
    if failed or proc.returncode:
        print(proc.stdout[-4000:], proc.stderr[-2000:])
    shutil.rmtree(os.path.dirname(report), ignore_errors=True)
    return passed, failed or int(proc.returncode != 0)


def parse_args(argv: list[str] | None, m: dict) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--python", help="comma-separated versions (default: every one in the matrix found here)")
    parser.add_argument("--variant", default="cpu",
                        help="comma-separated variants of ci/matrix.toml (default: cpu; README's main command "
                             "adds cu130)")
    parser.add_argument("--cuda-pythons", choices=["one", "all"], default="one",
                        help="build CUDA variants for one Python (the one running this; default) or for all")
    parser.add_argument("--release-archs", action="store_true",
                        help="CUDA variants for their release arch_list instead of the short ci_arch_list")
    parser.add_argument("--skip-tests", action="store_true", help="build and repair only")
    parser.add_argument("--wheelhouse", default=DEFAULT_WHEELHOUSE,
                        help="where the wheels, summary.json and index/ go (default: wheelhouse/)")
    parser.add_argument("--platform",
                        help="comma-separated platforms of ci/matrix.toml (default: this machine's); macOS and "
                             "Windows are cross-built with zig, Windows tested under Wine")
    parser.add_argument("--engine", choices=["host", "cibuildwheel"], default="host",
                        help="host: build here with one shared build directory (default); cibuildwheel: "
                             "`cibuildwheel --platform linux` with pyproject.toml's configuration, in manylinux "
                             "containers (Docker) or, without a Docker daemon, podman and ci/local/image.py's image")
    args = parser.parse_args(argv)
    args.host_platform = host_platform(m)
    args.platforms = args.platform.split(",") if args.platform else [args.host_platform]
    for p in args.platforms:
        if p not in m["platforms"]:
            parser.error(f"unknown platform {p!r}; ci/matrix.toml has {sorted(m['platforms'])}")
        if p != args.host_platform and "zig_target" not in m["platforms"][p]:
            parser.error(f"platform {p!r} is built on its own machine only (its matrix entry has no zig_target)")
    args.wheelhouse = os.path.abspath(args.wheelhouse)
    args.variants = args.variant.split(",")
    for v in args.variants:
        if v not in m["variants"]:
            parser.error(f"unknown variant {v!r}; ci/matrix.toml has {sorted(m['variants'])}")
        if not m["variants"][v].get("enabled", True):
            parser.error(f"variant {v!r} is declared in ci/matrix.toml but not enabled (see its comment)")
    wanted = args.python.split(",") if args.python else m["pythons"]
    args.pythons = discover_pythons(wanted)
    args.missing = [v for v in wanted if v not in args.pythons]
    if args.python and args.missing:
        parser.error(f"Python {', '.join(args.missing)} not found on this machine")
    if not args.pythons:
        parser.error("no CPython from ci/matrix.toml was found on this machine")
    return args


def host_platform(m: dict) -> str:
    """This machine's platform in the matrix (linux-x86_64 here)."""
    machine = platform.machine()
    for name, entry in m["platforms"].items():
        if entry["cibw_platform"] == "linux" and entry["cibw_archs"] == machine:
            return name
    return f"linux-{machine}"


def plan_jobs(m: dict, args: argparse.Namespace) -> tuple[list[tuple[str, str]], str]:
    """(variant, Python version) pairs to build, and the one Python that CUDA
    variants (by default) and the index checks use: the one running this."""
    driver = f"{sys.version_info[0]}.{sys.version_info[1]}"
    one_python = driver if driver in args.pythons else next(iter(args.pythons))
    jobs = [(v, ver) for v in args.variants for ver in args.pythons
            if "cuda" not in m["variants"][v] or args.cuda_pythons == "all" or ver == one_python]
    return jobs, one_python


def jobs_python(jobs: list[tuple[str, str]], variant: str, one_python: str) -> str:
    """The Python whose wheel of a variant runs the whole suite: the factory's
    own where the variant is built for it, else the variant's first."""
    versions = [ver for v, ver in jobs if v == variant]
    return one_python if one_python in versions else versions[0]


# Test runs at once: a suite is mostly one busy core, and while two run the
# main thread builds the next wheel (the native libraries are already built;
# an extra Python compiles only its stub), so the factory keeps both cores of
# a small machine busy.
TEST_WORKERS = int(os.environ.get("TORCH_FACTORY_TEST_WORKERS", "2"))


def build_repair_test(m: dict, args: argparse.Namespace, jobs: list[tuple[str, str]], one_python: str,
                      tools_python: str) -> list[dict]:
    """Every wheel of the plan: built and repaired in order, tested as it comes
    (TEST_WORKERS at a time); one summary row each, in the plan's order."""
    rows = []
    envs = {}
    bindings = {}  # variant -> (digest, Python) of the first wheel's libtorch_python
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, TEST_WORKERS)) as testers:
        for n, (vname, ver) in enumerate(jobs, 1):
            variant = m["variants"][vname]
            if vname not in envs:
                envs[vname] = build_env(variant, tools_python, args.release_archs)
            tag = "cp" + ver.replace(".", "")
            log(f"[{n}/{len(jobs)}] {tag} {vname}: building")
            wheel, seconds = build_wheel(args.pythons[ver], tag, variant, envs[vname])
            digest = binding_digest(wheel)
            first_digest, first = bindings.setdefault(vname, (digest, ver))
            reuse = "" if first == ver else (f"; libtorch_python: the one built for {first}" if digest == first_digest
                                             else "; libtorch_python: rebuilt (USE_PYTHON_LIMITED_API=0)")
            log(f"[{n}/{len(jobs)}] {tag} {vname}: built in {seconds:.0f}s{reuse}; repairing")
            repaired = repair(wheel, tools_python, args.wheelhouse)
            shared_binding = digest == first_digest and ver != jobs_python(jobs, vname, one_python)
            row = {"platform": args.host_platform, "python": ver, "variant": vname,
                   "wheel": os.path.basename(repaired), "size_bytes": os.path.getsize(repaired),
                   "build_seconds": round(seconds, 1), "test_seconds": 0.0, "engine": "host",
                   "suite": "less the Python-independent files" if shared_binding else "whole",
                   "tests_passed": 0, "tests_failed": 0}
            rows.append((row, None))
            if args.skip_tests:
                continue
            # The tests check the architectures asked for; NVIDIA's libraries must
            # come from the wheels pip installed (no CUDA_HOME to fall back on).
            test_env = {k: v for k, v in envs[vname].items() if k == "TORCH_CUDA_ARCH_LIST"}
            label = f"[{n}/{len(jobs)}] {tag} {vname}"
            if vname == README_TEST_VARIANT and ver == one_python:
                # README's test command's own wheel: tested by that command.
                rows[-1] = (row, testers.submit(timed_suite, label, os.path.basename(repaired) + " (ci/test_wheel.sh)",
                                                functools.partial(test_with_readme_command, args.pythons[ver],
                                                                  repaired)))
                continue
            ignore = (PYTHON_INDEPENDENT_TESTS if shared_binding else ()) + FACTORY_SKIPPED_TESTS
            what = os.path.basename(repaired) + (f" (less {', '.join(ignore)})" if ignore else "")
            rows[-1] = (row, testers.submit(timed_suite, label, what, functools.partial(
                test_wheel, args.pythons[ver], f"{tag}-{vname}", repaired, test_env, ignore)))
    for row, tested in rows:
        if tested is not None:
            row["tests_passed"], row["tests_failed"], row["test_seconds"] = tested.result()
    return [row for row, _ in rows]


def timed_suite(label: str, what: str, suite) -> tuple[int, int, float]:
    """Runs suite() (-> passed, failed) between two log lines: (passed, failed, seconds)."""
    log(f"{label}: testing {what}")
    start = time.perf_counter()
    passed, failed = suite()
    seconds = time.perf_counter() - start
    log(f"{label}: {passed} passed, {failed} failed in {seconds:.0f}s")
    return passed, failed, round(seconds, 1)


def build_with_cibuildwheel(m: dict, args: argparse.Namespace, jobs: list[tuple[str, str]],
                            tools_python: str) -> list[dict]:
    """One cibuildwheel run per variant over its Pythons; one row per wheel
    with the seconds of its build, repair and test steps in the container."""
    from ci.builders import cibw as cibw_local

    run([tools_python, "-m", "pip", "install", "-q", "-r", os.path.join(CI, "requirements-cibuildwheel.txt")],
        quiet=True)
    rows = []
    for vname in dict.fromkeys(v for v, _ in jobs):
        versions = [ver for v, ver in jobs if v == vname]
        log(f"cibuildwheel: {vname} for {', '.join(versions)}")
        results = cibw_local.build_variant(vname, m["variants"][vname], versions, tools_python, args.release_archs,
                                           commit_time(), BUILD, test=not args.skip_tests)
        for ver, wheel, data in results:
            os.makedirs(args.wheelhouse, exist_ok=True)
            target = os.path.join(args.wheelhouse, os.path.basename(wheel))
            shutil.move(wheel, target)
            rows.append({"platform": args.host_platform, "python": ver, "variant": vname, "wheel": os.path.basename(target),
                         "size_bytes": os.path.getsize(target), "build_seconds": round(data.get("build", 0), 1),
                         "repair_seconds": round(data.get("repair", 0), 1),
                         "test_seconds": round(data.get("test", 0), 1), "engine": "cibuildwheel",
                         "tests_passed": data.get("passed", 0),
                         # No pytest summary for a wheel that was to be tested: count it as failed.
                         "tests_failed": data.get("failed", 0) or int(not args.skip_tests and not data.get("passed"))})
    return rows


def build_zig_platforms(m: dict, platforms: list[str], tools_python: str, wheelhouse: str,
                        skip_tests: bool) -> list[dict]:
    """The cpu wheel of each zig-built platform: cross-built, repaired and
    checked (as every wheel), the Windows one tested under Wine while the
    others build (Windows goes first); one row each, in the matrix's order."""
    builder = make_venv(sys.executable, os.path.join(BUILD, "build-cross"), ["setuptools>=69", "wheel"], fresh=False)
    windows_first = sorted(platforms, key=lambda name: m["platforms"][name]["cibw_platform"] != "windows")
    rows = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as wine:
        for name in windows_first:
            entry = m["platforms"][name]
            wheel, seconds = cross_build.build(name, tools_python, builder, os.path.join(BUILD, f"dist-{name}"),
                                               {"SOURCE_DATE_EPOCH": commit_time()})
            log(f"{name}: built in {seconds:.0f}s; repairing and checking")
            repaired = repair(wheel, tools_python, wheelhouse)
            if not os.path.basename(repaired).endswith(f"-{entry['wheel_platform']}.whl"):
                raise SystemExit(f"factory: {os.path.basename(repaired)} is not tagged {entry['wheel_platform']} "
                                 f"(ci/matrix.toml): a library needs a newer {entry['cibw_platform']} than the tag says")
            row = {"platform": name, "python": "3.9+", "variant": "cpu", "wheel": os.path.basename(repaired),
                   "size_bytes": os.path.getsize(repaired), "build_seconds": round(seconds, 1),
                   "test_seconds": 0.0, "engine": "zig", "tested": "checked only: nothing here runs macOS binaries",
                   "tests_passed": 0, "tests_failed": 0}
            tested = None
            if entry["cibw_platform"] == "windows" and not skip_tests:
                row["tested"] = "under Wine"
                tested = wine.submit(timed_suite, name, os.path.basename(repaired) + " under Wine",
                                     lambda wheel=repaired: wine_test.test(wheel, tools_python, [])[:2])
            rows[name] = (row, tested)
    for row, tested in rows.values():
        if tested is not None:
            row["tests_passed"], row["tests_failed"], row["test_seconds"] = tested.result()
    return [rows[name][0] for name in platforms]


def merge_rows(wheelhouse: str, rows: list[dict], platforms: list[str]) -> list[dict]:
    """This run's rows, after the earlier rows of the platforms it left out
    whose wheels are still in the wheelhouse (a cross-platform run adds to
    the host's table, and the reverse)."""
    path = os.path.join(wheelhouse, "summary.json")
    earlier = json.load(open(path)) if os.path.exists(path) else []
    kept = [r for r in earlier if r.get("platform") not in platforms and r.get("platform")
            and os.path.exists(os.path.join(wheelhouse, r["wheel"]))]
    return kept + rows


def write_wheelhouse(wheelhouse: str, rows: list[dict], variants: list[str], m: dict) -> str:
    """summary.json, the per-variant PEP 503 indexes and the variant index
    (index/variants/, ci/publish/variants.py, checked); the index directory."""
    os.makedirs(wheelhouse, exist_ok=True)
    with open(os.path.join(wheelhouse, "summary.json"), "w") as f:
        json.dump(rows, f, indent=2)
    index_dir = os.path.join(wheelhouse, "index")
    wheels = [r["wheel"] for r in rows]
    wheel_index.write(wheelhouse, index_dir, wheels, variants)
    variant_index = os.path.join(index_dir, VARIANT_INDEX)
    wheel_variants.write_index(wheelhouse, variant_index, wheels, m)
    problems = wheel_variants.check(os.path.join(variant_index, "files"))
    if problems:
        raise SystemExit("the variant index is inconsistent:\n  " + "\n  ".join(problems))
    return index_dir


# index/<VARIANT_INDEX>/simple: the one index a variant-aware installer chooses from.
VARIANT_INDEX = wheel_variants.INDEX_NAME


def check_variant_index(m: dict, variants: list[str], index_dir: str, python: str, tools_python: str) -> None:
    """uv with the wheel-variants preview installs from the variant index as its
    driver calls for (NV_VARIANT_PROVIDER_FORCE_CUDA_DRIVER_VERSION stands in for
    one): none gives the cpu wheel, each CUDA variant's driver that variant."""
    url = "file://" + os.path.join(index_dir, VARIANT_INDEX, "simple")
    cases = [("", None)] + [(m["variants"][v]["cuda"], m["variants"][v]["cuda"]) for v in variants
                            if "cuda" in m["variants"][v]]
    for driver, expected in cases:
        log(f"installing from the variant index with uv, driver {driver or 'none'} ({url})")
        venv = os.path.join(BUILD, f"index-check-variants-{driver or 'none'}")
        make_venv(python, venv, [], fresh=True)
        run(*variant_install_command(tools_python, venv, url, driver, "torch"))
        got = run([venv_python(venv), "-c", "import torch; print(torch.version.cuda)"], cwd=tempfile.gettempdir(),
                  quiet=True).strip().splitlines()[-1]
        if got != str(expected):
            raise SystemExit(f"the variant index gave torch.version.cuda = {got} for driver {driver or 'none'}, "
                             f"expected {expected}")
        print(f"driver {driver or 'none'}: torch.version.cuda {got}")


def variant_install_command(tools_python: str, venv: str, index_url: str, driver: str,
                            requirement: str) -> tuple[list[str], dict]:
    """How a uv user installs from the variant index (docs/USING.md, "One index for every
    variant"), with `driver` ("" for none) standing in for the machine's CUDA driver."""
    uv = os.path.join(os.path.dirname(tools_python), "uv")
    env = {"UV_NO_CONFIG": "1", "UV_SYSTEM_CERTS": "1", "UV_NATIVE_TLS": "1",
           "UV_PREVIEW_FEATURES": "wheel-variants", "NV_VARIANT_PROVIDER_FORCE_CUDA_DRIVER_VERSION": driver}
    # The CUDA variants' runtime wheels come from PyPI; uv takes torch from the first index that has it.
    return [uv, "pip", "install", "-q", "--python", venv_python(venv), "--extra-index-url", index_url,
            requirement], env


def index_install_commands(client: str, tools_python: str, venv: str, index_url: str, with_pypi: bool,
                           requirement: str) -> tuple[list[str], dict]:
    """How a user installs from a variant's index with pip or with uv (docs/USING.md,
    "Installing a variant"), and the environment that keeps machine-wide
    configuration out of it. with_pypi: NVIDIA's runtime wheels come from PyPI."""
    if client == "pip":
        index_args = ["--index-url", index_url] + (["--extra-index-url", PYPI] if with_pypi else [])
        return ([venv_python(venv), "-m", "pip", "install", "-q", *index_args, requirement],
                {**ISOLATED_PIP, "PIP_CONFIG_FILE": os.devnull})
    # uv asks the extra index first and takes a package only from the first
    # index that has it, so PyPI's torch can never win over the variant's.
    index_args = ["--extra-index-url", index_url] if with_pypi else ["--index-url", index_url]
    uv = os.path.join(os.path.dirname(tools_python), "uv")
    # uv reads no pip.conf; the system's CA bundle is where this machine's registries chain to.
    return ([uv, "pip", "install", "-q", "--python", venv_python(venv), *index_args, requirement],
            {"UV_NO_CONFIG": "1", "UV_SYSTEM_CERTS": "1", "UV_NATIVE_TLS": "1"})


def check_index_installs(m: dict, rows: list[dict], variants: list[str], index_dir: str, python: str,
                         tools_python: str) -> dict[str, str]:
    """Installs each variant from its index as users would, with pip and with
    uv, each into a fresh venv, and imports it; a venv per variant for the examples."""
    venvs = {}
    for vname in variants:
        url = "file://" + os.path.join(index_dir, vname, "simple")
        wheel = next(r["wheel"] for r in rows if r["variant"] == vname)
        requirement = wheel_index.project_name(wheel)
        with_pypi = "cuda" in m["variants"][vname]
        if with_pypi:
            # The exact version keeps the project itself from coming from PyPI.
            requirement += "==" + wheel.split("-")[1]
        for client in ("pip", "uv"):
            log(f"installing from the {vname} index with {client} ({url})")
            venv = os.path.join(BUILD, f"index-check-{vname}-{client}")
            make_venv(python, venv, [], fresh=True)
            cmd, env = index_install_commands(client, tools_python, venv, url, with_pypi, requirement)
            run(cmd, env=env)
            print(run([venv_python(venv), "-c",
                       "import torch; print('imported torch', torch.__version__, 'from', torch.__file__, "
                       "'| CUDA', torch.version.cuda, 'available:', torch.cuda.is_available())"],
                      cwd=tempfile.gettempdir(), quiet=True).strip())
            venvs.setdefault(vname, venv)
    return venvs


# The training programs under examples/, each checking its own loss or accuracy threshold.
TRAINING_EXAMPLES = ("train_digits.py", "char_transformer.py", "cnn_synthetic.py", "lstm_sequence.py",
                     "dataloader_classifier.py", "vae_lbfgs.py")


def run_examples(venvs: dict[str, str], with_training: bool) -> None:
    """hello_world from every variant; the training programs from the cpu wheel
    (without a GPU, a CUDA wheel runs the same CPU code, which its test run covered)."""
    for vname, venv in venvs.items():
        log(f"examples/hello_world.py from the installed {vname} wheel")
        run([venv_python(venv), os.path.join(ROOT, "examples", "hello_world.py")], cwd=tempfile.gettempdir())
        if not with_training or vname != "cpu":
            continue
        run([venv_python(venv), "-m", "pip", "install", "-q", "-r", os.path.join(ROOT, "examples", "requirements.txt")],
            quiet=True)
        for example in TRAINING_EXAMPLES:
            log(f"examples/{example} from the installed {vname} wheel")
            run([venv_python(venv), os.path.join(ROOT, "examples", example)], cwd=tempfile.gettempdir())


def build_extensions(m: dict, venvs: dict[str, str], tools_python: str, wheelhouse: str) -> None:
    """examples/extension built against each variant's torch (in the venv pip
    installed it into from the index) and tested beside it in the uv-installed
    venv (fresh, torch from the index): ci/testing/extensions.py."""
    from ci.testing import extensions as extension

    for vname, venv in venvs.items():
        test_venv = venv[: -len("-pip")] + "-uv" if venv.endswith("-pip") else venv
        extension.check_variant(vname, m["variants"][vname], venv_python(venv), venv_python(test_venv), "torch",
                                tools_python, wheelhouse)


class StageTimes:
    """The wall seconds of each stage of a run, printed last so that the
    time budget shows in every log."""

    def __init__(self) -> None:
        self.rows: list[tuple[str, float]] = []
        self._start = time.monotonic()

    @contextlib.contextmanager
    def stage(self, name: str):
        start = time.monotonic()
        try:
            yield
        finally:
            self.rows.append((name, time.monotonic() - start))

    def table(self) -> str:
        width = max([len(name) for name, _ in self.rows] + [len("total")])
        lines = [f"{'stage':<{width}} {'seconds':>8}", "-" * (width + 9)]
        lines += [f"{name:<{width}} {seconds:>8.1f}" for name, seconds in self.rows]
        lines.append(f"{'total':<{width}} {time.monotonic() - self._start:>8.1f}")
        return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    m = matrix_file.load()
    args = parse_args(argv, m)
    log(f"Pythons: {', '.join(f'{v} ({p})' for v, p in args.pythons.items())}; variants: {', '.join(args.variants)}"
        + (f"; not found here: {', '.join(args.missing)}" if args.missing else ""))
    os.makedirs(BUILD, exist_ok=True)
    times = StageTimes()
    with times.stage("tools environment"):
        tools_python = tools_environment()
    jobs, one_python = plan_jobs(m, args)
    host = args.host_platform in args.platforms
    rows = []
    with times.stage(f"build, repair, test ({args.engine})"):
        if host and args.engine == "cibuildwheel":
            rows = build_with_cibuildwheel(m, args, jobs, tools_python)
        elif host:
            rows = build_repair_test(m, args, jobs, one_python, tools_python)
    host_rows = list(rows)
    other_platforms = [p for p in args.platforms if p != args.host_platform]
    with times.stage("zig platforms"):
        rows += build_zig_platforms(m, other_platforms, tools_python, args.wheelhouse, args.skip_tests)
    with times.stage("summary and indexes"):
        table = merge_rows(args.wheelhouse, rows, args.platforms)
        index_dir = write_wheelhouse(args.wheelhouse, table, sorted({r["variant"] for r in table}), m)
    if host:  # installing from the index and what follows run this machine's wheels
        with times.stage("installs from the indexes (pip, uv)"):
            venvs = check_index_installs(m, host_rows, args.variants, index_dir, args.pythons[one_python],
                                         tools_python)
            check_variant_index(m, args.variants, index_dir, args.pythons[one_python], tools_python)
        with times.stage("examples"):
            run_examples(venvs, with_training=not args.skip_tests)
        if args.engine == "host" and not args.skip_tests:
            with times.stage("extensions"):
                build_extensions(m, venvs, tools_python, args.wheelhouse)
    print_table(table)
    print(f"\nwheelhouse: {args.wheelhouse} (summary.json, index/)\n")
    print(times.table())
    return 1 if any(r["tests_failed"] for r in rows) else 0


def print_table(rows: list[dict]) -> None:
    header = (f"{'platform':<14} {'Python':<7} {'variant':<8} {'engine':<12} {'wheel':<66} {'size':>8} {'build s':>8} "
              f"{'test s':>7} {'passed':>7} {'failed':>7}")
    print("\n" + header + "\n" + "-" * len(header))
    for r in rows:
        print(f"{r.get('platform', ''):<14} {r['python']:<7} {r['variant']:<8} {r['engine']:<12} {r['wheel']:<66} "
              f"{r['size_bytes'] / 2**20:>6.1f}MB {r['build_seconds']:>8.1f} {r['test_seconds']:>7.1f} "
              f"{r['tests_passed']:>7} {r['tests_failed']:>7}")


if __name__ == "__main__":
    sys.exit(main())
