// The teleoperated gripper (docs/scene-format.md, "Gripper"): what moves the
// palm (a gantry's actuators, or an arm's end effector under a Cartesian
// impedance) and what closes it (two jaws, or a hand's fingers); and the
// scene's command file, which drives the gripper.
#include <algorithm>
#include <array>
#include <optional>
#include <string_view>
#include <vector>

#include "engine/scene/scene_parser.h"

namespace stiction {
namespace {

constexpr std::array<std::string_view, 14> kGripperKeys = {
    "name", "x", "y", "z", "yaw", "left_finger", "right_finger", "finger_open", "finger_closed",
    "fingers", "grip_force", "end_effector", "impedance", "posture"};
constexpr std::array<std::string_view, 4> kFingerKeys = {"name", "actuators", "open", "closed"};
constexpr std::array<std::string_view, 6> kImpedanceKeys = {
    "translational_stiffness", "translational_damping", "rotational_stiffness", "rotational_damping",
    "max_force", "max_torque"};

/// Reads one `gripper:` map into a GripperDescription, part by part.
class GripperParser {
 public:
  GripperParser(const YamlReader& reader, const SceneDescription& scene, const Ctx& ctx, const YAML::Node& node)
      : reader_(reader), scene_(scene), map_(reader, ctx, node) {}

  /// `named`: an entry of `grippers:`, which must have a `name`; the
  /// `gripper:` key has none (its name is "gripper").
  GripperDescription Parse(bool named) {
    map_.AllowOnly(kGripperKeys);
    out_.where = WhereOf(map_.ctx(), map_.node());
    if (named) {
      map_.Require("name", "for a gripper of 'grippers'");
      out_.name = reader_.ReadName(map_.CtxOf("name"), map_.Get("name"));
    } else if (map_.Has("name")) {
      Fail(map_.CtxOf("name"), map_.Get("name"),
           "the one 'gripper' is named \"gripper\"; list several under 'grippers', each with a name");
    }
    if (map_.Has("end_effector")) {
      ParseArm();
    } else {
      ParseGantry();
    }
    if (map_.Has("fingers")) {
      ParseHand();
    } else {
      ParseTwoFingers();
    }
    if (map_.Has("grip_force")) {
      out_.grip_force =
          reader_.ReadInRange(map_.CtxOf("grip_force"), map_.Get("grip_force"), kMinGripForce, kMaxGripForce);
    }
    return std::move(out_);
  }

 private:
  /// A named actuator must exist and drive the joint type its role needs
  /// (`type`; fingers of a hand: either axial type).
  std::string CheckActuator(const Ctx& ctx, const YAML::Node& node, std::optional<JointType> type) const {
    const std::string name = reader_.ReadName(ctx, node);
    const auto a = std::find_if(scene_.actuators.begin(), scene_.actuators.end(),
                                [&](const ActuatorDescription& d) { return d.name == name; });
    if (a == scene_.actuators.end()) {
      Fail(ctx, node, "unknown actuator " + Quote(name) + " (actuators: " + ShortList(NamesOf(scene_.actuators)) + ")");
    }
    const auto j = std::find_if(scene_.joints.begin(), scene_.joints.end(),
                                [&](const JointDescription& d) { return d.name == a->joint; });
    const bool axial = j != scene_.joints.end() &&
                       (j->type == JointType::kRevolute || j->type == JointType::kPrismatic);
    if (!axial || (type && j->type != *type)) {
      Fail(ctx, node,
           "actuator " + Quote(name) + " must drive a " +
               (!type ? "revolute or prismatic" : *type == JointType::kRevolute ? "revolute" : "prismatic") +
               " joint");
    }
    return name;
  }

  /// The actuator under the required key `key`.
  std::string Actuator(const char* key, JointType type) const {
    map_.Require(key);
    return CheckActuator(map_.CtxOf(key), map_.Get(key), type);
  }

  /// An arm: a Cartesian impedance on the end-effector frame, not gantry axes.
  void ParseArm() {
    for (const char* key : {"x", "y", "z", "yaw"}) {
      if (map_.Has(key)) {
        Fail(map_.CtxOf(key), map_.Get(key),
             "an arm gripper (end_effector) is driven in Cartesian space; remove the gantry axis " + Quote(key));
      }
    }
    ParseEndEffector();
    if (map_.Has("impedance")) ParseImpedance();
    if (map_.Has("posture")) ParsePosture();
  }

