#pragma once
// Runs one benchmark scene on one engine and measures it the same way for
// every engine: wall time of the stepping loop only, iterations, penetration
// and the scene's accuracy metric (docs/benchmarks.md, "Side by side").
#include <string>

#include "bench/side_by_side/bench_scenes.h"
#include "bench/side_by_side/peer_engine.h"

namespace stiction::bench {

/// The steady-state window: the last fifth of the run.
inline constexpr double kSteadyFraction = 0.2;

struct RunResult {
  bool ok = true;
  std::string error;           ///< Why the run stopped early (ok = false).
  double failed_at_s = 0;      ///< Simulated time of the failure [s].
  int steps = 0;               ///< Steps completed.
  double wall_s = 0;           ///< Wall time inside Step() calls [s].
  double mean_iterations = 0;  ///< Per step, whole run.
  double steady_iterations = 0;       ///< Per step, steady-state window.
  double steady_penetration_m = 0;    ///< Mean of the per-step deepest penetration, window [m].
  double metric = 0;           ///< The scene's metric in SI units (see Metric).
  bool metric_pass = true;     ///< Stack, robots: standing; grasp: not dropped; mass ratio: holds; others: true.
  std::string metric_text;     ///< Human-readable metric for the table.
};

/// Steps `engine` through `scene.duration` and measures it.
RunResult RunScene(const BenchScene& scene, PeerEngine& engine);

}  // namespace stiction::bench
