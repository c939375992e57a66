// URDF import through liburdfdom: every supported element arrives in the
// description with the file's numbers; every refusal names FILE:LINE and a
// reason; what is skipped is noted.
#include "engine/scene/urdf_importer.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/common/error.h"
#include "engine/scene/package_path.h"
#include "engine/scene/scene_loader.h"
#include "engine/simulation.h"
#include "tests/support/scratch_dir.h"

namespace stiction {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

class UrdfImporterTest : public test::ScratchDirTest {
 protected:
  static std::string MessageOf(const std::string& path, const UrdfImportOptions& options = {}) {
    try {
      ImportUrdf(path, options);
    } catch (const InputError& e) {
      return e.what();
    }
    return "(no error)";
  }
};

const BodyDescription& Body(const RobotDescription& r, const std::string& name) {
  for (const BodyDescription& b : r.bodies) {
    if (b.name == name) return b;
  }
  throw std::runtime_error("no body " + name);
}
const JointDescription& Joint(const RobotDescription& r, const std::string& name) {
  for (const JointDescription& j : r.joints) {
    if (j.name == name) return j;
  }
  throw std::runtime_error("no joint " + name);
}

// A robot with every supported element. Line numbers matter to the tests
// below: keep the layout.
constexpr char kRobot[] = R"(<?xml version="1.0"?>
<robot name="sample">
  <material name="red"><color rgba="1 0 0 1"/></material>
  <link name="base">
    <inertial><origin xyz="0 0 0.1"/><mass value="2"/>
      <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.2" iyz="0" izz="0.3"/></inertial>
    <collision><geometry><box size="0.2 0.3 0.4"/></geometry></collision>
    <visual><origin xyz="0 0 0.05"/><geometry><cylinder radius="0.1" length="0.2"/></geometry><material name="red"/></visual>
  </link>
  <joint name="hinge" type="revolute">
    <parent link="base"/><child link="arm"/>
    <origin xyz="0 0 0.5" rpy="0 0 1.5707963267948966"/>
    <axis xyz="0 2 0"/>
    <limit lower="-1" upper="2" effort="30" velocity="4"/>
    <dynamics damping="0.5" friction="0.1"/>
  </joint>
  <link name="arm">
    <inertial><origin xyz="0.1 0 0" rpy="0 0 1.5707963267948966"/><mass value="1"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.03"/></inertial>
    <collision><geometry><sphere radius="0.05"/></geometry></collision>
  </link>
  <joint name="tool_mount" type="fixed">
    <parent link="arm"/><child link="tool"/>
    <origin xyz="0.2 0 0"/>
  </joint>
  <link name="tool">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
  </link>
  <joint name="spin" type="continuous">
    <parent link="base"/><child link="wheel"/>
    <axis xyz="0 0 1"/>
  </joint>
  <link name="wheel">
    <inertial><mass value="0.5"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
  </link>
  <joint name="rail" type="prismatic">
    <parent link="base"/><child link="carriage"/>
    <axis xyz="1 0 0"/>
    <limit lower="0" upper="0.3" effort="100" velocity="1"/>
    <mimic joint="hinge" multiplier="2"/>
  </joint>
  <link name="carriage">
    <inertial><mass value="0.5"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
  </link>
  <joint name="loose" type="floating">
    <parent link="base"/><child link="ball"/>
  </joint>
  <link name="ball">
    <inertial><mass value="0.1"/><inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial>
  </link>
</robot>
)";

