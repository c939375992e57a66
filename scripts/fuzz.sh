#!/usr/bin/env bash
# Coverage-guided fuzzing campaign (docs/fuzzing.md):
#
#   scripts/fuzz.sh <harness|all> [seconds per harness, default 600]
#
# harnesses: scene_yaml scene_overrides mesh command_file urdf mjcf.
# Builds build-fuzz/ with clang, libFuzzer, ASan and UBSan
# (STICTION_BUILD_FUZZERS=ON), seeds a working corpus outside git
# (build-fuzz/corpus/<harness>/) from the shipped assets and
# tests/fuzz/<harness>/, runs libFuzzer on one core for the given time
# (-timeout=10 s per input counts as a hang, -rss_limit_mb=2048) with the
# format's dictionary (fuzz/dict/<harness>.dict), keeps going after a finding
# (fork mode, one worker) and saves findings in build-fuzz/artifacts/<harness>/.
# Prints per harness: executions, exec/s, coverage (cov: edges, ft:
# features, from libFuzzer's last status line), corpus size, and the
# crashes, hangs (timeouts), out-of-memory inputs and leaks found (known
# third-party leaks, fuzz/lsan.supp, are suppressed).
# Replay one with: build-fuzz/fuzz/fuzz_<harness> <file>, or
# build-fuzz/fuzz/stiction-fuzz-replay <harness> <file>.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD

