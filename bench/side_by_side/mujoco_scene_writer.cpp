#include "bench/side_by_side/mujoco_scene_writer.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "engine/common/text.h"
#include "engine/multibody/multibody_model.h"

namespace stiction::bench {
namespace {

// A limit one side of which is infinite is written with this stand-in [rad | m]
// (MuJoCo's range needs two finite numbers); no joint reaches it.
constexpr double kUnboundedLimit = 1e10;

// Contact room per colliding body geometry: the clutter (40 objects) peaks at
// 126 MuJoCo contacts (3.2 per object, measured in all three configurations),
// so 6 leaves about 2x headroom; an overflow fails the step loudly. MuJoCo
// 2.2's buffers grow with njmax² (nstack), so the room is not made larger.
constexpr int kContactsPerGeometry = 6;
// MuJoCo 2.2.2's mjData arena grows with njmax²: 6 contacts per object for
// the 640-object clutter (15 360 rows) fails mj_makeData ("could not create
// mjData"). Rows are capped at 8192 (a 512 MB arena for the njmax² part),
// which leaves ~3 contacts per object at 640: tight, but an overflow fails
// the step loudly ("contact list full") rather than silently.
constexpr int kMaxConstraintRows = 8192;

// Every number of the MJCF reads back as the scene's double.
std::string Num(double x) { return FormatNumber(x, kRoundTripDigits); }

std::string Vec(const Vector3& v) { return Num(v.x()) + " " + Num(v.y()) + " " + Num(v.z()); }

Quaternion QuaternionOf(const Matrix3& R) { return Quaternion(R).normalized(); }

std::string Quat(const Quaternion& q) {
  return Num(q.w()) + " " + Num(q.x()) + " " + Num(q.y()) + " " + Num(q.z());
}

// pos="..." quat="..." of a pose.
std::string PoseAttributes(const RigidTransform& X) {
  return "pos=\"" + Vec(X.p) + "\" quat=\"" + Quat(QuaternionOf(X.R)) + "\"";
}

std::string Escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// Text inside an XML comment must not hold "--".
std::string CommentSafe(std::string text) {
  for (std::size_t i = text.find("--"); i != std::string::npos; i = text.find("--", i)) {
    text.replace(i, 2, "- -");
  }
  return text;
}

std::string Where(const SourceLocation& where) {
  const std::string at = where.ToString();
  return at.empty() ? "" : " (" + at + ")";
}

std::string JointTypeName(JointType type) {
  switch (type) {
    case JointType::kFree: return "free";
    case JointType::kRevolute: return "revolute";
    case JointType::kPrismatic: return "prismatic";
    case JointType::kBall: return "ball";
    case JointType::kFixed: return "fixed";
  }
  return "?";
}

// Coordinate counts per joint type, as the engine defines them.
std::size_t ExpectedQSize(JointType type) { return static_cast<std::size_t>(JointNumPositions(type)); }
std::size_t ExpectedVSize(JointType type) { return static_cast<std::size_t>(JointNumVelocities(type)); }

// Initial q / v of `joint` with the documented defaults for empty vectors.
std::vector<double> InitialQ(const JointDescription& joint) {
  if (!joint.initial_q.empty()) return joint.initial_q;
  switch (joint.type) {
    case JointType::kFree: return {1, 0, 0, 0, 0, 0, 0};
    case JointType::kBall: return {1, 0, 0, 0};
    case JointType::kRevolute:
    case JointType::kPrismatic: return {0};
    case JointType::kFixed: return {};
  }
  return {};
}

std::vector<double> InitialV(const JointDescription& joint) {
  if (!joint.initial_v.empty()) return joint.initial_v;
  return std::vector<double>(ExpectedVSize(joint.type), 0.0);
}

// Pose X_FM of a free joint at its initial coordinates.
RigidTransform FreeJointPose(const JointDescription& joint) {
  const std::vector<double> q = InitialQ(joint);
  const Quaternion q_FM = Quaternion(q[0], q[1], q[2], q[3]).normalized();
  return {q_FM.toRotationMatrix(), Vector3(q[4], q[5], q[6])};
}

bool HasCollidingGeometry(const std::vector<GeometryDescription>& geometries) {
  return std::any_of(geometries.begin(), geometries.end(),
                     [](const GeometryDescription& g) { return g.collision; });
}

bool ShareAGroup(const GeometryDescription& a, const GeometryDescription& b) {
  for (const std::string& group : a.groups) {
    if (!group.empty() && std::find(b.groups.begin(), b.groups.end(), group) != b.groups.end()) return true;
  }
  return false;
}

// How collision groups treat the colliding geometry pairs of two geometry
// lists: 1 all pairs share a group, 0 none does, -1 some do.
int GroupExclusion(const std::vector<GeometryDescription>& a, const std::vector<GeometryDescription>& b) {
  int shared = 0, total = 0;
  for (const GeometryDescription& ga : a) {
    if (!ga.collision) continue;
    for (const GeometryDescription& gb : b) {
      if (!gb.collision) continue;
      ++total;
      shared += ShareAGroup(ga, gb) ? 1 : 0;
    }
  }
  return shared == 0 ? 0 : shared == total ? 1 : -1;
}

// The MJCF text of a scene, built body by body.
class MjcfBuilder {
 public:
  MjcfBuilder(const SceneDescription& scene, MujocoConfig config) : scene_(scene), config_(config) {}

