"""`python3 -m ci JOB [ARGS]`, from the checkout: the one entry point to the
factory's jobs. Each job is a module of this package run as a program (its
`__main__` block), so `python3 -m ci release check-tag v1.2.3` is
`python3 -m ci.publish.release check-tag v1.2.3`."""
from __future__ import annotations

import runpy
import sys

# Job -> module, in pipeline order (ci/__init__.py draws the stages).
JOBS = {
    "factory": "ci.factory",
    "matrix": "ci.plan.matrix",
    "cross-build": "ci.builders.cross",
    "repair": "ci.repair.wheel",
    "repair-macos": "ci.repair.macos",
    "notices": "ci.repair.notices",
    "check-wheel": "ci.check.wheel",
    "check-cpu-code": "ci.check.cpu_code",
    "macho-signature": "ci.check.macho_signature",
    "wine-test": "ci.testing.wine",
    "extensions": "ci.testing.extensions",
    "index": "ci.publish.index",
    "variants": "ci.publish.variants",
    "pypi-wheel": "ci.publish.pypi_wheel",
    "release": "ci.publish.release",
    "publish": "ci.publish.pypi",
    "github-releases": "ci.publish.github_releases",
    "build-cpython": "ci.local.cpython",
    "local-image": "ci.local.image",
    "windows-python": "ci.local.windows_python",
    "check-action-pins": "ci.lint.action_pins",
    "check-runners": "ci.lint.runners",
    "check-requirements": "ci.lint.requirements",
    "release-rehearsal": "ci.rehearse.steps",
    "act-release": "ci.rehearse.workflows",
}


def usage() -> str:
    width = max(map(len, JOBS))
    lines = [f"  {job:<{width}}  {module}" for job, module in JOBS.items()]
    return "usage: python3 -m ci JOB [ARGS...]\n\njobs (each module's docstring says what it does):\n" + "\n".join(lines)


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(usage())
        sys.exit(0 if len(sys.argv) >= 2 else 2)
    job = sys.argv[1]
    if job not in JOBS:
        sys.exit(f"python3 -m ci: no job {job!r}\n\n{usage()}")
    sys.argv = [f"python3 -m ci {job}", *sys.argv[2:]]
    runpy.run_module(JOBS[job], run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
