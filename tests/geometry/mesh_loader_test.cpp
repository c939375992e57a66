#include "engine/geometry/mesh_loader.h"

#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "engine/common/error.h"
#include "engine/geometry/collision_world.h"

namespace stiction {
namespace {

std::string DataFile(const std::string& name) {
  return std::string(STICTION_SOURCE_DIR) + "/tests/geometry/data/" + name;
}

// Expects `call` to throw InputError whose message names `path` and contains
// `reason`.
template <typename F>
void ExpectInputError(F call, const std::string& path, const std::string& reason) {
  try {
    call();
    ADD_FAILURE() << "no InputError for " << path;
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("mesh '" + path + "'"), std::string::npos) << message;
    EXPECT_NE(message.find(reason), std::string::npos) << message;
  }
}

// Every hull face is planar, convex, outward and counter-clockwise seen from
// outside; every triangle is outward. Tolerance 1e-12 m: the data are exact
// decimal fractions of 0.1 m, only float->double rounding (~1e-9 relative)
// enters through the file, and that moves vertices, not their planes' fit.
void ExpectValidHull(const ConvexHull& hull) {
  for (const ConvexHull::Face& face : hull.faces) {
    EXPECT_NEAR(face.normal_G.norm(), 1.0, 1e-12);
    for (int id : face.vertices) {
      EXPECT_NEAR(face.normal_G.dot(hull.vertices_G[id]), face.offset, 1e-6);
    }
    for (const Vector3& v : hull.vertices_G) {
      EXPECT_LE(face.normal_G.dot(v), face.offset + 1e-6);  // All inside.
    }
    const size_t m = face.vertices.size();
    for (size_t i = 0; i < m; ++i) {
      const Vector3& a = hull.vertices_G[face.vertices[i]];
      const Vector3& b = hull.vertices_G[face.vertices[(i + 1) % m]];
      const Vector3& c = hull.vertices_G[face.vertices[(i + 2) % m]];
      EXPECT_GT((b - a).cross(c - b).dot(face.normal_G), 0.0);  // CCW from outside.
    }
  }
  Vector3 centroid = Vector3::Zero();
  for (const Vector3& v : hull.vertices_G) centroid += v;
  centroid /= static_cast<double>(hull.vertices_G.size());
  for (const auto& tri : hull.triangles) {
    const Vector3& a = hull.vertices_G[tri[0]];
    const Vector3 n = (hull.vertices_G[tri[1]] - a).cross(hull.vertices_G[tri[2]] - a);
    EXPECT_GT(n.dot(a - centroid), 0.0);
  }
}

TEST(MeshLoaderTest, ObjCubeHullHasEightVerticesAndSixQuads) {
  const CollisionMesh mesh = LoadCollisionMesh(DataFile("cube.obj"));
  EXPECT_EQ(mesh.num_input_vertices, 8);
  EXPECT_EQ(mesh.num_input_triangles, 12);
  ASSERT_EQ(mesh.hull.vertices_G.size(), 8u);
  EXPECT_EQ(mesh.hull.triangles.size(), 12u);
  ASSERT_EQ(mesh.hull.faces.size(), 6u);
  for (const auto& face : mesh.hull.faces) EXPECT_EQ(face.vertices.size(), 4u);
  for (const Vector3& v : mesh.hull.vertices_G) {
    // Float coordinates in the file: 0.05f differs from 0.05 by ~1e-9.
    EXPECT_NEAR(v.cwiseAbs().maxCoeff(), 0.05, 1e-8);
    EXPECT_NEAR(v.cwiseAbs().minCoeff(), 0.05, 1e-8);
  }
  EXPECT_NEAR(mesh.hull.bounding_radius, 0.05 * std::sqrt(3.0), 1e-8);
  ExpectValidHull(mesh.hull);
}

TEST(MeshLoaderTest, StlBoxIsWeldedAndScaled) {
  // STL stores 3 vertices per facet with facet normals; removing normals lets
  // them weld into 8 (PLATFORM-NOTES, Assimp 5.2).
  const CollisionMesh mesh = LoadCollisionMesh(DataFile("box.stl"), Vector3(2, 1, 4));
  EXPECT_EQ(mesh.num_input_vertices, 8);
  ASSERT_EQ(mesh.hull.vertices_G.size(), 8u);
  EXPECT_EQ(mesh.hull.faces.size(), 6u);
  for (const Vector3& v : mesh.hull.vertices_G) {
    EXPECT_NEAR(std::abs(v.x()), 0.2, 1e-7);  // 0.1 m scaled by 2.
    EXPECT_NEAR(std::abs(v.y()), 0.05, 1e-7);
    EXPECT_NEAR(std::abs(v.z()), 0.1, 1e-7);  // 0.025 m scaled by 4.
  }
  ExpectValidHull(mesh.hull);
}

TEST(MeshLoaderTest, RenderMeshHasPositionsNormalsAndIndices) {
  const RenderMesh mesh = LoadRenderMesh(DataFile("cube.obj"), Vector3(2, 2, 2));
  EXPECT_EQ(mesh.indices.size(), 36u);
  ASSERT_EQ(mesh.positions_G.size(), mesh.normals_G.size());
  for (const auto& n : mesh.normals_G) EXPECT_NEAR(n.norm(), 1.0f, 1e-5f);
  for (const auto& p : mesh.positions_G) EXPECT_NEAR(p.cwiseAbs().maxCoeff(), 0.1f, 1e-6f);
  for (std::uint32_t i : mesh.indices) EXPECT_LT(i, mesh.positions_G.size());
  // The viewer may draw open meshes.
  EXPECT_EQ(LoadRenderMesh(DataFile("open_box.obj")).indices.size(), 30u);
}

TEST(MeshLoaderTest, BadMeshesThrowInputErrorNamingTheFile) {
  const std::string missing = DataFile("no_such_mesh.obj");
  ExpectInputError([&] { LoadCollisionMesh(missing); }, missing, "not found");
  ExpectInputError([&] { LoadRenderMesh(missing); }, missing, "not found");
  const std::string flat = DataFile("flat.obj");
  ExpectInputError([&] { LoadCollisionMesh(flat); }, flat, "flat");
  const std::string garbage = DataFile("README.md");  // Not a mesh at all.
  ExpectInputError([&] { LoadCollisionMesh(garbage); }, garbage, "");
}

// A cube without its top face (10 triangles, 17 edges, the 4 of the top rim
// used once): contact uses the hull, so it loads as the closed cube does,
// and the open edges are counted for the note.
TEST(MeshLoaderTest, OpenSurfacesLoadThroughTheirHullAndCountTheOpenEdges) {
  const CollisionMesh open = LoadCollisionMesh(DataFile("open_box.obj"));
  const CollisionMesh closed = LoadCollisionMesh(DataFile("cube.obj"));
  EXPECT_EQ(open.num_input_triangles, 10);
  EXPECT_EQ(open.num_edges, 17);
  EXPECT_EQ(open.num_open_edges, 4);
  EXPECT_EQ(DescribeOpenSurface(open), "is not a closed surface: 4 of 17 edges are not shared by exactly two triangles");
  EXPECT_EQ(closed.num_open_edges, 0);
  EXPECT_EQ(DescribeOpenSurface(closed), "");
  // The same hull as the closed 0.1 m cube.
  ASSERT_EQ(open.hull.vertices_G.size(), 8u);
  EXPECT_EQ(open.hull.faces.size(), 6u);
  // Assimp reads single precision: 0.05f exactly.
  for (const Vector3& v : open.hull.vertices_G) EXPECT_EQ(v.cwiseAbs(), Vector3::Constant(double{0.05f}));
}

TEST(MeshLoaderTest, ConvexHullDropsInteriorPointsAndRejectsFlatSets) {
  std::vector<Vector3> points;
  for (int i = 0; i < 8; ++i) {
    points.emplace_back((i & 1) ? 1 : -1, (i & 2) ? 1 : -1, (i & 4) ? 1 : -1);
  }
  points.emplace_back(0.1, 0.2, 0.3);  // Interior.
  points.emplace_back(1, 0, 0);        // On a face: not a hull vertex.
  const ConvexHull hull = ComputeConvexHull(points, "test points");
  EXPECT_EQ(hull.vertices_G.size(), 8u);
  EXPECT_EQ(hull.faces.size(), 6u);
  ExpectValidHull(hull);

  std::vector<Vector3> flat{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0.5, 0.5, 0}};
  EXPECT_THROW(ComputeConvexHull(flat, "flat points"), InputError);
  EXPECT_THROW(ComputeConvexHull({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, "three"), InputError);
}

TEST(MeshLoaderTest, BoxHullIsValid) {
  const ConvexHull hull = MakeBoxHull(Vector3(0.3, 0.2, 0.1));
  EXPECT_EQ(hull.vertices_G.size(), 8u);
  EXPECT_EQ(hull.faces.size(), 6u);
  ExpectValidHull(hull);
}

GeometryDescription MeshGeometry(const std::string& path) {
  GeometryDescription g;
  g.name = "mesh";
  g.shape.type = ShapeType::kMesh;
  g.shape.mesh_file = path;
  return g;
}

// Every contact of `some` has a twin in `all`: point and depth within `tol`
// [m], the same normal (to 1e-12: both faces are the ground's).
void ExpectEveryContactIn(const std::vector<ContactPoint>& some, const std::vector<ContactPoint>& all, double tol) {
  for (const ContactPoint& a : some) {
    bool matched = false;
    for (const ContactPoint& b : all) {
      matched |= (a.p_W - b.p_W).norm() < tol && std::abs(a.phi - b.phi) < tol &&
                 (a.nhat_AB_W - b.nhat_AB_W).norm() < 1e-12;
    }
    EXPECT_TRUE(matched) << a.p_W.transpose();
  }
}

TEST(MeshLoaderTest, ObjCubeOnHalfSpaceMatchesPrimitiveBox) {
  GeometryDescription ground;
  ground.name = "ground";
  ground.shape.type = ShapeType::kHalfSpace;
  GeometryDescription box;
  box.name = "box";
  box.shape.type = ShapeType::kBox;
  box.shape.size = Vector3::Constant(0.1);
  RigidTransform X_WB;
  X_WB.R = Eigen::AngleAxisd(0.3, Vector3::UnitZ()).toRotationMatrix();
  X_WB.p = Vector3(0.2, -0.1, 0.05 - 1e-3);

  std::vector<ContactPoint> from_mesh, from_box;
  CollisionWorld mesh_world({{0, ground}, {1, MeshGeometry(DataFile("cube.obj"))}}, {});
  mesh_world.UpdatePoses({RigidTransform::Identity(), X_WB});
  mesh_world.ComputeContacts(1e-3, &from_mesh);
  CollisionWorld box_world({{0, ground}, {1, box}}, {});
  box_world.UpdatePoses({RigidTransform::Identity(), X_WB});
  box_world.ComputeContacts(1e-3, &from_box);
  ASSERT_EQ(from_box.size(), 4u);
  ASSERT_EQ(from_mesh.size(), from_box.size());
  // The mesh's float coordinates put its corners ~1e-9 m off the box's.
  ExpectEveryContactIn(from_mesh, from_box, 1e-8);
}

TEST(MeshLoaderTest, CollisionWorldUsesAnOpenMeshThroughItsHullWithOneNote) {
  const std::string open = DataFile("open_box.obj");
  GeometryDescription g = MeshGeometry(open);
  g.where = {"scene.yaml", 7};
  // Two instances of the file: one note (hulls are shared per file and scale).
  const CollisionWorld world({{1, g}, {2, g}}, {});
  ASSERT_EQ(world.notes().size(), 1u);
  EXPECT_EQ(world.notes()[0], "scene.yaml:7: mesh '" + open +
                                  "' is not a closed surface: 4 of 17 edges are not shared by exactly two "
                                  "triangles; contact uses its convex hull");
  ASSERT_NE(world.geometry(0).hull(), nullptr);
  EXPECT_EQ(world.geometry(0).hull(), world.geometry(1).hull());
  EXPECT_EQ(world.geometry(0).hull()->vertices_G.size(), 8u);
  // A closed mesh and a visual-only open one: no note (the viewer may draw
  // what contact does not use).
  GeometryDescription visual = g;
  visual.collision = false;
  EXPECT_TRUE(CollisionWorld({{1, MeshGeometry(DataFile("cube.obj"))}, {2, visual}}, {}).notes().empty());
}

// Every mesh that cannot be used is named, with the line that uses it, in
// one message: a user with a robot of many meshes fixes them all at once.
TEST(MeshLoaderTest, CollisionWorldReportsEveryBadMeshInOneMessage) {
  const std::string missing = DataFile("no_such_mesh.obj");
  const std::string flat = DataFile("flat.obj");
  GeometryDescription a = MeshGeometry(missing), b = MeshGeometry(DataFile("cube.obj")), c = MeshGeometry(flat);
  a.where = {"robot.urdf", 12};
  c.where = {"robot.urdf", 40};
  try {
    CollisionWorld world({{1, a}, {2, b}, {3, c}}, {});
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind("2 collision meshes cannot be used:\n", 0), 0u) << message;
    EXPECT_NE(message.find("\n  robot.urdf:12: mesh '" + missing + "': file not found"), std::string::npos) << message;
    EXPECT_NE(message.find("\n  robot.urdf:40: mesh '" + flat + "': "), std::string::npos) << message;
    EXPECT_NE(message.find("flat"), std::string::npos) << message;
  }
  // One bad mesh: the one line as it stands.
  try {
    CollisionWorld world({{1, a}}, {});
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("robot.urdf:12: mesh '" + missing + "': file not found", 0), 0u) << e.what();
  }
}

