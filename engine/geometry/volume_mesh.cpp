#include "engine/geometry/volume_mesh.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <utility>

#include "engine/common/constants.h"
#include "engine/common/error.h"
#include "engine/geometry/mesh_loader.h"

namespace stiction {
namespace {

// Automatic resolutions: a fixed count per shape (docs/scene-format.md).
constexpr int kAutoSphereLevel = 3;         // 1280 triangles, edges ≈ 0.13 R.
constexpr int kRigidSphereLevel = 4;        // 5120 triangles, edges ≈ 0.066 R.
constexpr int kAutoAroundCount = 32;        // Round shapes: segments around the axis.
constexpr int kRigidAroundCount = 64;
constexpr double kAutoBoxCells = 8;         // Boxes and meshes: cells along the longest side.
constexpr double kIcosahedronEdge = 1.0515; // Edge of the unit-radius icosahedron.

void AddTriangle(SurfaceMesh* s, int a, int b, int c) { s->triangles.push_back({a, b, c}); }

// Counts from a resolution: at least `minimum`, `automatic` when h = 0.
int CountFor(double length, double h, int automatic, int minimum) {
  if (h <= 0) return automatic;
  const double n = std::ceil(length / h - 1e-9);
  return static_cast<int>(std::clamp(n, static_cast<double>(minimum), 1e6));
}

SurfaceMesh Icosphere(double radius, int level) {
  SurfaceMesh s;
  const double t = (1.0 + std::sqrt(5.0)) / 2.0;
  const double base[12][3] = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
                              {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
  for (const auto& v : base) s.vertices.push_back(Vector3(v[0], v[1], v[2]).normalized());
  s.triangles = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                 {11, 10, 2}, {10, 7, 6}, {7, 1, 8},  {3, 9, 4},  {3, 4, 2},   {3, 2, 6}, {3, 6, 8},
                 {3, 8, 9},  {4, 9, 5},  {2, 4, 11}, {6, 2, 10}, {8, 6, 7},   {9, 8, 1}};
  for (int l = 0; l < level; ++l) {
    std::map<std::pair<int, int>, int> midpoint;
    auto mid = [&](int a, int b) {
      const std::pair<int, int> key(std::min(a, b), std::max(a, b));
      const auto it = midpoint.find(key);
      if (it != midpoint.end()) return it->second;
      s.vertices.push_back((s.vertices[a] + s.vertices[b]).normalized());
      const int index = static_cast<int>(s.vertices.size()) - 1;
      midpoint.emplace(key, index);
      return index;
    };
    std::vector<std::array<int, 3>> next;
    next.reserve(s.triangles.size() * 4);
    for (const auto& [a, b, c] : s.triangles) {
      const int ab = mid(a, b), bc = mid(b, c), ca = mid(c, a);
      next.push_back({a, ab, ca});
      next.push_back({b, bc, ab});
      next.push_back({c, ca, bc});
      next.push_back({ab, bc, ca});
    }
    s.triangles = std::move(next);
  }
  for (Vector3& v : s.vertices) v *= radius;
  return s;
}

// A surface of revolution about z: `profile` holds (r, z) from the top
// pole (r = 0) to the bottom pole (r = 0), rings in between with r > 0.
SurfaceMesh Revolution(const std::vector<std::pair<double, double>>& profile, int around) {
  SurfaceMesh s;
  std::vector<int> ring_start;
  for (const auto& [r, z] : profile) {
    ring_start.push_back(static_cast<int>(s.vertices.size()));
    if (r <= 0) {
      s.vertices.emplace_back(0, 0, z);
      continue;
    }
    for (int j = 0; j < around; ++j) {
      const double theta = 2 * kPi * j / around;
      s.vertices.emplace_back(r * std::cos(theta), r * std::sin(theta), z);
    }
  }
  for (size_t k = 0; k + 1 < profile.size(); ++k) {
    const bool pole_a = profile[k].first <= 0, pole_b = profile[k + 1].first <= 0;
    const int a0 = ring_start[k], b0 = ring_start[k + 1];
    for (int j = 0; j < around; ++j) {
      const int j1 = (j + 1) % around;
      if (pole_a && pole_b) continue;
      if (pole_a) {
        AddTriangle(&s, a0, b0 + j, b0 + j1);
      } else if (pole_b) {
        AddTriangle(&s, a0 + j, b0, a0 + j1);
      } else {
        AddTriangle(&s, a0 + j, b0 + j, b0 + j1);
        AddTriangle(&s, a0 + j, b0 + j1, a0 + j1);
      }
    }
  }
  return s;
}

SurfaceMesh Cylinder(double radius, double length, int around, int rings, int along) {
  std::vector<std::pair<double, double>> profile;
  const double h = 0.5 * length;
  for (int k = 0; k <= rings; ++k) profile.emplace_back(radius * k / rings, h);
  for (int k = 1; k <= along; ++k) profile.emplace_back(radius, h - length * k / along);
  for (int k = rings - 1; k >= 0; --k) profile.emplace_back(radius * k / rings, -h);
  return Revolution(profile, around);
}

SurfaceMesh Capsule(double radius, double length, int around, int latitudes, int along) {
  std::vector<std::pair<double, double>> profile;
  const double h = 0.5 * length;
  for (int k = 0; k <= latitudes; ++k) {
    const double phi = 0.5 * kPi * k / latitudes;
    profile.emplace_back(radius * std::sin(phi), h + radius * std::cos(phi));
  }
  for (int k = 1; k <= along; ++k) profile.emplace_back(radius, h - length * k / along);
  for (int k = latitudes - 1; k >= 0; --k) {
    const double phi = 0.5 * kPi * k / latitudes;
    profile.emplace_back(radius * std::sin(phi), -h - radius * std::cos(phi));
  }
  return Revolution(profile, around);
}

// A box with full side lengths `size`, each face a grid of cells no longer
// than `cell` [m] (one cell per face when cell = ∞).
SurfaceMesh Box(const Vector3& size, double cell) {
  SurfaceMesh s;
  const Vector3 half = 0.5 * size;
  for (int axis = 0; axis < 3; ++axis) {
    const int u = (axis + 1) % 3, v = (axis + 2) % 3;
    const int nu = std::isinf(cell) ? 1 : std::max(1, static_cast<int>(std::ceil(size[u] / cell - 1e-9)));
    const int nv = std::isinf(cell) ? 1 : std::max(1, static_cast<int>(std::ceil(size[v] / cell - 1e-9)));
    for (double sign : {1.0, -1.0}) {
      const int start = static_cast<int>(s.vertices.size());
      for (int i = 0; i <= nu; ++i) {
        for (int j = 0; j <= nv; ++j) {
          Vector3 p;
          p[axis] = sign * half[axis];
          p[u] = -half[u] + size[u] * i / nu;
          p[v] = -half[v] + size[v] * j / nv;
          s.vertices.push_back(p);
        }
      }
      auto at = [&](int i, int j) { return start + i * (nv + 1) + j; };
      for (int i = 0; i < nu; ++i) {
        for (int j = 0; j < nv; ++j) {
          // (u, v, axis) is right-handed: u × v = +axis, so (i,j)→(i+1,j)→(i+1,j+1)
          // is counter-clockwise seen from +axis; reversed on the − face.
          if (sign > 0) {
            AddTriangle(&s, at(i, j), at(i + 1, j), at(i + 1, j + 1));
            AddTriangle(&s, at(i, j), at(i + 1, j + 1), at(i, j + 1));
          } else {
            AddTriangle(&s, at(i, j), at(i + 1, j + 1), at(i + 1, j));
            AddTriangle(&s, at(i, j), at(i, j + 1), at(i + 1, j + 1));
          }
        }
      }
    }
  }
  return s;
}

// The hull's triangles, each split into n² triangles with edges ≤ cell.
SurfaceMesh Hull(const ConvexHull& hull, double cell) {
  SurfaceMesh s;
  for (const auto& [ia, ib, ic] : hull.triangles) {
    const Vector3 &a = hull.vertices_G[ia], &b = hull.vertices_G[ib], &c = hull.vertices_G[ic];
    const double longest = std::max({(b - a).norm(), (c - b).norm(), (a - c).norm()});
    const int n = std::isinf(cell) ? 1 : std::max(1, static_cast<int>(std::ceil(longest / cell - 1e-9)));
    const int start = static_cast<int>(s.vertices.size());
    std::vector<int> row_start;
    for (int i = 0; i <= n; ++i) {
      row_start.push_back(static_cast<int>(s.vertices.size()) - start);
      for (int j = 0; j <= n - i; ++j) s.vertices.push_back(a + (b - a) * i / n + (c - a) * j / n);
    }
    auto at = [&](int i, int j) { return start + row_start[i] + j; };
    for (int i = 0; i < n; ++i) {
      for (int j = 0; j < n - i; ++j) {
        AddTriangle(&s, at(i, j), at(i + 1, j), at(i, j + 1));
        if (j + 1 < n - i) AddTriangle(&s, at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
      }
    }
  }
  return s;
}

// Outward normals; flips triangles that face the centre (the generators'
// winding is checked, not trusted).
void OrientOutward(SurfaceMesh* s, const Vector3& centre) {
  s->normals.clear();
  for (auto& t : s->triangles) {
    const Vector3 &a = s->vertices[t[0]], &b = s->vertices[t[1]], &c = s->vertices[t[2]];
    Vector3 n = (b - a).cross(c - a);
    if (n.dot((a + b + c) / 3.0 - centre) < 0) {
      std::swap(t[1], t[2]);
      n = -n;
    }
    const double norm = n.norm();
    s->normals.push_back(norm > 0 ? Vector3(n / norm) : Vector3::UnitZ());
  }
}

Vector3 Centre(const ShapeDescription& shape, const ConvexHull* hull) {
  if (shape.type != ShapeType::kMesh || hull == nullptr || hull->vertices_G.empty()) return Vector3::Zero();
  Vector3 c = Vector3::Zero();
  for (const Vector3& v : hull->vertices_G) c += v;
  return c / static_cast<double>(hull->vertices_G.size());
}

void RequireHull(const ShapeDescription& shape, const ConvexHull* hull, const std::string& what) {
  if (shape.type == ShapeType::kMesh && hull == nullptr) throw InputError(what + ": a mesh needs its convex hull");
}

}  // namespace

namespace {

double StarVolume(const SurfaceMesh& s, const Vector3& centre) {
  double six = 0;
  for (const auto& [a, b, c] : s.triangles) {
    six += (s.vertices[a] - centre).cross(s.vertices[b] - centre).dot(s.vertices[c] - centre);
  }
  return std::abs(six) / 6.0;
}

// Round shapes: the vertices are moved out from the centre (sphere) or the
// axis (cylinder, capsule) so that the polyhedron holds the shape's volume.
// An inscribed polyhedron lies inside the shape by (edge²/8R) on average and
// under-predicts shallow contact forces (5.5 % at 10 % penetration for a
// sphere at the automatic resolution); one of equal volume straddles the
// true surface and its errors average out over a patch
// (docs/contact-model.md).
void MatchVolume(const ShapeDescription& shape, SurfaceMesh* s) {
  const double r = shape.radius, l = shape.length;
  double target = 0;
  switch (shape.type) {
    case ShapeType::kSphere: target = 4.0 / 3.0 * kPi * r * r * r; break;
    case ShapeType::kCylinder: target = kPi * r * r * l; break;
    case ShapeType::kCapsule: target = kPi * r * r * l + 4.0 / 3.0 * kPi * r * r * r; break;
    default: return;
  }
  const double volume = StarVolume(*s, Vector3::Zero());
  if (!(volume > 0)) return;
  if (shape.type == ShapeType::kSphere) {
    const double scale = std::cbrt(target / volume);
    for (Vector3& v : s->vertices) v *= scale;
    return;
  }
  // Cylinder: only the cross-section is polygonal, so the scale is in x, y.
  // Capsule: the caps' depth too, past the cylinder's ends (a fixed point
  // iteration: the volume is not a pure power of the scale).
  const double h = 0.5 * l;
  auto apply = [&](double scale) {
    for (Vector3& v : s->vertices) {
      v.x() *= scale;
      v.y() *= scale;
      if (shape.type == ShapeType::kCapsule && std::abs(v.z()) > h) v.z() = std::copysign(h + scale * (std::abs(v.z()) - h), v.z());
    }
  };
  for (int iteration = 0; iteration < 30; ++iteration) {
    const double ratio = target / StarVolume(*s, Vector3::Zero());
    if (std::abs(ratio - 1) < 1e-13) break;
    apply(std::sqrt(ratio));
  }
}

}  // namespace

SurfaceMesh MakeShapeSurface(const ShapeDescription& shape, double resolution, const ConvexHull* hull,
                             const std::string& what) {
  if (!(resolution >= 0) || !std::isfinite(resolution)) {
    throw InputError(what + ": compliant: resolution must be >= 0 [m] and finite (0 = automatic), got " +
                     std::to_string(resolution));
  }
  RequireHull(shape, hull, what);
  const double h = resolution;
  // Refuses a resolution whose surface alone would exceed the mesh budget,
  // before anything that large is allocated.
  auto guard = [&](double triangles) {
    if (triangles > kMaxCompliantTets) {
      throw InputError(what + ": compliant: resolution " + std::to_string(resolution) + " m asks for about " +
                       std::to_string(static_cast<long long>(std::min(triangles, 1e18))) +
                       " surface triangles, more than " + std::to_string(kMaxCompliantTets) +
                       "; use a coarser resolution");
    }
  };
  SurfaceMesh s;
  switch (shape.type) {
    case ShapeType::kSphere: {
      int level = kAutoSphereLevel;
      if (h > 0) {
        level = 0;
        while (kIcosahedronEdge * shape.radius / std::pow(2.0, level) > h && level < 12) ++level;
      }
      guard(20 * std::pow(4.0, level));
      s = Icosphere(shape.radius, level);
      break;
    }
    case ShapeType::kBox: {
      const double cell = h > 0 ? h : shape.size.maxCoeff() / kAutoBoxCells;
      const Vector3 n = (shape.size / cell).array().ceil().max(1.0);
      guard(4 * (n.x() * n.y() + n.y() * n.z() + n.z() * n.x()));
      s = Box(shape.size, cell);
      break;
    }
    case ShapeType::kCylinder:
    case ShapeType::kCapsule: {
      // Automatic: 32 segments around, the other counts from the segment length.
      const int around = CountFor(2 * kPi * shape.radius, h, kAutoAroundCount, 8);
      const double cell = h > 0 ? h : 2 * kPi * shape.radius / around;
      const int along = std::max(1, static_cast<int>(std::ceil(shape.length / cell - 1e-9)));
      guard(2.0 * around * (along + 2 * std::ceil(shape.radius / cell)));
      if (shape.type == ShapeType::kCylinder) {
        const int rings = std::max(1, static_cast<int>(std::ceil(shape.radius / cell - 1e-9)));
        s = Cylinder(shape.radius, shape.length, around, rings, along);
      } else {
        const int latitudes = std::max(2, static_cast<int>(std::ceil(0.5 * kPi * shape.radius / cell - 1e-9)));
        s = Capsule(shape.radius, shape.length, around, latitudes, along);
      }
      break;
    }
    case ShapeType::kMesh: {
      const double cell = h > 0 ? h : 2 * hull->bounding_radius / kAutoBoxCells;
      guard(hull->triangles.size() * std::pow(std::ceil(2 * hull->bounding_radius / cell), 2));
      s = Hull(*hull, cell);
      break;
    }
    case ShapeType::kHalfSpace:
      throw InputError(what + ": compliant: a half_space cannot be compliant (it has no finite volume to mesh); "
                       "make the other geometry compliant, or use a thick box");
  }
  OrientOutward(&s, Centre(shape, hull));
  MatchVolume(shape, &s);
  return s;
}

SurfaceMesh MakeRigidSurfaceMesh(const ShapeDescription& shape, const ConvexHull* hull) {
  const std::string what = "rigid surface";
  RequireHull(shape, hull, what);
  SurfaceMesh s;
  switch (shape.type) {
    case ShapeType::kSphere:
      s = Icosphere(shape.radius, kRigidSphereLevel);
      break;
    case ShapeType::kBox:
      s = Box(shape.size, std::numeric_limits<double>::infinity());
      break;
    case ShapeType::kCylinder:
    case ShapeType::kCapsule: {
      const double arc = 2 * kPi * shape.radius / kRigidAroundCount;
      const int along = std::max(1, static_cast<int>(std::lround(shape.length / arc)));
      s = shape.type == ShapeType::kCylinder
              ? Cylinder(shape.radius, shape.length, kRigidAroundCount, 1, 1)
              : Capsule(shape.radius, shape.length, kRigidAroundCount, kRigidAroundCount / 4, along);
      break;
    }
    case ShapeType::kMesh:
      s = Hull(*hull, std::numeric_limits<double>::infinity());
      break;
    case ShapeType::kHalfSpace:
      return s;
  }
  OrientOutward(&s, Centre(shape, hull));
  return s;
}

namespace {

// The shape's inradius-like size about the centre [m]: how deep the
// thinnest part of the volume is, for grading the layers.
double InnerSize(const SurfaceMesh& surface, const Vector3& centre) {
  double depth = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < surface.triangles.size(); ++i) {
    depth = std::min(depth, surface.normals[i].dot(surface.vertices[surface.triangles[i][0]] - centre));
  }
  return depth;
}

double LongestEdge(const SurfaceMesh& s) {
  double longest = 0;
  for (const auto& t : s.triangles) {
    for (int k = 0; k < 3; ++k) longest = std::max(longest, (s.vertices[t[k]] - s.vertices[t[(k + 1) % 3]]).norm());
  }
  return longest;
}

// The scales s_0 = 1 > s_1 > ... of the layers about the centre: the first
// as thick as a surface edge (relative to the inner size), each next one
// twice as thick, down to s ≈ 1/4. Throws when the shape has no volume or
// the layers would exceed the tetrahedron budget.
std::vector<double> ShellScales(const SurfaceMesh& surface, const Vector3& centre, double resolution,
                                const std::string& what) {
  const double inner = InnerSize(surface, centre);
  if (!(inner > 0)) throw InputError(what + ": compliant: the shape has no volume to mesh");
  const double delta = std::clamp(LongestEdge(surface) / inner, 0.02, 0.25);
  std::vector<double> shells = {1.0};
  for (double step = delta; shells.back() - step >= 0.25; step *= 2) shells.push_back(shells.back() - step);
  const size_t num_tets = surface.triangles.size() * (3 * (shells.size() - 1) + 1);
  if (num_tets > static_cast<size_t>(kMaxCompliantTets)) {
    throw InputError(what + ": compliant: resolution " + std::to_string(resolution) + " m asks for " +
                     std::to_string(num_tets) + " tetrahedra, more than " + std::to_string(kMaxCompliantTets) +
                     "; use a coarser resolution");
  }
  return shells;
}

// Orients t positively; false for a degenerate sliver (a flat hull
// triangle through the centre).
bool OrientTet(const VolumeMesh& m, std::array<int, 4>* t) {
  const Vector3 &p0 = m.vertices[(*t)[0]], &p1 = m.vertices[(*t)[1]], &p2 = m.vertices[(*t)[2]],
                &p3 = m.vertices[(*t)[3]];
  const double six_volume = (p1 - p0).cross(p2 - p0).dot(p3 - p0);
  if (!(std::abs(six_volume) > 1e-30)) return false;
  if (six_volume < 0) std::swap((*t)[1], (*t)[2]);
  return true;
}

// Adds t to the last cell of m, oriented, unless it is a sliver.
void AddTet(std::array<int, 4> t, VolumeMesh* m) {
  if (!OrientTet(*m, &t)) return;
  m->tets.push_back(t);
  m->tet_cell.push_back(static_cast<int>(m->cells.size()) - 1);
}

// Per surface triangle one cell (the cone from the centre) cut into
// tetrahedra: three per prism between two shells, one cone at the inside.
// Vertices: shell k's copy of surface vertex v at k nv + v, the centre at
// `centre_index`.
void AddCells(const SurfaceMesh& surface, size_t num_shells, int centre_index, VolumeMesh* m) {
  const int nv = static_cast<int>(surface.vertices.size());
  for (std::array<int, 3> tri : surface.triangles) {
    std::array<int, 4> cell = {centre_index, tri[0], tri[1], tri[2]};  // OrientTet keeps [0], the centre.
    if (!OrientTet(*m, &cell)) continue;
    m->cells.push_back(cell);
    // Each prism between two shells in three tetrahedra, split by the
    // surface vertices' order so that neighbouring prisms cut their shared
    // quadrilateral along the same diagonal.
    std::sort(tri.begin(), tri.end());
    const auto [a, b, c] = tri;
    for (size_t k = 0; k + 1 < num_shells; ++k) {
      const int o = static_cast<int>(k) * nv, i = o + nv;  // Outer and inner shell offsets.
      AddTet({o + a, o + b, o + c, i + a}, m);
      AddTet({o + b, o + c, i + a, i + b}, m);
      AddTet({o + c, i + a, i + b, i + c}, m);
    }
    const int i = static_cast<int>(num_shells - 1) * nv;
    AddTet({i + a, i + b, i + c, centre_index}, m);
  }
}

// The gradient of e and the inward face planes of a tetrahedron of m.
VolumeMesh::TetData CalcTetData(const VolumeMesh& m, const std::array<int, 4>& tet) {
  VolumeMesh::TetData d;
  Matrix3 edges;
  Vector3 de;
  for (int k = 0; k < 3; ++k) {
    edges.row(k) = (m.vertices[tet[k + 1]] - m.vertices[tet[0]]).transpose();
    de[k] = m.e[tet[k + 1]] - m.e[tet[0]];
  }
  d.grad_e = edges.partialPivLu().solve(de);
  for (int f = 0; f < 4; ++f) {
    const Vector3& opposite = m.vertices[tet[f]];
    const Vector3& p = m.vertices[tet[(f + 1) % 4]];
    const Vector3& q = m.vertices[tet[(f + 2) % 4]];
    const Vector3& r = m.vertices[tet[(f + 3) % 4]];
    Vector3 n = (q - p).cross(r - p).normalized();
    if (n.dot(opposite - p) < 0) n = -n;
    d.normal[f] = n;
    d.offset[f] = n.dot(p);
  }
  return d;
}

}  // namespace

VolumeMesh MakeCompliantVolumeMesh(const ShapeDescription& shape, double resolution, const ConvexHull* hull,
                                   const std::string& what) {
  const SurfaceMesh surface = MakeShapeSurface(shape, resolution, hull, what);
  const Vector3 centre = Centre(shape, hull);
  // Layers: scaled copies of the surface about the centre (ShellScales),
  // then cones to the centre. Small tetrahedra near the surface keep the
  // hierarchy's boxes tight where contact happens; the field stays the
  // gauge's (see header).
  const std::vector<double> shells = ShellScales(surface, centre, resolution, what);
  VolumeMesh m;
  for (double s : shells) {
    for (const Vector3& v : surface.vertices) {
      m.vertices.push_back(centre + s * (v - centre));
      m.e.push_back(1.0 - s);
    }
  }
  const int centre_index = static_cast<int>(m.vertices.size());
  m.vertices.push_back(centre);
  m.e.push_back(1.0);
  AddCells(surface, shells.size(), centre_index, &m);
  if (m.tets.empty()) throw InputError(what + ": compliant: the shape has no volume to mesh");
  m.tet_data.reserve(m.tets.size());
  for (const std::array<int, 4>& tet : m.tets) m.tet_data.push_back(CalcTetData(m, tet));
  m.cell_data.reserve(m.cells.size());
  for (const std::array<int, 4>& cell : m.cells) m.cell_data.push_back(CalcTetData(m, cell));
  return m;
}

double VolumeMesh::Volume() const {
  double six = 0;
  for (const auto& t : tets) {
    six += (vertices[t[1]] - vertices[t[0]]).cross(vertices[t[2]] - vertices[t[0]]).dot(vertices[t[3]] - vertices[t[0]]);
  }
  return six / 6.0;
}

std::size_t VolumeMesh::MemoryBytes() const {
  return vertices.size() * sizeof(Vector3) + e.size() * sizeof(double) + tets.size() * sizeof(tets[0]) +
         tet_data.size() * sizeof(TetData) + tet_cell.size() * sizeof(int) + cells.size() * sizeof(cells[0]) +
         cell_data.size() * sizeof(TetData);
}

}  // namespace stiction
