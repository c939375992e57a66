#!/usr/bin/env bash
# Rewrites the generated reference at the end of docs/scene-format.md (every
# solver, contact model, integrator preset and line search, and every
# parameter's key, default, unit and range) from `stiction-sim --list`.
# tests/parameters/parameter_reference_test.cpp fails until this has been run
# after a change to engine/parameters/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cmake --build build --target stiction-sim -j"$(nproc)" > /dev/null
doc=docs/scene-format.md
begin='<!-- BEGIN GENERATED: stiction-sim --list -->'
end='<!-- END GENERATED: stiction-sim --list -->'
grep -qF "$begin" "$doc" && grep -qF "$end" "$doc" || { echo "$doc: markers missing" >&2; exit 1; }
tmp=$(mktemp)
{
  sed -n "1,/^$begin\$/p" "$doc"
  build/cli/stiction-sim --list
  sed -n "/^$end\$/,\$p" "$doc"
} > "$tmp"
mv "$tmp" "$doc"
echo "update-parameter-reference: $doc rewritten"
