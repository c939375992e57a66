#include "engine/scene_compiler.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/multibody/kinematics.h"

namespace stiction {
namespace {

bool IsAxial(JointType type) { return type == JointType::kRevolute || type == JointType::kPrismatic; }

/// Every geometry with the model index of its body: the world's first.
std::vector<CollisionGeometrySpec> CollectGeometries(const SceneDescription& scene, const MultibodyModel& model) {
  std::vector<CollisionGeometrySpec> specs;
  for (const GeometryDescription& g : scene.world_geometries) specs.push_back({0, g});
  for (const BodyDescription& b : scene.bodies) {
    const int index = model.FindBody(b.name);
    for (const GeometryDescription& g : b.geometries) specs.push_back({index, g});
  }
  return specs;
}

/// Bodies joined by a joint do not collide, except with the world, so that
/// a body on a rail or hinge to the world still rests on the ground. Bodies
/// welded together by fixed joints (a robot's links and tool frames, a
/// gripper on a flange) count as one body here: none of them collides with
/// another, nor with the bodies jointed to any of them. Joint frames (an
/// MJCF body's several joints) are part of the joint: a body hangs from the
/// body above its chain of them, as in MuJoCo, which filters a body's
/// contacts with its parent however many joints join them.
CollisionFilter CalcJointFilter(const MultibodyModel& model) {
  CollisionFilter filter;
  const int num_bodies = model.num_bodies();
  std::vector<int> rigid(num_bodies, 0);  // The welded group's topmost body.
  for (int b = 1; b < num_bodies; ++b) {
    const Joint& j = model.joint(model.body(b).joint);
    rigid[b] = j.type == JointType::kFixed && j.parent != 0 ? rigid[j.parent] : b;
  }
  std::vector<int> parent_group(num_bodies, 0);  // The group a group hangs from (0: the world).
  for (int b = 1; b < num_bodies; ++b) {
    int parent = model.body(rigid[b]).parent;
    while (parent != 0 && model.body(parent).joint_frame) parent = model.body(parent).parent;
    parent_group[b] = rigid[parent];
  }
  for (int a = 1; a < num_bodies; ++a) {
    for (int b = a + 1; b < num_bodies; ++b) {
      const bool jointed = (parent_group[a] != 0 && parent_group[a] == rigid[b]) ||
                           (parent_group[b] != 0 && parent_group[b] == rigid[a]);
      if (rigid[a] == rigid[b] || jointed) filter.ExcludeBodyPair(a, b);
    }
  }
  return filter;
}

/// The scene's welds and balls on model bodies; the bodies they join do not
/// collide either. Two known, different bodies: the loader's check
/// (constraint_section.cpp), asserted.
std::vector<BodyConstraint> CompileBodyConstraints(const SceneDescription& scene, const MultibodyModel& model,
                                                   CollisionFilter* filter) {
  auto body_index = [&](const std::string& name) { return name == "world" ? 0 : model.FindBody(name); };
  std::vector<BodyConstraint> out;
  for (const ConstraintDescription& c : scene.constraints) {
    BodyConstraint bc;
    bc.kind = c.type == BodyConstraintType::kWeld ? BodyConstraintKind::kWeld : BodyConstraintKind::kBall;
    bc.body_a = body_index(c.body_a);
    bc.body_b = body_index(c.body_b);
    assert(bc.body_a >= 0 && bc.body_b >= 0 && bc.body_a != bc.body_b);
    bc.X_AFa = c.X_AFa;
    bc.X_BFb = c.X_BFb;
    if (bc.body_a != 0 && bc.body_b != 0) filter->ExcludeBodyPair(bc.body_a, bc.body_b);
    out.push_back(bc);
  }
  return out;
}

/// The scene's joint couplers on model joints: two different revolute or
/// prismatic joints, the loader's check (coupler_section.cpp; robots'
/// couplers by their importers), asserted.
std::vector<JointCoupler> CompileJointCouplers(const SceneDescription& scene, const MultibodyModel& model) {
  std::vector<JointCoupler> out;
  for (const JointCouplerDescription& c : scene.couplers) {
    JointCoupler coupler;
    coupler.joint = model.FindJoint(c.joint);
    coupler.leader = model.FindJoint(c.to);
    assert(coupler.joint >= 0 && coupler.leader >= 0 && coupler.joint != coupler.leader);
    assert(IsAxial(model.joint(coupler.joint).type) && IsAxial(model.joint(coupler.leader).type));
    coupler.ratio = c.ratio;
    coupler.offset = c.offset;
    out.push_back(coupler);
  }
  return out;
}

/// A tendon's joints as (model joint, coefficient). Its rows hold at most
/// two trees (a constraint's Jacobian has one block per tree): a tendon
/// over more is refused, naming it.
std::vector<std::pair<int, double>> CompileTendonJoints(const std::string& name, const std::vector<JointTerm>& terms,
                                                        const SourceLocation& where, const MultibodyModel& model) {
  std::vector<std::pair<int, double>> joints;
  std::set<int> trees;
  for (const JointTerm& j : terms) {
    const int joint = model.FindJoint(j.joint);
    if (joint < 0 || !IsAxial(model.joint(joint).type)) {
      throw InputError(where.ToString() + ": tendon '" + name + "': joint '" + j.joint +
                       "' is not a revolute or prismatic joint of the scene");
    }
    joints.emplace_back(joint, j.coefficient);
    trees.insert(model.body(model.joint(joint).child).tree);
  }
  if (trees.size() > 2) {
    throw InputError(where.ToString() + ": tendon '" + name + "' spans " + std::to_string(trees.size()) +
                     " separate bodies' chains; Stiction holds a tendon over at most two");
  }
  return joints;
}

std::vector<TendonConstraint> CompileTendons(const SceneDescription& scene, const MultibodyModel& model) {
  std::vector<TendonConstraint> out;
  for (const TendonDescription& t : scene.tendons) {
    TendonConstraint tendon;
    tendon.joints = CompileTendonJoints(t.name, t.joints, t.where, model);
    tendon.lower = t.lower;
    tendon.upper = t.upper;
    out.push_back(std::move(tendon));
  }
  return out;
}

std::vector<TendonServo> CompileTendonServos(const SceneDescription& scene, const MultibodyModel& model) {
  std::vector<TendonServo> out;
  for (const TendonServoDescription& t : scene.tendon_servos) {
    TendonServo servo;
    servo.joints = CompileTendonJoints(t.name, t.joints, t.where, model);
    servo.kp = t.kp;
    servo.kd = t.kd;
    servo.effort_limit = t.effort_limit;
    servo.target_length = t.target_length;
    servo.target_velocity = t.target_velocity;
    out.push_back(std::move(servo));
  }
  return out;
}

/// The scene with every coupled joint that has no initial value of its own
/// (in the scene file, a robot's `initial:` or the robot file) started on
/// its coupling, q_b = ρ q_a + Δ, from its leader's initial value: started
/// anywhere else the near-rigid coupler would snap it there in the first
/// steps. Couplers in scene order, so that a chain whose links are listed
/// leader first starts consistent. A note for each joint this moves from
/// zero, and for each joint whose own value is off its coupling (kept: the
/// coupler pulls it in). nullopt when no joint moves.
std::optional<SceneDescription> StartCoupledJoints(const SceneDescription& scene, std::vector<std::string>* notes) {
  std::optional<SceneDescription> started;
  auto find = [](const SceneDescription& s, const std::string& name) {
    const auto it = std::find_if(s.joints.begin(), s.joints.end(), [&](const JointDescription& j) { return j.name == name; });
    assert(it != s.joints.end());
    return static_cast<std::size_t>(it - s.joints.begin());
  };
  for (const JointCouplerDescription& c : scene.couplers) {
    const SceneDescription& s = started ? *started : scene;
    const JointDescription& leader = s.joints[find(s, c.to)];
    const JointDescription& follower = s.joints[find(s, c.joint)];
    const double q_a = leader.initial_q.empty() ? 0.0 : leader.initial_q[0];
    const double q_b = c.ratio * q_a + c.offset;
    const std::string unit = follower.type == JointType::kRevolute ? " rad" : " m";
    const std::string coupling = "its coupler to '" + c.to + "' (" + c.where.ToString() + ": '" + c.joint +
                                 "' = " + FormatNumber(c.ratio) + " '" + c.to + "' + " + FormatNumber(c.offset) + ")";
    if (!follower.initial_q.empty()) {
      const double off = follower.initial_q[0] - q_b;
      if (std::abs(off) > 1e-12) {
        notes->push_back("joint '" + c.joint + "' starts " + FormatNumber(off) + unit + " off " + coupling +
                         "; the coupler pulls it in over the first steps");
      }
      continue;
    }
    if (q_b == 0) continue;
    const std::size_t index = find(s, c.joint);
    if (!started) started = scene;
    JointDescription& moved = started->joints[index];
    moved.initial_q = {q_b};
    const bool inside = q_b >= moved.lower_limit && q_b <= moved.upper_limit;
    notes->push_back("joint '" + c.joint + "' starts at " + FormatNumber(q_b) + unit + ", where " + coupling +
                     " puts it" +
                     (inside ? "" : " (outside its limits [" + FormatNumber(moved.lower_limit) + ", " +
                                        FormatNumber(moved.upper_limit) + "])"));
  }
  return started;
}

GeometryMaterials CompileMaterials(const SceneDescription& scene, const std::vector<CollisionGeometrySpec>& specs) {
  GeometryMaterials materials;
  for (const MaterialDescription& m : scene.materials) materials.materials.push_back(m.material);
  for (const CollisionGeometrySpec& spec : specs) {
    materials.of_geometry.push_back(static_cast<int>(FindMaterialIndex(scene, spec.description.material)));
  }
  return materials;
}

/// The collision world; compliant geometry takes its material's
/// hydroelastic modulus.
std::unique_ptr<CollisionWorld> MakeCollisionWorld(std::vector<CollisionGeometrySpec> specs, CollisionFilter filter,
                                                   const GeometryMaterials& materials) {
  auto collision = std::make_unique<CollisionWorld>(std::move(specs), std::move(filter));
  for (int g = 0; g < collision->num_geometries(); ++g) {
    if (collision->is_compliant(g)) {
      collision->SetHydroelasticModulus(g, materials.materials[materials.of_geometry[g]].hydroelastic_modulus);
    }
  }
  return collision;
}

/// Each actuator on its model joint, revolute or prismatic: the loader's
/// check (actuator_section.cpp; robots' actuators are axial by
/// construction), asserted.
std::vector<JointActuator> CompileActuators(const SceneDescription& scene, const MultibodyModel& model) {
  std::vector<JointActuator> out;
  for (const ActuatorDescription& a : scene.actuators) {
    JointActuator actuator;
    actuator.joint = model.FindJoint(a.joint);
    assert(actuator.joint >= 0 && IsAxial(model.joint(actuator.joint).type));
    out.push_back(actuator);
  }
  return out;
}

/// Each motor on its joints' velocities (the loader checked the joints:
/// motor_section.cpp, or the importer for a robot's).
std::vector<JointMotor> CompileMotors(const SceneDescription& scene, const MultibodyModel& model) {
  std::vector<JointMotor> out;
  for (const MotorDescription& m : scene.motors) {
    JointMotor motor;
    for (const JointTerm& j : m.joints) {
      const int joint = model.FindJoint(j.joint);
      assert(joint >= 0 && IsAxial(model.joint(joint).type));
      motor.velocities.emplace_back(model.joint(joint).v_start, j.coefficient);
    }
    motor.gain = m.gain;
    motor.ctrl_min = m.ctrl_min;
    motor.ctrl_max = m.ctrl_max;
    motor.ctrl = m.ctrl;
    motor.effort_limit = m.effort_limit;
    out.push_back(std::move(motor));
  }
  return out;
}

/// Every body's pose at the initial configuration.
std::vector<RigidTransform> InitialPoses(const BuiltModel& built) {
  KinematicsCache cache(*built.model);
  CalcKinematics(*built.model, built.q0, built.v0, BodyRange::All(*built.model), &cache);
  return cache.X_WB;
}

/// An arm gripper's impedance at the start pose: E = X_BE on the
/// end-effector body (a known body: the loader's check, gripper_section.cpp).
std::optional<CartesianImpedance> CompileGripperImpedance(const GripperDescription& g, const BuiltModel& built) {
  if (g.end_effector_body.empty()) return std::nullopt;
  const MultibodyModel& model = *built.model;
  const VectorX& q0 = built.q0;
  const int body = model.FindBody(g.end_effector_body);
  assert(body > 0);
  CartesianImpedance c;
  c.body = body;
  c.X_BE = g.X_BE;
  c.X_WT = InitialPoses(built)[static_cast<size_t>(body)] * g.X_BE;
  c.translational_stiffness = g.translational_stiffness;
  c.translational_damping = g.translational_damping;
  c.rotational_stiffness = g.rotational_stiffness;
  c.rotational_damping = g.rotational_damping;
  c.max_force = g.max_force;
  c.max_torque = g.max_torque;
  c.posture_stiffness = g.posture_stiffness;
  c.posture_damping = g.posture_damping;
  if (g.posture_stiffness + g.posture_damping > 0) {
    for (int b = body; b > 0; b = model.body(b).parent) {
      const Joint& j = model.joint(model.body(b).joint);
      if (IsAxial(j.type)) c.posture.push_back(CartesianPostureTerm{model.body(b).joint, q0[j.q_start]});
    }
  }
  return c;
}

/// The model indices of a robot's bodies.
std::set<int> RobotBodies(const RobotSummary& robot, const MultibodyModel& model) {
  std::set<int> bodies;
  for (const std::string& name : robot.bodies) {
    const int b = model.FindBody(name);
    assert(b > 0);
    bodies.insert(b);
  }
  return bodies;
}

/// The revolute and prismatic joints of every `gravity_compensation` robot
/// (each body's inboard joint, joint frames' included) and their trees.
GravityCompensation CompileGravityCompensation(const SceneDescription& scene, const MultibodyModel& model) {
  GravityCompensation comp;
  std::set<int> trees;
  for (const RobotSummary& robot : scene.robots) {
    if (!robot.gravity_compensation) continue;
    for (int b : RobotBodies(robot, model)) {
      const Joint& j = model.joint(model.body(b).joint);
      if (!IsAxial(j.type)) continue;
      comp.velocities.push_back(j.v_start);
      trees.insert(model.body(b).tree);
    }
  }
  comp.trees.assign(trees.begin(), trees.end());
  return comp;
}

/// The scene with each `rest_on_ground` robot moved along z so that its
/// lowest collision geometry at the initial configuration touches z = 0:
/// its joints to the world are shifted (a floating base through its initial
/// position). nullopt when no robot moves.
std::optional<SceneDescription> RestRobotsOnGround(const SceneDescription& scene, const BuiltModel& built,
                                                   const CollisionWorld& collision) {
  std::optional<SceneDescription> rested;
  std::vector<RigidTransform> X_WB;
  for (const RobotSummary& robot : scene.robots) {
    if (!robot.rest_on_ground) continue;
    if (X_WB.empty()) X_WB = InitialPoses(built);
    const std::set<int> bodies = RobotBodies(robot, *built.model);
    double lowest = std::numeric_limits<double>::infinity();
    for (int g = 0; g < collision.num_geometries(); ++g) {
      const CollisionGeometry& geometry = collision.geometry(g);
      if (!geometry.is_collision() || !bodies.count(geometry.body())) continue;
      lowest = std::min(lowest, CalcLowestPointZ(geometry, X_WB[static_cast<size_t>(geometry.body())]));
    }
    if (!std::isfinite(lowest) || lowest == 0) continue;
    if (!rested) rested = scene;
    for (JointDescription& j : rested->joints) {
      if (std::find(robot.world_joints.begin(), robot.world_joints.end(), j.name) == robot.world_joints.end()) continue;
      if (j.type != JointType::kFree) {
        j.X_PF.p.z() -= lowest;
        continue;
      }
      // A floating base: its initial position is in F (the world's frame
      // when the file's X_PF is the identity, as for every importer).
      if (j.initial_q.size() != 7) j.initial_q = {1, 0, 0, 0, 0, 0, 0};
      const Vector3 shift_F = j.X_PF.R.transpose() * Vector3(0, 0, -lowest);
      for (int k = 0; k < 3; ++k) j.initial_q[static_cast<size_t>(4 + k)] += shift_F[k];
    }
  }
  return rested;
}

/// Lets the links of one robot that overlap at the initial configuration
/// (deeper than kInitialOverlap) ignore each other, and returns a note per
/// pair: "ROBOT: links 'A' and 'B' overlap by D mm at the initial
/// configuration; they never collide with each other".
std::vector<std::string> IgnoreInitialOverlaps(const SceneDescription& scene, const BuiltModel& built,
                                               CollisionWorld* collision) {
  // Deeper than rounding, shallower than any overlap that would kick.
  constexpr double kInitialOverlap = 1e-6;  // [m]
  std::vector<std::string> notes;
  if (scene.robots.empty()) return notes;
  collision->UpdatePoses(InitialPoses(built));
  std::vector<ContactPoint> contacts;
  collision->ComputeContacts(0.0, &contacts);
  const MultibodyModel& model = *built.model;
  for (const RobotSummary& robot : scene.robots) {
    const std::set<int> bodies = RobotBodies(robot, model);
    std::map<std::pair<int, int>, double> depth;  // Deepest overlap per body pair [m].
    for (const ContactPoint& c : contacts) {
      if (!(c.phi < -kInitialOverlap) || !bodies.count(c.body_a) || !bodies.count(c.body_b)) continue;
      const std::pair<int, int> pair{std::min(c.body_a, c.body_b), std::max(c.body_a, c.body_b)};
      depth[pair] = std::max(depth[pair], -c.phi);
    }
    for (const auto& [pair, d] : depth) {
      collision->ExcludeBodyPair(pair.first, pair.second);
      notes.push_back(robot.name + ": links '" + model.body(pair.first).name + "' and '" + model.body(pair.second).name +
                      "' overlap by " + FormatNumber(1e3 * d, 3) +
                      " mm at the initial configuration (their collision hulls); they never collide with each other "
                      "(as MoveIt's \"Default\" rule)");
    }
  }
  return notes;
}

}  // namespace

CompiledScene CompileScene(const SceneDescription& loaded) {
  CompiledScene out;
  // A copy only when a coupled joint moves: every other scene compiles as
  // it did before couplers existed.
  const std::optional<SceneDescription> coupled = StartCoupledJoints(loaded, &out.notes);
  const SceneDescription& scene = coupled ? *coupled : loaded;
  out.multibody = BuildModel(scene);
  std::vector<CollisionGeometrySpec> specs = CollectGeometries(scene, *out.multibody.model);
  CollisionFilter filter = CalcJointFilter(*out.multibody.model);
  out.body_constraints = CompileBodyConstraints(scene, *out.multibody.model, &filter);
  for (const auto& [a, b] : scene.excluded_body_pairs) {
    const auto index = [&](const std::string& name) { return name == "world" ? 0 : out.multibody.model->FindBody(name); };
    assert(index(a) >= 0 && index(b) >= 0);  // Robots' bodies, prefixed by PlaceRobot.
    filter.ExcludeBodyPair(index(a), index(b));
  }
  out.materials = CompileMaterials(scene, specs);
  out.collision = MakeCollisionWorld(std::move(specs), std::move(filter), out.materials);
  // Body indices do not change with the robots' placement: the collision
  // world, constraints and materials stay valid for the rebuilt model.
  if (std::optional<SceneDescription> rested = RestRobotsOnGround(scene, out.multibody, *out.collision)) {
    out.multibody = BuildModel(*rested);
  }
  const MultibodyModel& model = *out.multibody.model;
  for (std::string& note : IgnoreInitialOverlaps(scene, out.multibody, out.collision.get())) {
    out.notes.push_back(std::move(note));
  }
  out.joint_couplers = CompileJointCouplers(scene, model);
  out.tendons = CompileTendons(scene, model);
  out.tendon_servos = CompileTendonServos(scene, model);
  out.gravity_compensation = CompileGravityCompensation(scene, model);
  out.actuators = CompileActuators(scene, model);
  out.motors = CompileMotors(scene, model);
  for (const GripperDescription& g : scene.grippers) {
    if (std::optional<CartesianImpedance> c = CompileGripperImpedance(g, out.multibody)) {
      out.gripper_impedances.push_back({&g - scene.grippers.data(), std::move(*c)});
    }
  }
  return out;
}

std::size_t FindMaterialIndex(const SceneDescription& scene, const std::string& name) {
  for (std::size_t i = 0; i < scene.materials.size(); ++i) {
    if (scene.materials[i].name == name) return i;
  }
  throw InputError("unknown material '" + name + "'");
}

}  // namespace stiction
