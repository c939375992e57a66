#pragma once
// Maps a gripper target (palm pose x, y, z, yaw; open/closed; grip force) to
// the scene's PD actuators by name (scene key `gripper:`, docs/teleop.md),
// or, for an arm (`end_effector:`), to the target of the simulation's
// Cartesian impedance 0 on the end-effector frame.
// The palm follows its target through the x/y/z/yaw actuators: PD rows with
// force and torque limits solved implicitly inside the convex SAP problem
// ([SAP] Sec. VII), so stiff gains stay stable. Closing is force control:
// the finger actuators aim at `finger_closed` (beyond any object) with their
// effort limit set to the grip force, so they saturate and press with it.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/control/gripper_command.h"
#include "engine/simulation.h"

namespace stiction {

class GripperController {
 public:
  /// Reads the scene's `gripper:` section and the actuators' current
  /// positions as the initial target. Throws InputError if the scene has no
  /// gripper.
  explicit GripperController(const Simulation& sim);

  /// Applies a command at its step: a new target (ramped from the target
  /// current at that step), grip state, grip force. Throws InputError for a
  /// non-finite target or a grip force outside [1, 50] N.
  void Apply(const GripperCommand& command);
  /// Writes the actuator targets and gains for the simulation's next step
  /// (sim->step_index()). Call before every Step().
  void Actuate(Simulation* sim) const;

  /// The target the palm is driven to before step `step` (ramps interpolated;
  /// the value for the end of that step).
  GripperPose TargetAt(std::int64_t step) const;
  /// Where the current command ends (the final target of a ramp).
  const GripperPose& target() const { return ramp_to_; }
  GripState grip() const { return grip_; }
  double grip_force() const { return grip_force_; }  ///< [N]
  /// A command that sets the whole state (target, grip, force) at `step`:
  /// what a recording starts with.
  GripperCommand StateCommand(std::int64_t step) const;

  /// Model body indices: the palm (child of the yaw joint) and the fingers.
  int palm_body() const { return palm_body_; }
  int left_finger_body() const { return finger_bodies_[0]; }
  int right_finger_body() const { return finger_bodies_[1]; }
  /// Every body moved by the gripper's joints (links, palm, fingers).
  const std::vector<int>& bodies() const { return bodies_; }
  bool IsGripperBody(int body) const;
  /// World poses of the gripper's bodies with the palm at its current target
  /// (fingers as they are now): the viewer's ghost.
  std::vector<std::pair<int, RigidTransform>> CalcTargetBodyPoses(const Simulation& sim) const;
  /// The palm's current pose: the gantry joints' coordinates (x, y, z [m],
  /// yaw [rad]), or an arm's end-effector position and its turn about the
  /// world z axis since the start.
  GripperPose CurrentPose(const Simulation& sim) const;

 private:
  struct Axis {
    std::string actuator;
    int q_index = 0;
    double kp = 0, kd = 0;
  };
  Axis MakeAxis(const Simulation& sim, const std::string& actuator, int* child_body) const;
  /// Arm: the end-effector target for a palm pose (yaw about world z).
  RigidTransform ArmTargetPose(const GripperPose& p) const;

  bool arm_ = false;  // Arm (Cartesian impedance 0) instead of gantry axes.
  RigidTransform X_BE_;             // Arm: the end-effector frame on palm_body_.
  Matrix3 R_WE0_ = Matrix3::Identity();  // Arm: E's orientation at yaw 0.
  Axis axes_[4];     // x, y, z, yaw (gantry).
  Axis fingers_[2];  // left, right.
  double finger_open_ = 0, finger_closed_ = 0;
  int palm_body_ = 0;
  int finger_bodies_[2] = {0, 0};
  std::vector<int> bodies_;

  GripperPose ramp_from_, ramp_to_;
  std::int64_t ramp_start_ = 0, ramp_end_ = 0;
  GripState grip_ = GripState::kOpen;
  double grip_force_ = 20;
};

}  // namespace stiction
