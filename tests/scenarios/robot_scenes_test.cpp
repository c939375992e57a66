// The shipped robot scenes (assets/scenes/*_posture.yaml, quadruped_stand)
// hold their postures under their own joint PD controllers. For a fixed
// base the check is analytic: at rest each PD torque kp (q_d − q) balances
// gravity, i.e. equals the inverse dynamics ID(q, v = 0, v̇ = 0) = −τ_g(q),
// which robot_cross_validation_test checks against MuJoCo.
#include <cmath>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "engine/multibody/dynamics.h"
#include "engine/multibody/kinematics.h"
#include "tests/scenarios/scenario_helpers.h"

namespace stiction {
namespace {

using test::BodyNamed;

using test::ScenePath;

/// Largest |kp (q_d − q) − ID(q, 0, 0)| over the scene's actuators [N m or N]
/// and largest joint speed, after `duration` seconds.
void SettledBalance(const std::string& scene, double duration, double dt, double* torque_error, double* speed,
                    double* largest_torque) {
  Simulation sim = Simulation::FromFile(ScenePath(scene), {"time_step=" + std::to_string(dt)});
  test::Run(&sim, duration, [] {});
  const MultibodyModel& model = sim.model();
  const VectorX& q = sim.positions();
  const VectorX zero = VectorX::Zero(model.num_velocities());
  KinematicsCache cache(model);
  CalcKinematics(model, q, zero, BodyRange::All(model), &cache);
  VectorX tau = VectorX::Zero(model.num_velocities());
  for (int t = 0; t < model.num_trees(); ++t) CalcTreeInverseDynamics(model, cache, t, zero, &tau);
  *torque_error = 0;
  *largest_torque = 0;
  for (const std::string& name : sim.actuator_names()) {
    const JointActuator& a = sim.actuator(name);
    const Joint& j = model.joint(a.joint);
    const double pd = a.kp * (a.target_position - q[j.q_start]);
    ASSERT_LT(std::abs(pd), a.effort_limit) << name << " saturates";
    *torque_error = std::max(*torque_error, std::abs(pd - tau[j.v_start]));
    *largest_torque = std::max(*largest_torque, std::abs(tau[j.v_start]));
  }
  *speed = sim.velocities().cwiseAbs().maxCoeff();
}

// The θ-method evaluates gravity at the step's predicted midpoint, which at
// rest lies θ δt² M⁻¹ τ_g away from q: the balance holds up to that O(δt²)
// offset. So the test checks that the offset is small and halves twice
// (÷ 4) when δt halves: a wrong torque, gain or sign would not shrink.
void ExpectBalanceToSecondOrder(const std::string& scene) {
  double coarse = 0, fine = 0, speed = 0, torque = 0;
  SettledBalance(scene, 5.0, 0.01, &coarse, &speed, &torque);
  EXPECT_LT(speed, 1e-6);  // Settled.
  SettledBalance(scene, 5.0, 0.005, &fine, &speed, &torque);
  EXPECT_LT(speed, 1e-6);
  std::printf("%s: largest gravity torque %.4g; balance error %.3e at dt = 10 ms, %.3e at 5 ms (ratio %.2f)\n",
              scene.c_str(), torque, coarse, fine, coarse / fine);
  // Relative size θ δt² ω_g² (ω_g² = gravity stiffness / inertia, largest
  // for the hand's light phalanges): measured 3e-4 (arm), 2e-3 (hand).
  EXPECT_LT(coarse, 1e-2 * torque);
  EXPECT_GT(coarse / fine, 3.0);
  EXPECT_LT(coarse / fine, 5.0);
}

TEST(RobotScenesTest, ArmWithGripperHoldsItsPostureAgainstGravity) { ExpectBalanceToSecondOrder("iiwa_posture.yaml"); }

TEST(RobotScenesTest, HandHoldsItsPostureAgainstGravity) { ExpectBalanceToSecondOrder("hand_posture.yaml"); }

TEST(RobotScenesTest, QuadrupedStandsOnItsFeet) {
  Simulation sim = Simulation::FromFile(ScenePath("quadruped_stand.yaml"));
  double lowest = 1, highest = 0, tilt = 0, drift = 0;
  test::Run(&sim, 5.0, [&] {
    const BodyState trunk = BodyNamed(sim, "dog/trunk");
    lowest = std::min(lowest, trunk.position.z());
    highest = std::max(highest, trunk.position.z());
    const Vector3 up = trunk.orientation * Vector3::UnitZ();
    tilt = std::max(tilt, std::acos(std::min(1.0, up.z())));
    drift = std::max(drift, trunk.position.head<2>().norm());
  });
  // Legs of 0.2 + 0.2 m at thigh 0.9, calf −1.8 put the hips 0.249 m above
  // the feet plus the 0.02 m foot radius: the trunk settles near 0.26 m
  // under its 13.7 kg, after a drop of about 2 cm from its initial 0.28 m.
  EXPECT_GT(lowest, 0.22);
  EXPECT_LT(highest, 0.2801);
  EXPECT_LT(tilt, 0.05);    // Stands level [rad].
  EXPECT_LT(drift, 0.03);   // Stays where it was put [m].
  EXPECT_LT(sim.velocities().cwiseAbs().maxCoeff(), 1e-3);  // At rest.
}

TEST(RobotScenesTest, QuadrupedTrotsInPlace) {
  Simulation sim = Simulation::FromFile(ScenePath("quadruped_trot.yaml"));
  const char* const kLegs[4] = {"FL", "FR", "RL", "RR"};
  int calf[4];
  for (int l = 0; l < 4; ++l) calf[l] = sim.model().FindBody(std::string("dog/") + kLegs[l] + "_calf");
  // Per foot: on the ground last step, lift-offs, steps in the air.
  bool down[4] = {true, true, true, true};
  int lift_offs[4] = {0, 0, 0, 0}, air_steps[4] = {0, 0, 0, 0};
  double lowest = 1, tilt = 0;
  Vector3 start = Vector3::Zero();
  test::Run(&sim, 1.0, [] {});  // Standing; the oscillation starts at 1 s.
  start = BodyNamed(sim, "dog/trunk").position;
  test::Run(&sim, 5.0, [&] {
    bool touching[4] = {false, false, false, false};
    for (const ContactReport& c : sim.contacts()) {
      for (int l = 0; l < 4; ++l) {
        if ((c.body_a == 0 && c.body_b == calf[l]) || (c.body_b == 0 && c.body_a == calf[l])) touching[l] = true;
      }
    }
    for (int l = 0; l < 4; ++l) {
      if (down[l] && !touching[l]) ++lift_offs[l];
      if (!touching[l]) ++air_steps[l];
      down[l] = touching[l];
    }
    const BodyState trunk = BodyNamed(sim, "dog/trunk");
    lowest = std::min(lowest, trunk.position.z());
    const Vector3 up = trunk.orientation * Vector3::UnitZ();
    tilt = std::max(tilt, std::acos(std::min(1.0, up.z())));
  });
  const double drift = (BodyNamed(sim, "dog/trunk").position - start).head<2>().norm();
  std::printf("quadruped trot, 5 s at 2 Hz: lift-offs FL %d FR %d RL %d RR %d, in the air %d/%d/%d/%d of 500 steps, "
              "drift %.1f mm, largest tilt %.3f rad, lowest trunk %.3f m\n",
              lift_offs[0], lift_offs[1], lift_offs[2], lift_offs[3], air_steps[0], air_steps[1], air_steps[2],
              air_steps[3], 1e3 * drift, tilt, lowest);
  for (int l = 0; l < 4; ++l) {
    // Ten cycles in 5 s (the first fading in): every foot steps, about once
    // a cycle, and spends a real share of the cycle in the air.
    EXPECT_GE(lift_offs[l], 8) << kLegs[l];
    EXPECT_LE(lift_offs[l], 20) << kLegs[l];  // Not chattering on the ground.
    EXPECT_GT(air_steps[l], 100) << kLegs[l];
  }
  // In place: level, up, and near where it started (a trot from pure sine
  // targets has no balance feedback, so a slow drift is expected).
  EXPECT_LT(tilt, 0.15);  // [rad]
  EXPECT_GT(lowest, 0.2);  // [m], standing height 0.26 m.
  EXPECT_LT(drift, 0.1);   // [m] over 5 s.
}

}  // namespace
}  // namespace stiction
