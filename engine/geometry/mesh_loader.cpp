#include "engine/geometry/mesh_loader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <unordered_map>

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
// qhull's C++ wrapper (libqhullcpp) does not compile as C++20 (template-id
// constructors), so the reentrant C API is used directly.
extern "C" {
#include <libqhull_r/qhull_ra.h>
}

#include "engine/common/error.h"

namespace stiction {
namespace {

std::string MeshWhat(const std::string& path) { return "mesh '" + path + "'"; }

[[noreturn]] void Fail(const std::string& what, const std::string& reason) {
  throw InputError(what + ": " + reason);
}

// A negative scale mirrors the mesh (URDF `scale="1 -1 1"`: one file for a
// left and a right link); zero would flatten it.
void CheckScale(const std::string& what, const Vector3& scale) {
  if (!(scale.array() != 0).all() || !scale.allFinite()) {
    Fail(what, "scale must be non-zero and finite on every axis (negative mirrors)");
  }
}

// A mirroring scale (an odd number of negative factors) turns
// counter-clockwise triangles clockwise; drawing swaps two corners back.
bool Mirrors(const Vector3& scale) { return scale.prod() < 0; }

// MeshData::name is already a phrase naming the mesh ("mesh 'wedge' of
// robot.xml"), so it is not wrapped again.
std::string DataWhat(const MeshData& mesh) { return mesh.name.empty() ? "in-memory mesh" : mesh.name; }

// Reads `path` with Assimp, scaled by `scale` later, or throws (a bad scale
// first, as the mesh is not read then). The importer owns the returned scene.
const aiScene* ReadScene(Assimp::Importer* importer, const std::string& path, const Vector3& scale,
                         unsigned int flags) {
  CheckScale(MeshWhat(path), scale);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) Fail(MeshWhat(path), "file not found");
  if (std::filesystem::is_directory(path, ec)) Fail(MeshWhat(path), "is a directory");
  const aiScene* scene = importer->ReadFile(path, flags);
  if (scene == nullptr || (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE) != 0 ||
      scene->mRootNode == nullptr) {
    std::string reason = importer->GetErrorString();
    Fail(MeshWhat(path), "cannot be read" + (reason.empty() ? "" : " (" + reason + ")"));
  }
  return scene;
}

// Whether `path` is a Collada file (by its extension, as Assimp picks its
// importer).
bool IsCollada(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext == ".dae";
}

// A point or direction of the file in the mesh frame G, which is z-up.
// Assimp applies a Collada file's <unit> and turns its <up_axis> into +y, its
// own convention; URDF and scene meshes are z-up, and ROS tools, PyBullet and
// Gazebo read a Collada file with its up axis along +z (and STL, OBJ and PLY
// as written). A rotation of +90 degrees about x takes Assimp's +y to +z:
// (x, y, z) -> (x, -z, y).
class FileFrame {
 public:
  explicit FileFrame(const std::string& path) : y_up_(IsCollada(path)) {}
  Vector3 ToG(const aiVector3D& v) const {
    return y_up_ ? Vector3(v.x, -v.z, v.y) : Vector3(v.x, v.y, v.z);
  }

 private:
  bool y_up_;
};

// Sorts the vertex ids of one planar convex polygon counter-clockwise about
// `normal` (seen from outside) by angle around their centroid.
std::vector<int> OrderFaceLoop(const std::vector<Vector3>& vertices, std::vector<int> ids,
                               const Vector3& normal) {
  Vector3 centroid = Vector3::Zero();
  for (int id : ids) centroid += vertices[id];
  centroid /= static_cast<double>(ids.size());
  const Vector3 u = normal.unitOrthogonal();
  const Vector3 v = normal.cross(u);  // (u, v, normal) is right-handed.
  std::vector<std::pair<double, int>> keyed;
  keyed.reserve(ids.size());
  for (int id : ids) {
    const Vector3 d = vertices[id] - centroid;
    keyed.emplace_back(std::atan2(d.dot(v), d.dot(u)), id);
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<int> loop;
  loop.reserve(keyed.size());
  for (const auto& [angle, id] : keyed) loop.push_back(id);
  return loop;
}

// An in-memory mesh did not pass through a file reader's checks, so its
// producer may hand over anything: refuse what would poison qhull, FCL or
// the GPU buffers (a NaN vertex, an index past the end) with a message.
void CheckMeshData(const MeshData& mesh, const Vector3& scale) {
  const std::string what = DataWhat(mesh);
  CheckScale(what, scale);
  if (mesh.triangles.empty()) Fail(what, "has no triangles (faces)");
  const int n = static_cast<int>(mesh.vertices_G.size());
  for (int i = 0; i < n; ++i) {
    const Vector3& v = mesh.vertices_G[i];
    if (!v.allFinite()) {
      std::ostringstream text;
      text << "vertex " << i << " is not finite (" << v.x() << " " << v.y() << " " << v.z() << ")";
      Fail(what, text.str());
    }
  }
  for (size_t t = 0; t < mesh.triangles.size(); ++t) {
    for (int id : mesh.triangles[t]) {
      if (id < 0 || id >= n) {
        Fail(what, "triangle " + std::to_string(t) + " refers to vertex " + std::to_string(id) +
                       ", but the mesh has " + std::to_string(n) + " vertices");
      }
    }
  }
}

bool IsDegenerate(const std::array<int, 3>& tri) {
  return tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2];
}

double BoundingRadius(const std::vector<Vector3>& vertices) {
  double r = 0;
  for (const Vector3& p : vertices) r = std::max(r, p.norm());
  return r;
}

}  // namespace

