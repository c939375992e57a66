// A body that arrives within one step meets what it arrives at in that
// step: the contact query includes every pair the fastest body can close
// (the speculative margin, docs/contact-model.md). Found by the soak
// (docs/soak.md, "Findings"): a box pushed to 17 m/s at δt = 15.5 ms
// passed 10 cm into the ground in one step because the margin stopped at
// 5 cm, and the Hunt & Crossley models then pushed it out at ≤ 1/d.
#include <algorithm>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "tests/scenarios/scenario_helpers.h"

namespace stiction {
namespace {

using test::ScenePath;

// falling_box.yaml's 10 cm box, its bottom `gap` [m] above the ground,
// falling at `speed` [m/s]. Implicit Euler advances the positions by the
// new velocity, so the only depth is what the contact problem leaves
// (no midpoint averaging of the arrival speed).
Simulation FastBox(double gap, double speed, double dt, const std::string& model) {
  Simulation sim = Simulation::FromFile(
      ScenePath("falling_box.yaml"),
      {"integrator=implicit_euler", "time_step=" + std::to_string(dt), "contact_model=" + model,
       "bodies.box.pose.position=[0, 0, " + std::to_string(0.05 + gap) + "]",
       "bodies.box.velocity={linear: [0, 0, " + std::to_string(-speed) + "]}"});
  return sim;
}

TEST(FastImpactTest, ABoxAtSeventeenMetersPerSecondStopsAtTheGroundInTheStepItArrives) {
  for (const std::string model : {"sap", "lagged"}) {
    SCOPED_TRACE(model);
    // 10 cm above the ground, 26 cm of travel in the step.
    Simulation sim = FastBox(0.10, 17.0, 0.0155, model);
    double deepest = 0;
    for (int i = 0; i < 20; ++i) {
      ASSERT_EQ(sim.Step().status, StepStatus::kSuccess);
      const double bottom = sim.CalcBodyStates()[0].position.z() - 0.05;
      deepest = std::max(deepest, -bottom);
    }
    // Before the margin's cap was raised: 16 cm deep after the first step.
    // Now the first step's problem holds the box's four corners (φ0 = 10 cm)
    // and stops it within the contact's compliance.
    std::printf("%s: deepest %.3f mm\n", model.c_str(), deepest * 1e3);
    EXPECT_LT(deepest, 2e-3) << "the box went " << deepest * 1e3 << " mm into the ground";
  }
}

}  // namespace
}  // namespace stiction
