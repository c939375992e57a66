// Penetration recovery in positions (`split_recovery`; issue 36 item 5;
// engine/solvers/position_recovery.h) against recovery in the velocity NCP,
// on the analytic case: a box started inside the ground.
//
// box_resting.yaml's 1 kg, 10 cm box, its bottom face d = 5 mm below the
// ground. Inside the velocity NCP (e_n = r φ0/δt) the box is pushed out at
// r d/δt = 0.1 m/s and keeps that speed: kinetic energy the overlap paid
// for, and the box leaves the ground. With the recovery in positions the
// velocity problem asks the overlap only not to deepen, so the box rests
// (v = 0 exactly: gravity is taken by the four corner contacts), and the
// correction removes r of the overlap per step: after n steps the box is
// d (1 − r)^n deep, a geometric decay with no speed at all.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "tests/scenarios/scenario_helpers.h"

namespace stiction {
namespace {

constexpr double kHalf = 0.05, kOverlap = 0.005, kRecovery = 0.2;

Simulation MakeBuriedBox(const std::string& solver, bool split) {
  const std::string key = "solver." + solver + ".";
  return Simulation::FromFile(
      test::ScenePath("box_resting.yaml"),
      {"solver.type=" + solver, "bodies.box.pose.position=[0,0," + test::Num(kHalf - kOverlap) + "]",
       key + "penetration_recovery=" + test::Num(kRecovery), key + "split_recovery=" + (split ? "true" : "false")});
}

TEST(SplitRecoveryTest, ABuriedBoxIsLiftedOutGeometricallyWithoutSpeed) {
  for (const std::string solver : {"canal", "subadmm", "pgs"}) {
    SCOPED_TRACE(solver);
    Simulation sim = MakeBuriedBox(solver, true);
    double depth = kOverlap, max_speed = 0, max_error = 0;
    for (int n = 1; n <= 20; ++n) {
      const StepResult r = sim.Step();
      ASSERT_EQ(r.status, StepStatus::kSuccess) << r.message;
      const BodyState b = sim.CalcBodyStates()[0];
      depth *= 1 - kRecovery;
      max_error = std::max(max_error, std::abs((kHalf - b.position.z()) - depth));
      max_speed = std::max({max_speed, b.linear_velocity.norm(), b.angular_velocity.norm()});
      EXPECT_NEAR(r.stats.position_correction_m, kRecovery * (kOverlap * std::pow(1 - kRecovery, n - 1)), 1e-8)
          << "step " << n;
    }
    std::printf("%s, split recovery: depth after 20 steps %.3e m (d (1-r)^20 = %.3e), largest error %.2e m, "
                "largest speed %.2e m/s\n",
                solver.c_str(), kHalf - sim.CalcBodyStates()[0].position.z(), depth, max_error, max_speed);
    // The solvers stop at 1e-6 m/s of constraint velocity: 1e-8 m per step.
    EXPECT_LT(max_error, 2e-7);
    EXPECT_LT(max_speed, 1e-5);
  }
}

TEST(SplitRecoveryTest, RecoveryInTheVelocityProblemLaunchesTheSameBox) {
  // The comparison the split is for: the same box, the same r, recovered by
  // velocity, leaves the ground at about r d/δt (then its speed decays as
  // the overlap shrinks, and it flies).
  Simulation sim = MakeBuriedBox("canal", false);
  double max_up = 0;
  test::Run(&sim, 0.1, [&] { max_up = std::max(max_up, sim.CalcBodyStates()[0].linear_velocity.z()); });
  const double launch = kRecovery * kOverlap / 0.01;
  std::printf("canal, recovery in the NCP: largest upward speed %.4f m/s (r d/dt = %.4f)\n", max_up, launch);
  EXPECT_GT(max_up, 0.5 * launch);
}

}  // namespace
}  // namespace stiction
