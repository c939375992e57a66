#include "app/input/picking.h"

#include <algorithm>
#include <cmath>

namespace stiction::app {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double RaySphere(const Vector3& o, const Vector3& d, const Vector3& c, double r) {
  const Vector3 oc = o - c;
  const double b = oc.dot(d), cc = oc.squaredNorm() - r * r;
  const double disc = b * b - cc;
  if (disc < 0) return kInf;
  const double s = std::sqrt(disc);
  if (-b - s >= 0) return -b - s;
  if (-b + s >= 0) return 0;  // Origin inside.
  return kInf;
}

// Entry into the infinite cylinder x² + y² ≤ r², restricted to |z| ≤ h.
double RayCylinderSide(const Vector3& o, const Vector3& d, double r, double h) {
  const double a = d.x() * d.x() + d.y() * d.y();
  if (a < 1e-15) return kInf;
  const double b = o.x() * d.x() + o.y() * d.y();
  const double c = o.x() * o.x() + o.y() * o.y() - r * r;
  const double disc = b * b - a * c;
  if (disc < 0) return kInf;
  const double t = (-b - std::sqrt(disc)) / a;
  if (t < 0) return kInf;
  return std::abs(o.z() + t * d.z()) <= h ? t : kInf;
}

double RayBox(const Vector3& o, const Vector3& d, const Vector3& half) {
  double t0 = 0, t1 = kInf;
  for (int i = 0; i < 3; ++i) {
    if (std::abs(d[i]) < 1e-15) {
      if (std::abs(o[i]) > half[i]) return kInf;
      continue;
    }
    double a = (-half[i] - o[i]) / d[i], b = (half[i] - o[i]) / d[i];
    if (a > b) std::swap(a, b);
    t0 = std::max(t0, a);
    t1 = std::min(t1, b);
    if (t0 > t1) return kInf;
  }
  return t0;
}

}  // namespace

double RayCastShape(const ShapeDescription& shape, double bounding_radius, const Vector3& o,
                    const Vector3& d) {
  switch (shape.type) {
    case ShapeType::kSphere: return RaySphere(o, d, Vector3::Zero(), shape.radius);
    case ShapeType::kBox: return RayBox(o, d, 0.5 * shape.size);
    case ShapeType::kCapsule: {
      const double h = 0.5 * shape.length;
      return std::min({RayCylinderSide(o, d, shape.radius, h),
                       RaySphere(o, d, Vector3(0, 0, h), shape.radius),
                       RaySphere(o, d, Vector3(0, 0, -h), shape.radius)});
    }
    case ShapeType::kCylinder: {
      const double h = 0.5 * shape.length;
      double t = RayCylinderSide(o, d, shape.radius, h);
      if (std::abs(d.z()) > 1e-15) {
        for (double zc : {-h, h}) {
          const double tc = (zc - o.z()) / d.z();
          if (tc >= 0 && (o + tc * d).head<2>().norm() <= shape.radius) t = std::min(t, tc);
        }
      }
      return t;
    }
    case ShapeType::kHalfSpace: {
      // The surface is G's z = 0 plane; the solid is z ≤ 0.
      if (o.z() <= 0) return 0;
      if (d.z() >= 0) return kInf;
      return -o.z() / d.z();
    }
    case ShapeType::kMesh: return RaySphere(o, d, Vector3::Zero(), bounding_radius);
  }
  return kInf;
}

PickResult Pick(const RenderScene& scene, const std::vector<RigidTransform>& X_WB,
                const Vector3& origin_W, const Vector3& dir_W, bool include_world,
                bool include_hidden) {
  PickResult best;
  for (size_t i = 0; i < scene.drawables.size(); ++i) {
    const Drawable& d = scene.drawables[i];
    if (!d.visual && !include_hidden) continue;
    if (d.body == 0 && !include_world) continue;
    if (d.body >= static_cast<int>(X_WB.size())) continue;
    const RigidTransform X_WG = X_WB[d.body] * d.X_BG;
    const RigidTransform X_GW = X_WG.inverse();
    const double t = RayCastShape(d.shape, d.bounding_radius, X_GW * origin_W, X_GW.R * dir_W);
    if (t < best.distance) {
      best.distance = t;
      best.body = d.body;
      best.drawable = static_cast<int>(i);
      best.p_W = origin_W + t * dir_W;
    }
  }
  return best;
}

}  // namespace stiction::app
