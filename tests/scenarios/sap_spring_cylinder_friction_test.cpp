// The spring-cylinder of [SAP], Sec. VI-B, with friction (μ = 1,
// k = 1e4 N/m, τd = 0.02 s): R = 0.05 m, m = 0.5 kg, k_s = 100 N/m,
// x0 = 0.1 m. It rolls without slipping, so it is a spring-mass system with
// m_eff = m + I/R² = 1.5 m and x_e(t) = x0 cos ωt, ω = √(k_s/m_eff).
// Scene: assets/scenes/spring_cylinder_friction.yaml (joints: slider x,
// lift z, roll y; q = v = [x, z, θ]).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "tests/scenarios/scenario_helpers.h"

namespace stiction {
namespace {

constexpr double kMass = 0.5, kRadius = 0.05, kSpring = 100, kX0 = 0.1, kG = 9.81;
constexpr double kContactK = 1e4, kPi = 3.14159265358979323846;
// Solid cylinder about its axis.
constexpr double kInertia = 0.5 * kMass * kRadius * kRadius;

// The contact point reported by the geometry is midway between the two
// surfaces, so the cylinder rolls about a point δ/2 above its lowest point,
// δ = m g / k its resting penetration: the rolling radius of the model is
// R − δ/2 (0.5% below R), which makes m_eff 0.98% of I/R² heavier and ω 0.16%
// slower. Over the T = 2 s error window that is a 0.03 rad phase error,
// 2e-3 m — larger than every integration error below — so the reference
// solution uses the model's rolling radius. (Checked in RollsWithoutSlipping
// against the contact points themselves.)
constexpr double kPenetration = kMass * kG / kContactK;
constexpr double kRollingRadius = kRadius - 0.5 * kPenetration;
// The slider also carries the two 1e-6 kg carriages: +4e-6 relative in
// m_eff, a 1.3e-6 m RMS phase error over 2 s — the size of the smallest
// midpoint errors below, so it is in the reference too.
constexpr double kCarriages = 2e-6;
const double kOmega =
    std::sqrt(kSpring / (kMass + kCarriages + kInertia / (kRollingRadius * kRollingRadius)));

struct Trace {
  std::vector<double> t, x, xdot, omega, energy;
  double max_slip = 0;        // max over steps and contacts of |v_t| [m/s].
  double max_rel_roll = 0;    // max |ẋ − ω R_roll| / max|ẋ|.
  bool all_stiction = true;   // Every contact in region I of App. C.
};

Trace Simulate(const std::string& integrator, double dt, double duration) {
  Simulation sim = Simulation::FromFile(test::ScenePath("spring_cylinder_friction.yaml"),
                                        {"integrator=" + integrator, "time_step=" + test::Num(dt)});
  Trace tr;
  double max_xdot = 0, max_roll_error = 0;
  test::Run(&sim, duration, [&] {
    const VectorX& v = sim.velocities();
    tr.t.push_back(sim.time());
    tr.x.push_back(sim.positions()[0]);
    tr.xdot.push_back(v[0]);
    tr.omega.push_back(v[2]);
    tr.energy.push_back(sim.CalcKineticEnergy() + sim.CalcPotentialEnergy());
    max_xdot = std::max(max_xdot, std::abs(v[0]));
    max_roll_error = std::max(max_roll_error, std::abs(v[0] - v[2] * kRollingRadius));
    for (const ContactReport& c : sim.contacts()) {
      // The contact point is at the model's rolling radius below the axis.
      EXPECT_NEAR(sim.positions()[1] - c.p_W.z(), kRollingRadius, 1e-6);
      tr.max_slip = std::max(tr.max_slip, c.vc.head<2>().norm());
      if (c.region != ConeRegion::kStiction) tr.all_stiction = false;
    }
  });
  tr.max_rel_roll = max_roll_error / max_xdot;
  return tr;
}

TEST(SapSpringCylinderFrictionTest, SceneIsThePapersSetup) {
  Simulation sim = Simulation::FromFile(test::ScenePath("spring_cylinder_friction.yaml"));
  EXPECT_EQ(sim.time_step(), 0.02);
  ASSERT_EQ(sim.model().num_velocities(), 3);  // x, z, θ.
  EXPECT_EQ(sim.positions()[0], kX0);
  const ContactMaterial m = sim.GetMaterial("paper");
  EXPECT_EQ(m.friction, 1.0);
  EXPECT_EQ(m.stiffness, kContactK);
  EXPECT_EQ(m.dissipation, 0.02);
  // The cylinder's computed inertia about its axis (world y) is ½mR².
  const int b = sim.model().FindBody("cylinder");
  EXPECT_EQ(sim.model().body(b).mass, kMass);
  // Resting on two points (the ends of the line contact) with the weight
  // shared: after one step the contact carries m g δt.
  ASSERT_EQ(sim.Step().status, StepStatus::kSuccess);
  ASSERT_EQ(sim.contacts().size(), 2u);
  double gamma_n = 0;
  for (const ContactReport& c : sim.contacts()) gamma_n += c.gamma_C.z();
  // Static equilibrium from the first step; 1% covers the +2e-6 kg of the
  // carriages and the spring's pull not yet balanced by rolling.
  EXPECT_NEAR(gamma_n, kMass * kG * 0.02, 0.01 * kMass * kG * 0.02);
}

TEST(SapSpringCylinderFrictionTest, RollsWithoutSlipping) {
  const double dt = 0.02, period = 2 * kPi / kOmega;
  const Trace tr = Simulate("midpoint", dt, 10 * period);
  double max_xdot = 0;
  for (double v : tr.xdot) max_xdot = std::max(max_xdot, std::abs(v));
  std::printf("rolling: max |xdot| %.4f m/s, max contact slip %.3e m/s (%.2e of it), "
              "max |xdot - omega R_roll| / max|xdot| = %.2e\n",
              max_xdot, tr.max_slip, tr.max_slip / max_xdot, tr.max_rel_roll);
  // Rolls: max ẋ ≈ x0 ω = 1.15 m/s; 2% covers the midpoint rule's discrete
  // amplitude of the velocity at 27 steps per period.
  EXPECT_NEAR(max_xdot, kX0 * kOmega, 0.02 * kX0 * kOmega);
  // Without slipping: SAP's regularized stiction (R_t = σw, Eq. 30) lets
  // the contact slip at v_t = R_t γ_t, of the order of μσgδt = 2e-4 m/s
  // here (measured: 7e-5 m/s). 1e-3 of the rolling speed is the bound we hold
  // it to: that is "tiny" with a 15× margin over the measured value.
  EXPECT_TRUE(tr.all_stiction);
  EXPECT_LT(tr.max_slip, 1e-3 * max_xdot);
  EXPECT_LT(tr.max_rel_roll, 1e-3);
}

TEST(SapSpringCylinderFrictionTest, MidpointEnergyIsNearlyConstant) {
  // E = kinetic + gravity + spring over the first 10 periods. The paper
  // reports 0.16% peak-to-peak for SAP with the midpoint rule; the issue
  // asks < 0.5%.
  const double dt = 0.02, period = 2 * kPi / kOmega;
  const Trace tr = Simulate("midpoint", dt, 10 * period);
  const auto [lo, hi] = std::minmax_element(tr.energy.begin(), tr.energy.end());
  // Relative to the spring energy ½k_s x0² (the potential's zero is arbitrary).
  const double e0 = 0.5 * kSpring * kX0 * kX0;
  const double band = (*hi - *lo) / e0;
  std::printf("midpoint energy: peak-to-peak %.4f%% of E0 = %.3f J over 10 periods\n",
              100 * band, e0);
  EXPECT_LT(band, 0.005);
}

TEST(SapSpringCylinderFrictionTest, PositionErrorConvergesAtTheSchemesOrder) {
  // e_q = (1/N Σ (x − x_e)²)^½ over T = 2 s (3.7 periods) against
  // x_e = x0 cos ωt, ω from m_eff with the model's rolling radius (above).
  // Range: δt from 2e-3 to 2.5e-4 s (ωδt from 0.023 to 0.0029). First-order
  // schemes are asymptotic only once their amplitude decay ω²δtT/2 is small
  // (0.13 at δt = 2e-3 over T = 2 s). The midpoint errors go down to 6e-7 m,
  // which is why the reference includes the rolling radius and the carriage
  // masses above. Measured orders: 0.96 (implicit Euler, still leaving its
  // pre-asymptotic regime), 1.01 and 2.00; 0.15 leaves margin.
  const std::vector<double> dts = {2e-3, 1e-3, 5e-4, 2.5e-4};
  struct Case {
    const char* integrator;
    double order;
  };
  for (const Case c : {Case{"implicit_euler", 1}, Case{"symplectic_euler", 1},
                       Case{"midpoint", 2}}) {
    std::vector<double> errors;
    for (double dt : dts) {
      const Trace tr = Simulate(c.integrator, dt, 2.0);
      errors.push_back(
          test::RmsError(tr.t, tr.x, [](double t) { return kX0 * std::cos(kOmega * t); }));
      std::printf("%-16s dt=%-8g e_q=%.3e m\n", c.integrator, dt, errors.back());
    }
    const double order = test::FittedOrder(dts, errors);
    std::printf("%-16s fitted order %.3f\n", c.integrator, order);
    EXPECT_NEAR(order, c.order, 0.15) << c.integrator;
  }
}

}  // namespace
}  // namespace stiction