  void ParseEndEffector() {
    const MapView ee(reader_, map_.CtxOf("end_effector"), map_.Get("end_effector"));
    ee.AllowOnly(std::array<std::string_view, 2>{"body", "pose"}, "for end_effector");
    ee.Require("body", "for end_effector");
    out_.end_effector_body = reader_.ReadName(ee.CtxOf("body"), ee.Get("body"));
    if (std::none_of(scene_.bodies.begin(), scene_.bodies.end(),
                     [&](const BodyDescription& b) { return b.name == out_.end_effector_body; })) {
      Fail(ee.CtxOf("body"), ee.Get("body"), "unknown body " + Quote(out_.end_effector_body));
    }
    if (ee.Has("pose")) out_.X_BE = reader_.ReadPose(ee.CtxOf("pose"), ee.Get("pose")).X;
  }

  void ParseImpedance() {
    const MapView imp(reader_, map_.CtxOf("impedance"), map_.Get("impedance"));
    imp.AllowOnly(kImpedanceKeys, "for impedance");
    double* fields[6] = {&out_.translational_stiffness, &out_.translational_damping, &out_.rotational_stiffness,
                         &out_.rotational_damping, &out_.max_force, &out_.max_torque};
    for (int i = 0; i < 6; ++i) {
      const std::string_view key = kImpedanceKeys[i];
      if (!imp.Has(key)) continue;
      // Gains may be zero; the limits must be positive.
      *fields[i] = i < 4 ? reader_.ReadNonNegative(imp.CtxOf(key), imp.Get(key))
                         : reader_.ReadPositive(imp.CtxOf(key), imp.Get(key));
    }
  }

  void ParsePosture() {
    const MapView posture(reader_, map_.CtxOf("posture"), map_.Get("posture"));
    posture.AllowOnly(std::array<std::string_view, 2>{"stiffness", "damping"}, "for posture");
    if (posture.Has("stiffness")) {
      out_.posture_stiffness = reader_.ReadNonNegative(posture.CtxOf("stiffness"), posture.Get("stiffness"));
    }
    if (posture.Has("damping")) {
      out_.posture_damping = reader_.ReadNonNegative(posture.CtxOf("damping"), posture.Get("damping"));
    }
  }

  /// A gantry: prismatic x, y, z and revolute yaw actuators from the world.
  void ParseGantry() {
    for (const char* key : {"impedance", "posture"}) {
      if (map_.Has(key)) Fail(map_.CtxOf(key), map_.Get(key), Quote(key) + " is for an arm gripper (end_effector)");
    }
    out_.x = Actuator("x", JointType::kPrismatic);
    out_.y = Actuator("y", JointType::kPrismatic);
    out_.z = Actuator("z", JointType::kPrismatic);
    out_.yaw = Actuator("yaw", JointType::kRevolute);
  }

  /// A hand: named fingers of one or more actuators each.
  void ParseHand() {
    for (const char* key : {"left_finger", "right_finger", "finger_open", "finger_closed"}) {
      if (map_.Has(key)) {
        Fail(map_.CtxOf(key), map_.Get(key),
             Quote(key) + " is the two-finger shorthand; with 'fingers' list every finger there");
      }
    }
    const Ctx list_ctx = map_.CtxOf("fingers");
    const YAML::Node& list = map_.Get("fingers");
    if (!list.IsSequence() || list.size() == 0) {
      Fail(list_ctx, list, "expected a non-empty list of fingers, got " + Describe(list));
    }
    std::vector<std::string> used;  // Actuators already in a finger.
    for (const auto& [element, element_ctx] : reader_.Elements(list_ctx, list)) {
      out_.fingers.push_back(ParseFinger(element_ctx, element, &used));
    }
  }

