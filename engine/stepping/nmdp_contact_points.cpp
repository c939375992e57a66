#include "engine/stepping/nmdp_contact_points.h"

#include <cmath>
#include <numbers>

#include "engine/common/error.h"

namespace stiction {

namespace {

// Points of one shape in its geometry frame G, with their radius.
struct ShapePoint {
  Vector3 p_G;
  double radius;
};

std::vector<ShapePoint> ShapePoints(const ShapeDescription& s) {
  std::vector<ShapePoint> out;
  switch (s.type) {
    case ShapeType::kSphere: out.push_back({Vector3::Zero(), s.radius}); break;
    case ShapeType::kCapsule:
      out.push_back({Vector3(0, 0, 0.5 * s.length), s.radius});
      out.push_back({Vector3(0, 0, -0.5 * s.length), s.radius});
      break;
    case ShapeType::kBox:
      for (int c = 0; c < 8; ++c) {
        const Vector3 sign((c & 1) ? 1 : -1, (c & 2) ? 1 : -1, (c & 4) ? 1 : -1);
        out.push_back({0.5 * s.size.cwiseProduct(sign), 0});
      }
      break;
    case ShapeType::kCylinder:
      for (int rim = 0; rim < 2; ++rim) {
        for (int k = 0; k < 8; ++k) {
          const double a = 2 * std::numbers::pi * k / 8;
          out.push_back({Vector3(s.radius * std::cos(a), s.radius * std::sin(a), (rim ? 0.5 : -0.5) * s.length), 0});
        }
      }
      break;
    case ShapeType::kHalfSpace:
    case ShapeType::kMesh: break;
  }
  return out;
}

}  // namespace

std::vector<NmdpCandidatePoint> ListNmdpContactPoints(const CollisionWorld& world,
                                                      const GeometryMaterials& materials) {
  std::vector<NmdpCandidatePoint> out;
  for (int h = 0; h < world.num_geometries(); ++h) {
    const CollisionGeometry& plane = world.geometry(h);
    if (!plane.is_collision() || !plane.is_half_space()) continue;
    // The half-space is everything below z = 0 of its frame G, normal +z.
    const Vector3 n = plane.X_WG().R.col(2);
    const double offset = n.dot(plane.X_WG().p);
    for (int g = 0; g < world.num_geometries(); ++g) {
      const CollisionGeometry& geo = world.geometry(g);
      if (!geo.is_collision() || geo.body() == 0 || !world.CanCollide(g, h)) continue;
      if (geo.shape_type() == ShapeType::kMesh) {
        throw InputError("nmdp: geometry '" + geo.description().name +
                         "' is a mesh that can touch a half-space; NMDP takes spheres, capsules, boxes and "
                         "cylinders (use stepping: theta_method, or a collision filter)");
      }
      const double mu = CombineMaterials(materials.of(g), materials.of(h)).friction;
      const std::vector<ShapePoint> points = ShapePoints(geo.shape());
      for (std::size_t i = 0; i < points.size(); ++i) {
        NmdpCandidatePoint c;
        c.point.body = geo.body();
        c.point.p_BP = geo.X_BG() * points[i].p_G;
        c.point.radius = points[i].radius;
        c.point.normal = n;
        c.point.offset = offset;
        c.point.friction = mu;
        c.key = (static_cast<std::uint64_t>(g) << 40) | (static_cast<std::uint64_t>(h) << 16) | i;
        c.geometry = g;
        c.half_space = h;
        out.push_back(c);
      }
    }
  }
  return out;
}

}  // namespace stiction
