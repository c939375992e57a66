#pragma once
// Replays a demonstration's actions on its scene and compares every state
// with the recorded one, bit for bit (`stiction-sim --replay-dataset`).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/control/gripper_controller.h"
#include "engine/dataset/demo.h"
#include "engine/simulation.h"

namespace stiction {

struct DemoReplayResult {
  std::string scene_path;           ///< The scene replayed.
  std::int64_t steps = 0;           ///< Steps taken (num_samples).
  /// The first sample whose state differs (num_samples: the final state);
  /// −1 when every state matched bit for bit.
  std::int64_t first_mismatch = -1;
  double max_abs_difference = 0;    ///< Over every state entry and sample.
  double wall_time_s = 0;           ///< Load and replay.
  std::vector<std::string> notes;   ///< E.g. the scene file changed since the recording.
  bool exact() const { return first_mismatch < 0; }
};

/// How far `sim`'s state [t, q, v] is from a recorded state row: nullopt
/// when they are the same bit for bit (a NaN matching a NaN), else the
/// largest absolute difference of an entry.
std::optional<double> DemoStateDifference(const Simulation& sim, const double* recorded);

/// What demo `demo` drives gripper `gripper` (its index in demo.grippers)
/// with before step `k`: the action and its rate.
GripperActuation DemoAction(const Demo& demo, std::int64_t k, int gripper);

/// Loads `scene_path` ("" = the demo's `scene`) with the demo's load
/// overrides, then `extra_overrides` (a what-if: the same actions under
/// another friction, say), and the demo's parameter edits, drives each step with the demo's actions
/// (GripperController::Actuate) and compares the states. Throws InputError
/// when the scene cannot be loaded, its state or grippers do not match the
/// demo's layout, or a step fails.
DemoReplayResult ReplayDemo(const Demo& demo, const std::string& scene_path = "",
                            const std::vector<std::string>& extra_overrides = {});

}  // namespace stiction
