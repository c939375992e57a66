// Exact Coulomb friction with CANAL (issue 6; [CANAL] Sec. IV–V) against
// SAP's convex approximation on the same scenes: a box sliding on the ground
// (no gliding), the incline below and above the friction angle, and a box
// held between two pads by friction alone.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/scenarios/scenario_helpers.h"

namespace stiction {
namespace {

constexpr double kG = 9.81, kDt = 0.01;

// box_resting.yaml (a 10 cm, 1 kg box on the ground, near-rigid contact)
// pushed along x at 1 m/s with μ = 0.3 (the setup). τd = 0 so that
// SAP's stabilization velocity is v̂_n = −φ0/δt (Sec. V-A) and its gliding
// offset is μ δt ‖v_t‖ exactly (below).
Simulation MakeSlidingBox(const std::string& solver) {
  return Simulation::FromFile(test::ScenePath("box_resting.yaml"),
                              {"materials.rigid.friction=0.3", "materials.rigid.dissipation=0",
                               "bodies.box.velocity.linear=[1,0,0]", "solver.type=" + solver});
}

TEST(CanalFrictionTest, SlidingBoxDoesNotGlideWithCanalButDoesWithSap) {
  constexpr double kMu = 0.3;
  // CANAL: the normal velocity stays zero while the box slides (the exact
  // Signorini condition; it starts exactly on the ground) and it decelerates
  // at μg (Coulomb's law for a sliding contact).
  {
    Simulation sim = MakeSlidingBox("canal");
    double max_vz = 0, v1 = 0, v2 = 0, z0 = sim.CalcBodyStates()[0].position.z(), max_dz = 0;
    int step = 0;
    test::Run(&sim, 0.3, [&] {
      const BodyState b = sim.CalcBodyStates()[0];
      max_vz = std::max(max_vz, std::abs(b.linear_velocity.z()));
      max_dz = std::max(max_dz, std::abs(b.position.z() - z0));
      if (step == 5) v1 = b.linear_velocity.x();
      if (step == 25) v2 = b.linear_velocity.x();
      ++step;
    });
    const double decel = (v1 - v2) / (20 * kDt);
    std::printf("CANAL sliding: max |v_z| %.3e m/s, max |dz| %.3e m, deceleration %.5f m/s^2 "
                "(mu g = %.5f)\n", max_vz, max_dz, decel, kMu * kG);
    // The targets: normal velocity ≤ 1e-6 m/s, deceleration within 1%.
    EXPECT_LE(max_vz, 1e-6);
    EXPECT_NEAR(decel, kMu * kG, 0.01 * kMu * kG);
  }
  // SAP: its convex relaxation makes a sliding contact separate at
  // v_n − v̂_n = μ‖v_t‖ ([SAP] Sec. IV, the Anitescu-type gliding), so
  // with v̂_n = −φ/δt the box rides at a height φ ≈ μ δt ‖v_t‖ above the
  // ground (less the ~25 µm resting penetration, 2% of it here).
  {
    Simulation sim = MakeSlidingBox("sap");
    test::Run(&sim, 0.1, [] {});
    const BodyState b = sim.CalcBodyStates()[0];
    const double offset = b.position.z() - 0.05;
    const double expected = kMu * kDt * b.linear_velocity.head<2>().norm();
    std::printf("SAP sliding: height offset %.4e m, mu dt |v_t| = %.4e m\n", offset, expected);
    EXPECT_NEAR(offset, expected, 0.2 * expected);
  }
}

TEST(CanalFrictionTest, InclineBelowTheFrictionAngleTheBoxDoesNotCreep) {
  // tan α = 0.40 < μ = 0.5: static friction holds the box. SAP creeps at up
  // to μσgδt = 0.049 mm/s (its Eq. 31); exact Coulomb friction does not.
  constexpr double kTan = 0.40;
  Simulation sim = test::MakeIncline(kTan, {"solver.type=canal"});
  const Vector3 d = test::Downhill(kTan);
  double s1 = 0, v_max = 0;
  test::Run(&sim, 3.0, [&] {
    const BodyState b = test::BodyNamed(sim, "box");
    if (std::abs(sim.time() - 1.0) < 0.5 * kDt) s1 = b.position.dot(d);
    if (sim.time() > 1.0 + 0.5 * kDt) v_max = std::max(v_max, std::abs(b.linear_velocity.dot(d)));
  });
  const double creep = (test::BodyNamed(sim, "box").position.dot(d) - s1) / 2.0;
  std::printf("CANAL incline tan=0.40: creep %.3e m/s, max |v| %.3e m/s\n", creep, v_max);
  // The target: creep below 1e-3 mm/s (mean over 1–3 s and every step).
  EXPECT_LT(std::abs(creep), 1e-6);
  EXPECT_LT(v_max, 1e-6);
}

TEST(CanalFrictionTest, InclineAboveTheFrictionAngleTheBoxSlidesWithCoulombsAcceleration) {
  // tan α = 0.60 > μ: a = g (sin α − μ cos α) = 0.841 m/s².
  constexpr double kTan = 0.60, kMu = 0.5;
  const double a = std::atan(kTan);
  const double accel = kG * (std::sin(a) - kMu * std::cos(a));
  Simulation sim = test::MakeIncline(kTan, {"solver.type=canal"});
  const Vector3 d = test::Downhill(kTan);
  double v1 = 0, t1 = 0;
  int step = 0;
  test::Run(&sim, 1.0, [&] {
    if (step++ == 10) {  // 0.1 s: past the first step.
      v1 = test::BodyNamed(sim, "box").linear_velocity.dot(d);
      t1 = sim.time();
    }
  });
  const double measured = (test::BodyNamed(sim, "box").linear_velocity.dot(d) - v1) / (sim.time() - t1);
  std::printf("CANAL incline tan=0.60: a = %.6f m/s^2, Coulomb %.6f\n", measured, accel);
  // The target: within 1% (exact friction: only round-off remains).
  EXPECT_NEAR(measured, accel, 0.01 * accel);
}

TEST(CanalFrictionTest, GraspHoldDoesNotSlip) {
  // assets/scenes/grasp_hold.yaml: a 1 kg box between two pads pressed with
  // 20 N each, μ = 1 (friction capacity 40 N against a 9.81 N weight).
  Simulation sim = Simulation::FromFile(test::ScenePath("grasp_hold.yaml"), {"solver.type=canal"});
  const double z0 = test::BodyNamed(sim, "box").position.z();
  double v_max = 0;
  test::Run(&sim, 10.0, [&] {
    v_max = std::max(v_max, test::BodyNamed(sim, "box").linear_velocity.norm());
  });
  const double drift = std::abs(test::BodyNamed(sim, "box").position.z() - z0) / 10.0;
  std::printf("CANAL grasp: mean drift %.3e m/s, max |v| %.3e m/s\n", drift, v_max);
  // The target: drift below 1e-3 mm/s over 10 s, at every step too.
  EXPECT_LT(drift, 1e-6);
  EXPECT_LT(v_max, 1e-6);
}

}  // namespace
}  // namespace stiction
