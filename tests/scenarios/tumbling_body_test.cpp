// Torque-free tumbling box (assets/scenes/tumbling_body.yaml): spun mostly
// about its intermediate axis it flips repeatedly (Dzhanibekov effect) while
// kinetic energy and angular momentum are conserved.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/scenarios/scenario_helpers.h"

namespace stiction {
namespace {

struct Invariants {
  double energy;
  Vector3 L_W;  // Angular momentum about the COM, world frame [kg m²/s].
};

Invariants Measure(const Simulation& sim) {
  const BodyState s = sim.CalcBodyStates()[0];
  const Matrix3 R = s.orientation.toRotationMatrix();
  const Matrix3 I_W = R * sim.model().body(1).I_Bcm_B * R.transpose();
  return {sim.CalcKineticEnergy(), I_W * s.angular_velocity};
}

TEST(TumblingBodyTest, MidpointConservesEnergyAndAngularMomentum) {
  Simulation sim = Simulation::FromFile(test::ScenePath("tumbling_body.yaml"));
  ASSERT_EQ(sim.integrator().name, "midpoint");
  const Invariants start = Measure(sim);
  double max_energy_dev = 0, max_L_norm_dev = 0, max_L_dev = 0;
  int flips = 0;
  double last_wy = sim.CalcBodyStates()[0].angular_velocity.y();
  // Body-frame y rate: its sign flips at every Dzhanibekov flip.
  test::Run(&sim, 10.0, [&] {
    const Invariants now = Measure(sim);
    max_energy_dev = std::max(max_energy_dev, std::abs(now.energy / start.energy - 1));
    max_L_norm_dev = std::max(max_L_norm_dev, std::abs(now.L_W.norm() / start.L_W.norm() - 1));
    max_L_dev = std::max(max_L_dev, (now.L_W - start.L_W).norm() / start.L_W.norm());
    const double wy = sim.velocities()[1];
    if (wy * last_wy < 0) ++flips;
    last_wy = wy;
  });
  // The motion is not trivial: the box flips several times in 10 s.
  EXPECT_GE(flips, 2);
  // With ω in the body frame, M = diag(I_B, m) and the midpoint rule
  // conserves ½ωᵀIω and |Iω| exactly; only round-off and the 1e-13 stage-1
  // tolerance remain over 10⁴ steps.
  EXPECT_LT(max_energy_dev, 1e-9);
  EXPECT_LT(max_L_norm_dev, 1e-9);
  // The direction of L in the world depends on the orientation, which the
  // midpoint rule integrates to second order: O((ωδt)²) per unit of phase.
  EXPECT_LT(max_L_dev, 1e-6);
}

TEST(TumblingBodyTest, ImplicitEulerDissipatesEnergy) {
  // Implicit Euler damps rotation (numerical dissipation); energy only
  // decreases. A cross-check that the conservation above is not trivial.
  Simulation sim = Simulation::FromFile(test::ScenePath("tumbling_body.yaml"),
                                        {"integrator=implicit_euler", "time_step=0.01"});
  const double e0 = sim.CalcKineticEnergy();
  test::Run(&sim, 10.0, [] {});
  EXPECT_LT(sim.CalcKineticEnergy(), (1 - 1e-4) * e0);
}

}  // namespace
}  // namespace stiction
