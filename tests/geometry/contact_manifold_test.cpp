#include "engine/geometry/contact_manifold.h"

#include <cmath>

#include <gtest/gtest.h>

#include "engine/geometry/mesh_loader.h"
#include "tests/geometry/pose_helpers.h"

namespace stiction {
namespace {

constexpr double kPi = 3.14159265358979323846;
// Analytic formulas on O(0.1 m) values: round-off only.
constexpr double kExact = 1e-12;

using test::Pose;
using test::Rot;

TEST(ContactManifoldTest, PlaneCylinderTiltedKeepsDeepestRimPoints) {
  // Tilted 10° about x, the cylinder rocks on its lower rim: the deepest rim
  // point is the start of the 8 samples, and with a 1 mm margin only the
  // deepest rim point (plus none of its 45° neighbours, 0.05 (1 - cos 45°)
  // sin 10° = 2.5 mm higher) is kept.
  const double tilt = 10 * kPi / 180;
  const PlacedRound cylinder{0.05, 0.2, Pose(Vector3::Zero(), Rot(tilt, Vector3::UnitX()))};
  const double lowest = 0.1 * std::cos(tilt) + 0.05 * std::sin(tilt);
  Plane plane;
  plane.offset = -lowest + 1e-3;  // The deepest rim point is 1 mm in.
  std::vector<ContactPoint> out;
  PlaneCylinderContacts(plane, cylinder, 1e-3, &out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NEAR(out[0].phi, -1e-3, kExact);
  // A larger margin adds its neighbours as speculative contacts.
  out.clear();
  PlaneCylinderContacts(plane, cylinder, 5e-3, &out);
  EXPECT_EQ(out.size(), 3u);
}

TEST(ContactManifoldTest, ParallelCapsulesGiveTwoPoints) {
  // Capsule B lies on capsule A, parallel, shifted along the axis by 0.05 m:
  // the shared stretch is x in [-0.05, 0.1].
  const Matrix3 along_x = Rot(kPi / 2, Vector3::UnitY());
  const PlacedRound a{0.05, 0.2, Pose(Vector3::Zero(), along_x)};
  const PlacedRound b{0.03, 0.2, Pose(Vector3(0.05, 0, 0.08 - 1e-3), along_x)};
  std::vector<ContactPoint> out;
  CapsuleCapsuleContacts(a, b, 0.0, &out);
  ASSERT_EQ(out.size(), 2u);
  for (const ContactPoint& c : out) {
    EXPECT_NEAR(c.phi, -1e-3, kExact);
    EXPECT_TRUE(c.nhat_AB_W.isApprox(Vector3::UnitZ(), kExact));
  }
  EXPECT_NEAR(std::min(out[0].p_W.x(), out[1].p_W.x()), -0.05, kExact);
  EXPECT_NEAR(std::max(out[0].p_W.x(), out[1].p_W.x()), 0.1, kExact);

  // Crossed capsules: one point at the closest points of the axes.
  const PlacedRound crossed{0.03, 0.2,
                            Pose(Vector3(0.02, 0, 0.08 + 2e-3), Rot(kPi / 2, Vector3::UnitX()))};
  out.clear();
  CapsuleCapsuleContacts(a, crossed, 5e-3, &out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NEAR(out[0].phi, 2e-3, kExact);
  EXPECT_TRUE(out[0].p_W.isApprox(Vector3(0.02, 0, 0.051), kExact));
}

TEST(ContactManifoldTest, SphereInsideBoxLeavesThroughNearestFace) {
  // Centre 1 cm below the +y face of a 0.2 m cube: phi = -(0.01 + r).
  std::vector<ContactPoint> out;
  SphereBoxContacts(Vector3(0.02, 0.09, 0), 0.05, Vector3::Constant(0.2), Pose(Vector3::Zero()),
                    0.0, &out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NEAR(out[0].phi, -0.06, kExact);
  EXPECT_TRUE(out[0].nhat_AB_W.isApprox(-Vector3::UnitY(), kExact));  // Sphere A -> box B.
  // Sphere near a corner, outside: the normal points from the corner.
  out.clear();
  const Vector3 corner(0.1, 0.1, 0.1);
  const Vector3 dir = Vector3(1, 1, 1).normalized();
  SphereBoxContacts(corner + 0.052 * dir, 0.05, Vector3::Constant(0.2), Pose(Vector3::Zero()),
                    0.01, &out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NEAR(out[0].phi, 2e-3, kExact);
  EXPECT_TRUE(out[0].nhat_AB_W.isApprox(-dir, kExact));
}

TEST(ContactManifoldTest, SphereAgainstABoxHullMatchesTheBoxFormula) {
  // The closed form for hulls against the one for boxes, on a rotated,
  // shifted 0.2 x 0.1 x 0.3 box: sphere centres on a grid through the face,
  // edge and vertex regions and the inside.
  const Vector3 size(0.2, 0.1, 0.3);
  const ConvexHull hull = MakeBoxHull(size);
  const RigidTransform X_WB = Pose(Vector3(0.3, -0.2, 0.1), Rot(0.7, Vector3(1, 2, 3).normalized()));
  int outside = 0, inside = 0;
  for (double x = -0.2; x <= 0.2001; x += 0.05) {
    for (double y = -0.15; y <= 0.1501; y += 0.05) {
      for (double z = -0.25; z <= 0.2501; z += 0.05) {
        const Vector3 c_W = X_WB * Vector3(x + 0.013, y + 0.007, z + 0.003);  // Off the symmetry planes.
        std::vector<ContactPoint> box, from_hull;
        SphereBoxContacts(c_W, 0.02, size, X_WB, 1.0, &box);
        SphereHullContacts(c_W, 0.02, PlacedHull{&hull, X_WB}, 1.0, &from_hull);
        ASSERT_EQ(box.size(), 1u);
        ASSERT_EQ(from_hull.size(), 1u);
        EXPECT_NEAR(from_hull[0].phi, box[0].phi, kExact);
        EXPECT_TRUE(from_hull[0].nhat_AB_W.isApprox(box[0].nhat_AB_W, 1e-9));
        EXPECT_TRUE(from_hull[0].p_W.isApprox(box[0].p_W, 1e-9));
        (box[0].phi + 0.02 > 0 ? outside : inside) += 1;
      }
    }
  }
  EXPECT_GT(outside, 100);
  EXPECT_GT(inside, 10);
}

TEST(ContactManifoldTest, SphereAgainstATetrahedronFindsItsVertexEdgeAndFace) {
  // The unit corner tetrahedron (0, e_x, e_y, e_z): a centre beyond the
  // origin is nearest the vertex, one below the x axis the edge, one above
  // the slanted face that face.
  std::vector<Vector3> points = {Vector3::Zero(), Vector3::UnitX(), Vector3::UnitY(), Vector3::UnitZ()};
  const ConvexHull hull = ComputeConvexHull(points, "tetrahedron");
  const PlacedHull tet{&hull, Pose(Vector3::Zero())};
  auto contact = [&](const Vector3& c) {
    std::vector<ContactPoint> out;
    SphereHullContacts(c, 0.1, tet, 10.0, &out);
    EXPECT_EQ(out.size(), 1u);
    return out.at(0);
  };
  const ContactPoint vertex = contact(Vector3(-0.3, -0.4, -1.2));
  EXPECT_NEAR(vertex.phi, 1.3 - 0.1, kExact);
  const ContactPoint edge = contact(Vector3(0.5, -0.3, -0.4));
  EXPECT_NEAR(edge.phi, 0.5 - 0.1, kExact);
  EXPECT_TRUE(edge.nhat_AB_W.isApprox(Vector3(0, 0.6, 0.8), kExact));
  const Vector3 n = Vector3::Ones().normalized();
  const ContactPoint face = contact(Vector3::Constant(0.25) + 0.7 * n);
  EXPECT_NEAR(face.phi, 0.7 + (0.75 - 1.0) / std::sqrt(3.0) - 0.1, kExact);
  EXPECT_TRUE(face.nhat_AB_W.isApprox(-n, kExact));
  const ContactPoint deep = contact(Vector3(0.1, 0.2, 0.3));  // Inside, nearest the x = 0 face.
  EXPECT_NEAR(deep.phi, -0.1 - 0.1, kExact);
  EXPECT_TRUE(deep.nhat_AB_W.isApprox(Vector3::UnitX(), kExact));
}

TEST(ContactManifoldTest, HullHullReportsEdgeContactAsNotAFace) {
  // Two cubes with crossed edges: face axes underestimate the separation, so
  // the manifold declines and the caller uses GJK's single point.
  const ConvexHull cube = MakeBoxHull(Vector3::Constant(0.1));
  const double reach = 0.05 * std::sqrt(2.0);
  const PlacedHull a{&cube, Pose(Vector3::Zero(), Rot(kPi / 4, Vector3::UnitX()))};
  const PlacedHull b{&cube, Pose(Vector3(0, 0, 2 * reach + 2e-3), Rot(kPi / 4, Vector3::UnitY()))};
  std::vector<ContactPoint> out;
  EXPECT_FALSE(HullHullContacts(a, b, 2e-3, 5e-3, 1e-4, &out));
  EXPECT_TRUE(out.empty());
}

TEST(ContactManifoldTest, HullHullPicksTheBetterReferenceFace) {
  // A small cube (A) tilted 0.02 rad about x under a big plate (B): the
  // plate's bottom face is the reference (A's tilted top face separates far
  // less well from the plate's distant corners). The normal must still point
  // from A to B (+z); the cube's upper edge is 1 mm in, its lower edge
  // 0.1 sin(0.02) = 2 mm lower, so with margin 0 only the upper edge's two
  // corners remain.
  const ConvexHull small = MakeBoxHull(Vector3::Constant(0.1));
  const ConvexHull plate = MakeBoxHull(Vector3(1, 1, 0.1));
  const double tilt = 0.02;
  const double top = 0.05 * (std::cos(tilt) + std::sin(tilt));
  const PlacedHull a{&small, Pose(Vector3::Zero(), Rot(tilt, Vector3::UnitX()))};
  const PlacedHull b{&plate, Pose(Vector3(0, 0, top - 1e-3 + 0.05))};
  std::vector<ContactPoint> out;
  ASSERT_TRUE(HullHullContacts(a, b, -1e-3, 0.0, 1e-4, &out));
  ASSERT_EQ(out.size(), 2u);
  for (const ContactPoint& c : out) {
    EXPECT_NEAR(c.phi, -1e-3, kExact);
    EXPECT_TRUE(c.nhat_AB_W.isApprox(Vector3::UnitZ(), kExact));
    EXPECT_NEAR(c.p_W.z(), top - 0.5e-3, kExact);
    EXPECT_NEAR(std::abs(c.p_W.x()), 0.05, kExact);
  }
}

TEST(ContactManifoldTest, ReduceKeepsDeepestAndExtremes) {
  std::vector<ContactPoint> out(1);  // One unrelated point before the range.
  out[0].phi = -1;
  for (int k = 0; k < 16; ++k) {
    ContactPoint c;
    const double angle = 2 * kPi * k / 16;
    c.p_W = Vector3(std::cos(angle), std::sin(angle), 0);
    c.phi = k == 5 ? -2e-3 : -1e-3;
    out.push_back(c);
  }
  ReduceContacts(&out, 1, 4);
  ASSERT_EQ(out.size(), 5u);
  EXPECT_EQ(out[0].phi, -1);  // Untouched.
  bool has_deepest = false;
  for (size_t k = 1; k < out.size(); ++k) has_deepest |= out[k].phi == -2e-3;
  EXPECT_TRUE(has_deepest);
  // Farthest-point sampling on a circle from the deepest: a square.
  for (size_t i = 1; i < out.size(); ++i) {
    for (size_t j = i + 1; j < out.size(); ++j) {
      EXPECT_GT((out[i].p_W - out[j].p_W).norm(), 1.4);
    }
  }
}

TEST(ContactManifoldTest, FlipNegatesOnlyTheRange) {
  std::vector<ContactPoint> out(3);
  FlipContacts(&out, 1);
  EXPECT_TRUE(out[0].nhat_AB_W.isApprox(Vector3::UnitZ()));
  EXPECT_TRUE(out[1].nhat_AB_W.isApprox(-Vector3::UnitZ()));
  EXPECT_TRUE(out[2].nhat_AB_W.isApprox(-Vector3::UnitZ()));
}

}  // namespace
}  // namespace stiction
