#pragma once
// The Gripper panel's plots when the timeline keeps states (docs/viewer.md,
// "Timeline"): each state carries its grasp readout as samples, so the
// plots show the states up to the cursor (they follow Left/Right and the
// scrubber) and, after a branch, the previous branch's values at the same
// steps beside this branch's (e.g. slip speed with μ = 0.5 and μ = 0.4).
#include <limits>
#include <vector>

#include "engine/control/grasp_readout.h"
#include "engine/control/state_history.h"

namespace stiction::app {

/// The samples a state keeps for the plots: per finger, in finger order,
/// normal force [N], friction utilisation, slip speed [µm/s].
inline constexpr int kSamplesPerFinger = 3;
std::vector<float> GraspPlotSamples(const GraspReadout& readout);

/// One plot's two lines over the same steps: this branch's and the previous
/// branch's (NaN where a branch has no value).
struct BranchPlot {
  std::vector<float> current, previous;
  bool has_previous() const;
  float max() const;   ///< Over both lines (0 when empty).
  float last() const;  ///< This branch's newest value (0 when none).
  /// The previous branch's value at the newest point, NaN when it has none there.
  float previous_last() const { return previous.empty() ? std::numeric_limits<float>::quiet_NaN() : previous.back(); }
};

/// Per finger f, plots[kSamplesPerFinger f + k] for the sample k above, over
/// the states from `window_s` [s] before the cursor to the cursor, at most
/// `points` points (each the largest value of the steps it stands for).
/// Empty when the history holds fewer than two states or no samples.
std::vector<BranchPlot> TimelineGraspPlots(const StateHistory& history, double window_s, int points);

}  // namespace stiction::app
