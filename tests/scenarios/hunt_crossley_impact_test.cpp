// Hunt & Crossley models under impacts, [ICF] Sec. IX-B and IX-C:
// the falling sphere (slide-to-roll transition against its analytic time)
// and the sliding rod (Painlevé: the rod jams into the ground and jumps).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/simulation.h"
#include "tests/scenarios/scenario_helpers.h"

namespace stiction {
namespace {

using test::ScenePath;

// Time at which the sphere of assets/scenes/falling_sphere.yaml starts to
// roll: the first step after landing at which the slip of its lowest point,
// v_x − ω_y r... (world x velocity of the contact point), drops below 1 mm/s
// (10 v_s; the slip decreases at 3.5 μ g = 17 m/s² while sliding, so the
// threshold shifts the time by 6e-5 s).
double RollingTime(const std::string& model) {
  Simulation sim = Simulation::FromFile(ScenePath("falling_sphere.yaml"), {"contact_model=" + model});
  const double r = 0.025;
  bool landed = false;
  const int steps = static_cast<int>(std::lround(0.3 / sim.time_step()));
  for (int n = 0; n < steps; ++n) {
    const StepResult result = sim.Step();
    EXPECT_EQ(result.status, StepStatus::kSuccess) << result.message;
    if (result.status != StepStatus::kSuccess) return -1;
    landed = landed || result.stats.num_contacts > 0;
    const BodyState s = sim.CalcBodyStates()[0];
    // Velocity of the lowest point: v + ω × (0, 0, −r).
    const Vector3 v_contact = s.linear_velocity + s.angular_velocity.cross(Vector3(0, 0, -r));
    if (landed && s.position.z() < 0.03 && std::abs(v_contact.x()) < 1e-3) return sim.time();
  }
  return -1;
}

TEST(HuntCrossleyImpactTest, FallingSphereStartsRollingAtTheAnalyticTime) {
  // While it slides the friction impulse is μ times the normal impulse;
  // resting on the ground, the normal impulse since release is m g t, so
  // U0 − μ g t = (5/2) μ g t (I = 2/5 m r²) at the transition:
  // t = U0 / (3.5 μ g), independent of the drop and the contact stiffness.
  const double expected = 2.0 / (3.5 * 0.5 * 9.81);
  const double lagged = RollingTime("lagged");
  const double similar = RollingTime("similar");
  const double sap = RollingTime("sap");
  std::printf("rolling starts at: analytic %.4f s, lagged %.4f s, similar %.4f s, sap %.4f s (dt = 2e-3 s)\n",
              expected, lagged, similar, sap);
  // Issue 7: within 5% for Lagged (3 steps of 2 ms). Its friction bound is
  // the normal impulse of the previous step, so it lags the landing's
  // impulse by one step, which the elastic rebound of the next step repays.
  EXPECT_NEAR(lagged, expected, 0.05 * expected);
  // Similar and SAP couple friction to the current normal impulse; they
  // must land in the same window (they differ by their gliding, Sec. IX-B).
  EXPECT_NEAR(similar, expected, 0.05 * expected);
  EXPECT_NEAR(sap, expected, 0.05 * expected);
}

struct RodRun {
  double peak_force = 0;      // Largest normal contact force [N].
  double peak_time = 0;       // When [s].
  double airborne_time = -1;  // First time after the peak with no contact force [s].
  double max_height_after = 0;  // Lowest point's highest height after the peak [m].
};

RodRun RunRod(const std::string& model, double dt, double duration) {
  Simulation sim = Simulation::FromFile(ScenePath("sliding_rod.yaml"),
                                        {"contact_model=" + model, "time_step=" + test::Num(dt)});
  RodRun run;
  const int steps = static_cast<int>(std::lround(duration / dt));
  for (int n = 0; n < steps; ++n) {
    const StepResult result = sim.Step();
    EXPECT_EQ(result.status, StepStatus::kSuccess) << result.message;
    if (result.status != StepStatus::kSuccess) break;
    double fn = 0;
    for (const ContactReport& c : sim.contacts()) fn += c.gamma_C.z() / dt;
    if (fn > run.peak_force) {
      run.peak_force = fn;
      run.peak_time = sim.time();
      run.airborne_time = -1;
      run.max_height_after = 0;
    } else if (run.peak_force > 0 && fn == 0 && run.airborne_time < 0) {
      run.airborne_time = sim.time();
    }
    if (run.peak_force > 0 && run.airborne_time > 0) {
      // Height of the capsule's lowest point: centre height minus the
      // vertical half-extent of the axis segment and the radius.
      const BodyState s = sim.CalcBodyStates()[0];
      const Vector3 axis = s.orientation * Vector3::UnitZ();
      const double lowest = s.position.z() - 0.245 * std::abs(axis.z()) - 0.005;
      run.max_height_after = std::max(run.max_height_after, lowest);
    }
  }
  return run;
}

TEST(HuntCrossleyImpactTest, SlidingRodJamsAndJumps) {
  // Painlevé (Sec. IX-C, Figs. 8–9): μ = 2.3 > 4/3; friction rotates the
  // rod into the ground, the force grows until the rod jams and jumps.
  // δt = 1e-6 s: SAP's and Similar's gliding offset μδt‖v_t‖ must stay well
  // below the contact's scale (at 1e-5 s it is 0.23 mm, 800× the rod's
  // static penetration m g/k, and launches the rod at the first step); the
  // paper's reference uses 1e-7 s. The rod weighs m g = 2.94 N: a jam is a
  // force two orders above it, reached while sliding (after 10 ms here, not
  // at the first step), followed by a flight that lifts the lowest point
  // more than a centimetre. Without dissipation the three models share the
  // compliant law and differ only in friction regularization, so they jam
  // at nearly the same time (Fig. 8). The paper calls the impact's location
  // very sensitive to the model; Lagged's friction bound trails the growing
  // normal force by a step, which moves its jam ~1 ms (6%) earlier than
  // Similar's and SAP's at this δt: the times must agree within 10%.
  const double weight = 0.3 * 9.81;
  std::vector<double> jam_times;
  for (const std::string model : {"lagged", "similar", "sap"}) {
    const RodRun run = RunRod(model, 1e-6, 0.03);
    std::printf("%s: peak normal force %.1f N at t = %.4f s, airborne at %.4f s, lowest point rises to %.1f mm\n",
                model.c_str(), run.peak_force, run.peak_time, run.airborne_time, 1e3 * run.max_height_after);
    EXPECT_GT(run.peak_force, 100 * weight) << model;
    EXPECT_GT(run.peak_time, 0.01) << model;
    EXPECT_GT(run.airborne_time, run.peak_time) << model;
    EXPECT_GT(run.max_height_after, 0.01) << model;
    jam_times.push_back(run.peak_time);
  }
  for (double t : jam_times) EXPECT_NEAR(t, jam_times[0], 0.10 * jam_times[0]);
}

}  // namespace
}  // namespace stiction
