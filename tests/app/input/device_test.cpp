// The 6-DoF input devices and the key map without a display
// (docs/teleop.md "Input devices", "The key map"): scripted libspnav events
// and gamepad states through the real backends and mapping into a real
// GripperSession's target; the input file's entries and its errors.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "app/camera_director.h"
#include "app/input/devices/input_devices.h"
#include "app/input/devices/spnav_source.h"
#include "app/input/input_config.h"
#include "app/input/key_bindings.h"
#include "app/teleop/gripper_session.h"
#include "tests/app/input/scripted_devices.h"
#include "tests/support/scratch_dir.h"

namespace stiction::app {
namespace {

using test::Button;
using test::Motion;
using test::ScriptedGamepad;
using test::ScriptedSpnav;

const std::string kDeviceScenes = STICTION_SOURCE_DIR "/assets/scenes";
// The rates at full deflection and sensitivity 1 are GripperSession's
// keyboard rates, kKeyboardSpeed (0.15 m/s) and kKeyboardTurnRate (0.8 rad/s).
static_assert(kKeyboardSpeed == 0.15 && kKeyboardTurnRate == 0.8, "docs/teleop.md gives these rates");

// A scene's grippers in a GripperSession (no window), the devices driving
// it, and the GripperCommands the App would be (takes counted).
class DeviceRig final : public GripperCommands {
 public:
  explicit DeviceRig(const std::string& scene_file, const std::string& config = "")
      : director_(scene_, ui_) {
    std::filesystem::create_directories(takes_dir_);
    scene_.sim = std::make_unique<Simulation>(Simulation::FromFile(kDeviceScenes + "/" + scene_file));
    scene_.path = kDeviceScenes + "/" + scene_file;
    session_ = std::make_unique<GripperSession>(scene_, ui_, director_, takes_dir_.string());
    EXPECT_EQ(session_->SetUp(), "");
    devices_ = std::make_unique<InputDevices>(InputDevices::Parts{ui_, *session_, *this}, config);
    devices_->SetDevice(std::make_unique<SpaceMouseDevice>(std::make_unique<ScriptedSpnav>(&spnav)));
    devices_->SetDevice(std::make_unique<GamepadDevice>(std::make_unique<ScriptedGamepad>(&pad)));
    pad.connected = false;
  }
  ~DeviceRig() override {
    session_->CloseAutosaveAtExit();
    std::filesystem::remove_all(takes_dir_);
  }

  GripperSession& session() { return *session_; }
  InputDevices& devices() { return *devices_; }
  UiState& ui() { return ui_; }
  GripperPose target() const { return session_->controller()->target(); }
  DeviceSettings& settings(DeviceKind kind) { return ui_.devices[kind].mapping.settings; }

  void SetTeleop(bool on) override { session_->SetTeleop(on); }
  void SetGripClosed(bool closed) override { session_->SetGripClosed(closed); }
  void SetGripForce(double newtons) override { session_->SetGripForce(newtons); }
  void StartCommandRecording() override {
    ++takes_started;
    session_->StartTake(20, 0.0);
  }
  void StopCommandRecording() override {
    ++takes_stopped;
    session_->StopTake();
  }
  bool SaveCommandRecording(const std::string&) override { return false; }
  bool ReplayCommands(const std::string&) override { return false; }
  bool SaveBranch(const std::string&) override { return false; }
  bool KeepTake(const std::string&, bool success) override {
    ++(success ? takes_kept_success : takes_kept_failure);
    return true;
  }
  void DiscardTake() override { ++takes_discarded; }
  bool ReplayDemo(const std::string&, int) override { return false; }

  // Takes autosave here (removed at the end), not in the working directory.
  const std::filesystem::path takes_dir_ = stiction::test::FreshTempPath("device_test", "takes");
  ScriptedSpnav::Script spnav;
  ScriptedGamepad::Script pad;
  int takes_started = 0, takes_stopped = 0;
  int takes_kept_success = 0, takes_kept_failure = 0, takes_discarded = 0;

