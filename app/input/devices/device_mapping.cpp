#include "app/input/devices/device_mapping.h"

#include <algorithm>
#include <cmath>

namespace stiction::app {
namespace {

constexpr const char* kTeleopAxisNames[kNumTeleopAxes] = {"x", "y", "z", "yaw", "tilt"};
constexpr const char* kSpaceMouseAxes[kNumDeviceAxes] = {"x", "y", "z", "rx", "ry", "rz"};
constexpr const char* kGamepadAxes[kNumDeviceAxes] = {"left_x", "left_y", "right_x", "right_y", "triggers", "dpad_y"};
// GLFW's gamepad buttons, in GLFW_GAMEPAD_BUTTON_* order.
constexpr const char* kGamepadButtons[] = {"a",     "b",     "x",     "y",          "left_bumper",
                                           "right_bumper", "back", "start", "guide", "left_thumb",
                                           "right_thumb",  "dpad_up", "dpad_right", "dpad_down", "dpad_left"};
constexpr int kNumGamepadButtons = sizeof kGamepadButtons / sizeof kGamepadButtons[0];

struct NamedAction {
  DeviceAction action;
  const char* name;
};
constexpr NamedAction kActions[] = {{DeviceAction::kNone, "none"},
                                    {DeviceAction::kGrasp, "grasp"},
                                    {DeviceAction::kNextGripper, "next_gripper"},
                                    {DeviceAction::kRecord, "record"},
                                    {DeviceAction::kTeleop, "teleop"},
                                    {DeviceAction::kKeepSuccess, "keep_success"},
                                    {DeviceAction::kKeepFailure, "keep_failure"},
                                    {DeviceAction::kDiscard, "discard"}};

}  // namespace

const char* TeleopAxisName(int axis) { return axis >= 0 && axis < kNumTeleopAxes ? kTeleopAxisNames[axis] : "?"; }

const char* DeviceActionName(DeviceAction action) {
  for (const NamedAction& a : kActions) {
    if (a.action == action) return a.name;
  }
  return "?";
}

std::optional<DeviceAction> ParseDeviceAction(std::string_view name) {
  for (const NamedAction& a : kActions) {
    if (name == a.name) return a.action;
  }
  return std::nullopt;
}

const char* DeviceKindName(DeviceKind kind) { return kind == DeviceKind::kSpaceMouse ? "spacemouse" : "gamepad"; }

const char* DeviceAxisName(DeviceKind kind, int axis) {
  if (axis < 0 || axis >= kNumDeviceAxes) return "none";
  return kind == DeviceKind::kSpaceMouse ? kSpaceMouseAxes[axis] : kGamepadAxes[axis];
}

std::optional<int> ParseDeviceAxis(DeviceKind kind, std::string_view name) {
  for (int a = 0; a < kNumDeviceAxes; ++a) {
    if (name == DeviceAxisName(kind, a)) return a;
  }
  return std::nullopt;
}

std::string DeviceButtonName(DeviceKind kind, int button) {
  if (kind == DeviceKind::kGamepad) return button >= 0 && button < kNumGamepadButtons ? kGamepadButtons[button] : "?";
  return std::to_string(button);
}

std::optional<int> ParseDeviceButton(DeviceKind kind, std::string_view name) {
  if (kind == DeviceKind::kGamepad) {
    for (int b = 0; b < kNumGamepadButtons; ++b) {
      if (name == kGamepadButtons[b]) return b;
    }
    return std::nullopt;
  }
  if (name.empty() || name.size() > 2) return std::nullopt;
  int b = 0;
  for (char c : name) {
    if (c < '0' || c > '9') return std::nullopt;
    b = b * 10 + (c - '0');
  }
  if (b >= kMaxDeviceButtons) return std::nullopt;
  return b;
}

DeviceMapping DefaultSpaceMouseMapping() {
  // libspnav's axes: x right, y up, z away from the user; rx, ry, rz the
  // cap's rotation about them. Push forward: +x, left: +y, lift: +z, twist
  // about the vertical: yaw, tilt forward/back: tilt. rz (roll) is unused:
  // the target has no roll.
  DeviceMapping m;
  m.kind = DeviceKind::kSpaceMouse;
  m.axes[kTeleopX] = {2, 1};
  m.axes[kTeleopY] = {0, -1};
  m.axes[kTeleopZ] = {1, 1};
  m.axes[kTeleopYaw] = {4, 1};
  m.axes[kTeleopTilt] = {3, 1};
  m.buttons[0] = DeviceAction::kGrasp;
  m.buttons[1] = DeviceAction::kNextGripper;
  m.buttons[2] = DeviceAction::kRecord;
  m.buttons[3] = DeviceAction::kTeleop;
  m.buttons[4] = DeviceAction::kKeepSuccess;  // Larger SpaceMice: the takes as demonstrations.
  m.buttons[5] = DeviceAction::kKeepFailure;
  m.buttons[6] = DeviceAction::kDiscard;
  return m;
}

DeviceMapping DefaultGamepadMapping() {
  // Left stick: up +x, left +y; right stick: up +z, left turns (+yaw);
  // triggers: tilt (right +, left −).
  DeviceMapping m;
  m.kind = DeviceKind::kGamepad;
  m.axes[kTeleopX] = {1, 1};
  m.axes[kTeleopY] = {0, -1};
  m.axes[kTeleopZ] = {3, 1};
  m.axes[kTeleopYaw] = {2, -1};
  m.axes[kTeleopTilt] = {4, 1};
  m.buttons[0] = DeviceAction::kGrasp;        // A
  m.buttons[5] = DeviceAction::kNextGripper;  // right bumper
  m.buttons[7] = DeviceAction::kRecord;       // start
  m.buttons[6] = DeviceAction::kTeleop;       // back
  m.buttons[3] = DeviceAction::kKeepSuccess;  // Y
  m.buttons[1] = DeviceAction::kKeepFailure;  // B
  m.buttons[2] = DeviceAction::kDiscard;      // X
  return m;
}

double ApplyDeadZone(double value, double dead_zone) {
  value = std::clamp(value, -1.0, 1.0);
  const double magnitude = std::abs(value);
  if (magnitude <= dead_zone || dead_zone >= 1) return 0;
  return std::copysign((magnitude - dead_zone) / (1 - dead_zone), value);
}

std::array<double, kNumTeleopAxes> TeleopRates(const SixDofReading& reading, const DeviceMapping& mapping) {
  std::array<double, kNumTeleopAxes> rates{};
  const DeviceSettings& s = mapping.settings;
  for (int a = 0; a < kNumTeleopAxes; ++a) {
    const AxisSource& source = mapping.axes[static_cast<std::size_t>(a)];
    if (s.locked[static_cast<std::size_t>(a)] || source.axis < 0 || source.axis >= kNumDeviceAxes) continue;
    const double v = ApplyDeadZone(reading.axes[static_cast<std::size_t>(source.axis)], s.dead_zone);
    rates[static_cast<std::size_t>(a)] = source.sign * s.sensitivity * v;
  }
  return rates;
}

}  // namespace stiction::app
