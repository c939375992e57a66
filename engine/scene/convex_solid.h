#pragma once
// Convex polyhedra as the scene loader needs them to compute a body's mass
// properties from its collision pieces (docs/contact-geometry.md, "Concave
// bodies as compounds of convex pieces"): the volume integrals of a closed
// polyhedron, the intersection of two convex ones (for the union of
// overlapping pieces), and the polyhedra of solids of revolution (the tiles
// of a `revolved` shape, and the stand-ins for spheres, capsules and
// cylinders in intersections). Plain arithmetic; no geometry library.
#include <vector>

#include "engine/common/eigen_types.h"

namespace stiction {

/// The volume integrals of a uniform solid in some frame F: what is additive
/// over disjoint pieces (so a union is their inclusion–exclusion sum).
struct SolidIntegrals {
  double volume = 0;                      ///< ∫ dV [m³].
  Vector3 first = Vector3::Zero();        ///< ∫ x dV [m⁴].
  Matrix3 second = Matrix3::Zero();       ///< ∫ x xᵀ dV [m⁵].

  SolidIntegrals& operator+=(const SolidIntegrals& o);
  SolidIntegrals& operator-=(const SolidIntegrals& o);
  /// The same solid's integrals in frame B, given X_BF (x_B = R x_F + p).
  SolidIntegrals Transformed(const RigidTransform& X_BF) const;
};

/// A uniform solid's mass [kg], centre of mass [m] and rotational inertia
/// about it [kg m²], from its integrals at `density` [kg/m³].
struct SolidMassProperties {
  double mass = 0;
  Vector3 com = Vector3::Zero();
  Matrix3 inertia_about_com = Matrix3::Zero();
};
SolidMassProperties ToMassProperties(const SolidIntegrals& integrals, double density);

/// A convex polyhedron as its faces: each a planar convex polygon of points
/// [m], counter-clockwise seen from outside. Empty: no volume.
struct ConvexPolyhedron {
  std::vector<std::vector<Vector3>> faces;
  bool empty() const { return faces.empty(); }
};

/// ∫ over the polyhedron (a closed surface with outward faces; need not be
/// convex for this).
SolidIntegrals Integrate(const ConvexPolyhedron& polyhedron);

/// Axis-aligned bounds of the vertices.
void CalcBounds(const ConvexPolyhedron& polyhedron, Vector3* lower, Vector3* upper);

/// The part with n · x ≤ d (n unit). Points within `tolerance` [m] of the
/// plane count as on it.
ConvexPolyhedron ClipByPlane(const ConvexPolyhedron& polyhedron, const Vector3& n, double d, double tolerance);

/// A ∩ B, by clipping A with every face plane of B. Empty when they are
/// disjoint or only touch (share a face, an edge or a point) to within
/// `tolerance` [m].
ConvexPolyhedron Intersect(const ConvexPolyhedron& a, const ConvexPolyhedron& b, double tolerance);

/// True when a face plane of A or of B has the other entirely on or beyond
/// it (to within `tolerance` [m]): the two cannot overlap. A cheap test that
/// misses separations along edge pairs; Intersect is exact.
bool SeparatedByAFacePlane(const ConvexPolyhedron& a, const ConvexPolyhedron& b, double tolerance);

/// A point of a profile in the (r, z) half-plane of a solid of revolution
/// about the z axis: r ≥ 0 the distance from the axis, z the height [m].
struct ProfilePoint {
  double r = 0;
  double z = 0;
};

/// The convex polyhedron swept by the convex polygon `section` (counter-
/// clockwise in the (r, z) plane, r ≥ 0) between angles θ0 and θ1 about z
/// (0 < θ1 − θ0 < π), its arcs replaced by chords: its faces are the
/// section at both angles and one trapezoid per section edge (a triangle
/// where the edge touches the axis). Points on the axis are merged.
ConvexPolyhedron SweepSection(const std::vector<ProfilePoint>& section, double theta0, double theta1);

/// The convex polyhedron of a convex solid of revolution with `segments`
/// sides about z: `profile` runs from a point on the axis (r = 0) at the
/// bottom to one on the axis at the top, r ≥ 0 and z increasing.
ConvexPolyhedron MakeRevolvedConvex(const std::vector<ProfilePoint>& profile, int segments);

}  // namespace stiction