TEST_F(UrdfImporterTest, EverySupportedElementArrivesWithTheFilesNumbers) {
  const std::string path = Write("sample.urdf", kRobot);
  const RobotDescription r = ImportUrdf(path);
  EXPECT_EQ(r.format, "URDF");
  EXPECT_EQ(r.name, "sample");
  ASSERT_EQ(r.bodies.size(), 6u);

  const BodyDescription& base = Body(r, "base");
  EXPECT_DOUBLE_EQ(base.mass, 2.0);
  EXPECT_TRUE(base.com_B.isApprox(Vector3(0, 0, 0.1)));
  EXPECT_TRUE(base.I_Bcm_B.isApprox(Vector3(0.1, 0.2, 0.3).asDiagonal().toDenseMatrix()));
  EXPECT_EQ(base.where.line, 4);  // <link name="base">.
  ASSERT_EQ(base.geometries.size(), 2u);
  const GeometryDescription& box = base.geometries[0];
  EXPECT_EQ(box.shape.type, ShapeType::kBox);
  EXPECT_TRUE(box.shape.size.isApprox(Vector3(0.2, 0.3, 0.4)));
  EXPECT_TRUE(box.collision);
  EXPECT_FALSE(box.visual);  // The link has a visual of its own.
  EXPECT_EQ(box.where.line, 7);
  const GeometryDescription& cylinder = base.geometries[1];
  EXPECT_EQ(cylinder.shape.type, ShapeType::kCylinder);
  EXPECT_DOUBLE_EQ(cylinder.shape.radius, 0.1);
  EXPECT_DOUBLE_EQ(cylinder.shape.length, 0.2);
  EXPECT_FALSE(cylinder.collision);
  EXPECT_TRUE(cylinder.visual);
  EXPECT_TRUE(cylinder.color.isApprox(Vector4(1, 0, 0, 1)));  // The named material.
  EXPECT_TRUE(cylinder.X_BG.p.isApprox(Vector3(0, 0, 0.05)));

  // The root is welded to the robot frame by default.
  const JointDescription& root = Joint(r, "base_weld");
  EXPECT_EQ(root.type, JointType::kFixed);
  EXPECT_EQ(root.parent, "world");

  const JointDescription& hinge = Joint(r, "hinge");
  EXPECT_EQ(hinge.type, JointType::kRevolute);
  EXPECT_EQ(hinge.parent, "base");
  EXPECT_EQ(hinge.child, "arm");
  EXPECT_TRUE(hinge.axis.isApprox(Vector3(0, 1, 0)));  // Normalized.
  EXPECT_DOUBLE_EQ(hinge.lower_limit, -1);
  EXPECT_DOUBLE_EQ(hinge.upper_limit, 2);
  EXPECT_DOUBLE_EQ(hinge.damping, 0.5);
  EXPECT_TRUE(hinge.X_PF.p.isApprox(Vector3(0, 0, 0.5)));
  EXPECT_TRUE((hinge.X_PF.R * Vector3::UnitX()).isApprox(Vector3::UnitY(), 1e-12));  // rpy yaw 90°.
  EXPECT_EQ(hinge.where.line, 10);
  EXPECT_DOUBLE_EQ(r.joint_limits.at("hinge").effort, 30);
  EXPECT_DOUBLE_EQ(r.joint_limits.at("hinge").velocity, 4);

  // The fixed child's mass moves into 'arm' (parallel axes); 'tool' keeps
  // its frame and no mass.
  const BodyDescription& arm = Body(r, "arm");
  const BodyDescription& tool = Body(r, "tool");
  EXPECT_DOUBLE_EQ(tool.mass, 0);
  EXPECT_DOUBLE_EQ(arm.mass, 2.0);
  EXPECT_TRUE(arm.com_B.isApprox(Vector3(0.15, 0, 0)));
  // arm: the inertial's rpy turns diag(0.01, 0.02, 0.03) into diag(0.02, 0.01, 0.03);
  // each unit mass sits 0.05 m from the new centre along x: + 2·0.0025 on yy, zz.
  EXPECT_TRUE(arm.I_Bcm_B.isApprox(Vector3(0.02 + 0.01, 0.01 + 0.01 + 0.005, 0.03 + 0.01 + 0.005)
                                        .asDiagonal()
                                        .toDenseMatrix(),
                                    1e-12));

  const JointDescription& spin = Joint(r, "spin");
  EXPECT_EQ(spin.type, JointType::kRevolute);
  EXPECT_FALSE(std::isfinite(spin.lower_limit));  // Continuous: no limits.
  const JointDescription& rail = Joint(r, "rail");
  EXPECT_EQ(rail.type, JointType::kPrismatic);
  EXPECT_DOUBLE_EQ(rail.upper_limit, 0.3);
  EXPECT_EQ(Joint(r, "loose").type, JointType::kFree);

  // Notes name what was skipped, with its line.
  std::string notes;
  for (const std::string& n : r.notes) notes += n + "\n";
  EXPECT_THAT(notes, HasSubstr("sample.urdf:10: joint 'hinge': <dynamics friction> ignored"));
  // <mimic> is a joint coupler now, q_rail = 2 q_hinge + 0, at its joint's line.
  EXPECT_THAT(notes, Not(HasSubstr("mimic")));
  ASSERT_EQ(r.couplers.size(), 1u);
  EXPECT_EQ(r.couplers[0].joint, "rail");
  EXPECT_EQ(r.couplers[0].to, "hinge");
  EXPECT_EQ(r.couplers[0].ratio, 2);
  EXPECT_EQ(r.couplers[0].offset, 0);
  EXPECT_EQ(r.couplers[0].where.ToString(), path + ":36");
}