 private:
  ViewerScene scene_;
  UiState ui_;
  CameraDirector director_;
  std::unique_ptr<GripperSession> session_;
  std::unique_ptr<InputDevices> devices_;
};

// Half deflection through the default dead zone (0.1): (0.5 − 0.1) / 0.9.
constexpr double kHalfThroughDeadZone = 0.4 / 0.9;

TEST(DeviceSpaceMouseTest, ScriptedMotionMovesTheTargetAsMapped) {
  DeviceRig rig("welcome.yaml");  // An arm: the target tilts too.
  rig.session().SetTeleop(true);
  rig.settings(DeviceKind::kSpaceMouse).sensitivity = 2.0;
  const double dt = 0.05;

  // Pushed forward half way (spnav z = 175 of 350): +x at 2 × 0.15 m/s × 0.444.
  GripperPose before = rig.target();
  rig.spnav.events = {Motion(0, 0, 175, 0, 0, 0)};
  rig.devices().Update(0.0, dt);
  EXPECT_TRUE(rig.ui().devices[DeviceKind::kSpaceMouse].status.connected);
  EXPECT_NEAR(rig.target().x - before.x, kKeyboardSpeed * 2.0 * kHalfThroughDeadZone * dt, 1e-12);
  EXPECT_NEAR(rig.target().y, before.y, 1e-12);
  EXPECT_NEAR(rig.target().z, before.z, 1e-12);
  EXPECT_EQ(rig.ui().devices.last_used, static_cast<int>(DeviceKind::kSpaceMouse));

  // No new event: the deflection holds, and moves it again.
  before = rig.target();
  rig.devices().Update(0.02, dt);
  EXPECT_NEAR(rig.target().x - before.x, kKeyboardSpeed * 2.0 * kHalfThroughDeadZone * dt, 1e-12);

  // Left (spnav x < 0) is +y, lift (spnav y > 0) +z, twist (ry) yaw, tilt (rx) tilt.
  before = rig.target();
  rig.spnav.events = {Motion(-350, 350, 0, 175, -350, 0)};
  rig.devices().Update(0.04, dt);
  EXPECT_NEAR(rig.target().x, before.x, 1e-12);
  EXPECT_NEAR(rig.target().y - before.y, kKeyboardSpeed * 2.0 * dt, 1e-12);
  EXPECT_NEAR(rig.target().z - before.z, kKeyboardSpeed * 2.0 * dt, 1e-12);
  EXPECT_NEAR(rig.target().yaw - before.yaw, -kKeyboardTurnRate * 2.0 * dt, 1e-12);
  EXPECT_NEAR(rig.target().tilt - before.tilt, kKeyboardTurnRate * 2.0 * kHalfThroughDeadZone * dt, 1e-12);

  // Axis lock: z locked, the same deflection moves everything but z.
  rig.settings(DeviceKind::kSpaceMouse).locked[kTeleopZ] = true;
  before = rig.target();
  rig.devices().Update(0.06, dt);
  EXPECT_NEAR(rig.target().z, before.z, 1e-12);
  EXPECT_NEAR(rig.target().y - before.y, kKeyboardSpeed * 2.0 * dt, 1e-12);

  // Inside the dead zone (20 / 350 < 0.1): nothing moves.
  before = rig.target();
  rig.spnav.events = {Motion(20, -20, 20, 20, 20, 20)};
  rig.devices().Update(0.08, dt);
  EXPECT_EQ(rig.target().x, before.x);
  EXPECT_EQ(rig.target().y, before.y);
  EXPECT_EQ(rig.target().yaw, before.yaw);

  // A wider dead zone swallows half a deflection too.
  rig.settings(DeviceKind::kSpaceMouse).dead_zone = 0.6;
  rig.spnav.events = {Motion(0, 0, 175, 0, 0, 0)};
  rig.devices().Update(0.10, dt);
  EXPECT_EQ(rig.target().x, before.x);
}

TEST(DeviceSpaceMouseTest, NoMotionWithoutTeleopFocus) {
  DeviceRig rig("grasp_box.yaml");
  const GripperPose before = rig.target();
  rig.spnav.events = {Motion(0, 0, 350, 0, 0, 0)};
  rig.devices().Update(0.0, 0.05);
  EXPECT_EQ(rig.target().x, before.x);
}

TEST(DeviceSpaceMouseTest, ButtonsToggleTheGraspAndTheTake) {
  DeviceRig rig("grasp_box.yaml");
  rig.session().SetTeleop(true);
  ASSERT_NE(rig.session().controller()->grip(), GripState::kClosed);
  rig.spnav.events = {Button(0, true), Button(0, false)};  // Pressed and let go within one frame.
  rig.devices().Update(0.0, 0.02);
  EXPECT_EQ(rig.session().controller()->grip(), GripState::kClosed);
  rig.devices().Update(0.02, 0.02);  // Nothing new: no second toggle.
  EXPECT_EQ(rig.session().controller()->grip(), GripState::kClosed);
  rig.spnav.events = {Button(0, true)};
  rig.devices().Update(0.04, 0.02);
  EXPECT_EQ(rig.session().controller()->grip(), GripState::kOpen);

  // Button 2: start a take, then stop it (as Record / Stop).
  rig.spnav.events = {Button(0, false), Button(2, true), Button(2, false)};
  rig.devices().Update(0.06, 0.02);
  EXPECT_EQ(rig.takes_started, 1);
  EXPECT_TRUE(rig.session().recorder().recording());
  rig.spnav.events = {Button(2, true)};
  rig.devices().Update(0.08, 0.02);
  EXPECT_EQ(rig.takes_stopped, 1);
  EXPECT_FALSE(rig.session().recorder().recording());

  // Button 3: teleop focus off and on.
  rig.spnav.events = {Button(3, true), Button(3, false)};
  rig.devices().Update(0.10, 0.02);
  EXPECT_FALSE(rig.session().teleop());
}

TEST(DeviceSpaceMouseTest, NextGripperButtonMovesTeleopToTheNextGripper) {
  DeviceRig rig("two_arm_stack.yaml");
  ASSERT_GE(rig.session().num_grippers(), 2);
  rig.session().SetTeleop(true);
  EXPECT_EQ(rig.session().selected(), 0);
  rig.spnav.events = {Button(1, true)};
  rig.devices().Update(0.0, 0.02);
  EXPECT_EQ(rig.session().selected(), 1);
}

TEST(DeviceSpaceMouseTest, NoDaemonIsANoteAndItReconnectsLater) {
  // The real libspnav source: no spacenavd runs here.
  SpaceMouseDevice real(MakeLibspnavSource());
  const SixDofReading r = real.Poll(0.0);
  EXPECT_FALSE(real.status().connected);
  EXPECT_FALSE(real.status().note.empty());
  std::printf("SpaceMouse without a daemon: %s\n", real.status().note.c_str());
  for (double a : r.axes) EXPECT_EQ(a, 0);

  // In the viewer: a note in the Device row, no error in the message line.
  DeviceRig rig("grasp_box.yaml");
  rig.devices().SetDevice(std::make_unique<SpaceMouseDevice>(MakeLibspnavSource()));
  rig.session().SetTeleop(true);
  rig.devices().Update(0.0, 0.02);
  EXPECT_FALSE(rig.ui().message_is_error);
  EXPECT_FALSE(rig.ui().devices[DeviceKind::kSpaceMouse].status.note.empty());

  // The daemon starts later: tried again every 2 s, then connected.
  ScriptedSpnav::Script script;
  script.daemon_up = false;
  SpaceMouseDevice later(std::make_unique<ScriptedSpnav>(&script));
  later.Poll(0.0);
  EXPECT_EQ(script.opens, 1);
  script.daemon_up = true;
  later.Poll(1.0);
  EXPECT_EQ(script.opens, 1);  // Not before 2 s.
  EXPECT_FALSE(later.status().connected);
  script.events = {Motion(350, 0, 0, 0, 0, 0)};
  EXPECT_EQ(later.Poll(2.0).axes[0], 1.0);
  EXPECT_TRUE(later.status().connected);
  // The daemon goes away: a note, zeros, and a new attempt 2 s on.
  script.lost = true;
  EXPECT_EQ(later.Poll(3.0).axes[0], 0.0);
  EXPECT_FALSE(later.status().connected);
  later.Poll(4.0);
  EXPECT_EQ(script.opens, 2);
  later.Poll(5.0);
  EXPECT_EQ(script.opens, 3);
  EXPECT_TRUE(later.status().connected);
}

TEST(DeviceGamepadTest, ScriptedStateMovesTheTargetAsMapped) {
  DeviceRig rig("welcome.yaml");
  rig.session().SetTeleop(true);
  rig.pad.connected = true;
  rig.pad.state = test::RestingPad();
  const double dt = 0.05;
  // Left stick fully up (GLFW: −1), right stick half left, right trigger fully in.
  rig.pad.state.axes[GLFW_GAMEPAD_AXIS_LEFT_Y] = -1.0f;
  rig.pad.state.axes[GLFW_GAMEPAD_AXIS_RIGHT_X] = -0.5f;
  rig.pad.state.axes[GLFW_GAMEPAD_AXIS_RIGHT_TRIGGER] = 1.0f;
  GripperPose before = rig.target();
  rig.devices().Update(0.0, dt);
  EXPECT_TRUE(rig.ui().devices[DeviceKind::kGamepad].status.connected);
  EXPECT_EQ(rig.ui().devices[DeviceKind::kGamepad].status.name, "gamepad 'Scripted Pad'");
  EXPECT_NEAR(rig.target().x - before.x, kKeyboardSpeed * dt, 1e-12);
  EXPECT_NEAR(rig.target().y, before.y, 1e-12);
  EXPECT_NEAR(rig.target().yaw - before.yaw, kKeyboardTurnRate * kHalfThroughDeadZone * dt, 1e-12);
  EXPECT_NEAR(rig.target().tilt - before.tilt, kKeyboardTurnRate * dt, 1e-12);

  // Sensitivity 0.5 halves the rate.
  rig.settings(DeviceKind::kGamepad).sensitivity = 0.5;
  before = rig.target();
  rig.devices().Update(0.02, dt);
  EXPECT_NEAR(rig.target().x - before.x, 0.5 * kKeyboardSpeed * dt, 1e-12);

  // A held: one toggle, not one per frame.
  rig.pad.state = test::RestingPad();
  rig.pad.state.buttons[GLFW_GAMEPAD_BUTTON_A] = GLFW_PRESS;
  rig.devices().Update(0.04, dt);
  rig.devices().Update(0.06, dt);
  EXPECT_EQ(rig.session().controller()->grip(), GripState::kClosed);

  // Pulled out: a note, said in the message line (not as an error), and nothing moves.
  rig.pad.connected = false;
  before = rig.target();
  rig.pad.state.axes[GLFW_GAMEPAD_AXIS_LEFT_Y] = -1.0f;
  rig.devices().Update(0.08, dt);
  EXPECT_FALSE(rig.ui().devices[DeviceKind::kGamepad].status.connected);
  EXPECT_EQ(rig.ui().devices[DeviceKind::kGamepad].status.note, "gamepad disconnected");
  EXPECT_EQ(rig.ui().message, "gamepad 'Scripted Pad': gamepad disconnected");
  EXPECT_FALSE(rig.ui().message_is_error);
  EXPECT_EQ(rig.target().x, before.x);
  // Plugged in again: picked up at the next frame; A, already down as it
  // connects, is not a press.
  ASSERT_EQ(rig.pad.state.buttons[GLFW_GAMEPAD_BUTTON_A], GLFW_PRESS);
  const GripState grip = rig.session().controller()->grip();
  rig.pad.connected = true;
  rig.devices().Update(0.10, dt);
  EXPECT_EQ(rig.ui().message, "gamepad 'Scripted Pad' connected");
  EXPECT_GT(rig.target().x, before.x);
  EXPECT_EQ(rig.session().controller()->grip(), grip);
}

TEST(DeviceGamepadTest, StartTheTakeThenKeepOrDropItFromThePad) {
  DeviceRig rig("grasp_box.yaml");
  rig.session().SetTeleop(true);
  rig.pad.connected = true;
  const double dt = 0.05;
  double t = 0;
  auto press = [&](int button) {
    rig.pad.state = test::RestingPad();
    rig.pad.state.buttons[button] = GLFW_PRESS;
    rig.devices().Update(t += 0.02, dt);
    rig.pad.state = test::RestingPad();
    rig.devices().Update(t += 0.02, dt);
  };
  rig.pad.state = test::RestingPad();
  rig.devices().Update(t, dt);
  press(GLFW_GAMEPAD_BUTTON_START);  // record: the take starts ...
  EXPECT_EQ(rig.takes_started, 1);
  press(GLFW_GAMEPAD_BUTTON_START);  // ... and stops.
  EXPECT_EQ(rig.takes_stopped, 1);
  press(GLFW_GAMEPAD_BUTTON_Y);
  EXPECT_EQ(rig.takes_kept_success, 1);
  press(GLFW_GAMEPAD_BUTTON_B);
  EXPECT_EQ(rig.takes_kept_failure, 1);
  press(GLFW_GAMEPAD_BUTTON_X);
  EXPECT_EQ(rig.takes_discarded, 1);
  EXPECT_EQ(rig.takes_kept_success, 1);  // Each button once, nothing else.
}

TEST(DeviceConfigTest, RemapsKeysAndDevices) {
  std::vector<std::string> problems;
  const InputConfig c = ParseInputConfig(
      "# teleop on IJKL\n"
      "key.teleop.x+ = I\n"
      "key.teleop.x- = K\n"
      "key.faster = F5, KP_Add   # two keys\n"
      "spacemouse.sensitivity = 1.5\n"
      "spacemouse.dead_zone = 0.2\n"
      "spacemouse.lock = z, tilt\n"
      "spacemouse.axis.yaw = -rz\n"
      "spacemouse.button.1 = record\n"
      "gamepad.button.b = grasp\n"
      "gamepad.axis.tilt = none\n",
      "input.ini", &problems);
  EXPECT_TRUE(problems.empty()) << problems.front();
  EXPECT_EQ(c.keys.Find(GLFW_KEY_I, true), KeyAction::kTeleopXPlus);
  EXPECT_EQ(c.keys.Find(GLFW_KEY_W, true), std::nullopt);
  EXPECT_EQ(c.keys.Find(GLFW_KEY_K, true), KeyAction::kTeleopXMinus);
  EXPECT_EQ(c.keys.Find(GLFW_KEY_F5, false), KeyAction::kFaster);
  EXPECT_EQ(c.keys.Find(GLFW_KEY_EQUAL, false), std::nullopt);
  EXPECT_EQ(c.spacemouse.settings.sensitivity, 1.5);
  EXPECT_EQ(c.spacemouse.settings.dead_zone, 0.2);
  EXPECT_TRUE(c.spacemouse.settings.locked[kTeleopZ]);
  EXPECT_TRUE(c.spacemouse.settings.locked[kTeleopTilt]);
  EXPECT_FALSE(c.spacemouse.settings.locked[kTeleopX]);
  EXPECT_EQ(c.spacemouse.axes[kTeleopYaw].axis, 5);
  EXPECT_EQ(c.spacemouse.axes[kTeleopYaw].sign, -1);
  EXPECT_EQ(c.spacemouse.buttons[1], DeviceAction::kRecord);
  EXPECT_EQ(c.gamepad.buttons[GLFW_GAMEPAD_BUTTON_B], DeviceAction::kGrasp);
  EXPECT_EQ(c.gamepad.axes[kTeleopTilt].axis, -1);

  // The F1 list shows the map in effect.
  const std::vector<Binding> list = KeyBindings(c.keys, DeviceUi{});
  bool found = false;
  for (const Binding& b : list) found = found || b.input == "Teleop: I / K, A / D, R / F";
  EXPECT_TRUE(found);
}

TEST(DeviceConfigTest, SettingsCopiedFromTheDeviceRowsReadBackTheSame) {
  DeviceMapping tuned = DefaultGamepadMapping();
  tuned.settings.sensitivity = 1.75;
  tuned.settings.dead_zone = 0.25;
  tuned.settings.locked[kTeleopZ] = true;
  tuned.settings.locked[kTeleopYaw] = true;
  const std::string lines = FormatDeviceSettings(tuned);
  EXPECT_EQ(lines, "gamepad.sensitivity = 1.75\ngamepad.dead_zone = 0.25\ngamepad.lock = z, yaw\n");
  std::vector<std::string> problems;
  const InputConfig c = ParseInputConfig(lines, "input.ini", &problems);
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ(c.gamepad.settings.sensitivity, 1.75);
  EXPECT_EQ(c.gamepad.settings.dead_zone, 0.25);
  EXPECT_EQ(c.gamepad.settings.locked, tuned.settings.locked);
  EXPECT_EQ(c.spacemouse.settings.sensitivity, 1.0);  // The other device untouched.
}

TEST(DeviceConfigTest, BadEntriesNameFileLineAndKeyAndKeepTheDefault) {
  std::vector<std::string> problems;
  const InputConfig c = ParseInputConfig(
      "key.teleop.x+ = I\n"
      "key.teleop.y+ = Foo\n"
      "spacemouse.sensitivity = 9\n"
      "key.teleop.grasp = I\n"
      "gamepad.button.z = grasp\n"
      "no equals sign\n"
      "key.pause = Tab\n",
      "/home/u/.config/stiction/input.ini", &problems);
  for (const std::string& p : problems) std::printf("%s\n", p.c_str());
  ASSERT_EQ(problems.size(), 6u);
  EXPECT_EQ(problems[0].rfind("/home/u/.config/stiction/input.ini:2: key.teleop.y+: unknown key 'Foo'", 0), 0u)
      << problems[0];
  EXPECT_EQ(problems[1].rfind("/home/u/.config/stiction/input.ini:3: spacemouse.sensitivity: expected", 0), 0u)
      << problems[1];
  EXPECT_EQ(problems[2].rfind("/home/u/.config/stiction/input.ini:5: gamepad.button.z: unknown gamepad button", 0), 0u)
      << problems[2];
  EXPECT_EQ(problems[3].rfind("/home/u/.config/stiction/input.ini:6: no equals sign: expected KEY = VALUE", 0), 0u);
  EXPECT_EQ(problems[4].rfind("/home/u/.config/stiction/input.ini:7: key.pause: Tab is reserved", 0), 0u);
  // The clash: line 4 took line 1's key, so line 4 goes back to G.
  EXPECT_EQ(problems[5],
            "/home/u/.config/stiction/input.ini:4: key.teleop.grasp: I is already the key of teleop.x+; the default "
            "(G) is kept");
  // Defaults kept for the bad entries, the good one applied.
  EXPECT_EQ(c.keys.Find(GLFW_KEY_A, true), KeyAction::kTeleopYPlus);
  EXPECT_EQ(c.keys.Find(GLFW_KEY_G, true), KeyAction::kTeleopGrasp);
  EXPECT_EQ(c.keys.Find(GLFW_KEY_I, true), KeyAction::kTeleopXPlus);
  EXPECT_EQ(c.keys.Find(GLFW_KEY_SPACE, false), KeyAction::kPause);
  EXPECT_EQ(c.spacemouse.settings.sensitivity, 1.0);
}

TEST(DeviceConfigTest, MissingFileMeansDefaultsAndTheViewerShowsTheFirstProblem) {
  std::vector<std::string> problems;
  const InputConfig c = LoadInputConfig("/nonexistent/stiction/input.ini", &problems);
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ(c.keys.Find(GLFW_KEY_W, true), KeyAction::kTeleopXPlus);
  EXPECT_EQ(InputConfigPathBeside("/home/u/.config/stiction/viewer.ini"), "/home/u/.config/stiction/input.ini");

  const std::filesystem::path path = stiction::test::FreshTempPath("device_config", "input.ini");
  std::ofstream(path) << "# mine\nkey.teleop.x+ = I\nspacemouse.dead_zone = 2\n";
  DeviceRig rig("grasp_box.yaml", path.string());
  EXPECT_EQ(rig.ui().keys.Find(GLFW_KEY_I, true), KeyAction::kTeleopXPlus);
  rig.devices().Update(0.0, 0.02);
  EXPECT_TRUE(rig.ui().message_is_error);
  EXPECT_EQ(rig.ui().message.rfind(path.string() + ":3: spacemouse.dead_zone: expected", 0), 0u) << rig.ui().message;
  EXPECT_EQ(rig.ui().devices[DeviceKind::kSpaceMouse].mapping.settings.dead_zone, 0.1);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace stiction::app
