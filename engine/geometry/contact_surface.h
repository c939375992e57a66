#pragma once
// Pressure-field contact surfaces ([Hydro] in docs/references.md): where a
// compliant geometry meets a rigid one, the part of the rigid surface inside
// the compliant volume; where two compliant ones meet, the surface on which
// their pressures are equal. Each is a set of convex polygons, one per
// (tetrahedron, rigid triangle) or (tetrahedron, tetrahedron) pair that
// overlaps, with the pressure p [Pa] and the rate g = ∂p/∂(penetration)
// [Pa/m] at the centroid. AppendPatchContacts turns each polygon into one
// point contact of the convex problem ([Patch] discrete approximation,
// docs/contact-model.md "Pressure-field patches"): k = A g, φ0 = −p/g, so
// that k (−φ0) = p A.
//
// Conventions as contact_manifold.h: world frame, metres; A is the first
// geometry of the pair, normals point from A into B.
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/geometry/contact_manifold.h"
#include "engine/geometry/tet_bvh.h"
#include "engine/geometry/volume_mesh.h"

namespace stiction {

/// One polygon of a contact surface: vertices [first, first + count) of its
/// surface, in order around the polygon (either orientation).
struct ContactPolygon {
  int first = 0, count = 0;
  Vector3 centroid_W = Vector3::Zero();  ///< [m]
  Vector3 nhat_W = Vector3::UnitZ();     ///< Unit normal from A into B.
  double area = 0;                       ///< [m²]
  double pressure = 0;                   ///< At the centroid [Pa].
  double gradient = 0;                   ///< g: pressure rise per unit penetration [Pa/m], > 0.
};

/// The contact surface of one pair of geometries.
struct ContactSurface {
  int geometry_a = -1, geometry_b = -1;
  int body_a = 0, body_b = 0;
  std::vector<Vector3> vertices_W;   ///< [m]
  std::vector<double> pressures;     ///< Per vertex [Pa].
  std::vector<ContactPolygon> polygons;

  double Area() const;                ///< Σ A [m²].
  double PeakPressure() const;        ///< Largest vertex pressure [Pa].
  /// The pressure-weighted centroid Σ p A c / Σ p A [m] (area-weighted when
  /// no pressure).
  Vector3 PressureCentroid() const;
  /// Σ p A n̂: the force of the pressure field on B at the step start [N].
  Vector3 PressureForce() const;
  /// Reverses A and B (normals negated).
  void Flip();
};

/// A compliant geometry: its mesh (in G), hierarchy, pose and modulus.
struct SoftGeometry {
  const VolumeMesh* mesh = nullptr;
  const TetBvh* bvh = nullptr;
  RigidTransform X_WG;
  double modulus = 0;  ///< E [Pa].
};

/// A rigid geometry's surface (in G) and pose.
struct RigidSurface {
  const SurfaceMesh* mesh = nullptr;
  RigidTransform X_WG;
};

/// The triangles of rigid A inside compliant B, clipped per tetrahedron.
/// Polygons whose triangle faces away from the pressure gradient (g ≤ 0, a
/// face entering B edge-on or from inside) are dropped.
void ComputeRigidSoftSurface(const RigidSurface& A, const SoftGeometry& B, ContactSurface* out);
/// The plane of half-space A inside compliant B.
void ComputePlaneSoftSurface(const Plane& A, const SoftGeometry& B, ContactSurface* out);
/// The surface where E_A e_A = E_B e_B inside both compliant volumes.
void ComputeSoftSoftSurface(const SoftGeometry& A, const SoftGeometry& B, ContactSurface* out);

/// One ContactPoint per polygon of `surface` (its index `surface_index`):
/// p_W the centroid, phi = −p/g, stiffness = A g, bodies and geometries of
/// the surface.
void AppendPatchContacts(const ContactSurface& surface, int surface_index, std::vector<ContactPoint>* out);

}  // namespace stiction
