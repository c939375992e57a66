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

/// Levels of detail of the round shapes (sphere, capsule, cylinder): slices
/// around the axis (stacks = slices / 2). Level 0 is MakePrimitiveMesh's.
/// A level is good while the chord's sagitta, r (1 - cos(pi / slices)),
/// stays under about a pixel: kLodMaxRadiusPx is the projected radius up to
/// which each coarser level may be used (8 slices: 7.6 % of r, up to 12 px;
/// 12: 3.4 %, 29 px; 20: 1.2 %, 80 px; 32 beyond, good to ~200 px).
inline constexpr int kNumLods = 4;
inline constexpr int kLodSlices[kNumLods] = {32, 20, 12, 8};
inline constexpr float kLodMaxRadiusPx[kNumLods] = {1e30f, 80.0f, 29.0f, 12.0f};
/// True for the shapes that have levels of detail.
bool HasLevelsOfDetail(const ShapeDescription& shape);
/// The mesh of `shape` at level `lod` (0 .. kNumLods - 1).
RenderMesh MakePrimitiveMesh(const ShapeDescription& shape, int lod);
/// The coarsest level whose silhouette error stays under a pixel for a shape
/// of projected radius `radius_px`.
int ChooseLod(float radius_px);

}  // namespace stiction::app
