#include "app/ui/joint_control.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <set>

#include "app/ui/panels.h"
#include "app/ui/ui_state.h"
#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/simulation.h"

namespace stiction::app {
namespace {

// The actuators whose targets the scene's gripper writes before every step
// (gantry axes and fingers; an arm gripper's palm is a Cartesian impedance,
// not an actuator).
std::set<std::string> GripperActuators(const std::vector<GripperDescription>& grippers) {
  std::set<std::string> names;
  for (const GripperDescription& g : grippers) {
    for (const std::string* axis : {&g.x, &g.y, &g.z, &g.yaw}) {
      if (!axis->empty()) names.insert(*axis);
    }
    for (const FingerDescription& f : g.fingers) names.insert(f.actuators.begin(), f.actuators.end());
  }
  return names;
}

double Clamp(double value, const SliderRange& r) { return std::clamp(value, r.lower, r.upper); }

}  // namespace

SliderRange JointSliderRange(const Joint& joint) {
  const double half =
      joint.type == JointType::kRevolute ? kUnlimitedRevoluteHalfRange : kUnlimitedPrismaticHalfRange;
  SliderRange r;
  r.lower_is_limit = std::isfinite(joint.lower_limit);
  r.upper_is_limit = std::isfinite(joint.upper_limit);
  r.lower = r.lower_is_limit ? joint.lower_limit : -half;
  r.upper = r.upper_is_limit ? joint.upper_limit : half;
  // One-sided limits: the default span from the limit that exists (a lower
  // limit of 200° must not meet a default upper end of 180°).
  if (r.lower_is_limit && !r.upper_is_limit) r.upper = std::max(r.upper, r.lower + 2 * half);
  if (r.upper_is_limit && !r.lower_is_limit) r.lower = std::min(r.lower, r.upper - 2 * half);
  if (!(r.lower < r.upper)) {  // Equal or crossed limits: a slider needs an interval.
    const double mid = 0.5 * (r.lower + r.upper);
    r = SliderRange{mid - half, mid + half, false, false};
  }
  return r;
}

JointControls BuildJointControls(const Simulation& sim) {
  JointControls c;
  const MultibodyModel& model = sim.model();
  std::vector<int> row_of_joint(model.num_joints(), -1);
  for (int j = 0; j < model.num_joints(); ++j) {
    const Joint& joint = model.joint(j);
    if (joint.type == JointType::kFree || joint.type == JointType::kBall) ++c.other_joints;
    if (joint.type != JointType::kRevolute && joint.type != JointType::kPrismatic) continue;
    row_of_joint[j] = static_cast<int>(c.joints.size());
    c.joints.push_back(JointRow{j, joint.name, joint.type == JointType::kRevolute, JointSliderRange(joint), -1});
  }
  const std::set<std::string> gripper = GripperActuators(sim.scene().grippers);
  const std::vector<ActuatorDescription>& scene_actuators = sim.scene().actuators;
  for (const std::string& name : sim.actuator_names()) {
    const JointActuator& a = sim.actuator(name);
    ActuatorRow row;
    row.name = name;
    row.joint = a.joint;
    const int joint_row = a.joint >= 0 && a.joint < model.num_joints() ? row_of_joint[a.joint] : -1;
    if (joint_row < 0) continue;  // The compiler only puts actuators on revolute and prismatic joints.
    row.joint_name = c.joints[joint_row].name;
    row.revolute = c.joints[joint_row].revolute;
    row.range = c.joints[joint_row].range;
    for (const ActuatorDescription& d : scene_actuators) {
      if (d.name != name) continue;
      row.scene_position = d.target_position;
      row.scene_velocity = d.target_velocity;
    }
    row.gripper_driven = gripper.count(name) > 0;
    if (c.joints[joint_row].actuator < 0) c.joints[joint_row].actuator = static_cast<int>(c.actuators.size());
    c.actuators.push_back(std::move(row));
  }
  for (const std::string& name : sim.motor_names()) {
    const JointMotor& m = sim.motor(name);
    MotorRow row;
    row.name = name;
    for (const auto& [v, coefficient] : m.velocities) {
      for (const JointRow& j : c.joints) {
        if (model.joint(j.joint).v_start == v) row.joints += (row.joints.empty() ? "" : ", ") + j.name;
      }
    }
    row.range.lower_is_limit = std::isfinite(m.ctrl_min);
    row.range.upper_is_limit = std::isfinite(m.ctrl_max);
    row.range.lower = row.range.lower_is_limit ? m.ctrl_min : -kUnlimitedCtrlHalfRange;
    row.range.upper = row.range.upper_is_limit ? m.ctrl_max : kUnlimitedCtrlHalfRange;
    if (!(row.range.lower < row.range.upper)) {  // One limited side beyond the default.
      row.range.lower = std::min(row.range.lower, row.range.upper - 2 * kUnlimitedCtrlHalfRange);
      row.range.upper = std::max(row.range.upper, row.range.lower + 2 * kUnlimitedCtrlHalfRange);
    }
    row.scene_ctrl = m.ctrl;
    c.motors.push_back(std::move(row));
  }
  return c;
}

double ToShown(bool revolute, double value) { return revolute ? value * 180.0 / kPi : value; }
double FromShown(bool revolute, double shown) { return revolute ? shown * kPi / 180.0 : shown; }
const char* ShownUnit(bool revolute) { return revolute ? "deg" : "m"; }

bool MatchesFilter(std::string_view name, std::string_view filter) {
  if (filter.empty()) return true;
  const auto lower = [](char ch) { return static_cast<char>(std::tolower(static_cast<unsigned char>(ch))); };
  const auto it = std::search(name.begin(), name.end(), filter.begin(), filter.end(),
                              [&](char a, char b) { return lower(a) == lower(b); });
  return it != name.end();
}

std::vector<int> FilteredJoints(const JointControls& c) {
  std::vector<int> rows;
  for (size_t i = 0; i < c.joints.size(); ++i) {
    if (MatchesFilter(c.joints[i].name, c.joint_filter)) rows.push_back(static_cast<int>(i));
  }
  return rows;
}

std::vector<int> FilteredActuators(const JointControls& c) {
  std::vector<int> rows;
  for (size_t i = 0; i < c.actuators.size(); ++i) {
    const ActuatorRow& a = c.actuators[i];
    if (MatchesFilter(a.name, c.actuator_filter) || MatchesFilter(a.joint_name, c.actuator_filter)) {
      rows.push_back(static_cast<int>(i));
    }
  }
  return rows;
}

std::vector<int> FilteredMotors(const JointControls& c) {
  std::vector<int> rows;
  for (size_t i = 0; i < c.motors.size(); ++i) {
    const MotorRow& m = c.motors[i];
    if (MatchesFilter(m.name, c.actuator_filter) || MatchesFilter(m.joints, c.actuator_filter)) {
      rows.push_back(static_cast<int>(i));
    }
  }
  return rows;
}

bool JointSliderEditable(const JointControls& c, const JointRow& row, bool paused) {
  if (paused) return true;
  return row.actuator >= 0 && !c.actuators[row.actuator].gripper_driven;
}

double JointPosition(int joint, const Simulation& sim) {
  if (joint < 0 || joint >= sim.model().num_joints()) return std::numeric_limits<double>::quiet_NaN();
  return sim.positions()[sim.model().joint(joint).q_start];
}

double JointSliderValue(const JointControls& c, const JointRow& row, const Simulation& sim) {
  if (row.actuator >= 0) return sim.actuator_commanded_position(c.actuators[row.actuator].name);
  return JointPosition(row.joint, sim);
}

bool ApplyJointSlider(const JointControls& c, const JointRow& row, double position, bool paused, UiState* ui,
                      AppCommands* commands) {
  if (!std::isfinite(position)) {
    ui->Error("joint '" + row.name + "': not a finite position, not applied");
    return false;
  }
  if (!JointSliderEditable(c, row, paused)) {
    ui->Error(row.actuator >= 0
                  ? "joint '" + row.name + "' is driven by the gripper while running: use the Gripper section, or pause to pose it"
                  : "joint '" + row.name + "' has no actuator to move it while running: pause to pose it");
    return false;
  }
  const double q = Clamp(position, row.range);
  try {
    if (paused) {
      commands->SetJointPosition(row.joint, q);
    } else {
      commands->SetActuatorTarget(c.actuators[row.actuator].name, q, 0.0);
    }
  } catch (const InputError& e) {
    ui->Error(std::string("joint not moved: ") + e.what());
    return false;
  }
  return true;
}

bool ApplyActuatorSlider(const ActuatorRow& row, double position, UiState* ui, AppCommands* commands) {
  if (!std::isfinite(position)) {
    ui->Error("actuator '" + row.name + "': not a finite target, not applied");
    return false;
  }
  try {
    commands->SetActuatorTarget(row.name, Clamp(position, row.range), 0.0);
  } catch (const InputError& e) {
    ui->Error(std::string("target not set: ") + e.what());
    return false;
  }
  return true;
}

bool ApplyMotorSlider(const MotorRow& row, double ctrl, UiState* ui, AppCommands* commands) {
  if (!std::isfinite(ctrl)) {
    ui->Error("motor '" + row.name + "': not a finite control, not applied");
    return false;
  }
  try {
    commands->SetMotorControl(row.name, Clamp(ctrl, row.range));
  } catch (const InputError& e) {
    ui->Error(std::string("control not set: ") + e.what());
    return false;
  }
  return true;
}

bool ResetActuatorTargets(const JointControls& c, UiState* ui, AppCommands* commands) {
  int reset = 0;
  try {
    for (const ActuatorRow& a : c.actuators) {
      if (a.gripper_driven) continue;
      commands->SetActuatorTarget(a.name, a.scene_position, a.scene_velocity);
      ++reset;
    }
    for (const MotorRow& m : c.motors) {
      commands->SetMotorControl(m.name, m.scene_ctrl);
      ++reset;
    }
  } catch (const InputError& e) {
    ui->Error(std::string("targets not reset: ") + e.what());
    return false;
  }
  ui->Info(StringPrintf("%d actuator target%s back to the scene's", reset, reset == 1 ? "" : "s"));
  return true;
}

}  // namespace stiction::app
