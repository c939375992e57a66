#include "engine/scene/urdf_importer.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>

#include <console_bridge/console.h>
#include <tinyxml.h>
#include <urdf_parser/urdf_parser.h>

#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/scene/package_path.h"

namespace stiction {

namespace {

/// Where each named element starts in the file (1-based rows), read with a
/// plain XML parser because liburdfdom keeps no locations.
struct UrdfLines {
  std::map<std::string, int> link, joint;
  std::map<std::string, std::vector<int>> collisions, visuals;  ///< Per link, in file order.
  int robot = 0;
  /// Top-level elements Stiction does not read (<transmission>, <gazebo>,
  /// ...): how many of each, and the line of the first, for one note.
  std::map<std::string, std::pair<int, int>> unused;
  /// Revolute and prismatic joints without the <limit> URDF requires of
  /// them (Drake's models leave it out): read as unlimited.
  std::set<std::string> without_limit;
  /// Joints whose parent is a link 'world' the file does not declare (as
  /// Drake's models write a weld to the world).
  bool undeclared_world = false;
  /// The text liburdfdom reads: the file's, or when one of the above asks,
  /// the file with a <limit> or a <link name="world"/> added (lines are
  /// still those of the file: the maps above).
  std::string text;
};

/// What liburdfdom refuses but Drake, and so files written for it, accept:
/// a revolute or prismatic joint without <limit> (given an empty one, read
/// as unlimited by the converter) and a joint to an undeclared link 'world'
/// (declared). Notes come from the converter.
void AcceptDrakeConventions(TiXmlElement* robot, UrdfLines* lines) {
  for (TiXmlElement* e = robot->FirstChildElement("joint"); e; e = e->NextSiblingElement("joint")) {
    const char* type = e->Attribute("type");
    const char* name = e->Attribute("name");
    const bool axial = type != nullptr && (std::string(type) == "revolute" || std::string(type) == "prismatic");
    if (axial && name != nullptr && e->FirstChildElement("limit") == nullptr) {
      TiXmlElement limit("limit");
      limit.SetAttribute("effort", "0");
      limit.SetAttribute("velocity", "0");
      e->InsertEndChild(limit);
      lines->without_limit.insert(name);
    }
    const TiXmlElement* parent = e->FirstChildElement("parent");
    const char* parent_link = parent ? parent->Attribute("link") : nullptr;
    if (parent_link != nullptr && std::string(parent_link) == "world" && !lines->link.count("world")) {
      lines->undeclared_world = true;
    }
  }
  if (lines->undeclared_world) {
    TiXmlElement world("link");
    world.SetAttribute("name", "world");
    robot->InsertEndChild(world);
  }
}

UrdfLines ReadLines(const std::string& text, const std::string& label) {
  TiXmlDocument doc;
  doc.Parse(text.c_str(), nullptr, TIXML_ENCODING_UTF8);
  if (doc.Error()) {
    const int row = doc.ErrorRow();
    throw InputError(label + (row > 0 ? ":" + std::to_string(row) : "") + ": XML error: " + doc.ErrorDesc());
  }
  UrdfLines lines;
  TiXmlElement* robot = doc.FirstChildElement("robot");
  if (robot == nullptr) throw InputError(label + ": not a URDF file: no <robot> element");
  lines.robot = robot->Row();
  for (const TiXmlElement* e = robot->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string tag = e->Value();
    // <mujoco> holds MuJoCo's options for reading this very file (its URDF
    // compiler's); our own robots carry one for the cross-validation.
    if (tag == "link" || tag == "joint" || tag == "material" || tag == "mujoco") continue;
    auto [it, inserted] = lines.unused.emplace(tag, std::make_pair(0, e->Row()));
    ++it->second.first;
  }
  for (const TiXmlElement* e = robot->FirstChildElement("link"); e; e = e->NextSiblingElement("link")) {
    const char* name = e->Attribute("name");
    if (name == nullptr) continue;  // liburdfdom refuses it; its message says so.
    lines.link.emplace(name, e->Row());
    for (const TiXmlElement* c = e->FirstChildElement("collision"); c; c = c->NextSiblingElement("collision")) {
      lines.collisions[name].push_back(c->Row());
    }
    for (const TiXmlElement* v = e->FirstChildElement("visual"); v; v = v->NextSiblingElement("visual")) {
      lines.visuals[name].push_back(v->Row());
    }
  }
  // Each link's parent link, by the joints, to refuse a cycle before
  // liburdfdom sees it: liburdfdom 3.0 links a cycle's links to each other
  // with shared pointers and leaks them all when it then refuses the file
  // (found by fuzzing, docs/fuzzing.md).
  std::map<std::string, std::vector<std::pair<std::string, const TiXmlElement*>>> parents_of;
  for (const TiXmlElement* e = robot->FirstChildElement("joint"); e; e = e->NextSiblingElement("joint")) {
    if (const char* name = e->Attribute("name")) lines.joint.emplace(name, e->Row());
    const TiXmlElement* parent = e->FirstChildElement("parent");
    const TiXmlElement* child = e->FirstChildElement("child");
    const char* parent_link = parent ? parent->Attribute("link") : nullptr;
    const char* child_link = child ? child->Attribute("link") : nullptr;
    if (parent_link && child_link) parents_of[child_link].emplace_back(parent_link, e);
  }
  // Depth-first search up the parent edges; an edge to a link still on the
  // path closes a cycle.
  enum class Mark { kNew, kOnPath, kDone };
  std::map<std::string, Mark> mark;
  std::function<void(const std::string&)> visit = [&](const std::string& link) {
    mark[link] = Mark::kOnPath;
    if (const auto up = parents_of.find(link); up != parents_of.end()) {
      for (const auto& [parent, joint] : up->second) {
        const Mark m = mark.count(parent) ? mark[parent] : Mark::kNew;
        if (m == Mark::kOnPath) {
          const char* name = joint->Attribute("name");
          throw InputError(label + ":" + std::to_string(joint->Row()) + ": joint " + SingleQuoted(name ? name : "") +
                           ": link " + SingleQuoted(parent) +
                           " would be its own ancestor (the joints form a cycle; a URDF robot is a tree)");
        }
        if (m == Mark::kNew) visit(parent);
      }
    }
    mark[link] = Mark::kDone;
  };
  for (const auto& entry : parents_of) {
    if (!mark.count(entry.first)) visit(entry.first);
  }
  AcceptDrakeConventions(robot, &lines);
  if (lines.without_limit.empty() && !lines.undeclared_world) {
    lines.text = text;
  } else {
    TiXmlPrinter printer;
    doc.Accept(&printer);
    lines.text = printer.CStr();
  }
  return lines;
}

/// Collects liburdfdom's messages (it reports through console_bridge)
/// instead of letting them reach the terminal.
class CapturedLog : public console_bridge::OutputHandler {
 public:
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_WARN) messages.push_back(OneLine(text));
  }
  std::vector<std::string> messages;
};

