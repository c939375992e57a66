#pragma once
// Contact manifolds computed without FCL: analytic pairs (half-space, sphere,
// capsule) and face clipping for convex polytopes (boxes and mesh hulls).
// docs/contact-geometry.md lists which pair gets which manifold.
//
// Conventions for every function here: all quantities are in the world frame
// W, in metres. Results are appended to `out` with p_W, nhat_AB_W and phi set;
// the caller fills the body and geometry indices. A is the first shape named
// in the function, B the second; nhat_AB_W points from A towards B (outward of
// A), and phi = (p_B_surface - p_A_surface) · nhat_AB_W, negative when the
// shapes overlap. p_W is midway between the two surface points. Only points
// with phi < margin are appended.
#include <algorithm>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/geometry/mesh_loader.h"

namespace stiction {

/// One contact point between bodies A and B.
struct ContactPoint {
  int body_a = 0;  ///< Model body index of A (0 = world). body_a < body_b is not required.
  int body_b = 0;  ///< Model body index of B.
  int geometry_a = -1;  ///< Index into the CollisionWorld's geometry list.
  int geometry_b = -1;
  Vector3 p_W = Vector3::Zero();  ///< Contact point, midway between the surfaces [m].
  Vector3 nhat_AB_W = Vector3::UnitZ();  ///< Unit normal from A towards B.
  /// Signed distance [m]: > 0 separated, < 0 overlapping, along nhat_AB_W:
  /// p_B_surface - p_A_surface = phi * nhat_AB_W.
  double phi = 0;
  /// A pressure-field polygon (contact_surface.h): its stiffness k = A g
  /// [N/m], which replaces the pair's material stiffness; 0 for the points
  /// of rigid manifolds.
  double stiffness = 0;
  /// A polygon's surface (index into CollisionWorld::contact_surfaces())
  /// and polygon within it; −1 for points of rigid manifolds.
  int surface = -1, polygon = -1;
};

/// Manifolds are reduced to at most this many points.
inline constexpr int kMaxManifoldPoints = 8;

/// A plane: points x with normal_W · x = offset are on it; normal_W (unit)
/// points out of the solid side (for a half-space, out of the material).
struct Plane {
  Vector3 normal_W = Vector3::UnitZ();
  double offset = 0;  ///< [m]
  static Plane FromPose(const RigidTransform& X_WH) {
    const Vector3 n = X_WH.R.col(2);
    return {n, n.dot(X_WH.p)};
  }
};

/// A convex polytope (box or mesh hull) placed in the world.
struct PlacedHull {
  const ConvexHull* hull = nullptr;  ///< Geometry-frame data; must outlive this.
  RigidTransform X_WG;
};

/// A capsule or cylinder: radius [m], length [m] along G's z axis, centred on G.
struct PlacedRound {
  double radius = 0;
  double length = 0;
  RigidTransform X_WG;
};

// ---- Half-space A (or any plane) against shape B ---------------------------

/// Sphere of radius r centred at c_W: at most one point.
void PlaneSphereContacts(const Plane& plane, const Vector3& c_W, double radius,
                         double margin, std::vector<ContactPoint>* out);
/// Capsule: the spheres at the two segment ends, each kept when within margin.
void PlaneCapsuleContacts(const Plane& plane, const PlacedRound& capsule, double margin,
                          std::vector<ContactPoint>* out);
/// Cylinder: on each cap circle, 8 rim points 45° apart starting at the rim
/// point deepest along -normal (any start when the axis is parallel to the
/// normal); the ones within margin are kept. Upright on a cap: 8 points; lying
/// on its side: the 2 line-contact ends.
void PlaneCylinderContacts(const Plane& plane, const PlacedRound& cylinder, double margin,
                           std::vector<ContactPoint>* out);
/// Box or hull: every vertex within margin, reduced to kMaxManifoldPoints
/// (deepest first, then farthest-point sampling).
void PlaneHullContacts(const Plane& plane, const PlacedHull& hull, double margin,
                       std::vector<ContactPoint>* out);

// ---- Analytic round pairs (one point; parallel capsules two) ---------------

void SphereSphereContacts(const Vector3& c_A, double r_A, const Vector3& c_B, double r_B,
                          double margin, std::vector<ContactPoint>* out);
/// Sphere A against a box B with full side lengths `size`.
void SphereBoxContacts(const Vector3& c_A, double r_A, const Vector3& size_B,
                       const RigidTransform& X_WB, double margin,
                       std::vector<ContactPoint>* out);

/// Sphere A (centre c_A [m], radius r_A [m]) against the convex hull B, in
/// closed form: the exact closest point of the hull (on a face the centre
/// sees, or on one of that face's edges), or with the centre inside, the
/// nearest face. At most one point; normal from A towards B. FCL's GJK
/// (libccd) did this to 1e-9 m at a fifth of a bowl of marbles' step.
void SphereHullContacts(const Vector3& c_A, double r_A, const PlacedHull& B, double margin,
                        std::vector<ContactPoint>* out);
void SphereCapsuleContacts(const Vector3& c_A, double r_A, const PlacedRound& capsule_B,
                           double margin, std::vector<ContactPoint>* out);
/// One point at the closest points of the two axes; two points (the ends of
/// the axes' common stretch) when the axes are parallel within ~0.6°.
void CapsuleCapsuleContacts(const PlacedRound& capsule_A, const PlacedRound& capsule_B,
                            double margin, std::vector<ContactPoint>* out);

// ---- Polytopes --------------------------------------------------------------

/// Face-based manifold between two convex polytopes. SAT over both polytopes'
/// face normals picks the reference face with the largest separation (A's on a
/// tie within 1e-5 m); the most anti-parallel face of the other polytope is
/// clipped (Sutherland–Hodgman) against the reference face's side planes, and
/// clipped points with phi < margin are kept, phi measured along the reference
/// normal, reduced to kMaxManifoldPoints.
/// `phi_exact` is the true signed distance (e.g. from GJK/EPA). Face axes only
/// bound it from below; when the best face separation is more than
/// `tolerance` below it the contact is edge–edge, nothing is appended and false
/// is returned (the caller then uses a single closest-point contact). Also
/// returns false when clipping leaves no point.
bool HullHullContacts(const PlacedHull& A, const PlacedHull& B, double phi_exact,
                      double margin, double tolerance, std::vector<ContactPoint>* out);

/// The face-axis (SAT) part of HullHullContacts, computed once so that a
/// caller can skip the exact distance query when a face axis separates the
/// polytopes by `margin` or more (HullHullContacts then appends nothing and
/// returns true, whatever phi_exact). Holds the world vertices as scratch
/// that is reused from call to call.
struct HullPairFaces {
  std::vector<Vector3> vertices_A_W, vertices_B_W;
  int face_A = -1, face_B = -1;
  double separation_A = 0, separation_B = 0;  ///< [m], along A's and B's best face.
  /// max(separation_A, separation_B): a lower bound on the signed distance [m].
  double separation() const { return std::max(separation_A, separation_B); }
};
void CalcHullHullFaces(const PlacedHull& A, const PlacedHull& B, HullPairFaces* faces);
/// HullHullContacts with the face axes of CalcHullHullFaces(A, B).
bool HullHullContacts(const PlacedHull& A, const PlacedHull& B, const HullPairFaces& faces,
                      double phi_exact, double margin, double tolerance,
                      std::vector<ContactPoint>* out);

/// The kind of round shape in HullRoundContacts.
enum class RoundKind { kCapsule, kCylinder };

/// A capsule or cylinder B resting on a face of polytope A. When A's face best
/// aligned with the contact is within `tolerance` of `phi_exact` (the true
/// signed distance), B is treated against that face's plane as against a
/// half-space and the points whose projection lies inside the face polygon are
/// kept. Returns false (appending nothing) otherwise.
bool HullRoundContacts(const PlacedHull& A, const PlacedRound& B, RoundKind kind,
                       double phi_exact, double margin, double tolerance,
                       std::vector<ContactPoint>* out);

/// Reverses the roles of A and B for out[begin..end): negates the normals
/// (phi and p_W are symmetric).
void FlipContacts(std::vector<ContactPoint>* out, size_t begin);

/// Reduces out[begin..end) to at most `max_points`: keeps the deepest point,
/// then repeatedly the point farthest from those kept (the extremes).
void ReduceContacts(std::vector<ContactPoint>* out, size_t begin, int max_points);

}  // namespace stiction