TEST_F(UrdfImporterTest, MimicErrorsAndSkipsNameTheJointsLine) {
  auto with_mimic = [](const std::string& follower_type, const std::string& mimic) {
    return "<robot name=\"m\">\n"
           "  <link name=\"base\"/>\n"
           "  <link name=\"a\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\""
           " ixz=\"0\" iyz=\"0\"/></inertial></link>\n"
           "  <link name=\"b\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" iyy=\"1\" izz=\"1\" ixy=\"0\""
           " ixz=\"0\" iyz=\"0\"/></inertial></link>\n"
           "  <joint name=\"ja\" type=\"continuous\"><parent link=\"base\"/><child link=\"a\"/></joint>\n"
           "  <joint name=\"jb\" type=\"" + follower_type + "\"><parent link=\"a\"/><child link=\"b\"/>" + mimic +
           "</joint>\n</robot>\n";
  };
  const auto error_of = [&](const std::string& text) {
    try {
      ImportUrdfString(text, "m.urdf");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_THAT(error_of(with_mimic("continuous", "<mimic joint=\"nope\"/>")),
              HasSubstr("m.urdf:6: joint 'jb': <mimic joint='nope'>: no joint of the file has that name"));
  EXPECT_THAT(error_of(with_mimic("continuous", "<mimic joint=\"jb\"/>")),
              HasSubstr("m.urdf:6: joint 'jb': <mimic joint='jb'>: a joint cannot mimic itself"));
  // A mimic on a fixed joint couples nothing: noted, skipped.
  const RobotDescription fixed = ImportUrdfString(with_mimic("fixed", "<mimic joint=\"ja\"/>"), "m.urdf");
  EXPECT_TRUE(fixed.couplers.empty());
  std::string notes;
  for (const std::string& n : fixed.notes) notes += n + "\n";
  EXPECT_THAT(notes, HasSubstr("m.urdf:6: joint 'jb': <mimic joint='ja'> skipped: only revolute, continuous and "
                               "prismatic joints can be coupled"));
  // Defaults: multiplier 1, offset 0 (liburdfdom's, as the URDF spec has them).
  const RobotDescription plain = ImportUrdfString(with_mimic("continuous", "<mimic joint=\"ja\"/>"), "m.urdf");
  ASSERT_EQ(plain.couplers.size(), 1u);
  EXPECT_EQ(plain.couplers[0].ratio, 1);
  EXPECT_EQ(plain.couplers[0].offset, 0);
}

TEST_F(UrdfImporterTest, AFloatingBaseGetsAFreeJoint) {
  const std::string path = Write("sample.urdf", kRobot);
  UrdfImportOptions options;
  options.fixed_base = false;
  const RobotDescription r = ImportUrdf(path, options);
  EXPECT_EQ(Joint(r, "base_free").type, JointType::kFree);
}

// The usual ROS way of fixing a base: a root link named `world` and a joint
// from it. The world link is the world, not a body named "world" (which the
// model reserves), and its joint mounts the robot where the scene places it.
constexpr char kWorldRooted[] = R"(<?xml version="1.0"?>
<robot name="rooted">
  <link name="world"/>
  <joint name="world_to_base" type="fixed">
    <parent link="world"/><child link="base"/><origin xyz="0 0 0.5"/>
  </joint>
  <link name="base">
    <inertial><mass value="2"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
    <collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision>
  </link>
  <joint name="hinge" type="revolute">
    <parent link="base"/><child link="arm"/><origin xyz="0 0 0.1"/><axis xyz="0 1 0"/>
    <limit lower="-1" upper="1" effort="10" velocity="1"/>
  </joint>
  <link name="arm">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
    <collision><geometry><sphere radius="0.05"/></geometry></collision>
  </link>
</robot>
)";

TEST_F(UrdfImporterTest, ARootLinkNamedWorldIsTheWorld) {
  const std::string path = Write("rooted.urdf", kWorldRooted);
  const RobotDescription r = ImportUrdf(path);
  ASSERT_EQ(r.bodies.size(), 2u);
  EXPECT_EQ(r.bodies[0].name, "base");
  EXPECT_EQ(r.bodies[1].name, "arm");
  const JointDescription& mount = Joint(r, "world_to_base");
  EXPECT_EQ(mount.parent, "world");
  EXPECT_EQ(mount.type, JointType::kFixed);
  EXPECT_DOUBLE_EQ(mount.X_PF.p.z(), 0.5);
  EXPECT_THAT(r.notes, testing::Contains(HasSubstr("rooted.urdf:3: root link 'world' is the world: the robot "
                                                   "is mounted through joint 'world_to_base'")));

  // Placed in a scene, the mount joint carries the placement's pose and the
  // scene compiles (no body named "world").
  const SceneDescription scene = LoadSceneString(
      "robots:\n  - file: " + path + "\n    name: r\n    pose: {position: [1, 0, 0]}\n", "scene.yaml", dir_.string());
  const auto placed = std::find_if(scene.joints.begin(), scene.joints.end(),
                                   [](const JointDescription& j) { return j.name == "r/world_to_base"; });
  ASSERT_NE(placed, scene.joints.end());
  EXPECT_EQ(placed->parent, "world");
  EXPECT_DOUBLE_EQ(placed->X_PF.p.x(), 1.0);
  EXPECT_DOUBLE_EQ(placed->X_PF.p.z(), 0.5);
  for (const BodyDescription& b : scene.bodies) EXPECT_NE(b.name, "r/world");
}

// An arm whose elbow's limits leave out 0: it starts at the nearest limit,
// pi/2, where its forearm's sphere hangs 1 m below the shoulder (at 0 it
// would lie level with it).
constexpr char kElbowOutsideZero[] = R"(<?xml version="1.0"?>
<robot name="elbow">
  <link name="base">
    <inertial><mass value="2"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
    <collision><geometry><sphere radius="0.05"/></geometry></collision>
  </link>
  <joint name="elbow" type="revolute">
    <parent link="base"/><child link="forearm"/><axis xyz="0 1 0"/>
    <limit lower="1.5707963267948966" upper="2" effort="10" velocity="1"/>
  </joint>
  <link name="forearm">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
    <collision><origin xyz="1 0 0"/><geometry><sphere radius="0.05"/></geometry></collision>
  </link>
</robot>
)";

