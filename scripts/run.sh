#!/usr/bin/env bash
# Builds Stiction (Release, into build/) and starts it on the welcome scene
# (an arm with a gripper and objects on a table, ready to teleoperate).
# The viewer (build/app/stiction) gets this script's arguments; until the
# viewer exists, the headless runner stiction-sim runs the demo instead and
# prints its summary (arguments are passed to it, e.g. --duration 1).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/setup-deps.sh
scripts/cmake-configure.sh build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"

scene=assets/scenes/welcome.yaml
if [[ -x build/app/stiction ]]; then
  exec build/app/stiction "$scene" "$@"
fi
echo "run.sh: viewer build/app/stiction not built; running the headless stiction-sim on $scene" >&2
exec build/cli/stiction-sim "$scene" "$@"
