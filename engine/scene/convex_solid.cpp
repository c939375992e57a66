#include "engine/scene/convex_solid.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace stiction {
namespace {

/// Newell's normal of a polygon (not normalized; zero for a degenerate one).
Vector3 NewellNormal(const std::vector<Vector3>& polygon) {
  Vector3 n = Vector3::Zero();
  const std::size_t count = polygon.size();
  for (std::size_t i = 0; i < count; ++i) {
    const Vector3& a = polygon[i];
    const Vector3& b = polygon[(i + 1) % count];
    n += Vector3((a.y() - b.y()) * (a.z() + b.z()), (a.z() - b.z()) * (a.x() + b.x()),
                 (a.x() - b.x()) * (a.y() + b.y()));
  }
  return n;
}

Vector3 Centroid(const std::vector<Vector3>& points) {
  Vector3 c = Vector3::Zero();
  for (const Vector3& p : points) c += p;
  return c / static_cast<double>(points.size());
}

Vector3 VertexAverage(const ConvexPolyhedron& polyhedron) {
  Vector3 sum = Vector3::Zero();
  std::size_t count = 0;
  for (const auto& face : polyhedron.faces) {
    for (const Vector3& p : face) sum += p;
    count += face.size();
  }
  return count > 0 ? Vector3(sum / static_cast<double>(count)) : Vector3::Zero();
}

/// Drops consecutive repeated points (and a last equal to the first).
void RemoveRepeats(std::vector<Vector3>* polygon, double tolerance) {
  std::vector<Vector3> out;
  for (const Vector3& p : *polygon) {
    if (out.empty() || (p - out.back()).norm() > tolerance) out.push_back(p);
  }
  while (out.size() > 1 && (out.front() - out.back()).norm() <= tolerance) out.pop_back();
  *polygon = std::move(out);
}

/// Faces with fewer than three distinct points or no area dropped; the rest
/// turned to face away from the vertex average (inside a convex polyhedron).
ConvexPolyhedron Tidy(std::vector<std::vector<Vector3>> faces, double tolerance) {
  ConvexPolyhedron out;
  for (auto& face : faces) {
    RemoveRepeats(&face, tolerance);
    if (face.size() < 3) continue;
    if (NewellNormal(face).norm() <= tolerance * tolerance) continue;
    out.faces.push_back(std::move(face));
  }
  const Vector3 inside = VertexAverage(out);
  for (auto& face : out.faces) {
    if (NewellNormal(face).dot(Centroid(face) - inside) < 0) std::reverse(face.begin(), face.end());
  }
  return out;
}

/// The point at angle θ about z of a profile point.
Vector3 Revolve(const ProfilePoint& p, double theta) {
  return Vector3(p.r * std::cos(theta), p.r * std::sin(theta), p.z);
}

/// A length scale of the points' extent, for tolerances relative to it.
double Extent(const std::vector<ProfilePoint>& points) {
  double e = 0;
  for (const ProfilePoint& p : points) e = std::max({e, std::abs(p.r), std::abs(p.z)});
  return e;
}

}  // namespace

SolidIntegrals& SolidIntegrals::operator+=(const SolidIntegrals& o) {
  volume += o.volume;
  first += o.first;
  second += o.second;
  return *this;
}

SolidIntegrals& SolidIntegrals::operator-=(const SolidIntegrals& o) {
  volume -= o.volume;
  first -= o.first;
  second -= o.second;
  return *this;
}

SolidIntegrals SolidIntegrals::Transformed(const RigidTransform& X_BF) const {
  // x_B = R x_F + p: ∫ x_B = R f + V p; ∫ x_B x_Bᵀ = R S Rᵀ + (R f) pᵀ + p (R f)ᵀ + V p pᵀ.
  SolidIntegrals out;
  const Vector3 Rf = X_BF.R * first;
  out.volume = volume;
  out.first = Rf + volume * X_BF.p;
  out.second = X_BF.R * second * X_BF.R.transpose() + Rf * X_BF.p.transpose() + X_BF.p * Rf.transpose() +
               volume * X_BF.p * X_BF.p.transpose();
  return out;
}

