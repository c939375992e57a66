#pragma once
// Places an imported robot (robot_description.h) into a scene: prefixes its
// names, poses and mounts it, sets its initial joint values, gives it PD
// controllers and collision groups. The scene key `robots:` fills a
// RobotPlacement per entry (docs/scene-format.md, "Robots").
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/scene/robot_description.h"
#include "engine/scene/scene_description.h"

namespace stiction {

/// PD gains of one joint's controller.
struct JointPdGains {
  double kp = 0;  ///< [N m/rad] or [N/m], ≥ 0.
  double kd = 0;  ///< [N m s/rad] or [N s/m], ≥ 0; kp + kd > 0.
};

struct RobotPlacement {
  /// Prefix of every name ("arm" makes link 'base' the body 'arm/base');
  /// "" keeps the file's names.
  std::string name;
  std::string parent = "world";   ///< Body the robot's frame R is fixed to.
  RigidTransform X_PR;            ///< Pose of R in the parent's frame.
  /// Initial joint coordinates by (unprefixed) joint name [rad] or [m].
  std::map<std::string, double> initial;
  /// When set, a PD actuator named like its joint holds every revolute and
  /// prismatic joint at its initial value, capped by the file's effort limit
  /// (but a coupled joint, which its leader drives, unless
  /// joint_pd_overrides names it).
  std::optional<JointPdGains> joint_pd;
  std::map<std::string, JointPdGains> joint_pd_overrides;  ///< By joint name.
  std::vector<std::string> groups;  ///< Added to every collision geometry.
  /// false: the robot's geometries ignore each other (one collision group).
  bool self_collision = true;
  /// Material of every geometry; "" = the file's friction (MJCF) on top of
  /// the scene's default material, else the default material.
  std::string material;
  SourceLocation where;  ///< The scene entry, for messages.
};

/// The prefixed name of a robot element.
std::string RobotElementName(const RobotPlacement& placement, const std::string& name);

/// Appends the robot's bodies, joints, geometries, materials, actuators,
/// constraints and joint couplers to `scene`. Throws InputError at `placement.where` for an
/// unknown parent body, an initial value or PD override naming no joint of
/// the robot, a name that already exists in the scene, or an initial value
/// outside the joint's limits.
void PlaceRobot(const RobotDescription& robot, const RobotPlacement& placement, SceneDescription* scene);

}  // namespace stiction
