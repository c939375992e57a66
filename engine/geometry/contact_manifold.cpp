#include "engine/geometry/contact_manifold.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "engine/common/constants.h"

namespace stiction {
namespace {

// Points closer than this are the same point (clipping produces near
// duplicates when an incident vertex lies on a side plane) [m].
constexpr double kDuplicateDistance = 1e-7;
// A point this far outside a side plane still counts as inside; covers
// round-off for vertices exactly on the plane (e.g. equal stacked boxes) [m].
constexpr double kSidePlaneSlack = 1e-9;
// Reference-face preference: B's face wins only when it separates more than
// A's by this much, so that ties pick A deterministically [m].
constexpr double kReferenceTieTolerance = 1e-5;

// Appends the contact for a point p_B on B's surface against plane A.
void AddPlanePoint(const Plane& plane, const Vector3& p_B_W, double margin,
                   std::vector<ContactPoint>* out) {
  const double phi = plane.normal_W.dot(p_B_W) - plane.offset;
  if (!(phi < margin)) return;
  ContactPoint c;
  c.p_W = p_B_W - 0.5 * phi * plane.normal_W;
  c.nhat_AB_W = plane.normal_W;
  c.phi = phi;
  out->push_back(c);
}

Vector3 ClosestPointOnSegment(const Vector3& p, const Vector3& a, const Vector3& b) {
  const Vector3 d = b - a;
  const double dd = d.squaredNorm();
  if (dd <= 0) return a;
  const double t = std::clamp((p - a).dot(d) / dd, 0.0, 1.0);
  return a + t * d;
}

// Closest points between segments p1q1 and p2q2 (Ericson, Real-Time Collision
// Detection, Sec. 5.1.9).
void ClosestPointsSegmentSegment(const Vector3& p1, const Vector3& q1, const Vector3& p2,
                                 const Vector3& q2, Vector3* c1, Vector3* c2) {
  const Vector3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  constexpr double kEps = 1e-18;
  double s = 0, t = 0;
  if (a <= kEps && e <= kEps) {
    s = t = 0;
  } else if (a <= kEps) {
    s = 0;
    t = std::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = d1.dot(r);
    if (e <= kEps) {
      t = 0;
      s = std::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = d1.dot(d2);
      const double denom = a * e - b * b;
      s = denom > kEps * a * e ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
      t = (b * s + f) / e;
      if (t < 0) {
        t = 0;
        s = std::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1) {
        t = 1;
        s = std::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  *c1 = p1 + s * d1;
  *c2 = p2 + t * d2;
}

void SegmentEnds(const PlacedRound& round, Vector3* a, Vector3* b) {
  const Vector3 half = 0.5 * round.length * round.X_WG.R.col(2);
  *a = round.X_WG.p - half;
  *b = round.X_WG.p + half;
}

void WorldVertices(const PlacedHull& hull, std::vector<Vector3>* v) {
  v->clear();
  for (const Vector3& p : hull.hull->vertices_G) v->push_back(hull.X_WG * p);
}

// The face plane of `hull`'s face f, in world.
Plane FacePlane(const PlacedHull& hull, int f) {
  const ConvexHull::Face& face = hull.hull->faces[f];
  const Vector3 n = hull.X_WG.R * face.normal_G;
  return {n, face.offset + n.dot(hull.X_WG.p)};
}

// SAT over `hull`'s faces against the points `other_W`: the face with the
// largest separation, and that separation [m].
std::pair<int, double> BestFace(const PlacedHull& hull, const std::vector<Vector3>& other_W) {
  int best = -1;
  double best_sep = -std::numeric_limits<double>::infinity();
  for (int f = 0; f < static_cast<int>(hull.hull->faces.size()); ++f) {
    const Plane plane = FacePlane(hull, f);
    double sep = std::numeric_limits<double>::infinity();
    for (const Vector3& v : other_W) sep = std::min(sep, plane.normal_W.dot(v));
    sep -= plane.offset;
    if (sep > best_sep) {
      best_sep = sep;
      best = f;
    }
  }
  return {best, best_sep};
}

// Unit outward side-plane normals of a face polygon (world), one per edge
// starting at loop vertex i.
void SideNormals(const std::vector<Vector3>& loop_W, const Vector3& n_W,
                 std::vector<Vector3>* sides) {
  const size_t m = loop_W.size();
  sides->clear();
  for (size_t i = 0; i < m; ++i) {
    // For a loop counter-clockwise about n, edge × n points out of the polygon.
    const Vector3 s = (loop_W[(i + 1) % m] - loop_W[i]).cross(n_W);
    const double len = s.norm();
    sides->push_back(len > 0 ? Vector3(s / len) : Vector3::Zero());
  }
}

// Sutherland–Hodgman: clips `polygon` against every side plane; `value` is a
// per-vertex scalar interpolated along cut edges (e.g. phi).
void ClipPolygon(const std::vector<Vector3>& loop_W, const std::vector<Vector3>& sides,
                 std::vector<Vector3>* polygon, std::vector<double>* value) {
  // Per-thread scratch: no allocation once the buffers have grown.
  thread_local std::vector<Vector3> next;
  thread_local std::vector<double> next_value;
  for (size_t i = 0; i < loop_W.size() && !polygon->empty(); ++i) {
    if (sides[i].isZero()) continue;
    next.clear();
    next_value.clear();
    const size_t m = polygon->size();
    for (size_t k = 0; k < m; ++k) {
      const Vector3& p = (*polygon)[k];
      const Vector3& q = (*polygon)[(k + 1) % m];
      const double dp = sides[i].dot(p - loop_W[i]);
      const double dq = sides[i].dot(q - loop_W[i]);
      const bool p_in = dp <= kSidePlaneSlack, q_in = dq <= kSidePlaneSlack;
      if (p_in) {
        next.push_back(p);
        next_value.push_back((*value)[k]);
      }
      // A 2-point "polygon" is a segment: its one edge is crossed once. The
      // cut is on the exact plane; a vertex let in by the slack gives a cut
      // at (nearly) itself, removed later as a duplicate.
      if (p_in != q_in && m > 1 && !(m == 2 && k == 1)) {
        const double t = dp == dq ? 0.0 : std::clamp(dp / (dp - dq), 0.0, 1.0);
        next.push_back(p + t * (q - p));
        next_value.push_back((*value)[k] + t * ((*value)[(k + 1) % m] - (*value)[k]));
      }
    }
    polygon->swap(next);
    value->swap(next_value);
  }
}

}  // namespace

void PlaneSphereContacts(const Plane& plane, const Vector3& c_W, double radius,
                         double margin, std::vector<ContactPoint>* out) {
  AddPlanePoint(plane, c_W - radius * plane.normal_W, margin, out);
}

void PlaneCapsuleContacts(const Plane& plane, const PlacedRound& capsule, double margin,
                          std::vector<ContactPoint>* out) {
  Vector3 a, b;
  SegmentEnds(capsule, &a, &b);
  PlaneSphereContacts(plane, a, capsule.radius, margin, out);
  if (capsule.length > 0) PlaneSphereContacts(plane, b, capsule.radius, margin, out);
}

void PlaneCylinderContacts(const Plane& plane, const PlacedRound& cylinder, double margin,
                           std::vector<ContactPoint>* out) {
  const Vector3 axis = cylinder.X_WG.R.col(2);
  const Vector3& n = plane.normal_W;
  // The rim direction deepest along -n: -n projected on the cap plane.
  Vector3 u = -n + n.dot(axis) * axis;
  if (u.norm() > 1e-9) {
    u.normalize();
  } else {
    u = cylinder.X_WG.R.col(0);  // Upright: every rim point is equally deep.
  }
  const Vector3 v = axis.cross(u);
  // The rim samples other than the deepest one of each cap only make sense
  // while a cap faces the plane (a flat face that can land on it). On a
  // cylinder tilted past 45° (lying: the line contact), they are points of a
  // round surface that is not the closest one, and a large speculative margin
  // would admit them (the 45° samples are only R(1 − cos 45°) = 0.29 R higher):
  // a cylinder rolling about its own axis then sees them "approach" the plane
  // at ω R sin 45° although the gap never closes, and SAP pushes on them
  // (found by the rolling spring-cylinder, [SAP] Sec. VI-B, which
  // bounced off them and lost 87% of its energy in 10 periods).
  const int samples = std::abs(n.dot(axis)) >= std::sqrt(0.5) ? 8 : 1;
  for (double side : {-1.0, 1.0}) {
    const Vector3 centre = cylinder.X_WG.p + side * 0.5 * cylinder.length * axis;
    for (int k = 0; k < samples; ++k) {
      const double angle = k * kPi / 4;
      AddPlanePoint(plane,
                    centre + cylinder.radius * (std::cos(angle) * u + std::sin(angle) * v),
                    margin, out);
    }
  }
}

void PlaneHullContacts(const Plane& plane, const PlacedHull& hull, double margin,
                       std::vector<ContactPoint>* out) {
  const size_t begin = out->size();
  for (const Vector3& p_G : hull.hull->vertices_G) {
    AddPlanePoint(plane, hull.X_WG * p_G, margin, out);
  }
  ReduceContacts(out, begin, kMaxManifoldPoints);
}

void SphereSphereContacts(const Vector3& c_A, double r_A, const Vector3& c_B, double r_B,
                          double margin, std::vector<ContactPoint>* out) {
  const Vector3 d = c_B - c_A;
  const double distance = d.norm();
  const double phi = distance - r_A - r_B;
  if (!(phi < margin)) return;
  // Concentric spheres have no preferred direction; +z is as good as any.
  const Vector3 n = distance > 1e-12 ? Vector3(d / distance) : Vector3::UnitZ();
  ContactPoint c;
  c.nhat_AB_W = n;
  c.phi = phi;
  c.p_W = c_A + (r_A + 0.5 * phi) * n;
  out->push_back(c);
}

namespace {

/// Sphere A (centre c_A, radius r_A) against a polytope B whose surface
/// point nearest the centre is `surface_W`, `n_W` the unit normal from it
/// towards the centre: one point halfway between the surfaces, normal from
/// A towards B, when phi < margin.
void AppendSphereContact(const Vector3& c_A, double r_A, double phi, const Vector3& n_W, const Vector3& surface_W,
                         double margin, std::vector<ContactPoint>* out) {
  if (!(phi < margin)) return;
  const Vector3 sphere_point_W = c_A - r_A * n_W;
  ContactPoint c;
  c.nhat_AB_W = -n_W;
  c.phi = phi;
  c.p_W = 0.5 * (surface_W + sphere_point_W);
  out->push_back(c);
}

}  // namespace

void SphereHullContacts(const Vector3& c_A, double r_A, const PlacedHull& B, double margin,
                        std::vector<ContactPoint>* out) {
  const ConvexHull& hull = *B.hull;
  const Vector3 c = B.X_WG.R.transpose() * (c_A - B.X_WG.p);  // Centre in G.
  // The face plane the centre is farthest beyond (or least inside).
  int best = -1;
  double s_best = -std::numeric_limits<double>::infinity();
  for (std::size_t f = 0; f < hull.faces.size(); ++f) {
    const double s = hull.faces[f].normal_G.dot(c) - hull.faces[f].offset;
    if (s > s_best) {
      s_best = s;
      best = static_cast<int>(f);
    }
  }
  if (best < 0) return;
  Vector3 n = Vector3::UnitZ();  // Unit, from the hull surface towards the centre.
  Vector3 q = Vector3::Zero();  // Hull surface point.
  double phi = 0;
  if (s_best <= 0) {
    // Centre inside: leave through the nearest face.
    n = hull.faces[best].normal_G;
    q = c - s_best * n;
    phi = s_best - r_A;
  } else {
    // Outside: the closest point lies on a face the centre sees (s > 0),
    // inside it or on its boundary.
    double d2_best = std::numeric_limits<double>::infinity();
    for (const ConvexHull::Face& face : hull.faces) {
      const double s = face.normal_G.dot(c) - face.offset;
      if (s <= 0) continue;
      const Vector3 projected = c - s * face.normal_G;
      bool inside = true;
      const std::size_t m = face.vertices.size();
      for (std::size_t i = 0; i < m && inside; ++i) {
        const Vector3& a = hull.vertices_G[face.vertices[i]];
        const Vector3& b = hull.vertices_G[face.vertices[(i + 1) % m]];
        inside = (b - a).cross(projected - a).dot(face.normal_G) >= 0;
      }
      if (inside) {
        if (s * s < d2_best) {
          d2_best = s * s;
          q = projected;
        }
        continue;
      }
      for (std::size_t i = 0; i < m; ++i) {
        const Vector3& a = hull.vertices_G[face.vertices[i]];
        const Vector3& b = hull.vertices_G[face.vertices[(i + 1) % m]];
        const Vector3 ab = b - a;
        const double t = std::clamp((c - a).dot(ab) / std::max(ab.squaredNorm(), 1e-300), 0.0, 1.0);
        const Vector3 x = a + t * ab;
        const double d2 = (c - x).squaredNorm();
        if (d2 < d2_best) {
          d2_best = d2;
          q = x;
        }
      }
    }
    const double distance = std::sqrt(d2_best);
    n = distance > 0 ? Vector3((c - q) / distance) : hull.faces[best].normal_G;
    phi = distance - r_A;
  }
  AppendSphereContact(c_A, r_A, phi, B.X_WG.R * n, B.X_WG * q, margin, out);
}

void SphereBoxContacts(const Vector3& c_A, double r_A, const Vector3& size_B,
                       const RigidTransform& X_WB, double margin,
                       std::vector<ContactPoint>* out) {
  const Vector3 h = 0.5 * size_B;
  const Vector3 c_B = X_WB.R.transpose() * (c_A - X_WB.p);  // Sphere centre in B.
  const Vector3 q_B = c_B.cwiseMax(-h).cwiseMin(h);        // Closest box point.
  Vector3 n_B;   // Unit, from the box surface towards the sphere centre.
  Vector3 s_B;   // Box surface point.
  double phi = 0;
  const double outside = (c_B - q_B).norm();
  if (outside > 0) {
    n_B = (c_B - q_B) / outside;
    s_B = q_B;
    phi = outside - r_A;
  } else {
    // Centre inside: leave through the nearest face.
    int axis = 0;
    double depth = std::numeric_limits<double>::infinity();
    for (int i = 0; i < 3; ++i) {
      const double d = h[i] - std::abs(c_B[i]);
      if (d < depth) {
        depth = d;
        axis = i;
      }
    }
    n_B = Vector3::Zero();
    n_B[axis] = c_B[axis] >= 0 ? 1.0 : -1.0;
    s_B = c_B;
    s_B[axis] = n_B[axis] * h[axis];
    phi = -depth - r_A;
  }
  AppendSphereContact(c_A, r_A, phi, X_WB.R * n_B, X_WB * s_B, margin, out);
}

void SphereCapsuleContacts(const Vector3& c_A, double r_A, const PlacedRound& capsule_B,
                           double margin, std::vector<ContactPoint>* out) {
  Vector3 a, b;
  SegmentEnds(capsule_B, &a, &b);
  SphereSphereContacts(c_A, r_A, ClosestPointOnSegment(c_A, a, b), capsule_B.radius, margin,
                       out);
}

void CapsuleCapsuleContacts(const PlacedRound& capsule_A, const PlacedRound& capsule_B,
                            double margin, std::vector<ContactPoint>* out) {
  Vector3 a0, a1, b0, b1;
  SegmentEnds(capsule_A, &a0, &a1);
  SegmentEnds(capsule_B, &b0, &b1);
  const Vector3 dA = a1 - a0, dB = b1 - b0;
  const double lA = dA.norm(), lB = dB.norm();
  // Parallel axes (sin of the angle < 0.01): a line contact, represented by
  // the two ends of the stretch the axes share, so that a capsule lying on
  // another does not rock about a single point.
  if (lA > 0 && lB > 0 && dA.cross(dB).norm() < 1e-2 * lA * lB) {
    double t0 = (b0 - a0).dot(dA) / (lA * lA);
    double t1 = (b1 - a0).dot(dA) / (lA * lA);
    if (t0 > t1) std::swap(t0, t1);
    const double lo = std::max(0.0, t0), hi = std::min(1.0, t1);
    if ((hi - lo) * lA > kDuplicateDistance) {
      for (double t : {lo, hi}) {
        const Vector3 pA = a0 + t * dA;
        SphereSphereContacts(pA, capsule_A.radius, ClosestPointOnSegment(pA, b0, b1),
                             capsule_B.radius, margin, out);
      }
      return;
    }
  }
  Vector3 cA, cB;
  ClosestPointsSegmentSegment(a0, a1, b0, b1, &cA, &cB);
  SphereSphereContacts(cA, capsule_A.radius, cB, capsule_B.radius, margin, out);
}

bool HullHullContacts(const PlacedHull& A, const PlacedHull& B, double phi_exact,
                      double margin, double tolerance, std::vector<ContactPoint>* out) {
  thread_local HullPairFaces faces;
  CalcHullHullFaces(A, B, &faces);
  return HullHullContacts(A, B, faces, phi_exact, margin, tolerance, out);
}

void CalcHullHullFaces(const PlacedHull& A, const PlacedHull& B, HullPairFaces* faces) {
  WorldVertices(A, &faces->vertices_A_W);
  WorldVertices(B, &faces->vertices_B_W);
  std::tie(faces->face_A, faces->separation_A) = BestFace(A, faces->vertices_B_W);
  std::tie(faces->face_B, faces->separation_B) = BestFace(B, faces->vertices_A_W);
}

bool HullHullContacts(const PlacedHull& A, const PlacedHull& B, const HullPairFaces& faces,
                      double phi_exact, double margin, double tolerance,
                      std::vector<ContactPoint>* out) {
  const std::vector<Vector3>& vA = faces.vertices_A_W;
  const std::vector<Vector3>& vB = faces.vertices_B_W;
  const int fA = faces.face_A, fB = faces.face_B;
  const double sA = faces.separation_A, sB = faces.separation_B;
  const double best = std::max(sA, sB);
  // Face axes bound the signed distance from below: max(sA, sB) <= phi.
  if (best >= margin) return true;  // A separating face axis: no contact.
  if (best < phi_exact - tolerance) return false;  // Edge–edge contact.

  const bool reference_is_B = sB > sA + kReferenceTieTolerance;
  const PlacedHull& ref = reference_is_B ? B : A;
  const PlacedHull& inc = reference_is_B ? A : B;
  const std::vector<Vector3>& v_ref = reference_is_B ? vB : vA;
  const std::vector<Vector3>& v_inc = reference_is_B ? vA : vB;
  const int f_ref = reference_is_B ? fB : fA;
  const Plane plane = FacePlane(ref, f_ref);

  // Incident face: the other polytope's face most anti-parallel to the normal.
  int f_inc = 0;
  double most_anti = std::numeric_limits<double>::infinity();
  for (int f = 0; f < static_cast<int>(inc.hull->faces.size()); ++f) {
    const double d = (inc.X_WG.R * inc.hull->faces[f].normal_G).dot(plane.normal_W);
    if (d < most_anti) {
      most_anti = d;
      f_inc = f;
    }
  }

  // Per-thread scratch: no allocation once the buffers have grown.
  thread_local std::vector<Vector3> loop_W, polygon, sides;
  thread_local std::vector<double> unused;
  loop_W.clear();
  for (int id : ref.hull->faces[f_ref].vertices) loop_W.push_back(v_ref[id]);
  polygon.clear();
  for (int id : inc.hull->faces[f_inc].vertices) polygon.push_back(v_inc[id]);
  unused.assign(polygon.size(), 0.0);
  SideNormals(loop_W, plane.normal_W, &sides);
  ClipPolygon(loop_W, sides, &polygon, &unused);

  const size_t begin = out->size();
  const Vector3 nhat_AB = reference_is_B ? Vector3(-plane.normal_W) : plane.normal_W;
  for (const Vector3& p : polygon) {
    bool duplicate = false;
    for (size_t k = begin; k < out->size() && !duplicate; ++k) {
      const ContactPoint& q = (*out)[k];
      duplicate = (q.p_W + 0.5 * q.phi * plane.normal_W - p).norm() < kDuplicateDistance;
    }
    if (duplicate) continue;
    // p lies on the incident surface; its separation from the reference plane
    // is phi (the sign convention works out the same for either reference).
    const double phi = plane.normal_W.dot(p) - plane.offset;
    if (!(phi < margin)) continue;
    ContactPoint c;
    c.p_W = p - 0.5 * phi * plane.normal_W;
    c.nhat_AB_W = nhat_AB;
    c.phi = phi;
    out->push_back(c);
  }
  if (out->size() == begin) return false;
  ReduceContacts(out, begin, kMaxManifoldPoints);
  return true;
}

bool HullRoundContacts(const PlacedHull& A, const PlacedRound& B, RoundKind kind,
                       double phi_exact, double margin, double tolerance,
                       std::vector<ContactPoint>* out) {
  Vector3 b0, b1;
  SegmentEnds(B, &b0, &b1);
  const Vector3 axis = B.X_WG.R.col(2);
  int best = -1;
  double best_sep = -std::numeric_limits<double>::infinity();
  for (int f = 0; f < static_cast<int>(A.hull->faces.size()); ++f) {
    const Plane plane = FacePlane(A, f);
    const double n_axis = plane.normal_W.dot(axis);
    // Support of B along -n: how far B reaches below the face plane.
    const double reach = kind == RoundKind::kCapsule
                             ? B.radius
                             : B.radius * std::sqrt(std::max(0.0, 1.0 - n_axis * n_axis));
    const double sep =
        std::min(plane.normal_W.dot(b0), plane.normal_W.dot(b1)) - reach - plane.offset;
    if (sep > best_sep) {
      best_sep = sep;
      best = f;
    }
  }
  if (best < 0) return false;
  if (best_sep >= margin) return true;
  if (best_sep < phi_exact - tolerance) return false;  // Edge or vertex contact.

  const Plane plane = FacePlane(A, best);
  std::vector<ContactPoint> candidates;
  if (kind == RoundKind::kCapsule) {
    PlaneCapsuleContacts(plane, B, std::numeric_limits<double>::infinity(), &candidates);
  } else {
    PlaneCylinderContacts(plane, B, std::numeric_limits<double>::infinity(), &candidates);
  }
  std::vector<Vector3> loop_W;
  for (int id : A.hull->faces[best].vertices) loop_W.push_back(A.X_WG * A.hull->vertices_G[id]);
  std::vector<Vector3> sides;
  SideNormals(loop_W, plane.normal_W, &sides);

  std::vector<ContactPoint> kept;
  // Keep the deepest point of the line contact (capsule, or cylinder on its
  // side) and its ends; a segment crossing the face boundary is clipped to it,
  // with phi interpolated linearly (exact for a capsule's straight side).
  std::sort(candidates.begin(), candidates.end(),
            [](const ContactPoint& a, const ContactPoint& b) { return a.phi < b.phi; });
  const bool line = candidates.size() >= 2 &&
                    std::abs(candidates[1].phi - candidates[0].phi) <
                        std::max(1e-9, 1e-6 * B.length) &&
                    (candidates.size() == 2 || candidates[2].phi > candidates[1].phi + 1e-9);
  if (line) {
    std::vector<Vector3> segment{candidates[0].p_W, candidates[1].p_W};
    std::vector<double> phi{candidates[0].phi, candidates[1].phi};
    ClipPolygon(loop_W, sides, &segment, &phi);
    for (size_t k = 0; k < segment.size(); ++k) {
      if (k > 0 && (segment[k] - segment[k - 1]).norm() < kDuplicateDistance) continue;
      ContactPoint c = candidates[0];
      c.p_W = segment[k];
      c.phi = phi[k];
      if (c.phi < margin) kept.push_back(c);
    }
  } else {
    for (const ContactPoint& c : candidates) {
      bool inside = c.phi < margin;
      for (size_t i = 0; i < sides.size() && inside; ++i) {
        inside = sides[i].dot(c.p_W - loop_W[i]) <= kSidePlaneSlack;
      }
      if (inside) kept.push_back(c);
    }
  }
  if (kept.empty()) return false;
  const size_t begin = out->size();
  out->insert(out->end(), kept.begin(), kept.end());
  ReduceContacts(out, begin, kMaxManifoldPoints);
  return true;
}

void FlipContacts(std::vector<ContactPoint>* out, size_t begin) {
  for (size_t k = begin; k < out->size(); ++k) (*out)[k].nhat_AB_W = -(*out)[k].nhat_AB_W;
}

void ReduceContacts(std::vector<ContactPoint>* out, size_t begin, int max_points) {
  const size_t n = out->size() - begin;
  if (n <= static_cast<size_t>(max_points)) return;
  std::vector<char> chosen(n, 0);
  std::vector<double> distance(n, std::numeric_limits<double>::infinity());
  size_t pick = 0;
  for (size_t k = 1; k < n; ++k) {
    if ((*out)[begin + k].phi < (*out)[begin + pick].phi) pick = k;
  }
  for (int count = 0; count < max_points; ++count) {
    chosen[pick] = 1;
    const Vector3 p = (*out)[begin + pick].p_W;
    size_t farthest = pick;
    double farthest_distance = -1;
    for (size_t k = 0; k < n; ++k) {
      if (chosen[k]) continue;
      distance[k] = std::min(distance[k], ((*out)[begin + k].p_W - p).norm());
      if (distance[k] > farthest_distance) {
        farthest_distance = distance[k];
        farthest = k;
      }
    }
    pick = farthest;
  }
  size_t write = begin;
  for (size_t k = 0; k < n; ++k) {
    if (chosen[k]) (*out)[write++] = (*out)[begin + k];
  }
  out->resize(write);
}

}  // namespace stiction
