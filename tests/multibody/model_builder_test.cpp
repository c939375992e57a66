#include "engine/multibody/model_builder.h"

#include <gtest/gtest.h>

#include "engine/common/error.h"
#include "engine/scene/scene_loader.h"

namespace stiction {
namespace {

SceneDescription Load(const std::string& yaml) {
  return LoadSceneString(yaml, "test.yaml");
}

TEST(ModelBuilderTest, ReordersBodiesIntoContiguousTrees) {
  // Bodies listed interleaved: a1 (tree A), b1 (tree B), a2 (child of a1).
  const SceneDescription scene = Load(R"(
bodies:
  - {name: a1, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
  - {name: b1, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
  - {name: a2, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
joints:
  - {name: ja1, type: revolute, parent: world, child: a1, axis: [0, 0, 1], initial: {position: 0.3}}
  - {name: ja2, type: prismatic, parent: a1, child: a2, axis: [1, 0, 0], initial: {position: -0.2, velocity: 2}}
)");
  const BuiltModel built = BuildModel(scene);
  const MultibodyModel& m = *built.model;
  ASSERT_EQ(m.num_bodies(), 4);
  ASSERT_EQ(m.num_trees(), 2);
  EXPECT_EQ(m.body(1).name, "a1");
  EXPECT_EQ(m.body(2).name, "a2");
  EXPECT_EQ(m.body(3).name, "b1");  // Free body: its own tree, last.
  EXPECT_EQ(m.tree(0).nv, 2);
  EXPECT_EQ(m.tree(1).nv, 6);
  EXPECT_DOUBLE_EQ(built.q0[0], 0.3);
  EXPECT_DOUBLE_EQ(built.q0[1], -0.2);
  EXPECT_DOUBLE_EQ(built.v0[1], 2.0);
  EXPECT_DOUBLE_EQ(built.q0[2], 1.0);  // b1's identity quaternion.
}

TEST(ModelBuilderTest, FreeBodyInitialStateComesFromThePose) {
  const SceneDescription scene = Load(R"(
bodies:
  - name: box
    mass: 2
    geometry: [{shape: {type: box, size: [0.1, 0.2, 0.3]}}]
    pose: {position: [1, 2, 3], rpy: [0, 0, 1.5707963267948966]}
    velocity: {linear: [0.5, 0, 0], angular: [0, 0, 2]}
)");
  const BuiltModel built = BuildModel(scene);
  ASSERT_EQ(built.q0.size(), 7);
  EXPECT_TRUE(built.q0.tail<3>().isApprox(Vector3(1, 2, 3)));
  // 90° about z: q = (cos 45°, 0, 0, sin 45°).
  EXPECT_NEAR(built.q0[0], std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(built.q0[3], std::sqrt(0.5), 1e-15);
  // ω about world z is also about body z after a yaw.
  EXPECT_NEAR(built.v0[2], 2.0, 1e-15);
  EXPECT_DOUBLE_EQ(built.v0[3], 0.5);
}

TEST(ModelBuilderTest, PropagatesModelErrorsWithTheSceneLocation) {
  SceneDescription scene = Load(R"(
bodies:
  - {name: a, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
)");
  scene.bodies[0].I_Bcm_B(0, 1) = 5;  // Not symmetric: only the model can tell.
  try {
    BuildModel(scene);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("test.yaml:3"), std::string::npos) << e.what();
  }
}

TEST(ModelBuilderTest, RefusesDuplicateOrReservedBodyNamesAnImporterMade) {
  // The loader refuses these in a scene file; a robot file's own names (a
  // URDF link called 'world', an MJCF name equal to a generated one) reach
  // the model builder, which is their only check.
  SceneDescription scene = Load(R"(
bodies:
  - {name: a, mass: 1, inertia: {ixx: 1, iyy: 1, izz: 1}}
)");
  scene.bodies.push_back(scene.bodies[0]);
  JointDescription joint = scene.joints[0];
  joint.name = "a_free_2";
  scene.joints.push_back(joint);
  EXPECT_THROW(
      {
        try {
          BuildModel(scene);
        } catch (const InputError& e) {
          EXPECT_STREQ(e.what(), "test.yaml:3: bodies: duplicate or reserved body name 'a'");
          throw;
        }
      },
      InputError);
  scene.bodies[1].name = "world";
  scene.joints[1].child = "world";
  EXPECT_THROW(BuildModel(scene), InputError);
}

}  // namespace
}  // namespace stiction
