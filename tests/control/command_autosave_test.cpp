// CommandAutosave: the command recording on disk while it grows (issue
// "Reliability" item 4). After every write the file is a complete command
// file; a teleop take autosaved as it is recorded replays bit-identically;
// a full disk (/dev/full: the kernel's real ENOSPC) or an unwritable path
// is reported, never thrown. The kill -9 test with the viewer is
// tests/app/record/command_autosave_kill_test.cpp.
#include "engine/control/command_autosave.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/control/command_recorder.h"
#include "tests/scenarios/gripper_helpers.h"
#include "tests/support/scratch_dir.h"

namespace stiction {
namespace {

namespace fs = std::filesystem;

fs::path TempFile(const std::string& name) { return test::FreshTempPath("stiction-autosave-test", name); }

GripperCommand ForceCommand(std::int64_t step, double newtons) {
  GripperCommand c;
  c.step = step;
  c.grip_force = newtons;
  return c;
}

GripperCommand TargetCommand(std::int64_t step, double z) {
  GripperCommand c;
  c.step = step;
  c.target = GripperPose{0.01, -0.02, z, 0.1};
  return c;
}

TEST(CommandAutosaveTest, WritesNewEntriesEveryFlushPeriodAndTheFileAlwaysLoads) {
  const fs::path file = TempFile("flush.yaml");
  CommandRecorder recorder;
  recorder.Start("grasp_box.yaml", 0.01);
  recorder.Record(ForceCommand(0, 20));
  CommandAutosave autosave;
  ASSERT_TRUE(autosave.Open(file.string(), recorder.log(), /*now_s=*/100.0)) << autosave.error();
  // Open writes the header and what the log holds.
  CommandLog on_disk = LoadCommandFile(file.string());
  ASSERT_EQ(on_disk.entries.size(), 1u);
  EXPECT_EQ(on_disk.scene, "grasp_box.yaml");
  ASSERT_TRUE(on_disk.time_step.has_value());
  EXPECT_EQ(*on_disk.time_step, 0.01);

  recorder.Record(ForceCommand(5, 21));
  // Within the flush period: not written yet.
  ASSERT_TRUE(autosave.Update(recorder.log(), 100.0 + 0.4 * CommandAutosave::kFlushPeriod));
  EXPECT_EQ(LoadCommandFile(file.string()).entries.size(), 1u);
  // A period later: written.
  ASSERT_TRUE(autosave.Update(recorder.log(), 100.0 + 1.01 * CommandAutosave::kFlushPeriod));
  on_disk = LoadCommandFile(file.string());
  ASSERT_EQ(on_disk.entries.size(), 2u);
  EXPECT_EQ(on_disk.entries[1].step, 5);
  EXPECT_EQ(on_disk.entries[1].grip_force, 21.0);

  // Close writes the rest without waiting for the period.
  recorder.Record(ForceCommand(9, 22.5));
  ASSERT_TRUE(autosave.Close(recorder.log())) << autosave.error();
  EXPECT_FALSE(autosave.is_open());
  on_disk = LoadCommandFile(file.string());
  ASSERT_EQ(on_disk.entries.size(), 3u);
  EXPECT_EQ(on_disk.entries[2].step, 9);
  EXPECT_EQ(on_disk.entries[2].grip_force, 22.5);
  fs::remove(file);
}

TEST(CommandAutosaveTest, AnEntryChangedAfterItsWriteIsWrittenAgain) {
  // The recorder merges a later target-only command of the same step into
  // the last entry, possibly after the autosave wrote it.
  const fs::path file = TempFile("merge.yaml");
  CommandRecorder recorder;
  recorder.Start("grasp_box.yaml", 0.01);
  recorder.Record(TargetCommand(3, 0.25));
  CommandAutosave autosave;
  ASSERT_TRUE(autosave.Open(file.string(), recorder.log(), 0.0)) << autosave.error();
  recorder.Record(TargetCommand(3, 0.20));  // Merged into entry 0.
  ASSERT_EQ(recorder.log().entries.size(), 1u);
  ASSERT_TRUE(autosave.Close(recorder.log()));
  const CommandLog on_disk = LoadCommandFile(file.string());
  ASSERT_EQ(on_disk.entries.size(), 2u);  // The first version, then the merged one.
  EXPECT_EQ(on_disk.entries[0].target->z, 0.25);
  EXPECT_EQ(on_disk.entries[1].step, 3);
  EXPECT_EQ(on_disk.entries[1].target->z, 0.20);
  fs::remove(file);
}

TEST(CommandAutosaveTest, AnAutosavedTeleopTakeReplaysBitIdentically) {
  // As in replay_determinism_test, but the file is the autosave written
  // while recording (flushing every "wall" second of a fake clock), with
  // mouse-like target bursts that merge within a step.
  const fs::path file = TempFile("take.yaml");
  Simulation live = Simulation::FromFile(test::ScenePath("grasp_box.yaml"));
  GripperController gripper(live);
  CommandRecorder recorder;
  recorder.Start("grasp_box.yaml", live.time_step());
  const GripperCommand first = gripper.StateCommand(0);
  recorder.Record(first);
  gripper.Apply(first);
  CommandAutosave autosave;
  double now = 0;  // The fake wall clock [s].
  ASSERT_TRUE(autosave.Open(file.string(), recorder.log(), now)) << autosave.error();
  for (int i = 0; i < 300; ++i) {
    if (i % 5 == 2 && i < 150) {
      for (int burst = 0; burst < 3; ++burst) {  // Three mouse moves before one step: merged.
        GripperCommand c;
        c.step = live.step_index();
        c.target = GripperPose{0.001 * std::sin(0.1 * i + burst), 1e-4 * i, 0.25 - 0.001 * i - 0.0003 * burst,
                               0.01 * std::cos(i)};
        gripper.Apply(c);
        recorder.Record(c);
        // A flush period between the moves of a burst: each one is written,
        // then changed by the next.
        now += 1.01 * CommandAutosave::kFlushPeriod;
        ASSERT_TRUE(autosave.Update(recorder.log(), now)) << autosave.error();
      }
    }
    if (i == 160) {
      GripperCommand c;
      c.step = live.step_index();
      c.grip = GripState::kClosed;
      c.grip_force = 17.3;
      gripper.Apply(c);
      recorder.Record(c);
    }
    now += 0.01;
    ASSERT_TRUE(autosave.Update(recorder.log(), now)) << autosave.error();
    PrepareGripperStep(&live, &gripper, nullptr);
    ASSERT_EQ(live.Step().status, StepStatus::kSuccess);
  }
  recorder.Stop();
  ASSERT_TRUE(autosave.Close(recorder.log())) << autosave.error();

  const CommandLog on_disk = LoadCommandFile(file.string());
  // Each burst's first two moves were written, then re-written merged.
  EXPECT_EQ(on_disk.entries.size(), recorder.log().entries.size() + 2 * 30);
  Simulation replay = Simulation::FromFile(test::ScenePath("grasp_box.yaml"));
  GripperController replay_gripper(replay);
  CommandPlayer player(on_disk, replay.time_step());
  test::RunGripper(&replay, &replay_gripper, &player, 3.0);
  fs::remove(file);
  ASSERT_EQ(replay.step_index(), live.step_index());
  EXPECT_TRUE(test::SameState(live, replay));
}

TEST(CommandAutosaveTest, AFullDiskIsReportedAndNothingThrows) {
  // /dev/full: every write fails with ENOSPC, as on a full file system.
  ASSERT_TRUE(fs::exists("/dev/full")) << "this test needs /dev/full (the kernel's always-full device)";
  CommandRecorder recorder;
  recorder.Start("grasp_box.yaml", 0.01);
  recorder.Record(ForceCommand(0, 20));
  CommandAutosave autosave;
  EXPECT_FALSE(autosave.Open("/dev/full", recorder.log(), 0.0));
  EXPECT_FALSE(autosave.is_open());
  EXPECT_NE(autosave.error().find("/dev/full"), std::string::npos) << autosave.error();
  EXPECT_NE(autosave.error().find("No space left on device"), std::string::npos) << autosave.error();
  EXPECT_EQ(autosave.error().find('\n'), std::string::npos);
  // Closed: later calls say so and do nothing.
  EXPECT_FALSE(autosave.Update(recorder.log(), 10.0));
  EXPECT_FALSE(autosave.Close(recorder.log()));
  EXPECT_TRUE(fs::is_character_file("/dev/full"));  // Never removed or replaced.
}

TEST(CommandAutosaveTest, AnUnwritablePathIsReportedWithThePath) {
  CommandRecorder recorder;
  recorder.Start("grasp_box.yaml", 0.01);
  CommandAutosave autosave;
  const std::string path = "/nonexistent-stiction-dir/take.yaml";
  EXPECT_FALSE(autosave.Open(path, recorder.log(), 0.0));
  EXPECT_EQ(autosave.error().rfind(path + ": ", 0), 0u) << autosave.error();
  EXPECT_NE(autosave.error().find("No such file or directory"), std::string::npos) << autosave.error();
}

}  // namespace
}  // namespace stiction