const JointDescription& SceneJoint(const SceneDescription& scene, const std::string& name) {
  for (const JointDescription& j : scene.joints) {
    if (j.name == name) return j;
  }
  throw std::runtime_error("no joint " + name);
}

TEST_F(UrdfImporterTest, AJointWhoseLimitsLeaveOutZeroStartsAtTheNearestLimitAndRestsPosed) {
  const std::string path = Write("elbow.urdf", kElbowOutsideZero);
  const SceneDescription scene = LoadSceneString(
      "robots:\n  - file: " + path + "\n    joint_pd: {kp: 100, kd: 1}\n    rest_on_ground: true\n", "scene.yaml",
      dir_.string());
  const JointDescription& elbow = SceneJoint(scene, "elbow");
  ASSERT_EQ(elbow.initial_q.size(), 1u);
  EXPECT_DOUBLE_EQ(elbow.initial_q[0], std::numbers::pi / 2);
  ASSERT_EQ(scene.robots.size(), 1u);
  EXPECT_THAT(scene.robots[0].notes,
              testing::Contains(HasSubstr("elbow.urdf:7: joint 'elbow' starts at 1.570796327, its lower limit: 0 is "
                                          "outside [1.570796327, 2]")));
  // The PD holds it there rather than pulling it to 0 through the limit.
  for (const ActuatorDescription& a : scene.actuators) {
    if (a.joint == "elbow") {
      EXPECT_DOUBLE_EQ(a.target_position, std::numbers::pi / 2);
    }
  }
  // Rested on the ground posed: the forearm's sphere, 1 m below the
  // shoulder, touches z = 0.
  EXPECT_NEAR(Simulation(scene).CalcFramePose("base").p.z(), 1.05, 1e-12);

  // A value of the scene's own is kept, and rests the arm as posed by it.
  const SceneDescription chosen = LoadSceneString(
      "robots:\n  - file: " + path + "\n    initial: {elbow: 2}\n    rest_on_ground: true\n", "scene.yaml", dir_.string());
  EXPECT_DOUBLE_EQ(SceneJoint(chosen, "elbow").initial_q.at(0), 2.0);
  EXPECT_THAT(chosen.robots[0].notes, testing::Not(testing::Contains(HasSubstr("starts at"))));
  EXPECT_NEAR(Simulation(chosen).CalcFramePose("base").p.z(), std::sin(2.0) + 0.05, 1e-12);
}

// A robot whose only collision geometry is a mesh rests on the ground by the
// mesh's hull, posed (issue 34: an iiwa with mesh collision ended 1.26 m
// under the floor, placed by the mesh's origin). The 0.1 m cube hangs 1.26 m
// below the base, turned 45 degrees about x so that an edge is lowest.
TEST_F(UrdfImporterTest, AMeshOnlyRobotRestsOnTheGroundByItsPosedHull) {
  const std::string cube = std::string(STICTION_SOURCE_DIR) + "/tests/geometry/data/cube.obj";
  const std::string path = Write("mesh_only.urdf", R"(<robot name="m">
  <link name="base">
    <inertial><mass value="2"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
    <collision><origin xyz="0 0 -1.26" rpy="0.7853981633974483 0 0"/><geometry><mesh filename=")" + cube +
                                                     R"("/></geometry></collision>
  </link>
</robot>
)");
  for (const std::string fixed : {"true", "false"}) {
    SCOPED_TRACE("fixed_base: " + fixed);
    const Simulation sim(LoadSceneString("robots:\n  - file: " + path + "\n    pose: {position: [0, 0, 3]}\n"
                                         "    fixed_base: " + fixed + "\n    rest_on_ground: true\n",
                                         "scene.yaml", dir_.string()));
    // The edge's depth below the cube's centre: half the face diagonal
    // (Assimp reads the file's 0.05 as a float).
    const double half_diagonal = std::sqrt(2.0) * double{0.05f};
    EXPECT_NEAR(sim.CalcFramePose("base").p.z(), 1.26 + half_diagonal, 1e-12);
  }
}

