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

bool IsAxial(JointType type) { return type == JointType::kRevolute || type == JointType::kPrismatic; }

/// Places one robot into one scene, part by part (PlaceRobot).
class RobotPlacer {
 public:
  RobotPlacer(const RobotDescription& robot, const RobotPlacement& placement, SceneDescription* scene)
      : robot_(robot),
        placement_(placement),
        scene_(*scene),
        at_(placement.where.ToString() + ": robot '" + (placement.name.empty() ? robot.name : placement.name) +
            "' (" + robot.file + "): ") {}

  void Place() {
    CheckMount();
    PlaceBodies();
    CheckJointOptions();
    for (const JointDescription& j : robot_.joints) PlaceJoint(j);
    PlaceFileActuators();
    PlaceFileMotors();
    PlaceConstraints();
    PlaceCouplers();
  }

 private:
  [[noreturn]] void Fail(const std::string& what) const { throw InputError(at_ + what); }

  /// Appends `item` to `items` unless its name is taken ("KIND name 'NAME'
  /// already exists in the scene").
  template <typename Description>
  void AddUnique(const Description& item, const std::string& kind, std::vector<Description>* items) const {
    if (HasName(*items, item.name)) Fail(kind + " name '" + item.name + "' already exists in the scene");
    items->push_back(item);
  }

  std::string Prefixed(const std::string& name) const {
    return name == "world" ? name : RobotElementName(placement_, name);
  }

  /// The parent body and the material must exist; remembers the scene's
  /// geometry names and its default material.
  void CheckMount() {
    if (placement_.parent != "world" && !HasName(scene_.bodies, placement_.parent)) {
      Fail("unknown parent body '" + placement_.parent + "'");
    }
    for (const GeometryDescription& g : scene_.world_geometries) geometry_names_.insert(g.name);
    for (const BodyDescription& b : scene_.bodies) {
      for (const GeometryDescription& g : b.geometries) geometry_names_.insert(g.name);
    }
    // By value: adding materials (MaterialOf) reallocates scene_.materials.
    for (const MaterialDescription& m : scene_.materials) {
      if (m.name == scene_.default_material) base_material_ = m;
    }
    if (!placement_.material.empty() && !HasName(scene_.materials, placement_.material)) {
      Fail("unknown material '" + placement_.material + "'");
    }
  }

  /// The placement's material, else the file's friction on top of the
  /// default material (one material per friction value, made once), else
  /// "" (the default material).
  std::string MaterialOf(const std::string& geometry_name) {
    if (!placement_.material.empty()) return placement_.material;
    const auto it = robot_.geometry_friction.find(geometry_name);
    if (it == robot_.geometry_friction.end() || !base_material_) return "";
    if (base_material_->material.friction == it->second) return "";
    auto [entry, inserted] = friction_material_.emplace(it->second, "");
    if (inserted) {
      MaterialDescription m = *base_material_;
      m.name = RobotElementName(placement_, "friction_" + FormatNumber(it->second));
      m.material.friction = it->second;
      m.where = placement_.where;
      // A scene material of that name (a saved scene's, with the user's
      // edits) is used as it is.
      if (!HasName(scene_.materials, m.name)) scene_.materials.push_back(m);
      entry->second = m.name;
    }
    return entry->second;
  }

  /// A geometry's prefixed name (unique in the scene), material and groups.
  GeometryDescription PlaceGeometry(GeometryDescription g) {
    const std::string file_name = g.name;
    g.name = Prefixed(g.name);
    if (!geometry_names_.insert(g.name).second) Fail("geometry name '" + g.name + "' already exists in the scene");
    g.material = MaterialOf(file_name);
    if (g.material.empty()) g.material = scene_.default_material;
    g.groups.insert(g.groups.end(), placement_.groups.begin(), placement_.groups.end());
    if (!placement_.self_collision) g.groups.push_back("robot:" + (placement_.name.empty() ? robot_.name : placement_.name));
    return g;
  }

  /// The bodies with their geometry, and the geometry fixed in R, posed in
  /// the world.
  void PlaceBodies() {
    for (const BodyDescription& b : robot_.bodies) {
      if (HasName(scene_.bodies, Prefixed(b.name))) Fail("body name '" + Prefixed(b.name) + "' already exists in the scene");
    }
    for (const BodyDescription& b : robot_.bodies) {
      BodyDescription body = b;
      body.name = Prefixed(b.name);
      body.geometries.clear();
      for (const GeometryDescription& g : b.geometries) body.geometries.push_back(PlaceGeometry(g));
      scene_.bodies.push_back(std::move(body));
    }
    // The robot's frame R in the world, for world geometry.
    const RigidTransform X_WR = placement_.X_PR;
    for (const GeometryDescription& g : robot_.world_geometries) {
      GeometryDescription placed = PlaceGeometry(g);
      placed.X_BG = X_WR * placed.X_BG;
      scene_.world_geometries.push_back(std::move(placed));
    }
  }

