// Joints (docs/scene-format.md, "Joints"): type, parent and child bodies,
// frames, axis, limits, spring, damping, rotor inertia and initial state;
// then the checks of the joint tree (every body has at most one parent
// joint and reaches the world) and the implicit free joint of every body
// without one, posed by the body's `pose` and `velocity`.
#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include "engine/common/text.h"
#include "engine/scene/scene_parser.h"

namespace stiction {
namespace {

constexpr std::array<std::string_view, 5> kJointTypes = {"free", "revolute", "prismatic", "ball", "fixed"};
constexpr std::array<std::string_view, 12> kJointKeys = {
    "name",   "type",   "parent",  "child",         "parent_frame", "child_frame",
    "axis",   "limits", "spring",  "damping",       "rotor_inertia", "initial"};
constexpr std::array<std::string_view, 5> kAxialJointOnlyKeys = {"axis", "limits", "spring",
                                                                 "damping", "rotor_inertia"};
constexpr std::array<std::string_view, 2> kVelocityKeys = {"linear", "angular"};

JointType JointTypeFromName(const std::string& name) {
  if (name == "free") return JointType::kFree;
  if (name == "revolute") return JointType::kRevolute;
  if (name == "prismatic") return JointType::kPrismatic;
  if (name == "ball") return JointType::kBall;
  return JointType::kFixed;
}

bool IsAxial(JointType type) { return type == JointType::kRevolute || type == JointType::kPrismatic; }

std::vector<double> ToStd(const Quaternion& q) { return {q.w(), q.x(), q.y(), q.z()}; }

/// Zero coordinates and velocities of the joint's size (identity
/// quaternions).
void SetZeroInitialState(JointDescription* joint) {
  switch (joint->type) {
    case JointType::kRevolute:
    case JointType::kPrismatic:
      joint->initial_q = {0.0};
      joint->initial_v = {0.0};
      break;
    case JointType::kBall:
      joint->initial_q = {1.0, 0.0, 0.0, 0.0};
      joint->initial_v = {0.0, 0.0, 0.0};
      break;
    case JointType::kFree:
      joint->initial_q = {1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
      joint->initial_v = std::vector<double>(6, 0.0);
      break;
    case JointType::kFixed:
      break;
  }
}

/// A revolute or prismatic joint's initial {position, velocity}, within
/// its limits.
void ParseAxialInitial(const YamlReader& reader, const MapView& map, JointDescription* joint) {
  if (map.Has("position")) {
    const Ctx position_ctx = map.CtxOf("position");
    const double q = reader.ReadNumber(position_ctx, map.Get("position"));
    if (q < joint->lower_limit || q > joint->upper_limit) {
      Fail(position_ctx, map.Get("position"),
           "initial position " + OneLine(map.Get("position").Scalar()) + " is outside the limits [" +
               FormatNumber(joint->lower_limit) + ", " + FormatNumber(joint->upper_limit) + "]");
    }
    joint->initial_q = {q};
  }
  if (map.Has("velocity")) {
    joint->initial_v = {reader.ReadNumber(map.CtxOf("velocity"), map.Get("velocity"))};
  }
}

/// A free joint's initial {position: pose, velocity: {angular (in M), linear (in F)}}.
void ParseFreeInitial(const YamlReader& reader, const MapView& map, JointDescription* joint) {
  if (map.Has("position")) {
    const PoseValue pose = reader.ReadPose(map.CtxOf("position"), map.Get("position"));
    joint->initial_q = ToStd(pose.q);
    joint->initial_q.insert(joint->initial_q.end(), pose.X.p.data(), pose.X.p.data() + 3);
  }
  if (map.Has("velocity")) {
    const MapView velocity(reader, map.CtxOf("velocity"), map.Get("velocity"));
    velocity.AllowOnly(kVelocityKeys);
    if (velocity.Has("angular")) {
      const Vector3 w_M = reader.ReadVector3(velocity.CtxOf("angular"), velocity.Get("angular"));
      std::copy(w_M.data(), w_M.data() + 3, joint->initial_v.begin());
    }
    if (velocity.Has("linear")) {
      const Vector3 v_F = reader.ReadVector3(velocity.CtxOf("linear"), velocity.Get("linear"));
      std::copy(v_F.data(), v_F.data() + 3, joint->initial_v.begin() + 3);
    }
  }
}

void ParseJointInitial(const YamlReader& reader, const MapView& joint_map, JointDescription* joint) {
  SetZeroInitialState(joint);
  if (!joint_map.Has("initial")) return;
  const Ctx ctx = joint_map.CtxOf("initial");
  const YAML::Node& node = joint_map.Get("initial");
  if (joint->type == JointType::kFixed) {
    Fail(ctx, node, "a fixed joint has no coordinates, so it takes no 'initial'");
  }
  const MapView map(reader, ctx, node);
  map.AllowOnly(std::array<std::string_view, 2>{"position", "velocity"});
  if (IsAxial(joint->type)) {
    ParseAxialInitial(reader, map, joint);
  } else if (joint->type == JointType::kBall) {
    if (map.Has("position")) {
      joint->initial_q = ToStd(reader.ReadOrientation(map.CtxOf("position"), map.Get("position")));
    }
    if (map.Has("velocity")) {
      const Vector3 w = reader.ReadVector3(map.CtxOf("velocity"), map.Get("velocity"));
      joint->initial_v = {w.x(), w.y(), w.z()};
    }
  } else {
    ParseFreeInitial(reader, map, joint);
  }
}

/// Axis, limits, spring, damping and rotor inertia: revolute and prismatic
/// joints only.
void ParseAxialKeys(const YamlReader& reader, const MapView& map, const std::string& type, JointDescription* out) {
  for (const std::string_view key : kAxialJointOnlyKeys) {
    if (map.Has(key) && !IsAxial(out->type)) {
      Fail(map.CtxOf(key), map.Get(key),
           Quote(key) + " is only valid for revolute and prismatic joints, not for a " + type + " joint");
    }
  }
  if (map.Has("axis")) {
    const Ctx axis_ctx = map.CtxOf("axis");
    const Vector3 axis = reader.ReadVector3(axis_ctx, map.Get("axis"));
    if (!(axis.norm() > 1e-12)) Fail(axis_ctx, map.Get("axis"), "must be a nonzero vector");
    out->axis = axis.normalized();
  }
  if (map.Has("limits")) {
    const MapView limits(reader, map.CtxOf("limits"), map.Get("limits"));
    limits.AllowOnly(std::array<std::string_view, 2>{"lower", "upper"});
    if (limits.Has("lower")) out->lower_limit = reader.ReadNumber(limits.CtxOf("lower"), limits.Get("lower"));
    if (limits.Has("upper")) out->upper_limit = reader.ReadNumber(limits.CtxOf("upper"), limits.Get("upper"));
    if (out->lower_limit > out->upper_limit) {
      Fail(limits.ctx(), limits.node(),
           "lower (" + FormatNumber(out->lower_limit) + ") must be <= upper (" + FormatNumber(out->upper_limit) +
               ")");
    }
  }
  reader.ReadSubMap(
      map, "spring",
      {{"stiffness", "N m/rad or N/m", "joint spring stiffness K", &out->spring_stiffness, kNonNegative},
       {"reference", "rad or m", "the spring's rest position", &out->spring_reference, kAnyNumber}});
  if (map.Has("damping")) out->damping = reader.ReadNonNegative(map.CtxOf("damping"), map.Get("damping"));
  if (map.Has("rotor_inertia")) {
    out->rotor_inertia = reader.ReadNonNegative(map.CtxOf("rotor_inertia"), map.Get("rotor_inertia"));
  }
}

JointDescription ParseJoint(const YamlReader& reader, const Ctx& ctx, const YAML::Node& node) {
  JointDescription out;
  const MapView map = OpenElement(reader, ctx, node, kJointKeys, {"name", "type", "parent", "child"}, &out);
  const std::string type = reader.ReadChoice(map.CtxOf("type"), map.Get("type"), kJointTypes, "joint type");
  out.type = JointTypeFromName(type);
  out.parent = reader.ReadName(map.CtxOf("parent"), map.Get("parent"));
  out.child = reader.ReadName(map.CtxOf("child"), map.Get("child"));
  if (map.Has("parent_frame")) {
    out.X_PF = reader.ReadPose(map.CtxOf("parent_frame"), map.Get("parent_frame")).X;
  }
  if (map.Has("child_frame")) {
    out.X_CM = reader.ReadPose(map.CtxOf("child_frame"), map.Get("child_frame")).X;
  }
  ParseAxialKeys(reader, map, type, &out);
  ParseJointInitial(reader, map, &out);
  return out;
}

}  // namespace

void SceneParser::CheckJointBodies(const MapView& map, const JointDescription& joint) {
  const Ctx parent_ctx = map.CtxOf("parent");
  const Ctx child_ctx = map.CtxOf("child");
  if (joint.child == "world") {
    Fail(child_ctx, map.Get("child"), "the world cannot be a joint's child");
  }
  if (!body_names_.Has(joint.child)) {
    Fail(child_ctx, map.Get("child"),
         "unknown body " + Quote(joint.child) + " (bodies: " + ShortList(NamesOf(scene_.bodies)) + ")");
  }
  if (joint.parent != "world" && !body_names_.Has(joint.parent)) {
    Fail(parent_ctx, map.Get("parent"),
         "unknown body " + Quote(joint.parent) + " (expected 'world' or one of: " +
             ShortList(NamesOf(scene_.bodies)) + ")");
  }
  if (joint.parent == joint.child) {
    Fail(child_ctx, map.Get("child"), "a body cannot be its own parent");
  }
  const auto [it, inserted] = parent_joint_of_.emplace(joint.child, scene_.joints.size());
  if (!inserted) {
    const JointDescription& other = scene_.joints[it->second];
    Fail(child_ctx, map.Get("child"),
         "body " + Quote(joint.child) + " is already the child of joint " + Quote(other.name) + " (" +
             other.where.ToString() + "); a body has at most one parent joint");
  }
}

void SceneParser::ParseJoints() {
  joint_nodes_ = merged_.ListElements("joints");
  for (const auto& [node, ctx] : joint_nodes_) {
    JointDescription joint = ParseJoint(reader_, ctx, node);
    const MapView map = Register(&joint_names_, ctx, node, joint.name, joint.where);
    CheckJointBodies(map, joint);
    scene_.joints.push_back(std::move(joint));
  }
}

void SceneParser::CheckJointLoops() {
  // Follow each joint's parent chain; it must reach the world.
  for (std::size_t j = 0; j < scene_.joints.size(); ++j) {
    std::vector<std::string> chain = {scene_.joints[j].child};
    std::string body = scene_.joints[j].parent;
    while (body != "world") {
      if (body == scene_.joints[j].child) {
        chain.push_back(body);
        std::string text;
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
          text += (text.empty() ? "" : " -> ") + *it;
        }
        const auto& [node, ctx] = joint_nodes_[j];
        const MapView map(reader_, ctx, node);
        Fail(map.CtxOf("parent"), map.Get("parent"),
             "the joints form a loop (parent chain " + text +
                 "); every body must connect to the world through a tree");
      }
      if (chain.size() > scene_.joints.size() + 1) break;  // A loop not through this joint.
      chain.push_back(body);
      const auto next = parent_joint_of_.find(body);
      if (next == parent_joint_of_.end()) break;  // A free body: its chain ends at the world.
      body = scene_.joints[next->second].parent;
    }
  }
}

void SceneParser::RefuseFreeState(const BodyDescription& body, const JointDescription& joint,
                                  const PendingFreeState& state) const {
  for (const auto* entry : {&state.pose, &state.velocity}) {
    if (!entry->has_value()) continue;
    const auto& [node, ctx] = **entry;
    const std::string key = entry == &state.pose ? "pose" : "velocity";
    Fail(ctx, node,
         Quote(key) + " is only allowed on free bodies, and " + Quote(body.name) + " is the child of joint " +
             Quote(joint.name) + " (" + joint.where.ToString() + "); set that joint's 'initial' instead");
  }
}

JointDescription SceneParser::MakeFreeJoint(const BodyDescription& body, const PendingFreeState& state) const {
  JointDescription joint;
  joint.name = body.name + "_free";
  joint.type = JointType::kFree;
  joint.parent = "world";
  joint.child = body.name;
  joint.where = body.where;
  PoseValue X_WB;
  if (state.pose) X_WB = reader_.ReadPose(state.pose->second, state.pose->first);
  Vector3 w_WB_W = Vector3::Zero();
  Vector3 v_WB_W = Vector3::Zero();
  if (state.velocity) {
    const MapView velocity(reader_, state.velocity->second, state.velocity->first);
    velocity.AllowOnly(kVelocityKeys);
    if (velocity.Has("linear")) v_WB_W = reader_.ReadVector3(velocity.CtxOf("linear"), velocity.Get("linear"));
    if (velocity.Has("angular")) w_WB_W = reader_.ReadVector3(velocity.CtxOf("angular"), velocity.Get("angular"));
  }
  // The free joint's angular velocity is measured in the child frame M = B:
  // ω_M = R_WBᵀ ω_W. Its linear velocity is in F = W.
  const Vector3 w_WB_B = X_WB.X.R.transpose() * w_WB_W;
  joint.initial_q = ToStd(X_WB.q);
  joint.initial_q.insert(joint.initial_q.end(), X_WB.X.p.data(), X_WB.X.p.data() + 3);
  joint.initial_v = {w_WB_B.x(), w_WB_B.y(), w_WB_B.z(), v_WB_W.x(), v_WB_W.y(), v_WB_W.z()};
  return joint;
}

void SceneParser::AddFreeJoints() {
  for (std::size_t b = 0; b < scene_.bodies.size(); ++b) {
    const BodyDescription& body = scene_.bodies[b];
    const PendingFreeState& state = free_states_[b];
    if (const auto parent = parent_joint_of_.find(body.name); parent != parent_joint_of_.end()) {
      RefuseFreeState(body, scene_.joints[parent->second], state);
      continue;
    }
    JointDescription joint = MakeFreeJoint(body, state);
    if (joint_names_.Has(joint.name)) {
      const auto& [node, ctx] = body_nodes_[b];
      const MapView map(reader_, ctx, node);
      Fail(map.CtxOf("name"), map.Get("name"),
           "body " + Quote(body.name) + " is free, and its implicit free joint " + Quote(joint.name) +
               " clashes with the joint defined at " + joint_names_.Where(joint.name).ToString());
    }
    AddNames(&joint_names_, joint.name, joint.where);
    scene_.joints.push_back(std::move(joint));
  }
}

}  // namespace stiction
