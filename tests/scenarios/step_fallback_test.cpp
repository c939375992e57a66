// A step the θ-method cannot take at δt is taken again in halves
// (solver.max_step_halvings) instead of failing the same step again. The
// case is the robustness issue's finding: a light finger of the hand
// (0.05 kg, 1e-5 kg·m² phalanges) spinning past 100 rad/s, where stage 1's
// Newton finds no solution of Eq. (14) near its guess at ω δt ~ 3 rad.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/scenarios/scenario_helpers.h"

namespace stiction {
namespace {

using test::ScenePath;

// hand_posture.yaml (palm fixed, fingers under joint PD) with `joint`
// spinning at `speed` [rad/s], as after a kick.
Simulation KickedHand(const std::string& integrator, const std::string& joint, double speed, int halvings) {
  Simulation sim = Simulation::FromFile(
      ScenePath("hand_posture.yaml"),
      {"integrator=" + integrator, "solver.max_step_halvings=" + std::to_string(halvings)});
  const int j = sim.model().FindJoint(joint);
  EXPECT_GE(j, 0) << joint;
  VectorX v = sim.velocities();
  v[sim.model().joint(j).v_start] = speed;
  sim.SetState(sim.positions(), v);
  return sim;
}

struct Case {
  const char* integrator;
  double speed;  // rad/s: the first speed (of 100, 200, 300) at which the step failed.
};

TEST(StepFallbackTest, AFastLightFingerIsTakenInHalvesInsteadOfFailing) {
  for (const Case c : {Case{"midpoint", 300}, Case{"implicit_euler", 200}}) {
    SCOPED_TRACE(c.integrator);
    // Without the fallback the step fails in stage 1, and would fail again
    // at every retry from the same state.
    Simulation refused = KickedHand(c.integrator, "hand/index_joint_0", c.speed, 0);
    const StepResult first = refused.Step();
    EXPECT_EQ(first.status, StepStatus::kSolverFailed);
    EXPECT_NE(first.message.find("stage 1"), std::string::npos) << first.message;

    Simulation sim = KickedHand(c.integrator, "hand/index_joint_0", c.speed, 3);
    const double ke0 = sim.CalcKineticEnergy(), pe0 = sim.CalcPotentialEnergy();
    const StepResult halved = sim.Step();
    ASSERT_EQ(halved.status, StepStatus::kSuccess) << halved.message;
    EXPECT_GE(halved.stats.subdivisions, 1);
    EXPECT_LE(halved.stats.smallest_dt_s, 0.005);
    EXPECT_NEAR(sim.time(), 0.01, 1e-15);  // The whole step, in halves.
    // Then the run goes on. Energy: the PD rows and the joints' damping
    // only dissipate, and gravity's work is metered by the potential, so
    // KE + PE (gravity) may exceed its start by no more than the PD springs
    // can hold (½ kp Δq² with Δq within the joint range, at most 0.7 N m
    // each: ≤ 0.7 N m · 1.8 rad per joint, 16 joints).
    const double pd_store = 16 * 0.7 * 1.8;
    double max_energy = 0, max_speed = 0;
    int halved_steps = 0;
    while (sim.time() < 1.0 - 1e-9) {
      const StepResult r = sim.Step();
      ASSERT_EQ(r.status, StepStatus::kSuccess) << "t = " << sim.time() << ": " << r.message;
      halved_steps += r.stats.subdivisions > 0;
      max_energy = std::max(max_energy, sim.CalcKineticEnergy() + sim.CalcPotentialEnergy() - pe0);
      max_speed = std::max(max_speed, sim.velocities().cwiseAbs().maxCoeff());
    }
    std::printf("%s, index_joint_0 at %.0f rad/s: first step in %d substeps (smallest %.4g s); then %d of 99 "
                "steps halved; KE0 %.4g J, max KE + dPE %.4g J, max joint speed %.4g rad/s\n",
                c.integrator, c.speed, halved.stats.subdivisions + 1, halved.stats.smallest_dt_s, halved_steps, ke0,
                max_energy, max_speed);
    EXPECT_LE(max_energy, ke0 + pd_store);
    EXPECT_LE(max_speed, c.speed);
  }
}

TEST(StepFallbackTest, AStepThatFailsInEveryHalfSaysSo) {
  // A step that fails down to δt/2^n fails with both reasons, and the
  // state stays where it was.
  Simulation sim = KickedHand("implicit_euler", "hand/index_joint_0", 1e4, 1);
  const VectorX q0 = sim.positions();
  const StepResult r = sim.Step();
  ASSERT_NE(r.status, StepStatus::kSuccess);
  EXPECT_NE(r.message.find("in halves down to dt/2"), std::string::npos) << r.message;
  EXPECT_EQ(sim.positions(), q0);
  EXPECT_EQ(sim.time(), 0.0);
}

// `scene` under SubADMM for `duration`: the largest rise of KE + PE above
// its start [J] (nothing in these scenes does work), and how many steps
// were halved, handed to SAP, or ended at SubADMM's cap.
struct EnergyWatch {
  double e0 = 0, rise = 0;
  int halved = 0, by_sap = 0, capped = 0;
};
EnergyWatch RunSubAdmmWatchingEnergy(const std::string& scene, double duration) {
  Simulation sim = Simulation::FromFile(ScenePath(scene), {"solver.type=subadmm"});
  EnergyWatch w;
  w.e0 = sim.CalcKineticEnergy() + sim.CalcPotentialEnergy();
  while (sim.time() < duration - 1e-9) {
    const StepResult r = sim.Step();
    EXPECT_EQ(r.status, StepStatus::kSuccess) << "t = " << sim.time() << ": " << r.message;
    if (r.status != StepStatus::kSuccess) break;
    w.halved += r.stats.subdivisions > 0;
    w.by_sap += r.stats.solver_fallback;
    w.capped += !r.stats.solver_converged;
    w.rise = std::max(w.rise, sim.CalcKineticEnergy() + sim.CalcPotentialEnergy() - w.e0);
  }
  std::printf("%s, SubADMM, %g s: E0 %.4g J, largest rise of KE + PE %.4g J; %d steps halved, %d by SAP, %d capped\n",
              scene.c_str(), duration, w.e0, w.rise, w.halved, w.by_sap, w.capped);
  return w;
}

TEST(StepFallbackTest, AnIterateShortOfConvergenceThatCreatesEnergyIsRefused) {
  // dish_pile.yaml under SubADMM (at its iteration cap in most steps while
  // the plates land): KE + PE may not rise above its start. A capped
  // iterate whose impulses create energy fails the step, which SAP takes
  // (in halves where it must). What rise remains is the exact solvers'
  // penetration recovery (e_n = r φ0/δt). Until 2026-11-29 this test ran
  // soft_ball_pile.yaml, where SubADMM's capped iterate of the first
  // impacts gave the pile 24.5 J on its 10.6 J; its pressure-field polygons
  // are now compliant in SubADMM's problem (CompliantContactTest), and its
  // capped iterates create none (the next test).
  const EnergyWatch w = RunSubAdmmWatchingEnergy("dish_pile.yaml", 0.5);
  EXPECT_LT(w.rise, 0.1 * w.e0);
  EXPECT_GT(w.halved + w.by_sap, 0);  // The refusal acted.
}

TEST(StepFallbackTest, CompliantPolygonsLeaveSubAdmmNoEnergyToCreateInTheSoftPile) {
  // soft_ball_pile.yaml under SubADMM, still at its iteration cap in most
  // steps: with each pressure-field polygon's compliance in its problem
  // its capped iterates are soft-contact answers, and KE + PE never rises
  // above its start (before, by up to 24.5 J without the refusal above).
  const EnergyWatch w = RunSubAdmmWatchingEnergy("soft_ball_pile.yaml", 0.3);
  EXPECT_GT(w.capped, 0);  // Capped iterates were used...
  EXPECT_LT(w.rise, 1e-6 * w.e0);  // ...and created nothing,
  EXPECT_EQ(w.by_sap, 0);          // so none was refused.
}

// The work the stepper meters for a step taken in halves is the work of its
// halves (StepStats::work_actuators_J, used by stiction-soak's energy
// budget): the same as two steps of δt/2 from the same state. The effort the
// step reports is the last half's, so effort × δt × the whole step's mean
// velocity (the soak's meter before 2026-11-28) is not.
TEST(StepFallbackTest, AHalvedStepMetersTheWorkOfItsHalves) {
  Simulation halved = KickedHand("midpoint", "hand/index_joint_0", 300, 3);
  const VectorX v0 = halved.velocities();
  const StepResult r = halved.Step();
  ASSERT_EQ(r.status, StepStatus::kSuccess) << r.message;
  ASSERT_EQ(r.stats.subdivisions, 1);  // Two halves of 5 ms.
  ASSERT_TRUE(r.stats.work_metered);

  Simulation halves = KickedHand("midpoint", "hand/index_joint_0", 300, 0);
  halves.SetTimeStep(0.005);
  double work = 0;
  for (int i = 0; i < 2; ++i) {
    const StepResult h = halves.Step();
    ASSERT_EQ(h.status, StepStatus::kSuccess) << h.message;
    work += h.stats.work_actuators_J;
  }
  EXPECT_EQ((halved.positions() - halves.positions()).norm(), 0.0);  // The same substeps.
  EXPECT_NEAR(r.stats.work_actuators_J, work, 1e-12 * std::abs(work));

  double from_effort = 0;  // The last half's effort over the whole step.
  const std::vector<double>& efforts = halved.actuator_efforts();
  const std::vector<std::string> names = halved.actuator_names();
  for (std::size_t i = 0; i < efforts.size(); ++i) {
    const int dof = halved.model().joint(halved.actuator(names[i]).joint).v_start;
    from_effort += 0.01 * efforts[i] * 0.5 * (v0[dof] + halved.velocities()[dof]);
  }
  std::printf("actuator work of the halved step %.6f J, of its two halves %.6f J, last effort x whole step %.6f J\n",
              r.stats.work_actuators_J, work, from_effort);
  EXPECT_GT(std::abs(from_effort - work), 0.1 * std::abs(work));
}

}  // namespace
}  // namespace stiction