SolidMassProperties ToMassProperties(const SolidIntegrals& integrals, double density) {
  SolidMassProperties out;
  out.mass = density * integrals.volume;
  out.com = integrals.first / integrals.volume;
  // About the origin I = ρ (tr(S) 1 − S); about the centre of mass, minus
  // m (|c|² 1 − c cᵀ) (parallel axes).
  const Matrix3& S = integrals.second;
  const Matrix3 I_origin = density * (S.trace() * Matrix3::Identity() - S);
  const Vector3& c = out.com;
  const Matrix3 I = I_origin - out.mass * (c.squaredNorm() * Matrix3::Identity() - c * c.transpose());
  out.inertia_about_com = 0.5 * (I + I.transpose());
  return out;
}

SolidIntegrals Integrate(const ConvexPolyhedron& polyhedron) {
  // Signed tetrahedra (o, a, b, c) over a fan of every face, o the vertex
  // average (inside a convex polyhedron, so every tetrahedron is positive):
  // V = (a−o)·((b−o)×(c−o))/6, ∫x = V s/4, ∫x xᵀ = V/20 (Σ x_i x_iᵀ + s sᵀ),
  // s the sum of the four vertices.
  SolidIntegrals out;
  const Vector3 o = VertexAverage(polyhedron);
  for (const auto& face : polyhedron.faces) {
    for (std::size_t i = 1; i + 1 < face.size(); ++i) {
      const Vector3& a = face[0];
      const Vector3& b = face[i];
      const Vector3& c = face[i + 1];
      const double v = (a - o).dot((b - o).cross(c - o)) / 6.0;
      const Vector3 s = o + a + b + c;
      out.volume += v;
      out.first += v / 4.0 * s;
      out.second += v / 20.0 *
                    (o * o.transpose() + a * a.transpose() + b * b.transpose() + c * c.transpose() + s * s.transpose());
    }
  }
  return out;
}

void CalcBounds(const ConvexPolyhedron& polyhedron, Vector3* lower, Vector3* upper) {
  lower->setConstant(std::numeric_limits<double>::infinity());
  upper->setConstant(-std::numeric_limits<double>::infinity());
  for (const auto& face : polyhedron.faces) {
    for (const Vector3& p : face) {
      *lower = lower->cwiseMin(p);
      *upper = upper->cwiseMax(p);
    }
  }
}

ConvexPolyhedron ClipByPlane(const ConvexPolyhedron& polyhedron, const Vector3& n, double d, double tolerance) {
  auto side = [&](const Vector3& p) {
    const double s = n.dot(p) - d;
    return std::abs(s) <= tolerance ? 0.0 : s;
  };
  bool any_inside = false;
  bool any_outside = false;
  for (const auto& face : polyhedron.faces) {
    for (const Vector3& p : face) {
      const double s = side(p);
      any_inside = any_inside || s < 0;
      any_outside = any_outside || s > 0;
    }
  }
  if (!any_outside) return polyhedron;
  if (!any_inside) return {};
  // Sutherland–Hodgman on every face; the points it leaves on the plane
  // make the cap.
  std::vector<std::vector<Vector3>> faces;
  std::vector<Vector3> cap;
  for (const auto& face : polyhedron.faces) {
    std::vector<Vector3> clipped;
    for (std::size_t i = 0; i < face.size(); ++i) {
      const Vector3& a = face[i];
      const Vector3& b = face[(i + 1) % face.size()];
      const double sa = side(a);
      const double sb = side(b);
      if (sa <= 0) clipped.push_back(a);
      if (sa == 0) cap.push_back(a);
      if ((sa < 0 && sb > 0) || (sa > 0 && sb < 0)) {
        const Vector3 x = a + (sa / (sa - sb)) * (b - a);
        clipped.push_back(x);
        cap.push_back(x);
      }
    }
    faces.push_back(std::move(clipped));
  }
  if (cap.size() >= 3) {
    // Order the cap's points by angle about their centroid in the plane.
    const Vector3 c = Centroid(cap);
    const Vector3 u = (std::abs(n.x()) < 0.9 ? Vector3::UnitX() : Vector3::UnitY()).cross(n).normalized();
    const Vector3 w = n.cross(u);
    std::sort(cap.begin(), cap.end(), [&](const Vector3& p, const Vector3& q) {
      return std::atan2((p - c).dot(w), (p - c).dot(u)) < std::atan2((q - c).dot(w), (q - c).dot(u));
    });
    faces.push_back(std::move(cap));
  }
  return Tidy(std::move(faces), tolerance);
}

