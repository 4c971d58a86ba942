"""The cibuildwheel engine's pure parts: reading cibuildwheel's output, the
identifiers and interpreter paths of each matrix Python, the keys that decide
when a CPython or the local image is rebuilt."""

from ci.builders import cibw as cibw_local
from ci.local import cpython as build_cpython

# What cibuildwheel prints for two wheels (colours and timings trimmed), timestamped by the reader.
LOG = """\
Running before_all...
                                                                      \x1b[32m✓ \x1b[0m15.84s
\x1b[1m\x1b[34mBuilding cp311-manylinux_x86_64 wheel\x1b[0m
CPython 3.11 manylinux x86_64
Building wheel...
* Building wheel...
Repairing wheel...
twine check: passed
Testing wheel...
================ 2105 passed, 465 skipped, 3 warnings in 7.65s =================
\x1b[32m✓ \x1b[0mcp311-manylinux_x86_64 finished in 2 minutes
Building cp314t-manylinux_x86_64 wheel
Building wheel...
Repairing wheel...
Testing wheel...
=========== 2 failed, 2103 passed, 465 skipped in 7.58s (0:00:07) ============
✓ cp314t-manylinux_x86_64 finished in 48 seconds
"""


def test_parse_log_times_each_step_and_counts_tests():
    lines = [(float(i), line) for i, line in enumerate(LOG.splitlines(keepends=True))]
    builds = cibw_local.parse_log(lines)
    assert builds["cp311-manylinux_x86_64"] == {"build": 2.0, "repair": 2.0, "test": 2.0, "passed": 2105, "failed": 0}
    assert builds["cp314t-manylinux_x86_64"] == {"build": 1.0, "repair": 1.0, "test": 2.0, "passed": 2103, "failed": 2}


def test_identifiers_and_prefixes_follow_manylinux():
    assert cibw_local.identifier("3.9") == "cp39-manylinux_x86_64"
    assert cibw_local.identifier("3.14t") == "cp314t-manylinux_x86_64"
    assert build_cpython.prefix("3.14") == "/opt/python/cp314-cp314"
    assert build_cpython.prefix("3.14t") == "/opt/python/cp314-cp314t"
    assert build_cpython.configure_flags("3.14t")[-1] == "--disable-gil"
    assert "--disable-gil" not in build_cpython.configure_flags("3.14")


def test_build_keys_differ_between_the_two_builds_of_one_source():
    assert build_cpython.build_key("3.14") != build_cpython.build_key("3.14t")
    assert build_cpython.build_key("3.14") == build_cpython.build_key("3.14")


def test_the_build_key_follows_the_build_steps_not_the_rest_of_the_file(monkeypatch):
    before = build_cpython.build_key("3.14")

    def no_file_reads(*args, **kwargs):  # a key over the whole file would read it
        raise AssertionError("build_key read a file")

    monkeypatch.setattr(build_cpython, "open", no_file_reads, raising=False)
    assert build_cpython.build_key("3.14") == before

    def build(version, jobs):  # other steps
        return None

    monkeypatch.setattr(build_cpython, "build", build)
    assert build_cpython.build_key("3.14") != before


def test_every_repair_wheel_command_runs_the_repair_job_from_the_checkout():
    """`python -m ci repair` imports the package from the working directory: each platform's
    command enters {project} first (cmd.exe's `cd /d` on Windows, where the drive may differ)."""
    import os
    import tomllib

    from ci.proc import ROOT

    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        cibw = tomllib.load(f)["tool"]["cibuildwheel"]
    commands = {"linux": cibw["repair-wheel-command"], "macos": cibw["macos"]["repair-wheel-command"],
                "windows": cibw["windows"]["repair-wheel-command"]}
    for platform, command in commands.items():
        enter = "cd /d {project} && " if platform == "windows" else "cd {project} && "
        assert command.startswith(enter) and command.endswith("-m ci repair {wheel} {dest_dir}"), (platform, command)
