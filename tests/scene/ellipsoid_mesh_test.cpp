// The ellipsoid mesh the importers use for MJCF ellipsoid geoms
// (engine/scene/ellipsoid_mesh.h): every vertex on the ellipsoid, every
// triangle facing out, and its polytope within 0.5 % of the sphere it is
// scaled from, as the header and the import note promise.
#include "engine/scene/ellipsoid_mesh.h"

#include <algorithm>
#include <map>
#include <utility>

#include <gtest/gtest.h>

namespace stiction {
namespace {

TEST(EllipsoidMeshTest, VerticesLieOnTheEllipsoidAndTrianglesFaceOut) {
  const Vector3 radii(0.06, 0.04, 0.025);
  const auto mesh = MakeEllipsoidMesh(radii, "geom 'shell' of egg.xml");
  EXPECT_EQ(mesh->name, "geom 'shell' of egg.xml");
  ASSERT_EQ(mesh->vertices_G.size(), 642u);
  ASSERT_EQ(mesh->triangles.size(), 1280u);
  for (const Vector3& p : mesh->vertices_G) EXPECT_NEAR(p.cwiseQuotient(radii).norm(), 1.0, 1e-12);
  // A closed surface: every edge in exactly two triangles, once each way.
  std::map<std::pair<int, int>, int> directed;
  for (const auto& t : mesh->triangles) {
    for (int k = 0; k < 3; ++k) ++directed[{t[k], t[(k + 1) % 3]}];
  }
  for (const auto& [edge, count] : directed) {
    EXPECT_EQ(count, 1);
    EXPECT_EQ(directed.count({edge.second, edge.first}), 1u);
  }
}

TEST(EllipsoidMeshTest, ThePolytopeIsWithinHalfAPercentOfTheSphere) {
  const auto mesh = MakeEllipsoidMesh(Vector3::Ones(), "unit");
  double nearest = 1;  // The smallest distance from the centre to a face's plane.
  for (const auto& t : mesh->triangles) {
    const Vector3& a = mesh->vertices_G[t[0]];
    const Vector3 n = (mesh->vertices_G[t[1]] - a).cross(mesh->vertices_G[t[2]] - a).normalized();
    const double d = n.dot(a);
    EXPECT_GT(d, 0) << "a triangle faces in";
    nearest = std::min(nearest, d);
  }
  EXPECT_GT(nearest, 0.995);
  EXPECT_LT(nearest, 0.996);  // The bound is tight: 3 subdivisions, not more.
  // Fewer subdivisions: coarser.
  EXPECT_EQ(MakeEllipsoidMesh(Vector3::Ones(), "coarse", 0)->vertices_G.size(), 12u);
}

}  // namespace
}  // namespace stiction