namespace {

// One triangle of a hull: input point ids and the facet's outward plane
// n·x = offset.
struct HullTriangle {
  std::array<int, 3> ids;
  Vector3 normal;
  double offset;
};

// Why qhull failed, from its messages: flat input (reported as "initial
// simplex is flat", QH6154) or anything else, with qhull's first line.
std::string QhullFailure(const std::string& text) {
  const bool flat = text.find("flat") != std::string::npos || text.find("6154") != std::string::npos ||
                    text.find("coplanar") != std::string::npos;
  size_t first = text.find_first_not_of(" \n");
  std::string line = first == std::string::npos ? "" : text.substr(first);
  line = line.substr(0, line.find('\n'));
  return flat ? "is flat (all points coplanar), no convex hull" + (line.empty() ? "" : " (" + line + ")")
              : "convex hull failed" + (line.empty() ? "" : " (" + line + ")");
}

// The triangles of the hull of `points_G` by qhull, or throws.
std::vector<HullTriangle> RunQhull(const std::vector<Vector3>& points_G, const std::string& what) {
  std::vector<double> coordinates;
  coordinates.reserve(3 * points_G.size());
  for (const Vector3& p : points_G) coordinates.insert(coordinates.end(), {p.x(), p.y(), p.z()});
  std::vector<HullTriangle> facets;
  std::string error;
  // qhull writes its messages to a FILE*; capture them for the error text.
  char* message_buffer = nullptr;
  size_t message_size = 0;
  FILE* messages = open_memstream(&message_buffer, &message_size);
  qhT qh_storage;
  qhT* qh = &qh_storage;
  qh_zero(qh, messages);
  // "Qt": triangulated output, so every facet is a triangle (FCL wants
  // triangles); coplanar triangles are merged back into polygons later.
  char command[] = "qhull Qt";
  const int status =
      qh_new_qhull(qh, 3, static_cast<int>(points_G.size()), coordinates.data(), False, command, nullptr, messages);
  if (status == 0) {
    facetT* facet;
    FORALLfacets {
      HullTriangle tri{};
      int k = 0;
      vertexT* vertex;
      vertexT** vertexp;
      FOREACHvertex_(facet->vertices) {
        if (k < 3) tri.ids[k] = qh_pointid(qh, vertex->point);
        ++k;
      }
      if (k != 3) {
        error = "convex hull produced a non-triangular facet";
        break;
      }
      tri.normal = Vector3(facet->normal[0], facet->normal[1], facet->normal[2]);
      tri.offset = -facet->offset;  // qhull: n·x + offset = 0.
      facets.push_back(tri);
    }
  }
  qh_freeqhull(qh, !qh_ALL);
  int curlong = 0, totlong = 0;
  qh_memfreeshort(qh, &curlong, &totlong);
  if (messages != nullptr) std::fclose(messages);
  const std::string text = message_buffer != nullptr ? message_buffer : "";
  std::free(message_buffer);
  if (status != 0) Fail(what, QhullFailure(text));
  if (!error.empty()) Fail(what, error);
  return facets;
}

// The hull's vertices: the input points that some facet uses, in increasing
// input order so the result is deterministic; returns input id → hull id.
std::unordered_map<int, int> KeepHullVertices(const std::vector<Vector3>& points_G,
                                              const std::vector<HullTriangle>& facets, ConvexHull* hull) {
  std::vector<int> input_ids;
  for (const HullTriangle& f : facets) input_ids.insert(input_ids.end(), f.ids.begin(), f.ids.end());
  std::sort(input_ids.begin(), input_ids.end());
  input_ids.erase(std::unique(input_ids.begin(), input_ids.end()), input_ids.end());
  std::unordered_map<int, int> hull_index;
  for (int id : input_ids) {
    hull_index[id] = static_cast<int>(hull->vertices_G.size());
    hull->vertices_G.push_back(points_G[id]);
  }
  hull->bounding_radius = BoundingRadius(hull->vertices_G);
  return hull_index;
}

// The face of `hull` in the plane (normal, offset), added when there is
// none yet (with an empty entry in *face_ids).
size_t FaceOfPlane(const Vector3& normal, double offset, ConvexHull* hull, std::vector<std::vector<int>>* face_ids) {
  const double plane_tolerance = 1e-6 * (1.0 + hull->bounding_radius);
  for (size_t f = 0; f < hull->faces.size(); ++f) {
    if (hull->faces[f].normal_G.dot(normal) > 1.0 - 1e-9 && std::abs(hull->faces[f].offset - offset) < plane_tolerance) {
      return f;
    }
  }
  ConvexHull::Face face;
  face.normal_G = normal.normalized();
  face.offset = offset;
  hull->faces.push_back(face);
  face_ids->emplace_back();
  return hull->faces.size() - 1;
}

// Triangles, oriented by the facet's outward hyperplane normal, and grouped
// by plane into polygon faces whose vertex loops are ordered.
void AddTrianglesAndFaces(const std::vector<HullTriangle>& facets, const std::unordered_map<int, int>& hull_index,
                          ConvexHull* hull) {
  std::vector<std::vector<int>> face_ids;  // Vertex ids (unordered) per face.
  for (const HullTriangle& facet : facets) {
    std::array<int, 3> tri{hull_index.at(facet.ids[0]), hull_index.at(facet.ids[1]), hull_index.at(facet.ids[2])};
    const Vector3& a = hull->vertices_G[tri[0]];
    const Vector3 cross = (hull->vertices_G[tri[1]] - a).cross(hull->vertices_G[tri[2]] - a);
    if (cross.dot(facet.normal) < 0) std::swap(tri[1], tri[2]);
    hull->triangles.push_back(tri);
    const size_t f = FaceOfPlane(facet.normal, facet.offset, hull, &face_ids);
    face_ids[f].insert(face_ids[f].end(), tri.begin(), tri.end());
  }
  for (size_t f = 0; f < hull->faces.size(); ++f) {
    std::vector<int>& ids = face_ids[f];
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    hull->faces[f].vertices = OrderFaceLoop(hull->vertices_G, ids, hull->faces[f].normal_G);
  }
}

}  // namespace