// Links of one robot whose collision geometry overlaps at the initial
// configuration ignore each other (MoveIt's "Default" rule), with a note:
// colliding, they kicked real robots on the first step (a Panda's link 5
// hull holds 5 mm of link 7). Here the second link's box sinks 1 cm into the
// base's; links that do not overlap still collide.
TEST_F(UrdfImporterTest, LinksOverlappingAtTheStartIgnoreEachOtherWithANote) {
  const std::string text = R"(<robot name="o">
  <link name="base">
    <inertial><mass value="2"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
    <collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision>
  </link>
  <joint name="j1" type="revolute">
    <parent link="base"/><child link="upper"/><origin xyz="0 0 1"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="10" velocity="1"/>
  </joint>
  <link name="upper">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
    <collision><geometry><sphere radius="0.05"/></geometry></collision>
  </link>
  <joint name="j2" type="revolute">
    <parent link="upper"/><child link="lower"/><origin xyz="0 0 -0.86"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="10" velocity="1"/>
  </joint>
  <link name="lower">
    <inertial><mass value="1"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>
    <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision>
  </link>
</robot>
)";
  const std::string path = Write("overlap.urdf", text);
  const Simulation sim(LoadSceneString("robots:\n  - file: " + path + "\n    name: o\n", "scene.yaml", dir_.string()));
  const std::vector<std::string> notes = sim.load_notes();
  ASSERT_EQ(notes.size(), 1u) << testing::PrintToString(notes);
  EXPECT_EQ(notes[0], "o: links 'o/base' and 'o/lower' overlap by 10 mm at the initial configuration (their collision "
                      "hulls); they never collide with each other (as MoveIt's \"Default\" rule)");
  const MultibodyModel& model = sim.model();
  EXPECT_TRUE(sim.collision_world().filter().Excludes(model.FindBody("o/base"), model.FindBody("o/lower")));
  // No overlap, no exclusion: the lower box 1 cm above the base's.
  std::string apart_text = text;
  apart_text.replace(apart_text.find("-0.86"), 5, "-0.84");
  const std::string apart = Write("apart.urdf", apart_text);
  const Simulation sim_apart(LoadSceneString("robots:\n  - file: " + apart + "\n    name: o\n", "scene.yaml",
                                             dir_.string()));
  EXPECT_TRUE(sim_apart.load_notes().empty());
  EXPECT_FALSE(sim_apart.collision_world().filter().Excludes(model.FindBody("o/base"), model.FindBody("o/lower")));
}

TEST_F(UrdfImporterTest, MalformedXmlNamesTheLine) {
  const std::string path = Write("bad.urdf", "<robot name=\"x\">\n  <link name=\"a\">\n</robot>\n");
  EXPECT_THAT(MessageOf(path), HasSubstr("bad.urdf:3: XML error"));
}

TEST_F(UrdfImporterTest, LiburdfdomsRefusalsNameTheElementsLine) {
  const std::string path = Write("orphan.urdf", R"(<robot name="x">
  <link name="a"/>
  <joint name="j" type="revolute">
    <parent link="a"/><child link="missing"/>
    <limit lower="0" upper="1" effort="1" velocity="1"/>
  </joint>
</robot>
)");
  const std::string message = MessageOf(path);
  EXPECT_THAT(message, HasSubstr("orphan.urdf:3: URDF error"));
  EXPECT_THAT(message, HasSubstr("missing"));
}

TEST_F(UrdfImporterTest, NotAUrdfFile) {
  EXPECT_THAT(MessageOf(Write("mujoco.urdf", "<mujoco/>\n")), HasSubstr("not a URDF file: no <robot> element"));
  EXPECT_THAT(MessageOf((dir_ / "absent.urdf").string()), HasSubstr("absent.urdf: cannot open the URDF file (no such file)"));
}

TEST_F(UrdfImporterTest, RefusesPlanarJointsAndMovingLinksWithoutMass) {
  const std::string planar = Write("planar.urdf", R"(<robot name="x">
  <link name="a"/>
  <joint name="p" type="planar">
    <parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
  </joint>
  <link name="b"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
</robot>
)");
  EXPECT_THAT(MessageOf(planar), HasSubstr("planar.urdf:3: joint 'p': type 'planar' is not supported"));
  const std::string massless = Write("massless.urdf", R"(<robot name="x">
  <link name="a"/>
  <joint name="j" type="continuous">
    <parent link="a"/><child link="b"/>
  </joint>
  <link name="b"/>
</robot>
)");
  EXPECT_THAT(MessageOf(massless), HasSubstr("massless.urdf:6: 'b' moves (joint 'j') but has no mass"));
}

