// Slip control ([SAP] Sec. VI-D, Fig. 17; issue 5): assets/scenes/
// slip_control.yaml holds a spatula while commands/slip_control.yaml drives
// the grip force as a square wave, 16 N for 4.5 s then 1 N for 1.5 s. The
// spatula must pitch within the grasp only in the low-force phases and stay
// put (within 0.5°) while the force is high.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "engine/control/command_log.h"
#include "engine/control/grasp_readout.h"
#include "tests/scenarios/gripper_helpers.h"

namespace stiction {
namespace {

double PitchDegrees(const Simulation& sim, int body) {
  return test::PitchDegrees(sim.CalcBodyStates()[body - 1]);
}

TEST(SlipControlTest, PitchChangesOnlyInTheLowForcePhases) {
  Simulation sim = Simulation::FromFile(test::ScenePath("slip_control.yaml"));
  ASSERT_DOUBLE_EQ(sim.time_step(), 0.005);  // The paper's δt.
  GripperController gripper(sim);
  CommandPlayer player(LoadCommandFile(sim.scene().commands_file), sim.time_step());
  const int spatula = sim.model().FindBody("spatula");
  // Phase boundaries [s]: high 0-4.5, low 4.5-6, high 6-10.5, low 10.5-12, high 12-16.5.
  // High phases are measured from 0.5 s after the force rises (the grasp of
  // the falling spatula at t = 0 and the force step settle within ~0.1 s).
  struct Phase {
    double start, end;
    bool high;
  };
  const std::vector<Phase> phases = {
      {0.5, 4.5, true}, {4.5, 6.0, false}, {6.5, 10.5, true}, {10.5, 12.0, false}, {12.5, 16.5, true}};
  double t = 0;
  for (const Phase& phase : phases) {
    test::RunGripper(&sim, &gripper, &player, phase.start - t);
    const double pitch0 = PitchDegrees(sim, spatula);
    double lo = pitch0, hi = pitch0;
    double max_force = 0, min_force = 1e9;
    test::RunGripper(&sim, &gripper, &player, phase.end - phase.start, [&] {
      const double p = PitchDegrees(sim, spatula);
      lo = std::min(lo, p);
      hi = std::max(hi, p);
      const GraspReadout g = CalcGraspReadout(sim, gripper, sim.time_step());
      max_force = std::max(max_force, g.fingers[0].normal_force);
      min_force = std::min(min_force, g.fingers[0].normal_force);
    });
    t = phase.end;
    SCOPED_TRACE(testing::Message() << "phase " << phase.start << "-" << phase.end << " s");
    if (phase.high) {
      // Issue 5: constant within 0.5° (SAP's stiction creep, ∝ δt, is what moves it).
      EXPECT_LT(hi - lo, 0.5);
      EXPECT_NEAR(min_force, 16.0, 0.16);  // Force control holds 16 N (1%).
    } else {
      // The spatula pitches nose down by a visible amount (observed: 18° in
      // the first low phase, 2° in the second: the gravity torque at 1 N only
      // just exceeds the pads' torsional friction, and falls as it pitches).
      EXPECT_GT(hi - pitch0, 1.0);
      EXPECT_LT(min_force, 1.0 * 1.05);  // The commanded 1 N (force control).
    }
    // Held all along: never dropped.
    EXPECT_TRUE(CalcGraspReadout(sim, gripper, sim.time_step()).holding());
  }
}

}  // namespace
}  // namespace stiction