ConvexHull ComputeConvexHull(const std::vector<Vector3>& points_G, const std::string& what) {
  if (points_G.size() < 4) {
    Fail(what, "needs at least 4 non-coplanar points for a convex hull, got " +
                   std::to_string(points_G.size()));
  }
  const std::vector<HullTriangle> facets = RunQhull(points_G, what);
  ConvexHull hull;
  const std::unordered_map<int, int> hull_index = KeepHullVertices(points_G, facets, &hull);
  AddTrianglesAndFaces(facets, hull_index, &hull);
  return hull;
}

ConvexHull MakeBoxHull(const Vector3& size) {
  const Vector3 h = 0.5 * size;
  ConvexHull hull;
  for (int i = 0; i < 8; ++i) {
    // Bit 0: +x, bit 1: +y, bit 2: +z.
    hull.vertices_G.emplace_back((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(),
                                 (i & 4) ? h.z() : -h.z());
  }
  for (int axis = 0; axis < 3; ++axis) {
    for (int sign : {-1, 1}) {
      ConvexHull::Face face;
      face.normal_G = Vector3::Zero();
      face.normal_G[axis] = sign;
      face.offset = h[axis];
      std::vector<int> ids;
      for (int i = 0; i < 8; ++i) {
        if (((i >> axis) & 1) == (sign > 0 ? 1 : 0)) ids.push_back(i);
      }
      face.vertices = OrderFaceLoop(hull.vertices_G, ids, face.normal_G);
      hull.triangles.push_back({face.vertices[0], face.vertices[1], face.vertices[2]});
      hull.triangles.push_back({face.vertices[0], face.vertices[2], face.vertices[3]});
      hull.faces.push_back(std::move(face));
    }
  }
  hull.bounding_radius = h.norm();
  return hull;
}

CollisionMesh LoadCollisionMesh(const std::string& path, const Vector3& scale) {
  const std::string what = MeshWhat(path);
  Assimp::Importer importer;
  // Without removing normals, STL vertices (one normal per facet) are never
  // merged by JoinIdenticalVertices (PLATFORM-NOTES, Assimp 5.2).
  importer.SetPropertyInteger(AI_CONFIG_PP_RVC_FLAGS, aiComponent_NORMALS);
  const aiScene* scene =
      ReadScene(&importer, path, scale,
                aiProcess_RemoveComponent | aiProcess_Triangulate |
                    aiProcess_JoinIdenticalVertices | aiProcess_PreTransformVertices);

  // Weld positions across all meshes of the file (exact float equality), so
  // that a surface split over several meshes/materials is still one surface.
  std::map<std::array<float, 3>, int> weld;
  std::vector<Vector3> points_G;
  std::vector<std::array<int, 3>> triangles;
  const FileFrame frame(path);
  for (unsigned int m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh* mesh = scene->mMeshes[m];
    std::vector<int> index_of(mesh->mNumVertices);
    for (unsigned int i = 0; i < mesh->mNumVertices; ++i) {
      const aiVector3D& v = mesh->mVertices[i];
      const std::array<float, 3> key{v.x, v.y, v.z};
      auto [it, inserted] = weld.emplace(key, static_cast<int>(points_G.size()));
      if (inserted) points_G.push_back(scale.cwiseProduct(frame.ToG(v)));
      index_of[i] = it->second;
    }
    for (unsigned int f = 0; f < mesh->mNumFaces; ++f) {
      const aiFace& face = mesh->mFaces[f];
      if (face.mNumIndices != 3) continue;  // Points and lines carry no surface.
      const std::array<int, 3> tri{index_of[face.mIndices[0]], index_of[face.mIndices[1]],
                                   index_of[face.mIndices[2]]};
      if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2]) continue;
      triangles.push_back(tri);
    }
  }
  if (triangles.empty()) Fail(what, "contains no triangles");

  CollisionMesh result;
  result.num_input_vertices = static_cast<int>(points_G.size());
  result.num_input_triangles = static_cast<int>(triangles.size());
  // Only vertices used by a triangle enter the hull.
  std::vector<char> used(points_G.size(), 0);
  for (const auto& tri : triangles) {
    for (int id : tri) used[id] = 1;
  }
  std::vector<Vector3> hull_input;
  for (size_t i = 0; i < points_G.size(); ++i) {
    if (used[i]) hull_input.push_back(points_G[i]);
  }
  result.hull = ComputeConvexHull(hull_input, what);

  // A closed surface: every edge is shared by exactly two triangles.
  std::unordered_map<std::uint64_t, int> edge_count;
  for (const auto& tri : triangles) {
    for (int k = 0; k < 3; ++k) {
      const auto a = static_cast<std::uint64_t>(std::min(tri[k], tri[(k + 1) % 3]));
      const auto b = static_cast<std::uint64_t>(std::max(tri[k], tri[(k + 1) % 3]));
      ++edge_count[(a << 32) | b];
    }
  }
  result.num_edges = static_cast<int>(edge_count.size());
  for (const auto& [key, count] : edge_count) {
    if (count != 2) ++result.num_open_edges;
  }
  return result;
}

