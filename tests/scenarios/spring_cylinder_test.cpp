// The frictionless spring-cylinder of [SAP], Sec. VI-B (Fig. 5):
// R = 0.05 m, m = 0.5 kg, k_s = 100 N/m, x0 = 0.1 m, δt = 0.02 s. Without
// friction it is a spring-mass system, ω = √(k_s/m), x_e(t) = x0 cos ωt.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "tests/scenarios/scenario_helpers.h"

namespace stiction {
namespace {

constexpr double kMass = 0.5, kSpring = 100, kX0 = 0.1;
const double kOmega = std::sqrt(kSpring / kMass);

struct Trace {
  std::vector<double> t, x, energy;
};

Trace Simulate(const std::string& integrator, double dt, double duration) {
  Simulation sim = Simulation::FromFile(
      test::ScenePath("spring_cylinder.yaml"),
      {"integrator=" + integrator, "time_step=" + std::to_string(dt)});
  Trace tr;
  test::Run(&sim, duration, [&] {
    const double x = sim.positions()[0], v = sim.velocities()[0];
    tr.t.push_back(sim.time());
    tr.x.push_back(x);
    // Spring-mass energy; gravity does no work on the horizontal slider.
    tr.energy.push_back(0.5 * kMass * v * v + 0.5 * kSpring * x * x);
  });
  return tr;
}

TEST(SpringCylinderTest, SceneIsThePapersSetup) {
  Simulation sim = Simulation::FromFile(test::ScenePath("spring_cylinder.yaml"));
  EXPECT_EQ(sim.time_step(), 0.02);
  EXPECT_EQ(sim.model().num_velocities(), 1);
  EXPECT_EQ(sim.positions()[0], kX0);
  EXPECT_EQ(sim.model().body(1).mass, kMass);
}

TEST(SpringCylinderTest, ImplicitEulerLosesEnergyAtTheAnalyticRate) {
  // On a harmonic oscillator implicit Euler scales the energy by exactly
  // 1/(1 + (ωδt)²) per step (the step map is a rotation of (ωx, v) divided
  // by √(1 + (ωδt)²)): most energy is gone within two periods.
  const double dt = 0.02;
  const Trace tr = Simulate("implicit_euler", dt, 1.0);
  const double factor = 1.0 / (1.0 + kOmega * kOmega * dt * dt);
  for (size_t n = 0; n < tr.energy.size(); ++n) {
    // Round-off only: the scheme is linear and stage 1 converges to 1e-13.
    EXPECT_NEAR(tr.energy[n] / tr.energy[0], std::pow(factor, n), 1e-10) << "step " << n;
  }
  const double period = 2 * M_PI / kOmega;
  const size_t two_periods = static_cast<size_t>(2 * period / dt);
  EXPECT_LT(tr.energy[two_periods] / tr.energy[0], 0.05);
}

TEST(SpringCylinderTest, SymplecticEulerEnergyStaysInTheBandThePaperReports) {
  // Symplectic Euler conserves H̃ = ½m(v² + ω²x² − ωδt·ω x v), so E oscillates
  // between H̃/(1 + a/2) and H̃/(1 − a/2) with a = ωδt = 0.283, i.e. a band
  // a/(1 − a²/4) ≈ 28.9% of E0 wide (the paper reports 28%). Sampled at the
  // steps the band can only be narrower; 22 steps per period get within 1%.
  const double dt = 0.02, a = kOmega * dt;
  const Trace tr = Simulate("symplectic_euler", dt, 60.0);
  const auto [lo, hi] = std::minmax_element(tr.energy.begin(), tr.energy.end());
  const double band = (*hi - *lo) / tr.energy[0];
  const double analytic = a / (1 - a * a / 4);
  EXPECT_LE(band, analytic + 1e-9);
  EXPECT_GE(band, 0.97 * analytic);
  EXPECT_NEAR(band, 0.28, 0.015);
  // Bounded: the last 5 s span the same band as the first 5 s (no drift).
  const size_t n5 = static_cast<size_t>(5.0 / dt);
  const auto first = std::minmax_element(tr.energy.begin(), tr.energy.begin() + n5);
  const auto last = std::minmax_element(tr.energy.end() - n5, tr.energy.end());
  EXPECT_NEAR(*last.second, *first.second, 1e-3 * tr.energy[0]);
  EXPECT_NEAR(*last.first, *first.first, 1e-3 * tr.energy[0]);
}

TEST(SpringCylinderTest, MidpointConservesEnergy) {
  // The implicit midpoint rule conserves quadratic invariants exactly; what
  // remains is round-off and the 1e-13 stage-1 tolerance over 3000 steps.
  const Trace tr = Simulate("midpoint", 0.02, 60.0);
  for (double e : tr.energy) EXPECT_NEAR(e / tr.energy[0], 1.0, 1e-10);
}

TEST(SpringCylinderTest, PositionErrorConvergesAtTheSchemesOrder) {
  // e_q = (1/T ∫ (x − x_e)² dt)^½ over T = 5 s (the paper's Fig. 7 metric),
  // against x_e = x0 cos ωt.
  // First-order schemes reach their asymptotic regime only once the
  // amplitude decay ω²δt T/2 is small (δt ≲ 1e-3 for T = 5 s).
  const std::vector<double> dts = {1e-3, 5e-4, 2.5e-4, 1.25e-4};
  struct Case {
    const char* integrator;
    double order;
  };
  for (const Case c : {Case{"implicit_euler", 1}, Case{"symplectic_euler", 1},
                       Case{"midpoint", 2}}) {
    std::vector<double> errors;
    for (double dt : dts) {
      const Trace tr = Simulate(c.integrator, dt, 5.0);
      errors.push_back(
          test::RmsError(tr.t, tr.x, [](double t) { return kX0 * std::cos(kOmega * t); }));
      std::printf("%-16s dt=%-8g e_q=%.3e m\n", c.integrator, dt, errors.back());
    }
    // Over this δt range the fitted orders are 0.93 (implicit Euler, still
    // leaving its pre-asymptotic regime), 1.00 and 2.00: 0.15 leaves margin.
    EXPECT_NEAR(test::FittedOrder(dts, errors), c.order, 0.15) << c.integrator;
  }
}

}  // namespace
}  // namespace stiction