/// console_bridge's handler is process-wide: one parse at a time.
std::mutex& ParserMutex() {
  static std::mutex mutex;
  return mutex;
}

/// The first [name] or 'name' in a message that is a link or joint, for a line.
int LineOfMessage(const std::string& message, const UrdfLines& lines) {
  for (char open : {'[', '\''}) {
    const char close = open == '[' ? ']' : '\'';
    std::size_t start = message.find(open);
    while (start != std::string::npos) {
      const std::size_t end = message.find(close, start + 1);
      if (end == std::string::npos) break;
      const std::string name = message.substr(start + 1, end - start - 1);
      if (auto it = lines.joint.find(name); it != lines.joint.end()) return it->second;
      if (auto it = lines.link.find(name); it != lines.link.end()) return it->second;
      start = message.find(open, end + 1);
    }
  }
  return 0;
}

RigidTransform ToTransform(const urdf::Pose& pose) {
  RigidTransform X;
  double x, y, z, w;
  pose.rotation.getQuaternion(x, y, z, w);
  X.R = Quaternion(w, x, y, z).normalized().toRotationMatrix();
  X.p = Vector3(pose.position.x, pose.position.y, pose.position.z);
  return X;
}

std::string At(const std::string& file, int line) {
  return SourceLocation{file, line}.ToString();
}

