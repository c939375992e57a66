// The key map and the input devices in the viewer (docs/teleop.md "The key
// map", "Input devices"): the App reads input.ini beside its settings file,
// a remapped key drives the teleop target and the old one no longer does,
// a bad entry shows FILE:LINE in the message line, and a scripted
// SpaceMouse moves the App's target through the same path as the real one.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "app/app.h"
#include "app/input/key_bindings.h"
#include "tests/app/input/scripted_devices.h"
#include "tests/support/scratch_dir.h"

namespace stiction::app {
namespace {

const std::string kDeviceAppScenes = STICTION_SOURCE_DIR "/assets/scenes";

class DeviceAppTest : public stiction::test::ScratchDirTest {
 protected:
  // The welcome scene (an arm) with viewer.ini and input.ini in the scratch
  // directory; `input` is input.ini's text.
  AppOptions OptionsWith(const std::string& input) {
    Write("config/input.ini", input);
    AppOptions o;
    o.scene_path = kDeviceAppScenes + "/welcome.yaml";
    o.width = 640;
    o.height = 360;
    o.visible = false;
    o.vsync = false;
    o.panels = false;
    o.screenshot_dir = dir_.string();
    o.settings_path = (dir_ / "config/viewer.ini").string();
    return o;
  }
};

TEST_F(DeviceAppTest, RemappedKeyMovesTheTargetAndTheOldOneNoLonger) {
  App app(OptionsWith("# MuJoCo habits: IJKL moves the target\nkey.teleop.x+ = I\n"));
  app.Frame();
  // The hint in the view and the Gripper section's key line say I.
  const std::string hint = TeleopHint(app.MakeView(), app.gripper().MakeView(), app.ui().keys);
  EXPECT_NE(hint.find("drag or IASD/RF: move"), std::string::npos) << hint;
  EXPECT_EQ(MotionKeysText(app.ui().keys, true), "I/S x, A/D y, R/F z, Q/E yaw, Z/X tilt");
  app.input().HandleKey(GLFW_KEY_T, GLFW_PRESS, 0);
  ASSERT_TRUE(app.gripper().teleop());
  const GripperPose start = app.gripper().MakeView().target;

  app.input().HandleKey(GLFW_KEY_W, GLFW_PRESS, 0);  // W: no longer +x.
  app.input().Update(0.1);
  app.input().HandleKey(GLFW_KEY_W, GLFW_RELEASE, 0);
  const double w_dx = app.gripper().MakeView().target.x - start.x;
  EXPECT_EQ(app.gripper().MakeView().target, start);

  app.input().HandleKey(GLFW_KEY_I, GLFW_PRESS, 0);  // I: +x at 0.15 m/s.
  app.input().Update(0.1);
  app.input().HandleKey(GLFW_KEY_I, GLFW_RELEASE, 0);
  const GripperPose moved = app.gripper().MakeView().target;
  std::printf("W held 0.1 s: dx %.4f m; I held 0.1 s: dx %.4f m\n", w_dx, moved.x - start.x);
  EXPECT_NEAR(moved.x - start.x, 0.015, 1e-12);
  EXPECT_EQ(moved.y, start.y);
  app.input().Update(0.1);  // Released: it stays.
  EXPECT_EQ(app.gripper().MakeView().target, moved);
}

TEST_F(DeviceAppTest, BadEntryShowsFileAndLineAndKeepsTheDefault) {
  App app(OptionsWith("# mine\nkey.teleop.x+ = Wx\n"));
  app.Frame();
  const std::string expected = (dir_ / "config/input.ini").string() + ":2: key.teleop.x+: unknown key 'Wx'";
  std::printf("message line: %s\n", app.ui().message.c_str());
  EXPECT_TRUE(app.ui().message_is_error);
  EXPECT_EQ(app.ui().message.rfind(expected, 0), 0u) << app.ui().message;
  ASSERT_EQ(app.devices().config_problems().size(), 1u);
  // W is still +x.
  app.input().HandleKey(GLFW_KEY_T, GLFW_PRESS, 0);
  const GripperPose start = app.gripper().MakeView().target;
  app.input().HandleKey(GLFW_KEY_W, GLFW_PRESS, 0);
  app.input().Update(0.1);
  EXPECT_NEAR(app.gripper().MakeView().target.x - start.x, 0.015, 1e-12);
}

TEST_F(DeviceAppTest, ScriptedSpaceMouseMovesTheTargetAndNoDaemonIsOnlyANote) {
  App app(OptionsWith(""));
  app.Frame();  // The real backends: no spacenavd, no gamepad here.
  const DeviceEntry& mouse = app.ui().devices[DeviceKind::kSpaceMouse];
  EXPECT_FALSE(mouse.status.connected);
  EXPECT_FALSE(mouse.status.note.empty());
  EXPECT_FALSE(app.ui().message_is_error) << app.ui().message;
  std::printf("SpaceMouse: %s; gamepad: %s\n", mouse.status.note.c_str(),
              app.ui().devices[DeviceKind::kGamepad].status.note.c_str());

  test::ScriptedSpnav::Script script;
  app.devices().SetDevice(std::make_unique<SpaceMouseDevice>(std::make_unique<test::ScriptedSpnav>(&script)));
  app.input().HandleKey(GLFW_KEY_T, GLFW_PRESS, 0);
  const GripperPose start = app.gripper().MakeView().target;
  script.events = {test::Motion(0, 350, 0, 0, 0, 0), test::Button(0, true)};  // Lift; grasp.
  app.devices().Update(0.0, 0.1);
  const GripperPose moved = app.gripper().MakeView().target;
  EXPECT_NEAR(moved.z - start.z, 0.015, 1e-12);
  EXPECT_EQ(moved.x, start.x);
  EXPECT_EQ(app.gripper().MakeView().grip, GripState::kClosed);
  EXPECT_TRUE(app.ui().devices[DeviceKind::kSpaceMouse].status.connected);
}

}  // namespace
}  // namespace stiction::app