  /// `initial` names revolute or prismatic joints of the robot with finite
  /// values within their limits; `joint_pd.joints` names joints of the robot.
  void CheckJointOptions() const {
    std::map<std::string, const JointDescription*> joints_by_name;
    for (const JointDescription& j : robot_.joints) joints_by_name[j.name] = &j;
    for (const auto& [name, value] : placement_.initial) {
      const auto it = joints_by_name.find(name);
      if (it == joints_by_name.end() || !IsAxial(it->second->type)) {
        Fail("initial: '" + name + "' is not a revolute or prismatic joint of the robot");
      }
      if (!std::isfinite(value)) Fail("initial: '" + name + "' must be finite");
      const JointDescription& j = *it->second;
      if (value < j.lower_limit || value > j.upper_limit) {
        Fail("initial: '" + name + "' = " + FormatNumber(value) + " is outside its limits [" +
             FormatNumber(j.lower_limit) + ", " + FormatNumber(j.upper_limit) + "]");
      }
    }
    for (const auto& entry : placement_.joint_pd_overrides) {
      if (!joints_by_name.count(entry.first)) Fail("joint_pd.joints: '" + entry.first + "' is not a joint of the robot");
    }
  }

  /// A joint from R is re-parented to the mount: a floating base keeps its
  /// coordinates in the world, so its initial pose is posed there; any
  /// other joint's frame F moves with R.
  void MountJoint(const JointDescription& j, JointDescription* joint) const {
    joint->parent = placement_.parent;
    if (joint->type != JointType::kFree || placement_.parent != "world") {
      joint->X_PF = placement_.X_PR * j.X_PF;
      return;
    }
    const RigidTransform X_WR = placement_.X_PR;
    RigidTransform X_RB;
    Quaternion q_RB = Quaternion::Identity();
    if (j.initial_q.size() == 7) {
      q_RB = Quaternion(j.initial_q[0], j.initial_q[1], j.initial_q[2], j.initial_q[3]).normalized();
      X_RB.R = q_RB.toRotationMatrix();
      X_RB.p = Vector3(j.initial_q[4], j.initial_q[5], j.initial_q[6]);
    }
    const RigidTransform X_WB = X_WR * X_RB;
    const Quaternion q_WB = Quaternion(X_WR.R) * q_RB;
    joint->initial_q = {q_WB.w(), q_WB.x(), q_WB.y(), q_WB.z(), X_WB.p.x(), X_WB.p.y(), X_WB.p.z()};
  }

  /// The joint, prefixed and mounted, with its initial value, and its PD
  /// controller.
  void PlaceJoint(const JointDescription& j) {
    JointDescription joint = j;
    joint.name = Prefixed(j.name);
    joint.child = Prefixed(j.child);
    if (j.parent == "world") {
      MountJoint(j, &joint);
    } else {
      joint.parent = Prefixed(j.parent);
    }
    if (const auto it = placement_.initial.find(j.name); it != placement_.initial.end()) {
      joint.initial_q = {it->second};
    }
    AddUnique(joint, "joint", &scene_.joints);
    AddJointPd(j, joint);
  }

  /// A PD actuator named like the joint holding its initial value, with the
  /// placement's gains (or the joint's own) capped by the file's effort
  /// limit: revolute and prismatic joints, when `joint_pd` asks.
  void AddJointPd(const JointDescription& j, const JointDescription& joint) {
    const auto override_it = placement_.joint_pd_overrides.find(j.name);
    const bool listed = override_it != placement_.joint_pd_overrides.end();
    if (!IsAxial(j.type) || (!placement_.joint_pd && !listed)) return;
    // A coupled joint (a mimic finger) is driven by its leader through the
    // coupler; a PD holding its initial value would fight the coupling. It
    // gets one only when joint_pd.joints names it.
    if (!listed && Follows(j.name)) return;
    const JointPdGains gains =
        override_it != placement_.joint_pd_overrides.end() ? override_it->second : *placement_.joint_pd;
    ActuatorDescription a;
    a.name = joint.name;
    a.joint = joint.name;
    a.kp = gains.kp;
    a.kd = gains.kd;
    if (const auto limits = robot_.joint_limits.find(j.name);
        limits != robot_.joint_limits.end() && std::isfinite(limits->second.effort)) {
      a.effort_limit = limits->second.effort;
    }
    a.target_position = joint.initial_q.empty() ? 0.0 : joint.initial_q[0];
    a.where = placement_.where;
    AddUnique(a, "actuator", &scene_.actuators);
  }

