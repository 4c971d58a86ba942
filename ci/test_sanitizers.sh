#!/usr/bin/env bash
# The test suite under AddressSanitizer (with LeakSanitizer at exit) and
# UndefinedBehaviorSanitizer: a USE_ASAN=1 USE_UBSAN=1 build of this Python's
# cpu wheel (its own CMake directory, build/cmake-cpu-asan-ubsan), installed
# unrepaired into a fresh venv and tested from outside the checkout with
# libasan preloaded (CPython itself is not instrumented). Fails on any report:
# every sanitizer writes to build/sanitizers/logs/, which must stay empty.
#
#   bash ci/test_sanitizers.sh [pytest args...]
#
# Deselected: the `build` tests, which check a release wheel's packaging
# (RPATH, NEEDED entries, a C++ consumer built with cmake) that a sanitizer
# build deliberately changes (it needs libasan), and which run compilers that
# would inherit the preloaded runtime. Also deselected: the `workers` tests
# (DataLoader worker processes forked from the threaded test process). GCC
# 12's ASan allocator does not guard fork: a worker inherited one of its
# locks held (by the OpenMP pool's thread, the only other one alive) and
# deadlocked before running any code of ours. The same tests run in the
# plain suite, where glibc's malloc locks its arenas around fork.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

ensure_tools_venv
work="$REPO_ROOT/build/sanitizers"
rm -rf "$work/wheel" "$work/logs"

log "building the cpu wheel with USE_ASAN=1 USE_UBSAN=1"
USE_ASAN=1 USE_UBSAN=1 TORCH_TOOLS_PYTHON="$TOOLS_VENV/bin/python" \
  "$TOOLS_VENV/bin/python" -m pip wheel "$REPO_ROOT" --no-build-isolation --no-deps -q -w "$work/wheel"
wheel="$(ls "$work"/wheel/*.whl)"

venv="$work/venv"
PYTHON="$TOOLS_VENV/bin/python" fresh_venv "$venv"
"$venv/bin/python" -m pip install -q "$wheel" -r "$REPO_ROOT/tests/requirements.txt"

workdir="$(mktemp -d)"
cp -r "$REPO_ROOT/tests" "$REPO_ROOT/examples" "$REPO_ROOT/pyproject.toml" "$workdir/"
# libasan first (it must interpose malloc before anything else loads), and
# libstdc++ with it: ASan intercepts __cxa_throw, and finds the real one only
# if libstdc++ is loaded when it starts (CPython itself does not link it).
preload="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libstdc++.so)"
log "running the tests under ASan + LSan + UBSan (preloaded: $preload)"
cd "$workdir"
# PYTHONMALLOC=malloc: CPython's objects come from malloc, where ASan sees
# their bounds and lifetimes, instead of from pymalloc's arenas.
# allocator_may_return_null: tests that ask for absurd sizes expect
# torch's out-of-memory error, not ASan's abort.
# The stable-sort tests are left out: with them, LeakSanitizer's tracer
# crashed at the suite process's exit in every full run on 2026-11-26 (all
# tests passing, no ASan or UBSan finding; the suite without them, and every
# subset of files, exits clean). Issue 40's note says what is known; they
# run everywhere else.
run_suite() {
  rm -rf "$work/logs" && mkdir -p "$work/logs"
  LD_PRELOAD="$preload" PYTHONMALLOC=malloc TORCH_TEST_WHEEL=1 \
    ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1:strict_init_order=1:log_path=$work/logs/asan" \
    LSAN_OPTIONS="suppressions=$REPO_ROOT/ci/sanitizers/lsan.supp:print_suppressions=0" \
    UBSAN_OPTIONS="print_stacktrace=1:report_error_type=1:log_path=$work/logs/ubsan" \
    "$venv/bin/python" -m pytest tests -m "not build and not workers" -p no:cacheprovider -q \
    --deselect tests/test_kernel_paths.py::test_sort_is_stable_in_pytorchs_order "$@" |
    tee "$work/pytest.log"
}

# One rerun when the only reports are LeakSanitizer's tracer crashing at a
# process exit, with no finding (ci/sanitizers/only_tracer_crashes.sh): in
# the main pytest process it makes the exit status nonzero; in a test's
# subprocess (the vec-math suite at each CPU level) it fails that test, whose
# child passed every test of its own (seen on 2026-11-30). A second time
# fails like any report; so does a failing test in the rerun.
for attempt in 1 2; do
  status=0
  run_suite "$@" || status=$?
  reports="$(find "$work/logs" -type f | sort)"
  # shellcheck disable=SC2086  # one path per word: the logs' names have no spaces
  if [ -n "$reports" ] && [ "$attempt" -eq 1 ] && bash "$REPO_ROOT/ci/sanitizers/only_tracer_crashes.sh" $reports; then
    log "LeakSanitizer's tracer crashed at a process exit (no finding): running the suite once more"
    for r in $reports; do head -n 3 "$r"; done
    continue
  fi
  break
done

if [ -n "$reports" ]; then
  log "sanitizer reports:"
  for r in $reports; do echo "--- $r"; head -n 60 "$r"; done
  echo "FAILED: $(echo "$reports" | wc -l) sanitizer report(s) in $work/logs" >&2
  exit 1
fi
[ "$status" -eq 0 ] || { echo "FAILED: the test suite under sanitizers (exit $status)" >&2; exit "$status"; }
log "sanitizers: no reports"
