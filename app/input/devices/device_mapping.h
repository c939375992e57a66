#pragma once
// From a device's reading to what it does (docs/teleop.md "Input devices"):
// each teleop axis (x, y, z, yaw, tilt) takes one device axis, with a sign;
// a dead zone, the sensitivity and the axis locks apply; each button may
// trigger one action. The same code maps every backend's readings, the
// scripted ones of the tests included.
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "app/input/devices/six_dof_device.h"

namespace stiction::app {

/// The teleop target's axes, as GripperSession::Nudge takes them.
enum TeleopAxis { kTeleopX, kTeleopY, kTeleopZ, kTeleopYaw, kTeleopTilt, kNumTeleopAxes };
const char* TeleopAxisName(int axis);  ///< "x", "y", "z", "yaw", "tilt".

enum class DeviceAction { kNone, kGrasp, kNextGripper, kRecord, kTeleop, kKeepSuccess, kKeepFailure, kDiscard };
/// "none", "grasp", "next_gripper", "record", "teleop", "keep_success",
/// "keep_failure", "discard".
const char* DeviceActionName(DeviceAction action);
std::optional<DeviceAction> ParseDeviceAction(std::string_view name);

/// A teleop axis's source: device axis `axis` (−1: none) times `sign` (±1).
struct AxisSource {
  int axis = -1;
  double sign = 1;
};

/// What the Gripper panel's Device row edits (live).
struct DeviceSettings {
  double sensitivity = 1.0;  ///< Rate at full deflection, × the keyboard's (0.15 m/s, 0.8 rad/s); [0.1, 4].
  double dead_zone = 0.1;    ///< Deflection (fraction of full) below which an axis reads 0; [0, 0.9].
  std::array<bool, kNumTeleopAxes> locked{};  ///< An axis locked does not move.
};
inline constexpr double kMinSensitivity = 0.1, kMaxSensitivity = 4.0;
inline constexpr double kMaxDeadZone = 0.9;

struct DeviceMapping {
  DeviceKind kind = DeviceKind::kSpaceMouse;
  std::array<AxisSource, kNumTeleopAxes> axes;
  std::array<DeviceAction, kMaxDeviceButtons> buttons{};
  DeviceSettings settings;
};

/// The defaults (docs/teleop.md lists them).
DeviceMapping DefaultSpaceMouseMapping();
DeviceMapping DefaultGamepadMapping();

/// The device's axis names, in reading order (SpaceMouse: x y z rx ry rz;
/// gamepad: left_x left_y right_x right_y triggers dpad_y).
const char* DeviceAxisName(DeviceKind kind, int axis);
std::optional<int> ParseDeviceAxis(DeviceKind kind, std::string_view name);
/// A button's name (SpaceMouse: its number from 0; gamepad: a, b, x, y,
/// left_bumper, …, dpad_left, GLFW's order) and the reverse.
std::string DeviceButtonName(DeviceKind kind, int button);
std::optional<int> ParseDeviceButton(DeviceKind kind, std::string_view name);
/// "spacemouse" / "gamepad": the input file's prefix.
const char* DeviceKindName(DeviceKind kind);

/// A deflection in [−1, 1] through the dead zone: 0 inside it, rescaled
/// to reach ±1 at full deflection outside.
double ApplyDeadZone(double value, double dead_zone);

/// The teleop rates of `reading`: each axis in [−sensitivity, sensitivity]
/// (GripperSession::Nudge multiplies by its rates).
std::array<double, kNumTeleopAxes> TeleopRates(const SixDofReading& reading, const DeviceMapping& mapping);

}  // namespace stiction::app
