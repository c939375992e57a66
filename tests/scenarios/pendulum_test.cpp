// Simple and double pendulum (assets/scenes/pendulum.yaml, double_pendulum.yaml)
// against reference solutions of their textbook equations of motion,
// integrated independently with RK4 at a step 100× smaller.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/scenarios/scenario_helpers.h"

namespace stiction {
namespace {

constexpr double kG = 9.81;
constexpr double kL = 1.0, kM = 1.0;
constexpr double kBobInertia = 1.6e-4;  // Solid sphere r = 0.02 m about its centre.

// Simple pendulum: (m L² + I) θ̈ = −m g L sin θ.
double SimplePendulumReference(double theta0, double T) {
  Eigen::Vector2d y(theta0, 0);
  const double c = kM * kG * kL / (kM * kL * kL + kBobInertia);
  const double h = 1e-5;
  const int n = static_cast<int>(std::lround(T / h));
  for (int i = 0; i < n; ++i) {
    y = test::Rk4Step(y, h, [&](const Eigen::Vector2d& s) {
      return Eigen::Vector2d(s[1], -c * std::sin(s[0]));
    });
  }
  return y[0];
}

double SimulateSimple(const std::string& integrator, double dt, double T) {
  Simulation sim = Simulation::FromFile(
      test::ScenePath("pendulum.yaml"),
      {"integrator=" + integrator, "time_step=" + std::to_string(dt)});
  test::Run(&sim, T, [] {});
  return sim.positions()[0];
}

TEST(PendulumTest, SimplePendulumMatchesReferenceAtSecondOrder) {
  const double T = 5.0, theta0 = M_PI / 6;
  const double ref = SimplePendulumReference(theta0, T);
  const double e1 = std::abs(SimulateSimple("midpoint", 2e-3, T) - ref);
  const double e2 = std::abs(SimulateSimple("midpoint", 1e-3, T) - ref);
  // Midpoint phase error ~ (ωδt)²/24 per radian of phase: ~1e-5 rad here.
  EXPECT_LT(e2, 5e-5);
  // Halving δt divides the error by ≈ 4 (second order).
  EXPECT_NEAR(e1 / e2, 4.0, 0.5);
  // Implicit Euler is first order: halving δt halves the error.
  const double i1 = std::abs(SimulateSimple("implicit_euler", 2e-3, T) - ref);
  const double i2 = std::abs(SimulateSimple("implicit_euler", 1e-3, T) - ref);
  EXPECT_NEAR(i1 / i2, 2.0, 0.3);
}

TEST(PendulumTest, SimplePendulumSwingsThroughTheBottom) {
  // Sanity on signs: after a quarter period (≈ 0.51 s at 30°) the angle
  // crosses zero and reaches −θ0 after half a period.
  Simulation sim = Simulation::FromFile(test::ScenePath("pendulum.yaml"));
  double min_q = 1;
  test::Run(&sim, 1.1, [&] { min_q = std::min(min_q, sim.positions()[0]); });
  EXPECT_NEAR(min_q, -M_PI / 6, 1e-4);
}

// Double pendulum with absolute angles φ1 = q1, φ2 = q1 + q2 (both hinges
// about y) and bobs of mass m and inertia I at the rod ends (RBDA-free
// textbook Lagrangian):
//   [(2m L² + I)          m L² cos(φ1−φ2)] [φ̈1]   [−m L² sin(φ1−φ2) φ̇2² − 2 m g L sin φ1]
//   [m L² cos(φ1−φ2)      m L² + I       ] [φ̈2] = [ m L² sin(φ1−φ2) φ̇1² −   m g L sin φ2]
Eigen::Vector4d DoublePendulumRhs(const Eigen::Vector4d& s) {
  const double c = std::cos(s[0] - s[1]), sn = std::sin(s[0] - s[1]);
  Eigen::Matrix2d M;
  M << 2 * kM * kL * kL + kBobInertia, kM * kL * kL * c, kM * kL * kL * c,
      kM * kL * kL + kBobInertia;
  const Eigen::Vector2d f(-kM * kL * kL * sn * s[3] * s[3] - 2 * kM * kG * kL * std::sin(s[0]),
                          kM * kL * kL * sn * s[2] * s[2] - kM * kG * kL * std::sin(s[1]));
  const Eigen::Vector2d a = M.ldlt().solve(f);
  return Eigen::Vector4d(s[2], s[3], a[0], a[1]);
}

Eigen::Vector2d SimulateDouble(double dt, double T) {
  Simulation sim = Simulation::FromFile(test::ScenePath("double_pendulum.yaml"),
                                        {"time_step=" + std::to_string(dt)});
  test::Run(&sim, T, [] {});
  return Eigen::Vector2d(sim.positions()[0], sim.positions()[0] + sim.positions()[1]);
}

TEST(PendulumTest, DoublePendulumMatchesReference) {
  const double T = 2.0;  // Short enough that chaos amplifies errors only ~10×.
  Eigen::Vector4d y(M_PI / 2, M_PI / 2, 0, 0);
  const double h = 1e-5;
  for (int i = 0; i < static_cast<int>(std::lround(T / h)); ++i) {
    y = test::Rk4Step(y, h, DoublePendulumRhs);
  }
  const Eigen::Vector2d ref = y.head<2>();
  const double e1 = (SimulateDouble(2e-3, T) - ref).norm();
  const double e2 = (SimulateDouble(1e-3, T) - ref).norm();
  EXPECT_LT(e2, 2e-3);  // Midpoint at δt = 1 ms after a chaotic 2 s.
  EXPECT_NEAR(e1 / e2, 4.0, 1.0);  // Second order, loosely: chaos perturbs the ratio.
}

TEST(PendulumTest, DoublePendulumConservesEnergyWithMidpoint) {
  Simulation sim = Simulation::FromFile(test::ScenePath("double_pendulum.yaml"));
  const double e0 = sim.CalcKineticEnergy() + sim.CalcPotentialEnergy();
  double max_dev = 0;
  test::Run(&sim, 10.0, [&] {
    const double e = sim.CalcKineticEnergy() + sim.CalcPotentialEnergy();
    max_dev = std::max(max_dev, std::abs(e - e0));
  });
  // Nonlinear system: the midpoint rule keeps the energy error bounded at
  // O(δt²) ≈ (ω δt)² · E ≈ 1e-5 · 20 J, with no drift.
  EXPECT_LT(max_dev, 1e-3);
}

}  // namespace
}  // namespace stiction