// Drake's PR2 moves its base through x, y and θ joints on two massless
// links: each is a joint frame that moves the base outboard of it; M(q)
// stays positive definite (the simulation steps). PyBullet's iiwa gives its
// welded base an inertia but mass 0: the inertia is ignored, with a note.
TEST_F(UrdfImporterTest, MasslessLinksOnJointsThatCarryMassAreJointFrames) {
  const std::string path = Write("planar_base.urdf", R"(<robot name="pr2">
  <link name="world_anchor">
    <inertial><mass value="0"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
  </link>
  <joint name="x" type="prismatic"><parent link="world_anchor"/><child link="base_x"/><axis xyz="1 0 0"/>
    <limit lower="-10" upper="10" effort="100" velocity="1"/></joint>
  <link name="base_x"/>
  <joint name="y" type="prismatic"><parent link="base_x"/><child link="base_y"/><axis xyz="0 1 0"/>
    <limit lower="-10" upper="10" effort="100" velocity="1"/></joint>
  <link name="base_y"/>
  <joint name="theta" type="continuous"><parent link="base_y"/><child link="base"/><axis xyz="0 0 1"/></joint>
  <link name="base">
    <inertial><mass value="50"/><inertia ixx="2" ixy="0" ixz="0" iyy="2" iyz="0" izz="3"/></inertial>
    <collision><geometry><box size="0.6 0.6 0.3"/></geometry></collision>
  </link>
</robot>
)");
  const RobotDescription robot = ImportUrdf(path);
  for (const BodyDescription& b : robot.bodies) {
    EXPECT_EQ(b.joint_frame, b.name == "base_x" || b.name == "base_y") << b.name;
  }
  EXPECT_THAT(robot.notes, testing::Contains(HasSubstr("'base_x' moves (joint 'x') without mass: a joint frame")));
  EXPECT_THAT(robot.notes, testing::Contains(HasSubstr("'world_anchor' has an inertia but no mass: inertia ignored")));
  Simulation sim(LoadSceneString("gravity: [0, 0, 0]\nrobots:\n  - file: " + path + "\n", "scene.yaml", dir_.string()));
  sim.SetExternalWrenches({ExternalWrench{sim.model().FindBody("base"), Vector3::Zero(), Vector3(10, 0, 0)}});
  for (int i = 0; i < 100; ++i) ASSERT_EQ(sim.Step().status, StepStatus::kSuccess);
  EXPECT_GT(sim.CalcFramePose("base").p.x(), 0);  // 10 N pushed the 50 kg base along x.
}

TEST_F(UrdfImporterTest, BadLimitsAndInertialsAreRefusedWithTheirLine) {
  const std::string limits = Write("limits.urdf", R"(<robot name="x">
  <link name="a"/>
  <joint name="j" type="revolute">
    <parent link="a"/><child link="b"/>
    <limit lower="1" upper="-1" effort="1" velocity="1"/>
  </joint>
  <link name="b"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
</robot>
)");
  EXPECT_THAT(MessageOf(limits), HasSubstr("limits.urdf:3: joint 'j': <limit> needs finite lower <= upper"));
}

TEST_F(UrdfImporterTest, MeshesResolveThroughPackageUrisAndTheSearchPath) {
  const std::string mesh = std::string(STICTION_SOURCE_DIR) + "/tests/geometry/data/cube.obj";
  ASSERT_TRUE(fs::exists(mesh)) << mesh;
  fs::create_directories(dir_ / "ws" / "my_robot" / "meshes");
  fs::copy_file(mesh, dir_ / "ws" / "my_robot" / "meshes" / "cube.obj");
  const std::string urdf = R"(<robot name="x">
  <link name="a">
    <inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
    <collision><geometry><mesh filename="package://my_robot/meshes/cube.obj" scale="2 2 2"/></geometry></collision>
  </link>
</robot>
)";
  // Outside the package: found through the search path only.
  const std::string outside = Write("elsewhere/robot.urdf", urdf);
  const std::string message = MessageOf(outside);
  EXPECT_THAT(message, HasSubstr("robot.urdf:4: link 'a' <collision> mesh 'package://my_robot/meshes/cube.obj'"));
  EXPECT_THAT(message, HasSubstr("package 'my_robot' has no file 'meshes/cube.obj'"));
  EXPECT_THAT(message, HasSubstr("STICTION_PACKAGE_PATH"));
  UrdfImportOptions options;
  options.package_path = {(dir_ / "ws").string()};
  const RobotDescription found = ImportUrdf(outside, options);
  ASSERT_EQ(found.bodies[0].geometries.size(), 1u);
  const ShapeDescription& shape = found.bodies[0].geometries[0].shape;
  EXPECT_EQ(shape.type, ShapeType::kMesh);
  EXPECT_EQ(fs::path(shape.mesh_file), dir_ / "ws" / "my_robot" / "meshes" / "cube.obj");
  EXPECT_TRUE(shape.mesh_scale.isApprox(Vector3(2, 2, 2)));
  // Inside the package (my_robot/urdf/robot.urdf): found beside the file.
  const std::string inside = Write("ws/my_robot/urdf/robot.urdf", urdf);
  EXPECT_EQ(ImportUrdf(inside).bodies[0].geometries[0].shape.mesh_file, shape.mesh_file);
  // A relative path is relative to the robot file; a missing one says so.
  const std::string missing = Write("missing.urdf", R"(<robot name="x">
  <link name="a">
    <inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
    <visual><geometry><mesh filename="meshes/none.stl"/></geometry></visual>
  </link>
</robot>
)");
  EXPECT_THAT(MessageOf(missing), HasSubstr("missing.urdf:4: link 'a' <visual> mesh 'meshes/none.stl': file not found"));
  // Several missing meshes (a description fetched without its LFS meshes):
  // all in one message, a line each, with the other links still read.
  const std::string many = Write("many.urdf", R"(<robot name="x">
  <link name="a">
    <inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
    <visual><geometry><mesh filename="meshes/a.dae"/></geometry></visual>
    <collision><geometry><mesh filename="meshes/a.stl"/></geometry></collision>
  </link>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
  <link name="b">
    <visual><geometry><mesh filename="meshes/b.dae"/></geometry></visual>
  </link>
</robot>
)");
  const std::string all = MessageOf(many);
  EXPECT_EQ(all.rfind(many + ": 3 mesh files cannot be found:\n", 0), 0u) << all;
  for (const std::string line : {"many.urdf:4: link 'a' <visual> mesh 'meshes/a.dae': file not found",
                                 "many.urdf:5: link 'a' <collision> mesh 'meshes/a.stl': file not found",
                                 "many.urdf:9: link 'b' <visual> mesh 'meshes/b.dae': file not found"}) {
    EXPECT_THAT(all, HasSubstr(line));
  }
  EXPECT_EQ(std::count(all.begin(), all.end(), '\n'), 3) << all;
}