std::string DescribeOpenSurface(const CollisionMesh& mesh) {
  if (mesh.num_open_edges == 0) return "";
  return "is not a closed surface: " + std::to_string(mesh.num_open_edges) + " of " +
         std::to_string(mesh.num_edges) + " edges are not shared by exactly two triangles";
}

RenderMesh LoadRenderMesh(const std::string& path, const Vector3& scale) {
  Assimp::Importer importer;
  const aiScene* scene =
      ReadScene(&importer, path, scale,
                aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                    aiProcess_PreTransformVertices | aiProcess_GenSmoothNormals);
  RenderMesh out;
  const Eigen::Vector3f s = scale.cast<float>();
  // Normals transform with the inverse transpose of diag(scale).
  const Eigen::Vector3f s_inv = s.cwiseInverse();
  const FileFrame frame(path);
  for (unsigned int m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh* mesh = scene->mMeshes[m];
    const auto base = static_cast<std::uint32_t>(out.positions_G.size());
    for (unsigned int i = 0; i < mesh->mNumVertices; ++i) {
      out.positions_G.push_back(s.cwiseProduct(frame.ToG(mesh->mVertices[i]).cast<float>()));
      Eigen::Vector3f n = Eigen::Vector3f::UnitZ();
      if (mesh->HasNormals()) {
        n = frame.ToG(mesh->mNormals[i]).cast<float>().cwiseProduct(s_inv);
        if (n.norm() > 0) n.normalize();
        else n = Eigen::Vector3f::UnitZ();
      }
      out.normals_G.push_back(n);
    }
    for (unsigned int f = 0; f < mesh->mNumFaces; ++f) {
      const aiFace& face = mesh->mFaces[f];
      if (face.mNumIndices != 3) continue;
      for (int k : Mirrors(scale) ? std::array{0, 2, 1} : std::array{0, 1, 2}) {
        out.indices.push_back(base + face.mIndices[k]);
      }
    }
  }
  if (out.indices.empty()) Fail(MeshWhat(path), "contains no triangles");
  return out;
}

