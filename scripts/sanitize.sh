#!/usr/bin/env bash
# Builds Stiction under a sanitizer and runs its tests (docs/sanitizers.md).
#
#   scripts/sanitize.sh asan       # ASan + UBSan into build-asan/, the whole suite
#   scripts/sanitize.sh asan --landing  # the same build, the pass run before
#                                  # landing an engine change (below; --ci is
#                                  # its old name, from when CI ran it)
#   scripts/sanitize.sh tsan       # TSan into build-tsan/, the tests labelled
#                                  # "threads" (tests/CMakeLists.txt, sanitizers block)
#
# Every sanitizer halts on its first report. Reports go to files under
# <build>/sanitizer-logs/ (log_path) as well as failing the process: a report
# from a child process (stiction-sim, stiction, stiction-bench run by a test)
# whose test only looks at the exit code or the output cannot go unnoticed,
# since any file there fails the run and is printed. Suppressions, for
# third-party libraries only, are in scripts/sanitizers/.
#
# Extra arguments go to ctest (e.g. -R island). Prints the wall time of the
# build and of the tests; exits with ctest's status (1 if ctest passed but a
# sanitizer log was written).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root="$(pwd)"

mode="${1:-}"
case "$mode" in
  asan) build="build-asan"; sanitize="address,undefined"; label_args=()
        targets="stiction_sanitize_targets"
        # -O1: the cold build of every test executable is what decides
        # whether this pass fits in CI (docs/sanitizers.md, "Build cost").
        opt=(-DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -DNDEBUG"
             -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -DNDEBUG") ;;
  tsan) build="build-tsan"; sanitize="thread"; label_args=(-L threads)
        targets="stiction_thread_test_targets"; opt=() ;;
  *) echo "usage: scripts/sanitize.sh asan|tsan [ctest arguments...]" >&2; exit 2 ;;
esac
shift

# --landing: the pass run before landing a change to the engine (it ran in
# CI until a cold CI had to fit 25 minutes; docs/sanitizers.md, "In CI and
# before landing"). It leaves out the tests that only repeat,
# scene by scene, what the Release pass checks bit for bit or that cannot
# work at a sanitizer's speed; everything else runs instrumented:
#   ShippedScenes/      ~330 whole-scene stiction-sim runs (goldens and
#                       determinism): the same engine code the scenario
#                       tests run, 25+ min under ASan on 2 cores
#   Demos/CiSoakTest    10 s of the clutter and 300 s of the grasp demo,
#                       simulated: 15+ min each instrumented (the same soak
#                       under ASan is in docs/sanitizers.md, Figures)
#   engine_layering_test compiles headers; runs none of Stiction's code
#   NmdpGaitTest        whole quadruped gaits under NMDP (seconds of F_v
#                       differences each in Release); nmdp_stepper_test
#                       runs the same stepper instrumented
#   SimplexQpTest.*BruteForce*  the QP against enumerating every active set
#                       (a minute instrumented, the enumeration in -O0 test
#                       code); the other simplex_qp_test cases and
#                       nmdp_stepper_test run the solver instrumented
#   AlSolversTest.ClutterStaysFiniteAndSettlesWith, SceneFuzzTest.Randomly-
#   CorruptedScenes, RobotFuzzTest.MutatedUrdf, StictionBenchExecutable.
#                       the slowest whole-scene and mutation loops (minutes
#                       each instrumented); the fuzz harnesses, built with
#                       ASan, and their FuzzRegression replays cover the
#                       loaders they feed
ci_args=()
if [ "${1:-}" = "--landing" ] || [ "${1:-}" = "--ci" ]; then
  [ "$mode" = asan ] || { echo "sanitize.sh: $1 is for asan" >&2; exit 2; }
  ci_args=(-E '^(ShippedScenes/|Demos/CiSoakTest|engine_layering_test$|AlSolversTest\.ClutterStaysFiniteAndSettlesWith|SceneFuzzTest\.RandomlyCorruptedScenes|StictionBenchExecutable\.|RobotFuzzTest\.MutatedUrdf|NmdpGaitTest\.|SimplexQpTest\.(MatchesTheBruteForceOptimum|WithEqualityCapsMatchesTheBruteForce)|regression_tests_NOT_BUILT$)')
  # The goldens' runner, all of whose tests are left out above, is not
  # built (tests/CMakeLists.txt, stiction_sanitize_ci_targets).
  targets="stiction_sanitize_ci_targets"
  shift
fi

supp="$root/scripts/sanitizers"
logs="$root/$build/sanitizer-logs"

scripts/setup-deps.sh

start=$(date +%s)
# RelWithDebInfo (-O2 for tsan, -O1 for asan); the sanitizer block of the
# top-level CMakeLists adds line tables and frame pointers.
scripts/cmake-configure.sh "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTICTION_BUILD_TESTS=ON \
  -DSTICTION_SANITIZE="$sanitize" "${opt[@]}"
# Only what ctest runs (tests/CMakeLists.txt, sanitizers block): for asan
# every executable but the benchmark programs that only print figures; for
# tsan the executables of the "threads" tests and the programs they spawn.
cmake --build "$build" -j"$(nproc)" --target "$targets"
built=$(date +%s)
echo "sanitize.sh: $mode build took $((built - start)) s (wall)"

# halt_on_error: stop at the first report. detect_leaks: LSan at exit.
# strict_string_checks: str* interceptors check the whole string, not only
# the bytes read. detect_stack_use_after_return: use of a dead frame's
# locals. check_initialization_order/strict_init_order: static
# initialisation order fiasco. abort_on_error=0: exit with a status (no core
# dumps on a 2-core CI machine).
export ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1:print_summary=1:log_path=$logs/asan"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:suppressions=$supp/ubsan.supp:log_path=$logs/ubsan"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
# Tests that wait on wall time for a program they started (the viewer
# writing video fragments) scale their waits by this, as ctest's timeouts
# are scaled (tests/CMakeLists.txt, stiction_timeout_scale).
export STICTION_TEST_TIMEOUT_SCALE=10
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$supp/tsan.supp:log_path=$logs/tsan"

# LSan names a leaked block by the module that allocated it; the Mesa driver
# is unloaded at glfwTerminate, before LSan runs, which leaves its leaks
# nameless and unsuppressible. keep_modules_loaded.so makes dlclose a no-op
# in every process the tests start (built without sanitizers, since it is
# preloaded into ctest, xvfb-run, Xvfb and ffmpeg too; verify_asan_link_order=0
# lets it come before the ASan runtime in instrumented programs).
if [ "$mode" = asan ]; then
  keep="$root/$build/keep_modules_loaded.so"
  cc -shared -fPIC -O2 -o "$keep" "$supp/keep_modules_loaded.c"
  export LD_PRELOAD="$keep${LD_PRELOAD:+:$LD_PRELOAD}"
  ASAN_OPTIONS="$ASAN_OPTIONS:verify_asan_link_order=0"
fi

rm -rf "$logs"
mkdir -p "$logs"
status=0
ctest --test-dir "$build" --output-on-failure -j"$(nproc)" "${label_args[@]}" "${ci_args[@]}" "$@" || status=$?
done_at=$(date +%s)
echo "sanitize.sh: $mode tests took $((done_at - built)) s (wall)"

if compgen -G "$logs/*" >/dev/null; then
  echo "sanitize.sh: sanitizer reports in $logs:" >&2
  for f in "$logs"/*; do
    echo "==== $f" >&2
    cat "$f" >&2
  done
  [ "$status" -ne 0 ] || status=1
fi
echo "sanitize.sh: $mode total $((done_at - start)) s (wall), ctest status $status"
exit "$status"
