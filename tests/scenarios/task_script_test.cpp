// Task scripts for several robots (issue 37, item 2; docs/teleop.md, "Task
// scripts"): assets/scenes/two_arm_stack.yaml drives two arms with parallel
// grippers from one command file that waits on contact forces, touches and
// separations. The waits are checked against the contacts measured here, not
// against the player's own bookkeeping: a wait must resume on the step after
// the one whose contacts first meet its condition.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "engine/common/error.h"
#include "engine/control/command_log.h"
#include "engine/control/command_player.h"
#include "engine/control/command_recorder.h"
#include "engine/control/scene_gripper.h"
#include "engine/simulation.h"
#include "tests/scenarios/scenario_helpers.h"

namespace stiction {
namespace {

// What the contacts of the last step say between two sets of bodies: the
// total normal force [N] and whether some contact pressed.
struct Between {
  double force = 0;
  bool pressing = false;
};

Between Measure(const Simulation& sim, const std::vector<int>& a, const std::vector<int>& b) {
  auto in = [](const std::vector<int>& set, int body) {
    for (int x : set) {
      if (x == body) return true;
    }
    return false;
  };
  Between out;
  for (const ContactReport& c : sim.contacts()) {
    const bool ab = in(a, c.body_a) && in(b, c.body_b);
    const bool ba = in(a, c.body_b) && in(b, c.body_a);
    if (!ab && !ba) continue;
    if (c.gamma_C.z() > 0) {
      out.pressing = true;
      out.force += c.gamma_C.z() / sim.time_step();
    }
  }
  return out;
}

struct StackRun {
  std::vector<ScriptEvent> events;
  std::vector<GripperCommand> applied;  // Every command the script applied, in order.
  // The first step index after which the measured condition held (−1: never).
  std::int64_t left_grip_over_20N = -1;
  std::int64_t red_touches_pedestal = -1;
  bool finished = false;
  std::int64_t finished_step = -1;
  Vector3 red, blue;
  VectorX q, v;
};

// The scene's grippers playing a command file given as text (`label`
// names it in errors, which Play throws for names the scene lacks).
SceneGripper PlayText(const Simulation& sim, const std::string& text, const std::string& label) {
  SceneGripper grippers(sim);
  grippers.Play(sim, CommandPlayer(ParseCommandText(text, label), sim.time_step()), label);
  return grippers;
}

StackRun RunStack(const std::string& commands = "") {
  Simulation sim = Simulation::FromFile(test::ScenePath("two_arm_stack.yaml"));
  SceneGripper grippers = SceneGripper::ForScene(sim, commands);
  EXPECT_EQ(grippers.num_grippers(), 2);
  EXPECT_NE(grippers.player(), nullptr);
  const int left = grippers.Find("left"), right = grippers.Find("right");
  EXPECT_EQ(left, 0);
  EXPECT_EQ(right, 1);
  const int red = sim.model().FindBody("red_cube"), pedestal = sim.model().FindBody("pedestal");
  const std::vector<int> left_bodies = grippers.controller(left)->bodies();
  // A gripper's name in a wait means the bodies it moves: its own arm and
  // hand, none of the other's.
  for (int b : grippers.controller(right)->bodies()) {
    EXPECT_EQ(std::count(left_bodies.begin(), left_bodies.end(), b), 0) << sim.model().body(b).name;
  }
  EXPECT_EQ(left_bodies.size(), grippers.controller(right)->bodies().size());
  StackRun run;
  const auto steps = static_cast<std::int64_t>(std::llround(sim.scene().duration / sim.time_step()));
  for (std::int64_t i = 0; i < steps; ++i) {
    grippers.PrepareStep(&sim, &run.applied);
    const StepResult r = sim.Step();
    EXPECT_EQ(r.status, StepStatus::kSuccess) << r.message;
    if (r.status != StepStatus::kSuccess) break;
    if (run.left_grip_over_20N < 0 && Measure(sim, left_bodies, {red}).force > 20) {
      run.left_grip_over_20N = sim.step_index();
    }
    if (run.red_touches_pedestal < 0 && Measure(sim, {red}, {pedestal}).pressing) {
      run.red_touches_pedestal = sim.step_index();
    }
  }
  run.events = grippers.player()->events();
  run.finished = grippers.player()->finished();
  run.finished_step = grippers.player()->finished_step();
  run.red = sim.CalcBodyStates()[static_cast<size_t>(red - 1)].position;
  run.blue = sim.CalcBodyStates()[static_cast<size_t>(sim.model().FindBody("blue_cube") - 1)].position;
  run.q = sim.positions();
  run.v = sim.velocities();
  return run;
}

TEST(TaskScriptTest, TwoArmsStackTwoCubesWaitingOnForcesTouchesAndSeparations) {
  const StackRun run = RunStack();
  ASSERT_TRUE(run.finished);
  // Six waits in the file, passed in file order.
  ASSERT_EQ(run.events.size(), 6u);
  for (std::size_t i = 1; i < run.events.size(); ++i) {
    EXPECT_GT(run.events[i].entry, run.events[i - 1].entry);
    EXPECT_GE(run.events[i].step, run.events[i - 1].step);
  }
  // The task: the red cube on the pedestal (top at 0.1 m), the blue one on
  // the red one, each 25 mm half-height, centred within 1 cm.
  std::printf("red cube at [%.4f, %.4f, %.4f] m, blue at [%.4f, %.4f, %.4f] m; script done at step %lld\n",
              run.red.x(), run.red.y(), run.red.z(), run.blue.x(), run.blue.y(), run.blue.z(),
              static_cast<long long>(run.finished_step));
  EXPECT_NEAR(run.red.x(), 0.6, 0.01);
  EXPECT_NEAR(run.red.y(), 0.0, 0.01);
  EXPECT_NEAR(run.red.z(), 0.125, 0.002);
  EXPECT_NEAR(run.blue.x() - run.red.x(), 0.0, 0.01);
  EXPECT_NEAR(run.blue.y() - run.red.y(), 0.0, 0.01);
  EXPECT_NEAR(run.blue.z(), 0.175, 0.002);
  // Both arms were driven by the one script.
  int per_gripper[2] = {0, 0};
  for (const GripperCommand& c : run.applied) ++per_gripper[c.gripper];
  EXPECT_GT(per_gripper[0], 5);
  EXPECT_GT(per_gripper[1], 5);
}

TEST(TaskScriptTest, AWaitResumesOnTheStepAfterTheOneWhoseContactsMeetIt) {
  const StackRun run = RunStack();
  ASSERT_GE(run.events.size(), 2u);
  // commands[5]: {wait: {force: [left, red_cube], above: 20}}. The grip
  // closes on the step the wait starts, so the first crossing is the one it
  // waits for; the script resumes before the next step.
  ASSERT_GT(run.left_grip_over_20N, 0);
  EXPECT_EQ(run.events[0].entry, 5);
  EXPECT_EQ(run.events[0].step, run.left_grip_over_20N);
  // commands[9]: {wait: {touch: [red_cube, pedestal]}}.
  ASSERT_GT(run.red_touches_pedestal, 0);
  EXPECT_EQ(run.events[1].entry, 9);
  EXPECT_EQ(run.events[1].step, run.red_touches_pedestal);
  // The entry after the force wait, {after: 0.3, gripper: left, target: ...},
  // applies 30 steps (0.3 s at 10 ms) after the script resumed.
  bool found = false;
  for (const GripperCommand& c : run.applied) {
    if (c.gripper == 0 && c.target && c.target->z == 0.2 && c.target->y == -0.5) {
      EXPECT_EQ(c.step, run.events[0].step + 30);
      found = true;
      break;
    }
  }
  EXPECT_TRUE(found);
}

TEST(TaskScriptTest, TheTaskReplaysBitIdentically) {
  const StackRun a = RunStack(), b = RunStack();
  ASSERT_EQ(a.q.size(), b.q.size());
  EXPECT_TRUE((a.q.array() == b.q.array()).all());
  EXPECT_TRUE((a.v.array() == b.v.array()).all());
  ASSERT_EQ(a.events.size(), b.events.size());
  for (std::size_t i = 0; i < a.events.size(); ++i) EXPECT_EQ(a.events[i].step, b.events[i].step);
}

// A take recorded while the script drives both arms (every applied command,
// keyed by step and named by gripper) replays bit-identically as a plain
// step-keyed file, with no waits left in it.
TEST(TaskScriptTest, ARecordingOfTheScriptReplaysBitIdentically) {
  constexpr int kSteps = 400;  // Through the first force wait.
  Simulation live = Simulation::FromFile(test::ScenePath("two_arm_stack.yaml"));
  SceneGripper script = SceneGripper::ForScene(live);
  CommandRecorder recorder;
  recorder.Start("two_arm_stack.yaml", live.time_step(), {"left", "right"});
  for (int g = 0; g < 2; ++g) {
    GripperCommand first = script.controller(g)->StateCommand(0);
    first.gripper = g;
    recorder.Record(first);
  }
  std::vector<GripperCommand> applied;
  for (int i = 0; i < kSteps; ++i) {
    applied.clear();
    script.PrepareStep(&live, &applied);
    for (const GripperCommand& c : applied) recorder.Record(c);
    ASSERT_EQ(live.Step().status, StepStatus::kSuccess);
  }
  ASSERT_FALSE(script.player()->events().empty());
  const std::string text = FormatCommandLog(recorder.log());
  EXPECT_EQ(text.find("wait"), std::string::npos);
  EXPECT_NE(text.find("gripper: right"), std::string::npos);

  Simulation replay = Simulation::FromFile(test::ScenePath("two_arm_stack.yaml"));
  SceneGripper player(replay);
  player.Play(replay, CommandPlayer(ParseCommandText(text, "take.yaml"), replay.time_step()), "take.yaml");
  for (int i = 0; i < kSteps; ++i) {
    player.PrepareStep(&replay);
    ASSERT_EQ(replay.Step().status, StepStatus::kSuccess);
  }
  EXPECT_TRUE((live.positions().array() == replay.positions().array()).all());
  EXPECT_TRUE((live.velocities().array() == replay.velocities().array()).all());
}

// A wait that never holds fails with its file, line and condition, once its
// timeout has passed; the simulation goes on.
TEST(TaskScriptTest, AWaitThatTimesOutNamesItsEntry) {
  Simulation sim = Simulation::FromFile(test::ScenePath("two_arm_stack.yaml"));
  SceneGripper grippers = PlayText(sim,
                                   "commands:\n"
                                   "  - {time: 0, gripper: right, grip: close}\n"
                                   "  - {wait: {touch: [blue_cube, red_cube]}, timeout: 0.05}\n"
                                   "  - {after: 0, gripper: right, grip: open}\n",
                                   "never.yaml");
  std::string error;
  for (int i = 0; i < 10 && error.empty(); ++i) {
    try {
      grippers.PrepareStep(&sim);
    } catch (const InputError& e) {
      error = e.what();
    }
    ASSERT_EQ(sim.Step().status, StepStatus::kSuccess);
  }
  EXPECT_EQ(error, "never.yaml:3: commands[1].wait: timed out after 0.05 s at t = 0.05 s waiting for blue_cube "
                   "touching red_cube");
  // The script ended there: the command after the wait never applied.
  EXPECT_TRUE(grippers.player()->finished());
  EXPECT_EQ(grippers.controller(1)->grip(), GripState::kClosed);
}

TEST(TaskScriptTest, UnknownNamesAreReportedAtTheirLine) {
  const Simulation sim = Simulation::FromFile(test::ScenePath("two_arm_stack.yaml"));
  auto error = [&](const std::string& text) {
    try {
      PlayText(sim, text, "s.yaml");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("commands:\n  - {time: 0,\n     gripper: middle, grip: close}\n"),
            "s.yaml:3: commands[0].gripper: unknown gripper 'middle' (the scene's grippers: left, right)");
  EXPECT_EQ(error("commands:\n  - {wait: {force: [left, green_cube], above: 1}}\n"),
            "s.yaml:2: commands[0].wait: unknown body or gripper 'green_cube' (grippers: left, right; or a "
            "body's name, or world)");
  EXPECT_EQ(error("commands:\n  - {wait: {touch: [world, red_cube]}}\n  - {after: 0, gripper: left, grip: open}\n"),
            "no error");
}

// Teleop's hold: the script skips a held gripper's commands and goes on
// with the other's; handed back, the next command for it applies.
TEST(TaskScriptTest, AHeldGripperIsSkippedAndHandedBack) {
  Simulation sim = Simulation::FromFile(test::ScenePath("two_arm_stack.yaml"));
  SceneGripper grippers = PlayText(sim,
                                   "commands:\n"
                                   "  - {time: 0.05, gripper: left, grip: close}\n"
                                   "  - {after: 0, gripper: right, grip: close}\n"
                                   "  - {time: 0.1, gripper: left, grip: open}\n"
                                   "  - {after: 0, gripper: left, grip_force: 12}\n",
                                   "hold.yaml");
  grippers.player()->Hold(0, true);
  std::vector<GripperCommand> applied;
  for (int i = 0; i < 8; ++i) {
    grippers.PrepareStep(&sim, &applied);
    ASSERT_EQ(sim.Step().status, StepStatus::kSuccess);
  }
  ASSERT_EQ(applied.size(), 1u);  // Only the right gripper's command.
  EXPECT_EQ(applied[0].gripper, 1);
  EXPECT_EQ(grippers.controller(0)->grip(), GripState::kOpen);
  EXPECT_EQ(grippers.controller(1)->grip(), GripState::kClosed);
  grippers.player()->Hold(0, false);  // Handed back before t = 0.1 s.
  for (int i = 0; i < 4; ++i) {
    grippers.PrepareStep(&sim, &applied);
    ASSERT_EQ(sim.Step().status, StepStatus::kSuccess);
  }
  ASSERT_EQ(applied.size(), 3u);
  EXPECT_EQ(applied[1].gripper, 0);
  EXPECT_EQ(applied[1].step, 10);
  EXPECT_EQ(grippers.controller(0)->grip_force(), 12.0);
}

}  // namespace
}  // namespace stiction