all=(scene_yaml scene_overrides mesh command_file urdf mjcf)
if [[ $# -lt 1 || $# -gt 2 ]]; then
  echo "usage: scripts/fuzz.sh <harness|all> [seconds per harness, default 600]" >&2
  echo "harnesses: ${all[*]}" >&2
  exit 2
fi
if [[ $1 == all ]]; then
  harnesses=("${all[@]}")
else
  [[ " ${all[*]} " == *" $1 "* ]] || { echo "scripts/fuzz.sh: unknown harness '$1' (one of: ${all[*]} all)" >&2; exit 2; }
  harnesses=("$1")
fi
seconds=${2:-600}
[[ $seconds =~ ^[0-9]+$ && $seconds -gt 0 ]] || { echo "scripts/fuzz.sh: seconds must be a positive integer, got '$seconds'" >&2; exit 2; }

command -v clang++ >/dev/null || { echo "scripts/fuzz.sh: clang++ not found (Debian packages clang, libclang-rt-14-dev)" >&2; exit 1; }

build=$root/build-fuzz
# The whole tree is instrumented (coverage for libFuzzer, ASan, UBSan that
# aborts on the first report); -O1 with assertions on (no NDEBUG) so
# Eigen's and our own asserts are findings too.
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g" "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g" \
  "-DCMAKE_C_FLAGS=$flags" "-DCMAKE_CXX_FLAGS=$flags" \
  -DSTICTION_BUILD_FUZZERS=ON -DSTICTION_BUILD_TESTS=OFF -DSTICTION_BUILD_APP=OFF >/dev/null
targets=()
for h in "${harnesses[@]}"; do targets+=(--target "fuzz_$h"); done
cmake --build "$build" -j2 "${targets[@]}"

# Seeds: the shipped assets a harness reads, and its regression inputs.
seed() {
  local h=$1 dir=$build/corpus/$1 f
  mkdir -p "$dir"
  case $h in
    scene_yaml)
      for f in assets/scenes/*.yaml assets/scenes/includes/*.yaml; do cp "$f" "$dir/asset_$(basename "$f")"; done ;;
    scene_overrides)
      # First line: the scene (fuzz_scene_overrides.cpp's list), then --set lines.
      printf 'pendulum.yaml\ntime_step=0.002\n' >"$dir/asset_pendulum"
      printf 'box_resting.yaml\nmaterials.0.friction=0.3\n' >"$dir/asset_box_resting"
      printf 'grasp_box.yaml\nsolver.type=canal\n' >"$dir/asset_grasp_box"
      printf 'soft_ball.yaml\nbodies.0.mass=2\n' >"$dir/asset_soft_ball"
      printf 'iiwa_posture.yaml\nrobots.arm.joint_pd.kp=10\n' >"$dir/asset_iiwa_posture"
      printf 'double_pendulum.yaml\nintegrator={theta: 0.7, theta_vq: 1}\n' >"$dir/asset_double_pendulum" ;;
    mesh)
      # First byte: even = .obj, odd = .stl.
      for f in tests/geometry/data/*.obj tests/scene/data/meshes/*.obj; do
        { printf '0'; cat "$f"; } >"$dir/asset_$(basename "$f")"
      done
      for f in tests/geometry/data/*.stl; do { printf '1'; cat "$f"; } >"$dir/asset_$(basename "$f")"; done ;;
    command_file)
      for f in assets/scenes/commands/*.yaml; do cp "$f" "$dir/asset_$(basename "$f")"; done ;;
    urdf)
      for f in assets/robots/*.urdf; do cp "$f" "$dir/asset_$(basename "$f")"; done ;;
    mjcf)
      while IFS= read -r -d '' f; do cp "$f" "$dir/asset_$(basename "$f")"; done \
        < <(find assets -name '*.xml' -print0) ;;
  esac
  cp tests/fuzz/"$h"/* "$dir"/
}

summary=()
for h in "${harnesses[@]}"; do
  seed "$h"
  mkdir -p "$build/artifacts/$h"
  log=$build/artifacts/$h/fuzz.log
  dict=()
  [[ -f fuzz/dict/$h.dict ]] && dict=("-dict=$root/fuzz/dict/$h.dict")
  echo "== $h: $seconds s, corpus $(ls "$build/corpus/$h" | wc -l) files, log $log"
  before=$(ls "$build/artifacts/$h" | grep -cE '^(crash|timeout|oom|leak)-' || true)
  status=0
  # The harnesses' scratch directories (fuzz_support.cpp) go under TMPDIR;
  # fork-mode workers end without running destructors, so the script
  # removes them.
  scratch=$build/tmp/$h
  rm -rf "$scratch" && mkdir -p "$scratch"
  # Known third-party leaks (fuzz/lsan.supp says which) are not findings.
  ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
    LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$root/fuzz/lsan.supp} TMPDIR=$scratch \
    "$build/fuzz/fuzz_$h" "$build/corpus/$h" "${dict[@]}" \
    -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$build/artifacts/$h/" >"$log" 2>&1 || status=$?
  rm -rf "$scratch"
  # Fork mode's status lines: "#RUNS: cov: C ft: F corp: N exec/s E oom/timeout/crash: O/T/X time: Ss job: J ..."
  last=$(grep -E '^#[0-9]+: cov:' "$log" | tail -1 || true)
  runs=$(sed -nE 's/^#([0-9]+): .*/\1/p' <<<"$last")
  cov=$(sed -nE 's/.* cov: ([0-9]+) .*/\1/p' <<<"$last")
  ft=$(sed -nE 's/.* ft: ([0-9]+) .*/\1/p' <<<"$last")
  elapsed=$(sed -nE 's/.* time: ([0-9]+)s.*/\1/p' <<<"$last")
  eps=$([[ -n $runs && ${elapsed:-0} -gt 0 ]] && echo $((runs / elapsed)) || echo "?")  # Over the whole run.
  corpus=$(ls "$build/corpus/$h" | wc -l)
  crashes=$(ls "$build/artifacts/$h" | grep -c '^crash-' || true)
  hangs=$(ls "$build/artifacts/$h" | grep -c '^timeout-' || true)
  ooms=$(ls "$build/artifacts/$h" | grep -c '^oom-' || true)
  leaks=$(ls "$build/artifacts/$h" | grep -c '^leak-' || true)
  after=$(ls "$build/artifacts/$h" | grep -cE '^(crash|timeout|oom|leak)-' || true)
  line=$(printf '%-16s executions %10s  exec/s %6s  cov %6s  ft %7s  corpus %6s  crashes %s  hangs %s  ooms %s  leaks %s  (new findings this run: %s, libFuzzer exit %s)' \
    "$h" "${runs:-?}" "${eps:-?}" "${cov:-?}" "${ft:-?}" "$corpus" "$crashes" "$hangs" "$ooms" "$leaks" "$((after - before))" "$status")
  echo "$line"
  summary+=("$line")
done
echo "== summary ($seconds s per harness; findings in build-fuzz/artifacts/<harness>/)"
printf '%s\n' "${summary[@]}"
