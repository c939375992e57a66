#pragma once
// One collision geometry instance: its owning body, its pose in the body and in
// the world, its shape (with the FCL object used for GJK/EPA queries and the
// broad phase), its world AABB, and its collision-group mask. FCL types are only
// forward-declared here: FCL is a private dependency of the engine.
#include <cstdint>
#include <memory>
#include <string>

#include "engine/common/eigen_types.h"
#include "engine/geometry/mesh_loader.h"
#include "engine/scene/scene_description.h"

namespace fcl {
template <typename S>
class CollisionObject;
}  // namespace fcl

namespace stiction {

/// A collision geometry with the index of the model body that owns it
/// (0 = the world: static geometry).
struct CollisionGeometrySpec {
  int body = 0;
  GeometryDescription description;
};

/// An axis-aligned box in the world frame [m]. Infinite for half-spaces.
struct Aabb {
  Vector3 min_W = Vector3::Zero();
  Vector3 max_W = Vector3::Zero();
  bool Overlaps(const Aabb& other) const {
    return (min_W.array() <= other.max_W.array()).all() &&
           (other.min_W.array() <= max_W.array()).all();
  }
};

/// Largest accepted geometry size (bounding radius) and offset from its
/// body [m]: beyond it FCL's broad phase overflows (InputError instead).
inline constexpr double kMaxGeometrySize = 1e4;

class CollisionGeometry {
 public:
  /// Builds geometry `index` (its position in the CollisionWorld's list) from
  /// `spec`. For a mesh, `mesh_hull` is its convex hull in G (already scaled;
  /// shared between instances of one file or one in-memory MeshData, see
  /// LoadCollisionMesh(const ShapeDescription&)); ignored for other shapes and
  /// may be null when description.collision is false.
  /// Throws InputError for non-positive dimensions, a half-space on a body
  /// other than the world, or a collision mesh without a hull.
  CollisionGeometry(int index, CollisionGeometrySpec spec,
                    std::shared_ptr<const ConvexHull> mesh_hull);
  ~CollisionGeometry();
  CollisionGeometry(CollisionGeometry&&) noexcept;
  CollisionGeometry& operator=(CollisionGeometry&&) noexcept;
  CollisionGeometry(const CollisionGeometry&) = delete;
  CollisionGeometry& operator=(const CollisionGeometry&) = delete;

  int index() const { return index_; }
  int body() const { return body_; }
  const GeometryDescription& description() const { return description_; }
  const ShapeDescription& shape() const { return description_.shape; }
  ShapeType shape_type() const { return description_.shape.type; }
  /// False when description.collision is false: the geometry takes no part in
  /// contact (no FCL object, no hull, never in the broad phase).
  bool is_collision() const { return description_.collision; }
  bool is_half_space() const { return shape_type() == ShapeType::kHalfSpace; }

  /// Pose of the geometry frame G in its body frame B.
  const RigidTransform& X_BG() const { return description_.X_BG; }
  /// Pose of G in the world, as of the last SetBodyPose().
  const RigidTransform& X_WG() const { return X_WG_; }
  /// Sets the owning body's pose X_WB; updates X_WG, the FCL transform and
  /// the AABB.
  void SetBodyPose(const RigidTransform& X_WB);

  /// The tight world AABB of the current pose [m] (infinite for half-spaces).
  const Aabb& aabb_W() const { return aabb_W_; }
  /// Radius of the smallest sphere about G's origin holding the shape [m]
  /// (infinity for half-spaces).
  double bounding_radius() const { return bounding_radius_; }

  /// Bit k set: member of collision group k (groups numbered by CollisionWorld).
  std::uint64_t group_mask() const { return group_mask_; }
  void set_group_mask(std::uint64_t mask) { group_mask_ = mask; }

  /// The polytope for boxes and meshes (in G); null for other shapes.
  const ConvexHull* hull() const { return hull_.get(); }

  /// The FCL object (geometry + world transform); null for half-spaces and
  /// non-collision geometry. Its user data holds index() (as std::intptr_t).
  fcl::CollisionObject<double>* fcl_object() const;
  /// Sets the FCL object's broad-phase AABB to aabb_W() grown by `inflation`
  /// [m] on every side (call before the broad-phase manager's update()).
  void SetBroadPhaseAabb(double inflation);

 private:
  void ComputeAabb();

  int index_ = -1;
  int body_ = 0;
  GeometryDescription description_;
  std::shared_ptr<const ConvexHull> hull_;
  std::shared_ptr<fcl::CollisionObject<double>> fcl_object_;
  RigidTransform X_WG_;
  Aabb aabb_W_;
  Vector3 hull_centre_G_ = Vector3::Zero();       // Centre of the hull's G-frame AABB.
  Vector3 hull_half_extent_G_ = Vector3::Zero();  // Its half side lengths.
  double bounding_radius_ = 0;
  std::uint64_t group_mask_ = 0;
};

/// The height of the geometry's lowest point [m] when its body is at X_WB:
/// its support point along −z, exact for every shape (a mesh by its hull's
/// vertices, as contact sees it); −infinity for a half-space. What resting a
/// robot on the ground places at z = 0 (scene key `rest_on_ground`).
double CalcLowestPointZ(const CollisionGeometry& geometry, const RigidTransform& X_WB);

}  // namespace stiction
