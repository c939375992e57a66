#pragma once
// What the Joints and Control sections show and do (docs/viewer.md,
// "Joints and Control"), as MuJoCo simulate's Joint and Control panels: a
// slider per revolute or prismatic joint and one per PD actuator, so that a
// robot file dropped on the window can be moved without writing a scene.
// The rows are built once per loaded scene (LoadSceneFields); no ImGui here,
// so the widgets and the tests call the same apply functions.
//
// Both sections move an actuator's target through one call,
// AppCommands::SetActuatorTarget: the Joints section for the joint's first
// actuator, the Control section for each actuator (an actuator need not be
// one per joint). Posing a paused robot is AppCommands::SetJointPosition.
#include <string>
#include <string_view>
#include <vector>

#include "engine/common/constants.h"

namespace stiction {
class Simulation;
struct Joint;
}  // namespace stiction

namespace stiction::app {

class AppCommands;
struct UiState;

/// Half-width of a slider on a side where the joint has no limit: ±180°
/// [rad] for a revolute joint, ±1 m for a prismatic one.
inline constexpr double kUnlimitedRevoluteHalfRange = kPi;
inline constexpr double kUnlimitedPrismaticHalfRange = 1.0;

/// The interval a slider covers [rad or m], and whether each end is the
/// joint's limit (else the ±180° / ±1 m default).
struct SliderRange {
  double lower = 0, upper = 0;
  bool lower_is_limit = false, upper_is_limit = false;
};

/// The slider range of a revolute or prismatic joint: its limits, a missing
/// (infinite or NaN) side replaced by the default, and never empty (equal
/// or crossed limits widen to the default around their middle).
SliderRange JointSliderRange(const Joint& joint);

/// One revolute or prismatic joint of the model.
struct JointRow {
  int joint = -1;          ///< Model joint index.
  std::string name;
  bool revolute = true;    ///< Shown in degrees, stored in radians; else metres.
  SliderRange range;       ///< [rad or m].
  int actuator = -1;       ///< Index into JointControls::actuators of its first actuator, −1: none.
};

/// One PD actuator of the scene (scene order, Simulation::actuator_names()).
struct ActuatorRow {
  std::string name;
  int joint = -1;          ///< Model joint index.
  std::string joint_name;
  bool revolute = true;
  SliderRange range;       ///< Its joint's [rad or m].
  double scene_position = 0;  ///< The scene's target q_d [rad or m]: what Reset targets restores.
  double scene_velocity = 0;  ///< The scene's v_d [rad/s or m/s].
  /// The scene's gripper sets this actuator's target before every step
  /// (engine/control/gripper_controller.h): its slider is read-only and
  /// points at the Gripper section.
  bool gripper_driven = false;
};

/// Half-width of a motor's slider when its control is not limited [1]
/// (MuJoCo simulate's default).
inline constexpr double kUnlimitedCtrlHalfRange = 1.0;

/// One motor of the scene (scene order, Simulation::motor_names()): a
/// slider over its control range.
struct MotorRow {
  std::string name;
  std::string joints;       ///< Its joint names, for the filter and the tooltip ("hip" or "a, b").
  SliderRange range;        ///< Its ctrl range [1], or ±kUnlimitedCtrlHalfRange where unlimited.
  double scene_ctrl = 0;    ///< The scene's ctrl: what Reset targets restores.
};

/// The sliders of one loaded scene and the sections' filter boxes.
struct JointControls {
  std::vector<JointRow> joints;
  std::vector<ActuatorRow> actuators;
  std::vector<MotorRow> motors;
  int other_joints = 0;          ///< Free and ball joints: no slider.
  std::string joint_filter;      ///< The Joints section's filter box.
  std::string actuator_filter;   ///< The Control section's filter box.
};

/// The rows for a scene just loaded: every revolute and prismatic joint in
/// model order, every actuator and motor in scene order; empty filters.
JointControls BuildJointControls(const Simulation& sim);

/// Shown value for a stored one: degrees for a revolute joint, metres as is.
double ToShown(bool revolute, double value);
/// Stored value [rad or m] for a shown one.
double FromShown(bool revolute, double shown);
/// "deg" or "m".
const char* ShownUnit(bool revolute);

/// Whether `name` contains `filter`, ignoring case (an empty filter matches).
bool MatchesFilter(std::string_view name, std::string_view filter);
/// Indices of the rows whose name (or, for actuators, joint name) matches.
std::vector<int> FilteredJoints(const JointControls& c);
std::vector<int> FilteredActuators(const JointControls& c);
std::vector<int> FilteredMotors(const JointControls& c);

/// Whether the Joints slider of `row` can be moved now: always while paused
/// (it poses the joint); while running only through an actuator that the
/// gripper does not drive (otherwise it shows the position, read-only).
bool JointSliderEditable(const JointControls& c, const JointRow& row, bool paused);
/// The value the Joints slider of `row` holds [rad or m]: its actuator's
/// commanded target when it has one, else the joint's current position.
double JointSliderValue(const JointControls& c, const JointRow& row, const Simulation& sim);
/// Joint `joint`'s current position q [rad or m] (NaN for a bad index).
double JointPosition(int joint, const Simulation& sim);

/// The Joints slider moved to `position` [rad or m]: paused, poses the
/// joint (AppCommands::SetJointPosition: velocities zeroed, its actuators'
/// targets with it); running, moves its actuator's target. A value outside
/// the slider's range is clamped to it. Returns false, with the reason in
/// the status line, when the row cannot be moved now or the App refuses.
bool ApplyJointSlider(const JointControls& c, const JointRow& row, double position, bool paused, UiState* ui,
                      AppCommands* commands);
/// The Control slider of `row` moved to `position` [rad or m] (clamped to
/// the joint's range): the actuator's target from the next step, v_d = 0.
/// False, with the reason in the status line, when refused.
bool ApplyActuatorSlider(const ActuatorRow& row, double position, UiState* ui, AppCommands* commands);
/// The Control slider of motor `row` moved to `ctrl` [1] (clamped to the
/// row's range): the motor's control from the next step. False, with the
/// reason in the status line, when refused.
bool ApplyMotorSlider(const MotorRow& row, double ctrl, UiState* ui, AppCommands* commands);
/// Reset targets: every actuator not driven by the gripper back to the
/// scene's q_d and v_d, every motor back to the scene's ctrl.
bool ResetActuatorTargets(const JointControls& c, UiState* ui, AppCommands* commands);

}  // namespace stiction::app
