#include "app/render/primitive_meshes.h"

#include <gtest/gtest.h>

#include <cmath>

namespace stiction::app {
namespace {

// Every triangle must wind counter-clockwise seen from outside (back-face
// culling relies on it) and every normal must be unit and point outwards.
void ExpectOutwardMesh(const RenderMesh& mesh, const char* what) {
  SCOPED_TRACE(what);
  ASSERT_FALSE(mesh.indices.empty());
  ASSERT_EQ(mesh.indices.size() % 3, 0u);
  ASSERT_EQ(mesh.positions_G.size(), mesh.normals_G.size());
  for (size_t t = 0; t < mesh.indices.size(); t += 3) {
    const Eigen::Vector3f& a = mesh.positions_G[mesh.indices[t]];
    const Eigen::Vector3f& b = mesh.positions_G[mesh.indices[t + 1]];
    const Eigen::Vector3f& c = mesh.positions_G[mesh.indices[t + 2]];
    const Eigen::Vector3f n = (b - a).cross(c - a);
    if (n.norm() < 1e-9f) continue;  // Degenerate triangles at the poles.
    const Eigen::Vector3f centroid = (a + b + c) / 3;
    EXPECT_GT(n.dot(centroid), 0) << "triangle " << t / 3;
  }
  for (size_t i = 0; i < mesh.normals_G.size(); ++i) {
    EXPECT_NEAR(mesh.normals_G[i].norm(), 1.0f, 1e-5f);
    EXPECT_GE(mesh.normals_G[i].dot(mesh.positions_G[i]), -1e-5f);
  }
}

TEST(PrimitiveMeshesTest, ShapesAreClosedOutwardAndSized) {
  ExpectOutwardMesh(MakeSphereMesh(0.3), "sphere");
  ExpectOutwardMesh(MakeBoxMesh(Vector3(0.1, 0.2, 0.3)), "box");
  ExpectOutwardMesh(MakeCapsuleMesh(0.05, 0.4), "capsule");
  ExpectOutwardMesh(MakeCylinderMesh(0.05, 0.4), "cylinder");

  const RenderMesh box = MakeBoxMesh(Vector3(0.1, 0.2, 0.3));
  Eigen::Vector3f hi = Eigen::Vector3f::Constant(-1);
  for (const auto& p : box.positions_G) hi = hi.cwiseMax(p);
  EXPECT_TRUE(hi.isApprox(Eigen::Vector3f(0.05f, 0.1f, 0.15f)));
  const RenderMesh capsule = MakeCapsuleMesh(0.05, 0.4);
  float zmax = 0;
  for (const auto& p : capsule.positions_G) zmax = std::max(zmax, p.z());
  EXPECT_NEAR(zmax, 0.25f, 1e-6f);
  const RenderMesh plane = MakePlaneMesh(10);
  EXPECT_EQ(plane.indices.size(), 6u);
}

// Coarser levels of detail are still closed and outward, have fewer
// triangles, and a level is chosen only while its silhouette error
// r (1 - cos(pi / slices)) stays under about a pixel.
TEST(PrimitiveMeshesTest, LevelsOfDetail) {
  ShapeDescription sphere;
  sphere.type = ShapeType::kSphere;
  sphere.radius = 0.1;
  ShapeDescription capsule = sphere;
  capsule.type = ShapeType::kCapsule;
  capsule.length = 0.3;
  ShapeDescription cylinder = capsule;
  cylinder.type = ShapeType::kCylinder;
  for (const ShapeDescription& shape : {sphere, capsule, cylinder}) {
    ASSERT_TRUE(HasLevelsOfDetail(shape));
    size_t previous = MakePrimitiveMesh(shape).indices.size();
    EXPECT_EQ(MakePrimitiveMesh(shape, 0).indices.size(), previous);
    for (int lod = 1; lod < kNumLods; ++lod) {
      const RenderMesh mesh = MakePrimitiveMesh(shape, lod);
      ExpectOutwardMesh(mesh, "coarser level");
      EXPECT_LT(mesh.indices.size(), previous);
      previous = mesh.indices.size();
    }
  }
  ShapeDescription box;
  box.type = ShapeType::kBox;
  EXPECT_FALSE(HasLevelsOfDetail(box));

  EXPECT_EQ(ChooseLod(1000.0f), 0);
  EXPECT_EQ(ChooseLod(50.0f), 1);
  EXPECT_EQ(ChooseLod(20.0f), 2);
  EXPECT_EQ(ChooseLod(3.0f), kNumLods - 1);
  // Up to 200 px; larger spheres keep the finest level (32 slices).
  for (float radius_px = 1; radius_px < 200; radius_px *= 1.1f) {
    const int slices = kLodSlices[ChooseLod(radius_px)];
    const double sagitta_px = radius_px * (1 - std::cos(3.14159265 / slices));
    EXPECT_LT(sagitta_px, 1.0) << "at radius " << radius_px << " px";
  }
}

}  // namespace
}  // namespace stiction::app
