#include "engine/scene/robot_placement.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "engine/common/error.h"
#include "engine/common/text.h"

namespace stiction {

namespace {

template <typename T>
bool HasName(const std::vector<T>& items, const std::string& name) {
  return std::any_of(items.begin(), items.end(), [&](const T& t) { return t.name == name; });
}

}  // namespace

std::string RobotElementName(const RobotPlacement& placement, const std::string& name) {
  return placement.name.empty() ? name : placement.name + "/" + name;
}

void PlaceRobot(const RobotDescription& robot, const RobotPlacement& placement, SceneDescription* scene) {
  const std::string at = placement.where.ToString() + ": robot '" +
                         (placement.name.empty() ? robot.name : placement.name) + "' (" + robot.file + "): ";
  auto fail = [&](const std::string& what) { throw InputError(at + what); };
  auto prefixed = [&](const std::string& name) {
    return name == "world" ? name : RobotElementName(placement, name);
  };
  if (placement.parent != "world" && !HasName(scene->bodies, placement.parent)) {
    fail("unknown parent body '" + placement.parent + "'");
  }
  std::set<std::string> geometry_names;
  for (const GeometryDescription& g : scene->world_geometries) geometry_names.insert(g.name);
  for (const BodyDescription& b : scene->bodies) {
    for (const GeometryDescription& g : b.geometries) geometry_names.insert(g.name);
  }

  // Materials: the file's friction values on top of the default material.
  std::map<double, std::string> friction_material;
  // By value: adding materials below reallocates scene->materials.
  std::optional<MaterialDescription> base;
  for (const MaterialDescription& m : scene->materials) {
    if (m.name == scene->default_material) base = m;
  }
  if (!placement.material.empty() && !HasName(scene->materials, placement.material)) {
    fail("unknown material '" + placement.material + "'");
  }
  auto material_of = [&](const std::string& geometry_name) -> std::string {
    if (!placement.material.empty()) return placement.material;
    const auto it = robot.geometry_friction.find(geometry_name);
    if (it == robot.geometry_friction.end() || !base) return "";
    if (base->material.friction == it->second) return "";
    auto [entry, inserted] = friction_material.emplace(it->second, "");
    if (inserted) {
      MaterialDescription m = *base;
      m.name = RobotElementName(placement, "friction_" + FormatNumber(it->second));
      m.material.friction = it->second;
      m.where = placement.where;
      if (HasName(scene->materials, m.name)) fail("material name '" + m.name + "' already exists");
      scene->materials.push_back(m);
      entry->second = m.name;
    }
    return entry->second;
  };
  const std::string self_group = "robot:" + (placement.name.empty() ? robot.name : placement.name);
  auto place_geometry = [&](GeometryDescription g) {
    const std::string file_name = g.name;
    g.name = prefixed(g.name);
    if (!geometry_names.insert(g.name).second) fail("geometry name '" + g.name + "' already exists in the scene");
    g.material = material_of(file_name);
    if (g.material.empty()) g.material = scene->default_material;
    g.groups.insert(g.groups.end(), placement.groups.begin(), placement.groups.end());
    if (!placement.self_collision) g.groups.push_back(self_group);
    return g;
  };

  // The robot's frame R in the world, for free bodies and world geometry.
  RigidTransform X_WR = placement.X_PR;
  for (const BodyDescription& b : robot.bodies) {
    if (HasName(scene->bodies, prefixed(b.name))) fail("body name '" + prefixed(b.name) + "' already exists in the scene");
  }
  for (const BodyDescription& b : robot.bodies) {
    BodyDescription body = b;
    body.name = prefixed(b.name);
    body.geometries.clear();
    for (const GeometryDescription& g : b.geometries) body.geometries.push_back(place_geometry(g));
    scene->bodies.push_back(std::move(body));
  }
  for (const GeometryDescription& g : robot.world_geometries) {
    GeometryDescription placed = place_geometry(g);
    placed.X_BG = X_WR * placed.X_BG;
    scene->world_geometries.push_back(std::move(placed));
  }

  std::map<std::string, const JointDescription*> joints_by_name;
  for (const JointDescription& j : robot.joints) joints_by_name[j.name] = &j;
  for (const auto& [name, value] : placement.initial) {
    const auto it = joints_by_name.find(name);
    if (it == joints_by_name.end() ||
        (it->second->type != JointType::kRevolute && it->second->type != JointType::kPrismatic)) {
      fail("initial: '" + name + "' is not a revolute or prismatic joint of the robot");
    }
    if (!std::isfinite(value)) fail("initial: '" + name + "' must be finite");
    const JointDescription& j = *it->second;
    if (value < j.lower_limit || value > j.upper_limit) {
      fail("initial: '" + name + "' = " + FormatNumber(value) + " is outside its limits [" + FormatNumber(j.lower_limit) + ", " +
           FormatNumber(j.upper_limit) + "]");
    }
  }
  for (const auto& entry : placement.joint_pd_overrides) {
    if (!joints_by_name.count(entry.first)) fail("joint_pd.joints: '" + entry.first + "' is not a joint of the robot");
  }

  for (const JointDescription& j : robot.joints) {
    JointDescription joint = j;
    joint.name = prefixed(j.name);
    if (HasName(scene->joints, joint.name)) fail("joint name '" + joint.name + "' already exists in the scene");
    joint.child = prefixed(j.child);
    if (j.parent == "world") {
      joint.parent = placement.parent;
      if (joint.type == JointType::kFree && placement.parent == "world") {
        // A floating base keeps its coordinates in the world: pose it there.
        RigidTransform X_RB;
        Quaternion q_RB = Quaternion::Identity();
        if (j.initial_q.size() == 7) {
          q_RB = Quaternion(j.initial_q[0], j.initial_q[1], j.initial_q[2], j.initial_q[3]).normalized();
          X_RB.R = q_RB.toRotationMatrix();
          X_RB.p = Vector3(j.initial_q[4], j.initial_q[5], j.initial_q[6]);
        }
        const RigidTransform X_WB = X_WR * X_RB;
        const Quaternion q_WB = Quaternion(X_WR.R) * q_RB;
        joint.initial_q = {q_WB.w(), q_WB.x(), q_WB.y(), q_WB.z(), X_WB.p.x(), X_WB.p.y(), X_WB.p.z()};
      } else {
        joint.X_PF = placement.X_PR * j.X_PF;
      }
    } else {
      joint.parent = prefixed(j.parent);
    }
    if (const auto it = placement.initial.find(j.name); it != placement.initial.end()) {
      joint.initial_q = {it->second};
    }
    scene->joints.push_back(joint);

    // PD controllers holding the initial pose.
    const bool actuated = j.type == JointType::kRevolute || j.type == JointType::kPrismatic;
    const auto override_it = placement.joint_pd_overrides.find(j.name);
    if (!actuated || (!placement.joint_pd && override_it == placement.joint_pd_overrides.end())) continue;
    const JointPdGains gains = override_it != placement.joint_pd_overrides.end() ? override_it->second
                                                                                : *placement.joint_pd;
    ActuatorDescription a;
    a.name = joint.name;
    a.joint = joint.name;
    a.kp = gains.kp;
    a.kd = gains.kd;
    if (const auto limits = robot.joint_limits.find(j.name); limits != robot.joint_limits.end() &&
                                                             std::isfinite(limits->second.effort)) {
      a.effort_limit = limits->second.effort;
    }
    a.target_position = joint.initial_q.empty() ? 0.0 : joint.initial_q[0];
    a.where = placement.where;
    if (HasName(scene->actuators, a.name)) fail("actuator name '" + a.name + "' already exists in the scene");
    scene->actuators.push_back(a);
  }

  for (const ActuatorDescription& file_actuator : robot.actuators) {
    ActuatorDescription a = file_actuator;
    a.name = prefixed(a.name);
    a.joint = prefixed(a.joint);
    if (const auto it = placement.initial.find(file_actuator.joint); it != placement.initial.end()) {
      a.target_position = it->second;
    }
    if (HasName(scene->actuators, a.name)) fail("actuator name '" + a.name + "' already exists in the scene");
    scene->actuators.push_back(a);
  }
  for (const ConstraintDescription& file_constraint : robot.constraints) {
    ConstraintDescription c = file_constraint;
    c.name = prefixed(c.name);
    c.body_a = c.body_a == "world" ? placement.parent : prefixed(c.body_a);
    c.body_b = c.body_b == "world" ? placement.parent : prefixed(c.body_b);
    if (file_constraint.body_a == "world") c.X_AFa = placement.X_PR * c.X_AFa;
    if (file_constraint.body_b == "world") c.X_BFb = placement.X_PR * c.X_BFb;
    if (HasName(scene->constraints, c.name)) fail("constraint name '" + c.name + "' already exists in the scene");
    scene->constraints.push_back(c);
  }
}

}  // namespace stiction