/// The radius a collision sphere of radius 0 (a contact point) gets [m].
constexpr double kContactPointRadius = 1e-4;

class UrdfConverter {
 public:
  UrdfConverter(const urdf::ModelInterface& model, const UrdfLines& lines, std::string label,
                const UrdfImportOptions& options)
      : model_(model), lines_(lines), label_(std::move(label)), options_(options) {}

  RobotDescription Convert() {
    out_.file = label_;
    out_.format = "URDF";
    out_.name = model_.getName();
    const urdf::LinkConstSharedPtr root = model_.getRoot();
    if (!root) throw InputError(At(label_, lines_.robot) + ": URDF has no root link");
    if (root->name == "world") {
      AddWorldLink(*root);
    } else {
      AddLink(*root, nullptr);
    }
    ThrowMeshErrors();
    AddCouplers();
    LumpWeldedMasses(&out_, "<inertial> with a positive mass");
    return std::move(out_);
  }

 private:
  int LinkLine(const std::string& name) const { return LineOf(lines_.link, name); }
  int JointLine(const std::string& name) const { return LineOf(lines_.joint, name); }
  static int LineOf(const std::map<std::string, int>& rows, const std::string& name) {
    const auto it = rows.find(name);
    return it == rows.end() ? 0 : it->second;
  }
  static int NthLine(const std::map<std::string, std::vector<int>>& rows, const std::string& link,
                     std::size_t i, int fallback) {
    const auto it = rows.find(link);
    return it != rows.end() && i < it->second.size() ? it->second[i] : fallback;
  }

  void AddLink(const urdf::Link& link, const urdf::Joint* parent_joint) {
    BodyDescription body;
    body.name = link.name;
    body.where = SourceLocation{label_, LinkLine(link.name)};
    if (link.inertial) {
      const urdf::Inertial& in = *link.inertial;
      const RigidTransform X_BI = ToTransform(in.origin);
      Matrix3 I;
      I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
      if (!std::isfinite(in.mass) || in.mass < 0 || !I.allFinite()) {
        throw InputError(body.where.ToString() + ": link '" + link.name +
                         "': <inertial> mass must be >= 0 and every value finite");
      }
      body.mass = in.mass;
      body.com_B = X_BI.p;
      body.I_Bcm_B = X_BI.R * I * X_BI.R.transpose();
    }
    AddGeometries(link, &body);
    out_.bodies.push_back(std::move(body));

    JointDescription joint = parent_joint ? ConvertJoint(*parent_joint) : RootJoint(link);
    out_.joints.push_back(std::move(joint));

    // Children in file order, so that the model's order follows the file.
    for (const urdf::Joint* j : ChildJointsInFileOrder(link)) {
      const urdf::LinkConstSharedPtr child = model_.getLink(j->child_link_name);
      AddLink(*child, j);
    }
  }

  /// A root link named `world` is the world (the usual ROS way of fixing a
  /// base): its geometry is world geometry, its child joints mount the robot
  /// on the placement's parent, and its inertia, if any, is dropped.
  void AddWorldLink(const urdf::Link& world) {
    const std::string where = At(label_, LinkLine(world.name));
    BodyDescription holder;
    AddGeometries(world, &holder);
    for (GeometryDescription& g : holder.geometries) out_.world_geometries.push_back(std::move(g));
    if (world.inertial && world.inertial->mass > 0) {
      out_.notes.push_back(where + ": link 'world': <inertial> ignored (the world does not move)");
    }
    std::vector<std::string> mounts;
    for (const urdf::Joint* j : ChildJointsInFileOrder(world)) {
      mounts.push_back("'" + j->name + "'");
      AddLink(*model_.getLink(j->child_link_name), j);
    }
    out_.notes.push_back(where + ": root link 'world' is the world: the robot is mounted through joint" +
                         (mounts.size() == 1 ? " " : "s ") + JoinNames(mounts) +
                         (options_.fixed_base ? "" : " (fixed_base: false does not apply)"));
  }

