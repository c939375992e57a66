#pragma once
// Helpers for gripper scenarios: run a scene under a command file the way
// stiction-sim and the viewer do (PrepareGripperStep before every Step).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "engine/control/command_player.h"
#include "engine/control/gripper_controller.h"
#include "tests/scenarios/scenario_helpers.h"

namespace stiction::test {

/// The scene's state at the same step in two runs is bit-identical iff this
/// holds (positions and velocities compared exactly).
inline bool SameState(const Simulation& a, const Simulation& b) {
  return a.positions().size() == b.positions().size() &&
         a.velocities().size() == b.velocities().size() &&
         (a.positions().array() == b.positions().array()).all() &&
         (a.velocities().array() == b.velocities().array()).all();
}

/// Steps `sim` for `duration` [s] under `player` (may be null: the controller
/// keeps its state), calling `observe` after every step.
inline void RunGripper(Simulation* sim, GripperController* controller, CommandPlayer* player,
                       double duration, const std::function<void()>& observe = [] {}) {
  const auto steps = static_cast<std::int64_t>(std::llround(duration / sim->time_step()));
  for (std::int64_t i = 0; i < steps; ++i) {
    PrepareGripperStep(sim, controller, player);
    const StepResult r = sim->Step();
    ASSERT_EQ(r.status, StepStatus::kSuccess) << r.message;
    observe();
  }
}

/// Position of body `b` in the frame of body `f` [m].
inline Vector3 RelativePosition(const Simulation& sim, int b, int f) {
  const std::vector<BodyState> s = sim.CalcBodyStates();
  const BodyState& B = s[b - 1];
  const BodyState& F = s[f - 1];
  return F.orientation.conjugate() * (B.position - F.position);
}

}  // namespace stiction::test
