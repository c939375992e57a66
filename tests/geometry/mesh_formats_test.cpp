// One shape written as STL, OBJ, PLY and Collada (z-up and y-up, metres and
// millimetres) loads to the same vertices: meshes are read in their authored
// frame and units, z up (mesh_loader.h). Assimp turns a Collada file's up
// axis into +y; without undoing that, a z-up DAE link was drawn and collided
// rotated by -90 degrees about x (issue 34).
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "engine/geometry/mesh_loader.h"
#include "tests/support/scratch_dir.h"

namespace stiction {
namespace {

// An off-centre box, longer in z than in y than in x, so that any rotation
// or scaling of the file moves its vertices: x in [0.1, 0.3], y in
// [-0.05, 0.15], z in [0.2, 0.6] m. Corner i has bit 0 for x, 1 for y, 2 for z.
Vector3 Corner(int i) {
  return Vector3((i & 1) ? 0.3 : 0.1, (i & 2) ? 0.15 : -0.05, (i & 4) ? 0.6 : 0.2);
}

// The 12 triangles of the box, outward (counter-clockwise seen from outside).
std::vector<std::array<int, 3>> Triangles() {
  // Each face as a quad, counter-clockwise seen from outside.
  const int quads[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                           {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  std::vector<std::array<int, 3>> tris;
  for (const auto& q : quads) {
    tris.push_back({q[0], q[1], q[2]});
    tris.push_back({q[0], q[2], q[3]});
  }
  return tris;
}

std::string Num(double x) { return std::to_string(x); }

std::string AsStl() {
  std::string s = "solid box\n";
  for (const auto& t : Triangles()) {
    s += " facet normal 0 0 0\n  outer loop\n";
    for (int i : t) s += "   vertex " + Num(Corner(i).x()) + " " + Num(Corner(i).y()) + " " + Num(Corner(i).z()) + "\n";
    s += "  endloop\n endfacet\n";
  }
  return s + "endsolid box\n";
}

std::string AsObj() {
  std::string s;
  for (int i = 0; i < 8; ++i) s += "v " + Num(Corner(i).x()) + " " + Num(Corner(i).y()) + " " + Num(Corner(i).z()) + "\n";
  for (const auto& t : Triangles()) s += "f " + std::to_string(t[0] + 1) + " " + std::to_string(t[1] + 1) + " " + std::to_string(t[2] + 1) + "\n";
  return s;
}

std::string AsPly() {
  std::string s = "ply\nformat ascii 1.0\nelement vertex 8\nproperty float x\nproperty float y\nproperty float z\n"
                  "element face 12\nproperty list uchar int vertex_indices\nend_header\n";
  for (int i = 0; i < 8; ++i) s += Num(Corner(i).x()) + " " + Num(Corner(i).y()) + " " + Num(Corner(i).z()) + "\n";
  for (const auto& t : Triangles()) s += "3 " + std::to_string(t[0]) + " " + std::to_string(t[1]) + " " + std::to_string(t[2]) + "\n";
  return s;
}

// The box as Collada with `up_axis`, lengths in units of `meter` metres. A
// y-up file writes the z-up point (x, y, z) as (x, z, -y): its up axis, +y,
// is the box's +z.
std::string AsCollada(const std::string& up_axis, double meter) {
  std::string positions;
  for (int i = 0; i < 8; ++i) {
    const Vector3 p = Corner(i) / meter;
    const Vector3 f = up_axis == "Y_UP" ? Vector3(p.x(), p.z(), -p.y()) : p;
    positions += Num(f.x()) + " " + Num(f.y()) + " " + Num(f.z()) + " ";
  }
  std::string indices;
  for (const auto& t : Triangles()) indices += std::to_string(t[0]) + " " + std::to_string(t[1]) + " " + std::to_string(t[2]) + " ";
  return R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="unit" meter=")" + Num(meter) + R"("/><up_axis>)" + up_axis + R"(</up_axis></asset>
  <library_geometries>
    <geometry id="box" name="box"><mesh>
      <source id="box-positions">
        <float_array id="box-positions-array" count="24">)" + positions + R"(</float_array>
        <technique_common><accessor source="#box-positions-array" count="8" stride="3">
          <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
        </accessor></technique_common>
      </source>
      <vertices id="box-vertices"><input semantic="POSITION" source="#box-positions"/></vertices>
      <triangles count="12"><input semantic="VERTEX" source="#box-vertices" offset="0"/><p>)" + indices + R"(</p></triangles>
    </mesh></geometry>
  </library_geometries>
  <library_visual_scenes>
    <visual_scene id="scene" name="scene">
      <node id="box-node" name="box" type="NODE"><instance_geometry url="#box"/></node>
    </visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#scene"/></scene>
</COLLADA>
)";
}

std::vector<Vector3> Sorted(std::vector<Vector3> points) {
  std::sort(points.begin(), points.end(), [](const Vector3& a, const Vector3& b) {
    return std::lexicographical_compare(a.data(), a.data() + 3, b.data(), b.data() + 3);
  });
  return points;
}

class MeshFormatsTest : public test::ScratchDirTest {};

TEST_F(MeshFormatsTest, OneBoxInEveryFormatLoadsToTheSameVertices) {
  std::vector<Vector3> corners;
  for (int i = 0; i < 8; ++i) corners.push_back(Corner(i));
  const std::vector<Vector3> expected = Sorted(corners);
  const std::vector<std::pair<std::string, std::string>> files = {
      {"box.stl", AsStl()},
      {"box.obj", AsObj()},
      {"box.ply", AsPly()},
      {"box_z_up.dae", AsCollada("Z_UP", 1.0)},
      {"box_y_up.dae", AsCollada("Y_UP", 1.0)},
      {"box_z_up_mm.dae", AsCollada("Z_UP", 0.001)},
  };
  for (const auto& [name, text] : files) {
    SCOPED_TRACE(name);
    const std::string path = Write(name, text);
    const CollisionMesh collision = LoadCollisionMesh(path);
    EXPECT_EQ(collision.num_input_vertices, 8);
    EXPECT_EQ(collision.num_input_triangles, 12);
    const std::vector<Vector3> hull = Sorted(collision.hull.vertices_G);
    ASSERT_EQ(hull.size(), expected.size());
    // The files hold 6 decimals and Assimp reads floats: ~1e-7 m apart.
    for (size_t i = 0; i < hull.size(); ++i) EXPECT_LT((hull[i] - expected[i]).norm(), 1e-6) << hull[i].transpose();

    const RenderMesh render = LoadRenderMesh(path);
    ASSERT_FALSE(render.positions_G.empty());
    Eigen::Vector3f lo = render.positions_G[0], hi = render.positions_G[0];
    for (const Eigen::Vector3f& p : render.positions_G) {
      lo = lo.cwiseMin(p);
      hi = hi.cwiseMax(p);
    }
    EXPECT_LT((lo.cast<double>() - Corner(0)).norm(), 1e-6) << lo.transpose();
    EXPECT_LT((hi.cast<double>() - Corner(7)).norm(), 1e-6) << hi.transpose();
  }
}

// A negative scale mirrors (URDF `scale="1 -1 1"`: Talos draws its left and
// right arm from one file): the hull is the mirrored box and the drawn
// triangles stay counter-clockwise seen from outside, their winding agreeing
// with their normals.
TEST_F(MeshFormatsTest, NegativeScaleMirrorsTheMeshKeepingTrianglesOutward) {
  const Vector3 mirror(1, -1, 1);
  std::vector<Vector3> corners;
  for (int i = 0; i < 8; ++i) corners.push_back(mirror.cwiseProduct(Corner(i)));
  const std::vector<Vector3> expected = Sorted(corners);
  const std::string path = Write("box.obj", AsObj());
  const std::vector<Vector3> hull = Sorted(LoadCollisionMesh(path, mirror).hull.vertices_G);
  ASSERT_EQ(hull.size(), expected.size());
  for (size_t i = 0; i < hull.size(); ++i) EXPECT_LT((hull[i] - expected[i]).norm(), 1e-6) << hull[i].transpose();

  const Eigen::Vector3f centre = (0.5 * (mirror.cwiseProduct(Corner(0)) + mirror.cwiseProduct(Corner(7)))).cast<float>();
  const RenderMesh render = LoadRenderMesh(path, mirror);
  ASSERT_EQ(render.indices.size(), 36u);
  for (size_t t = 0; t < render.indices.size(); t += 3) {
    const Eigen::Vector3f& a = render.positions_G[render.indices[t]];
    const Eigen::Vector3f& b = render.positions_G[render.indices[t + 1]];
    const Eigen::Vector3f& c = render.positions_G[render.indices[t + 2]];
    const Eigen::Vector3f n = (b - a).cross(c - a);
    EXPECT_GT(n.dot((a + b + c) / 3 - centre), 0) << "triangle " << t / 3 << " faces inward";
    EXPECT_GT(n.dot(render.normals_G[render.indices[t]]), 0) << "triangle " << t / 3;
  }
}

}  // namespace
}  // namespace stiction