  static std::string JoinNames(const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
  }

  std::vector<const urdf::Joint*> ChildJointsInFileOrder(const urdf::Link& link) const {
    std::vector<const urdf::Joint*> children;
    for (const urdf::JointSharedPtr& j : link.child_joints) children.push_back(j.get());
    std::sort(children.begin(), children.end(), [&](const urdf::Joint* a, const urdf::Joint* b) {
      return JointLine(a->name) < JointLine(b->name);
    });
    return children;
  }

  JointDescription RootJoint(const urdf::Link& root) const {
    JointDescription joint;
    joint.name = root.name + (options_.fixed_base ? "_weld" : "_free");
    joint.type = options_.fixed_base ? JointType::kFixed : JointType::kFree;
    joint.parent = "world";
    joint.child = root.name;
    joint.where = SourceLocation{label_, LinkLine(root.name)};
    return joint;
  }

  JointDescription ConvertJoint(const urdf::Joint& j) {
    JointDescription joint;
    joint.name = j.name;
    joint.parent = j.parent_link_name;
    joint.child = j.child_link_name;
    joint.where = SourceLocation{label_, JointLine(j.name)};
    joint.X_PF = ToTransform(j.parent_to_joint_origin_transform);
    joint.X_CM = RigidTransform::Identity();  // URDF: the child frame is the joint frame.
    joint.axis = Vector3(j.axis.x, j.axis.y, j.axis.z);
    const std::string where = joint.where.ToString();
    switch (j.type) {
      case urdf::Joint::REVOLUTE: joint.type = JointType::kRevolute; break;
      case urdf::Joint::CONTINUOUS: joint.type = JointType::kRevolute; break;
      case urdf::Joint::PRISMATIC: joint.type = JointType::kPrismatic; break;
      case urdf::Joint::FIXED: joint.type = JointType::kFixed; break;
      case urdf::Joint::FLOATING: joint.type = JointType::kFree; break;
      case urdf::Joint::PLANAR:
        throw InputError(where + ": joint '" + j.name +
                         "': type 'planar' is not supported (model it as two prismatic joints and a "
                         "revolute one, through two light links)");
      default:
        throw InputError(where + ": joint '" + j.name + "': unknown joint type");
    }
    const bool has_axis = joint.type == JointType::kRevolute || joint.type == JointType::kPrismatic;
    if (has_axis) {
      const double n = joint.axis.norm();
      if (!(n > 0) || !std::isfinite(n)) {
        throw InputError(where + ": joint '" + j.name + "': <axis xyz> must be a non-zero vector");
      }
      joint.axis /= n;
    }
    RobotJointLimits limits;
    if (lines_.without_limit.count(j.name)) {
      out_.notes.push_back(where + ": joint '" + j.name + "' has no <limit>, which URDF requires of a " +
                           (joint.type == JointType::kRevolute ? "revolute" : "prismatic") +
                           " joint: read as unlimited, with no effort or velocity limit (as Drake reads it)");
    } else if (j.limits) {
      const urdf::JointLimits& l = *j.limits;
      if (j.type == urdf::Joint::REVOLUTE || j.type == urdf::Joint::PRISMATIC) {
        if (!(l.lower <= l.upper) || !std::isfinite(l.lower) || !std::isfinite(l.upper)) {
          throw InputError(where + ": joint '" + j.name + "': <limit> needs finite lower <= upper, got lower=" +
                           FormatNumber(l.lower) + " upper=" + FormatNumber(l.upper));
        }
        // URDF writes lower = upper = 0 for "no position limit" on joints
        // whose limit element only carries effort and velocity.
        if (!(l.lower == 0 && l.upper == 0)) {
          joint.lower_limit = l.lower;
          joint.upper_limit = l.upper;
        } else {
          out_.notes.push_back(where + ": joint '" + j.name +
                               "': <limit lower=0 upper=0> read as no position limit");
        }
      }
      if (l.effort > 0 && std::isfinite(l.effort)) limits.effort = l.effort;
      if (l.velocity > 0 && std::isfinite(l.velocity)) limits.velocity = l.velocity;
    }
    if (has_axis) out_.joint_limits[j.name] = limits;
    if (j.dynamics) {
      if (!(j.dynamics->damping >= 0) || !std::isfinite(j.dynamics->damping)) {
        throw InputError(where + ": joint '" + j.name + "': <dynamics damping> must be >= 0 and finite");
      }
      if (has_axis) joint.damping = j.dynamics->damping;
      if (j.dynamics->friction != 0) {
        out_.notes.push_back(where + ": joint '" + j.name +
                             "': <dynamics friction> ignored (Stiction has no joint dry friction)");
      }
    }
    if (j.mimic) mimics_.push_back(&j);  // Once every joint is known (AddCouplers).

    if (j.safety) {
      out_.notes.push_back(where + ": joint '" + j.name + "': <safety_controller> ignored");
    }
    return joint;
  }

