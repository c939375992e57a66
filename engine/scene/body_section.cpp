// Bodies (docs/scene-format.md, "Bodies"): name, colour, geometry, mass or
// density, centre of mass and inertia (computed from the collision geometry
// when not given), and a free body's pose and velocity (read by
// joint_section.cpp once the joints are known).
#include <array>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "engine/scene/compound_mass.h"
#include "engine/scene/scene_parser.h"
#include "engine/scene/shape_inertia.h"

namespace stiction {
namespace {

constexpr std::array<std::string_view, 9> kBodyKeys = {
    "name", "mass", "density", "com", "inertia", "color", "geometry", "pose", "velocity"};

/// The uniform solid the collision geometry makes: its volume [m³], and its
/// centroid weighted by volume [m⁴].
struct SolidVolume {
  double volume = 0;
  Vector3 weighted_centroid = Vector3::Zero();
};

SolidVolume CalcSolidVolume(const std::vector<const GeometryDescription*>& solids) {
  SolidVolume out;
  for (const GeometryDescription* g : solids) {
    const double v = CalcShapeVolume(g->shape);
    out.volume += v;
    out.weighted_centroid += v * g->X_BG.p;  // Every primitive's centroid is its frame origin.
  }
  return out;
}

/// The rotational inertia about `centroid` of the solids at `density`.
Matrix3 CalcSolidInertia(const std::vector<const GeometryDescription*>& solids, double density,
                         const Vector3& centroid) {
  Matrix3 I = Matrix3::Zero();
  for (const GeometryDescription* g : solids) {
    const double m = density * CalcShapeVolume(g->shape);
    const Matrix3& R = g->X_BG.R;
    const Vector3 d = g->X_BG.p - centroid;
    // Rotate into body axes, then shift to the common centroid (parallel axis).
    I += R * CalcShapeInertia(g->shape, m) * R.transpose() +
         m * (d.squaredNorm() * Matrix3::Identity() - d * d.transpose());
  }
  return I;
}

/// With `density`: the mass; without `inertia`: the inertia (and, without
/// `com`, the centre of mass), both from the collision geometry as one
/// uniform solid: the union of its pieces, where they overlap counted once
/// (compound_mass.h).
void ComputeMassProperties(const YamlReader& reader, const MapView& body, BodyDescription* out) {
  std::vector<const GeometryDescription*> solids;
  for (const GeometryDescription& g : out->geometries) {
    if (g.collision) solids.push_back(&g);
  }
  const bool has_density = body.Has("density");
  const bool has_inertia = body.Has("inertia");
  if (has_inertia && !has_density) return;  // Nothing to compute.
  const std::string needs = has_density ? "'density'" : "computing the inertia";
  const YAML::Node& at = has_density ? body.Get("density") : body.node();
  const Ctx at_ctx = has_density ? body.CtxOf("density") : body.ctx();
  const std::string give = std::string(has_density ? "'mass' and " : "") + "'inertia'";
  if (solids.empty()) {
    Fail(at_ctx, at, needs + " needs collision geometry, and body " + Quote(out->name) + " has none; give " + give);
  }
  bool primitives = true;
  for (const GeometryDescription* g : solids) {
    std::string why_not;
    if (!HasComputableMassProperties(g->shape, &why_not)) {
      Fail(at_ctx, at,
           needs + " needs solid primitives or convex pieces, but geometry " + Quote(g->name) + ": " + why_not +
               "; give " + give);
    }
    primitives = primitives && HasClosedFormMassProperties(g->shape.type);
  }
  UnionIntegrals solid;
  try {
    solid = IntegrateUnion(solids);
  } catch (const UnusablePieceError& e) {
    Fail(at_ctx, at, needs + " needs solid primitives or convex pieces, but " + e.what() + "; give " + give);
  } catch (const std::invalid_argument& e) {
    Fail(at_ctx, at, needs + ": " + e.what());
  }
  if (primitives && solid.overlapping_pairs == 0) {
    // Disjoint primitives: their closed forms, summed.
    const SolidVolume sum = CalcSolidVolume(solids);
    if (has_density) {
      out->mass = reader.ReadPositive(body.CtxOf("density"), body.Get("density")) * sum.volume;
    }
    if (has_inertia) return;
    const Vector3 centroid = sum.weighted_centroid / sum.volume;
    const Matrix3 I = CalcSolidInertia(solids, out->mass / sum.volume, centroid);
    out->I_Bcm_B = 0.5 * (I + I.transpose());
    if (!body.Has("com")) out->com_B = centroid;
    return;
  }
  if (has_density) {
    out->mass = reader.ReadPositive(body.CtxOf("density"), body.Get("density")) * solid.integrals.volume;
  }
  if (has_inertia) return;
  // As above, a given `com` moves the centre of mass and keeps the solid's
  // inertia about its own centroid (docs/scene-format.md).
  const SolidMassProperties union_properties = ToMassProperties(solid.integrals, out->mass / solid.integrals.volume);
  out->I_Bcm_B = union_properties.inertia_about_com;
  if (!body.Has("com")) out->com_B = union_properties.com;
}

/// `mass` or `density`, `com`, `inertia`.
void ParseMass(const YamlReader& reader, const MapView& map, BodyDescription* out) {
  if (map.Has("mass") && map.Has("density")) {
    Fail(map.CtxOf("density"), map.Get("density"), "give either 'mass' or 'density', not both");
  }
  if (!map.Has("mass") && !map.Has("density")) {
    Fail(map.ctx(), map.node(), "missing required key 'mass' (or 'density')");
  }
  if (map.Has("mass")) out->mass = reader.ReadPositive(map.CtxOf("mass"), map.Get("mass"));
  if (map.Has("density")) reader.ReadPositive(map.CtxOf("density"), map.Get("density"));
  if (map.Has("com")) out->com_B = reader.ReadVector3(map.CtxOf("com"), map.Get("com"));
  if (map.Has("inertia")) out->I_Bcm_B = reader.ReadInertia(map.CtxOf("inertia"), map.Get("inertia"));
  ComputeMassProperties(reader, map, out);
}

}  // namespace

BodyDescription SceneParser::ParseBody(const Ctx& ctx, const YAML::Node& node, PendingFreeState* free_state,
                                       std::vector<std::size_t>* entry_of_geometry) const {
  const MapView map(reader_, ctx, node);
  map.AllowOnly(kBodyKeys);
  map.Require("name");
  BodyDescription out;
  out.where = WhereOf(ctx, node);
  const Ctx name_ctx = map.CtxOf("name");
  out.name = reader_.ReadName(name_ctx, map.Get("name"));
  if (out.name == "world") {
    Fail(name_ctx, map.Get("name"), "'world' is reserved for the fixed world frame");
  }
  if (map.Has("color")) out.color = reader_.ReadColor(map.CtxOf("color"), map.Get("color"));
  if (map.Has("geometry")) {
    const Ctx geometry_ctx = map.CtxOf("geometry");
    const YAML::Node& geometry = map.Get("geometry");
    if (!geometry.IsSequence() && !geometry.IsNull()) {
      Fail(geometry_ctx, geometry, "expected a list of geometries, got " + Describe(geometry));
    }
    if (geometry.IsSequence()) {
      std::size_t i = 0;
      for (const auto& [element, element_ctx] : reader_.Elements(geometry_ctx, geometry)) {
        for (GeometryDescription& g :
             ParseGeometry(element_ctx, element, out.name + "_" + std::to_string(i), /*in_world=*/false, out.color)) {
          out.geometries.push_back(std::move(g));
          entry_of_geometry->push_back(i);
        }
        ++i;
      }
    }
  }
  ParseMass(reader_, map, &out);
  if (map.Has("pose")) free_state->pose.emplace(map.Get("pose"), map.CtxOf("pose"));
  if (map.Has("velocity")) free_state->velocity.emplace(map.Get("velocity"), map.CtxOf("velocity"));
  return out;
}

void SceneParser::RegisterBodyGeometryNames(const BodyDescription& body, const Ctx& ctx, const YAML::Node& node,
                                            const std::vector<std::size_t>& entry_of_geometry) {
  // Re-walk the list for exact error locations of duplicates.
  std::vector<std::pair<YAML::Node, Ctx>> elements;
  const MapView map(reader_, ctx, node);
  if (map.Has("geometry") && map.Get("geometry").IsSequence()) {
    elements = reader_.Elements(map.CtxOf("geometry"), map.Get("geometry"));
  }
  for (std::size_t i = 0; i < body.geometries.size(); ++i) {
    const auto& [element, element_ctx] = elements[entry_of_geometry[i]];
    RegisterGeometryName(body.geometries[i], element_ctx, element);
  }
}

void SceneParser::ParseBodies() {
  for (const auto& [node, ctx] : merged_.ListElements("bodies")) {
    PendingFreeState free_state;
    std::vector<std::size_t> entry_of_geometry;
    BodyDescription body = ParseBody(ctx, node, &free_state, &entry_of_geometry);
    Register(&body_names_, ctx, node, body.name, body.where);
    RegisterBodyGeometryNames(body, ctx, node, entry_of_geometry);
    scene_.bodies.push_back(std::move(body));
    free_states_.push_back(std::move(free_state));
    body_nodes_.emplace_back(node, ctx);
  }
}

}  // namespace stiction