ConvexPolyhedron Intersect(const ConvexPolyhedron& a, const ConvexPolyhedron& b, double tolerance) {
  ConvexPolyhedron out = a;
  for (const auto& face : b.faces) {
    const Vector3 n = NewellNormal(face).normalized();
    out = ClipByPlane(out, n, n.dot(Centroid(face)), tolerance);
    if (out.empty()) return out;
  }
  // Only touching, to round-off: what is left is flat.
  if (Integrate(out).volume <= 1e-12 * Integrate(a).volume) return {};
  return out;
}

bool SeparatedByAFacePlane(const ConvexPolyhedron& a, const ConvexPolyhedron& b, double tolerance) {
  auto separates = [tolerance](const ConvexPolyhedron& x, const ConvexPolyhedron& y) {
    for (const auto& face : x.faces) {
      const Vector3 n = NewellNormal(face).normalized();
      const double d = n.dot(Centroid(face));
      bool all_beyond = true;
      for (const auto& other : y.faces) {
        for (const Vector3& p : other) all_beyond = all_beyond && n.dot(p) - d >= -tolerance;
      }
      if (all_beyond) return true;
    }
    return false;
  };
  return separates(a, b) || separates(b, a);
}

ConvexPolyhedron SweepSection(const std::vector<ProfilePoint>& section, double theta0, double theta1) {
  const double tolerance = 1e-12 * std::max(Extent(section), 1e-300);
  std::vector<std::vector<Vector3>> faces;
  std::vector<Vector3> start, end;
  for (const ProfilePoint& p : section) {
    start.push_back(Revolve(p, theta0));
    end.push_back(Revolve(p, theta1));
  }
  faces.push_back(start);
  faces.push_back(end);
  for (std::size_t k = 0; k < section.size(); ++k) {
    const std::size_t l = (k + 1) % section.size();
    faces.push_back({start[k], start[l], end[l], end[k]});
  }
  return Tidy(std::move(faces), tolerance);
}

ConvexPolyhedron MakeRevolvedConvex(const std::vector<ProfilePoint>& profile, int segments) {
  const double tolerance = 1e-12 * std::max(Extent(profile), 1e-300);
  constexpr double kTwoPi = 2.0 * 3.14159265358979323846;
  std::vector<std::vector<Vector3>> faces;
  for (int j = 0; j < segments; ++j) {
    const double t0 = kTwoPi * j / segments;
    // The last sector ends exactly where the first begins (sin 2π ≠ 0 in
    // floating point), so the surface closes.
    const double t1 = j + 1 == segments ? 0.0 : kTwoPi * (j + 1) / segments;
    for (std::size_t k = 0; k + 1 < profile.size(); ++k) {
      faces.push_back({Revolve(profile[k], t0), Revolve(profile[k + 1], t0), Revolve(profile[k + 1], t1),
                       Revolve(profile[k], t1)});
    }
  }
  return Tidy(std::move(faces), tolerance);
}

}  // namespace stiction