  /// Each <mimic joint="a" multiplier="m" offset="o"/> on a joint b is the
  /// coupler q_b = m q_a + o (robot_description.h). Both joints must be
  /// revolute, continuous or prismatic: a mimic on another type is noted
  /// and skipped; a leader that is not a joint of the file, or a
  /// non-finite multiplier or offset, is refused at b's line.
  void AddCouplers() {
    for (const urdf::Joint* j : mimics_) {
      const urdf::JointMimic& mimic = *j->mimic;
      const std::string where = SourceLocation{label_, JointLine(j->name)}.ToString();
      const std::string what = where + ": joint '" + j->name + "': <mimic joint='" + mimic.joint_name + "'>";
      const auto find = [&](const std::string& name) {
        return std::find_if(out_.joints.begin(), out_.joints.end(),
                            [&](const JointDescription& d) { return d.name == name; });
      };
      const auto leader = find(mimic.joint_name);
      if (leader == out_.joints.end()) throw InputError(what + ": no joint of the file has that name");
      if (!std::isfinite(mimic.multiplier) || !std::isfinite(mimic.offset)) {
        throw InputError(what + ": multiplier and offset must be finite, got multiplier=" +
                         FormatNumber(mimic.multiplier) + " offset=" + FormatNumber(mimic.offset));
      }
      if (mimic.joint_name == j->name) throw InputError(what + ": a joint cannot mimic itself");
      const auto follower = find(j->name);
      const auto axial = [](JointType t) { return t == JointType::kRevolute || t == JointType::kPrismatic; };
      if (follower == out_.joints.end() || !axial(follower->type) || !axial(leader->type)) {
        out_.notes.push_back(what + " skipped: only revolute, continuous and prismatic joints can be coupled");
        continue;
      }
      JointCouplerDescription c;
      c.joint = j->name;
      c.to = mimic.joint_name;
      c.ratio = mimic.multiplier;
      c.offset = mimic.offset;
      c.where = SourceLocation{label_, JointLine(j->name)};
      out_.couplers.push_back(std::move(c));
    }
  }

  /// Every mesh file that could not be found, in one message (a line each)
  /// rather than only the first: a description fetched without its meshes
  /// (Git LFS, a missing package) is fixed in one pass.
  void ThrowMeshErrors() const {
    if (mesh_errors_.size() == 1) throw InputError(mesh_errors_.front());
    if (mesh_errors_.empty()) return;
    std::string message = label_ + ": " + std::to_string(mesh_errors_.size()) + " mesh files cannot be found:";
    for (const std::string& e : mesh_errors_) message += "\n  " + e;
    throw InputError(message);
  }

