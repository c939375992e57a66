#!/usr/bin/env bash
# Prints the comparison of near-rigid estimates in docs/contact-model.md
# ("Near-rigid contact under load"): [SAP] Eq. (29) as published, Eq. (29)
# with beta = 0.1, and the carried-load estimate (the default), each on the
# shipped scenes with stiction-sim (Release build in build/). Takes ~1 min.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
SIM=build/cli/stiction-sim
[ -x "$SIM" ] || { echo "compare-near-rigid-estimates: build $SIM first" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# column NAME of a CSV: its index, for awk.
col() { head -1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }

run() {  # run LABEL OVERRIDES...
  local label=$1; shift
  local sets=()
  for s in "$@"; do sets+=(--set "$s"); done
  "$SIM" -q assets/scenes/heavy_on_light.yaml "${sets[@]}" --csv "$out/hol.csv"
  "$SIM" -q assets/scenes/stack_mass_ratio.yaml "${sets[@]}" --csv "$out/smr.csv"
  "$SIM" -q assets/scenes/grasp_hold.yaml --set bodies.box.mass=0.1 "${sets[@]}" --duration 3 --csv "$out/g100.csv"
  "$SIM" -q assets/scenes/grasp_hold.yaml --set bodies.box.mass=0.01 "${sets[@]}" --duration 3 --csv "$out/g10.csv"
  "$SIM" -q assets/scenes/stack10.yaml "${sets[@]}" --csv "$out/s10.csv"
  "$SIM" -q assets/scenes/stack10_imperfect.yaml "${sets[@]}" --csv "$out/s10i.csv"
  "$SIM" -q assets/scenes/clutter.yaml "${sets[@]}" --csv "$out/clutter.csv"
  local pen; pen=$(col "$out/hol.csv" max_penetration_m)
  # Penetration at the end; the heavy box's drop from t = 1 s to the end.
  local hol; hol=$(awk -F, -v p="$pen" -v z="$(col "$out/hol.csv" heavy.z)" \
    'NR == 102 {z1 = $z} END {printf "%.3g mm, sinking %.2g mm", 1e3 * $p, 1e3 * (z1 - $z)}' "$out/hol.csv")
  local smr; smr=$(awk -F, -v z="$(col "$out/smr.csv" box_9.z)" 'END {printf "%.3g mm", 1e3 * (0.95 - $z)}' "$out/smr.csv")
  # Grasps: the deepest penetration after the first 0.5 s.
  local g; g=$(for f in g100 g10; do
    awk -F, -v p="$pen" 'NR > 51 && $p > m {m = $p} END {printf "%.2g ", 1e3 * m}' "$out/$f.csv"; done)
  local s10; s10=$(awk -F, -v z="$(col "$out/s10.csv" box_9.z)" 'END {printf "%.3g mm", 1e3 * (0.95 - $z)}' "$out/s10.csv")
  local s10i; s10i=$(awk -F, -v x="$(col "$out/s10i.csv" box_9.x)" -v y="$(col "$out/s10i.csv" box_9.y)" \
    'NR == 2 {x0 = $x; y0 = $y} END {printf "%.3g mm", 1e3 * sqrt(($x - x0)^2 + ($y - y0)^2)}' "$out/s10i.csv")
  local it; it=$(awk -F, -v i="$(col "$out/clutter.csv" iterations)" 'NR > 2 {s += $i; n++} END {printf "%.3f", s / n}' "$out/clutter.csv")
  echo "| $label | $hol | $smr | ${g% } mm | $s10 | $s10i | $it |"
}

echo "| estimate | 5 kg on 5 g: penetration, sinking 1-10 s | mass-ratio stack compression | grasp 100 g / 10 g: penetration after 0.5 s | stack10 compression | stack10_imperfect lean | clutter Newton it./step |"
echo "|---|---|---|---|---|---|---|"
run "Eq. (29) as published" solver.load_aware_regularization=false
run "Eq. (29), beta = 0.1" solver.load_aware_regularization=false solver.near_rigid_threshold=0.1
run "carried-load estimate (default)"
