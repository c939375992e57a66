#!/usr/bin/env bash
# Runs a command in an X server of its own:
#   tests/app/run_under_xvfb.sh WIDTHxHEIGHT COMMAND [ARGS...]
# The display tests' runner (tests/CMakeLists.txt, CROSSCOMPILING_EMULATOR of
# the display test executables): every GoogleTest case runs in a fresh Xvfb,
# so the cases run in parallel with each other and with the rest of the
# suite. Xvfb picks a free display itself and writes its number to a pipe
# (-displayfd), which takes about a third of xvfb-run's start-up (no xauth,
# no fixed sleep). -noreset: Xvfb otherwise resets when its last client
# disconnects, and a test that opens its next window during that reset fails
# with "Failed to open display". Exits with the command's status.
set -euo pipefail
screen="$1"
shift
fifo="$(mktemp -u "${TMPDIR:-/tmp}/stiction-xvfb.XXXXXX")"
mkfifo "$fifo"
Xvfb -displayfd 3 -screen 0 "${screen}x24" -nolisten tcp -noreset 3>"$fifo" >/dev/null 2>&1 &
xvfb=$!
cleanup() { kill "$xvfb" 2>/dev/null || true; wait "$xvfb" 2>/dev/null || true; rm -f "$fifo"; }
trap cleanup EXIT
display=""
if ! read -r -t 30 display <"$fifo" || [ -z "$display" ]; then
  echo "run_under_xvfb.sh: Xvfb did not start within 30 s (is the package xvfb installed?)" >&2
  exit 1
fi
status=0
DISPLAY=":$display" "$@" || status=$?
exit "$status"
