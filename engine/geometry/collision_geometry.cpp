#include "engine/geometry/collision_geometry.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include <fcl/fcl.h>

#include "engine/common/error.h"
#include "engine/scene/shape_inertia.h"

namespace stiction {
namespace {

// An FCL object whose broad-phase AABB we set ourselves: FCL's own is a loose
// bounding-sphere box for rotated shapes and cannot be inflated by a margin.
class BroadPhaseObject : public fcl::CollisionObjectd {
 public:
  using fcl::CollisionObjectd::CollisionObjectd;
  void SetAabb(const Vector3& min_W, const Vector3& max_W) {
    aabb.min_ = min_W;
    aabb.max_ = max_W;
  }
};

std::string Where(const GeometryDescription& d) {
  std::string prefix = d.where.ToString();
  if (!prefix.empty()) prefix += ": ";
  return prefix + "geometry '" + d.name + "': ";
}

void RequirePositive(const GeometryDescription& d, const char* what, double value) {
  if (!(value > 0) || !std::isfinite(value)) {
    throw InputError(Where(d) + what + " must be positive and finite, got " +
                     std::to_string(value));
  }
}

fcl::Transform3d ToFcl(const RigidTransform& X) {
  fcl::Transform3d t = fcl::Transform3d::Identity();
  t.linear() = X.R;
  t.translation() = X.p;
  return t;
}

}  // namespace

CollisionGeometry::CollisionGeometry(int index, CollisionGeometrySpec spec,
                                     std::shared_ptr<const ConvexHull> mesh_hull)
    : index_(index), body_(spec.body), description_(std::move(spec.description)) {
  const GeometryDescription& d = description_;
  const ShapeDescription& s = d.shape;
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (s.type == ShapeType::kHalfSpace && body_ != 0 && d.collision) {
    throw InputError(Where(d) + "a half_space can only be attached to the world");
  }
  std::shared_ptr<fcl::CollisionGeometryd> shape;
  if (d.collision) {
    switch (s.type) {
      case ShapeType::kSphere:
        RequirePositive(d, "sphere radius", s.radius);
        shape = std::make_shared<fcl::Sphered>(s.radius);
        bounding_radius_ = CalcShapeBoundingRadius(s);
        break;
      case ShapeType::kBox:
        for (int i = 0; i < 3; ++i) RequirePositive(d, "box size", s.size[i]);
        hull_ = std::make_shared<const ConvexHull>(MakeBoxHull(s.size));
        shape = std::make_shared<fcl::Boxd>(s.size);
        bounding_radius_ = CalcShapeBoundingRadius(s);
        break;
      case ShapeType::kCapsule:
        RequirePositive(d, "capsule radius", s.radius);
        if (!(s.length >= 0)) throw InputError(Where(d) + "capsule length must be >= 0");
        shape = std::make_shared<fcl::Capsuled>(s.radius, s.length);
        bounding_radius_ = CalcShapeBoundingRadius(s);
        break;
      case ShapeType::kCylinder:
        RequirePositive(d, "cylinder radius", s.radius);
        RequirePositive(d, "cylinder length", s.length);
        shape = std::make_shared<fcl::Cylinderd>(s.radius, s.length);
        bounding_radius_ = CalcShapeBoundingRadius(s);
        break;
      case ShapeType::kHalfSpace:
        bounding_radius_ = kInf;
        break;
      case ShapeType::kMesh: {
        if (mesh_hull == nullptr || mesh_hull->vertices_G.empty()) {
          throw InputError(Where(d) + MeshWhat(s) + " has no convex hull");
        }
        hull_ = std::move(mesh_hull);
        auto vertices = std::make_shared<std::vector<fcl::Vector3d>>(hull_->vertices_G.begin(),
                                                                     hull_->vertices_G.end());
        auto faces = std::make_shared<std::vector<int>>();
        faces->reserve(4 * hull_->triangles.size());
        for (const auto& tri : hull_->triangles) {
          faces->insert(faces->end(), {3, tri[0], tri[1], tri[2]});
        }
        shape = std::make_shared<fcl::Convexd>(vertices,
                                               static_cast<int>(hull_->triangles.size()), faces);
        bounding_radius_ = hull_->bounding_radius;
        Vector3 lo = hull_->vertices_G.front(), hi = lo;
        for (const Vector3& p : hull_->vertices_G) {
          lo = lo.cwiseMin(p);
          hi = hi.cwiseMax(p);
        }
        hull_centre_G_ = 0.5 * (lo + hi);
        hull_half_extent_G_ = 0.5 * (hi - lo);
        break;
      }
    }
  }
  // FCL's broad phase corrupts its tree (and crashes) on bounding boxes that
  // overflow; a geometry larger than any robot's world is a typing error.
  if (shape != nullptr && (!(bounding_radius_ <= kMaxGeometrySize) || !d.X_BG.p.allFinite() ||
                           !(d.X_BG.p.norm() <= kMaxGeometrySize))) {
    throw InputError(Where(d) + "size and offset must be at most " + std::to_string(static_cast<int>(kMaxGeometrySize)) +
                     " m (got a bounding radius of " + std::to_string(bounding_radius_) + " m at offset " +
                     std::to_string(d.X_BG.p.norm()) + " m)");
  }
  if (shape != nullptr) {
    fcl_object_ = std::make_shared<BroadPhaseObject>(shape);
    fcl_object_->setUserData(reinterpret_cast<void*>(static_cast<std::intptr_t>(index_)));
  }
  SetBodyPose(RigidTransform::Identity());
}

CollisionGeometry::~CollisionGeometry() = default;
CollisionGeometry::CollisionGeometry(CollisionGeometry&&) noexcept = default;
CollisionGeometry& CollisionGeometry::operator=(CollisionGeometry&&) noexcept = default;

fcl::CollisionObject<double>* CollisionGeometry::fcl_object() const {
  return fcl_object_.get();
}

void CollisionGeometry::SetBodyPose(const RigidTransform& X_WB) {
  X_WG_ = X_WB * description_.X_BG;
  if (fcl_object_ != nullptr) fcl_object_->setTransform(ToFcl(X_WG_));
  ComputeAabb();
}

void CollisionGeometry::ComputeAabb() {
  const ShapeDescription& s = description_.shape;
  const Matrix3& R = X_WG_.R;
  const Vector3& p = X_WG_.p;
  Vector3 half = Vector3::Zero();
  Vector3 centre = p;
  switch (s.type) {
    case ShapeType::kSphere:
      half.setConstant(s.radius);
      break;
    case ShapeType::kBox:
      half = R.cwiseAbs() * (0.5 * s.size);
      break;
    case ShapeType::kCapsule:
      half = (0.5 * s.length) * R.col(2).cwiseAbs() + Vector3::Constant(s.radius);
      break;
    case ShapeType::kCylinder: {
      // A disc of radius r with unit normal a spans r·sqrt(1 - a_i²) along axis i.
      const Vector3 a = R.col(2);
      for (int i = 0; i < 3; ++i) {
        half[i] = 0.5 * s.length * std::abs(a[i]) +
                  s.radius * std::sqrt(std::max(0.0, 1.0 - a[i] * a[i]));
      }
      break;
    }
    case ShapeType::kMesh:
      centre = X_WG_ * hull_centre_G_;
      half = R.cwiseAbs() * hull_half_extent_G_;
      break;
    case ShapeType::kHalfSpace:
      half.setConstant(std::numeric_limits<double>::infinity());
      centre.setZero();
      break;
  }
  aabb_W_.min_W = centre - half;
  aabb_W_.max_W = centre + half;
}

void CollisionGeometry::SetBroadPhaseAabb(double inflation) {
  if (fcl_object_ == nullptr) return;
  const Vector3 grow = Vector3::Constant(inflation);
  static_cast<BroadPhaseObject*>(fcl_object_.get())
      ->SetAabb(aabb_W_.min_W - grow, aabb_W_.max_W + grow);
}

double CalcLowestPointZ(const CollisionGeometry& geometry, const RigidTransform& X_WB) {
  const RigidTransform X_WG = X_WB * geometry.X_BG();
  const ShapeDescription& shape = geometry.shape();
  // Row z of R_WG: how far each local axis reaches down.
  const Vector3 down = X_WG.R.row(2).transpose();
  const double z = X_WG.p.z();
  switch (shape.type) {
    case ShapeType::kSphere:
      return z - shape.radius;
    case ShapeType::kBox:
      return z - 0.5 * down.cwiseAbs().dot(shape.size);
    case ShapeType::kCapsule:  // Segment of `length` along local z, swept by the radius.
      return z - 0.5 * shape.length * std::abs(down.z()) - shape.radius;
    case ShapeType::kCylinder:  // The rim of the lower cap, or the cap itself when upright.
      return z - 0.5 * shape.length * std::abs(down.z()) - shape.radius * std::hypot(down.x(), down.y());
    case ShapeType::kHalfSpace:
      return -std::numeric_limits<double>::infinity();
    case ShapeType::kMesh: {
      double lowest = std::numeric_limits<double>::infinity();
      if (geometry.hull() == nullptr) return lowest;  // Visual only: never loaded for contact.
      for (const Vector3& p_G : geometry.hull()->vertices_G) lowest = std::min(lowest, z + down.dot(p_G));
      return lowest;
    }
  }
  return z;
}

}  // namespace stiction
