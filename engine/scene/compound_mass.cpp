#include "engine/scene/compound_mass.h"

#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <stdexcept>
#include <utility>

#include "engine/common/text.h"
#include "engine/scene/shape_inertia.h"

namespace stiction {
namespace {

constexpr int kStandInSectors = 32;
constexpr int kStandInRings = 16;

/// Radial factors that give an inscribed polygon of n chords over an angle
/// `span` the area of its circular sector.
double AreaMatch(int n, double span) { return std::sqrt(span / (n * std::sin(span / n))); }

/// The arc of radius ρ about (0, z0) from angle a to b (from the r axis
/// towards +z), n chords, scaled by AreaMatch.
void AppendArc(double rho, double z0, double a, double b, int n, std::vector<ProfilePoint>* out) {
  const double g = AreaMatch(2 * n, 2 * (b - a)) * rho;
  for (int i = 0; i <= n; ++i) {
    const double phi = a + (b - a) * i / n;
    out->push_back({g * std::cos(phi), z0 + g * std::sin(phi)});
  }
}

/// A polyhedron in the shape's frame with (close to) the shape's volume.
ConvexPolyhedron StandIn(const ShapeDescription& shape) {
  constexpr double kPi = std::numbers::pi;
  const double r = shape.radius;
  const double h = 0.5 * shape.length;
  std::vector<ProfilePoint> profile;
  switch (shape.type) {
    case ShapeType::kSphere:
      AppendArc(r, 0, -kPi / 2, kPi / 2, kStandInRings, &profile);
      break;
    case ShapeType::kCylinder:
      profile = {{0, -h}, {r, -h}, {r, h}, {0, h}};
      break;
    case ShapeType::kCapsule:
      AppendArc(r, -h, -kPi / 2, 0, kStandInRings / 2, &profile);
      AppendArc(r, h, 0, kPi / 2, kStandInRings / 2, &profile);
      break;
    default:
      throw std::invalid_argument("StandIn: not a round primitive");
  }
  const double f = AreaMatch(kStandInSectors, 2 * kPi);
  for (ProfilePoint& p : profile) p.r *= f;
  profile.front().r = 0;
  profile.back().r = 0;
  return MakeRevolvedConvex(profile, kStandInSectors);
}

ConvexPolyhedron BoxPolyhedron(const Vector3& size) {
  const Vector3 h = 0.5 * size;
  auto corner = [&](int i) {
    return Vector3((i & 1) ? h.x() : -h.x(), (i & 2) ? h.y() : -h.y(), (i & 4) ? h.z() : -h.z());
  };
  // Outward, counter-clockwise: -x, +x, -y, +y, -z, +z.
  const int faces[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  ConvexPolyhedron out;
  for (const auto& f : faces) out.faces.push_back({corner(f[0]), corner(f[1]), corner(f[2]), corner(f[3])});
  return out;
}

/// The piece's integrals in its own frame: closed form for primitives.
SolidIntegrals PrimitiveIntegrals(const ShapeDescription& shape) {
  SolidIntegrals out;
  out.volume = CalcShapeVolume(shape);
  // I = tr(S) 1 − S about the centroid (the frame origin) at unit density,
  // so S = tr(I)/2 · 1 − I.
  const Matrix3 I = CalcShapeInertia(shape, out.volume);
  out.second = 0.5 * I.trace() * Matrix3::Identity() - I;
  return out;
}

ConvexPolyhedron Transformed(const ConvexPolyhedron& p, const RigidTransform& X) {
  ConvexPolyhedron out = p;
  for (auto& face : out.faces) {
    for (Vector3& v : face) v = X * v;
  }
  return out;
}

struct Piece {
  SolidIntegrals integrals;  ///< Body frame.
  ConvexPolyhedron polyhedron;  ///< Body frame.
  Vector3 lower, upper;
};

}  // namespace

ConvexPolyhedron PolyhedronOfConvexMesh(const MeshData& mesh, const Vector3& scale, std::string* why_not) {
  std::vector<Vector3> v;
  Vector3 lower = Vector3::Constant(std::numeric_limits<double>::infinity());
  Vector3 upper = -lower;
  for (const Vector3& p : mesh.vertices_G) {
    v.push_back(p.cwiseProduct(scale));
    lower = lower.cwiseMin(v.back());
    upper = upper.cwiseMax(v.back());
  }
  // Files round their vertices (V-HACD's OBJ output to 1 µm), and the plane
  // of a sliver triangle tilts with that rounding: a vertex of bullet3's
  // cup_vhacd.obj lies 1.4 µm beyond one. Convex means convex to 0.1% of
  // the piece's size; a piece that is really concave is off by a good part
  // of it (then its hull, which contact uses, is another solid).
  const double tolerance = 1e-3 * std::max((upper - lower).norm(), 1e-300);
  // Closed and consistently oriented: every directed edge once, its reverse once.
  std::map<std::pair<int, int>, int> edges;
  for (const auto& t : mesh.triangles) {
    for (int i = 0; i < 3; ++i) ++edges[{t[i], t[(i + 1) % 3]}];
  }
  for (const auto& [edge, count] : edges) {
    const auto reverse = edges.find({edge.second, edge.first});
    if (count != 1 || reverse == edges.end() || reverse->second != 1) {
      *why_not = "its surface is not closed and consistently oriented (edge between vertices " +
                 std::to_string(edge.first + 1) + " and " + std::to_string(edge.second + 1) + ")";
      return {};
    }
  }
  ConvexPolyhedron out;
  for (const auto& t : mesh.triangles) out.faces.push_back({v[t[0]], v[t[1]], v[t[2]]});
  if (Integrate(out).volume < 0) {
    for (auto& face : out.faces) std::swap(face[1], face[2]);
  }
  // Convex: no vertex beyond any face's plane.
  for (std::size_t f = 0; f < out.faces.size(); ++f) {
    const auto& face = out.faces[f];
    const Vector3 n = (face[1] - face[0]).cross(face[2] - face[0]);
    if (n.norm() <= 1e-12 * tolerance * tolerance) continue;  // No area: no plane.
    const Vector3 u = n.normalized();
    for (const Vector3& p : v) {
      if (u.dot(p - face[0]) > tolerance) {
        *why_not = "it is not convex (a vertex lies " + FormatNumber(u.dot(p - face[0]), 3) +
                   " m outside the plane of its triangle " + std::to_string(f + 1) + ")";
        return {};
      }
    }
  }
  return out;
}

bool HasComputableMassProperties(const ShapeDescription& shape, std::string* why_not) {
  if (HasClosedFormMassProperties(shape.type)) return true;
  if (shape.type != ShapeType::kMesh) {
    *why_not = "it is a half-space";
    return false;
  }
  if (!shape.mesh_data) {
    *why_not = "it is a mesh file (its volume is not computed; split it into convex pieces, "
               "an OBJ file with 'pieces: true')";
    return false;
  }
  return true;
}

UnionIntegrals IntegrateUnion(const std::vector<const GeometryDescription*>& geometries, int max_terms) {
  std::vector<Piece> pieces;
  double extent = 0;
  for (const GeometryDescription* g : geometries) {
    Piece piece;
    ConvexPolyhedron local;
    SolidIntegrals integrals;
    if (g->shape.type == ShapeType::kMesh) {
      std::string why_not;
      local = PolyhedronOfConvexMesh(*g->shape.mesh_data, g->shape.mesh_scale, &why_not);
      if (local.empty()) {
        throw UnusablePieceError("geometry '" + g->name + "' (" + g->shape.mesh_data->name + "): " + why_not);
      }
      integrals = Integrate(local);
    } else {
      local = g->shape.type == ShapeType::kBox ? BoxPolyhedron(g->shape.size) : StandIn(g->shape);
      integrals = PrimitiveIntegrals(g->shape);
    }
    piece.integrals = integrals.Transformed(g->X_BG);
    piece.polyhedron = Transformed(local, g->X_BG);
    CalcBounds(piece.polyhedron, &piece.lower, &piece.upper);
    extent = std::max({extent, piece.lower.cwiseAbs().maxCoeff(), piece.upper.cwiseAbs().maxCoeff()});
    pieces.push_back(std::move(piece));
  }
  const double tolerance = 1e-9 * std::max(extent, 1e-300);
  const int n = static_cast<int>(pieces.size());
  UnionIntegrals out;
  for (const Piece& p : pieces) out.integrals += p.integrals;
  // Which pairs share volume, and what they share.
  std::vector<std::vector<bool>> overlap(n, std::vector<bool>(n, false));
  std::map<std::pair<int, int>, ConvexPolyhedron> shared;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n; ++j) {
      const Piece& a = pieces[i];
      const Piece& b = pieces[j];
      if ((a.lower.array() >= b.upper.array() - tolerance).any() ||
          (b.lower.array() >= a.upper.array() - tolerance).any()) {
        continue;
      }
      if (SeparatedByAFacePlane(a.polyhedron, b.polyhedron, tolerance)) continue;
      ConvexPolyhedron common = Intersect(a.polyhedron, b.polyhedron, tolerance);
      if (common.empty()) continue;
      shared.emplace(std::make_pair(i, j), std::move(common));
      overlap[i][j] = overlap[j][i] = true;
      ++out.overlapping_pairs;
    }
  }
  if (out.overlapping_pairs == 0) return out;
  // Inclusion–exclusion over the sets of pieces that all overlap pairwise:
  // an intersection of k pieces enters with the sign (−1)^(k+1).
  std::vector<int> members;
  auto recurse = [&](auto&& self, const ConvexPolyhedron& common) -> void {
    for (int j = members.back() + 1; j < n; ++j) {
      bool all = true;
      for (int m : members) all = all && overlap[m][j];
      if (!all) continue;
      const ConvexPolyhedron next = members.size() == 1 ? shared.at({members[0], j})
                                                         : Intersect(common, pieces[j].polyhedron, tolerance);
      if (next.empty()) continue;
      if (++out.intersection_terms > max_terms) {
        throw std::invalid_argument("more than " + std::to_string(max_terms) +
                                    " intersections of overlapping pieces; give the body's inertia");
      }
      const SolidIntegrals term = Integrate(next);
      if (members.size() % 2 == 1) {
        out.integrals -= term;
      } else {
        out.integrals += term;
      }
      members.push_back(j);
      self(self, next);
      members.pop_back();
    }
  };
  for (int i = 0; i < n; ++i) {
    members = {i};
    recurse(recurse, pieces[i].polyhedron);
  }
  return out;
}

}  // namespace stiction
