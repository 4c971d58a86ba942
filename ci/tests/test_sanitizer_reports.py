"""ci/sanitizers/only_tracer_crashes.sh: which sanitizer logs let
ci/test_sanitizers.sh rerun the suite once instead of failing."""
import pathlib
import subprocess

SCRIPT = pathlib.Path(__file__).resolve().parents[1] / "sanitizers" / "only_tracer_crashes.sh"

TRACER_CRASH = """Tracer caught signal 11: addr=0x76a0 pc=0x7f913d4e80f0 sp=0x7f91257ded10
==23518==LeakSanitizer has encountered a fatal error.
==23518==HINT: For debugging, try setting environment variable LSAN_OPTIONS=verbosity=1:log_threads=1
==23518==HINT: LeakSanitizer does not work under ptrace (strace, gdb, etc)
"""
LEAK = """==4242==ERROR: LeakSanitizer: detected memory leaks
Direct leak of 64 byte(s) in 1 object(s) allocated from:
SUMMARY: AddressSanitizer: 64 byte(s) leaked in 1 allocation(s).
"""
USE_AFTER_FREE = "==77==ERROR: AddressSanitizer: heap-use-after-free on address 0x602000000010\n"
UBSAN = "Tensor.cpp:12:5: runtime error: signed integer overflow\n"


def _verdict(tmp_path, *texts):
    paths = []
    for i, text in enumerate(texts):
        path = tmp_path / f"asan.{i}"
        path.write_text(text)
        paths.append(str(path))
    return subprocess.run(["bash", str(SCRIPT), *paths]).returncode


def test_tracer_crashes_alone_allow_a_rerun(tmp_path):
    assert _verdict(tmp_path, TRACER_CRASH) == 0
    assert _verdict(tmp_path, TRACER_CRASH, TRACER_CRASH) == 0


def test_any_finding_fails(tmp_path):
    for finding in (LEAK, USE_AFTER_FREE, UBSAN):
        assert _verdict(tmp_path, finding) == 1
        assert _verdict(tmp_path, TRACER_CRASH, finding) == 1
        assert _verdict(tmp_path, TRACER_CRASH + finding) == 1


def test_no_reports_is_not_a_tracer_crash(tmp_path):
    assert _verdict(tmp_path) == 1
