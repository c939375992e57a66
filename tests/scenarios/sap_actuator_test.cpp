// Implicit PD actuators with effort limits ([SAP] Sec. VII) on the simple
// pendulum of assets/scenes/pendulum.yaml (1 kg bob, L = 1 m, hinge about y;
// θ > 0 lifts the bob towards −x, gravity torque −m g L sin θ).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <limits>
#include <string>
#include <vector>

#include "engine/common/error.h"
#include "tests/scenarios/scenario_helpers.h"

namespace stiction {
namespace {

constexpr double kG = 9.81, kM = 1.0, kL = 1.0;
constexpr double kI = kM * kL * kL + 1.6e-4;  // m L² + the bob's own inertia.

// The pendulum with one actuator on its hinge, added by --set.
Simulation PendulumWithActuator(double kp, double kd, double effort_limit, double target,
                                std::vector<std::string> extra = {}) {
  std::vector<std::string> overrides = {
      "actuators=[{name: motor, joint: hinge, kp: " + test::Num(kp) + ", kd: " + test::Num(kd) +
      ", effort_limit: " + test::Num(effort_limit) + ", target: {position: " + test::Num(target) +
      "}}]"};
  overrides.insert(overrides.end(), extra.begin(), extra.end());
  return Simulation::FromFile(test::ScenePath("pendulum.yaml"), overrides);
}

TEST(SapActuatorTest, CriticallyDampedPdSettlesOnTarget) {
  const double target = 1.0;
  // Stiffness about the target: kp + m g L cos θd (gravity's own stiffness);
  // kd = 2 sqrt(k_eff I) is critical damping.
  const double kp = 1e5;
  const double kd = 2 * std::sqrt((kp + kM * kG * kL * std::cos(target)) * kI);
  Simulation sim = PendulumWithActuator(kp, kd, 1e9, target);
  ASSERT_EQ(sim.actuator_names(), std::vector<std::string>{"motor"});
  test::Run(&sim, 3.0, [] {});
  const double q = sim.positions()[0];
  // Requirement: within 1e-3 rad of the target after 3 s.
  EXPECT_LT(std::abs(q - target), 1e-3) << q;
  // At rest the implicit PD balances gravity exactly: kp (q_d − q) = m g L sin q
  // (v = 0, so q0 + δt v = q0); 1e-7 rad covers the residual transient
  // (critical damping decays as e^{−316 t}) and the solver's ε_r = 1e-6.
  EXPECT_NEAR(target - q, kM * kG * kL * std::sin(q) / kp, 1e-7);
  EXPECT_LT(std::abs(sim.velocities()[0]), 1e-6);
  // The torque it applies is the gravity torque (within the solver's ε_r).
  ASSERT_EQ(sim.actuator_efforts().size(), 1u);
  EXPECT_NEAR(sim.actuator_efforts()[0], kM * kG * kL * std::sin(q), 1e-4);
}

// The oscillator's documented target (scene_description.h): centre c,
// amplitude A, period T, phase φ [periods], start t0, envelope over one period.
double OscillatorTarget(double t, double c, double A, double T, double phase, double t0) {
  if (t <= t0) return c;
  const double cycles = (t - t0) / T;
  return c + std::min(cycles, 1.0) * A * std::sin(2 * std::numbers::pi * (cycles + phase));
}

TEST(SapActuatorTest, AnOscillatorMovesTheTargetAndAStiffPdFollowsIt) {
  const double kp = 1e5, kd = 2 * std::sqrt(kp * kI);  // Critically damped (gravity off).
  Simulation sim = PendulumWithActuator(
      kp, kd, 1e9, 0.3,
      {"gravity=[0, 0, 0]", "time_step=0.001",
       "oscillators=[{actuator: motor, amplitude: 0.2, period: 0.5, phase: 0.25, start: 0.1}]"});
  double worst_target = 0, worst_tracking = 0;
  test::Run(&sim, 2.0, [&] {
    // After a step the target is the one for the step's end, t = time().
    const double want = OscillatorTarget(sim.time(), 0.3, 0.2, 0.5, 0.25, 0.1);
    worst_target = std::max(worst_target, std::abs(sim.actuator("motor").target_position - want));
    if (sim.time() > 1.0) worst_tracking = std::max(worst_tracking, std::abs(sim.positions()[0] - want));
  });
  std::printf("oscillator: target error %.2e rad, tracking error %.2e rad\n", worst_target, worst_tracking);
  EXPECT_LT(worst_target, 1e-14);  // The same formula; round-off of t only.
  // ω_n = sqrt(kp/I) ≈ 316 rad/s against the 12.6 rad/s oscillation, with
  // the velocity feed-forward v_d: the lag is O((ω/ω_n)²) A ≈ 3e-4 rad, plus
  // implicit Euler's O(δt ω) phase error on A.
  EXPECT_LT(worst_tracking, 1e-3);
  // A controller's SetActuatorTarget moves the centre, not the oscillation.
  sim.SetActuatorTarget("motor", -0.4, 0.0);
  test::Run(&sim, 0.01, [] {});
  EXPECT_NEAR(sim.actuator("motor").target_position, OscillatorTarget(sim.time(), -0.4, 0.2, 0.5, 0.25, 0.1), 1e-14);
}

TEST(SapActuatorTest, OscillatorErrorsNameTheKey) {
  auto error = [](const std::string& oscillators) -> std::string {
    try {
      PendulumWithActuator(100, 1, 1e9, 0, {"oscillators=" + oscillators});
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(error("[{actuator: nope, amplitude: 1, period: 1}]").find("oscillators[0].actuator: unknown actuator 'nope'"),
            std::string::npos);
  EXPECT_NE(error("[{actuator: motor, amplitude: 1, period: 0}]").find("oscillators[0].period"), std::string::npos);
  EXPECT_NE(error("[{actuator: motor, amplitude: 1, period: 1, phase: 1}]").find("must be in [0, 1) periods"),
            std::string::npos);
  EXPECT_NE(error("[{actuator: motor, amplitude: 1}]").find("period"), std::string::npos);
  EXPECT_NE(error("[{actuator: motor, amplitude: 1, period: 1}, {actuator: motor, amplitude: 2, period: 1}]")
                .find("already has an oscillator"),
            std::string::npos);
}

TEST(SapActuatorTest, VeryStiffGainsStayStableAtLargeSteps) {
  // kp = 1e8 at δt = 10 ms: ω δt = 100, far beyond any explicit scheme's
  // stability limit (2); the implicit PD must stay finite and converge.
  Simulation sim = PendulumWithActuator(1e8, 0, 1e9, 0.3, {"time_step=0.01"});
  double max_abs_q = 0;
  test::Run(&sim, 3.0, [&] {
    ASSERT_TRUE(sim.positions().allFinite() && sim.velocities().allFinite());
    max_abs_q = std::max(max_abs_q, std::abs(sim.positions()[0]));
  });
  // No blow-up: the angle never leaves the span of start (π/6) and target.
  EXPECT_LT(max_abs_q, 0.6);
  // The static offset m g L sin θ / kp is 3e-8 rad; 1e-6 rad bounds the
  // decaying midpoint oscillation (factor ≈ 0.7 per step) after 300 steps.
  EXPECT_NEAR(sim.positions()[0], 0.3, 1e-6);
}

TEST(SapActuatorTest, EffortLimitBoundsTheTorqueAndTheHoldingAngle) {
  // A stiff PD asks to lift the pendulum to 1.2 rad, but its torque is capped
  // at 2 N m < m g L: the bob can only rise to sin θ* = limit / (m g L).
  // Joint damping (implicit, zero at rest) lets the swing settle.
  const double limit = 2.0;
  Simulation sim = PendulumWithActuator(1e4, 100, limit, 1.2,
                                        {"joints.hinge.damping=2", "time_step=0.01",
                                         "joints.hinge.initial.position=0"});
  double max_effort = 0;
  test::Run(&sim, 15.0, [&] {
    for (double e : sim.actuator_efforts()) max_effort = std::max(max_effort, std::abs(e));
  });
  // The clamp is exact: |γ| ≤ δt·limit up to round-off.
  EXPECT_LE(max_effort, limit * (1 + 1e-12));
  // And it is active: the PD saturates.
  EXPECT_GT(max_effort, limit * (1 - 1e-9));
  const double expected = std::asin(limit / (kM * kG * kL));  // 0.2053 rad.
  // After 15 s the damped swing (ζ ≈ 0.3 at ω ≈ 3.1 rad/s) has decayed below
  // 1e-6 rad. The remaining offset (observed 5e-5 rad) is the stepper's
  // O(δt²) bias: stage 1 evaluates gravity at q0 + θ δt v* with v* ≈
  // −δt m g L sin θ / I ≠ 0 while the saturated PD row is constant, which
  // shifts the balance by ~θ θ_vq δt² tan θ ≈ 1e-4 rad at δt = 10 ms.
  EXPECT_NEAR(sim.positions()[0], expected, 1e-4);
  EXPECT_NEAR(sim.actuator_efforts()[0], limit, 1e-6);
}

TEST(SapActuatorTest, FacadeSettersValidateAndTakeEffect) {
  Simulation sim = PendulumWithActuator(100, 20, 1e9, 0.0);
  EXPECT_THROW(sim.SetActuatorTarget("nope", 0, 0), InputError);
  EXPECT_THROW(sim.SetActuatorTarget("motor", std::nan(""), 0), InputError);
  EXPECT_THROW(sim.SetActuatorGains("motor", -1, 1, 1), InputError);
  EXPECT_THROW(sim.SetActuatorGains("motor", 0, 0, 1), InputError);
  EXPECT_THROW(sim.SetActuatorGains("motor", 1, 1, 0), InputError);
  EXPECT_THROW(sim.SetActuatorGains("motor", 1, 1, std::nan("")), InputError);
  sim.SetActuatorGains("motor", 1e5, 700, std::numeric_limits<double>::infinity());
  sim.SetActuatorTarget("motor", -0.4, 0);
  test::Run(&sim, 2.0, [] {});
  // Static offset m g L sin(0.4)/kp = 3.8e-5 rad; 1e-4 covers it.
  EXPECT_NEAR(sim.positions()[0], -0.4, 1e-4);
}

}  // namespace
}  // namespace stiction
