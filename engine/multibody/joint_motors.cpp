#include "engine/multibody/joint_motors.h"

#include <algorithm>

namespace stiction {

double MotorEffort(const JointMotor& motor) {
  const double ctrl = std::clamp(motor.ctrl, motor.ctrl_min, motor.ctrl_max);
  return std::clamp(motor.gain * ctrl, -motor.effort_limit, motor.effort_limit);
}

void AddMotorForces(const std::vector<JointMotor>& motors, VectorX* tau) {
  for (const JointMotor& motor : motors) {
    const double u = MotorEffort(motor);
    for (const auto& [v, c] : motor.velocities) (*tau)[v] += c * u;
  }
}

}  // namespace stiction
