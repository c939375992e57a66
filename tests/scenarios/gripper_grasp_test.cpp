// Scripted grasp (issue 5): assets/scenes/grasp_box.yaml replays
// commands/grasp_box.yaml — the gripper closes on the 1 kg box with 20 N per
// finger (μ = 1), lifts it 20 cm and holds it. SAP regularizes stiction
// ([SAP] Eq. 30, R_t = σ w): a held object creeps at a speed ∝ δt
// (Sec. V-B, Eq. 31), so the slip over the hold must be small at δt = 10 ms
// and shrink in proportion to δt.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "engine/control/command_log.h"
#include "engine/control/grasp_readout.h"
#include "tests/scenarios/gripper_helpers.h"

namespace stiction {
namespace {

struct HoldResult {
  double slip_m = 0;          // Box displacement relative to the left finger over the hold [m].
  double readout_slip = 0;    // Grasp readout's slip speed at the end [m/s].
  double min_box_height = 1;  // Lowest box centre during the hold [m].
  double min_grip_force = 1e9;  // Smallest per-finger normal force during the hold [N].
};

constexpr double kHoldStart = 3.5, kHoldSeconds = 5.0;  // Lift ends at 3.0 s.

HoldResult GraspAndHold(double dt) {
  Simulation sim = Simulation::FromFile(test::ScenePath("grasp_box.yaml"),
                                        {"time_step=" + test::Num(dt)});
  GripperController gripper(sim);
  CommandPlayer player(LoadCommandFile(sim.scene().commands_file), dt);
  const int box = sim.model().FindBody("box");
  test::RunGripper(&sim, &gripper, &player, kHoldStart);
  HoldResult out;
  const Vector3 start = test::RelativePosition(sim, box, gripper.finger_body(0));
  test::RunGripper(&sim, &gripper, &player, kHoldSeconds, [&] {
    out.min_box_height = std::min(out.min_box_height, sim.CalcBodyStates()[box - 1].position.z());
    const GraspReadout g = CalcGraspReadout(sim, gripper, dt);
    out.min_grip_force = std::min({out.min_grip_force, g.fingers[0].normal_force, g.fingers[1].normal_force});
  });
  out.slip_m = (test::RelativePosition(sim, box, gripper.finger_body(0)) - start).norm();
  out.readout_slip = CalcGraspReadout(sim, gripper, dt).fingers[0].slip_speed;
  return out;
}

TEST(GripperGraspTest, HoldSlipIsSmallAndProportionalToTheTimeStep) {
  const HoldResult coarse = GraspAndHold(0.01);
  const HoldResult fine = GraspAndHold(0.002);
  // The figure for docs/benchmarks.md.
  std::printf("grasp-hold slip speed: dt = 10 ms: %.1f um/s (readout %.1f um/s); "
              "dt = 2 ms: %.1f um/s (readout %.1f um/s)\n",
              coarse.slip_m / kHoldSeconds * 1e6, coarse.readout_slip * 1e6,
              fine.slip_m / kHoldSeconds * 1e6, fine.readout_slip * 1e6);
  // Issue 5: below 1 mm over the 5 s hold at δt = 10 ms. Eq. 31 bounds the
  // creep by μσgδt = 98 µm/s (0.49 mm over 5 s) for a point mass at the
  // cone's edge; observed 59 µm/s (0.30 mm).
  EXPECT_LT(coarse.slip_m, 1e-3);
  // Creep ∝ δt: 5× smaller δt must give ≥ 4× less slip.
  EXPECT_GT(coarse.slip_m, 4.0 * fine.slip_m) << coarse.slip_m << " vs " << fine.slip_m;
  // Never dropped: lifted (pads at 0.24 m, the box centre ~1 cm below them) and
  // gripped with the commanded 20 N throughout (1% for the solver's ε_r).
  for (const HoldResult* r : {&coarse, &fine}) {
    EXPECT_GT(r->min_box_height, 0.2);
    EXPECT_GT(r->min_grip_force, 20.0 * 0.99);
  }
  // The readout's slip speed is the creep the positions show (within 20%:
  // the readout is the max over the contacts at one step, the displacement an
  // average over 5 s).
  EXPECT_NEAR(coarse.readout_slip, coarse.slip_m / kHoldSeconds, 0.2 * coarse.slip_m / kHoldSeconds);
}

TEST(GripperGraspTest, OpeningReleasesTheBox) {
  // After the hold, open: the box must fall back to the ground (it was held
  // by friction only).
  Simulation sim = Simulation::FromFile(test::ScenePath("grasp_box.yaml"));
  GripperController gripper(sim);
  CommandPlayer player(LoadCommandFile(sim.scene().commands_file), sim.time_step());
  test::RunGripper(&sim, &gripper, &player, 3.5);
  const int box = sim.model().FindBody("box");
  ASSERT_GT(sim.CalcBodyStates()[box - 1].position.z(), 0.2);
  GripperCommand open;
  open.step = sim.step_index();
  open.grip = GripState::kOpen;
  gripper.Apply(open);
  test::RunGripper(&sim, &gripper, nullptr, 1.5);
  // Resting on the ground: centre at half the 6 cm side (within the
  // compliant penetration, m g / k ≈ 10 µm per point).
  EXPECT_NEAR(sim.CalcBodyStates()[box - 1].position.z(), 0.03, 1e-4);
  EXPECT_FALSE(CalcGraspReadout(sim, gripper, sim.time_step()).holding());
}

}  // namespace
}  // namespace stiction
