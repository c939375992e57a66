#pragma once
// `stiction --benchmark [SECONDS]`: the frame-rate figures of docs/viewer.md,
// printed to stdout. Not a test: numbers depend on the machine.
#include <string>

#include "app/app_options.h"

namespace stiction::app {

/// A scene of n free boxes and spheres in a grid above a half-space.
std::string MakeClutterSceneYaml(int n);

/// Runs the benchmark with a hidden window of options.width x height;
/// returns the exit code.
int RunBenchmark(const AppOptions& options);

}  // namespace stiction::app
