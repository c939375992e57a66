#pragma once
// An ellipsoid as a triangle mesh, for the importers of files that have
// ellipsoids (MJCF `ellipsoid` geoms) while Stiction's shapes do not: a
// subdivided icosahedron on the unit sphere, scaled per axis. Every vertex
// lies on the ellipsoid, so the mesh's hull (what contact uses) is a
// polytope inscribed in it.
#include <memory>
#include <string>

#include "engine/common/eigen_types.h"
#include "engine/scene/scene_description.h"

namespace stiction {

/// Subdivisions of the icosahedron: 3 gives 642 vertices and 1280 triangles,
/// whose hull stays within 0.5 % of the radius of the sphere it is scaled
/// from (the centre of its largest face), well under a contact's usual
/// penetration for hand-sized objects.
inline constexpr int kEllipsoidSubdivisions = 3;

/// The ellipsoid with semi-axes `radii` [m] (positive, finite) along the
/// x, y, z axes of its frame, named `name` (MeshData::name: "ellipsoid 'g'
/// of robot.xml").
std::shared_ptr<const MeshData> MakeEllipsoidMesh(const Vector3& radii, const std::string& name,
                                                  int subdivisions = kEllipsoidSubdivisions);

}  // namespace stiction
