#pragma once
// The contact query: every collision geometry of a model, posed by its body,
// turned into contact points each step. Broad phase: FCL's dynamic AABB tree
// (half-spaces tested analytically against AABBs). Narrow phase: our own
// manifolds (contact_manifold.h) where FCL's single point would let resting
// bodies rock, FCL's GJK/EPA signed distance elsewhere.
// docs/contact-geometry.md describes conventions, filtering and limits.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/geometry/collision_geometry.h"
#include "engine/geometry/contact_manifold.h"
#include "engine/geometry/contact_surface.h"
#include "engine/geometry/tet_bvh.h"
#include "engine/geometry/volume_mesh.h"

namespace stiction {

/// Pairs of bodies that must not collide (e.g. joined by a joint). Body
/// indices are model body indices; the order within a pair does not matter.
struct CollisionFilter {
  std::set<std::pair<int, int>> excluded_body_pairs;

  void ExcludeBodyPair(int body_a, int body_b) {
    excluded_body_pairs.emplace(std::min(body_a, body_b), std::max(body_a, body_b));
  }
  bool Excludes(int body_a, int body_b) const {
    return excluded_body_pairs.count({body_a, body_b}) > 0 ||
           excluded_body_pairs.count({body_b, body_a}) > 0;
  }
};

class CollisionWorld {
 public:
  /// `geometries`: every geometry with its owning body index (0 = world);
  /// geometry(i) is geometries[i], including those with collision == false
  /// (kept for indexing, never in contact).
  /// Throws InputError for meshes that cannot be loaded, are flat or empty
  /// (one message, a line per mesh, each naming its file and the scene or
  /// robot line that uses it); for bad dimensions; for a half-space not on
  /// the world; and for more than 64 distinct collision group names. A mesh
  /// whose surface is open or non-manifold loads (contact uses its hull) with
  /// a note.
  CollisionWorld(std::vector<CollisionGeometrySpec> geometries, CollisionFilter filter);
  ~CollisionWorld();
  CollisionWorld(CollisionWorld&&) noexcept;
  CollisionWorld& operator=(CollisionWorld&&) noexcept;

  int num_geometries() const { return static_cast<int>(geometries_.size()); }
  const CollisionGeometry& geometry(int i) const { return geometries_.at(i); }
  const CollisionFilter& filter() const { return filter_; }
  /// From the next query on, the bodies' geometries ignore each other.
  void ExcludeBodyPair(int body_a, int body_b) { filter_.ExcludeBodyPair(body_a, body_b); }
  /// Collision group names; bit k of CollisionGeometry::group_mask() is group k.
  const std::vector<std::string>& group_names() const { return group_names_; }
  /// What construction accepted but a user should know, one line each
  /// ("FILE:LINE: mesh 'x.stl' is not a closed surface: ...; contact uses its
  /// convex hull"), once per mesh file and scale.
  const std::vector<std::string>& notes() const { return notes_; }

  /// Poses of every body (index = body index, entry 0 = the world, normally
  /// identity). Throws InputError when a geometry's body has no entry.
  void UpdatePoses(const std::vector<RigidTransform>& X_WB);

  /// Bodies asleep (index = body index; engine/stepping/sleep_tracker.h):
  /// from the next query on, pairs of two asleep bodies, or of an asleep body
  /// and the world, are skipped. Empty: none asleep.
  void SetSleepingBodies(const std::vector<char>& asleep) { sleeping_bodies_ = asleep; }

  /// Every contact point with phi < margin (speculative contacts with phi > 0
  /// included), for the poses of the last UpdatePoses(). `margin` [m], >= 0
  /// (throws InputError otherwise). `contacts` is cleared first. The order is
  /// deterministic: by (geometry_a, geometry_b) pair as listed by the broad
  /// phase after sorting, then by the manifold's order.
  void ComputeContacts(double margin, std::vector<ContactPoint>* contacts);

