#pragma once
// Triangle meshes for the analytic shapes, in the geometry frame G, with
// outward normals and counter-clockwise (outward) winding so that back faces
// can be culled. Capsule and cylinder axes are G's z axis, as in the scene
// format. Sizes in metres.
#include "engine/geometry/mesh_loader.h"
#include "engine/scene/scene_description.h"

namespace stiction::app {

/// `slices` around the axis, `stacks` from pole to pole (≥ 3 and ≥ 2).
RenderMesh MakeSphereMesh(double radius, int slices = 32, int stacks = 16);
RenderMesh MakeBoxMesh(const Vector3& size);
RenderMesh MakeCapsuleMesh(double radius, double length, int slices = 32, int stacks = 16);
RenderMesh MakeCylinderMesh(double radius, double length, int slices = 32);
/// A square of side 2·half_extent in G's xy plane (z = 0), normal +z: the
/// visible surface of a half-space.
RenderMesh MakePlaneMesh(double half_extent);

/// The mesh of an analytic shape (not kMesh; kHalfSpace gives the plane).
RenderMesh MakePrimitiveMesh(const ShapeDescription& shape);

}  // namespace stiction::app
