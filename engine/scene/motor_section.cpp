// Motors (docs/scene-format.md, "Motors"): torque or force actuators without
// feedback, each on one revolute or prismatic joint or on several with
// coefficients (an MJCF fixed tendon), the scene's or a robot's.
#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

#include "engine/scene/scene_parser.h"

namespace stiction {
namespace {

constexpr std::array<std::string_view, 7> kMotorKeys = {"name",      "joint", "joints",      "gain",
                                                        "ctrl_range", "ctrl", "effort_limit"};

/// `joint: NAME` (coefficient 1) or `joints: {NAME: c, ...}`, exactly one.
std::vector<JointTerm> ReadMotorJoints(const YamlReader& reader, const MapView& map, const Ctx& ctx,
                                        const YAML::Node& node) {
  if (map.Has("joint") == map.Has("joints")) {
    Fail(ctx, node, "a motor needs exactly one of 'joint' (one joint) and 'joints' (joint: coefficient)");
  }
  if (map.Has("joint")) return {JointTerm{reader.ReadName(map.CtxOf("joint"), map.Get("joint")), 1.0}};
  const MapView joints(reader, map.CtxOf("joints"), map.Get("joints"));
  std::vector<JointTerm> out;
  for (const std::string& key : joints.keys()) {
    const double c = reader.ReadNumber(joints.CtxOf(key), joints.Get(key));
    if (c == 0) Fail(joints.CtxOf(key), joints.Get(key), "a motor joint's coefficient must not be 0");
    out.push_back(JointTerm{key, c});
  }
  if (out.empty()) Fail(map.CtxOf("joints"), map.Get("joints"), "expected at least one joint: coefficient");
  return out;
}

MotorDescription ParseMotor(const YamlReader& reader, const Ctx& ctx, const YAML::Node& node) {
  MotorDescription out;
  const MapView map = OpenElement(reader, ctx, node, kMotorKeys, {"name", "gain"}, &out);
  out.joints = ReadMotorJoints(reader, map, ctx, node);
  out.gain = reader.ReadNumber(map.CtxOf("gain"), map.Get("gain"));
  if (out.gain == 0) Fail(map.CtxOf("gain"), map.Get("gain"), "a motor's gain [N m or N per unit of ctrl] must not be 0");
  if (map.Has("ctrl_range")) {
    const VectorX range = reader.ReadNumbers(map.CtxOf("ctrl_range"), map.Get("ctrl_range"), 2, 2);
    if (!(range[0] < range[1])) {
      Fail(map.CtxOf("ctrl_range"), map.Get("ctrl_range"), "ctrl_range must be [min, max] with min < max");
    }
    out.ctrl_min = range[0];
    out.ctrl_max = range[1];
  }
  if (map.Has("ctrl")) {
    out.ctrl = reader.ReadNumber(map.CtxOf("ctrl"), map.Get("ctrl"));
    if (out.ctrl < out.ctrl_min || out.ctrl > out.ctrl_max) {
      Fail(map.CtxOf("ctrl"), map.Get("ctrl"), "ctrl must lie in ctrl_range");
    }
  } else {
    out.ctrl = std::clamp(0.0, out.ctrl_min, out.ctrl_max);
  }
  if (map.Has("effort_limit")) {
    out.effort_limit = reader.ReadPositive(map.CtxOf("effort_limit"), map.Get("effort_limit"));
  }
  return out;
}

}  // namespace

void SceneParser::ParseMotors() {
  for (const MotorDescription& m : scene_.motors) AddNames(&actuator_names_, m.name, m.where);
  for (const auto& [node, ctx] : merged_.ListElements("motors")) {
    MotorDescription motor = ParseMotor(reader_, ctx, node);
    const MapView map = Register(&actuator_names_, ctx, node, motor.name, motor.where);
    for (const JointTerm& j : motor.joints) {
      CheckAxialJoint(map, map.Has("joint") ? "joint" : "joints", j.joint, scene_.joints,
                      "a motor drives joint coordinates");
    }
    scene_.motors.push_back(std::move(motor));
  }
}

}  // namespace stiction