  // Returns "" and sets why_not_ on the first element that cannot be mapped.
  std::string Build();
  const std::string& why_not() const { return why_not_; }

 private:
  bool Refuse(const std::string& reason) {
    if (why_not_.empty()) why_not_ = reason;
    return false;
  }
  bool CheckSceneLevel();
  bool CheckJoint(const JointDescription& joint);
  bool CheckActuator(const ActuatorDescription& actuator);
  bool Friction(const GeometryDescription& geometry, double* mu);
  bool WriteGeom(const GeometryDescription& geometry, const std::string& name, bool on_body,
                 const std::string& indent);
  bool WriteBody(int body, const JointDescription& joint, const std::string& indent);
  void WriteJoint(const JointDescription& joint, const std::string& indent);

  const SceneDescription& scene_;
  MujocoConfig config_;
  std::ostringstream out_;
  std::string why_not_;
  std::map<std::string, int> body_index_;
  std::map<std::string, std::vector<int>> child_joints_;  // Parent name -> joints.
  std::set<int> written_bodies_;
};

bool MjcfBuilder::CheckSceneLevel() {
  if (!scene_.constraints.empty()) {
    const ConstraintDescription& c = scene_.constraints.front();
    return Refuse("constraint '" + c.name + "'" + Where(c.where) + ": " +
                  (c.type == BodyConstraintType::kWeld ? "weld" : "ball") +
                  " constraints are not mapped to MuJoCo (equality constraints)");
  }
  if (!scene_.couplers.empty()) {
    const JointCouplerDescription& c = scene_.couplers.front();
    return Refuse("coupler of joint '" + c.joint + "'" + Where(c.where) +
                  ": joint couplers are not mapped to MuJoCo (joint equality constraints)");
  }
  if (!scene_.grippers.empty()) {
    return Refuse("gripper" + Where(scene_.grippers.front().where) +
                  ": the teleoperated gripper is not mapped to MuJoCo");
  }
  if (!scene_.tendon_servos.empty()) {
    const TendonServoDescription& t = scene_.tendon_servos.front();
    return Refuse("tendon servo '" + t.name + "'" + Where(t.where) + ": tendon servos are not mapped to MuJoCo");
  }
  for (const MotorDescription& m : scene_.motors) {
    if (m.ctrl != 0) {
      return Refuse("motor '" + m.name + "'" + Where(m.where) +
                    ": motors with a nonzero control are not mapped to MuJoCo (the writer has no <motor>)");
    }
  }
  if (!(scene_.time_step > 0)) return Refuse("time_step must be positive for MuJoCo");
  return true;
}

bool MjcfBuilder::CheckJoint(const JointDescription& joint) {
  const std::string what = "joint '" + joint.name + "'" + Where(joint.where) + ": ";
  if (!joint.initial_q.empty() && joint.initial_q.size() != ExpectedQSize(joint.type)) {
    return Refuse(what + "initial_q has " + std::to_string(joint.initial_q.size()) +
                  " values, a " + JointTypeName(joint.type) + " joint takes " +
                  std::to_string(ExpectedQSize(joint.type)));
  }
  if (!joint.initial_v.empty() && joint.initial_v.size() != ExpectedVSize(joint.type)) {
    return Refuse(what + "initial_v has " + std::to_string(joint.initial_v.size()) +
                  " values, a " + JointTypeName(joint.type) + " joint takes " +
                  std::to_string(ExpectedVSize(joint.type)));
  }
  if (joint.type == JointType::kFree && joint.parent != "world") {
    return Refuse(what + "a free joint below body '" + joint.parent +
                  "' is not mapped to MuJoCo (MuJoCo's free joints hang from the world)");
  }
  if (joint.parent != "world" && body_index_.count(joint.parent) == 0) {
    return Refuse(what + "unknown parent body '" + joint.parent + "'");
  }
  if (body_index_.count(joint.child) == 0) {
    return Refuse(what + "unknown child body '" + joint.child + "'");
  }
  return true;
}

bool MjcfBuilder::CheckActuator(const ActuatorDescription& actuator) {
  const std::string what = "actuator '" + actuator.name + "'" + Where(actuator.where) + ": ";
  const auto joint = std::find_if(scene_.joints.begin(), scene_.joints.end(),
                                  [&](const JointDescription& j) { return j.name == actuator.joint; });
  if (joint == scene_.joints.end()) return Refuse(what + "unknown joint '" + actuator.joint + "'");
  if (joint->type != JointType::kRevolute && joint->type != JointType::kPrismatic) {
    return Refuse(what + "an actuator on a " + JointTypeName(joint->type) +
                  " joint is not mapped to MuJoCo");
  }
  if (!(actuator.effort_limit > 0)) return Refuse(what + "effort_limit must be positive");
  return true;
}

bool MjcfBuilder::Friction(const GeometryDescription& geometry, double* mu) {
  const std::string& name = geometry.material.empty() ? scene_.default_material : geometry.material;
  for (const MaterialDescription& material : scene_.materials) {
    if (material.name == name) {
      *mu = material.material.friction;
      return true;
    }
  }
  return Refuse("geometry '" + geometry.name + "'" + Where(geometry.where) + ": material '" +
                name + "' is not defined");
}

bool MjcfBuilder::WriteGeom(const GeometryDescription& geometry, const std::string& name,
                            bool on_body, const std::string& indent) {
  const std::string what = "geometry '" + geometry.name + "'" + Where(geometry.where) + ": ";
  // Collision groups become body-pair <exclude>s (StictionExcludedBodyPairs).
  const ShapeDescription& shape = geometry.shape;
  std::string type_and_size;
  switch (shape.type) {
    case ShapeType::kMesh:
      return Refuse(what + "meshes are not mapped to MuJoCo");
    case ShapeType::kHalfSpace:
      if (on_body) return Refuse(what + "half-spaces on bodies are not mapped to MuJoCo");
      // An infinite plane (size 0 0 = infinite; 1 = rendering grid spacing);
      // its outward normal is the local +z in both engines.
      type_and_size = "type=\"plane\" size=\"0 0 1\"";
      break;
    case ShapeType::kBox:
      type_and_size = "type=\"box\" size=\"" + Vec(shape.size / 2) + "\"";
      break;
    case ShapeType::kSphere:
      type_and_size = "type=\"sphere\" size=\"" + Num(shape.radius) + "\"";
      break;
    case ShapeType::kCapsule:
    case ShapeType::kCylinder:
      // Both engines: axis = local z; MuJoCo's size is (radius, half-length
      // of the cylindrical part), Stiction's `length` the whole part.
      type_and_size = std::string("type=\"") +
                      (shape.type == ShapeType::kCapsule ? "capsule" : "cylinder") +
                      "\" size=\"" + Num(shape.radius) + " " + Num(shape.length / 2) + "\"";
      break;
  }
  double mu = 0;
  if (!Friction(geometry, &mu)) return false;
  out_ << indent << "<geom name=\"" << Escape(name) << "\" " << type_and_size << " "
       << PoseAttributes(geometry.X_BG) << " friction=\"" << Num(mu) << " 0.005 0.0001\"";
  if (!geometry.collision) out_ << " contype=\"0\" conaffinity=\"0\"";
  out_ << " rgba=\"" << Num(geometry.color[0]) << " " << Num(geometry.color[1]) << " "
       << Num(geometry.color[2]) << " " << Num(geometry.color[3]) << "\"/>\n";
  return true;
}

void MjcfBuilder::WriteJoint(const JointDescription& joint, const std::string& indent) {
  const std::string name = Escape(joint.name);
  if (joint.type == JointType::kFree) {
    out_ << indent << "<freejoint name=\"" << name << "\"/>\n";
    return;
  }
  if (joint.type == JointType::kFixed) return;
  // Joint position and axis in the child frame C: p_CM and R_CM · axis_F
  // (F and M coincide at q = 0).
  out_ << indent << "<joint name=\"" << name << "\" pos=\"" << Vec(joint.X_CM.p) << "\"";
  if (joint.type == JointType::kBall) {
    out_ << " type=\"ball\"";
  } else {
    const Vector3 axis_C = joint.X_CM.R * joint.axis.normalized();
    out_ << " type=\"" << (joint.type == JointType::kRevolute ? "hinge" : "slide") << "\" axis=\""
         << Vec(axis_C) << "\"";
    const bool lower = std::isfinite(joint.lower_limit);
    const bool upper = std::isfinite(joint.upper_limit);
    if (lower || upper) {
      out_ << " limited=\"true\" range=\"" << Num(lower ? joint.lower_limit : -kUnboundedLimit)
           << " " << Num(upper ? joint.upper_limit : kUnboundedLimit) << "\"";
    } else {
      out_ << " limited=\"false\"";
    }
    if (joint.spring_stiffness != 0) {
      out_ << " stiffness=\"" << Num(joint.spring_stiffness) << "\" springref=\""
           << Num(joint.spring_reference) << "\"";
    }
    if (joint.damping != 0) out_ << " damping=\"" << Num(joint.damping) << "\"";
    if (joint.rotor_inertia != 0) out_ << " armature=\"" << Num(joint.rotor_inertia) << "\"";
  }
  out_ << "/>\n";
}

bool MjcfBuilder::WriteBody(int b, const JointDescription& first_joint, const std::string& indent) {
  // Pose of C in its parent: at the initial state for free bodies (MuJoCo's
  // qpos0), else at q = 0: X_PC = X_PF · X_CM⁻¹.
  RigidTransform X_PC = first_joint.X_PF * first_joint.X_CM.inverse();
  if (first_joint.type == JointType::kFree) {
    X_PC = first_joint.X_PF * FreeJointPose(first_joint) * first_joint.X_CM.inverse();
  }
  // A chain of joint frames "B [j]" (an MJCF body with several joints, as the
  // importer splits it) becomes that one body again, with its joints in
  // order: every frame of the chain coincides with B at q = 0, so each
  // joint's X_CM is already in B's frame.
  std::vector<const JointDescription*> joints = {&first_joint};
  for (;;) {
    const BodyDescription& body = scene_.bodies[b];
    if (!written_bodies_.insert(b).second) {
      return Refuse("body '" + body.name + "'" + Where(body.where) + " is the child of more than one joint");
    }
    if (!body.joint_frame) break;
    const std::vector<int>& next = child_joints_[body.name];
    if (next.size() != 1 || !body.geometries.empty() || body.mass > 0) {
      return Refuse("body '" + body.name + "'" + Where(body.where) +
                    ": a joint frame with other than one joint after it is not mapped to MuJoCo");
    }
    const JointDescription& joint = scene_.joints[next.front()];
    const RigidTransform X = joint.X_PF * joint.X_CM.inverse();
    if (!X.R.isIdentity(1e-12) || !X.p.isZero(1e-12)) {
      return Refuse("joint '" + joint.name + "'" + Where(joint.where) +
                    ": a joint frame that moves its body at q = 0 is not mapped to MuJoCo");
    }
    joints.push_back(&joint);
    b = body_index_.at(joint.child);
  }
  const BodyDescription& body = scene_.bodies[b];
  const JointDescription& joint = *joints.back();
  out_ << indent << "<body name=\"" << Escape(body.name) << "\" " << PoseAttributes(X_PC) << ">\n";
  const std::string inner = indent + "  ";
  for (const JointDescription* j : joints) WriteJoint(*j, inner);
  if (body.mass > 0) {
    const Matrix3& I = body.I_Bcm_B;
    out_ << inner << "<inertial pos=\"" << Vec(body.com_B) << "\" mass=\"" << Num(body.mass)
         << "\" fullinertia=\"" << Num(I(0, 0)) << " " << Num(I(1, 1)) << " " << Num(I(2, 2)) << " "
         << Num(I(0, 1)) << " " << Num(I(0, 2)) << " " << Num(I(1, 2)) << "\"/>\n";
  } else if (joint.type != JointType::kFixed) {
    return Refuse("body '" + body.name + "'" + Where(body.where) + ": a massless body on a " +
                  JointTypeName(joint.type) + " joint (MuJoCo, like Stiction, needs mass on moving bodies)");
  }
  // A massless body (a URDF link on a fixed joint, its mass lumped into its
  // moving parent by the importer) gets no <inertial>: MuJoCo refuses a zero
  // inertia ("inertia must have positive eigenvalues") but accepts a
  // jointless body without one (inertiafromgeom="false": mass 0), welded to
  // its parent exactly as Stiction welds it.
  for (std::size_t g = 0; g < body.geometries.size(); ++g) {
    const GeometryDescription& geometry = body.geometries[g];
    const std::string name =
        body.name + "/" + (geometry.name.empty() ? std::to_string(g) : geometry.name);
    if (!WriteGeom(geometry, name, /*on_body=*/true, inner)) return false;
  }
  for (const int j : child_joints_[body.name]) {
    const JointDescription& child = scene_.joints[j];
    if (!WriteBody(body_index_.at(child.child), child, inner)) return false;
  }
  out_ << indent << "</body>\n";
  return true;
}

std::string MjcfBuilder::Build() {
  if (!CheckSceneLevel()) return "";
  for (std::size_t b = 0; b < scene_.bodies.size(); ++b) {
    body_index_[scene_.bodies[b].name] = static_cast<int>(b);
  }
  for (std::size_t j = 0; j < scene_.joints.size(); ++j) {
    const JointDescription& joint = scene_.joints[j];
    if (!CheckJoint(joint)) return "";
    child_joints_[joint.parent].push_back(static_cast<int>(j));
  }
  for (const ActuatorDescription& actuator : scene_.actuators) {
    if (!CheckActuator(actuator)) return "";
  }

  const MujocoContactCapacity capacity = MujocoCapacity(scene_, config_);
  const bool pyramidal = config_ == MujocoConfig::kPyramidalNewton;
  const bool noslip = config_ == MujocoConfig::kEllipticNoslip;
  out_ << "<!-- stiction-bench (issue 8): " << CommentSafe(scene_.file.empty() ? "scene" : scene_.file)
       << " in MuJoCo, configuration \"" << MujocoConfigName(config_)
       << "\": solver Newton, cone " << (pyramidal ? "pyramidal" : "elliptic")
       << (noslip ? ", noslip_iterations 10" : "")
       << ". Every other option at MuJoCo's defaults (integrator Euler, iterations, tolerance,"
          " solref, solimp, margin, condim). -->\n";
  out_ << "<mujoco model=\"stiction-bench\">\n";
  // Angles in radians (MJCF's default is degrees); the inertia is explicit.
  out_ << "  <compiler angle=\"radian\" inertiafromgeom=\"false\"/>\n";
  out_ << "  <option timestep=\"" << Num(scene_.time_step) << "\" gravity=\"" << Vec(scene_.gravity)
       << "\" solver=\"Newton\" cone=\"" << (pyramidal ? "pyramidal" : "elliptic") << "\""
       << (noslip ? " noslip_iterations=\"10\"" : "") << "/>\n";
  out_ << "  <size nconmax=\"" << capacity.nconmax << "\" njmax=\"" << capacity.njmax << "\"/>\n";
  out_ << "  <worldbody>\n";
  for (const GeometryDescription& geometry : scene_.world_geometries) {
    if (!WriteGeom(geometry, geometry.name, /*on_body=*/false, "    ")) return "";
  }
  for (const int j : child_joints_["world"]) {
    const JointDescription& joint = scene_.joints[j];
    if (!WriteBody(body_index_.at(joint.child), joint, "    ")) return "";
  }
  out_ << "  </worldbody>\n";
  for (std::size_t b = 0; b < scene_.bodies.size(); ++b) {
    if (written_bodies_.count(static_cast<int>(b)) == 0) {
      const BodyDescription& body = scene_.bodies[b];
      Refuse("body '" + body.name + "'" + Where(body.where) +
             " is not connected to the world by joints");
      return "";
    }
  }
  std::vector<ExcludedBodyPair> excluded;
  std::string split;
  if (!StictionExcludedBodyPairs(scene_, &excluded, &split)) {
    Refuse(split);
    return "";
  }
  if (!excluded.empty()) {
    out_ << "  <contact>\n"
            "    <!-- The body pairs Stiction never tests for contact (rigid groups of fixed joints,"
            " joined groups, collision groups); MuJoCo skips some by itself, not those of bodies"
            " jointed to a body welded to the world. -->\n";
    for (const ExcludedBodyPair& pair : excluded) {
      out_ << "    <exclude body1=\"" << Escape(pair.body1) << "\" body2=\"" << Escape(pair.body2) << "\"/>\n";
    }
    out_ << "  </contact>\n";
  }
  if (!scene_.tendons.empty()) {
    // Fixed tendons with limits (an MJCF model's, imported): Stiction holds
    // them from its zero, the MJCF's qpos0, which is the written model's
    // q = 0 too, so the range is written as stored.
    out_ << "  <tendon>\n";
    for (const TendonDescription& t : scene_.tendons) {
      if (t.lower == t.upper) {
        Refuse("tendon '" + t.name + "'" + Where(t.where) +
               ": tendon equalities are not mapped to MuJoCo (equality constraints)");
        return "";
      }
      out_ << "    <fixed name=\"" << Escape(t.name) << "\" limited=\"true\" range=\""
           << Num(std::isfinite(t.lower) ? t.lower : -kUnboundedLimit) << " "
           << Num(std::isfinite(t.upper) ? t.upper : kUnboundedLimit) << "\">\n";
      for (const JointTerm& term : t.joints) {
        out_ << "      <joint joint=\"" << Escape(term.joint) << "\" coef=\"" << Num(term.coefficient) << "\"/>\n";
      }
      out_ << "    </fixed>\n";
    }
    out_ << "  </tendon>\n";
  }
  if (!scene_.actuators.empty()) {
    out_ << "  <actuator>\n";
    for (const ActuatorDescription& a : scene_.actuators) {
      // force = ctrl − kp q − kd v, ctrl = kp q_d + kd v_d (MujocoControl).
      out_ << "    <general name=\"" << Escape(a.name) << "\" joint=\"" << Escape(a.joint)
           << "\" gainprm=\"1\" biastype=\"affine\" biasprm=\"0 " << Num(a.kp == 0 ? 0.0 : -a.kp) << " "
           << Num(a.kd == 0 ? 0.0 : -a.kd) << "\" ctrllimited=\"false\" forcelimited=\"true\" forcerange=\""
           << Num(-a.effort_limit) << " " << Num(a.effort_limit) << "\"/>\n";
    }
    out_ << "  </actuator>\n";
  }
  out_ << "</mujoco>\n";
  return out_.str();
}

}  // namespace

bool StictionExcludedBodyPairs(const SceneDescription& scene, std::vector<ExcludedBodyPair>* pairs,
                               std::string* why_not) {
  pairs->clear();
  const int n = static_cast<int>(scene.bodies.size());
  std::map<std::string, int> index;
  for (int b = 0; b < n; ++b) index[scene.bodies[b].name] = b;
  // Parent body of each body (-1: the world) and whether it hangs on a fixed joint.
  std::vector<int> parent(n, -1);
  std::vector<bool> welded(n, false);
  for (const JointDescription& joint : scene.joints) {
    const auto child = index.find(joint.child);
    if (child == index.end()) continue;  // WriteMjcf refuses it with its name.
    const auto p = index.find(joint.parent);
    parent[child->second] = p == index.end() ? -1 : p->second;
    welded[child->second] = joint.type == JointType::kFixed;
  }
  // The rigid group of each body: the topmost body of its chain of fixed
  // joints, stopping below the world (Simulation's rule: a body welded to
  // the world is a group of its own, not part of the world).
  std::vector<int> rigid(n, -1);
  for (int b = 0; b < n; ++b) {
    int top = b;
    for (int steps = 0; welded[top] && parent[top] >= 0 && steps < n; ++steps) top = parent[top];
    rigid[b] = top;
  }
  std::vector<bool> colliding(n);
  for (int b = 0; b < n; ++b) colliding[b] = HasCollidingGeometry(scene.bodies[b].geometries);
  bool any_group = false;
  auto has_group = [](const std::vector<GeometryDescription>& geometries) {
    return std::any_of(geometries.begin(), geometries.end(), [](const GeometryDescription& g) {
      return std::any_of(g.groups.begin(), g.groups.end(), [](const std::string& s) { return !s.empty(); });
    });
  };
  any_group = has_group(scene.world_geometries);
  for (const BodyDescription& body : scene.bodies) any_group = any_group || has_group(body.geometries);
  auto split = [&](const std::string& a, const std::string& b) {
    if (why_not) {
      *why_not = "bodies '" + a + "' and '" + b +
                 "': collision groups exclude only some of their geometry pairs (MuJoCo's <exclude> "
                 "takes whole bodies)";
    }
    return false;
  };
  if (any_group && HasCollidingGeometry(scene.world_geometries)) {
    for (int b = 0; b < n; ++b) {
      if (!colliding[b]) continue;
      const int g = GroupExclusion(scene.world_geometries, scene.bodies[b].geometries);
      if (g < 0) return split("world", scene.bodies[b].name);
      if (g > 0) pairs->push_back({"world", scene.bodies[b].name});
    }
  }
  for (int a = 0; a < n; ++a) {
    if (!colliding[a]) continue;
    const int top_a = rigid[a];
    const int parent_group_a = parent[top_a] >= 0 ? rigid[parent[top_a]] : -1;
    for (int b = a + 1; b < n; ++b) {
      if (!colliding[b]) continue;
      const int top_b = rigid[b];
      const int parent_group_b = parent[top_b] >= 0 ? rigid[parent[top_b]] : -1;
      bool excluded = top_a == top_b || top_b == parent_group_a || top_a == parent_group_b;
      if (!excluded && any_group) {
        const int g = GroupExclusion(scene.bodies[a].geometries, scene.bodies[b].geometries);
        if (g < 0) return split(scene.bodies[a].name, scene.bodies[b].name);
        excluded = g > 0;
      }
      if (excluded) pairs->push_back({scene.bodies[a].name, scene.bodies[b].name});
    }
  }
  return true;
}

std::string MujocoConfigName(MujocoConfig config) {
  switch (config) {
    case MujocoConfig::kPyramidalNewton: return "pyramidal Newton";
    case MujocoConfig::kEllipticNewton: return "elliptic Newton";
    case MujocoConfig::kEllipticNoslip: return "elliptic Newton + noslip";
  }
  return "?";
}

MujocoContactCapacity MujocoCapacity(const SceneDescription& scene, MujocoConfig config) {
  int colliding = 0;
  for (const BodyDescription& body : scene.bodies) {
    for (const GeometryDescription& geometry : body.geometries) colliding += geometry.collision ? 1 : 0;
  }
  int limited = 0;
  for (const JointDescription& joint : scene.joints) {
    limited += std::isfinite(joint.lower_limit) || std::isfinite(joint.upper_limit) ? 1 : 0;
  }
  MujocoContactCapacity capacity;
  capacity.nconmax = std::max(capacity.nconmax, kContactsPerGeometry * colliding);
  const int rows_per_contact = config == MujocoConfig::kPyramidalNewton ? 4 : 3;
  capacity.njmax = std::max(capacity.njmax, rows_per_contact * capacity.nconmax + limited);
  if (capacity.njmax > kMaxConstraintRows) {
    capacity.njmax = kMaxConstraintRows;
    capacity.nconmax = std::max(1, (kMaxConstraintRows - limited) / rows_per_contact);
  }
  return capacity;
}

std::string WriteMjcf(const SceneDescription& scene, MujocoConfig config, std::string* why_not) {
  MjcfBuilder builder(scene, config);
  std::string mjcf = builder.Build();
  if (mjcf.empty() && why_not) *why_not = builder.why_not();
  return mjcf;
}

MujocoJointState ToMujocoJointState(const JointDescription& joint) {
  const std::vector<double> q = InitialQ(joint);
  const std::vector<double> v = InitialV(joint);
  MujocoJointState state;
  switch (joint.type) {
    case JointType::kFixed:
      break;
    case JointType::kRevolute:
    case JointType::kPrismatic:
      state.qpos = {q[0]};
      state.qvel = {v[0]};
      break;
    case JointType::kBall: {
      const Quaternion q_FM = Quaternion(q[0], q[1], q[2], q[3]).normalized();
      const Quaternion q_CM = QuaternionOf(joint.X_CM.R);
      const Quaternion q_mj = (q_CM * q_FM * q_CM.conjugate()).normalized();
      const Vector3 w_C = joint.X_CM.R * Vector3(v[0], v[1], v[2]);
      state.qpos = {q_mj.w(), q_mj.x(), q_mj.y(), q_mj.z()};
      state.qvel = {w_C.x(), w_C.y(), w_C.z()};
      break;
    }
    case JointType::kFree: {
      // The parent is the world (WriteMjcf refuses others), so P = W.
      const RigidTransform X_FM = FreeJointPose(joint);
      const RigidTransform X_WM = joint.X_PF * X_FM;
      const RigidTransform X_WC = X_WM * joint.X_CM.inverse();
      const Vector3 w_M(v[0], v[1], v[2]);
      const Vector3 v_F(v[3], v[4], v[5]);
      const Vector3 w_W = X_WM.R * w_M;
      const Vector3 w_C = joint.X_CM.R * w_M;
      // Velocity of C's origin: that of M's origin plus ω × (p_WCo − p_WMo).
      const Vector3 v_WCo = joint.X_PF.R * v_F + w_W.cross(X_WC.p - X_WM.p);
      const Quaternion q_WC = QuaternionOf(X_WC.R);
      state.qpos = {X_WC.p.x(), X_WC.p.y(), X_WC.p.z(), q_WC.w(), q_WC.x(), q_WC.y(), q_WC.z()};
      state.qvel = {v_WCo.x(), v_WCo.y(), v_WCo.z(), w_C.x(), w_C.y(), w_C.z()};
      break;
    }
  }
  return state;
}

double MujocoControl(const ActuatorDescription& actuator) {
  return actuator.kp * actuator.target_position + actuator.kd * actuator.target_velocity;
}

}  // namespace stiction::bench