// What Drake's own models write and liburdfdom refuses: a revolute joint
// without <limit> (read as unlimited, no effort limit, with a note) and a
// weld to a link 'world' the file never declares (the world, as for a
// declared one).
TEST_F(UrdfImporterTest, DrakeConventionsUnlimitedJointsAndAnUndeclaredWorldLoad) {
  const std::string path = Write("drake_style.urdf", R"(<robot name="acrobot">
  <link name="base">
    <inertial><mass value="1"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
  </link>
  <joint name="base_weld" type="fixed"><parent link="world"/><child link="base"/><origin xyz="0 0 2"/></joint>
  <link name="arm">
    <inertial><mass value="1"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
    <collision><origin xyz="0 0 -1"/><geometry><sphere radius="0"/></geometry></collision>
    <visual><geometry><sphere radius="0.0"/></geometry></visual>
  </link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 1 0"/></joint>
</robot>
)");
  const RobotDescription robot = ImportUrdf(path);
  ASSERT_EQ(robot.bodies.size(), 2u);
  // Drake's contact point (a sphere of radius 0): a 0.1 mm collision sphere;
  // the visual one is not drawn.
  ASSERT_EQ(robot.bodies[1].geometries.size(), 1u);
  EXPECT_TRUE(robot.bodies[1].geometries[0].collision);
  EXPECT_EQ(robot.bodies[1].geometries[0].shape.radius, 1e-4);
  EXPECT_THAT(robot.notes, testing::Contains(HasSubstr(
                               "link 'arm' <collision>: sphere of radius 0 (a contact point) used as a sphere of radius "
                               "0.1 mm")));
  EXPECT_THAT(robot.notes, testing::Contains(HasSubstr("link 'arm' <visual>: sphere of radius 0 not drawn")));
  const auto shoulder = std::find_if(robot.joints.begin(), robot.joints.end(),
                                     [](const JointDescription& j) { return j.name == "shoulder"; });
  ASSERT_NE(shoulder, robot.joints.end());
  EXPECT_EQ(shoulder->type, JointType::kRevolute);
  EXPECT_EQ(shoulder->lower_limit, -std::numeric_limits<double>::infinity());
  EXPECT_EQ(shoulder->upper_limit, std::numeric_limits<double>::infinity());
  EXPECT_EQ(robot.joint_limits.at("shoulder").effort, std::numeric_limits<double>::infinity());
  const auto weld = std::find_if(robot.joints.begin(), robot.joints.end(),
                                 [](const JointDescription& j) { return j.name == "base_weld"; });
  ASSERT_NE(weld, robot.joints.end());
  EXPECT_EQ(weld->parent, "world");
  EXPECT_DOUBLE_EQ(weld->X_PF.p.z(), 2.0);
  EXPECT_THAT(robot.notes, testing::Contains(HasSubstr(
                               "drake_style.urdf:11: joint 'shoulder' has no <limit>, which URDF requires of a revolute "
                               "joint: read as unlimited")));
}

