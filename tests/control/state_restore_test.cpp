// Issue 38, item 1: a saved state restores so that the simulation steps on
// bit-identically, on every shipped scene (with its command file playing,
// the grippers' controllers and the script saved beside it, as the
// viewer's timeline keeps them), and under every solver, contact model and
// stepping scheme.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "engine/common/error.h"
#include "engine/control/scene_gripper.h"
#include "engine/control/state_history.h"
#include "engine/simulation.h"

namespace stiction {
namespace {

namespace fs = std::filesystem;

const fs::path kScenes = fs::path(STICTION_SOURCE_DIR) / "assets" / "scenes";

struct Case {
  std::string scene;
  std::vector<std::string> overrides;
  std::string name;
};

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (const fs::directory_entry& e : fs::directory_iterator(kScenes)) {
    if (e.is_regular_file() && e.path().extension() == ".yaml") {
      cases.push_back({e.path().filename().string(), {}, e.path().stem().string()});
    }
  }
  std::sort(cases.begin(), cases.end(), [](const Case& a, const Case& b) { return a.name < b.name; });
  // The other solvers and contact models, on scenes where they act.
  for (const char* solver : {"canal", "subadmm", "pgs"}) {
    cases.push_back({"clutter.yaml", {std::string("solver.type=") + solver}, std::string("clutter_") + solver});
    cases.push_back({"grasp_box.yaml", {std::string("solver.type=") + solver}, std::string("grasp_box_") + solver});
  }
  for (const char* model : {"lagged", "similar", "regularized_lagged"}) {
    cases.push_back({"clutter.yaml", {std::string("contact_model=") + model}, std::string("clutter_") + model});
  }
  return cases;
}

// Steps with the grippers driven as every runner drives them.
void StepFor(Simulation* sim, SceneGripper* grippers, int steps) {
  for (int i = 0; i < steps; ++i) {
    grippers->PrepareStep(sim);
    const StepResult r = sim->Step();
    ASSERT_EQ(r.status, StepStatus::kSuccess) << r.message;
  }
}

class StateRestoreTest : public ::testing::TestWithParam<Case> {};

TEST_P(StateRestoreTest, RestoreAndResumeIsBitIdenticalToTheUninterruptedRun) {
  const Case& c = GetParam();
  Simulation sim = Simulation::FromFile((kScenes / c.scene).string(), c.overrides);
  SceneGripper grippers = SceneGripper::ForScene(sim);
  // Into the scene's motion (contacts made, warm starts in use), then save.
  constexpr int kBefore = 60, kAfter = 60;
  StepFor(&sim, &grippers, kBefore);
  const SimulationState saved = sim.SaveState();
  const SceneGripper saved_grippers = grippers;
  std::printf("%s: one state at step %d takes %zu bytes (%zu contacts reported)\n", c.name.c_str(), kBefore,
              saved.Bytes() + saved_grippers.Bytes(), sim.contacts().size());
  StepFor(&sim, &grippers, kAfter);
  const VectorX q = sim.positions(), v = sim.velocities();
  const std::size_t contacts = sim.contacts().size();
  const double t = sim.time();

  sim.RestoreState(saved);
  grippers = saved_grippers;
  EXPECT_EQ(sim.step_index(), kBefore);
  StepFor(&sim, &grippers, kAfter);
  EXPECT_EQ(sim.time(), t);
  EXPECT_EQ(sim.contacts().size(), contacts);
  ASSERT_EQ(sim.positions().size(), q.size());
  EXPECT_TRUE((sim.positions().array() == q.array()).all()) << "max |dq| " << (sim.positions() - q).cwiseAbs().maxCoeff();
  EXPECT_TRUE((sim.velocities().array() == v.array()).all()) << "max |dv| " << (sim.velocities() - v).cwiseAbs().maxCoeff();
  EXPECT_GT(saved.Bytes(), static_cast<std::size_t>(sizeof(double) * (q.size() + v.size())));
}

std::string CaseName(const ::testing::TestParamInfo<Case>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(ShippedScenes, StateRestoreTest, ::testing::ValuesIn(Cases()), CaseName);

// Without the warm starts a restored state would step differently: the
// test above could fail.
TEST(StateRestoreTest, ForgettingTheWarmStartsChangesTheFuture) {
  Simulation sim = Simulation::FromFile((kScenes / "clutter.yaml").string());
  SceneGripper none;
  StepFor(&sim, &none, 60);
  const SimulationState saved = sim.SaveState();
  StepFor(&sim, &none, 30);
  const VectorX q = sim.positions();
  sim.SetState(saved.q, saved.v);  // q and v only: the histories are cleared.
  StepFor(&sim, &none, 30);
  EXPECT_FALSE((sim.positions().array() == q.array()).all());
}

TEST(StateRestoreTest, AStateOfAnotherModelIsRefused) {
  Simulation a = Simulation::FromFile((kScenes / "clutter.yaml").string());
  Simulation b = Simulation::FromFile((kScenes / "pendulum.yaml").string());
  try {
    b.RestoreState(a.SaveState());
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("restore: the state is of another model"), std::string::npos) << e.what();
  }
}

// The history: one state per step, bounded by its cap; a restore and steps
// from there replace what followed (a branch), and with nothing changed the
// branch is the old future again.
TEST(StateHistoryTest, TheCapHoldsAndABranchReplacesTheFuture) {
  Simulation sim = Simulation::FromFile((kScenes / "grasp_box.yaml").string());
  SceneGripper grippers = SceneGripper::ForScene(sim);
  StateHistory history;
  history.Push(sim, grippers);  // t = 0.
  for (int i = 0; i < 100; ++i) {
    StepFor(&sim, &grippers, 1);
    history.Push(sim, grippers);
  }
  ASSERT_EQ(history.size(), 101);
  EXPECT_EQ(history.cursor(), 100);
  EXPECT_EQ(history.step_at(0), 0);
  EXPECT_EQ(history.step_at(100), 100);
  const std::size_t per_state = history.bytes() / 101;
  std::printf("grasp_box: %zu bytes per state on average, largest %zu\n", per_state, history.largest_state_bytes());
  const VectorX q100 = sim.positions();

  // Back to step 40 and on again with nothing changed: the same step 100.
  history.Restore(40, &sim, &grippers);
  EXPECT_EQ(sim.step_index(), 40);
  EXPECT_EQ(history.cursor(), 40);
  for (int i = 0; i < 60; ++i) {
    StepFor(&sim, &grippers, 1);
    history.Push(sim, grippers);
  }
  EXPECT_EQ(history.size(), 101);  // The old 41..100 replaced by the branch's.
  EXPECT_TRUE((sim.positions().array() == q100.array()).all());

  // A cap of 30 states' worth keeps the newest, never more than the cap.
  history.SetCap(30 * history.largest_state_bytes());
  EXPECT_LE(history.bytes(), history.cap_bytes());
  EXPECT_GE(history.size(), 30);
  EXPECT_EQ(history.step_at(history.size() - 1), 100);
  for (int i = 0; i < 50; ++i) {
    StepFor(&sim, &grippers, 1);
    history.Push(sim, grippers);
    ASSERT_LE(history.bytes(), history.cap_bytes());
  }
  EXPECT_EQ(history.step_at(history.size() - 1), 150);

  // A smaller cap after a restore keeps the restored state and what
  // follows it, and the cursor on it.
  history.Restore(history.size() - 5, &sim, &grippers);
  const std::int64_t at = sim.step_index();
  history.SetCap(3 * history.largest_state_bytes());
  EXPECT_EQ(history.step_at(history.cursor()), at);
  EXPECT_EQ(history.cursor(), 0);
  history.Restore(history.cursor(), &sim, &grippers);
  EXPECT_EQ(sim.step_index(), at);
  StepFor(&sim, &grippers, 1);
  history.Push(sim, grippers);  // A branch from there, within the cap again.
  EXPECT_LE(history.bytes(), history.cap_bytes());
  EXPECT_EQ(history.step_at(history.cursor()), at + 1);

  // A cap smaller than one state is refused and changes nothing.
  const std::size_t cap = history.cap_bytes();
  try {
    history.SetCap(history.largest_state_bytes() / 2);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("is smaller than one state of this scene"), std::string::npos) << e.what();
  }
  EXPECT_EQ(history.cap_bytes(), cap);
  EXPECT_THROW(history.Restore(history.size(), &sim, &grippers), InputError);
}

// A parameter changed after a rewind changes the future (the branch differs).
TEST(StateHistoryTest, AnEditAfterARewindChangesTheFuture) {
  Simulation sim = Simulation::FromFile((kScenes / "grasp_box.yaml").string());
  SceneGripper grippers = SceneGripper::ForScene(sim);
  StateHistory history;
  history.Push(sim, grippers);
  for (int i = 0; i < 300; ++i) {
    StepFor(&sim, &grippers, 1);
    history.Push(sim, grippers);
  }
  const VectorX q_old = sim.positions();
  history.Restore(250, &sim, &grippers);
  ContactModelParameters p = sim.contact_model_parameters();
  p.stiction_tolerance *= 100;  // Looser stiction: the held box creeps faster.
  sim.SetContactModelParameters(p);
  for (int i = 0; i < 50; ++i) {
    StepFor(&sim, &grippers, 1);
    history.Push(sim, grippers);
  }
  EXPECT_FALSE((sim.positions().array() == q_old.array()).all());
}

}  // namespace
}  // namespace stiction
