#pragma once
// Motors (scene key `motors:`, MJCF <motor>): torque or force actuators
// without feedback. A motor's effort u = clamp(gain · clamp(ctrl, range),
// ±effort_limit) enters the step as the generalized force c_i · u on each of
// its joint velocities: an explicit force, known before the step, so there
// is nothing to solve for it (docs/scene-format.md, "Motors").
#include <limits>
#include <utility>
#include <vector>

#include "engine/common/eigen_types.h"

namespace stiction {

struct JointMotor {
  /// (index into v, coefficient c ≠ 0): the joints' velocities it drives.
  std::vector<std::pair<int, double>> velocities;
  double gain = 1;  ///< [N m or N per unit of ctrl], ≠ 0.
  double ctrl_min = -std::numeric_limits<double>::infinity();
  double ctrl_max = std::numeric_limits<double>::infinity();
  double ctrl = 0;  ///< The control [1], kept inside [ctrl_min, ctrl_max].
  double effort_limit = std::numeric_limits<double>::infinity();  ///< [N m or N], > 0.
};

/// The motor's effort u [N m or N] at its current control.
double MotorEffort(const JointMotor& motor);

/// Adds every motor's generalized force to *tau (size nv).
void AddMotorForces(const std::vector<JointMotor>& motors, VectorX* tau);

}  // namespace stiction
