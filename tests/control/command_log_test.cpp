// The gripper command file (engine/control/command_log.h): parsing, errors
// as "FILE:LINE: KEY: reason", exact round trip, resolution to steps, and the
// scene keys `gripper:` / `commands:`.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/common/error.h"
#include "engine/control/command_log.h"
#include "engine/control/command_player.h"
#include "engine/control/scene_gripper.h"
#include "engine/scene/scene_loader.h"
#include "tests/scenarios/scenario_helpers.h"

namespace stiction {
namespace {

std::string ErrorOf(const std::string& text) {
  try {
    ParseCommandText(text, "cmds.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(CommandLogTest, ParsesEveryField) {
  const CommandLog log = ParseCommandText(
      "format: stiction-commands-1\n"
      "scene: a.yaml\n"
      "time_step: 0.01\n"
      "commands:\n"
      "  - {step: 0, target: [0.1, -0.2, 0.3, 0.5], grip: open, grip_force: 20}\n"
      "  - {time: 1.5, grip: close}\n"
      "  - {time: 2, target: [0, 0, 0.5, 0], ramp: 1.25, grip_force: 1}\n",
      "cmds.yaml");
  EXPECT_EQ(log.scene, "a.yaml");
  ASSERT_TRUE(log.time_step);
  EXPECT_EQ(*log.time_step, 0.01);
  ASSERT_EQ(log.entries.size(), 3u);
  EXPECT_EQ(log.entries[0].step, 0);
  EXPECT_EQ(log.entries[0].target, (GripperPose{0.1, -0.2, 0.3, 0.5}));
  EXPECT_EQ(log.entries[0].grip, GripState::kOpen);
  EXPECT_EQ(log.entries[0].grip_force, 20.0);
  EXPECT_EQ(log.entries[1].time_s, 1.5);
  EXPECT_EQ(log.entries[1].grip, GripState::kClosed);
  EXPECT_EQ(log.entries[1].line, 6);
  EXPECT_EQ(log.entries[2].ramp_s, 1.25);
}

TEST(CommandLogTest, TargetsMayCarryATiltForAnArm) {
  const CommandLog log = ParseCommandText(
      "commands:\n"
      "  - {step: 0, target: [0.1, -0.2, 0.3, 0.5, -0.25]}\n",
      "cmds.yaml");
  ASSERT_EQ(log.entries.size(), 1u);
  EXPECT_EQ(log.entries[0].target, (GripperPose{0.1, -0.2, 0.3, 0.5, -0.25}));
  // Written back with five numbers only when tilted, so gantry files keep four.
  auto target_numbers = [](const CommandLog& l) {
    const std::string text = FormatCommandLog(l);
    const std::size_t open = text.find("target: [");
    const std::string list = text.substr(open, text.find(']', open) - open);
    return 1 + std::count(list.begin(), list.end(), ',');
  };
  EXPECT_EQ(target_numbers(log), 5);
  EXPECT_EQ(ParseCommandText(FormatCommandLog(log), "x.yaml").entries[0].target, log.entries[0].target);
  CommandLog flat = log;
  flat.entries[0].target->tilt = 0;
  EXPECT_EQ(target_numbers(flat), 4);
  EXPECT_EQ(ErrorOf("commands:\n  - {step: 0, target: [0, 0, 0, 0, 0, 0]}\n"),
            "cmds.yaml:2: commands[0].target: expected [x, y, z, yaw] or [x, y, z, yaw, tilt] in "
            "[m, m, m, rad, rad]");
}

TEST(CommandLogTest, ErrorsNameFileLineAndKey) {
  const std::string head = "format: stiction-commands-1\ncommands:\n";
  EXPECT_EQ(ErrorOf(head + "  - {step: 0, grip: shut}\n"),
            "cmds.yaml:3: commands[0].grip: expected open or close, got 'shut'");
  EXPECT_EQ(ErrorOf(head + "  - {step: 0}\n  - {time: 1, grip_force: 60}\n"),
            "cmds.yaml:4: commands[1].grip_force: must be in [1, 50] N, got 60");
  EXPECT_EQ(ErrorOf(head + "  - {step: 1.5}\n"),
            "cmds.yaml:3: commands[0].step: expected a whole number >= 0, got '1.5'");
  EXPECT_EQ(ErrorOf(head + "  - {grip: open}\n"),
            "cmds.yaml:3: commands[0]: give exactly one of 'step' (index), 'time' [s] and 'after' [s since the entry "
            "before], or a 'wait'");
  EXPECT_EQ(ErrorOf(head + "  - {step: 0, target: [1, 2, 3]}\n"),
            "cmds.yaml:3: commands[0].target: expected [x, y, z, yaw] or [x, y, z, yaw, tilt] in [m, m, m, rad, rad]");
  EXPECT_EQ(ErrorOf(head + "  - {step: 0, target: [1, 2, 3, abc]}\n"),
            "cmds.yaml:3: commands[0].target[3]: expected a finite number, got 'abc'");
  EXPECT_EQ(ErrorOf(head + "  - {step: 0, ramp: 1}\n"),
            "cmds.yaml:3: commands[0].ramp: a ramp needs a target");
  EXPECT_EQ(ErrorOf(head + "  - {step: 0, gripp: open}\n"),
            "cmds.yaml:3: commands[0].gripp: unknown key (expected one of: step, time, after, gripper, target, "
            "ramp, grip, grip_force, set, wait, timeout)");
  EXPECT_EQ(ErrorOf("format: other\ncommands: []\n"), "cmds.yaml:1: format: expected stiction-commands-1");
  EXPECT_EQ(ErrorOf("time_step: -1\ncommands: []\n"), "cmds.yaml:1: time_step: must be > 0 s");
  EXPECT_EQ(ErrorOf("scene: a\n"), "cmds.yaml:1: commands: missing (a list of commands)");
  EXPECT_EQ(ErrorOf("commands: [\n"), "cmds.yaml:2: YAML syntax error: end of sequence flow not found");
  EXPECT_THROW(LoadCommandFile("/nonexistent/cmds.yaml"), InputError);
}

TEST(CommandLogTest, FormatRoundTripsBitExactly) {
  CommandLog log;
  log.scene = "dir: with colon/s.yaml";  // Needs quoting in YAML.
  log.time_step = 0.1 + 0.2;  // Not representable in short decimal form.
  CommandEntry e;
  e.step = 12;
  e.target = GripperPose{1.0 / 3.0, -std::sqrt(2.0), 1e-17, std::nextafter(1.0, 2.0), 0.1 + 0.7};
  e.grip = GripState::kClosed;
  e.grip_force = 10.0 / 7.0;
  log.entries.push_back(e);
  CommandEntry f;
  f.time_s = 2.5;
  f.target = GripperPose{0, 0, 0.3, 0};
  f.ramp_s = 0.7;
  log.entries.push_back(f);
  const CommandLog back = ParseCommandText(FormatCommandLog(log), "x.yaml");
  EXPECT_EQ(back.scene, "dir: with colon/s.yaml");
  EXPECT_EQ(*back.time_step, *log.time_step);
  ASSERT_EQ(back.entries.size(), 2u);
  EXPECT_EQ(back.entries[0].step, 12);
  EXPECT_EQ(back.entries[0].target, e.target);  // Bitwise: operator== on doubles.
  EXPECT_EQ(back.entries[0].grip, GripState::kClosed);
  EXPECT_EQ(back.entries[0].grip_force, e.grip_force);
  EXPECT_EQ(back.entries[1].time_s, 2.5);
  EXPECT_EQ(back.entries[1].ramp_s, 0.7);
}

TEST(CommandLogTest, TaskScriptEntriesParseAndRoundTrip) {
  const CommandLog log = ParseCommandText(
      "commands:\n"
      "  - {time: 0, gripper: left, target: [0.6, -0.3, 0.2, 0], grip: open}\n"
      "  - {after: 0.25, gripper: 'right arm', grip: close}\n"
      "  - {wait: {force: [left, red_cube], above: 20}, timeout: 2}\n"
      "  - {wait: {force: [left, red_cube], below: 0.5}}\n"
      "  - {wait: {touch: [red_cube, world]}}\n"
      "  - {wait: {separate: [right arm, red_cube]}}\n"
      "  - {wait: {time: 4.5}}\n",
      "task.yaml");
  ASSERT_EQ(log.entries.size(), 7u);
  EXPECT_EQ(log.entries[0].gripper, "left");
  EXPECT_EQ(log.entries[1].after_s, 0.25);
  EXPECT_EQ(log.entries[1].gripper, "right arm");
  ASSERT_TRUE(log.entries[2].wait.has_value());
  EXPECT_EQ(log.entries[2].wait->kind, WaitCondition::Kind::kForceAbove);
  EXPECT_EQ(log.entries[2].wait->a, "left");
  EXPECT_EQ(log.entries[2].wait->b, "red_cube");
  EXPECT_EQ(log.entries[2].wait->value, 20.0);
  EXPECT_EQ(log.entries[2].timeout_s, 2.0);
  EXPECT_EQ(log.entries[3].wait->kind, WaitCondition::Kind::kForceBelow);
  EXPECT_EQ(log.entries[4].wait->kind, WaitCondition::Kind::kTouch);
  EXPECT_EQ(log.entries[5].wait->kind, WaitCondition::Kind::kSeparate);
  EXPECT_EQ(log.entries[6].wait->kind, WaitCondition::Kind::kTime);
  EXPECT_EQ(log.entries[6].wait->value, 4.5);
  EXPECT_FALSE(log.entries[6].timeout_s.has_value());
  EXPECT_EQ(DescribeWait(*log.entries[3].wait), "the contact force between left and red_cube below 0.5 N");
  // Written and read back, it is the same file.
  const std::string written = FormatCommandLog(log);
  EXPECT_EQ(FormatCommandLog(ParseCommandText(written, "again.yaml")), written);
  EXPECT_NE(written.find("{after: 0.25, gripper: right arm, grip: close}"), std::string::npos) << written;
  EXPECT_NE(written.find("{wait: {force: [left, red_cube], above: 20}, timeout: 2}"), std::string::npos) << written;
}

TEST(CommandLogTest, TaskScriptErrorsNameFileLineAndKey) {
  const std::string head = "commands:\n";
  EXPECT_EQ(ErrorOf(head + "  - {wait: {touch: [a, b]}, grip: open}\n"),
            "cmds.yaml:2: commands[0].grip: a wait entry holds only 'wait' (and 'timeout'); put the command in "
            "the entry after it");
  EXPECT_EQ(ErrorOf(head + "  - {time: 1, grip: open, timeout: 2}\n"),
            "cmds.yaml:2: commands[0].timeout: a timeout belongs to a wait entry");
  EXPECT_EQ(ErrorOf(head + "  - {wait: {touch: [a, b]}, timeout: 0}\n"),
            "cmds.yaml:2: commands[0].timeout: must be > 0 s, got 0");
  EXPECT_EQ(ErrorOf(head + "  - {wait: {force: [a, b]}}\n"),
            "cmds.yaml:2: commands[0].wait: a force condition needs exactly one of 'above' and 'below' [N]");
  EXPECT_EQ(ErrorOf(head + "  - {wait: {force: [a, b], above: -1}}\n"),
            "cmds.yaml:2: commands[0].wait.above: must be >= 0 N, got -1");
  EXPECT_EQ(ErrorOf(head + "  - {wait: {touch: [a, b], time: 3}}\n"),
            "cmds.yaml:2: commands[0].wait: give exactly one condition: expected one of {force: [A, B], above: "
            "N} (or below: N), {touch: [A, B]}, {separate: [A, B]}, {time: s}");
  EXPECT_EQ(ErrorOf(head + "  - {wait: {touch: [a]}}\n"),
            "cmds.yaml:2: commands[0].wait.touch: expected [A, B]: two names of bodies, grippers or world");
  EXPECT_EQ(ErrorOf(head + "  - {wait: {touch: [a, b], above: 3}}\n"),
            "cmds.yaml:2: commands[0].wait.above: belongs to a force condition {force: [A, B], ...}");
  EXPECT_EQ(ErrorOf(head + "  - {after: -0.1, grip: open}\n"), "cmds.yaml:2: commands[0].after: must be >= 0 s");
  EXPECT_EQ(ErrorOf(head + "  - {time: 0, after: 1, grip: open}\n"),
            "cmds.yaml:2: commands[0]: give exactly one of 'step' (index), 'time' [s] and 'after' [s since the "
            "entry before], or a 'wait'");
  EXPECT_EQ(ErrorOf(head + "  - {time: 0, gripper: [a, b]}\n"),
            "cmds.yaml:2: commands[0].gripper: expected a gripper's name");
}

TEST(CommandLogTest, SeveralGrippersAreNamedAndChecked) {
  const SceneDescription scene = LoadSceneFile(test::ScenePath("two_arm_stack.yaml"));
  ASSERT_EQ(scene.grippers.size(), 2u);
  EXPECT_EQ(scene.grippers[0].name, "left");
  EXPECT_EQ(scene.grippers[1].name, "right");
  EXPECT_EQ(scene.grippers[1].end_effector_body, "right_hand/gripper_base");
  auto error = [](const std::vector<std::string>& overrides) -> std::string {
    try {
      LoadSceneFile(test::ScenePath("two_arm_stack.yaml"), overrides);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(error({"grippers.right.name=left"}).find("grippers[1].name: duplicate gripper name 'left'"),
            std::string::npos)
      << error({"grippers.right.name=left"});
  EXPECT_NE(error({"grippers.right.left_finger=left_hand/gripper_left_joint"})
                .find("'left_hand/gripper_left_joint' is already driven by another gripper"),
            std::string::npos)
      << error({"grippers.right.left_finger=left_hand/gripper_left_joint"});
  const std::string both = error({"gripper={end_effector: {body: left_hand/gripper_base}}"});
  EXPECT_NE(both.find("grippers: give either 'gripper' (one) or 'grippers' (a list of named grippers), not both"),
            std::string::npos)
      << both;
  EXPECT_NE(error({"grippers=[]"}).find("grippers: expected a non-empty list of grippers"), std::string::npos)
      << error({"grippers=[]"});
  // The one `gripper:` is called "gripper"; it has no name key.
  try {
    LoadSceneFile(test::ScenePath("grasp_box.yaml"), {"gripper.name=g"});
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("gripper.name: the one 'gripper' is named \"gripper\"; list several under "
                                         "'grippers', each with a name"),
              std::string::npos)
        << e.what();
  }
}

TEST(CommandLogTest, PlayerResolvesTimesToStepsAndChecksOrderAndTimeStep) {
  const CommandLog log = ParseCommandText(
      "commands:\n  - {time: 0.5, grip: close}\n  - {time: 1.0, target: [0, 0, 1, 0], ramp: 0.25}\n",
      "c.yaml");
  const CommandPlayer at10ms(log, 0.01), at2ms(log, 0.002);
  ASSERT_EQ(at10ms.fixed_commands().size(), 2u);
  EXPECT_EQ(at10ms.fixed_commands()[0].step, 50);
  EXPECT_EQ(at10ms.fixed_commands()[1].step, 100);
  EXPECT_EQ(at10ms.fixed_commands()[1].ramp_steps, 25);
  EXPECT_EQ(at2ms.fixed_commands()[1].step, 500);
  EXPECT_EQ(at2ms.fixed_commands()[1].ramp_steps, 125);

  const CommandLog recorded = ParseCommandText("time_step: 0.01\ncommands:\n  - {step: 3, grip: open}\n", "r.yaml");
  EXPECT_NO_THROW(CommandPlayer(recorded, 0.01));
  try {
    CommandPlayer(recorded, 0.005);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "r.yaml:1: time_step: the commands were recorded at 0.01 s but the simulation runs at "
              "0.005 s (replay at the recorded time step)");
  }
  const CommandLog backwards =
      ParseCommandText("commands:\n  - {time: 2, grip: open}\n  - {time: 1, grip: close}\n", "b.yaml");
  try {
    CommandPlayer(backwards, 0.01);
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()),
              "b.yaml:3: commands[1].time: commands must be in time order (this one is before the "
              "previous one)");
  }
}

TEST(CommandLogTest, SceneGripperKeysAreValidated) {
  // The shipped gripper resolves; its scene's command file is absolute.
  const SceneDescription scene = LoadSceneFile(test::ScenePath("grasp_box.yaml"));
  ASSERT_EQ(scene.grippers.size(), 1u);
  EXPECT_EQ(scene.grippers[0].name, "gripper");
  EXPECT_EQ(scene.grippers[0].z, "gripper_z_motor");
  EXPECT_EQ(scene.grippers[0].grip_force, 20.0);
  EXPECT_NE(scene.commands_file.find("commands/grasp_box.yaml"), std::string::npos);

  auto error = [](const std::vector<std::string>& overrides) -> std::string {
    try {
      LoadSceneFile(test::ScenePath("grasp_box.yaml"), overrides);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error({"gripper.x=nope"}),
            "--set gripper.x=nope: gripper.x: unknown actuator 'nope' (actuators: gripper_x_motor, "
            "gripper_y_motor, gripper_z_motor, gripper_yaw_motor, finger_left_motor, finger_right_motor)");
  EXPECT_EQ(error({"gripper.yaw=gripper_x_motor"}),
            "--set gripper.yaw=gripper_x_motor: gripper.yaw: actuator 'gripper_x_motor' must drive a "
            "revolute joint");
  EXPECT_EQ(error({"gripper.grip_force=80"}),
            "--set gripper.grip_force=80: gripper.grip_force: must be in [1, 50], got 80");
  EXPECT_NE(error({"commands=missing.yaml"}).find("commands: command file 'missing.yaml' not found"),
            std::string::npos);
  // The two-finger shorthand becomes two fingers pressing with the grip force.
  ASSERT_EQ(scene.grippers[0].fingers.size(), 2u);
  EXPECT_EQ(scene.grippers[0].fingers[0].name, "left");
  EXPECT_EQ(scene.grippers[0].fingers[1].actuators, (std::vector<std::string>{"finger_right_motor"}));
  EXPECT_TRUE(scene.grippers[0].fingers[0].grip_force_limited);
}

TEST(CommandLogTest, SceneHandFingersAreValidated) {
  const SceneDescription scene = LoadSceneFile(test::ScenePath("iiwa_hand_grasp.yaml"));
  ASSERT_EQ(scene.grippers[0].fingers.size(), 4u);
  const FingerDescription& thumb = scene.grippers[0].fingers[3];
  EXPECT_EQ(thumb.name, "thumb");
  EXPECT_EQ(thumb.actuators.front(), "hand/thumb_joint_0");
  EXPECT_EQ(thumb.open, (std::vector<double>{1.396, 0, 0, 0}));
  EXPECT_EQ(thumb.closed, (std::vector<double>{1.396, 0.2, 1.64, 1.72}));
  EXPECT_FALSE(thumb.grip_force_limited);

  auto error = [](const std::vector<std::string>& overrides) -> std::string {
    try {
      LoadSceneFile(test::ScenePath("iiwa_hand_grasp.yaml"), overrides);
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(error({"gripper.fingers.index.open=[0, 0, 0]"}),
            "--set gripper.fingers.index.open=[0, 0, 0]: gripper.fingers[0].open: expected a list of 4 numbers, "
            "got a list of 3");
  EXPECT_EQ(error({"gripper.fingers.ring.actuators=[hand/index_joint_1]"}),
            "--set gripper.fingers.ring.actuators=[hand/index_joint_1]: gripper.fingers[2].actuators[0]: actuator "
            "'hand/index_joint_1' is already in a finger");
  EXPECT_EQ(error({"gripper.fingers.thumb.closed=[1.396, 0, 0, 0]"}),
            "--set gripper.fingers.thumb.closed=[1.396, 0, 0, 0]: gripper.fingers[3].closed: open and closed "
            "must differ");
  EXPECT_EQ(error({"gripper.fingers.middle.name=index"}),
            "--set gripper.fingers.middle.name=index: gripper.fingers[1].name: duplicate finger name 'index'");
  EXPECT_EQ(error({"gripper.left_finger=hand/index_joint_1"}),
            "--set gripper.left_finger=hand/index_joint_1: gripper.left_finger: 'left_finger' is the two-finger "
            "shorthand; with 'fingers' list every finger there");
  EXPECT_NE(error({"gripper.fingers.index.actuators=[nope]"}).find("unknown actuator 'nope'"), std::string::npos);
}

// `set:` entries: parameter edits from their step on (a saved timeline
// branch's edits), checked against the scene when the file starts playing.
TEST(CommandLogTest, SetEntriesParseRoundTripAndApplyAtTheirStep) {
  const CommandLog log = ParseCommandText(
      "commands:\n"
      "  - {step: 100, set: [materials.box_surface.friction=0.3, 'solver.stiction_tolerance=2e-3']}\n"
      "  - {step: 120, set: time_step=0.005}\n",
      "edits.yaml");
  ASSERT_EQ(log.entries.size(), 2u);
  EXPECT_EQ(log.entries[0].set,
            (std::vector<std::string>{"materials.box_surface.friction=0.3", "solver.stiction_tolerance=2e-3"}));
  EXPECT_EQ(log.entries[0].set_line, 2);
  EXPECT_EQ(log.entries[1].set, std::vector<std::string>{"time_step=0.005"});
  const std::string written = FormatCommandLog(log);
  EXPECT_NE(written.find("{step: 100, set: [materials.box_surface.friction=0.3, solver.stiction_tolerance=2e-3]}"),
            std::string::npos)
      << written;
  EXPECT_EQ(FormatCommandLog(ParseCommandText(written, "again.yaml")), written);

  // Played: the edits land before steps 100 and 120; the run is the one
  // with the same edits made by hand at those steps, bit for bit.
  const std::string scene = test::ScenePath("grasp_box.yaml");
  Simulation played = Simulation::FromFile(scene), by_hand = Simulation::FromFile(scene);
  SceneGripper script(played), none(by_hand);
  script.Play(played, CommandPlayer(log, played.time_step()), "edits.yaml");
  while (played.step_index() < 200) {
    script.PrepareStep(&played);
    ASSERT_EQ(played.Step().status, StepStatus::kSuccess);
    if (by_hand.step_index() == 100) {
      ContactMaterial m = by_hand.GetMaterial("box_surface");
      m.friction = 0.3;
      by_hand.SetMaterial("box_surface", m);
      ContactModelParameters c = by_hand.contact_model_parameters();
      c.stiction_tolerance = 2e-3;
      by_hand.SetContactModelParameters(c);
    }
    if (by_hand.step_index() == 120) by_hand.SetTimeStep(0.005);
    none.PrepareStep(&by_hand);
    ASSERT_EQ(by_hand.Step().status, StepStatus::kSuccess);
  }
  EXPECT_EQ(played.GetMaterial("box_surface").friction, 0.3);
  EXPECT_EQ(played.time_step(), 0.005);
  EXPECT_EQ(script.player()->parameter_edits_applied(), 2);
  EXPECT_TRUE((played.positions().array() == by_hand.positions().array()).all());
}

TEST(CommandLogTest, SetEntryErrorsNameFileLineAndKey) {
  const std::string head = "commands:\n";
  EXPECT_EQ(ErrorOf(head + "  - {step: 0, set: []}\n"), "cmds.yaml:2: commands[0].set: expected at least one KEY=VALUE");
  EXPECT_EQ(ErrorOf(head + "  - {step: 0, set: [friction]}\n"),
            "cmds.yaml:2: commands[0].set[0]: expected KEY=VALUE, e.g. materials.rubber.friction=0.4");
  EXPECT_EQ(ErrorOf(head + "  - {wait: {time: 1}, set: time_step=0.1}\n"),
            "cmds.yaml:2: commands[0].set: a wait entry holds only 'wait' (and 'timeout'); put the command in the "
            "entry after it");
  // Keys and values are checked against the scene when it starts playing.
  Simulation sim = Simulation::FromFile(test::ScenePath("grasp_box.yaml"));
  SceneGripper grippers(sim);
  const auto bind_error = [&](const std::string& text) {
    try {
      grippers.Play(sim, CommandPlayer(ParseCommandText(text, "cmds.yaml"), sim.time_step()), "cmds.yaml");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(bind_error(head + "  - {step: 5, grip: close}\n  - {step: 10,\n     set: [time_step=2]}\n"),
            "cmds.yaml:4: commands[1].set: time_step: must be in (0, 1] and finite, got 2 [s]");
  EXPECT_NE(bind_error(head + "  - {step: 10, set: materials.cheese.friction=1}\n")
                .find("cmds.yaml:2: commands[0].set: materials.cheese.friction: not a live parameter"),
            std::string::npos);
}

}  // namespace
}  // namespace stiction
