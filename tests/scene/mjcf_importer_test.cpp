// MJCF import through MuJoCo's own compiler: supported elements arrive with
// MuJoCo's compiled numbers, MuJoCo's refusals keep its message (with the
// line), and every skipped element gets one note naming it.
#include "engine/scene/mjcf_importer.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/common/error.h"
#include "engine/scene/scene_loader.h"
#include "engine/simulation.h"
#include "tests/scene/scratch_dir_test.h"

namespace stiction {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class MjcfImporterTest : public test::ScratchDirTest {
 protected:
  static std::string MessageOf(const std::string& path) {
    try {
      ImportMjcf(path);
    } catch (const InputError& e) {
      return e.what();
    }
    return "(no error)";
  }
};

const JointDescription& Joint(const RobotDescription& r, const std::string& name) {
  for (const JointDescription& j : r.joints) {
    if (j.name == name) return j;
  }
  throw std::runtime_error("no joint " + name);
}

constexpr char kModel[] = R"(<mujoco model="sample">
  <compiler angle="radian"/>
  <option gravity="0 0 -5" timestep="0.004"/>
  <worldbody>
    <geom name="floor" type="plane" size="1 1 0.1" rgba="0.2 0.3 0.4 1" friction="0.7"/>
    <body name="cart" pos="0 0 0.2">
      <joint name="slider" type="slide" axis="1 0 0" limited="true" range="-0.5 0.5" damping="2" armature="0.1"/>
      <geom name="cart_box" type="box" size="0.1 0.05 0.02" mass="1"/>
      <body name="pole" pos="0 0 0.02">
        <joint name="hinge" type="hinge" axis="0 1 0" ref="0.2" limited="true" range="-1 1" stiffness="3" springref="0.5"/>
        <geom name="pole_capsule" type="capsule" fromto="0 0 0 0 0 0.4" size="0.02" mass="0.2"/>
        <geom name="pole_tip" type="ellipsoid" size="0.03 0.02 0.02" pos="0 0 0.4" mass="0.01"/>
      </body>
    </body>
    <body name="ball" pos="1 0 0.5">
      <freejoint name="ball_free"/>
      <geom type="sphere" size="0.05" mass="0.3" contype="0" conaffinity="0" group="1"/>
    </body>
    <body name="anchor" pos="0 1 0.5">
      <geom type="cylinder" size="0.02 0.1" mass="0.1"/>
    </body>
  </worldbody>
  <equality>
    <connect name="tie" body1="ball" body2="anchor" anchor="0 0 0"/>
    <weld name="glue" body1="anchor" body2="cart"/>
  </equality>
  <tendon><fixed name="t"><joint joint="slider" coef="1"/></fixed></tendon>
  <actuator>
    <position name="servo" joint="hinge" kp="50" forcelimited="true" forcerange="-4 4"/>
    <velocity name="damper" joint="slider" kv="3"/>
    <motor name="push" joint="slider" gear="2"/>
  </actuator>
</mujoco>
)";

