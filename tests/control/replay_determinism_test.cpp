// Deterministic record and replay (issue 5): the same scene + the same
// command file + the same settings give bit-identical trajectories, and a
// recording of teleop commands replays bit-identically through the file.
#include <gtest/gtest.h>

#include <filesystem>

#include "engine/control/command_log.h"
#include "engine/control/command_recorder.h"
#include "tests/scenarios/gripper_helpers.h"
#include "tests/support/scratch_dir.h"

namespace stiction {
namespace {

namespace fs = std::filesystem;

Simulation RunScript(const std::string& scene, double duration) {
  Simulation sim = Simulation::FromFile(test::ScenePath(scene));
  GripperController gripper(sim);
  CommandPlayer player(LoadCommandFile(sim.scene().commands_file), sim.time_step());
  test::RunGripper(&sim, &gripper, &player, duration);
  return sim;
}

TEST(ReplayDeterminismTest, SameCommandFileGivesBitIdenticalStates) {
  const Simulation a = RunScript("pick_and_place.yaml", 6.0);
  const Simulation b = RunScript("pick_and_place.yaml", 6.0);
  ASSERT_EQ(a.step_index(), 600);
  EXPECT_TRUE(test::SameState(a, b));
  // The script did something: the small box was carried over the large one.
  EXPECT_GT(a.CalcBodyStates()[a.model().FindBody("small_box") - 1].position.x(), 0.2);
}

TEST(ReplayDeterminismTest, RecordedTeleopReplaysBitIdentically) {
  // A "teleop" run: irregular targets at arbitrary steps (as mouse drags
  // produce), grip and force changes, recorded as they are applied.
  Simulation live = Simulation::FromFile(test::ScenePath("grasp_box.yaml"));
  GripperController gripper(live);
  CommandRecorder recorder;
  recorder.Start("grasp_box.yaml", live.time_step());
  GripperCommand first = gripper.StateCommand(0);
  recorder.Record(first);
  gripper.Apply(first);
  for (int i = 0; i < 400; ++i) {
    if (i % 7 == 3 && i < 150) {
      GripperCommand c;
      c.step = live.step_index();
      c.target = GripperPose{0.001 * std::sin(0.1 * i), 1e-4 * i / 3.0, 0.25 - 0.16 * i / 150.0, 0.01 * std::cos(i)};
      gripper.Apply(c);
      recorder.Record(c);
    }
    if (i == 160 || i == 300) {
      GripperCommand c;
      c.step = live.step_index();
      c.grip = GripState::kClosed;
      c.grip_force = i == 160 ? 17.3 : 1.0 / 3.0 + 30;
      gripper.Apply(c);
      recorder.Record(c);
    }
    if (i == 200) {
      GripperCommand c;
      c.step = live.step_index();
      c.target = GripperPose{0.02, -0.01, 0.3, 0.2};
      c.ramp_steps = 77;
      gripper.Apply(c);
      recorder.Record(c);
    }
    PrepareGripperStep(&live, &gripper, nullptr);
    ASSERT_EQ(live.Step().status, StepStatus::kSuccess);
  }
  recorder.Stop();
  // The box was lifted by the teleop run.
  ASSERT_GT(live.CalcBodyStates()[live.model().FindBody("box") - 1].position.z(), 0.1);

  const fs::path file = test::FreshTempPath("stiction-replay-determinism-test", "commands.yaml");
  SaveCommandFile(recorder.log(), file.string());
  Simulation replay = Simulation::FromFile(test::ScenePath("grasp_box.yaml"));
  GripperController replay_gripper(replay);
  CommandPlayer player(LoadCommandFile(file.string()), replay.time_step());
  test::RunGripper(&replay, &replay_gripper, &player, 4.0);
  fs::remove(file);
  ASSERT_EQ(replay.step_index(), live.step_index());
  EXPECT_TRUE(test::SameState(live, replay));
}

TEST(ReplayDeterminismTest, ResetAndReplayInTheSameSimulationIsBitIdentical) {
  // The viewer replays in the simulation it already ran (Reset, not reload).
  Simulation sim = Simulation::FromFile(test::ScenePath("stack_blocks.yaml"));
  GripperController gripper(sim);
  const CommandLog log = LoadCommandFile(sim.scene().commands_file);
  CommandPlayer player(log, sim.time_step());
  test::RunGripper(&sim, &gripper, &player, 3.0);
  const VectorX q = sim.positions(), v = sim.velocities();
  sim.Reset();
  GripperController again(sim);
  CommandPlayer player2(log, sim.time_step());
  test::RunGripper(&sim, &again, &player2, 3.0);
  EXPECT_TRUE((sim.positions().array() == q.array()).all());
  EXPECT_TRUE((sim.velocities().array() == v.array()).all());
}

}  // namespace
}  // namespace stiction