// ----------------------------------------------------------- in-memory meshes

// A 0.3 x 0.2 x 0.1 m box as MeshData, centred on G: vertex k has bits
// (x, y, z) = (k&1, k&2, k&4); outward counter-clockwise triangles.
std::shared_ptr<MeshData> BoxData(const std::string& name = "mesh 'box' of test") {
  auto mesh = std::make_shared<MeshData>();
  mesh->name = name;
  for (int k = 0; k < 8; ++k) {
    mesh->vertices_G.emplace_back(k & 1 ? 0.15 : -0.15, k & 2 ? 0.1 : -0.1, k & 4 ? 0.05 : -0.05);
  }
  mesh->triangles = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
                     {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
  return mesh;
}

TEST(MeshLoaderTest, InMemoryMeshGivesTheBoxHullAndAFlatShadedRenderMesh) {
  const std::shared_ptr<MeshData> box = BoxData();
  const CollisionMesh mesh = MakeCollisionMesh(*box, Vector3(1, 2, 1));
  EXPECT_EQ(mesh.num_input_vertices, 8);
  EXPECT_EQ(mesh.num_input_triangles, 12);
  ASSERT_EQ(mesh.hull.vertices_G.size(), 8u);
  ASSERT_EQ(mesh.hull.faces.size(), 6u);
  for (const Vector3& v : mesh.hull.vertices_G) {
    // Exact in double: the scale doubles y, nothing else touches the values.
    EXPECT_EQ(v.cwiseAbs(), Vector3(0.15, 0.2, 0.05));
  }
  ExpectValidHull(mesh.hull);

  // Flat shading: three vertices of its own per triangle, all with the
  // triangle's outward normal (an axis here).
  const RenderMesh render = MakeRenderMesh(*box);
  ASSERT_EQ(render.indices.size(), 36u);
  ASSERT_EQ(render.positions_G.size(), 36u);
  ASSERT_EQ(render.normals_G.size(), 36u);
  for (size_t i = 0; i < 36; ++i) {
    const Eigen::Vector3f& n = render.normals_G[i];
    EXPECT_NEAR(n.cwiseAbs().maxCoeff(), 1.0f, 1e-6f);
    EXPECT_NEAR(n.cwiseAbs().sum(), 1.0f, 1e-6f);
    EXPECT_GT(n.dot(render.positions_G[i]), 0.0f);  // Outward.
  }
  // The same through the shape, as the viewer and CollisionWorld call it.
  ShapeDescription shape;
  shape.type = ShapeType::kMesh;
  shape.mesh_data = box;
  EXPECT_EQ(LoadRenderMesh(shape).indices.size(), 36u);
  EXPECT_EQ(LoadCollisionMesh(shape).hull.faces.size(), 6u);
  EXPECT_EQ(MeshWhat(shape), "mesh 'box' of test");
  shape.mesh_data = nullptr;
  shape.mesh_file = "/a/b.obj";
  EXPECT_EQ(MeshWhat(shape), "mesh '/a/b.obj'");
}

// The key depends on name and content only: equal copies share it (the
// viewer uploads one GPU mesh for them, also after a reload), any changed
// coordinate, index or name changes it.
TEST(MeshLoaderTest, MeshDataKeyFollowsNameAndContent) {
  const std::shared_ptr<MeshData> a = BoxData(), b = BoxData();
  EXPECT_EQ(MeshDataKey(*a), MeshDataKey(*b));
  EXPECT_EQ(MeshDataKey(*a).rfind("mesh 'box' of test#", 0), 0u) << MeshDataKey(*a);
  b->vertices_G[3].z() = std::nextafter(b->vertices_G[3].z(), 1.0);
  EXPECT_NE(MeshDataKey(*a), MeshDataKey(*b));
  const std::shared_ptr<MeshData> c = BoxData();
  std::swap(c->triangles[0][1], c->triangles[0][2]);
  EXPECT_NE(MeshDataKey(*a), MeshDataKey(*c));
  EXPECT_NE(MeshDataKey(*a), MeshDataKey(*BoxData("mesh 'box' of other")));
}

// What an importer hands over unchecked is refused with the mesh's name.
TEST(MeshLoaderTest, BadInMemoryMeshesThrowInputErrorNamingTheMesh) {
  const std::string name = "mesh 'box' of robot.xml";
  // The message is "<name>: <reason>", one line.
  auto expect_error = [&](auto call, const std::string& reason) {
    try {
      call();
      ADD_FAILURE() << "no InputError for " << reason;
    } catch (const InputError& e) {
      const std::string message = e.what();
      EXPECT_EQ(message.rfind(name + ": ", 0), 0u) << message;
      EXPECT_NE(message.find(reason), std::string::npos) << message;
      EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
  };
  auto expect = [&](const MeshData& mesh, const std::string& reason, bool also_render = true) {
    expect_error([&] { MakeCollisionMesh(mesh); }, reason);
    if (also_render) expect_error([&] { MakeRenderMesh(mesh); }, reason);
  };
  MeshData nan = *BoxData(name);
  nan.vertices_G[5].y() = std::numeric_limits<double>::quiet_NaN();
  expect(nan, "vertex 5 is not finite");
  MeshData inf = *BoxData(name);
  inf.vertices_G[0].x() = std::numeric_limits<double>::infinity();
  expect(inf, "vertex 0 is not finite");
  MeshData no_faces = *BoxData(name);
  no_faces.triangles.clear();
  expect(no_faces, "has no triangles");
  MeshData out_of_range = *BoxData(name);
  out_of_range.triangles[4][2] = 8;
  expect(out_of_range, "triangle 4 refers to vertex 8, but the mesh has 8 vertices");
  MeshData negative = *BoxData(name);
  negative.triangles[0][0] = -1;
  expect(negative, "refers to vertex -1");
  MeshData degenerate = *BoxData(name);
  for (auto& tri : degenerate.triangles) tri = {1, 1, 2};
  expect(degenerate, "only degenerate triangles");
  expect_error([&] { MakeCollisionMesh(*BoxData(name), Vector3(1, 0, 1)); }, "scale must be non-zero");
  // A flat mesh cannot collide (no hull) but can be drawn.
  MeshData flat = *BoxData(name);
  for (Vector3& v : flat.vertices_G) v.z() = 0;
  expect(flat, "is flat", /*also_render=*/false);
  EXPECT_FALSE(MakeRenderMesh(flat).indices.empty());
}

// In a CollisionWorld an in-memory box mesh touches the ground exactly as
// the primitive box does (both go through the same polytope manifold), and
// the hull is computed once for all geometries sharing the MeshData.
TEST(MeshLoaderTest, InMemoryBoxOnHalfSpaceMatchesPrimitiveBox) {
  GeometryDescription ground;
  ground.name = "ground";
  ground.shape.type = ShapeType::kHalfSpace;
  GeometryDescription box;
  box.name = "box";
  box.shape.type = ShapeType::kBox;
  box.shape.size = Vector3(0.3, 0.2, 0.1);
  GeometryDescription mesh;
  mesh.name = "mesh";
  mesh.shape.type = ShapeType::kMesh;
  mesh.shape.mesh_data = BoxData();
  RigidTransform X_WB;
  X_WB.R = Eigen::AngleAxisd(0.3, Vector3::UnitZ()).toRotationMatrix();
  X_WB.p = Vector3(0.2, -0.1, 0.05 - 1e-3);

  std::vector<ContactPoint> from_mesh, from_box;
  CollisionWorld mesh_world({{0, ground}, {1, mesh}, {2, mesh}}, {});
  EXPECT_EQ(mesh_world.geometry(1).hull(), mesh_world.geometry(2).hull());
  RigidTransform far = X_WB;
  far.p.x() += 5;
  mesh_world.UpdatePoses({RigidTransform::Identity(), X_WB, far});
  mesh_world.ComputeContacts(1e-3, &from_mesh);
  CollisionWorld box_world({{0, ground}, {1, box}}, {});
  box_world.UpdatePoses({RigidTransform::Identity(), X_WB});
  box_world.ComputeContacts(1e-3, &from_box);
  ASSERT_EQ(from_box.size(), 4u);
  ASSERT_EQ(from_mesh.size(), 8u);  // Both instances.
  // The same double-precision corners: only rounding differs.
  ExpectEveryContactIn(from_box, from_mesh, 1e-12);
}

// A CollisionWorld names the geometry and the mesh of a bad in-memory mesh.
TEST(MeshLoaderTest, CollisionWorldReportsBadInMemoryMeshes) {
  GeometryDescription g;
  g.name = "slab";
  g.shape.type = ShapeType::kMesh;
  auto bad = BoxData("mesh 'slab' of robot.xml");
  bad->vertices_G[2].x() = std::numeric_limits<double>::quiet_NaN();
  g.shape.mesh_data = bad;
  g.where = {"robot.xml", 0};
  try {
    CollisionWorld world({{1, g}}, {});
    ADD_FAILURE() << "no InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "robot.xml: mesh 'slab' of robot.xml: vertex 2 is not finite (nan 0.1 -0.05)");
  }
}

}  // namespace
}  // namespace stiction
