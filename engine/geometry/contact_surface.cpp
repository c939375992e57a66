#include "engine/geometry/contact_surface.h"

#include <algorithm>
#include <cmath>

namespace stiction {
namespace {

// A convex polygon while it is clipped: at most 3 + 4 + 4 vertices (a
// triangle or a plane section clipped by two tetrahedra).
struct Polygon {
  static constexpr int kMax = 16;
  std::array<Vector3, kMax> v;
  int n = 0;
  void Add(const Vector3& p) {
    if (n < kMax) v[n++] = p;
  }
};

// Keeps the part of `in` with normal · x ≥ offset (Sutherland–Hodgman).
void Clip(const Polygon& in, const Vector3& normal, double offset, Polygon* out) {
  out->n = 0;
  for (int i = 0; i < in.n; ++i) {
    const Vector3& a = in.v[i];
    const Vector3& b = in.v[(i + 1) % in.n];
    const double da = normal.dot(a) - offset, db = normal.dot(b) - offset;
    if (da >= 0) out->Add(a);
    if ((da >= 0) != (db >= 0)) out->Add(a + (da / (da - db)) * (b - a));
  }
}

// Clips `poly` by the four faces of tetrahedron t (in the mesh's frame);
// false when nothing is left.
bool ClipByTet(const VolumeMesh::TetData& d, Polygon* poly) {
  Polygon scratch;
  for (int f = 0; f < 4; ++f) {
    Clip(*poly, d.normal[f], d.offset[f], &scratch);
    *poly = scratch;
    if (poly->n < 3) return false;
  }
  return true;
}

// The section of tetrahedron `tet` (vertices in `vertices`) by the plane
// normal · x = offset, its 3 or 4 vertices in order around the centroid.
bool PlaneSection(const std::array<int, 4>& tet, const std::vector<Vector3>& vertices, const Vector3& normal,
                  double offset, Polygon* out) {
  out->n = 0;
  std::array<double, 4> d;
  for (int k = 0; k < 4; ++k) d[k] = normal.dot(vertices[tet[k]]) - offset;
  for (int i = 0; i < 4; ++i) {
    for (int j = i + 1; j < 4; ++j) {
      if ((d[i] >= 0) != (d[j] >= 0)) {
        const Vector3 &a = vertices[tet[i]], &b = vertices[tet[j]];
        out->Add(a + (d[i] / (d[i] - d[j])) * (b - a));
      }
    }
  }
  if (out->n < 3) return false;
  if (out->n == 4) {
    // Order the quadrilateral around its centre, in the plane.
    const Vector3 c = 0.25 * (out->v[0] + out->v[1] + out->v[2] + out->v[3]);
    const Vector3 u = (out->v[0] - c).normalized();
    const Vector3 w = normal.cross(u);
    std::array<std::pair<double, Vector3>, 4> by_angle;
    for (int k = 0; k < 4; ++k) {
      const Vector3 r = out->v[k] - c;
      by_angle[k] = {std::atan2(r.dot(w), r.dot(u)), out->v[k]};
    }
    std::sort(by_angle.begin(), by_angle.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (int k = 0; k < 4; ++k) out->v[k] = by_angle[k].second;
  }
  return true;
}

// Area and centroid of a planar convex polygon (fan from vertex 0).
void AreaCentroid(const Polygon& p, double* area, Vector3* centroid) {
  double a = 0;
  Vector3 c = Vector3::Zero();
  for (int i = 1; i + 1 < p.n; ++i) {
    const double t = 0.5 * (p.v[i] - p.v[0]).cross(p.v[i + 1] - p.v[0]).norm();
    a += t;
    c += t * (p.v[0] + p.v[i] + p.v[i + 1]) / 3.0;
  }
  *area = a;
  *centroid = a > 0 ? Vector3(c / a) : p.v[0];
}

// Polygons smaller than this [m²] carry nothing worth a constraint.
constexpr double kMinArea = 1e-14;
// A polygon counts only when its normal is within this cosine of the
// pressure gradient: faces entering the volume nearly edge-on (a handle's
// sides sunk in a pad) would otherwise become springs with g ≈ 0 and a huge
// φ0 (docs/contact-model.md).
constexpr double kMinGradientCosine = 0.17;  // cos 80°.

// Appends polygon `p` (in frame G of the soft geometry, posed by X_WG) with
// normal n_G (A into B), pressure field p(x) = E (e0 + ∇e·(x − x0)) given by
// `pressure_at`, and effective gradient g.
template <typename PressureAt>
void Emit(const Polygon& p, const RigidTransform& X_WG, const Vector3& n_G, double g, PressureAt pressure_at,
          ContactSurface* out) {
  double area = 0;
  Vector3 centroid_G;
  AreaCentroid(p, &area, &centroid_G);
  if (!(area > kMinArea)) return;
  ContactPolygon poly;
  poly.first = static_cast<int>(out->vertices_W.size());
  poly.count = p.n;
  for (int k = 0; k < p.n; ++k) {
    out->vertices_W.push_back(X_WG * p.v[k]);
    out->pressures.push_back(std::max(0.0, pressure_at(p.v[k])));
  }
  poly.centroid_W = X_WG * centroid_G;
  poly.nhat_W = X_WG.R * n_G;
  poly.area = area;
  poly.pressure = std::max(0.0, pressure_at(centroid_G));
  poly.gradient = g;
  out->polygons.push_back(poly);
}

}  // namespace

double ContactSurface::Area() const {
  double a = 0;
  for (const ContactPolygon& p : polygons) a += p.area;
  return a;
}

double ContactSurface::PeakPressure() const {
  double peak = 0;
  for (double p : pressures) peak = std::max(peak, p);
  return peak;
}

Vector3 ContactSurface::PressureCentroid() const {
  double w = 0, a = 0;
  Vector3 c = Vector3::Zero(), ca = Vector3::Zero();
  for (const ContactPolygon& p : polygons) {
    w += p.pressure * p.area;
    c += p.pressure * p.area * p.centroid_W;
    a += p.area;
    ca += p.area * p.centroid_W;
  }
  if (w > 0) return c / w;
  return a > 0 ? Vector3(ca / a) : Vector3::Zero();
}

Vector3 ContactSurface::PressureForce() const {
  Vector3 f = Vector3::Zero();
  for (const ContactPolygon& p : polygons) f += p.pressure * p.area * p.nhat_W;
  return f;
}

void ContactSurface::Flip() {
  std::swap(geometry_a, geometry_b);
  std::swap(body_a, body_b);
  for (ContactPolygon& p : polygons) p.nhat_W = -p.nhat_W;
}

void ComputeRigidSoftSurface(const RigidSurface& A, const SoftGeometry& B, ContactSurface* out) {
  const VolumeMesh& mesh = *B.mesh;
  const RigidTransform X_BA = B.X_WG.inverse() * A.X_WG;
  const SurfaceMesh& surface = *A.mesh;
  std::vector<Vector3> vertices_B(surface.vertices.size());
  for (size_t i = 0; i < surface.vertices.size(); ++i) vertices_B[i] = X_BA * surface.vertices[i];
  const TetBvh::Box& root = B.bvh->root();
  // Cells already cut by triangle i hold stamp i + 1 (the hierarchy returns
  // a cell once per tetrahedron of it).
  std::vector<int> stamp(mesh.cells.size(), 0);
  for (size_t i = 0; i < surface.triangles.size(); ++i) {
    // Not a structured binding: clang 14 cannot capture one in the lambda below.
    const auto& triangle = surface.triangles[i];
    const auto a = triangle[0], b = triangle[1], c = triangle[2];
    TetBvh::Box box;
    box.min = vertices_B[a].cwiseMin(vertices_B[b]).cwiseMin(vertices_B[c]);
    box.max = vertices_B[a].cwiseMax(vertices_B[b]).cwiseMax(vertices_B[c]);
    if (!box.Overlaps(root)) continue;
    const Vector3 n_B = X_BA.R * surface.normals[i];  // Out of A, into B.
    const int mark = static_cast<int>(i) + 1;
    B.bvh->Query(box, [&](int t) {
      const int cell = mesh.tet_cell[t];
      if (stamp[cell] == mark) return;
      stamp[cell] = mark;
      const VolumeMesh::TetData& d = mesh.cell_data[cell];
      const double along = d.grad_e.dot(n_B);
      if (!(along > kMinGradientCosine * d.grad_e.norm())) return;
      Polygon poly;
      poly.Add(vertices_B[a]);
      poly.Add(vertices_B[b]);
      poly.Add(vertices_B[c]);
      if (!ClipByTet(d, &poly)) return;
      Emit(poly, B.X_WG, n_B, B.modulus * along,
           [&](const Vector3& x) { return B.modulus * mesh.StrainAt(cell, x); }, out);
    });
  }
}

void ComputePlaneSoftSurface(const Plane& A, const SoftGeometry& B, ContactSurface* out) {
  const VolumeMesh& mesh = *B.mesh;
  // The plane in B's frame: n_B · x = offset_B.
  const Vector3 n_B = B.X_WG.R.transpose() * A.normal_W;
  const double offset_B = A.offset - A.normal_W.dot(B.X_WG.p);
  std::vector<char> done(mesh.cells.size(), 0);
  B.bvh->QueryPlane(n_B, offset_B, [&](int t) {
    const int cell = mesh.tet_cell[t];
    if (done[cell]) return;
    done[cell] = 1;
    const VolumeMesh::TetData& d = mesh.cell_data[cell];
    const double along = d.grad_e.dot(n_B);
    if (!(along > kMinGradientCosine * d.grad_e.norm())) return;
    Polygon poly;
    if (!PlaneSection(mesh.cells[cell], mesh.vertices, n_B, offset_B, &poly)) return;
    Emit(poly, B.X_WG, n_B, B.modulus * along, [&](const Vector3& x) { return B.modulus * mesh.StrainAt(cell, x); },
         out);
  });
}

namespace {

// The overlap of A's and B's root boxes in A's frame (B's as the A-aligned
// box that bounds it): the region both volumes can share. False when empty.
bool OverlapOfRoots(const SoftGeometry& A, const SoftGeometry& B, const RigidTransform& X_AB, TetBvh::Box* overlap) {
  const TetBvh::Box& ra = A.bvh->root();
  const TetBvh::Box& rb = B.bvh->root();
  const Vector3 centre = X_AB * Vector3(0.5 * (rb.min + rb.max));
  const Vector3 half = X_AB.R.cwiseAbs() * Vector3(0.5 * (rb.max - rb.min));
  overlap->min = ra.min.cwiseMax(centre - half);
  overlap->max = ra.max.cwiseMin(centre + half);
  return !(overlap->min.array() > overlap->max.array()).any();
}

// B's tetrahedra come cell by cell (volume_mesh.cpp adds them so): *met
// receives the A cells met by any tetrahedron of the B cell whose first
// tetrahedron is `first` (vb: B's vertices in A's frame); those cells hold
// stamp cb + 1 in *stamp. Returns the first tetrahedron of the next cell.
size_t CollectMetCells(const SoftGeometry& A, const VolumeMesh& mb, const std::vector<Vector3>& vb,
                       const TetBvh::Box& overlap, size_t first, std::vector<int>* stamp, std::vector<int>* met) {
  const VolumeMesh& ma = *A.mesh;
  const int cb = mb.tet_cell[first];
  size_t last = first;
  met->clear();
  for (; last < mb.tets.size() && mb.tet_cell[last] == cb; ++last) {
    const std::array<int, 4>& tet_b = mb.tets[last];
    TetBvh::Box box;
    box.min = box.max = vb[tet_b[0]];
    for (int k = 1; k < 4; ++k) {
      box.min = box.min.cwiseMin(vb[tet_b[k]]);
      box.max = box.max.cwiseMax(vb[tet_b[k]]);
    }
    if (!box.Overlaps(overlap)) continue;
    A.bvh->Query(box, [&](int ta) {
      const int ca = ma.tet_cell[ta];
      if ((*stamp)[ca] == cb + 1) return;
      (*stamp)[ca] = cb + 1;
      met->push_back(ca);
    });
  }
  return last;
}

// A cell of B in A's frame: its data, and its field pB(x) = E_B (e_b0 +
// ∇e_b · (x − x_b0)).
struct MovedCell {
  const VolumeMesh::TetData* data;
  Vector3 grad_e;  // ∇e_b.
  Vector3 x0;      // x_b0, its first vertex.
  double e0;       // e_b0.
};

// The polygon of A's cell ca where the two pressures are equal, clipped to
// B's cell, emitted when both pressures rise across it.
void EmitCellPair(const SoftGeometry& A, const SoftGeometry& B, const RigidTransform& X_AB, const MovedCell& b,
                  int ca, ContactSurface* out) {
  const VolumeMesh& ma = *A.mesh;
  const VolumeMesh::TetData& da = ma.cell_data[ca];
  // pA − pB = m · x − c = 0 on the surface.
  const Vector3 m = A.modulus * da.grad_e - B.modulus * b.grad_e;
  const double m_norm = m.norm();
  if (!(m_norm > 0)) return;
  const Vector3& xa0 = ma.vertices[ma.cells[ca][0]];
  const double c = A.modulus * (da.grad_e.dot(xa0) - ma.e[ma.cells[ca][0]]) - B.modulus * (b.grad_e.dot(b.x0) - b.e0);
  const Vector3 n = -m / m_norm;  // Out of A into B: A's pressure falls along it, B's rises.
  const double g_a = -A.modulus * da.grad_e.dot(n), g_b = B.modulus * b.grad_e.dot(n);
  if (!(g_a > kMinGradientCosine * A.modulus * da.grad_e.norm()) ||
      !(g_b > kMinGradientCosine * B.modulus * b.grad_e.norm())) {
    return;
  }
  Polygon poly;
  if (!PlaneSection(ma.cells[ca], ma.vertices, m / m_norm, c / m_norm, &poly)) return;
  for (int f = 0; f < 4; ++f) {
    const Vector3 normal = X_AB.R * b.data->normal[f];
    const double offset = b.data->offset[f] + normal.dot(X_AB.p);
    Polygon clipped;
    Clip(poly, normal, offset, &clipped);
    poly = clipped;
    if (poly.n < 3) return;
  }
  Emit(poly, A.X_WG, n, g_a * g_b / (g_a + g_b), [&](const Vector3& x) { return A.modulus * ma.StrainAt(ca, x); },
       out);
}

}  // namespace

void ComputeSoftSoftSurface(const SoftGeometry& A, const SoftGeometry& B, ContactSurface* out) {
  // Everything in A's frame: B's vertices, gradients and face planes moved.
  const VolumeMesh& ma = *A.mesh;
  const VolumeMesh& mb = *B.mesh;
  const RigidTransform X_AB = A.X_WG.inverse() * B.X_WG;
  std::vector<Vector3> vb(mb.vertices.size());
  for (size_t i = 0; i < mb.vertices.size(); ++i) vb[i] = X_AB * mb.vertices[i];
  TetBvh::Box overlap;
  if (!OverlapOfRoots(A, B, X_AB, &overlap)) return;
  std::vector<int> stamp(ma.cells.size(), 0);
  std::vector<int> met;
  for (size_t first = 0; first < mb.tets.size();) {
    const int cb = mb.tet_cell[first];
    first = CollectMetCells(A, mb, vb, overlap, first, &stamp, &met);
    if (met.empty()) continue;
    const VolumeMesh::TetData& db = mb.cell_data[cb];
    const MovedCell b{&db, X_AB.R * db.grad_e, vb[mb.cells[cb][0]], mb.e[mb.cells[cb][0]]};
    for (int ca : met) EmitCellPair(A, B, X_AB, b, ca, out);
  }
}

void AppendPatchContacts(const ContactSurface& surface, int surface_index, std::vector<ContactPoint>* out) {
  for (size_t i = 0; i < surface.polygons.size(); ++i) {
    const ContactPolygon& p = surface.polygons[i];
    ContactPoint c;
    c.body_a = surface.body_a;
    c.body_b = surface.body_b;
    c.geometry_a = surface.geometry_a;
    c.geometry_b = surface.geometry_b;
    c.p_W = p.centroid_W;
    c.nhat_AB_W = p.nhat_W;
    c.phi = -p.pressure / p.gradient;
    c.stiffness = p.area * p.gradient;
    c.surface = surface_index;
    c.polygon = static_cast<int>(i);
    out->push_back(c);
  }
}

}  // namespace stiction
