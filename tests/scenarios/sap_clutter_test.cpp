// [SAP] Sec. VI-C "clutter": 40 spheres (r = 5 cm, 0.524 kg) and boxes
// (10 cm, 1 kg) dropped in four columns into an 80 cm open box, k = 1e12 N/m
// (near-rigid), τd = δt = 10 ms, μ = 1, 10 s. Scene: assets/scenes/clutter.yaml.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>

#include "tests/scenarios/scenario_helpers.h"

namespace stiction {
namespace {

TEST(SapClutterTest, FortyObjectsSettleInTheBox) {
  Simulation sim = Simulation::FromFile(test::ScenePath("clutter.yaml"));
  ASSERT_EQ(sim.model().num_bodies(), 41);  // World + 40 objects.
  const double dt = sim.time_step();
  ASSERT_EQ(dt, 0.01);
  const double eps_r = sim.solver_parameters().relative_tolerance;
  ASSERT_EQ(eps_r, 1e-6);
  const int steps = static_cast<int>(std::lround(10.0 / dt));
  double iterations_late = 0, wall = 0, max_em = 0;
  int late = 0, contact_steps = 0, max_contacts = 0;
  for (int i = 0; i < steps; ++i) {
    const StepResult r = sim.Step();
    ASSERT_EQ(r.status, StepStatus::kSuccess) << "step " << i << ": " << r.message;
    wall += r.stats.wall_time_s;
    // Finite throughout (Step also refuses non-finite states).
    ASSERT_TRUE(sim.positions().allFinite() && sim.velocities().allFinite()) << "step " << i;
    if (r.stats.num_contacts > 0) {
      ++contact_steps;
      max_em = std::max(max_em, r.stats.momentum_error);
      // The target: e_m (Eq. 32) ≤ ε_r at every step with contact.
      EXPECT_LE(r.stats.momentum_error, eps_r) << "step " << i;
    }
    max_contacts = std::max(max_contacts, r.stats.num_contacts);
    if (sim.time() > 5.0 + 0.5 * dt) {
      iterations_late += r.stats.iterations;
      ++late;
    }
  }
  const double mean_iterations = iterations_late / late;
  const double ke = sim.CalcKineticEnergy();
  std::printf("clutter: mean iterations over 5-10 s %.2f, %.2f ms/step, max e_m %.2e over %d "
              "contact steps, max contacts %d, final KE %.2e J\n",
              mean_iterations, 1e3 * wall / steps, max_em, contact_steps, max_contacts, ke);
  // Every object inside the box: centre within the 80 cm inner walls and
  // between the floor and the 80 cm rim.
  for (const BodyState& b : sim.CalcBodyStates()) {
    EXPECT_LT(std::abs(b.position.x()), 0.4) << b.name;
    EXPECT_LT(std::abs(b.position.y()), 0.4) << b.name;
    EXPECT_GT(b.position.z(), 0.0) << b.name;
    EXPECT_LT(b.position.z(), 0.8) << b.name;
  }
  // The targets: at rest (final KE < 1e-3 J; the pile fell from up
  // to 1.45 m, ~300 J of potential energy) and warm-started Newton needing
  // at most 5 iterations on average once settled (paper Fig. 13: 2–3).
  EXPECT_LT(ke, 1e-3);
  EXPECT_LE(mean_iterations, 5.0);
}

}  // namespace
}  // namespace stiction
