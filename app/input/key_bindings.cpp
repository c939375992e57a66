#include "app/input/key_bindings.h"

namespace stiction::app {

std::vector<Binding> KeyBindings(const KeyMap& k, const DeviceUi& devices) {
  using A = KeyAction;
  const auto keys = [&](A a) { return k.Text(a); };
  const auto pairs = [&](std::initializer_list<std::pair<A, A>> list) {
    std::string text;
    for (const auto& [plus, minus] : list) text += (text.empty() ? "" : ", ") + keys(plus) + " / " + keys(minus);
    return text;
  };
  std::vector<Binding> b = {
      {"Left drag", "Orbit the camera about the look-at point"},
      {"Right drag", "Pan the camera in the view plane"},
      {"Shift + right drag", "Pan the camera in the horizontal plane"},
      {"Middle drag, scroll", "Zoom"},
      {"Double-click (left)", "Select the body under the cursor (empty space: deselect)"},
      {"Double-click (right)", "Centre the view on the point under the cursor"},
      {"Alt + left click", "Inspect the nearest contact point within 10 px (elsewhere: clear)"},
      {"Ctrl + left drag", "Rotate the selected body (spring, COM held in place)"},
      {"Ctrl + right drag", "Pull the selected body by the picked point (spring)"},
      {"Ctrl + Shift + right drag", "Pull the selected body in the horizontal plane"},
      {keys(A::kPause), "Pause / run"},
      {keys(A::kStep), "Single step (pauses); after a step back, forward through the timeline"},
      {keys(A::kStepBack), "One step back through the timeline (pauses)"},
      {keys(A::kReset), "Reset to t = 0"},
      {keys(A::kFaster) + " ; " + keys(A::kSlower), "Real-time factor faster / slower (x2 / x0.5)"},
      {"Ctrl + L", "Reload the scene file (keeps the camera)"},
      {"Ctrl + P", "Screenshot to PNG"},
      {keys(A::kRecordVideo), "Start / stop recording a video (MP4, frames at fixed simulated times)"},
      {keys(A::kDeselect), "Deselect the body and the inspected contact"},
      {"Tab", "Hide / show the left column (scene, simulation, recording, contact, solver, visualization)"},
      {"Shift + Tab", "Hide / show the right column (plots, gripper, contacts)"},
      {keys(A::kTeleop), "Teleop focus: mouse and keys drive the scene's gripper; without one, the selected link"},
      {"Teleop: left drag", "Move the gripper target in the horizontal plane"},
      {"Teleop: Shift + left drag, scroll", "Move the target up / down (scroll: 1 cm per notch)"},
      {"Teleop: Ctrl + left drag", "Turn the target about z (yaw)"},
      {"Teleop: Alt + left drag", "Tilt an arm's target about its horizontal x axis (±90°)"},
      {"Teleop: right drag", "Orbit the camera"},
      {"Teleop: " + pairs({{A::kTeleopXPlus, A::kTeleopXMinus},
                           {A::kTeleopYPlus, A::kTeleopYMinus},
                           {A::kTeleopZPlus, A::kTeleopZMinus}}),
       "Move the target along x, y, z while held (0.15 m/s; world axes)"},
      {"Teleop: " + pairs({{A::kTeleopYawPlus, A::kTeleopYawMinus}, {A::kTeleopTiltPlus, A::kTeleopTiltMinus}}),
       "Turn the target about z (yaw), tilt an arm's target (0.8 rad/s while held)"},
      {"Teleop: " + keys(A::kTeleopGrasp),
       "Open / close the gripper or every finger of the hand (closing presses with the grip force or the fingers' "
       "effort limits)"},
      {"Teleop: " + keys(A::kTeleopNext), "Several grippers: teleoperate the next one"},
      {"Teleop: " + keys(A::kTeleopRecord), "Start / stop a recording without leaving teleop"},
      {"Teleop: " + keys(A::kTeleopTake), "Start / stop a take (as Record / Stop: from t = 0, every gripper command)"},
      {"Teleop: " + keys(A::kTeleopKeepSuccess) + " / " + keys(A::kTeleopKeepFailure) + " / " +
           keys(A::kTeleopDiscard),
       "Keep the stopped take in the dataset as a success / as a failure, or discard it (docs/datasets.md)"},
      {"Teleop: " + keys(A::kTeleopLeave), "Leave teleop focus (other keys do nothing while in it)"},
      {keys(A::kHelp), "This list"},
      {keys(A::kInfo), "Hide / show the info overlay"},
      {"Drop a .yaml file", "Open it"},
  };
  // The devices' buttons (docs/teleop.md "Input devices"): grasp opens /
  // closes, next_gripper teleoperates the next gripper, record starts /
  // stops a take (as Record / Stop), teleop turns teleop focus on / off.
  for (const DeviceEntry& d : devices.devices) {
    const DeviceMapping& m = d.mapping;
    std::string map;
    for (int button = 0; button < kMaxDeviceButtons; ++button) {
      const DeviceAction action = m.buttons[static_cast<std::size_t>(button)];
      if (action == DeviceAction::kNone) continue;
      map += (map.empty() ? "" : ", ") + DeviceButtonName(m.kind, button) + ": " + DeviceActionName(action);
    }
    b.push_back({m.kind == DeviceKind::kSpaceMouse ? "SpaceMouse buttons" : "Gamepad buttons",
                 map.empty() ? "(none)" : map});
  }
  b.push_back({"SpaceMouse / gamepad (teleop)", "Move and turn the target (Gripper section: Device)"});
  return b;
}

std::vector<Binding> KeyBindings() { return KeyBindings(KeyMap(), DeviceUi()); }

std::string FirstKeyName(const KeyMap& keys, KeyAction action) {
  const std::vector<int>& k = keys.keys(action);
  return k.empty() ? "-" : KeyName(k.front());
}

std::string MotionKeysText(const KeyMap& keys, bool can_tilt) {
  constexpr const char* kAxes[] = {"x", "y", "z", "yaw", "tilt"};
  std::string text;
  for (int a = 0; a < (can_tilt ? 5 : 4); ++a) {
    const auto plus = static_cast<KeyAction>(static_cast<int>(KeyAction::kTeleopXPlus) + 2 * a);
    const auto minus = static_cast<KeyAction>(static_cast<int>(KeyAction::kTeleopXPlus) + 2 * a + 1);
    text += (a == 0 ? "" : ", ") + FirstKeyName(keys, plus) + "/" + FirstKeyName(keys, minus) + " " + kAxes[a];
  }
  return text;
}

std::string HintMoveKeys(const KeyMap& keys) {
  using A = KeyAction;
  std::string text;
  for (A a : {A::kTeleopXPlus, A::kTeleopYPlus, A::kTeleopXMinus, A::kTeleopYMinus}) text += FirstKeyName(keys, a);
  return text + "/" + FirstKeyName(keys, A::kTeleopZPlus) + FirstKeyName(keys, A::kTeleopZMinus);
}

}  // namespace stiction::app
