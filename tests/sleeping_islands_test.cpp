// Sleeping islands (solver.sleep; engine/stepping/sleep_tracker.h): what
// falls asleep, that a sleeper is frozen bit for bit and costs no contact
// problem, every way it wakes, and that a run with sleeping reaches what a
// run without it reaches (the same engine, sleeping off, is the reference).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/control/scene_gripper.h"
#include "engine/scene/scene_loader.h"
#include "engine/simulation.h"

namespace stiction {
namespace {

// Three 1 kg boxes stacked on the ground, and a fourth thrown along the
// ground at the bottom one: friction (μ = 0.5) brings it from 3.2 m/s to
// about 1.2 m/s when it reaches the stack at t ≈ 0.4 s.
constexpr const char* kStackAndSlider = R"(
gravity: [0, 0, -9.81]
time_step: 0.005
materials:
  - {name: wood, friction: 0.5}
default_material: wood
world_geometry:
  - {name: ground, shape: {type: half_space}}
bodies:
  - {name: b0, mass: 1, geometry: [{shape: {type: box, size: [0.1, 0.1, 0.1]}}], pose: {position: [0, 0, 0.05]}}
  - {name: b1, mass: 1, geometry: [{shape: {type: box, size: [0.1, 0.1, 0.1]}}], pose: {position: [0, 0, 0.15]}}
  - {name: b2, mass: 1, geometry: [{shape: {type: box, size: [0.1, 0.1, 0.1]}}], pose: {position: [0, 0, 0.25]}}
  - name: slider
    mass: 1
    geometry: [{shape: {type: box, size: [0.1, 0.1, 0.1]}}]
    pose: {position: [-1.0, 0, 0.05]}
    velocity: {linear: [3.2, 0, 0]}
)";

Simulation Load(bool sleep, std::vector<std::string> overrides = {}) {
  overrides.push_back(std::string("solver.sleep=") + (sleep ? "true" : "false"));
  overrides.push_back("solver.sleep_time=0.2");
  return Simulation(LoadSceneString(kStackAndSlider, "stack.yaml", ".", overrides));
}

StepStats StepN(Simulation* sim, int n) {
  StepResult r;
  for (int i = 0; i < n; ++i) {
    r = sim->Step();
    EXPECT_EQ(r.status, StepStatus::kSuccess) << r.message;
  }
  return r.stats;
}

Vector3 Position(const Simulation& sim, const std::string& body) {
  for (const BodyState& b : sim.CalcBodyStates()) {
    if (b.name == body) return b.position;
  }
  ADD_FAILURE() << "no body " << body;
  return Vector3::Zero();
}

TEST(SleepingIslandsTest, TheRestingStackSleepsFrozenAndTheSlidersHitWakesIt) {
  Simulation sim = Load(true);
  // The stack is at rest from the start: asleep once it has rested 0.2 s,
  // while the slider is still on its way.
  StepStats s = StepN(&sim, 45);  // t = 0.225 s.
  EXPECT_EQ(s.sleeping_bodies, 3);
  // Frozen bit for bit, and out of the contact problem: only the slider's
  // contacts with the ground are in it. The stack's contacts are still
  // reported as they were when it fell asleep: the ground carries its
  // weight.
  const VectorX q = sim.positions();
  s = StepN(&sim, 10);
  EXPECT_EQ(s.sleeping_bodies, 3);
  for (int i = 0; i < 7 * 3; ++i) EXPECT_EQ(sim.positions()[i], q[i]) << i;
  const int slider = sim.model().FindBody("slider");
  int in_problem = 0;
  double ground_load = 0;  // [N]
  for (const ContactReport& c : sim.contacts()) {
    if (c.body_a == slider || c.body_b == slider) {
      ++in_problem;
    } else if (c.body_a == 0 || c.body_b == 0) {
      ground_load += c.gamma_C.z() / sim.time_step();
    }
  }
  EXPECT_EQ(in_problem, s.num_contacts);
  EXPECT_NEAR(ground_load, 3 * 9.81, 1e-3 * 3 * 9.81);
  // The slider comes within the speculative margin of b0: the whole island
  // wakes in that step and takes the hit.
  int woke_at = -1;
  for (int k = 55; k < 200 && woke_at < 0; ++k) {
    if (sim.Step().stats.sleeping_bodies == 0) woke_at = k;
  }
  ASSERT_GT(woke_at, 55);
  EXPECT_LT(woke_at * 0.005, 0.45);
  StepN(&sim, 400 - woke_at - 1);
  // The same run without sleeping: the stack was at rest either way, so the
  // impact ends the same. A sleeper differs from the awake body it replaced
  // by at most the resting speeds over its time asleep (< 1 mm/s for
  // < 0.25 s, 0.25 mm); what the boxes reach after the hit agrees to that.
  Simulation awake = Load(false);
  StepN(&awake, 400);
  for (const char* body : {"b0", "b1", "b2", "slider"}) {
    EXPECT_LT((Position(sim, body) - Position(awake, body)).norm(), 2.5e-4) << body;
  }
  EXPECT_GT(Position(awake, "b0").x(), 5e-3) << "the hit moved the bottom box (7 mm)";
}

TEST(SleepingIslandsTest, AForceAnEditAResetAndSwitchingItOffEachWakeTheIsland) {
  const int b2 = Load(true).model().FindBody("b2");
  auto asleep = [](Simulation* sim) { return sim->Step().stats.sleeping_bodies; };
  {  // A perturbation on the top box: the island wakes and the box moves.
    Simulation sim = Load(true);
    StepN(&sim, 45);
    ASSERT_EQ(asleep(&sim), 3);
    const Vector3 before = Position(sim, "b2");
    sim.SetExternalWrenches({{b2, Position(sim, "b2"), Vector3(0, 20, 0), Vector3::Zero()}});
    EXPECT_EQ(asleep(&sim), 0);
    StepN(&sim, 10);
    EXPECT_GT((Position(sim, "b2") - before).norm(), 1e-3);
  }
  {  // An edit of a material.
    Simulation sim = Load(true);
    StepN(&sim, 45);
    ContactMaterial wood = sim.GetMaterial("wood");
    wood.friction = 0.6;
    sim.SetMaterial("wood", wood);
    EXPECT_EQ(asleep(&sim), 0);
  }
  {  // A reset, and switching sleeping off.
    Simulation sim = Load(true);
    StepN(&sim, 45);
    sim.Reset();
    EXPECT_EQ(asleep(&sim), 0);
    StepN(&sim, 45);
    ASSERT_EQ(asleep(&sim), 3);
    SceneParameters p = sim.CalcSceneParameters();
    p.solver.sleep.enabled = false;
    sim.SetSceneParameters(p);
    EXPECT_EQ(asleep(&sim), 0);
    StepN(&sim, 100);
    EXPECT_EQ(asleep(&sim), 0);
  }
}

TEST(SleepingIslandsTest, ARestoredStateSleepsAndWakesAsBefore) {
  Simulation sim = Load(true);
  StepN(&sim, 30);  // Resting, not yet asleep.
  const SimulationState saved = sim.SaveState();
  std::vector<int> counts;
  for (int k = 0; k < 150; ++k) counts.push_back(sim.Step().stats.sleeping_bodies);
  const VectorX q = sim.positions(), v = sim.velocities();
  sim.RestoreState(saved);
  for (int k = 0; k < 150; ++k) EXPECT_EQ(sim.Step().stats.sleeping_bodies, counts[k]) << k;
  EXPECT_EQ(sim.positions(), q);
  EXPECT_EQ(sim.velocities(), v);
  // The stack slept, the slider woke it, and all four slept after the hit.
  const auto slept = std::find(counts.begin(), counts.end(), 3);
  const auto woke = std::find(slept, counts.end(), 0);
  EXPECT_NE(slept, counts.end());
  EXPECT_NE(woke, counts.end());
  EXPECT_EQ(counts.back(), 4);
}

TEST(SleepingIslandsTest, AnActuatedArmNeverSleepsButWhatItLeftOnTheTableDoes) {
  // The welcome scene: an arm under Cartesian impedance beside a table with
  // three objects on it, nothing moving.
  Simulation sim = Simulation::FromFile(STICTION_SOURCE_DIR "/assets/scenes/welcome.yaml",
                                        {"solver.sleep=true"});
  const StepStats s = StepN(&sim, 150);  // 1.5 s.
  int free_bodies = 0;
  for (const char* name : {"cube", "can", "block"}) free_bodies += sim.model().FindBody(name) > 0;
  ASSERT_EQ(free_bodies, 3);
  EXPECT_EQ(s.sleeping_bodies, 3);
}

TEST(SleepingIslandsTest, ACollapsedRagdollWithTendonsSleepsWhole) {
  // MuJoCo's humanoid: joint limits, springs and two fixed tendons (passive,
  // within its one tree), motors at zero control. It collapses, comes to
  // rest and sleeps; its end pose is the awake run's to within the resting
  // speeds over the time asleep.
  std::vector<BodyState> ends[2];
  int asleep_at_end = 0;
  for (const bool sleep : {false, true}) {
    Simulation sim = Simulation::FromFile(STICTION_SOURCE_DIR "/assets/scenes/bench_humanoid.yaml",
                                          {std::string("solver.sleep=") + (sleep ? "true" : "false")});
    const StepStats s = StepN(&sim, 600);  // 6 s.
    if (sleep) asleep_at_end = s.sleeping_bodies;
    ends[sleep] = sim.CalcBodyStates();
  }
  EXPECT_EQ(asleep_at_end, static_cast<int>(ends[1].size()));
  for (std::size_t i = 0; i < ends[0].size(); ++i) {
    EXPECT_LT((ends[1][i].position - ends[0][i].position).norm(), 2e-3) << ends[0][i].name;
  }
}

TEST(SleepingIslandsTest, TheTwoArmTaskEndsAsItDoesAwake) {
  // The cubes and the pedestal sleep until a gripper comes within the
  // speculative margin; the script's force and touch waits then pass as
  // they do without sleeping, and the stack ends where it does awake.
  std::vector<Vector3> ends[2];
  int most_asleep = 0;
  for (const bool sleep : {false, true}) {
    Simulation sim = Simulation::FromFile(STICTION_SOURCE_DIR "/assets/scenes/two_arm_stack.yaml",
                                          {std::string("solver.sleep=") + (sleep ? "true" : "false")});
    SceneGripper gripper = SceneGripper::ForScene(sim);
    while (sim.time() < sim.scene().duration - 1e-9) {
      gripper.PrepareStep(&sim);
      const StepResult r = sim.Step();
      ASSERT_EQ(r.status, StepStatus::kSuccess) << r.message;
      if (sleep) most_asleep = std::max(most_asleep, r.stats.sleeping_bodies);
    }
    for (const char* body : {"red_cube", "blue_cube", "pedestal"}) ends[sleep].push_back(Position(sim, body));
  }
  EXPECT_EQ(most_asleep, 3);
  for (int i = 0; i < 3; ++i) EXPECT_LT((ends[1][i] - ends[0][i]).norm(), 1e-4) << i;
  EXPECT_GT(ends[1][1].z(), 0.17);  // The blue cube is on the red one, on the pedestal.
}

}  // namespace
}  // namespace stiction