  /// The file's own actuators (MJCF servos), targeting the initial values.
  void PlaceFileActuators() {
    for (const ActuatorDescription& file_actuator : robot_.actuators) {
      ActuatorDescription a = file_actuator;
      a.name = Prefixed(a.name);
      a.joint = Prefixed(a.joint);
      if (const auto it = placement_.initial.find(file_actuator.joint); it != placement_.initial.end()) {
        a.target_position = it->second;
      }
      AddUnique(a, "actuator", &scene_.actuators);
    }
  }

  /// The file's motors, on the prefixed joints.
  void PlaceFileMotors() {
    for (const MotorDescription& file_motor : robot_.motors) {
      MotorDescription m = file_motor;
      m.name = Prefixed(m.name);
      for (JointTerm& j : m.joints) j.joint = Prefixed(j.joint);
      AddUnique(m, "actuator", &scene_.motors);
    }
  }

  /// The file's welds and balls; those on the world hold to the mount.
  void PlaceConstraints() {
    for (const ConstraintDescription& file_constraint : robot_.constraints) {
      ConstraintDescription c = file_constraint;
      c.name = Prefixed(c.name);
      c.body_a = c.body_a == "world" ? placement_.parent : Prefixed(c.body_a);
      c.body_b = c.body_b == "world" ? placement_.parent : Prefixed(c.body_b);
      if (file_constraint.body_a == "world") c.X_AFa = placement_.X_PR * c.X_AFa;
      if (file_constraint.body_b == "world") c.X_BFb = placement_.X_PR * c.X_BFb;
      AddUnique(c, "constraint", &scene_.constraints);
    }
    for (const auto& [a, b] : robot_.excluded_body_pairs) {
      scene_.excluded_body_pairs.emplace_back(a == "world" ? placement_.parent : Prefixed(a),
                                              b == "world" ? placement_.parent : Prefixed(b));
    }
  }

  /// The file's joint couplings and tendon rows, between the prefixed joints.
  void PlaceCouplers() {
    for (const JointCouplerDescription& file_coupler : robot_.couplers) {
      JointCouplerDescription c = file_coupler;
      c.joint = Prefixed(c.joint);
      c.to = Prefixed(c.to);
      scene_.couplers.push_back(std::move(c));
    }
    for (const TendonDescription& file_tendon : robot_.tendons) {
      TendonDescription t = file_tendon;
      t.name = Prefixed(t.name);
      for (JointTerm& j : t.joints) j.joint = Prefixed(j.joint);
      scene_.tendons.push_back(std::move(t));
    }
    for (const TendonServoDescription& file_servo : robot_.tendon_servos) {
      TendonServoDescription t = file_servo;
      t.name = Prefixed(t.name);
      for (JointTerm& j : t.joints) j.joint = Prefixed(j.joint);
      scene_.tendon_servos.push_back(std::move(t));
    }
  }

  bool Follows(const std::string& joint) const {
    return std::any_of(robot_.couplers.begin(), robot_.couplers.end(),
                       [&](const JointCouplerDescription& c) { return c.joint == joint; });
  }

  const RobotDescription& robot_;
  const RobotPlacement& placement_;
  SceneDescription& scene_;
  const std::string at_;  ///< "FILE:LINE: robot 'NAME' (ROBOT FILE): ", before every message.
  std::set<std::string> geometry_names_;                   ///< The scene's, and the robot's placed so far.
  std::optional<MaterialDescription> base_material_;       ///< The scene's default material.
  std::map<double, std::string> friction_material_;       ///< Friction -> the material made for it.
};

}  // namespace

std::string RobotElementName(const RobotPlacement& placement, const std::string& name) {
  return placement.name.empty() ? name : placement.name + "/" + name;
}

void PlaceRobot(const RobotDescription& robot, const RobotPlacement& placement, SceneDescription* scene) {
  RobotPlacer(robot, placement, scene).Place();
}

}  // namespace stiction
