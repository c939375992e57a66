#!/usr/bin/env bash
# Re-records the bit-for-bit goldens of tests/regression/scene_golden_test.cpp
# (tests/regression/golden/*.json) with the current build of stiction-sim.
# Only for a change that is meant to change simulation results: say so in the
# commit that updates the goldens, with the reason.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cmake --build build --target regression_tests stiction-sim -j"$(nproc)"
rm -f tests/regression/golden/*.json
STICTION_RECORD_GOLDENS=1 build/tests/regression_tests --gtest_brief=1
echo "record-goldens: $(ls tests/regression/golden/*.json | wc -l) goldens in tests/regression/golden/"
