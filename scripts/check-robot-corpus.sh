#!/usr/bin/env bash
# Tries every robot file below DIR as a new user would: opens it as a scene
# (docs/robots.md, "Opening a robot file directly": rested on the ground, its
# joints held by a PD at their initial values), runs it for 2 s with
# stiction-sim and prints one line per model (docs/robots.md, "The corpus"):
#
#   file | loaded, or the reason | kinetic energy after the first step [J] |
#   lowest body origin over the run [m] | finite | real-time factor
#
# and with --crossval a last column: M(q) and the bias against MuJoCo's
# (build/bench/stiction-crossval FILE --strip-urdf-geometry; docs/robots.md,
# "Cross-validation of the corpus against MuJoCo").
#
# Usage: scripts/check-robot-corpus.sh DIR [--duration S] [--sim PATH] [--crossval]
# Robot files are *.urdf and the *.xml files whose root element is <mujoco>.
# Nothing is written outside a temporary directory. Exits 0 when every file
# was tried (a refused file is a line of the table, not a failure of the
# script); 2 on bad usage.
set -euo pipefail

usage() { echo "usage: scripts/check-robot-corpus.sh DIR [--duration S] [--sim PATH] [--crossval]" >&2; exit 2; }
[ $# -ge 1 ] || usage
dir="$1"; shift
[ -d "$dir" ] || { echo "check-robot-corpus: '$dir' is not a directory" >&2; exit 2; }
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
duration=2
sim="$root/build/cli/stiction-sim"
crossval=""
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) [ $# -ge 2 ] || usage; duration="$2"; shift 2 ;;
    --sim) [ $# -ge 2 ] || usage; sim="$2"; shift 2 ;;
    --crossval) crossval="$root/build/bench/stiction-crossval"; shift ;;
    *) usage ;;
  esac
done
[ -x "$sim" ] || { echo "check-robot-corpus: no stiction-sim at '$sim' (build first: scripts/test.sh or cmake --build build)" >&2; exit 2; }
[ -z "$crossval" ] || [ -x "$crossval" ] || { echo "check-robot-corpus: no stiction-crossval at '$crossval' (build first: cmake --build build --target stiction-crossval)" >&2; exit 2; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

mapfile -t files < <(
  find -L "$dir" -type f \( -iname '*.urdf' -o -iname '*.xml' \) | sort | while read -r f; do
    case "${f,,}" in
      *.urdf) echo "$f" ;;
      *) head -c 4096 "$f" | grep -q '<mujoco' && echo "$f" ;;
    esac
  done)
[ "${#files[@]}" -gt 0 ] || { echo "check-robot-corpus: no .urdf or MJCF .xml files below '$dir'" >&2; exit 2; }

if [ -n "$crossval" ]; then
  echo "| file | result | KE after step 1 [J] | lowest body origin [m] | finite | RTF | M, bias vs MuJoCo |"
  echo "|---|---|---|---|---|---|---|"
else
  echo "| file | result | KE after step 1 [J] | lowest body origin [m] | finite | RTF |"
  echo "|---|---|---|---|---|---|"
fi
n=0
for f in "${files[@]}"; do
  n=$((n + 1))
  rel="${f#"$dir"/}"
  printf 'check-robot-corpus: [%d/%d] %s\n' "$n" "${#files[@]}" "$rel" >&2
  out="$tmp/$n"
  status=0
  "$sim" "$f" --duration "$duration" --report "$out.json" --csv "$out.csv" --quiet \
    >"$out.stdout" 2>"$out.stderr" || status=$?
  xv_status=""
  if [ -n "$crossval" ]; then
    xv_status=0
    "$crossval" "$f" --strip-urdf-geometry >"$out.crossval" 2>/dev/null || xv_status=$?
  fi
  python3 - "$rel" "$status" "$out" "$xv_status" <<'EOF'
import csv, json, math, os, re, sys
rel, status, out, xv_status = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
def cell(x, fmt="{:.3g}"):
    return "—" if x is None else fmt.format(x)
# stiction-crossval's line as a cell: its figures, or the reason it gave.
xv = ""
if xv_status != "":
    line = open(out + ".crossval").read().strip()
    figures = re.search(r" nv=\d+ max_rel_dM=(\S+) max_rel_dbias=(\S+) .* dI_rel=(\S+)$", line)
    reason = re.search(r": ((refused by|models differ).*)$", line)
    if figures:
        xv = "%s: dM %s, dbias %s, dI %s" % (("agrees" if xv_status == "0" else "DIFFERS",) + figures.groups())
    else:
        xv = reason.group(1) if reason else "exit %s" % xv_status
    xv = " %s |" % xv.replace("|", "\\|")
if not os.path.exists(out + ".json"):
    err = open(out + ".stderr").read().strip().splitlines()
    reason = err[-1] if err else "exit %d" % status
    print("| %s | refused: %s | — | — | — | — |%s" % (rel, reason.replace("|", "\\|"), xv))
    sys.exit(0)
report = json.load(open(out + ".json"))
ke1, lowest = None, None
with open(out + ".csv") as f:
    rows = list(csv.DictReader(f))
if len(rows) > 1:
    ke1 = float(rows[1]["kinetic_energy_J"])
z_cols = [c for c in (rows[0].keys() if rows else []) if c.endswith(".z")]
for r in rows:
    for c in z_cols:
        z = float(r[c])
        if math.isfinite(z):
            lowest = z if lowest is None else min(lowest, z)
notes = report.get("load_notes", [])
hull_notes = sum("contact uses its convex hull" in n for n in notes)
result = "loaded" if report["status"] == "ok" else "%s: %s" % (report["status"], report["error"])
if notes:
    result += " (%d note%s%s)" % (len(notes), "" if len(notes) == 1 else "s",
                                  ", %d open mesh%s" % (hull_notes, "" if hull_notes == 1 else "es") if hull_notes else "")
print("| %s | %s | %s | %s | %s | %s |%s" % (rel, result.replace("|", "\\|"), cell(ke1), cell(lowest, "{:.3f}"),
      "yes" if report["finite"] else "no", cell(report.get("realtime_factor"), "{:.2f}"), xv))
EOF
done
