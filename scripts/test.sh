#!/usr/bin/env bash
# Builds Stiction with its tests (Release, into build/) and runs every test.
# Exits with ctest's status; ctest prints the summary line
# "100% tests passed, 0 tests failed out of N". ccache is used when installed
# (the top-level CMakeLists picks it up).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/setup-deps.sh
start=$(date +%s)
scripts/cmake-configure.sh build -DCMAKE_BUILD_TYPE=Release -DSTICTION_BUILD_TESTS=ON
cmake --build build -j"$(nproc)"
built=$(date +%s)
echo "test.sh: Release build took $((built - start)) s (wall)"

status=0
ctest --test-dir build --output-on-failure -j"$(nproc)" || status=$?
echo "test.sh: Release tests took $(($(date +%s) - built)) s (wall)"
exit "$status"
