#include "engine/scene/ellipsoid_mesh.h"

#include <array>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

namespace stiction {

std::shared_ptr<const MeshData> MakeEllipsoidMesh(const Vector3& radii, const std::string& name, int subdivisions) {
  // The icosahedron: 12 vertices (0, ±1, ±φ) and their cyclic
  // permutations, 20 counter-clockwise faces.
  const double phi = 0.5 * (1.0 + std::sqrt(5.0));
  std::vector<Vector3> unit = {{-1, phi, 0}, {1, phi, 0},  {-1, -phi, 0}, {1, -phi, 0},
                               {0, -1, phi}, {0, 1, phi},  {0, -1, -phi}, {0, 1, -phi},
                               {phi, 0, -1}, {phi, 0, 1},  {-phi, 0, -1}, {-phi, 0, 1}};
  for (Vector3& v : unit) v.normalize();
  std::vector<std::array<int, 3>> faces = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                           {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                           {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                           {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  // Each subdivision splits a triangle into four at its edges' midpoints,
  // pushed out to the sphere; a midpoint is shared by the edge's two faces.
  for (int s = 0; s < subdivisions; ++s) {
    std::map<std::pair<int, int>, int> midpoint;
    auto mid = [&](int a, int b) {
      const std::pair<int, int> key{std::min(a, b), std::max(a, b)};
      const auto [it, inserted] = midpoint.emplace(key, static_cast<int>(unit.size()));
      if (inserted) unit.push_back((unit[a] + unit[b]).normalized());
      return it->second;
    };
    std::vector<std::array<int, 3>> finer;
    finer.reserve(4 * faces.size());
    for (const auto& [a, b, c] : faces) {
      const int ab = mid(a, b), bc = mid(b, c), ca = mid(c, a);
      finer.push_back({a, ab, ca});
      finer.push_back({b, bc, ab});
      finer.push_back({c, ca, bc});
      finer.push_back({ab, bc, ca});
    }
    faces = std::move(finer);
  }
  auto mesh = std::make_shared<MeshData>();
  mesh->name = name;
  mesh->vertices_G.reserve(unit.size());
  for (const Vector3& v : unit) mesh->vertices_G.push_back(radii.cwiseProduct(v));
  mesh->triangles = std::move(faces);
  return mesh;
}

}  // namespace stiction
