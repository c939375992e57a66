#include "app/render/render_scene.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <set>

#include "app/render/primitive_meshes.h"
#include "engine/common/error.h"

namespace stiction::app {
namespace {

double PrimitiveBoundingRadius(const ShapeDescription& s) {
  switch (s.type) {
    case ShapeType::kSphere: return s.radius;
    case ShapeType::kBox: return 0.5 * s.size.norm();
    case ShapeType::kCapsule: return s.radius + 0.5 * s.length;
    case ShapeType::kCylinder: return std::hypot(s.radius, 0.5 * s.length);
    case ShapeType::kHalfSpace: return std::numeric_limits<double>::infinity();
    case ShapeType::kMesh: return 0;
  }
  return 0;
}

}  // namespace

std::string MeshKey(const ShapeDescription& s) {
  char buf[256];
  switch (s.type) {
    case ShapeType::kSphere: std::snprintf(buf, sizeof buf, "sphere:%.9g", s.radius); break;
    case ShapeType::kBox:
      std::snprintf(buf, sizeof buf, "box:%.9g:%.9g:%.9g", s.size.x(), s.size.y(), s.size.z());
      break;
    case ShapeType::kCapsule: std::snprintf(buf, sizeof buf, "capsule:%.9g:%.9g", s.radius, s.length); break;
    case ShapeType::kCylinder: std::snprintf(buf, sizeof buf, "cylinder:%.9g:%.9g", s.radius, s.length); break;
    case ShapeType::kHalfSpace: return "half_space";
    case ShapeType::kMesh:
      std::snprintf(buf, sizeof buf, ":%.9g:%.9g:%.9g", s.mesh_scale.x(), s.mesh_scale.y(), s.mesh_scale.z());
      // An in-memory mesh by its name and a hash of its content (equal meshes
      // share one upload; the "data:" prefix keeps it apart from files).
      return s.mesh_data ? "mesh:data:" + MeshDataKey(*s.mesh_data) + buf : "mesh:" + s.mesh_file + buf;
  }
  return buf;
}

namespace {

// The drawable of geometry g of model body `body`, without its mesh's
// radius; scene_body: index into scene.bodies (palette colour), -1 for the world.
Drawable MakeDrawable(int body, int scene_body, const GeometryDescription& g) {
  Drawable d;
  d.body = body;
  d.name = g.name;
  d.X_BG = g.X_BG;
  d.shape = g.shape;
  d.color = g.color;
  if (scene_body >= 0 && g.color == kDefaultGeometryColor) {
    const float* c = kBodyPalette[scene_body % std::size(kBodyPalette)];
    d.color = Vector4(c[0], c[1], c[2], 1.0);
    d.color_given = false;
    d.specular = 0.35f;
    d.shininess = 64.0f;
  }
  if (g.shape.type == ShapeType::kHalfSpace) {
    d.specular = 0.04f;  // A matte floor: no sheen across the whole view.
    d.shininess = 16.0f;
  }
  d.visual = g.visual;
  d.collision = g.collision;
  d.mesh_key = MeshKey(g.shape);
  d.bounding_radius = PrimitiveBoundingRadius(g.shape);
  return d;
}

// The scene's meshes, each loaded (or generated) once into out->meshes,
// with its largest vertex distance from the origin [m]; a mesh that does
// not load is a warning and radius 0.
class MeshSet {
 public:
  explicit MeshSet(RenderScene* out) : out_(out) {}
  void Add(const std::string& key, const ShapeDescription& shape) {
    if (have_.contains(key)) return;
    have_.insert(key);
    try {
      RenderMesh mesh = shape.type == ShapeType::kMesh ? LoadRenderMesh(shape) : MakePrimitiveMesh(shape);
      double r = 0;
      for (const auto& p : mesh.positions_G) r = std::max(r, static_cast<double>(p.norm()));
      radius_.emplace_back(key, r);
      out_->meshes.emplace_back(key, std::move(mesh));
    } catch (const InputError& e) {
      out_->warnings.push_back(e.what());
      radius_.emplace_back(key, 0.0);
    }
  }
  /// The radius of the mesh under `key`; `otherwise` if it has none.
  double Radius(const std::string& key, double otherwise) const {
    for (const auto& [k, r] : radius_) {
      if (k == key) otherwise = r;
    }
    return otherwise;
  }

 private:
  RenderScene* out_;
  std::set<std::string> have_;
  std::vector<std::pair<std::string, double>> radius_;
};

}  // namespace

RenderScene BuildRenderScene(const Simulation& sim) {
  RenderScene out;
  const SceneDescription& scene = sim.scene();
  const MultibodyModel& model = sim.model();
  MeshSet meshes(&out);
  auto add = [&](int body, int scene_body, const GeometryDescription& g) {
    Drawable d = MakeDrawable(body, scene_body, g);
    meshes.Add(d.mesh_key, g.shape);
    if (g.shape.type == ShapeType::kMesh) d.bounding_radius = meshes.Radius(d.mesh_key, d.bounding_radius);
    out.drawables.push_back(std::move(d));
  };
  for (const GeometryDescription& g : scene.world_geometries) add(0, -1, g);
  out.model_body_of_scene_body.resize(scene.bodies.size(), -1);
  out.body_size.assign(model.num_bodies(), 0.0);
  for (size_t i = 0; i < scene.bodies.size(); ++i) {
    const BodyDescription& b = scene.bodies[i];
    const int mb = model.FindBody(b.name);
    out.model_body_of_scene_body[i] = mb;
    if (mb < 1) continue;
    for (const GeometryDescription& g : b.geometries) {
      add(mb, static_cast<int>(i), g);
      const Drawable& d = out.drawables.back();
      out.body_size[mb] = std::max(out.body_size[mb], d.bounding_radius);
    }
    if (out.body_size[mb] <= 0) out.body_size[mb] = 0.05;
  }
  return out;
}

void CalcSceneBounds(const RenderScene& scene, const std::vector<RigidTransform>& X_WB,
                     Vector3* center, double* radius) {
  Vector3 lo = Vector3::Constant(std::numeric_limits<double>::infinity());
  Vector3 hi = -lo;
  for (const Drawable& d : scene.drawables) {
    if (!std::isfinite(d.bounding_radius) || d.body >= static_cast<int>(X_WB.size())) continue;
    const Vector3 p = X_WB[d.body] * d.X_BG.p;
    lo = lo.cwiseMin(p - Vector3::Constant(d.bounding_radius));
    hi = hi.cwiseMax(p + Vector3::Constant(d.bounding_radius));
  }
  if (!(lo.array() <= hi.array()).all()) {
    *center = Vector3::Zero();
    *radius = 1.0;
    return;
  }
  *center = 0.5 * (lo + hi);
  *radius = std::max(0.5 * (hi - lo).norm(), 0.05);
}

}  // namespace stiction::app
