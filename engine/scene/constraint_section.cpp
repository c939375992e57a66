// Constraints (docs/scene-format.md, "Constraints"): welds and ball joints
// between two bodies, or a body and the world, the scene's or a robot's.
#include <array>
#include <string_view>

#include "engine/scene/scene_parser.h"

namespace stiction {
namespace {

constexpr std::array<std::string_view, 6> kConstraintKeys = {"name",   "type",    "body_a",
                                                             "body_b", "frame_a", "frame_b"};
constexpr std::array<std::string_view, 2> kConstraintTypes = {"weld", "ball"};

ConstraintDescription ParseConstraint(const YamlReader& reader, const Ctx& ctx, const YAML::Node& node) {
  ConstraintDescription out;
  const MapView map = OpenElement(reader, ctx, node, kConstraintKeys, {"name", "type", "body_a", "body_b"}, &out);
  const std::string type = reader.ReadChoice(map.CtxOf("type"), map.Get("type"), kConstraintTypes, "constraint type");
  out.type = type == "weld" ? BodyConstraintType::kWeld : BodyConstraintType::kBall;
  out.body_a = reader.ReadName(map.CtxOf("body_a"), map.Get("body_a"));
  out.body_b = reader.ReadName(map.CtxOf("body_b"), map.Get("body_b"));
  if (map.Has("frame_a")) out.X_AFa = reader.ReadPose(map.CtxOf("frame_a"), map.Get("frame_a")).X;
  if (map.Has("frame_b")) out.X_BFb = reader.ReadPose(map.CtxOf("frame_b"), map.Get("frame_b")).X;
  return out;
}

}  // namespace

void SceneParser::ParseConstraints() {
  NameRegistry constraint_names("constraint");
  for (const ConstraintDescription& c : scene_.constraints) AddNames(&constraint_names, c.name, c.where);
  for (const auto& [node, ctx] : merged_.ListElements("constraints")) {
    ConstraintDescription constraint = ParseConstraint(reader_, ctx, node);
    const MapView map = Register(&constraint_names, ctx, node, constraint.name, constraint.where);
    // Two known, different bodies (or a body and the world).
    for (const char* key : {"body_a", "body_b"}) {
      const std::string& body = std::string(key) == "body_a" ? constraint.body_a : constraint.body_b;
      if (body != "world" && !body_names_.Has(body)) {
        Fail(map.CtxOf(key), map.Get(key),
             "unknown body " + Quote(body) + " (expected 'world' or one of: " + ShortList(NamesOf(scene_.bodies)) +
                 ")");
      }
    }
    if (constraint.body_a == constraint.body_b) {
      Fail(map.CtxOf("body_b"), map.Get("body_b"),
           "a constraint needs two different bodies, got " + Quote(constraint.body_b) + " twice");
    }
    scene_.constraints.push_back(std::move(constraint));
  }
}

}  // namespace stiction
