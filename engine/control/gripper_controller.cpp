#include "engine/control/gripper_controller.h"

#include <algorithm>
#include <cmath>

#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/multibody/kinematics.h"

namespace stiction {
namespace {

// The world turn R = Rz(yaw) · Rx(tilt) (gripper_command.h).
Matrix3 YawTilt(double yaw, double tilt) {
  return (Eigen::AngleAxisd(yaw, Vector3::UnitZ()) * Eigen::AngleAxisd(tilt, Vector3::UnitX())).toRotationMatrix();
}

}  // namespace

GripperController::GripperController(const Simulation& sim, int index) {
  const std::vector<GripperDescription>& grippers = sim.scene().grippers;
  if (grippers.empty()) throw InputError("the scene has no gripper (scene key 'gripper')");
  if (index < 0 || index >= static_cast<int>(grippers.size())) {
    throw InputError("the scene has no gripper " + std::to_string(index) + " (it has " +
                     std::to_string(grippers.size()) + ")");
  }
  const GripperDescription& g = grippers[static_cast<size_t>(index)];
  name_ = g.name;
  // Arm grippers hold the simulation's Cartesian impedances in scene order.
  impedance_ = static_cast<int>(std::count_if(grippers.begin(), grippers.begin() + index,
                                              [](const GripperDescription& d) { return !d.end_effector_body.empty(); }));
  const MultibodyModel& model = sim.model();
  int root = 0;  // The first body that moves with the gripper.
  if (g.end_effector_body.empty()) {
    int child = 0;
    const std::string* names[4] = {&g.x, &g.y, &g.z, &g.yaw};
    for (int i = 0; i < 4; ++i) {
      axes_[i] = MakeAxis(sim, *names[i], &child);
      if (i == 0) root = child;
      if (i == 3) palm_body_ = child;
    }
  } else {
    // An arm: the simulation's Cartesian impedance impedance_ drives the frame E;
    // the target's yaw turns E about the world z axis from where it starts.
    arm_ = true;
    palm_body_ = model.FindBody(g.end_effector_body);
    X_BE_ = g.X_BE;
    if (palm_body_ <= 0 || sim.num_cartesian_impedances() <= impedance_) {
      throw InputError("gripper: end-effector body '" + g.end_effector_body + "' has no Cartesian impedance");
    }
    R_WE0_ = sim.CalcFramePose(g.end_effector_body, X_BE_).R;
    root = model.tree(model.body(palm_body_).tree).body_begin;
  }
  // An arm may have none (the viewer's teleop of a picked link): G then
  // has nothing to close.
  if (g.fingers.empty() && !arm_) throw InputError("gripper: no fingers");
  grip_force_limited_ = !g.fingers.empty() && g.fingers.front().grip_force_limited;
  for (const FingerDescription& d : g.fingers) {
    Finger finger{d.name, {}, {}};
    for (std::size_t i = 0; i < d.actuators.size(); ++i) {
      int child = 0;
      FingerAxis axis{MakeAxis(sim, d.actuators[i], &child), d.open[i], d.closed[i],
                      sim.actuator(d.actuators[i]).effort_limit};
      finger.axes.push_back(axis);
      if (i == 0) finger.bodies = model.Subtree(child);
    }
    fingers_.push_back(std::move(finger));
  }
  grip_force_ = g.grip_force;
  // Everything outboard of the first gripper body moves with the gripper
  // (for an arm, its whole tree).
  bodies_ = model.Subtree(root);
  ramp_from_ = ramp_to_ = CurrentPose(sim);
}

RigidTransform GripperController::ArmTargetPose(const GripperPose& p) const {
  RigidTransform X_WT;
  X_WT.R = YawTilt(p.yaw, p.tilt) * R_WE0_;
  X_WT.p = Vector3(p.x, p.y, p.z);
  return X_WT;
}

GripperController::Axis GripperController::MakeAxis(const Simulation& sim,
                                                    const std::string& actuator,
                                                    int* child_body) const {
  const std::vector<std::string> names = sim.actuator_names();
  if (std::find(names.begin(), names.end(), actuator) == names.end()) {
    throw InputError("gripper: unknown actuator '" + actuator + "'");
  }
  const JointActuator& a = sim.actuator(actuator);
  const Joint& j = sim.model().joint(a.joint);
  *child_body = j.child;
  return Axis{actuator, j.q_start, a.kp, a.kd};
}

std::size_t GripperController::Bytes() const {
  std::size_t bytes = sizeof(*this) + name_.capacity() + bodies_.capacity() * sizeof(int);
  for (const Axis& a : axes_) bytes += a.actuator.capacity();
  for (const Finger& f : fingers_) {
    bytes += sizeof(Finger) + f.name.capacity() + f.bodies.capacity() * sizeof(int);
    for (const FingerAxis& a : f.axes) bytes += sizeof(FingerAxis) + a.axis.actuator.capacity();
  }
  return bytes;
}

bool GripperController::IsGripperBody(int body) const {
  return std::find(bodies_.begin(), bodies_.end(), body) != bodies_.end();
}

GripperPose GripperController::CurrentPose(const Simulation& sim) const {
  if (arm_) {
    const RigidTransform X_WE = sim.CalcFramePose(sim.model().body(palm_body_).name, X_BE_);
    // The turn since the start, R = Rz(yaw) Rx(tilt): its first column is
    // (cos yaw, sin yaw, 0) and its last row (0, sin tilt, cos tilt).
    const Matrix3 R = X_WE.R * R_WE0_.transpose();
    return GripperPose{X_WE.p.x(), X_WE.p.y(), X_WE.p.z(), std::atan2(R(1, 0), R(0, 0)),
                       std::atan2(R(2, 1), R(2, 2))};
  }
  const VectorX& q = sim.positions();
  return GripperPose{q[axes_[0].q_index], q[axes_[1].q_index], q[axes_[2].q_index],
                     q[axes_[3].q_index]};
}

void GripperController::Apply(const GripperCommand& command) {
  if (command.grip_force) {
    const double f = *command.grip_force;
    if (!std::isfinite(f) || f < kMinGripForce || f > kMaxGripForce) {
      throw InputError("grip_force: must be in [1, 50] N");
    }
  }
  if (command.target) {
    const GripperPose& t = *command.target;
    if (!std::isfinite(t.x) || !std::isfinite(t.y) || !std::isfinite(t.z) || !std::isfinite(t.yaw) ||
        !std::isfinite(t.tilt)) {
      throw InputError("target: must be finite");
    }
    if (t.tilt != 0 && !arm_) throw InputError("target: a gantry gripper cannot tilt (tilt must be 0)");
    if (command.ramp_steps < 0) throw InputError("ramp: must be >= 0");
    ramp_from_ = TargetAt(command.step - 1);  // Where the target is when the command starts.
    ramp_to_ = t;
    ramp_start_ = command.step;
    ramp_end_ = command.step + command.ramp_steps;
  }
  if (command.grip) grip_ = *command.grip;
  if (command.grip_force) grip_force_ = *command.grip_force;
}

GripperPose GripperController::TargetAt(std::int64_t step) const {
  // The target for the end of step `step`, i.e. at step index step + 1.
  if (step + 1 >= ramp_end_) return ramp_to_;
  if (step + 1 <= ramp_start_) return ramp_from_;
  const double s = static_cast<double>(step + 1 - ramp_start_) /
                   static_cast<double>(ramp_end_ - ramp_start_);
  auto lerp = [s](double a, double b) { return a + s * (b - a); };
  return GripperPose{lerp(ramp_from_.x, ramp_to_.x), lerp(ramp_from_.y, ramp_to_.y),
                     lerp(ramp_from_.z, ramp_to_.z), lerp(ramp_from_.yaw, ramp_to_.yaw),
                     lerp(ramp_from_.tilt, ramp_to_.tilt)};
}

GripperActuation GripperController::ActuationAt(std::int64_t step, double dt) const {
  GripperActuation a;
  a.target = TargetAt(step);
  // During a ramp the target moves at a constant rate: that is v_d.
  if (step + 1 > ramp_start_ && step + 1 <= ramp_end_) {
    const double T = static_cast<double>(ramp_end_ - ramp_start_) * dt;
    a.rate = GripperPose{(ramp_to_.x - ramp_from_.x) / T, (ramp_to_.y - ramp_from_.y) / T,
                         (ramp_to_.z - ramp_from_.z) / T, (ramp_to_.yaw - ramp_from_.yaw) / T,
                         (ramp_to_.tilt - ramp_from_.tilt) / T};
  }
  a.grip = grip_;
  a.grip_force = grip_force_;
  return a;
}

void GripperController::Actuate(Simulation* sim, const GripperActuation& a) const {
  const GripperPose& p = a.target;
  const GripperPose& v = a.rate;
  for (double x : {p.x, p.y, p.z, p.yaw, p.tilt, v.x, v.y, v.z, v.yaw, v.tilt}) {
    if (!std::isfinite(x)) throw InputError("gripper '" + name_ + "': the target and its rate must be finite");
  }
  if (!(a.grip_force >= kMinGripForce && a.grip_force <= kMaxGripForce)) {
    throw InputError("gripper '" + name_ + "': grip force must be in [" + FormatNumber(kMinGripForce, 6) + ", " +
                     FormatNumber(kMaxGripForce, 6) + "] N, got " + FormatNumber(a.grip_force, 6));
  }
  if (!arm_ && (p.tilt != 0 || v.tilt != 0)) throw InputError("gripper '" + name_ + "': a gantry gripper cannot tilt");
  if (arm_) {
    // R = Rz(yaw) Rx(tilt): ω = ẏaw ẑ + ṫilt Rz(yaw) x̂.
    const Vector3 w = Vector3(0, 0, v.yaw) + v.tilt * Vector3(std::cos(p.yaw), std::sin(p.yaw), 0);
    sim->SetCartesianTarget(impedance_, ArmTargetPose(p), Vector3(v.x, v.y, v.z), w);
  } else {
    sim->SetActuatorTarget(axes_[0].actuator, p.x, v.x);
    sim->SetActuatorTarget(axes_[1].actuator, p.y, v.y);
    sim->SetActuatorTarget(axes_[2].actuator, p.z, v.z);
    sim->SetActuatorTarget(axes_[3].actuator, p.yaw, v.yaw);
  }
  const bool closed = a.grip == GripState::kClosed;
  for (const Finger& finger : fingers_) {
    for (const FingerAxis& f : finger.axes) {
      const double effort = grip_force_limited_ ? a.grip_force : f.effort_limit;
      sim->SetActuatorGains(f.axis.actuator, f.axis.kp, f.axis.kd, effort);
      sim->SetActuatorTarget(f.axis.actuator, closed ? f.closed : f.open, 0.0);
    }
  }
}

GripperCommand GripperController::StateCommand(std::int64_t step) const {
  GripperCommand c;
  c.step = step;
  c.target = TargetAt(step - 1);
  if (!(ramp_to_ == *c.target)) {
    // Mid-ramp: finish the ramp from here.
    c.target = ramp_to_;
    c.ramp_steps = ramp_end_ - step;
  }
  c.grip = grip_;
  c.grip_force = grip_force_;
  return c;
}

std::vector<std::pair<int, RigidTransform>> GripperController::CalcTargetBodyPoses(
    const Simulation& sim) const {
  const MultibodyModel& model = sim.model();
  if (arm_) {
    // The hand (the end-effector body and what hangs from it) moved rigidly
    // from where E is to the target.
    KinematicsCache now(model);
    CalcKinematics(model, sim.positions(), VectorX::Zero(model.num_velocities()), BodyRange::All(model), &now);
    const RigidTransform X_WE = now.X_WB[palm_body_] * X_BE_;
    const RigidTransform move = ArmTargetPose(ramp_to_) * X_WE.inverse();
    std::vector<std::pair<int, RigidTransform>> poses;
    for (int b : model.Subtree(palm_body_)) poses.emplace_back(b, move * now.X_WB[b]);
    return poses;
  }
  VectorX q = sim.positions();
  const GripperPose t = ramp_to_;
  q[axes_[0].q_index] = t.x;
  q[axes_[1].q_index] = t.y;
  q[axes_[2].q_index] = t.z;
  q[axes_[3].q_index] = t.yaw;
  KinematicsCache cache(model);
  CalcKinematics(model, q, VectorX::Zero(model.num_velocities()), BodyRange::All(model), &cache);
  std::vector<std::pair<int, RigidTransform>> poses;
  for (int b : bodies_) poses.emplace_back(b, cache.X_WB[b]);
  return poses;
}

}  // namespace stiction
