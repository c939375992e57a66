// PD actuators (docs/scene-format.md, "Actuators"): each drives one
// revolute or prismatic joint, the scene's or a robot's, to a target.
#include <algorithm>
#include <array>
#include <string_view>

#include "engine/scene/scene_parser.h"

namespace stiction {
namespace {

constexpr std::array<std::string_view, 6> kActuatorKeys = {"name", "joint", "kp", "kd", "effort_limit", "target"};

ActuatorDescription ParseActuator(const YamlReader& reader, const Ctx& ctx, const YAML::Node& node) {
  ActuatorDescription out;
  const MapView map = OpenElement(reader, ctx, node, kActuatorKeys, {"name", "joint"}, &out);
  out.joint = reader.ReadName(map.CtxOf("joint"), map.Get("joint"));
  if (map.Has("kp")) out.kp = reader.ReadNonNegative(map.CtxOf("kp"), map.Get("kp"));
  if (map.Has("kd")) out.kd = reader.ReadNonNegative(map.CtxOf("kd"), map.Get("kd"));
  if (!(out.kp + out.kd > 0)) {
    const bool has_kd = map.Has("kd");
    Fail(has_kd ? map.CtxOf("kd") : ctx, has_kd ? map.Get("kd") : node,
         "an actuator needs kp > 0 or kd > 0 (both are zero)");
  }
  if (map.Has("effort_limit")) {
    out.effort_limit = reader.ReadPositive(map.CtxOf("effort_limit"), map.Get("effort_limit"));
  }
  reader.ReadSubMap(map, "target",
                    {{"position", "rad or m", "target position q_d", &out.target_position, kAnyNumber},
                     {"velocity", "rad/s or m/s", "target velocity v_d", &out.target_velocity, kAnyNumber}});
  return out;
}

}  // namespace

void SceneParser::ParseActuators() {
  for (const ActuatorDescription& a : scene_.actuators) AddNames(&actuator_names_, a.name, a.where);
  for (const auto& [node, ctx] : merged_.ListElements("actuators")) {
    ActuatorDescription actuator = ParseActuator(reader_, ctx, node);
    const MapView map = Register(&actuator_names_, ctx, node, actuator.name, actuator.where);
    CheckAxialJoint(map, "joint", actuator.joint, scene_.joints, "an actuator drives one joint coordinate");
    scene_.actuators.push_back(std::move(actuator));
  }
}

}  // namespace stiction
