#pragma once
// stiction-bench's report: one row per scene and engine, the markdown table
// of them, the scaling fit of time per step against object count, and where
// Stiction stands against issue 8's targets (docs/benchmarks.md, "Side by
// side", explains every column).
#include <string>
#include <vector>

#include "bench/side_by_side/bench_metrics.h"

namespace stiction::bench {

/// One scene on one engine.
struct Row {
  std::string scene;
  double dt = 0, duration = 0;
  int objects = 0;
  bool scaling = false;
  double creep_bound = 0, expected_acceleration = 0;  ///< The scene's references.
  std::string engine_key, label;
  bool available = true;
  std::string why_not;
  int runs = 0;
  double median_wall_s = 0;
  RunResult result;  ///< Of the first run (iterates are deterministic per engine).
  double rtf() const { return result.ok && median_wall_s > 0 ? duration / median_wall_s : 0; }
};

/// The markdown table, one line per row, with each row's speed against
/// MuJoCo's default configuration on the same scene and δt.
std::string Table(const std::vector<Row>& rows);

/// Per engine over the scaling series, "- LABEL: time per step ∝
/// objects^K over N sizes" lines; "" without a series of two sizes.
std::string ScalingFit(const std::vector<Row>& rows);

/// "- [met] ..." / "- [MISSED] ..." lines: the targets of issue 8 (and the
/// articulated rows of issue 15) whose rows ran.
std::string Targets(const std::vector<Row>& rows);

}  // namespace stiction::bench
