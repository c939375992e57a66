// Geometries (docs/scene-format.md, "Geometry"): a shape, its pose, material,
// colour, collision and drawing flags, groups and the pressure-field option;
// `world_geometry:` and the geometry of bodies (body_section.cpp) alike.
#include <algorithm>
#include <array>
#include <initializer_list>
#include <string_view>
#include <vector>

#include "engine/scene/scene_parser.h"

namespace stiction {
namespace {

constexpr std::array<std::string_view, 6> kShapeTypes = {"sphere", "box",  "capsule",
                                                         "cylinder", "mesh", "half_space"};
constexpr std::array<std::string_view, 9> kGeometryKeys = {
    "name", "shape", "pose", "material", "color", "collision", "visual", "groups", "compliant"};
constexpr std::array<std::string_view, 1> kCompliantKeys = {"resolution"};

/// A mesh shape's file and scale.
void ParseMeshShape(const YamlReader& reader, const MapView& map, ShapeDescription* out) {
  out->type = ShapeType::kMesh;
  map.AllowOnly(std::array<std::string_view, 3>{"type", "file", "scale"}, "for a mesh shape");
  map.Require("file", "for a mesh shape");
  out->mesh_file = reader.ReadExistingFile(map.CtxOf("file"), map.Get("file"), "mesh file");
  if (!map.Has("scale")) return;
  const Ctx scale_ctx = map.CtxOf("scale");
  const YAML::Node& scale = map.Get("scale");
  if (scale.IsScalar()) {
    out->mesh_scale.setConstant(reader.ReadPositive(scale_ctx, scale));
    return;
  }
  if (!scale.IsSequence()) {
    Fail(scale_ctx, scale, "expected a number or a list of 3 numbers, got " + Describe(scale));
  }
  out->mesh_scale = reader.ReadPositiveVector3(scale_ctx, scale);
}

ShapeDescription ParseShape(const YamlReader& reader, const Ctx& ctx, const YAML::Node& node, bool in_world) {
  const MapView map(reader, ctx, node);
  map.Require("type", "(one of: " + JoinNames(kShapeTypes) + ")");
  const Ctx type_ctx = map.CtxOf("type");
  const std::string type = reader.ReadChoice(type_ctx, map.Get("type"), kShapeTypes, "shape type");
  ShapeDescription out;
  auto allow = [&](std::initializer_list<std::string_view> keys) {
    const std::vector<std::string_view> allowed(keys);
    map.AllowOnly(allowed, "for a " + type + " shape");
    for (const std::string_view key : allowed) map.Require(key, "for a " + type + " shape");
  };
  if (type == "sphere") {
    out.type = ShapeType::kSphere;
    allow({"type", "radius"});
    out.radius = reader.ReadPositive(map.CtxOf("radius"), map.Get("radius"));
  } else if (type == "box") {
    out.type = ShapeType::kBox;
    allow({"type", "size"});
    out.size = reader.ReadPositiveVector3(map.CtxOf("size"), map.Get("size"));
  } else if (type == "capsule" || type == "cylinder") {
    out.type = type == "capsule" ? ShapeType::kCapsule : ShapeType::kCylinder;
    allow({"type", "radius", "length"});
    out.radius = reader.ReadPositive(map.CtxOf("radius"), map.Get("radius"));
    out.length = reader.ReadPositive(map.CtxOf("length"), map.Get("length"));
  } else if (type == "mesh") {
    ParseMeshShape(reader, map, &out);
  } else {  // half_space
    out.type = ShapeType::kHalfSpace;
    map.AllowOnly(std::array<std::string_view, 1>{"type"}, "for a half_space shape");
    if (!in_world) {
      Fail(type_ctx, map.Get("type"),
           "a half_space is only allowed in world_geometry (it is infinite, so a body "
           "cannot carry it)");
    }
  }
  return out;
}

/// `compliant: true`, or a map of options (docs/scene-format.md).
void ParseCompliant(const YamlReader& reader, const MapView& map, GeometryDescription* out) {
  const Ctx compliant_ctx = map.CtxOf("compliant");
  const YAML::Node& node = map.Get("compliant");
  bool compliant = true;
  CompliantDescription c;
  if (node.IsMap()) {
    const MapView options(reader, compliant_ctx, node);
    options.AllowOnly(kCompliantKeys);
    if (options.Has("resolution")) {
      c.resolution = reader.ReadNonNegative(options.CtxOf("resolution"), options.Get("resolution"));
    }
  } else {
    compliant = reader.ReadBool(compliant_ctx, node);
  }
  if (!compliant) return;
  if (out->shape.type == ShapeType::kHalfSpace) {
    Fail(compliant_ctx, node,
         "a half_space cannot be compliant (it has no finite volume to mesh); make the other geometry "
         "compliant, or use a thick box");
  }
  out->compliant = c;
}

}  // namespace

GeometryDescription SceneParser::ParseGeometry(const Ctx& ctx, const YAML::Node& node,
                                               const std::string& default_name, bool in_world,
                                               const Vector4& default_color) const {
  const MapView map(reader_, ctx, node);
  map.AllowOnly(kGeometryKeys);
  map.Require("shape");
  GeometryDescription out;
  out.where = WhereOf(ctx, node);
  out.name = map.Has("name") ? reader_.ReadName(map.CtxOf("name"), map.Get("name")) : default_name;
  out.shape = ParseShape(reader_, map.CtxOf("shape"), map.Get("shape"), in_world);
  if (map.Has("pose")) out.X_BG = reader_.ReadPose(map.CtxOf("pose"), map.Get("pose")).X;
  out.material = scene_.default_material;
  if (map.Has("material")) {
    const Ctx material_ctx = map.CtxOf("material");
    out.material = reader_.ReadName(material_ctx, map.Get("material"));
    const bool known = std::any_of(scene_.materials.begin(), scene_.materials.end(),
                                   [&](const MaterialDescription& m) { return m.name == out.material; });
    if (!known) {
      Fail(material_ctx, map.Get("material"),
           "unknown material " + Quote(out.material) + " (defined: " + JoinNames(NamesOf(scene_.materials)) + ")");
    }
  }
  out.color = map.Has("color") ? reader_.ReadColor(map.CtxOf("color"), map.Get("color")) : default_color;
  if (map.Has("collision")) out.collision = reader_.ReadBool(map.CtxOf("collision"), map.Get("collision"));
  if (map.Has("visual")) out.visual = reader_.ReadBool(map.CtxOf("visual"), map.Get("visual"));
  if (map.Has("groups")) {
    out.groups = reader_.ReadNameList(map.CtxOf("groups"), map.Get("groups"), "group names");
  }
  if (map.Has("compliant")) ParseCompliant(reader_, map, &out);
  return out;
}

void SceneParser::RegisterGeometryName(const GeometryDescription& geometry, const Ctx& ctx, const YAML::Node& node) {
  const MapView map(reader_, ctx, node);
  const bool named = map.Has("name");
  geometry_names_.Add(geometry.name, geometry.where, named ? map.CtxOf("name") : ctx,
                      named ? map.Get("name") : node);
}

void SceneParser::ParseWorldGeometry() {
  std::size_t i = 0;
  for (const auto& [node, ctx] : merged_.ListElements("world_geometry")) {
    GeometryDescription g = ParseGeometry(ctx, node, "world_" + std::to_string(i++),
                                          /*in_world=*/true, Vector4(0.7, 0.7, 0.7, 1.0));
    RegisterGeometryName(g, ctx, node);
    scene_.world_geometries.push_back(std::move(g));
  }
}

}  // namespace stiction
