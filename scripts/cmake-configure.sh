#!/usr/bin/env bash
# Configures a build directory: scripts/cmake-configure.sh BUILD_DIR [cmake args...]
#
# A new directory gets the Ninja generator (package ninja-build): Ninja
# compiles a target's objects while the libraries it links are still being
# built, where make waits for them, and the engine's layer libraries would
# otherwise build one after another on a 2-core machine. A directory that
# already exists keeps the generator it was made with (CMake refuses to
# switch), so an older make-based build/ goes on working.
set -euo pipefail
build="$1"
shift
generator=()
[ -f "$build/CMakeCache.txt" ] || generator=(-G Ninja)
exec cmake "${generator[@]}" -S "$(dirname "${BASH_SOURCE[0]}")/.." -B "$build" "$@"