  /// Pressure-field contact (contact_surface.h): geometry i is compliant
  /// (GeometryDescription::compliant), its volume mesh (null when rigid),
  /// and its hydroelastic modulus E [Pa] (set from its material by the
  /// Simulation; InputError unless positive and finite).
  bool is_compliant(int i) const { return volume_meshes_.at(i) != nullptr; }
  const VolumeMesh* volume_mesh(int i) const { return volume_meshes_.at(i).get(); }
  double hydroelastic_modulus(int i) const { return moduli_.at(i); }
  void SetHydroelasticModulus(int i, double modulus);
  /// The contact surfaces of the last ComputeContacts, one per pair with a
  /// compliant geometry that overlaps (ContactPoint::surface indexes them).
  const std::vector<ContactSurface>& contact_surfaces() const { return surfaces_; }
  /// Wall-clock time of the last ComputeContacts spent on contact surfaces [s].
  double surface_seconds() const { return surface_seconds_; }

  /// True when geometries i and j may touch: both take part in contact, they
  /// belong to different bodies, neither both to the world, their bodies are
  /// not excluded by the filter, they share no collision group, and their
  /// MJCF bitmasks match (GeometryDescription::contype).
  bool CanCollide(int i, int j) const;
  /// The narrow phase for one pair, no broad phase and no filtering: appends
  /// the contact points with phi < margin [m]. A is geometry min(i, j), except
  /// that a half-space is always A.
  /// A pair with a compliant geometry yields one point per polygon of its
  /// contact surface, which is appended to `surfaces` when given (and the
  /// points' `surface` index into it; −1 without).
  void ComputePairContacts(int i, int j, double margin, std::vector<ContactPoint>* contacts,
                           std::vector<ContactSurface>* surfaces = nullptr) const;

  /// Wall-clock time of the broad and narrow phases of the last
  /// ComputeContacts [s], for benchmarks.
  double broad_phase_seconds() const { return broad_phase_seconds_; }
  double narrow_phase_seconds() const { return narrow_phase_seconds_; }
  /// Candidate pairs the broad phase passed to the narrow phase last time.
  int num_candidate_pairs() const { return static_cast<int>(candidate_pairs_.size()); }

 private:
  struct BroadPhase;  // FCL managers; defined in the .cpp (FCL is private).

  void CollectCandidatePairs(double margin);
  void BuildCompliantGeometry();
  void ComputeSurfacePair(int a, int b, std::vector<ContactPoint>* contacts,
                          std::vector<ContactSurface>* surfaces) const;

  std::vector<CollisionGeometry> geometries_;
  CollisionFilter filter_;
  std::vector<char> sleeping_bodies_;  // SetSleepingBodies.
  std::vector<std::string> group_names_;
  std::vector<std::string> notes_;
  std::vector<int> dynamic_ids_;     // Collision geometries on moving bodies.
  std::vector<int> static_ids_;      // World geometries except half-spaces.
  std::vector<int> half_space_ids_;  // World half-spaces.
  int max_body_ = 0;
  std::unique_ptr<BroadPhase> broad_phase_;
  bool static_dirty_ = true;
  double static_margin_ = -1;  // Margin the static AABBs were inflated for.
  std::vector<std::pair<int, int>> candidate_pairs_;
  // Pressure-field contact, per geometry (null / 0 where not used): volume
  // meshes and hierarchies of compliant geometries, surfaces of the rigid
  // ones (built only when some geometry is compliant), moduli [Pa].
  std::vector<std::shared_ptr<const VolumeMesh>> volume_meshes_;
  std::vector<std::shared_ptr<const TetBvh>> bvhs_;
  std::vector<std::shared_ptr<const SurfaceMesh>> rigid_surfaces_;
  std::vector<double> moduli_;
  std::vector<ContactSurface> surfaces_;
  double surface_seconds_ = 0;
  double broad_phase_seconds_ = 0;
  double narrow_phase_seconds_ = 0;
};

}  // namespace stiction
