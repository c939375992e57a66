// The energy a compressed contact holds (Simulation::CalcContactStoredEnergy),
// which the soak's energy budget hands over at a model or solver switch
// (docs/soak.md). Checked against the analytic spring and against what the
// contact gives back when the load is taken off.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/scene/scene_loader.h"
#include "tests/scenarios/scenario_helpers.h"

namespace stiction {
namespace {

constexpr double kStiffness = 2e4;  // Ground and box material [N/m]; the pair's is k/2 in series.
constexpr double kPress = 100;      // Downward force on the box's centre [N].

void Press(Simulation* sim) {
  const Vector3 p = test::BodyNamed(*sim, "box").position;
  sim->SetExternalWrenches({ExternalWrench{1, p, Vector3(0, 0, -kPress), Vector3::Zero()}});
}

// falling_box.yaml's 1 kg, 10 cm cube on a soft ground, pressed by kPress
// until it rests (3 s; the models' dissipation settles it).
Simulation PressedBox(const std::string& model) {
  Simulation sim = Simulation::FromFile(test::ScenePath("falling_box.yaml"),
                                        {"contact_model=" + model, "materials.default.stiffness=" + test::Num(kStiffness),
                                         "materials.default.hc_dissipation=20", "time_step=0.001"});
  for (int i = 0; i < 3000; ++i) {
    Press(&sim);
    const StepResult r = sim.Step();
    EXPECT_EQ(r.status, StepStatus::kSuccess) << r.message;
  }
  return sim;
}

TEST(ContactStoredEnergyTest, APressedContactHoldsItsSpringsEnergyAndGivesBackNoMore) {
  // At rest a Lagged Hunt & Crossley contact pushes k x per corner, k the
  // pair's stiffness (dissipation acts on speed only): four corners carry
  // (m g + F)/4 each and hold U = 4 (m g + F)² / (16 · 2 k_pair)
  // = (m g + F)² / (8 k_pair).
  Simulation sim = PressedBox("lagged");
  const double load = 1.0 * 9.81 + kPress;
  const double k_pair = kStiffness / 2;
  const double expected = load * load / (8 * k_pair);
  double force = 0;
  for (const ContactReport& c : sim.contacts()) force += c.gamma_C.z() / sim.time_step();
  const double stored = sim.CalcContactStoredEnergy();
  std::printf("pressed box: %zu contacts carry %.4f N (m g + F = %.4f N); stored %.6g J, analytic %.6g J\n",
              sim.contacts().size(), force, load, stored, expected);
  ASSERT_EQ(sim.contacts().size(), 4u);
  EXPECT_NEAR(force, load, 1e-3 * load);
  EXPECT_NEAR(stored, expected, 1e-2 * expected);

  // Released with the dissipation set to 0: the springs lift the box off
  // the ground. What they give back, the largest rise of KE + PE over the
  // state at release, can be no more than they held (nothing else does
  // work), and without dissipation it must be most of it (the midpoint rule
  // dissipates little).
  sim.SetExternalWrenches({});
  SceneParameters undamped = sim.CalcSceneParameters();
  for (auto& [name, material] : undamped.materials) material.hc_dissipation = 0;
  sim.SetSceneParameters(undamped);
  const double e0 = sim.CalcKineticEnergy() + sim.CalcPotentialEnergy();
  double given_back = 0;
  for (int i = 0; i < 300; ++i) {
    const StepResult r = sim.Step();
    ASSERT_EQ(r.status, StepStatus::kSuccess) << r.message;
    given_back = std::max(given_back, sim.CalcKineticEnergy() + sim.CalcPotentialEnergy() - e0);
  }
  // At rest under its weight alone the contact still holds (m g)²/(8 k).
  const double left = 9.81 * 9.81 / (8 * k_pair);
  std::printf("released: gives back %.6g J of the %.6g J it held (%.6g J stay at rest under m g)\n", given_back,
              stored, left);
  EXPECT_LE(given_back, stored);
  EXPECT_GE(given_back, 0.8 * (stored - left));
}

TEST(ContactStoredEnergyTest, ARigidSolvesOverlapHoldsNoSpringEnergy) {
  // CANAL treats contact as rigid: the overlap SAP's springs left under the
  // press is an error its penetration recovery pushes out, not a spring.
  // The work that recovery does depends on how it pushes (F x at the fifth
  // step was 0.038 J where the recovery did 0.071 J), so no state function
  // of the overlap holds it: rigid ends count nothing, and what the soak's
  // budget sees of a rigid recovery is its work.
  Simulation sim = PressedBox("sap");
  const double compliant = sim.CalcContactStoredEnergy();
  SceneParameters canal = sim.CalcSceneParameters();
  canal.solver.type = SolverType::kCanal;
  sim.SetSceneParameters(canal);
  Press(&sim);
  ASSERT_EQ(sim.Step().status, StepStatus::kSuccess);
  ASSERT_FALSE(sim.contacts().empty());
  std::printf("SAP's springs under the press hold %.6g J; after a CANAL step %.6g J with %.3g mm of overlap\n",
              compliant, sim.CalcContactStoredEnergy(), -1e3 * sim.contacts()[0].phi);
  // SAP's compliant cones at rest are springs of k too (F = v̂_n/(R_n δt)).
  const double load = 1.0 * 9.81 + kPress;
  EXPECT_NEAR(compliant, load * load / (8 * kStiffness / 2), 1e-2 * compliant);
  EXPECT_EQ(sim.CalcContactStoredEnergy(), 0.0);
  EXPECT_LT(sim.contacts()[0].phi, -1e-3);  // Still overlapping: the ends are rigid, not empty.
}

}  // namespace
}  // namespace stiction