  ShapeDescription ConvertShape(const urdf::Geometry& g, const std::string& where, const std::string& what) {
    ShapeDescription shape;
    switch (g.type) {
      case urdf::Geometry::SPHERE:
        shape.type = ShapeType::kSphere;
        shape.radius = static_cast<const urdf::Sphere&>(g).radius;
        break;
      case urdf::Geometry::BOX: {
        const urdf::Vector3& d = static_cast<const urdf::Box&>(g).dim;
        shape.type = ShapeType::kBox;
        shape.size = Vector3(d.x, d.y, d.z);
        break;
      }
      case urdf::Geometry::CYLINDER: {
        const auto& c = static_cast<const urdf::Cylinder&>(g);
        shape.type = ShapeType::kCylinder;  // Both along the local z axis.
        shape.radius = c.radius;
        shape.length = c.length;
        break;
      }
      case urdf::Geometry::MESH: {
        const auto& m = static_cast<const urdf::Mesh&>(g);
        shape.type = ShapeType::kMesh;
        try {
          shape.mesh_file = ResolveRobotUri(m.filename, label_, options_.package_path, where, what + " mesh");
        } catch (const InputError& e) {
          mesh_errors_.push_back(e.what());  // Go on: every missing mesh in one message.
        }
        shape.mesh_scale = Vector3(m.scale.x, m.scale.y, m.scale.z);
        break;
      }
      default:
        throw InputError(where + ": " + what + ": unknown geometry type");
    }
    const bool positive = shape.type == ShapeType::kBox    ? (shape.size.array() > 0).all()
                          : shape.type == ShapeType::kMesh ? (shape.mesh_scale.array() != 0).all()
                                                           : shape.radius > 0;
    if (!positive || (shape.type == ShapeType::kCylinder && !(shape.length > 0)) ||
        !shape.size.allFinite() || !std::isfinite(shape.radius) || !std::isfinite(shape.length)) {
      throw InputError(where + ": " + what + ": dimensions must be positive and finite");
    }
    return shape;
  }

  Vector4 ColorOf(const urdf::Visual& v) const {
    urdf::MaterialSharedPtr material = v.material;
    if ((!material || material->name == v.material_name) && !v.material_name.empty()) {
      if (urdf::MaterialSharedPtr named = model_.getMaterial(v.material_name)) material = named;
    }
    if (!material) return Vector4(0.7, 0.7, 0.7, 1.0);
    const urdf::Color& c = material->color;
    return Vector4(c.r, c.g, c.b, c.a).cwiseMax(0.0).cwiseMin(1.0);
  }

  /// The i-th <collision> or <visual> (`kind`) of a link; null when it has
  /// no geometry.
  std::optional<GeometryDescription> MakeGeometry(const urdf::Link& link, const std::string& kind, std::size_t i,
                                                  const urdf::GeometrySharedPtr& geometry, const urdf::Pose& origin,
                                                  const std::map<std::string, std::vector<int>>& rows) {
    if (!geometry) return std::nullopt;
    GeometryDescription g;
    g.name = link.name + "/" + kind + "_" + std::to_string(i);
    g.where = SourceLocation{label_, NthLine(rows, link.name, i, LinkLine(link.name))};
    const std::string what = "link '" + link.name + "' <" + kind + ">";
    // A sphere of radius 0: Drake's contact points (Atlas's feet, a Jaco's
    // base). Nothing to draw; for contact, a sphere just large enough for
    // the narrow phase, with a note.
    if (geometry->type == urdf::Geometry::SPHERE && static_cast<const urdf::Sphere&>(*geometry).radius == 0) {
      if (kind != "collision") {
        out_.notes.push_back(g.where.ToString() + ": " + what + ": sphere of radius 0 not drawn");
        return std::nullopt;
      }
      out_.notes.push_back(g.where.ToString() + ": " + what + ": sphere of radius 0 (a contact point) used as a sphere of "
                           "radius " + FormatNumber(1e3 * kContactPointRadius) + " mm");
      g.shape.type = ShapeType::kSphere;
      g.shape.radius = kContactPointRadius;
    } else {
      g.shape = ConvertShape(*geometry, g.where.ToString(), what);
    }
    g.X_BG = ToTransform(origin);
    return g;
  }