TEST_F(MjcfImporterTest, CompiledModelArrivesWithMuJoCosNumbers) {
  const RobotDescription r = ImportMjcf(Write("sample.xml", kModel));
  EXPECT_EQ(r.format, "MJCF");
  EXPECT_TRUE(r.gravity.isApprox(Vector3(0, 0, -5)));
  EXPECT_DOUBLE_EQ(r.time_step, 0.004);
  ASSERT_EQ(r.bodies.size(), 4u);  // cart, pole, ball, anchor.

  const JointDescription& slider = Joint(r, "slider");
  EXPECT_EQ(slider.type, JointType::kPrismatic);
  EXPECT_EQ(slider.parent, "world");
  EXPECT_TRUE(slider.X_PF.p.isApprox(Vector3(0, 0, 0.2)));
  EXPECT_DOUBLE_EQ(slider.lower_limit, -0.5);
  EXPECT_DOUBLE_EQ(slider.damping, 2);
  EXPECT_DOUBLE_EQ(slider.rotor_inertia, 0.1);

  // Hinge coordinates are measured from MuJoCo's ref (qpos0 = 0.2).
  const JointDescription& hinge = Joint(r, "hinge");
  EXPECT_EQ(hinge.type, JointType::kRevolute);
  EXPECT_EQ(hinge.parent, "cart");
  EXPECT_NEAR(hinge.lower_limit, -1.2, 1e-15);
  EXPECT_NEAR(hinge.upper_limit, 0.8, 1e-15);
  EXPECT_DOUBLE_EQ(hinge.spring_stiffness, 3);
  EXPECT_NEAR(hinge.spring_reference, 0.3, 1e-15);

  const JointDescription& free = Joint(r, "ball_free");
  EXPECT_EQ(free.type, JointType::kFree);
  ASSERT_EQ(free.initial_q.size(), 7u);  // [quaternion; position] from qpos0.
  EXPECT_DOUBLE_EQ(free.initial_q[0], 1);
  EXPECT_DOUBLE_EQ(free.initial_q[4], 1);
  EXPECT_DOUBLE_EQ(free.initial_q[6], 0.5);
  EXPECT_EQ(Joint(r, "anchor_weld").type, JointType::kFixed);  // No joint: welded.

  // Geometry: the floor is a half-space of the world with its friction.
  ASSERT_EQ(r.world_geometries.size(), 1u);
  EXPECT_EQ(r.world_geometries[0].shape.type, ShapeType::kHalfSpace);
  EXPECT_TRUE(r.world_geometries[0].color.isApprox(Vector4(0.2, 0.3, 0.4, 1), 1e-6));
  EXPECT_DOUBLE_EQ(r.geometry_friction.at("floor"), 0.7);
  const GeometryDescription& capsule = r.bodies[1].geometries.at(0);
  EXPECT_EQ(capsule.shape.type, ShapeType::kCapsule);
  EXPECT_DOUBLE_EQ(capsule.shape.length, 0.4);
  EXPECT_DOUBLE_EQ(capsule.shape.radius, 0.02);
  const GeometryDescription& sphere = r.bodies[2].geometries.at(0);
  EXPECT_FALSE(sphere.collision);  // contype = conaffinity = 0.
  EXPECT_TRUE(sphere.visual);      // Group 1 is shown.

  // Equalities: connect → ball constraint, weld → weld at the qpos0 pose.
  ASSERT_EQ(r.constraints.size(), 2u);
  EXPECT_EQ(r.constraints[0].type, BodyConstraintType::kBall);
  EXPECT_EQ(r.constraints[0].body_a, "ball");
  EXPECT_EQ(r.constraints[1].type, BodyConstraintType::kWeld);
  // anchor at (0, 1, 0.5), cart at (0, 0, 0.2): the cart's frame in the anchor's... Fb = X_BA.
  EXPECT_TRUE(r.constraints[1].X_BFb.p.isApprox(Vector3(0, 1, 0.3)));

  // Actuators: the position servo (kp, force limit) and the velocity servo.
  ASSERT_EQ(r.actuators.size(), 2u);
  EXPECT_EQ(r.actuators[0].name, "servo");
  EXPECT_EQ(r.actuators[0].joint, "hinge");
  EXPECT_DOUBLE_EQ(r.actuators[0].kp, 50);
  EXPECT_DOUBLE_EQ(r.actuators[0].effort_limit, 4);
  EXPECT_NEAR(r.actuators[0].target_position, -0.2, 1e-15);  // ctrl = 0 is q_mj = 0.
  EXPECT_DOUBLE_EQ(r.actuators[1].kd, 3);
  EXPECT_DOUBLE_EQ(r.actuators[1].kp, 0);

  // One note per skipped element, naming it.
  std::string notes;
  for (const std::string& n : r.notes) notes += n + "\n";
  EXPECT_THAT(notes, HasSubstr("geom 'pole_tip' (body 'pole') skipped: Stiction has no ellipsoids"));
  EXPECT_THAT(notes, HasSubstr("actuator 'push' skipped"));
  EXPECT_THAT(notes, HasSubstr("1 tendon(s) skipped"));
}

TEST_F(MjcfImporterTest, MuJoCosRefusalKeepsItsMessageAndLine) {
  const std::string path = Write("bad.xml", "<mujoco>\n  <worldbody>\n    <body><joint type=\"spin\"/></body>\n  </worldbody>\n</mujoco>\n");
  const std::string message = MessageOf(path);
  EXPECT_THAT(message, HasSubstr("bad.xml: MuJoCo refused the model"));
  EXPECT_THAT(message, HasSubstr("line 3"));
  EXPECT_THAT(MessageOf((dir_ / "none.xml").string()), HasSubstr("cannot open the MJCF file (no such file)"));
  EXPECT_THAT(MessageOf(Write("garbage.xml", "<mujoco><worldbody>")), HasSubstr("MuJoCo refused the model"));
}

TEST_F(MjcfImporterTest, SeveralJointsOnOneBodyAreRefusedByName) {
  const std::string path = Write("two.xml", R"(<mujoco>
  <worldbody>
    <body name="gimbal">
      <joint name="a" axis="1 0 0"/><joint name="b" axis="0 1 0"/>
      <geom type="sphere" size="0.1"/>
    </body>
  </worldbody>
</mujoco>
)");
  EXPECT_THAT(MessageOf(path), HasSubstr("body 'gimbal' has 2 joints"));
}

TEST_F(MjcfImporterTest, AnMjcfRobotInASceneSimulates) {
  const std::string path = Write("sample.xml", kModel);
  const SceneDescription scene =
      LoadSceneString("robots:\n  - file: " + path + "\n    name: m\n", "scene.yaml", dir_.string());
  Simulation sim(scene);
  EXPECT_EQ(sim.model().num_velocities(), 1 + 1 + 6);
  EXPECT_EQ(sim.actuator_names(), (std::vector<std::string>{"m/servo", "m/damper"}));
  for (int i = 0; i < 10; ++i) ASSERT_EQ(sim.Step().status, StepStatus::kSuccess);
  // The floor's friction became a material on top of the default one.
  const std::vector<std::string> materials = sim.material_names();
  EXPECT_NE(std::find(materials.begin(), materials.end(), "m/friction_0.7"), materials.end());
}

}  // namespace
}  // namespace stiction