// ROS files carry elements for other tools (a <transmission> per joint,
// Gazebo plugins): all listed in one note, with counts and the first line.
TEST_F(UrdfImporterTest, UnusedTopLevelElementsAreListedInOneNote) {
  const std::string path = Write("ros.urdf", R"(<robot name="x">
  <link name="a"/>
  <transmission name="t1"><type>SimpleTransmission</type></transmission>
  <gazebo reference="a"><material>Gazebo/Grey</material></gazebo>
  <transmission name="t2"><type>SimpleTransmission</type></transmission>
</robot>
)");
  const RobotDescription robot = ImportUrdf(path);
  const auto notes = std::count_if(robot.notes.begin(), robot.notes.end(),
                                   [](const std::string& n) { return n.find("not read:") != std::string::npos; });
  EXPECT_EQ(notes, 1);
  EXPECT_THAT(robot.notes, testing::Contains(HasSubstr(
                               "ros.urdf: not read: 1 <gazebo> (first at line 4), 2 <transmission> (first at line 3)")));
}

TEST_F(UrdfImporterTest, AnUnexpandedXacroIsRefusedWithTheFix) {
  const std::string path = Write("robot.urdf", R"(<robot name="x">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="fixed"><parent link="a"/><child link="b"/><origin xyz="$(optenv X 0) 0 0"/></joint>
</robot>
)");
  EXPECT_THAT(MessageOf(path), testing::AllOf(HasSubstr("robot.urdf:4: URDF error"), HasSubstr("expand it first")));
}

// A link to a robot file finds the meshes beside the real file.
TEST_F(UrdfImporterTest, ALinkToARobotFileFindsItsMeshesBesideTheRealFile) {
  Write("robot/meshes/cube.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n");
  const std::string real = Write("robot/robot.urdf", R"(<robot name="x">
  <link name="a"><visual><geometry><mesh filename="meshes/cube.obj"/></geometry></visual></link>
</robot>
)");
  const fs::path link = dir_ / "robot_link.urdf";
  fs::create_symlink(real, link);
  const RobotDescription robot = ImportUrdf(link.string());
  ASSERT_EQ(robot.bodies.at(0).geometries.size(), 1u);
  EXPECT_EQ(fs::path(robot.bodies[0].geometries[0].shape.mesh_file), fs::canonical(dir_ / "robot/meshes/cube.obj"));
}

TEST_F(UrdfImporterTest, PackagePathFromTheEnvironment) {
  ::setenv("STICTION_PACKAGE_PATH", "/a:/b::", 1);
  ::setenv("ROS_PACKAGE_PATH", "/c", 1);
  EXPECT_EQ(PackagePathFromEnvironment(), (std::vector<std::string>{"/a", "/b", "/c"}));
  ::unsetenv("STICTION_PACKAGE_PATH");
  ::unsetenv("ROS_PACKAGE_PATH");
  EXPECT_TRUE(PackagePathFromEnvironment().empty());
}

TEST_F(UrdfImporterTest, ShippedRobotsImport) {
  for (const char* name : {"iiwa14", "parallel_gripper", "four_finger_hand", "quadruped"}) {
    SCOPED_TRACE(name);
    const RobotDescription r =
        ImportUrdf(std::string(STICTION_SOURCE_DIR) + "/assets/robots/" + name + ".urdf");
    EXPECT_FALSE(r.bodies.empty());
  }
}

}  // namespace
}  // namespace stiction

namespace stiction {
namespace {

std::string LoadMessage(const std::string& yaml) {
  try {
    LoadSceneString(yaml, "scene.yaml", std::string(STICTION_SOURCE_DIR) + "/assets/scenes");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(RobotSceneKeysTest, RestOnGroundPutsTheLowestCollisionGeometryAtZero) {
  const SceneDescription scene = LoadSceneString(
      "robots:\n  - file: ../robots/iiwa14.urdf\n    pose: {position: [0, 0, 5]}\n    rest_on_ground: true\n",
      "scene.yaml", std::string(STICTION_SOURCE_DIR) + "/assets/scenes");
  // The lowest geometry is the base cylinder (r 0.09 m, length 0.1575 m,
  // upright, centred 0.07875 m above the base frame): its lower cap is the
  // base frame's plane, which ends at z = 0.
  EXPECT_NEAR(Simulation(scene).CalcFramePose("iiwa_link_0").p.z(), 0, 1e-12);
}

TEST(RobotSceneKeysTest, ListsMustBeListsAndMountedRobotsDoNotRestOnTheGround) {
  EXPECT_THAT(LoadMessage("package_path: some/dir\n"), HasSubstr("scene.yaml:1: package_path: expected a list of directories"));
  EXPECT_THAT(LoadMessage("robots:\n  - file: ../robots/iiwa14.urdf\n    groups: arm\n"),
              HasSubstr("expected a list of group names"));
  EXPECT_THAT(LoadMessage("robots:\n  - file: ../robots/iiwa14.urdf\n    name: arm\n"
                          "  - file: ../robots/parallel_gripper.urdf\n    parent: arm/iiwa_link_7\n"
                          "    rest_on_ground: true\n"),
              HasSubstr("a robot mounted on a body cannot rest on the ground"));
}

}  // namespace
}  // namespace stiction