  FingerDescription ParseFinger(const Ctx& ctx, const YAML::Node& node, std::vector<std::string>* used) const {
    const MapView f(reader_, ctx, node);
    f.AllowOnly(kFingerKeys, "for a finger");
    for (const char* key : {"name", "actuators", "open", "closed"}) f.Require(key, "for a finger");
    FingerDescription finger;
    finger.name = reader_.ReadName(f.CtxOf("name"), f.Get("name"));
    for (const FingerDescription& other : out_.fingers) {
      if (other.name == finger.name) Fail(f.CtxOf("name"), f.Get("name"), "duplicate finger name " + Quote(finger.name));
    }
    const YAML::Node& names = f.Get("actuators");
    if (!names.IsSequence() || names.size() == 0) {
      Fail(f.CtxOf("actuators"), names, "expected a non-empty list of actuator names, got " + Describe(names));
    }
    for (const auto& [name_node, name_ctx] : reader_.Elements(f.CtxOf("actuators"), names)) {
      const std::string name = CheckActuator(name_ctx, name_node, std::nullopt);
      if (Contains(*used, name)) Fail(name_ctx, name_node, "actuator " + Quote(name) + " is already in a finger");
      used->push_back(name);
      finger.actuators.push_back(name);
    }
    const int n = static_cast<int>(finger.actuators.size());
    const VectorX open = reader_.ReadNumbers(f.CtxOf("open"), f.Get("open"), n, n);
    const VectorX closed = reader_.ReadNumbers(f.CtxOf("closed"), f.Get("closed"), n, n);
    if (open == closed) Fail(f.CtxOf("closed"), f.Get("closed"), "open and closed must differ");
    finger.open.assign(open.data(), open.data() + n);
    finger.closed.assign(closed.data(), closed.data() + n);
    return finger;
  }

  /// Two prismatic fingers pressing with the grip force.
  void ParseTwoFingers() {
    double open = 0.05, closed = 0.0;
    if (map_.Has("finger_open")) open = reader_.ReadNumber(map_.CtxOf("finger_open"), map_.Get("finger_open"));
    if (map_.Has("finger_closed")) {
      closed = reader_.ReadNumber(map_.CtxOf("finger_closed"), map_.Get("finger_closed"));
    }
    if (open == closed) {
      const bool has_closed = map_.Has("finger_closed");
      Fail(has_closed ? map_.CtxOf("finger_closed") : map_.ctx(), has_closed ? map_.Get("finger_closed") : map_.node(),
           "finger_open and finger_closed must differ");
    }
    for (const char* side : {"left", "right"}) {
      const std::string key = std::string(side) + "_finger";
      out_.fingers.push_back(
          FingerDescription{side, {Actuator(key.c_str(), JointType::kPrismatic)}, {open}, {closed}, true});
    }
  }

  const YamlReader& reader_;
  const SceneDescription& scene_;
  const MapView map_;
  GripperDescription out_;
};

}  // namespace

void SceneParser::ParseGripper() {
  // After the actuators, which it names.
  if (Has("gripper") && Has("grippers")) {
    Fail(KeyCtx("grippers"), Get("grippers"),
         "give either 'gripper' (one) or 'grippers' (a list of named grippers), not both");
  }
  if (Has("gripper")) {
    scene_.grippers.push_back(GripperParser(reader_, scene_, KeyCtx("gripper"), Get("gripper")).Parse(false));
  }
  if (!Has("grippers")) return;
  const Ctx list_ctx = KeyCtx("grippers");
  const YAML::Node& list = Get("grippers");
  if (!list.IsSequence() || list.size() == 0) {
    Fail(list_ctx, list, "expected a non-empty list of grippers, got " + Describe(list));
  }
  std::vector<std::string> used;  // Actuators and end-effector bodies already in a gripper.
  for (const auto& [element, element_ctx] : reader_.Elements(list_ctx, list)) {
    GripperDescription g = GripperParser(reader_, scene_, element_ctx, element).Parse(true);
    const MapView map(reader_, element_ctx, element);
    for (const GripperDescription& other : scene_.grippers) {
      if (other.name == g.name) Fail(map.CtxOf("name"), map.Get("name"), "duplicate gripper name " + Quote(g.name));
    }
    // Two grippers driving one actuator or one end effector would fight.
    std::vector<std::string> mine = {g.x, g.y, g.z, g.yaw, g.end_effector_body};
    for (const FingerDescription& f : g.fingers) mine.insert(mine.end(), f.actuators.begin(), f.actuators.end());
    for (const std::string& name : mine) {
      if (name.empty()) continue;
      if (Contains(used, name)) {
        Fail(element_ctx, element, Quote(name) + " is already driven by another gripper");
      }
    }
    for (const std::string& name : mine) {
      if (!name.empty()) used.push_back(name);
    }
    scene_.grippers.push_back(std::move(g));
  }
}

void SceneParser::ParseCommands() {
  if (!Has("commands")) return;
  const Ctx ctx = KeyCtx("commands");
  const std::string file = reader_.ReadExistingFile(ctx, Get("commands"), "command file");
  if (scene_.grippers.empty()) {
    Fail(ctx, Get("commands"), "a command file needs a gripper (scene key 'gripper' or 'grippers')");
  }
  scene_.commands_file = file;
}

}  // namespace stiction
