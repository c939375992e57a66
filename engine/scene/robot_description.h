#pragma once
// What a robot importer (URDF: urdf_importer.h, MJCF: mjcf_importer.h)
// produces from a robot file, before the scene places it: bodies, joints,
// geometry and controllers in the robot's own frame R, with unprefixed names
// and every element's source location in the robot file. robot_placement.h
// turns it into scene bodies, joints and actuators (name prefix, pose, mount,
// initial state, PD controllers). docs/robots.md documents the mapping.
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "engine/scene/scene_description.h"

namespace stiction {

/// Per-joint data a robot file gives beyond JointDescription.
struct RobotJointLimits {
  /// Effort limit [N m] or [N] (URDF <limit effort>, MJCF actuator/joint
  /// force range); +∞ when the file gives none. Caps the PD controllers the
  /// scene creates for the joint.
  double effort = std::numeric_limits<double>::infinity();
  /// Velocity limit [rad/s] or [m/s]; +∞ when none. Reported, not enforced.
  double velocity = std::numeric_limits<double>::infinity();
};

struct RobotDescription {
  std::string file;    ///< The robot file, as given.
  std::string format;  ///< "URDF" or "MJCF".
  std::string name;    ///< The file's own robot/model name.
  /// Bodies (URDF links, MJCF bodies) in parent-before-child order. Bodies
  /// welded to their parent by a fixed joint carry no mass: the importer
  /// lumps it into the nearest moving ancestor (M(q) is unchanged).
  std::vector<BodyDescription> bodies;
  /// Joints; those whose parent is "world" attach to the robot's frame R
  /// (URDF: one fixed joint on the root link, or a free one when the base
  /// floats; MJCF: every top-level body). The placement re-parents them.
  std::vector<JointDescription> joints;
  std::map<std::string, RobotJointLimits> joint_limits;  ///< By joint name.
  /// Geometry fixed in R (MJCF world geoms such as a floor).
  std::vector<GeometryDescription> world_geometries;
  /// Coulomb friction μ of geometries whose file sets one (MJCF), by
  /// geometry name; the placement gives them a material with that μ.
  std::map<std::string, double> geometry_friction;
  std::vector<ActuatorDescription> actuators;     ///< MJCF position actuators.
  std::vector<MotorDescription> motors;           ///< MJCF motors (joint or fixed-tendon transmission).
  std::vector<ConstraintDescription> constraints;  ///< MJCF weld/connect equalities.
  /// Body pairs that never touch (MJCF <contact><exclude>); "world" for R.
  std::vector<std::pair<std::string, std::string>> excluded_body_pairs;
  /// URDF <mimic>, MJCF linear joint equalities (unprefixed joint names).
  std::vector<JointCouplerDescription> couplers;
  /// MJCF fixed-tendon limits and tendon equalities (unprefixed joint names).
  std::vector<TendonDescription> tendons;
  /// MJCF position servos on fixed tendons.
  std::vector<TendonServoDescription> tendon_servos;
  Vector3 gravity = Vector3(0, 0, -9.81);  ///< MJCF <option gravity> [m/s²].
  double time_step = 0;                    ///< MJCF <option timestep> [s]; 0 = none.
  /// One line per element the importer skipped, naming it and why
  /// (e.g. "mimic on joint 'j2' ignored: ...").
  std::vector<std::string> notes;
};

}  // namespace stiction

namespace stiction {

/// Moves the mass of every body welded to its parent by a fixed joint into
/// that parent (parallel-axis theorem), children first, so that mass sits
/// only on moving bodies (and on the root); M(q) is unchanged. Then throws
/// InputError "FILE:LINE: ..." for a body that moves (non-fixed joint) but
/// has no mass, naming `mass_element` (e.g. "<inertial>") as the fix; a
/// joint frame (BodyDescription::joint_frame) is massless by design.
void LumpWeldedMasses(RobotDescription* robot, const std::string& mass_element);

/// Starts every revolute or prismatic joint whose zero coordinate (a URDF
/// joint's zero, an MJCF joint's qpos0) lies outside its limits at the
/// limit nearest to zero, and notes each one moved in `robot->notes`; from
/// zero, the first step would throw the robot against its limits (a Panda's
/// elbow, a quadruped's calves, dm_control's hopper knee). A joint with an
/// initial value of its own, in the file or in `given` (the scene's
/// `initial:`), keeps it; a coupled joint (`robot->couplers`) starts where
/// its leader puts it instead (CompileScene).
void StartInsideLimits(const std::map<std::string, double>& given, RobotDescription* robot);

/// Adds a rigid body's mass properties to another's: the result's centre of
/// mass and inertia about it in the frame of `into`; X_IO is the pose of the
/// added body's frame in that frame.
void AddMassProperties(double mass, const Vector3& com_O, const Matrix3& I_Ocm_O,
                       const RigidTransform& X_IO, BodyDescription* into);

}  // namespace stiction
