#pragma once
// Mesh files (OBJ, STL, ... anything Assimp reads) and in-memory meshes
// (MeshData, e.g. compiled from MJCF by MuJoCo) turned into what the engine
// needs: a convex hull for contact (FCL never sees the triangle mesh, its BVH
// contacts are junk, see PLATFORM-NOTES "FCL 0.7") and the full triangle mesh
// for the viewer. All coordinates are in the geometry frame G, in metres, after
// the per-axis scale has been applied.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/common/eigen_types.h"
#include "engine/scene/scene_description.h"

namespace stiction {

/// A convex polytope in its geometry frame G.
struct ConvexHull {
  /// One planar face: a convex polygon of hull vertices in counter-clockwise
  /// order seen from outside, with outward unit normal n_G and offset d [m]
  /// such that n_G · p_G = d for every point p_G of the face plane.
  struct Face {
    std::vector<int> vertices;
    Vector3 normal_G = Vector3::UnitZ();
    double offset = 0;
  };
  std::vector<Vector3> vertices_G;               ///< Hull vertices only [m].
  std::vector<std::array<int, 3>> triangles;     ///< Outward (CCW) triangles.
  std::vector<Face> faces;  ///< Coplanar triangles merged into polygons.
  /// Radius of the smallest origin-centred sphere holding the hull [m].
  double bounding_radius = 0;
};

/// The full mesh as the viewer draws it (not convex, not simplified).
struct RenderMesh {
  std::vector<Eigen::Vector3f> positions_G;  ///< [m], scaled.
  std::vector<Eigen::Vector3f> normals_G;    ///< Unit, one per position.
  std::vector<std::uint32_t> indices;        ///< Triangle list, 3 per triangle.
};

/// The collision data of a mesh file.
struct CollisionMesh {
  ConvexHull hull;
  int num_input_vertices = 0;   ///< Distinct positions after welding.
  int num_input_triangles = 0;  ///< Non-degenerate triangles in the file.
  /// Edges of the file's surface (after welding) and those not shared by
  /// exactly two triangles: 0 for a closed surface. Contact only uses the
  /// hull, so an open or non-manifold surface is still usable; the caller
  /// says so (CollisionWorld::notes).
  int num_edges = 0;
  int num_open_edges = 0;
};

/// "is not a closed surface: N of M edges are not shared by exactly two
/// triangles" for a mesh with open edges, "" for a closed one.
std::string DescribeOpenSurface(const CollisionMesh& mesh);

/// Mesh files are read in their authored frame and units, z up: STL, OBJ and
/// PLY as written; Collada with its <unit> applied and its <up_axis> along +z
/// (as ROS tools, PyBullet and Gazebo read it), whatever Assimp's own y-up
/// convention.
///
/// Loads `path` (absolute) with Assimp, scales it per axis, counts the edges
/// of its surface that are not shared by exactly two triangles (after
/// welding identical positions; num_open_edges), and computes the convex
/// hull of the vertices its triangles use with qhull. Open and non-manifold
/// surfaces load: contact only uses the hull, as in MuJoCo and Drake's
/// point contact. Throws InputError("mesh '<path>': <reason>") when the file
/// is missing or unreadable, holds no triangles, or is flat (all points
/// coplanar).
CollisionMesh LoadCollisionMesh(const std::string& path,
                                const Vector3& scale = Vector3::Ones());

/// Loads `path` for drawing: triangulated, identical vertices joined, node
/// transforms applied, smooth normals generated where the file has none.
/// Throws InputError("mesh '<path>': <reason>") when it cannot be read. Open
/// meshes are accepted here (the viewer may draw what contact cannot use).
RenderMesh LoadRenderMesh(const std::string& path,
                          const Vector3& scale = Vector3::Ones());

/// The collision data of an in-memory mesh, scaled per axis. Its hull is that
/// of every vertex, used by a triangle or not (as MuJoCo's own collision hull
/// of an MJCF mesh), and the surface need not be closed (MuJoCo does not ask
/// it, and contact only sees the hull). Throws InputError("<name>: <reason>")
/// (MeshData::name) for a bad scale, no triangles, a non-finite vertex, a triangle
/// index out of range, or a flat vertex set.
CollisionMesh MakeCollisionMesh(const MeshData& mesh, const Vector3& scale = Vector3::Ones());

/// An in-memory mesh for drawing, scaled per axis: flat shaded (each triangle
/// gets its own three vertices and its face normal), as MJCF meshes are
/// mostly low-polygon parts whose edges should stay sharp. Degenerate
/// triangles are dropped. Throws InputError as MakeCollisionMesh, except that
/// a flat mesh draws.
RenderMesh MakeRenderMesh(const MeshData& mesh, const Vector3& scale = Vector3::Ones());

/// The mesh of a kMesh shape: its mesh_data when set, else its mesh_file.
CollisionMesh LoadCollisionMesh(const ShapeDescription& shape);
RenderMesh LoadRenderMesh(const ShapeDescription& shape);

/// How messages name the mesh of a kMesh shape: "mesh '<file>'", or the
/// MeshData's name.
std::string MeshWhat(const ShapeDescription& shape);

/// A key for an in-memory mesh that is the same for equal content and name
/// (across reloads of a scene: the viewer caches GPU meshes by it) and
/// differs, up to a 64-bit hash collision, when either differs:
/// "<name>#<16 hex digits of an FNV-1a hash of vertices and triangles>".
std::string MeshDataKey(const MeshData& mesh);

/// The convex hull of `points_G` (qhull "Qt"). `what` names the source in error
/// messages ("mesh '<path>'"); throws InputError("<what>: <reason>") for fewer
/// than 4 points or a flat (coplanar) or otherwise degenerate point set.
ConvexHull ComputeConvexHull(const std::vector<Vector3>& points_G,
                             const std::string& what);

/// The hull of a box with full side lengths `size` [m] centred on G's origin:
/// 8 vertices, 6 quadrilateral faces, 12 triangles.
ConvexHull MakeBoxHull(const Vector3& size);

}  // namespace stiction
