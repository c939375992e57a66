#pragma once
// Maps a gripper target (palm pose x, y, z, yaw, tilt; open/closed; grip force) to
// the scene's PD actuators by name (scene key `gripper:`, docs/teleop.md),
// or, for an arm (`end_effector:`), to the target of the simulation's
// Cartesian impedance 0 on the end-effector frame.
// The palm follows its target through the x/y/z/yaw actuators: PD rows with
// force and torque limits solved implicitly inside the convex SAP problem
// ([SAP] Sec. VII), so stiff gains stay stable. Closing is force control:
// the finger actuators aim at `finger_closed` (beyond any object) with their
// effort limit set to the grip force, so they saturate and press with it.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/control/gripper_command.h"
#include "engine/simulation.h"

namespace stiction {

/// What the controller drives a step with: the palm target for the end of
/// the step and its rate (non-zero only during a ramp), open/closed and the
/// grip force. A demonstration dataset's action (engine/dataset/).
struct GripperActuation {
  GripperPose target;  ///< [m], [rad]
  GripperPose rate;    ///< [m/s], [rad/s]
  GripState grip = GripState::kOpen;
  double grip_force = 20;  ///< [N]
  bool operator==(const GripperActuation&) const = default;
};

class GripperController {
 public:
  /// Reads the scene's gripper `index` (scene.grippers, in scene order) and
  /// the actuators' current positions as the initial target. Throws
  /// InputError if the scene has no such gripper.
  explicit GripperController(const Simulation& sim, int index = 0);

  /// The gripper's name in the scene ("gripper" for the `gripper:` key).
  const std::string& name() const { return name_; }

  /// Applies a command at its step: a new target (ramped from the target
  /// current at that step), grip state, grip force. Throws InputError for a
  /// non-finite target or a grip force outside [1, 50] N.
  void Apply(const GripperCommand& command);
  /// Writes the actuator targets and gains for the simulation's next step
  /// (sim->step_index()). Call before every Step().
  void Actuate(Simulation* sim) const { Actuate(sim, ActuationAt(sim->step_index(), sim->time_step())); }
  /// Writes `a` as the actuator targets and gains for the next step, whatever
  /// the controller's own state: a dataset's replay. Throws InputError for a
  /// non-finite target or rate or a grip force outside [1, 50] N.
  void Actuate(Simulation* sim, const GripperActuation& a) const;
  /// What Actuate writes before step `step` at time step `dt` [s].
  GripperActuation ActuationAt(std::int64_t step, double dt) const;

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

  /// Model body index of the palm (child of the yaw joint, or the arm's
  /// end-effector body).
  int palm_body() const { return palm_body_; }
  /// An arm's end-effector frame E on the palm body (identity for a gantry).
  const RigidTransform& X_BE() const { return X_BE_; }
  /// The fingers in scene order (two-finger shorthand: left, right).
  int num_fingers() const { return static_cast<int>(fingers_.size()); }
  const std::string& finger_name(int f) const { return fingers_[f].name; }
  /// The finger's first link (child of its first actuator's joint).
  int finger_body(int f) const { return fingers_[f].bodies.front(); }
  /// The finger's links: its first link and everything outboard of it.
  const std::vector<int>& finger_bodies(int f) const { return fingers_[f].bodies; }
  /// Whether the fingers press with the grip force (two-finger shorthand);
  /// a hand's fingers press with their actuators' own effort limits.
  bool grip_force_limited() const { return grip_force_limited_; }
  /// Whether the target can tilt (an arm); the gantry has no tilt axis.
  bool can_tilt() const { return arm_; }
  /// Every body moved by the gripper's joints (links, palm, fingers).
  const std::vector<int>& bodies() const { return bodies_; }
  bool IsGripperBody(int body) const;
  /// World poses of the gripper's bodies with the palm at its current target
  /// (fingers as they are now): the viewer's ghost.
  std::vector<std::pair<int, RigidTransform>> CalcTargetBodyPoses(const Simulation& sim) const;
  /// The palm's current pose: the gantry joints' coordinates (x, y, z [m],
  /// yaw [rad]), or an arm's end-effector position and its rotation since
  /// the start as a turn about the world z axis (yaw) after one about the
  /// horizontal x axis (tilt).
  GripperPose CurrentPose(const Simulation& sim) const;
  /// Bytes a copy holds (for a state history's memory cap).
  std::size_t Bytes() const;

 private:
  struct Axis {
    std::string actuator;
    int q_index = 0;
    double kp = 0, kd = 0;
  };
  Axis MakeAxis(const Simulation& sim, const std::string& actuator, int* child_body) const;
  /// Arm: the end-effector target for a palm pose (tilt about the yawed
  /// x axis, then yaw about world z).
  RigidTransform ArmTargetPose(const GripperPose& p) const;

  std::string name_;
  bool arm_ = false;  // Arm (Cartesian impedance impedance_) instead of gantry axes.
  int impedance_ = 0; // Arm: the simulation's controller for this gripper.
  RigidTransform X_BE_;             // Arm: the end-effector frame on palm_body_.
  Matrix3 R_WE0_ = Matrix3::Identity();  // Arm: E's orientation at yaw 0.
  struct FingerAxis {
    Axis axis;
    double open = 0, closed = 0;  // Targets [m] or [rad].
    double effort_limit = 0;      // The actuator's own [N] or [N m].
  };
  struct Finger {
    std::string name;
    std::vector<FingerAxis> axes;
    std::vector<int> bodies;  // First link first.
  };
  Axis axes_[4];  // x, y, z, yaw (gantry).
  std::vector<Finger> fingers_;
  bool grip_force_limited_ = true;
  int palm_body_ = 0;
  std::vector<int> bodies_;

  GripperPose ramp_from_, ramp_to_;
  std::int64_t ramp_start_ = 0, ramp_end_ = 0;
  GripState grip_ = GripState::kOpen;
  double grip_force_ = 20;
};

}  // namespace stiction
