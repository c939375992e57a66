// Pressure-field contact surfaces (docs/contact-model.md "Pressure-field
// patches") against closed forms: the force of a soft sphere on a rigid
// plane, its convergence with the resolution, two equal soft spheres, a
// rigid box face against the plane's result, and the mesh's field.
#include "engine/geometry/contact_surface.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <utility>
#include <vector>

#include "engine/common/constants.h"
#include "engine/common/error.h"
#include "engine/geometry/tet_bvh.h"
#include "engine/geometry/volume_mesh.h"

namespace stiction {
namespace {

ShapeDescription Sphere(double r) {
  ShapeDescription s;
  s.type = ShapeType::kSphere;
  s.radius = r;
  return s;
}

ShapeDescription BoxShape(const Vector3& size) {
  ShapeDescription s;
  s.type = ShapeType::kBox;
  s.size = size;
  return s;
}

// The force of the field e = 1 − r/R of a sphere of radius R pressed a depth
// d into a plane: h = R − d, a² = R² − h², F = 2πE [a²/2 − (R³ − h³)/(3R)].
double SphereForce(double E, double R, double d) {
  const double h = R - d, a2 = R * R - h * h;
  return 2 * kPi * E * (0.5 * a2 - (R * R * R - h * h * h) / (3 * R));
}

struct SoftMesh {
  VolumeMesh mesh;
  TetBvh bvh;
  explicit SoftMesh(const ShapeDescription& shape, double resolution = 0)
      : mesh(MakeCompliantVolumeMesh(shape, resolution, nullptr, "test")), bvh(mesh) {}
  SoftGeometry At(const Vector3& p, double E) const {
    RigidTransform X;
    X.p = p;
    return {&mesh, &bvh, X, E};
  }
};

// A soft sphere centred at height R − d above the plane z = 0.
double PlaneForce(const SoftMesh& ball, double E, double R, double d, ContactSurface* s) {
  ComputePlaneSoftSurface(Plane{Vector3::UnitZ(), 0.0}, ball.At(Vector3(0, 0, R - d), E), s);
  return s->PressureForce().z();
}

TEST(VolumeMeshTest, FieldIsZeroOnTheSurfaceOneAtTheCentreAndTheVolumeIsTheShapes) {
  const double R = 0.05;
  const SoftMesh ball(Sphere(R));
  const Vector3 size(0.02, 0.04, 0.005);
  const SoftMesh pad(BoxShape(size));
  ShapeDescription puck, capsule;
  puck.type = ShapeType::kCylinder;
  puck.radius = 0.05;
  puck.length = 0.02;
  capsule.type = ShapeType::kCapsule;
  capsule.radius = 0.02;
  capsule.length = 0.1;
  const SoftMesh puck_mesh(puck), capsule_mesh(capsule);
  std::printf("tetrahedra at the automatic resolution (memory):\n");
  for (const auto& [name, m] : {std::pair<const char*, const SoftMesh*>{"sphere R 5 cm", &ball},
                                {"box 2 x 4 x 0.5 cm", &pad},
                                {"cylinder R 5 cm, L 2 cm", &puck_mesh},
                                {"capsule R 2 cm, L 10 cm", &capsule_mesh}}) {
    std::printf("  %-24s %6zu tetrahedra, %5zu vertices, %6.0f kB (+ BVH %d nodes)\n", name, m->mesh.tets.size(),
                m->mesh.vertices.size(), m->mesh.MemoryBytes() / 1e3, m->bvh.num_nodes());
  }
  // Round shapes hold their true volume (MatchVolume; the capsule's fixed
  // point stops at 1e-13 relative).
  EXPECT_NEAR(puck_mesh.mesh.Volume(), kPi * 0.05 * 0.05 * 0.02, 1e-9 * kPi * 0.05 * 0.05 * 0.02);
  const double capsule_volume = kPi * 0.02 * 0.02 * 0.1 + 4.0 / 3.0 * kPi * 0.02 * 0.02 * 0.02;
  EXPECT_NEAR(capsule_mesh.mesh.Volume(), capsule_volume, 1e-9 * capsule_volume);
  // The box is meshed exactly; the sphere's polyhedron is placed to hold
  // the ball's volume (volume_mesh.cpp, MatchVolume).
  EXPECT_NEAR(pad.mesh.Volume(), size.prod(), 1e-12 * size.prod());
  const double ball_volume = 4.0 / 3.0 * kPi * R * R * R;
  EXPECT_NEAR(ball.mesh.Volume(), ball_volume, 1e-9 * ball_volume);
  // The box's field is 1 − max(|x|/a, |y|/b, |z|/c) (the gauge): check it at
  // points inside, through the cell and the tetrahedra that hold each.
  const Vector3 half = 0.5 * size;
  auto inside = [](const VolumeMesh::TetData& d, const Vector3& x) {
    for (int f = 0; f < 4; ++f) {
      if (d.normal[f].dot(x) < d.offset[f] - 1e-15) return false;
    }
    return true;
  };
  for (const Vector3& x : {Vector3(0.001, 0.002, 0.001), Vector3(-0.009, 0.0, 0.0), Vector3(0.0, 0.019, -0.002)}) {
    const double expected = 1 - std::max({std::abs(x.x()) / half.x(), std::abs(x.y()) / half.y(), std::abs(x.z()) / half.z()});
    int cells = 0, tets = 0;
    for (size_t c = 0; c < pad.mesh.cells.size(); ++c) {
      if (!inside(pad.mesh.cell_data[c], x)) continue;
      ++cells;
      EXPECT_NEAR(pad.mesh.StrainAt(static_cast<int>(c), x), expected, 1e-12);
    }
    for (size_t t = 0; t < pad.mesh.tets.size(); ++t) {
      if (!inside(pad.mesh.tet_data[t], x)) continue;
      ++tets;
      const std::array<int, 4>& v = pad.mesh.tets[t];
      const double e = pad.mesh.e[v[0]] + pad.mesh.tet_data[t].grad_e.dot(x - pad.mesh.vertices[v[0]]);
      EXPECT_NEAR(e, expected, 1e-12);
    }
    EXPECT_GE(cells, 1);
    EXPECT_GE(tets, 1);
  }
  // The layered tetrahedra refine their cell's linear field: same gradient
  // (to round-off of the 3 × 3 solves, 1e-9 relative).
  for (const SoftMesh* m : {&ball, &pad, &puck_mesh, &capsule_mesh}) {
    ASSERT_EQ(m->mesh.tet_cell.size(), m->mesh.tets.size());
    for (size_t t = 0; t < m->mesh.tets.size(); ++t) {
      const Vector3& g_cell = m->mesh.cell_data[m->mesh.tet_cell[t]].grad_e;
      EXPECT_LT((m->mesh.tet_data[t].grad_e - g_cell).norm(), 1e-9 * g_cell.norm()) << t;
    }
  }
}

// The analytic case: within 2 % at the default resolution, for
// penetrations from 5 % to 30 % of the radius.
TEST(ContactSurfaceTest, SoftSphereOnPlaneMatchesTheClosedFormForce) {
  const double R = 0.05, E = 1e5;
  const SoftMesh ball(Sphere(R));
  std::printf("  d/R   analytic F [N]   patch F [N]   error\n");
  for (double ratio : {0.05, 0.1, 0.2, 0.3}) {
    ContactSurface s;
    const double F = PlaneForce(ball, E, R, ratio * R, &s);
    const double expected = SphereForce(E, R, ratio * R);
    std::printf("  %.2f  %12.4f  %12.4f  %+.2f %%  (%zu polygons)\n", ratio, expected, F, 100 * (F / expected - 1),
                s.polygons.size());
    EXPECT_NEAR(F, expected, 0.02 * expected) << "d/R = " << ratio;
    // Every polygon's normal is the plane's, its pressure non-negative.
    for (const ContactPolygon& p : s.polygons) {
      EXPECT_NEAR(p.nhat_W.z(), 1.0, 1e-12);
      EXPECT_GE(p.pressure, 0.0);
      EXPECT_GT(p.gradient, 0.0);
    }
  }
}

// The error falls as the resolution is refined (printed for the docs): the
// mean error over penetrations of 5–30 % of the radius, per resolution.
TEST(ContactSurfaceTest, SphereForceConvergesWithResolution) {
  const double R = 0.05, E = 1e5;
  std::printf("  resolution [m]  tetrahedra  mean |F error| over d/R = 0.05, 0.1, 0.2, 0.3\n");
  std::vector<double> errors;
  for (double h : {0.04, 0.02, 0.01, 0.005}) {
    const SoftMesh ball(Sphere(R), h);
    double sum = 0;
    for (double ratio : {0.05, 0.1, 0.2, 0.3}) {
      ContactSurface s;
      sum += std::abs(PlaneForce(ball, E, R, ratio * R, &s) / SphereForce(E, R, ratio * R) - 1);
    }
    errors.push_back(sum / 4);
    std::printf("  %.4f  %10zu  %.3f %%\n", h, ball.mesh.tets.size(), 100 * errors.back());
  }
  for (size_t i = 1; i < errors.size(); ++i) EXPECT_LT(errors[i], errors[i - 1]) << "step " << i;
  EXPECT_LT(errors.back(), 0.002);
}

// Two equal soft spheres overlapping by 2d meet on the mid plane, each as a
// sphere pressed d into a plane; swapping them negates the force.
TEST(ContactSurfaceTest, EqualSoftSpheresMeetOnTheMidPlaneAndAreSymmetric) {
  const double R = 0.05, E = 2e5, d = 0.08 * R;
  const SoftMesh ball(Sphere(R));
  const SoftGeometry a = ball.At(Vector3::Zero(), E);
  const SoftGeometry b = ball.At(Vector3(0, 0, 2 * R - 2 * d), E);
  ContactSurface ab, ba, plane;
  ComputeSoftSoftSurface(a, b, &ab);
  ComputeSoftSoftSurface(b, a, &ba);
  const double on_plane = PlaneForce(ball, E, R, d, &plane);
  const Vector3 f_ab = ab.PressureForce(), f_ba = ba.PressureForce();
  std::printf("soft-soft: %zu polygons, F = %.4f N (sphere on plane at d: %.4f N, closed form %.4f N)\n",
              ab.polygons.size(), f_ab.z(), on_plane, SphereForce(E, R, d));
  // The equal-pressure surface is the plane z = R − d; the meshes of the two
  // spheres are the same polyhedron, mirrored only by the offset, so the
  // force agrees with the plane's to the discretization (2 %).
  EXPECT_NEAR(f_ab.z(), SphereForce(E, R, d), 0.02 * SphereForce(E, R, d));
  EXPECT_NEAR(f_ab.x(), 0.0, 1e-6 * f_ab.z());
  EXPECT_NEAR(f_ab.y(), 0.0, 1e-6 * f_ab.z());
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(f_ba[k], -f_ab[k], 1e-9 * f_ab.norm());
  EXPECT_NEAR(ab.Area(), ba.Area(), 1e-12);
  for (size_t i = 0; i < ab.vertices_W.size(); ++i) EXPECT_NEAR(ab.vertices_W[i].z(), R - d, 1e-9);
  // Stiffer B: the surface moves into the softer A, and the series gradient
  // of each polygon is below either side's.
  ContactSurface stiff;
  ComputeSoftSoftSurface(a, ball.At(Vector3(0, 0, 2 * R - 2 * d), 4 * E), &stiff);
  ASSERT_FALSE(stiff.polygons.empty());
  EXPECT_LT(stiff.PressureCentroid().z(), R - d);
}

// A rigid box's top face through the soft ball gives the plane's force.
TEST(ContactSurfaceTest, RigidBoxFaceEqualsThePlane) {
  const double R = 0.05, E = 1e5, d = 0.1 * R;
  const SoftMesh ball(Sphere(R));
  const SurfaceMesh box = MakeRigidSurfaceMesh(BoxShape(Vector3(0.3, 0.3, 0.1)), nullptr);
  RigidTransform X_WBox;
  X_WBox.p = Vector3(0.01, -0.02, -0.05);  // Top face at z = 0.
  ContactSurface s, plane;
  ComputeRigidSoftSurface(RigidSurface{&box, X_WBox}, ball.At(Vector3(0, 0, R - d), E), &s);
  const double F = s.PressureForce().z();
  EXPECT_NEAR(F, PlaneForce(ball, E, R, d, &plane), 1e-9 * F);
  EXPECT_NEAR(s.Area(), plane.Area(), 1e-9 * s.Area());
}

// Each polygon's point contact: k (−φ0) = p A, and k = A g.
TEST(ContactSurfaceTest, PatchContactsCarryThePolygonsForce) {
  const double R = 0.05, E = 1e5, d = 0.1 * R;
  const SoftMesh ball(Sphere(R));
  ContactSurface s;
  PlaneForce(ball, E, R, d, &s);
  s.geometry_a = 3;
  s.geometry_b = 7;
  std::vector<ContactPoint> points;
  AppendPatchContacts(s, 2, &points);
  ASSERT_EQ(points.size(), s.polygons.size());
  for (size_t i = 0; i < points.size(); ++i) {
    const ContactPolygon& p = s.polygons[i];
    EXPECT_NEAR(points[i].stiffness * -points[i].phi, p.pressure * p.area, 1e-12 * (1 + p.pressure * p.area));
    EXPECT_EQ(points[i].surface, 2);
    EXPECT_EQ(points[i].polygon, static_cast<int>(i));
    EXPECT_EQ(points[i].geometry_b, 7);
  }
}

TEST(VolumeMeshTest, BadInputIsRefusedWithTheReason) {
  ShapeDescription half;
  half.type = ShapeType::kHalfSpace;
  EXPECT_THROW(MakeCompliantVolumeMesh(half, 0, nullptr, "g"), InputError);
  EXPECT_THROW(MakeCompliantVolumeMesh(Sphere(0.05), -1, nullptr, "g"), InputError);
  EXPECT_THROW(MakeCompliantVolumeMesh(Sphere(0.05), std::nan(""), nullptr, "g"), InputError);
  try {
    MakeCompliantVolumeMesh(BoxShape(Vector3(1, 1, 1)), 1e-5, nullptr, "geometry 'pad'");
    FAIL() << "a resolution of 10 µm on a 1 m box must be refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("geometry 'pad'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("coarser"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace stiction
