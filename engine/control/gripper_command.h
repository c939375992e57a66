#pragma once
// One gripper command: what the teleoperator (mouse, panel) or a command file
// asks of the gripper at a given step. docs/teleop.md documents the file form.
#include <cstdint>
#include <optional>

namespace stiction {

/// Target pose of the palm: for a gantry the joint coordinates of its x, y, z
/// (prismatic, [m]) and yaw (revolute, [rad]) actuators; for an arm the
/// end-effector position and its rotation from the start pose R_WE0,
/// R = Rz(yaw) · Rx(tilt) · R_WE0 (tilt about the world x axis, then yaw
/// about the world z axis). A gantry has no tilt (it must stay 0).
struct GripperPose {
  double x = 0, y = 0, z = 0;  ///< [m]
  double yaw = 0;              ///< [rad]
  double tilt = 0;             ///< [rad], arm only.
  bool operator==(const GripperPose&) const = default;
};

enum class GripState { kOpen, kClosed };

/// A command applied before step `step` (0 = before the first step). Unset
/// fields leave the controller's state unchanged.
struct GripperCommand {
  std::int64_t step = 0;
  /// The gripper it drives: its index in the scene's grippers (0 = the
  /// first, the only one of a `gripper:` scene).
  int gripper = 0;
  std::optional<GripperPose> target;
  /// With a target: move there linearly over this many steps (0 = at once).
  std::int64_t ramp_steps = 0;
  std::optional<GripState> grip;
  std::optional<double> grip_force;  ///< [N], in [kMinGripForce, kMaxGripForce].
};

}  // namespace stiction