CollisionMesh MakeCollisionMesh(const MeshData& mesh, const Vector3& scale) {
  CheckMeshData(mesh, scale);
  CollisionMesh result;
  std::vector<Vector3> points_G;
  points_G.reserve(mesh.vertices_G.size());
  for (const Vector3& v : mesh.vertices_G) points_G.push_back(scale.cwiseProduct(v));
  result.num_input_vertices = static_cast<int>(points_G.size());
  for (const auto& tri : mesh.triangles) result.num_input_triangles += IsDegenerate(tri) ? 0 : 1;
  if (result.num_input_triangles == 0) Fail(DataWhat(mesh), "has only degenerate triangles");
  result.hull = ComputeConvexHull(points_G, DataWhat(mesh));
  return result;
}

RenderMesh MakeRenderMesh(const MeshData& mesh, const Vector3& scale) {
  CheckMeshData(mesh, scale);
  RenderMesh out;
  out.positions_G.reserve(3 * mesh.triangles.size());
  out.normals_G.reserve(3 * mesh.triangles.size());
  out.indices.reserve(3 * mesh.triangles.size());
  for (const auto& tri : mesh.triangles) {
    const int second = Mirrors(scale) ? 2 : 1;  // Counter-clockwise after scaling.
    const Vector3 a = scale.cwiseProduct(mesh.vertices_G[tri[0]]);
    const Vector3 b = scale.cwiseProduct(mesh.vertices_G[tri[second]]);
    const Vector3 c = scale.cwiseProduct(mesh.vertices_G[tri[3 - second]]);
    const Vector3 n = (b - a).cross(c - a);
    if (IsDegenerate(tri) || !(n.norm() > 0)) continue;
    const Eigen::Vector3f n_G = n.normalized().cast<float>();
    for (const Vector3* p : {&a, &b, &c}) {
      out.indices.push_back(static_cast<std::uint32_t>(out.positions_G.size()));
      out.positions_G.push_back(p->cast<float>());
      out.normals_G.push_back(n_G);
    }
  }
  if (out.indices.empty()) Fail(DataWhat(mesh), "has only degenerate triangles");
  return out;
}

CollisionMesh LoadCollisionMesh(const ShapeDescription& shape) {
  return shape.mesh_data ? MakeCollisionMesh(*shape.mesh_data, shape.mesh_scale)
                         : LoadCollisionMesh(shape.mesh_file, shape.mesh_scale);
}

RenderMesh LoadRenderMesh(const ShapeDescription& shape) {
  return shape.mesh_data ? MakeRenderMesh(*shape.mesh_data, shape.mesh_scale)
                         : LoadRenderMesh(shape.mesh_file, shape.mesh_scale);
}

std::string MeshWhat(const ShapeDescription& shape) {
  return shape.mesh_data ? DataWhat(*shape.mesh_data) : MeshWhat(shape.mesh_file);
}

std::string MeshDataKey(const MeshData& mesh) {
  // FNV-1a (64 bit) over the raw bytes of the coordinates and indices: cheap,
  // deterministic across runs, and any changed bit changes the key.
  std::uint64_t hash = 14695981039346656037ull;
  auto mix = [&hash](const void* data, size_t size) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    for (size_t i = 0; i < size; ++i) {
      hash ^= bytes[i];
      hash *= 1099511628211ull;
    }
  };
  for (const Vector3& v : mesh.vertices_G) mix(v.data(), 3 * sizeof(double));
  for (const auto& tri : mesh.triangles) mix(tri.data(), 3 * sizeof(int));
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return mesh.name + "#" + hex;
}

}  // namespace stiction
