// Geometries (docs/scene-format.md, "Geometry"): a shape, its pose, material,
// colour, collision and drawing flags, groups and the pressure-field option;
// `world_geometry:` and the geometry of bodies (body_section.cpp) alike.
#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <string_view>
#include <vector>

#include "engine/common/error.h"
#include "engine/common/text.h"
#include "engine/scene/obj_pieces.h"
#include "engine/scene/revolved_shape.h"
#include "engine/scene/scene_parser.h"

namespace stiction {
namespace {

constexpr std::array<std::string_view, 7> kShapeTypes = {"sphere", "box",        "capsule", "cylinder",
                                                         "mesh",   "half_space", "revolved"};
constexpr int kDefaultRevolvedSegments = 24;
constexpr int kMaxRevolvedSegments = 360;
constexpr std::size_t kMaxPieces = 10000;  // Of one entry: tiles or OBJ objects.
constexpr std::array<std::string_view, 9> kGeometryKeys = {
    "name", "shape", "pose", "material", "color", "collision", "visual", "groups", "compliant"};
constexpr std::array<std::string_view, 1> kCompliantKeys = {"resolution"};

/// An in-memory mesh of a convex polyhedron: its distinct points and its
/// faces fanned into triangles.
std::shared_ptr<const MeshData> MeshOf(const ConvexPolyhedron& polyhedron, std::string name) {
  auto mesh = std::make_shared<MeshData>();
  mesh->name = std::move(name);
  auto index_of = [&](const Vector3& p) {
    for (std::size_t i = 0; i < mesh->vertices_G.size(); ++i) {
      if (mesh->vertices_G[i] == p) return static_cast<int>(i);
    }
    mesh->vertices_G.push_back(p);
    return static_cast<int>(mesh->vertices_G.size() - 1);
  };
  for (const auto& face : polyhedron.faces) {
    const int first = index_of(face[0]);
    for (std::size_t i = 1; i + 1 < face.size(); ++i) {
      mesh->triangles.push_back({first, index_of(face[i]), index_of(face[i + 1])});
    }
  }
  return mesh;
}

/// A mesh shape's file and scale; with `pieces: true`, one shape per object
/// of the OBJ file (obj_pieces.h).
std::vector<ShapeDescription> ParseMeshShape(const YamlReader& reader, const MapView& map) {
  ShapeDescription out;
  out.type = ShapeType::kMesh;
  map.AllowOnly(std::array<std::string_view, 4>{"type", "file", "scale", "pieces"}, "for a mesh shape");
  map.Require("file", "for a mesh shape");
  out.mesh_file = reader.ReadExistingFile(map.CtxOf("file"), map.Get("file"), "mesh file");
  if (map.Has("scale")) {
    const Ctx scale_ctx = map.CtxOf("scale");
    const YAML::Node& scale = map.Get("scale");
    if (scale.IsScalar()) {
      out.mesh_scale.setConstant(reader.ReadPositive(scale_ctx, scale));
    } else if (scale.IsSequence()) {
      out.mesh_scale = reader.ReadPositiveVector3(scale_ctx, scale);
    } else {
      Fail(scale_ctx, scale, "expected a number or a list of 3 numbers, got " + Describe(scale));
    }
  }
  if (!map.Has("pieces") || !reader.ReadBool(map.CtxOf("pieces"), map.Get("pieces"))) return {out};
  const std::string extension = std::filesystem::path(out.mesh_file).extension().string();
  if (extension != ".obj" && extension != ".OBJ") {
    Fail(map.CtxOf("pieces"), map.Get("pieces"),
         "pieces: true reads the objects of an OBJ file, and " + Quote(out.mesh_file) + " is not one (.obj)");
  }
  std::vector<ShapeDescription> pieces;
  try {
    for (MeshData& mesh : ReadObjPieces(out.mesh_file)) {
      ShapeDescription piece = out;
      piece.mesh_file.clear();
      piece.mesh_data = std::make_shared<const MeshData>(std::move(mesh));
      pieces.push_back(std::move(piece));
    }
  } catch (const InputError& e) {
    Fail(map.CtxOf("file"), map.Get("file"), e.what());
  }
  if (pieces.size() > kMaxPieces) {
    Fail(map.CtxOf("file"), map.Get("file"),
         "has " + std::to_string(pieces.size()) + " objects; at most " + std::to_string(kMaxPieces) + " pieces");
  }
  return pieces;
}

/// A `revolved` shape: one convex tile per profile segment and sector, a
/// flat bottom or lid on the axis one piece unless `compliant`
/// (revolved_shape.h).
std::vector<ShapeDescription> ParseRevolvedShape(const YamlReader& reader, const MapView& map,
                                                 const std::string& geometry_name, bool compliant) {
  map.AllowOnly(std::array<std::string_view, 4>{"type", "profile", "thickness", "segments"},
                "for a revolved shape");
  map.Require("profile", "for a revolved shape (a list of [r, z] points, m)");
  map.Require("thickness", "for a revolved shape (the wall's thickness, m)");
  const Ctx profile_ctx = map.CtxOf("profile");
  const YAML::Node& profile_node = map.Get("profile");
  if (!profile_node.IsSequence() || profile_node.size() < 2) {
    Fail(profile_ctx, profile_node, "expected a list of at least 2 [r, z] points, got " + Describe(profile_node));
  }
  const auto elements = reader.Elements(profile_ctx, profile_node);
  std::vector<ProfilePoint> profile;
  for (const auto& [element, element_ctx] : elements) {
    const VectorX rz = reader.ReadNumbers(element_ctx, element, 2, 2);
    if (rz[0] < 0) {
      Fail(element_ctx, element, "r (the distance from the axis) must be >= 0, got " + FormatNumber(rz[0]));
    }
    profile.push_back({rz[0], rz[1]});
  }
  const double thickness = reader.ReadPositive(map.CtxOf("thickness"), map.Get("thickness"));
  int segments = kDefaultRevolvedSegments;
  if (map.Has("segments")) {
    const Ctx segments_ctx = map.CtxOf("segments");
    const double value = reader.ReadInRange(segments_ctx, map.Get("segments"), 3, kMaxRevolvedSegments);
    if (value != std::floor(value)) Fail(segments_ctx, map.Get("segments"), "expected a whole number of sectors");
    segments = static_cast<int>(value);
  }
  if ((profile.size() - 1) * static_cast<std::size_t>(segments) > kMaxPieces) {
    Fail(profile_ctx, profile_node,
         std::to_string(profile.size() - 1) + " segments in " + std::to_string(segments) + " sectors make more than " +
             std::to_string(kMaxPieces) + " tiles; use fewer points or sectors");
  }
  std::vector<ConvexPolyhedron> tiles;
  try {
    tiles = MakeRevolvedTiles(profile, thickness, segments, /*whole_caps=*/!compliant);
  } catch (const RevolvedShapeError& e) {
    Fail(elements[e.point()].second, elements[e.point()].first, e.what());
  }
  std::vector<ShapeDescription> out;
  for (std::size_t k = 0; k < tiles.size(); ++k) {
    ShapeDescription tile;
    tile.type = ShapeType::kMesh;
    tile.mesh_data = MeshOf(tiles[k], "tile " + std::to_string(k) + " of revolved geometry " + Quote(geometry_name));
    out.push_back(std::move(tile));
  }
  return out;
}

/// The shape, or for `revolved` and `mesh` with `pieces: true` the shapes of
/// its convex pieces (`compliant`: the geometry takes pressure-field contact).
std::vector<ShapeDescription> ParseShape(const YamlReader& reader, const Ctx& ctx, const YAML::Node& node,
                                         bool in_world, const std::string& geometry_name, bool compliant) {
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
    return ParseMeshShape(reader, map);
  } else if (type == "revolved") {
    return ParseRevolvedShape(reader, map, geometry_name, compliant);
  } else {  // half_space
    out.type = ShapeType::kHalfSpace;
    map.AllowOnly(std::array<std::string_view, 1>{"type"}, "for a half_space shape");
    if (!in_world) {
      Fail(type_ctx, map.Get("type"),
           "a half_space is only allowed in world_geometry (it is infinite, so a body "
           "cannot carry it)");
    }
  }
  return {out};
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

std::vector<GeometryDescription> SceneParser::ParseGeometry(const Ctx& ctx, const YAML::Node& node,
                                                            const std::string& default_name, bool in_world,
                                                            const Vector4& default_color) const {
  const MapView map(reader_, ctx, node);
  map.AllowOnly(kGeometryKeys);
  map.Require("shape");
  GeometryDescription out;
  out.where = WhereOf(ctx, node);
  out.name = map.Has("name") ? reader_.ReadName(map.CtxOf("name"), map.Get("name")) : default_name;
  // Compliant unless `compliant: false` (ParseCompliant reads it in full below).
  const bool compliant = map.Has("compliant") && (map.Get("compliant").IsMap() ||
                                                  reader_.ReadBool(map.CtxOf("compliant"), map.Get("compliant")));
  const std::vector<ShapeDescription> shapes =
      ParseShape(reader_, map.CtxOf("shape"), map.Get("shape"), in_world, out.name, compliant);
  out.shape = shapes.front();
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
  if (shapes.size() == 1 && !shapes.front().mesh_data) return {out};
  // Pieces of a compound: "<name>_<k>", each with the entry's pose,
  // material, flags and groups.
  std::vector<GeometryDescription> pieces;
  for (std::size_t k = 0; k < shapes.size(); ++k) {
    GeometryDescription piece = out;
    piece.name = out.name + "_" + std::to_string(k);
    piece.shape = shapes[k];
    pieces.push_back(std::move(piece));
  }
  return pieces;
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
    for (GeometryDescription& g : ParseGeometry(ctx, node, "world_" + std::to_string(i++),
                                                /*in_world=*/true, Vector4(0.7, 0.7, 0.7, 1.0))) {
      RegisterGeometryName(g, ctx, node);
      scene_.world_geometries.push_back(std::move(g));
    }
  }
}

}  // namespace stiction