  void AddGeometries(const urdf::Link& link, BodyDescription* body) {
    const bool has_visuals = !link.visual_array.empty();
    for (std::size_t i = 0; i < link.collision_array.size(); ++i) {
      const urdf::Collision& c = *link.collision_array[i];
      std::optional<GeometryDescription> g = MakeGeometry(link, "collision", i, c.geometry, c.origin, lines_.collisions);
      if (!g) continue;
      g->collision = true;
      g->visual = !has_visuals;  // Drawn only when the link has nothing else to show.
      body->geometries.push_back(std::move(*g));
    }
    for (std::size_t i = 0; i < link.visual_array.size(); ++i) {
      const urdf::Visual& v = *link.visual_array[i];
      std::optional<GeometryDescription> g = MakeGeometry(link, "visual", i, v.geometry, v.origin, lines_.visuals);
      if (!g) continue;
      g->color = ColorOf(v);
      g->collision = false;
      g->visual = true;
      body->geometries.push_back(std::move(*g));
    }
  }

  const urdf::ModelInterface& model_;
  const UrdfLines& lines_;
  std::string label_;
  const UrdfImportOptions& options_;
  RobotDescription out_;
  std::vector<std::string> mesh_errors_;  ///< ConvertShape's, thrown at the end of Convert.
  std::vector<const urdf::Joint*> mimics_;  ///< Joints with a <mimic>, in tree order (AddCouplers).
};

}  // namespace

RobotDescription ImportUrdfString(const std::string& text, const std::string& label,
                                  const UrdfImportOptions& options) {
  const UrdfLines lines = ReadLines(text, label);
  urdf::ModelInterfaceSharedPtr model;
  CapturedLog log;
  {
    std::lock_guard<std::mutex> lock(ParserMutex());
    console_bridge::useOutputHandler(&log);
    try {
      model = urdf::parseURDF(lines.text);
    } catch (const std::exception& e) {
      log.messages.push_back(OneLine(e.what()));
      model.reset();
    }
    console_bridge::restorePreviousOutputHandler();
  }
  if (!model) {
    int line = 0;
    std::string reason;
    for (const std::string& m : log.messages) {
      if (line == 0) line = LineOfMessage(m, lines);
      reason += (reason.empty() ? "" : "; ") + m;
    }
    // xacro's substitutions left in: a .urdf.xacro (or its copy) opened as is.
    const bool xacro = lines.text.find("$(") != std::string::npos || lines.text.find("${") != std::string::npos;
    throw InputError(At(label, line) + ": URDF error: " + (reason.empty() ? "liburdfdom refused the file" : reason) +
                     (xacro ? " (the file holds xacro substitutions such as $(...): expand it first, "
                              "`xacro FILE.urdf.xacro > FILE.urdf`)"
                            : ""));
  }
  RobotDescription robot = UrdfConverter(*model, lines, label, options).Convert();
  for (const std::string& m : log.messages) robot.notes.insert(robot.notes.begin(), label + ": " + m);
  if (!lines.unused.empty()) {
    // One note for all of them: ROS files carry many (a transmission per
    // joint, Gazebo plugins), none of which changes the model.
    std::string listed;
    for (const auto& [tag, count_row] : lines.unused) {
      listed += (listed.empty() ? "" : ", ") + std::to_string(count_row.first) + " <" + tag + "> (first at line " +
                std::to_string(count_row.second) + ")";
    }
    robot.notes.push_back(label + ": not read: " + listed +
                          "; Stiction reads links, joints and materials (controllers, sensors and simulator "
                          "plugins are the scene's business)");
  }
  return robot;
}

RobotDescription ImportUrdf(const std::string& path, const UrdfImportOptions& options) {
  std::ifstream in(path, std::ios::binary);
  std::error_code ec;
  if (!in || std::filesystem::is_directory(path, ec)) {
    throw InputError(path + ": cannot open the URDF file (" +
                     (std::filesystem::exists(path, ec) ? "not a readable file" : "no such file") + ")");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return ImportUrdfString(text.str(), path, options);
}

}  // namespace stiction
