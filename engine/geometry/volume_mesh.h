#pragma once
// The volume of a compliant geometry (pressure-field contact): a tetrahedral
// mesh in the geometry frame G with a piecewise-linear strain field e, 0 on
// the surface rising to 1 inside; the pressure is p = E e. And the surface
// triangulation of a rigid geometry, which a compliant one clips.
//
// Construction (docs/contact-model.md "Pressure-field patches"): every shape
// we mesh is convex, so its surface is triangulated at the resolution and the
// cone from the centre c over each surface triangle (a *cell*) is filled with
// layered prisms (copies of the surface scaled about c) and a last
// tetrahedron at c, with e = 1 − s on the copy scaled by s (0 on the surface,
// 1 at c). Within a cell e is then exactly 1 − γ(x), γ the gauge (Minkowski
// functional) of the meshed polyhedron about c: for a sphere e = 1 − r/R, for
// a box e = 1 − max(|x|/a, |y|/b, |z|/c) — the fields the analytic tests
// integrate — continuous and linear per cell.
#include <array>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/scene/scene_description.h"

namespace stiction {

struct ConvexHull;

/// A tetrahedral mesh with a strain field, in G [m].
struct VolumeMesh {
  std::vector<Vector3> vertices;          ///< [m]
  std::vector<double> e;                  ///< Strain per vertex, in [0, 1].
  std::vector<std::array<int, 4>> tets;   ///< Positively oriented.
  /// Per tetrahedron: ∇e [1/m] (constant within it) and its four face
  /// planes with inward unit normals: a point x is inside when
  /// normal · x ≥ offset for all four.
  struct TetData {
    Vector3 grad_e = Vector3::Zero();
    std::array<Vector3, 4> normal;
    std::array<double, 4> offset{};
  };
  std::vector<TetData> tet_data;
  /// The field is linear over the whole cone from the centre over one
  /// surface triangle (a *cell*), of which the tetrahedra are a layered
  /// refinement for the hierarchy. Contact surfaces are cut per cell (one
  /// polygon where the layers would give up to three): per tetrahedron its
  /// cell; per cell its vertices (surface triangle and centre) and data.
  std::vector<int> tet_cell;
  std::vector<std::array<int, 4>> cells;
  std::vector<TetData> cell_data;

  /// e at x, with x in (or on) cell c.
  double StrainAt(int c, const Vector3& x) const {
    return e[cells[c][0]] + cell_data[c].grad_e.dot(x - vertices[cells[c][0]]);
  }
  double Volume() const;
  /// Bytes held (vertices, field, tetrahedra and their data), for reports.
  std::size_t MemoryBytes() const;
};

/// Largest tetrahedron count a resolution may ask for (InputError above).
inline constexpr int kMaxCompliantTets = 200000;

/// The volume mesh of a compliant `shape` (sphere, box, capsule, cylinder,
/// or a mesh: its convex hull `hull`, which must then be given) at
/// `resolution` [m] (0 = automatic). Throws InputError naming `what` for a
/// half-space, a non-positive or non-finite resolution, or a resolution so
/// fine it would exceed kMaxCompliantTets.
VolumeMesh MakeCompliantVolumeMesh(const ShapeDescription& shape, double resolution, const ConvexHull* hull,
                                   const std::string& what);

/// A closed triangulated surface in G with outward unit normals.
struct SurfaceMesh {
  std::vector<Vector3> vertices;               ///< [m]
  std::vector<std::array<int, 3>> triangles;   ///< Counter-clockwise from outside.
  std::vector<Vector3> normals;                ///< Per triangle, outward.
};

/// The surface a compliant geometry meets when `shape` is rigid: boxes and
/// meshes exactly (the mesh's convex hull `hull`, as point contact uses),
/// round shapes tessellated finely enough that a patch on them is as
/// resolved as one on a plane (edges ≤ 1/16 of the radius or `resolution`).
/// Half-spaces have none (they are clipped as a plane).
SurfaceMesh MakeRigidSurfaceMesh(const ShapeDescription& shape, const ConvexHull* hull);

/// The triangulated surface of a convex shape at `resolution` [m] (0 =
/// automatic), the same one MakeCompliantVolumeMesh cones to its centre.
SurfaceMesh MakeShapeSurface(const ShapeDescription& shape, double resolution, const ConvexHull* hull,
                             const std::string& what);

}  // namespace stiction
