// MJCF import through MuJoCo's own compiler: supported elements arrive with
// MuJoCo's compiled numbers, MuJoCo's refusals keep its message (with the
// line), and every skipped element gets one note naming it.
#include "engine/scene/mjcf_importer.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>
#include <Eigen/Eigenvalues>

#include "engine/common/error.h"
#include "engine/multibody/dynamics.h"
#include "engine/multibody/kinematics.h"
#include "engine/scene/scene_loader.h"
#include "engine/scene_compiler.h"
#include "engine/simulation.h"
#include "tests/support/scratch_dir.h"

namespace stiction {
namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

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
  EXPECT_THAT(notes, HasSubstr("1 ellipsoid geom(s) used as inscribed polytopes of 642 vertices (within 0.5 % of their radii): "
                               "geom 'pole_tip' (body 'pole')"));
  EXPECT_TRUE(r.tendons.empty());  // The file's tendon has no range: nothing to hold.
  EXPECT_THAT(notes, Not(HasSubstr("tendon")));
  // The motor: MuJoCo's gain·gear per unit of ctrl, no range, no limit.
  ASSERT_EQ(r.motors.size(), 1u);
  EXPECT_EQ(r.motors[0].name, "push");
  ASSERT_EQ(r.motors[0].joints.size(), 1u);
  EXPECT_EQ(r.motors[0].joints[0].joint, "slider");
  EXPECT_DOUBLE_EQ(r.motors[0].gain, 2);
  EXPECT_TRUE(std::isinf(r.motors[0].ctrl_max) && std::isinf(r.motors[0].effort_limit));
  EXPECT_THAT(notes, Not(HasSubstr("'push'")));
}

constexpr char kKeyframeModel[] = R"(<mujoco model="keyed">
  <compiler angle="radian"/>
  <worldbody>
    <body name="base" pos="0 0 0.5">
      <freejoint/>
      <geom type="box" size="0.1 0.1 0.05" mass="2"/>
      <body name="link" pos="0.1 0 0">
        <joint name="hinge" axis="0 1 0" ref="0.2" limited="true" range="-1 1.5"/>
        <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.02" mass="0.5"/>
        <body name="tip" pos="0.3 0 0">
          <joint name="slide" type="slide" axis="1 0 0" limited="true" range="-0.1 0.1"/>
          <geom type="sphere" size="0.03" mass="0.1"/>
        </body>
      </body>
    </body>
  </worldbody>
  <actuator>
    <position name="servo" joint="hinge" kp="20" gear="2"/>
    <motor name="push" joint="slide" ctrllimited="true" ctrlrange="-1 1"/>
  </actuator>
  <keyframe>
    <key name="home" qpos="0.3 -0.2 0.8 0.9238795 0 0.3826834 0 0.7 0.05" qvel="0.1 0 0 0 0.2 0 -0.5 0.01" ctrl="1.2 3"/>
    <key qpos="0 0 0.4 1 0 0 0 0.2 0"/>
  </keyframe>
</mujoco>
)";

TEST_F(MjcfImporterTest, AKeyframeIsTheInitialStateAsMuJoCoResetsToIt) {
  const std::string file = Write("keyed.xml", kKeyframeModel);
  // Without `keyframe`, qpos0, and a note naming the keyframes.
  {
    Simulation sim(LoadSceneString("robots:\n  - file: " + file + "\n", "k.yaml", "."));
    std::string notes;
    for (const std::string& n : sim.load_notes()) notes += n + "\n";
    EXPECT_THAT(notes, HasSubstr("2 keyframe(s) ('home', #1) not used: the initial state is qpos0"));
    EXPECT_NEAR(sim.positions()[sim.model().joint(sim.model().FindJoint("hinge")).q_start], 0, 1e-15);
  }
  Simulation sim(LoadSceneString("robots:\n  - file: " + file + "\n    keyframe: home\n", "k.yaml", "."));
  char error[1000] = "";
  std::unique_ptr<mjModel, void (*)(mjModel*)> m(mj_loadXML(file.c_str(), nullptr, error, sizeof(error)), mj_deleteModel);
  ASSERT_TRUE(m) << error;
  std::unique_ptr<mjData, void (*)(mjData*)> d(mj_makeData(m.get()), mj_deleteData);
  mj_resetDataKeyframe(m.get(), d.get(), 0);
  mj_forward(m.get(), d.get());
  // Every body where MuJoCo puts it, moving as MuJoCo's does.
  for (const BodyState& s : sim.CalcBodyStates()) {
    SCOPED_TRACE(s.name);
    const int b = mj_name2id(m.get(), mjOBJ_BODY, s.name.c_str());
    ASSERT_GE(b, 0);
    EXPECT_LT((s.position - Vector3(d->xpos[3 * b], d->xpos[3 * b + 1], d->xpos[3 * b + 2])).norm(), 1e-12);
    mjtNum vel[6];  // [ω; v] of the body frame's origin, in the world frame.
    mj_objectVelocity(m.get(), d.get(), mjOBJ_XBODY, b, vel, 0);
    EXPECT_LT((s.angular_velocity - Vector3(vel[0], vel[1], vel[2])).norm(), 1e-12);
    EXPECT_LT((s.linear_velocity - Vector3(vel[3], vel[4], vel[5])).norm(), 1e-12);
  }
  // ctrl: the motor's 3 clamped to its range; the servo holds gear·q_mj = 1.2.
  EXPECT_DOUBLE_EQ(sim.motor("push").ctrl, 1);
  EXPECT_NEAR(sim.actuator("servo").target_position, 0.6 - 0.2, 1e-15);
  // By index, and a keyframe the file does not have.
  Simulation second(LoadSceneString("robots:\n  - file: " + file + "\n    keyframe: 1\n", "k.yaml", "."));
  EXPECT_NEAR(second.positions()[second.model().joint(second.model().FindJoint("hinge")).q_start], 0, 1e-15);
  try {
    LoadSceneString("robots:\n  - file: " + file + "\n    keyframe: away\n", "k.yaml", ".");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), AllOf(HasSubstr("k.yaml:3: robots[0].keyframe"),
                                HasSubstr("no keyframe 'away' (keyframes: 'home', #1, or an index)")));
  }
}

TEST_F(MjcfImporterTest, ActuatorsWithoutACounterpartAreNotedOneByOne) {
  const RobotDescription r = ImportMjcf(Write("actuators.xml", R"(<mujoco model="actuators">
  <worldbody>
    <body name="a"><joint name="ja" axis="0 1 0"/><geom type="sphere" size="0.1" mass="1"/>
      <site name="s1"/>
      <body name="b" pos="0 0 -0.3"><joint name="jb" axis="0 1 0" limited="true" range="-1 1"/><geom type="sphere" size="0.1" mass="1"/>
        <site name="s2"/>
      </body>
    </body>
    <body name="c" pos="1 0 0"><freejoint/><geom type="sphere" size="0.1" mass="1"/></body>
  </worldbody>
  <tendon>
    <fixed name="coupled"><joint joint="ja" coef="2"/><joint joint="jb" coef="-1"/></fixed>
    <spatial name="cable"><site site="s1"/><site site="s2"/></spatial>
  </tendon>
  <actuator>
    <position name="tendon_servo" tendon="coupled" kp="10"/>
    <motor name="on_cable" tendon="cable"/>
    <general name="biased" joint="jb" gainprm="1" biastype="affine" biasprm="1 0 0"/>
    <general name="offset_servo" joint="ja" gainprm="2" biastype="affine" biasprm="0.5 -4 0"/>
    <motor name="site_motor" site="s1"/>
    <motor name="tendon_motor" tendon="coupled" gear="3" forcelimited="true" forcerange="-1 2"/>
    <general name="filtered" joint="ja" dyntype="filter" dynprm="0.1" gainprm="5" ctrllimited="true" ctrlrange="-2 1"/>
    <muscle name="muscle" joint="jb"/>
  </actuator>
</mujoco>
)"));
  std::string notes;
  for (const std::string& n : r.notes) notes += n + "\n";
  // The tendon motor and the filtered motor are kept, with their numbers.
  ASSERT_EQ(r.motors.size(), 2u);
  EXPECT_EQ(r.motors[0].name, "tendon_motor");
  ASSERT_EQ(r.motors[0].joints.size(), 2u);
  EXPECT_EQ(r.motors[0].joints[0].joint, "ja");
  EXPECT_DOUBLE_EQ(r.motors[0].joints[0].coefficient, 2);
  EXPECT_DOUBLE_EQ(r.motors[0].joints[1].coefficient, -1);
  EXPECT_DOUBLE_EQ(r.motors[0].gain, 3);
  EXPECT_DOUBLE_EQ(r.motors[0].effort_limit, 3);  // The smaller side of the force range, times the gear.
  EXPECT_EQ(r.motors[1].name, "filtered");
  EXPECT_DOUBLE_EQ(r.motors[1].gain, 5);
  EXPECT_DOUBLE_EQ(r.motors[1].ctrl_min, -2);
  EXPECT_DOUBLE_EQ(r.motors[1].ctrl_max, 1);
  EXPECT_THAT(notes, HasSubstr("1 actuator(s) with an activation filter that is not modelled (the force follows "
                               "ctrl at once): 'filtered' (0.1 s)"));
  // A servo with an offset (rodent-style: force = 2 ctrl + 0.5 − 4 L): PD
  // with kp = 4 towards L = (2 · 0 + 0.5)/4.
  ASSERT_EQ(r.actuators.size(), 1u);
  EXPECT_EQ(r.actuators[0].name, "offset_servo");
  EXPECT_DOUBLE_EQ(r.actuators[0].kp, 4);
  EXPECT_DOUBLE_EQ(r.actuators[0].target_position, 0.125);
  // The rest, one note per reason.
  // The position servo on the fixed tendon 2 ja − jb: a tendon servo.
  ASSERT_EQ(r.tendon_servos.size(), 1u);
  EXPECT_EQ(r.tendon_servos[0].name, "tendon_servo");
  EXPECT_DOUBLE_EQ(r.tendon_servos[0].kp, 10);
  ASSERT_EQ(r.tendon_servos[0].joints.size(), 2u);
  EXPECT_DOUBLE_EQ(r.tendon_servos[0].joints[0].coefficient, 2);
  EXPECT_DOUBLE_EQ(r.tendon_servos[0].target_length, 0);
  EXPECT_THAT(notes, HasSubstr("1 actuator(s) skipped: they drive a spatial tendon"));
  EXPECT_THAT(notes, HasSubstr("1 actuator(s) skipped: their bias is not that of a position or velocity servo: 'biased'"));
  EXPECT_THAT(notes, HasSubstr("1 actuator(s) skipped: only motors and position/velocity servos (fixed gain, no muscle "
                               "or integrator dynamics) map to Stiction's actuators: 'muscle'"));
  EXPECT_THAT(notes, HasSubstr("1 actuator(s) skipped: only joint and fixed-tendon transmissions are supported: "
                               "'site_motor'"));
}

TEST_F(MjcfImporterTest, LinearJointEqualitiesBecomeCouplersAndTheRestIsNoted) {
  // MuJoCo: q_y − q_y0 = Σ c_k (q_x − q_x0)^k. Ours are measured from qpos0,
  // so the linear part is q_y = c1 q_x + c0 whatever the refs are.
  const RobotDescription r = ImportMjcf(Write("equalities.xml", R"(<mujoco model="eq">
  <worldbody>
    <body name="a"><joint name="ja" type="hinge" ref="0.4"/><geom type="sphere" size="0.1" mass="1"/></body>
    <body name="b" pos="1 0 0"><joint name="jb" type="slide" ref="-0.2"/><geom type="sphere" size="0.1" mass="1"/></body>
    <body name="c" pos="2 0 0"><joint name="jc" type="hinge"/><geom type="sphere" size="0.1" mass="1"/></body>
    <body name="d" pos="3 0 0"><joint name="jd" type="ball"/><geom type="sphere" size="0.1" mass="1"/></body>
  </worldbody>
  <equality>
    <joint name="gear" joint1="jb" joint2="ja" polycoef="0.05 -2 0 0 0"/>
    <joint name="curved" joint1="jc" joint2="ja" polycoef="0 1 0.5 0 0"/>
    <joint name="alone" joint1="jc"/>
    <joint name="again" joint1="jb" joint2="jc"/>
    <joint name="off" joint1="jc" joint2="ja" active="false"/>
  </equality>
</mujoco>
)"));
  ASSERT_EQ(r.couplers.size(), 1u);
  EXPECT_EQ(r.couplers[0].joint, "jb");
  EXPECT_EQ(r.couplers[0].to, "ja");
  EXPECT_EQ(r.couplers[0].ratio, -2);
  EXPECT_EQ(r.couplers[0].offset, 0.05);
  std::string notes;
  for (const std::string& n : r.notes) notes += n + "\n";
  EXPECT_THAT(notes, HasSubstr("equality 'curved' (joint) skipped: polycoef has terms above the linear one"));
  EXPECT_THAT(notes, HasSubstr("equality 'alone' (joint) skipped: without joint2"));
  EXPECT_THAT(notes, HasSubstr("equality 'again' (joint) skipped: joint 'jb' already follows 'ja'"));
  EXPECT_THAT(notes, HasSubstr("equality 'off' (joint) skipped: inactive in the file"));
}

TEST_F(MjcfImporterTest, MuJoCosRefusalKeepsItsMessageAndLine) {
  const std::string path = Write("bad.xml", "<mujoco>\n  <worldbody>\n    <body><joint type=\"spin\"/></body>\n  </worldbody>\n</mujoco>\n");
  const std::string message = MessageOf(path);
  EXPECT_THAT(message, HasSubstr("bad.xml: MuJoCo refused the model"));
  EXPECT_THAT(message, HasSubstr("line 3"));
  EXPECT_THAT(MessageOf((dir_ / "none.xml").string()), HasSubstr("cannot open the MJCF file (no such file)"));
  EXPECT_THAT(MessageOf(Write("garbage.xml", "<mujoco><worldbody>")), HasSubstr("MuJoCo refused the model"));
  EXPECT_THAT(message, Not(HasSubstr("newer MuJoCo")));  // A bad value, not an unknown name.
  // An attribute a later MuJoCo added (as `memory` in MuJoCo's own models
  // today): named with its element and line, and the likely cause said.
  const std::string newer = MessageOf(Write("newer.xml", "<mujoco>\n  <size memory=\"1M\"/>\n</mujoco>\n"));
  EXPECT_THAT(newer, AllOf(HasSubstr("newer.xml: MuJoCo refused the model"), HasSubstr("'memory'"),
                           HasSubstr("Element 'size', line 2"), HasSubstr("the file may need a newer MuJoCo")));
}

// An equality on a tendon names tendons, not bodies, and its second object
// may be absent (id -1): the importer read them as body ids and crashed with
// std::bad_alloc on dm_control's quadruped. It is skipped with a note.
// A tendon equality's objects are tendons, not bodies (reading them as
// bodies once crashed the importer): it becomes a tendon row, and no
// body constraint.
TEST_F(MjcfImporterTest, ATendonEqualityBecomesATendonRowNotABodyConstraint) {
  const std::string path = Write("tendon_equality.xml", R"(<mujoco>
  <worldbody>
    <body name="a"><joint name="ja" type="hinge"/><geom size="0.1"/>
      <body name="b" pos="0.3 0 0"><joint name="jb" type="hinge"/><geom size="0.1"/></body>
    </body>
  </worldbody>
  <tendon><fixed name="t"><joint joint="ja" coef="1"/><joint joint="jb" coef="-1"/></fixed></tendon>
  <equality><tendon name="hold" tendon1="t"/></equality>
</mujoco>
)");
  const RobotDescription robot = ImportMjcf(path);
  EXPECT_TRUE(robot.constraints.empty());
  ASSERT_EQ(robot.tendons.size(), 1u);
  EXPECT_EQ(robot.tendons[0].name, "hold");
  EXPECT_EQ(robot.tendons[0].lower, 0);
  EXPECT_EQ(robot.tendons[0].upper, 0);
  EXPECT_THAT(robot.notes, testing::Not(testing::Contains(HasSubstr("'hold'"))));
}

// An ellipsoid (issue 34: the object of a hand scene fell through the floor
// to z = -19.5 m, its only geom skipped) is a mesh inscribed in it: dropped
// on the floor lying on its side, it comes to rest with its centre at its
// smallest semi-axis, as the exact ellipsoid would, within the inscribed
// polytope's 0.5 % and the contact's penetration.
TEST_F(MjcfImporterTest, AnEllipsoidRestsOnItsSmallestSemiAxis) {
  const std::string path = Write("ellipsoid.xml", R"(<mujoco>
  <worldbody>
    <geom name="floor" type="plane" size="0 0 1"/>
    <body name="egg" pos="0 0 0.05">
      <freejoint/>
      <geom name="shell" type="ellipsoid" size="0.06 0.04 0.025" density="1000"/>
    </body>
  </worldbody>
</mujoco>
)");
  Simulation sim(LoadSceneString("time_step: 0.002\nrobots:\n  - file: " + path + "\n    name: m\n", "scene.yaml",
                                 dir_.string()));
  for (int i = 0; i < 500; ++i) ASSERT_EQ(sim.Step().status, StepStatus::kSuccess);  // 1 s.
  const RigidTransform X_WB = sim.CalcFramePose("m/egg");
  EXPECT_NEAR(X_WB.p.z(), 0.025, 0.005 * 0.025 + 1e-4) << "rests on its smallest semi-axis";
  EXPECT_LT(sim.CalcKineticEnergy(), 1e-6);
  EXPECT_GT(std::abs(X_WB.R(2, 2)), 0.999);  // Still lying on its side.
}

// MuJoCo's contact filtering, as MuJoCo reads the file: contype/conaffinity
// bitmasks ((a.contype & b.conaffinity) | (b.contype & a.conaffinity) != 0)
// and <contact><exclude> body pairs (issue 34: a hand's excluded thumb pair
// penetrated 7.5 mm, the exclude skipped). The scene's own ground has every
// bit: it touches whatever has one.
TEST_F(MjcfImporterTest, ContactBitmasksAndExcludesFilterAsInMuJoCo) {
  const std::string path = Write("filter.xml", R"(<mujoco>
  <worldbody>
    <geom name="floor" type="plane" size="0 0 1"/>
    <body name="a" pos="0 0 1"><freejoint/><geom name="ga" size="0.1" contype="2" conaffinity="2"/></body>
    <body name="b" pos="0 0 2"><freejoint/><geom name="gb" size="0.1"/></body>
    <body name="c" pos="0 0 3"><freejoint/><geom name="gc" size="0.1" contype="1" conaffinity="2"/></body>
    <body name="d" pos="0 0 4"><freejoint/><geom name="gd" size="0.1"/></body>
  </worldbody>
  <contact><exclude body1="b" body2="d"/></contact>
</mujoco>
)");
  const Simulation sim(LoadSceneString("world_geometry:\n  - {name: ground, shape: {type: half_space}}\n"
                                       "robots:\n  - file: " + path + "\n    name: m\n",
                                       "scene.yaml", dir_.string()));
  const CollisionWorld& world = sim.collision_world();
  const auto id = [&](const std::string& name) {
    for (int i = 0; i < world.num_geometries(); ++i) {
      if (world.geometry(i).description().name == name) return i;
    }
    ADD_FAILURE() << "no geometry " << name;
    return 0;
  };
  EXPECT_FALSE(world.CanCollide(id("m/ga"), id("m/gb")));     // 2&1 | 1&2 = 0.
  EXPECT_TRUE(world.CanCollide(id("m/ga"), id("m/gc")));      // 2&2.
  EXPECT_TRUE(world.CanCollide(id("m/gb"), id("m/gc")));      // 1&2 = 0 but 1&1 != 0.
  EXPECT_FALSE(world.CanCollide(id("m/ga"), id("m/floor")));  // The file's floor: 1/1.
  EXPECT_TRUE(world.CanCollide(id("m/ga"), id("ground")));    // The scene's ground: every bit.
  EXPECT_FALSE(world.CanCollide(id("m/gb"), id("m/gd")));     // Excluded.
  EXPECT_TRUE(world.CanCollide(id("m/gb"), id("m/floor")));
  for (const std::string& note : sim.load_notes()) {
    EXPECT_EQ(note.find("exclude"), std::string::npos) << note;
    EXPECT_EQ(note.find("contype"), std::string::npos) << note;
  }
}

// A link to a model loads as the model: MuJoCo finds its includes and meshes
// beside the real file, not beside the link (a corpus of links to models
// kept in their own folders).
TEST_F(MjcfImporterTest, ALinkToAModelFindsTheIncludesBesideTheRealFile) {
  Write("models/parts.xml", "<mujoco><worldbody><body name=\"b\"><freejoint/><geom size=\"0.1\"/></body>"
                            "</worldbody></mujoco>\n");
  const std::string real = Write("models/robot.xml", "<mujoco><include file=\"parts.xml\"/></mujoco>\n");
  const std::filesystem::path link = dir_ / "robot_link.xml";
  std::filesystem::create_symlink(real, link);
  const RobotDescription robot = ImportMjcf(link.string());
  ASSERT_EQ(robot.bodies.size(), 1u);
  EXPECT_EQ(robot.bodies[0].name, "b");
}

// ------------------------------------------------------- several joints

// tests/scene/data/multijoint.xml: torso (slide rootx, slide rootz, hinge
// rooty) ─ thigh (hinges hip_y, hip_x) ─ shin (hinge knee_twist, ball
// knee_ball) ─ foot (hinge ankle, slide toe_slide), every later joint off
// its body's origin.
std::string MultijointModel() {
  std::string path = STICTION_SOURCE_DIR;
  path.append("/tests/scene/data/multijoint.xml");
  return path;
}

const BodyDescription& BodyNamed(const RobotDescription& r, const std::string& name) {
  for (const BodyDescription& b : r.bodies) {
    if (b.name == name) return b;
  }
  throw std::runtime_error("no body " + name);
}

TEST_F(MjcfImporterTest, SeveralJointsOnOneBodyBecomeAChainThroughMasslessJointFrames) {
  const RobotDescription r = ImportMjcf(MultijointModel());
  // Each body with n joints gets n − 1 joint frames before it, parents
  // first; the MuJoCo body itself comes after its last joint.
  std::vector<std::string> names;
  for (const BodyDescription& b : r.bodies) names.push_back(b.name);
  EXPECT_EQ(names, (std::vector<std::string>{"torso [rootx]", "torso [rootz]", "torso", "thigh [hip_y]", "thigh",
                                             "shin [knee_twist]", "shin", "foot [ankle]", "foot"}));
  for (const char* frame : {"torso [rootx]", "torso [rootz]", "thigh [hip_y]", "shin [knee_twist]", "foot [ankle]"}) {
    SCOPED_TRACE(frame);
    const BodyDescription& b = BodyNamed(r, frame);
    EXPECT_TRUE(b.joint_frame);
    EXPECT_EQ(b.mass, 0);
    EXPECT_TRUE(b.I_Bcm_B.isZero(0.0));
    EXPECT_TRUE(b.geometries.empty());
  }
  for (const char* body : {"torso", "thigh", "shin", "foot"}) {
    SCOPED_TRACE(body);
    EXPECT_FALSE(BodyNamed(r, body).joint_frame);
    EXPECT_GT(BodyNamed(r, body).mass, 0);  // The MuJoCo body keeps its mass and geometry.
    EXPECT_EQ(BodyNamed(r, body).geometries.size(), 1u);
  }
  EXPECT_DOUBLE_EQ(BodyNamed(r, "torso").mass, 5);

  // The chain, joint by joint, each joint under its MuJoCo name.
  auto link = [&](const std::string& joint, const std::string& parent, const std::string& child, JointType type) {
    SCOPED_TRACE(joint);
    const JointDescription& j = Joint(r, joint);
    EXPECT_EQ(j.parent, parent);
    EXPECT_EQ(j.child, child);
    EXPECT_EQ(j.type, type);
  };
  link("rootx", "world", "torso [rootx]", JointType::kPrismatic);
  link("rootz", "torso [rootx]", "torso [rootz]", JointType::kPrismatic);
  link("rooty", "torso [rootz]", "torso", JointType::kRevolute);
  link("hip_y", "torso", "thigh [hip_y]", JointType::kRevolute);
  link("hip_x", "thigh [hip_y]", "thigh", JointType::kRevolute);
  link("knee_twist", "thigh", "shin [knee_twist]", JointType::kRevolute);
  link("knee_ball", "shin [knee_twist]", "shin", JointType::kBall);
  link("ankle", "shin", "foot [ankle]", JointType::kRevolute);
  link("toe_slide", "foot [ankle]", "foot", JointType::kPrismatic);
  EXPECT_EQ(r.joints.size(), r.bodies.size());

  // Per-joint data still maps by name: limits and springs measured from
  // qpos0 (rootz's ref 0.05), damping, armature.
  EXPECT_DOUBLE_EQ(Joint(r, "rootx").damping, 0.5);
  EXPECT_DOUBLE_EQ(Joint(r, "rootx").rotor_inertia, 0.1);
  EXPECT_NEAR(Joint(r, "rootz").lower_limit, -1.05, 1e-15);
  EXPECT_NEAR(Joint(r, "rootz").upper_limit, 1.95, 1e-15);
  EXPECT_DOUBLE_EQ(Joint(r, "rooty").spring_stiffness, 2);
  EXPECT_DOUBLE_EQ(Joint(r, "rooty").spring_reference, 0.2);
  EXPECT_DOUBLE_EQ(Joint(r, "rooty").rotor_inertia, 0.02);
  EXPECT_DOUBLE_EQ(Joint(r, "hip_y").lower_limit, -0.5);
  EXPECT_DOUBLE_EQ(Joint(r, "hip_y").upper_limit, 1);
  EXPECT_DOUBLE_EQ(Joint(r, "hip_x").damping, 0.1);
  EXPECT_DOUBLE_EQ(Joint(r, "knee_ball").rotor_inertia, 0.01);
  EXPECT_EQ(Joint(r, "knee_ball").initial_q, (std::vector<double>{1, 0, 0, 0}));
  EXPECT_DOUBLE_EQ(Joint(r, "toe_slide").upper_limit, 0.05);
  ASSERT_EQ(r.actuators.size(), 2u);
  EXPECT_EQ(r.actuators[0].joint, "hip_y");
  EXPECT_DOUBLE_EQ(r.actuators[0].kp, 20);
  EXPECT_DOUBLE_EQ(r.joint_limits.at("hip_y").effort, 8);
  EXPECT_EQ(r.actuators[1].joint, "rootx");
  EXPECT_DOUBLE_EQ(r.actuators[1].kd, 2);
}

/// Every body's pose in Stiction's model against MuJoCo's mj_kinematics
/// (xpos, xquat) of the same file at the same coordinates: the chain of
/// joint frames composes a body's joints as MuJoCo does (in order, each
/// later joint's pos and axis in the body frame as moved by the joints
/// before it).
TEST_F(MjcfImporterTest, BodiesWithSeveralJointsArePosedAsMuJoCoPosesThem) {
  const std::string path = MultijointModel();
  char error[1000] = "";
  std::unique_ptr<mjModel, void (*)(mjModel*)> m(mj_loadXML(path.c_str(), nullptr, error, sizeof(error)), mj_deleteModel);
  ASSERT_TRUE(m) << error;
  std::unique_ptr<mjData, void (*)(mjData*)> d(mj_makeData(m.get()), mj_deleteData);
  Simulation sim(LoadSceneString("robots:\n  - file: " + path + "\n", "scene.yaml", dir_.string()));
  const MultibodyModel& model = sim.model();
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> unit(-1, 1);
  double worst_p = 0, worst_R = 0;
  for (int trial = 0; trial < 10; ++trial) {
    VectorX q = model.DefaultPositions();
    mju_copy(d->qpos, m->qpos0, m->nq);
    for (int jm = 0; jm < m->njnt; ++jm) {
      const int q_start = model.joint(model.FindJoint(mj_id2name(m.get(), mjOBJ_JOINT, jm))).q_start;
      const int qadr = m->jnt_qposadr[jm];
      if (m->jnt_type[jm] == mjJNT_BALL) {
        const Vector4 quat = Vector4(unit(rng), unit(rng), unit(rng), unit(rng)).normalized();
        q.segment<4>(q_start) = quat;
        for (int k = 0; k < 4; ++k) d->qpos[qadr + k] = quat[k];
      } else {
        q[q_start] = unit(rng);  // Ours is measured from qpos0.
        d->qpos[qadr] = m->qpos0[qadr] + q[q_start];
      }
    }
    sim.SetState(q, VectorX::Zero(model.num_velocities()));
    mj_kinematics(m.get(), d.get());
    for (const BodyState& s : sim.CalcBodyStates()) {
      const int b = mj_name2id(m.get(), mjOBJ_BODY, s.name.c_str());
      if (b < 0) continue;  // A joint frame: MuJoCo has no body for it.
      const Vector3 p_mj(d->xpos[3 * b], d->xpos[3 * b + 1], d->xpos[3 * b + 2]);
      const mjtNum* xq = d->xquat + 4 * b;
      const Matrix3 R_mj = Quaternion(xq[0], xq[1], xq[2], xq[3]).toRotationMatrix();
      worst_p = std::max(worst_p, (s.position - p_mj).norm());
      worst_R = std::max(worst_R, (s.orientation.toRotationMatrix() - R_mj).cwiseAbs().maxCoeff());
    }
  }
  // The same products of rotations and translations in another order: only
  // round-off apart. A jnt_pos taken in the wrong frame is off by ~1 cm.
  EXPECT_LT(worst_p, 1e-12);
  EXPECT_LT(worst_R, 1e-12);
}

// The joint frames carry no mass, so their own degrees of freedom have
// inertia only through the body they carry: M(q) must stay positive
// definite, and the robot simulates.
TEST_F(MjcfImporterTest, ARobotWithMultiJointBodiesHasAPositiveDefiniteMassMatrixAndSimulates) {
  Simulation sim(LoadSceneString("robots:\n  - file: " + MultijointModel() + "\n    name: m\n", "scene.yaml",
                                 dir_.string()));
  const MultibodyModel& model = sim.model();
  EXPECT_EQ(model.num_velocities(), 3 + 2 + (1 + 3) + 2);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> unit(-1, 1);
  double smallest = std::numeric_limits<double>::infinity();
  for (int trial = 0; trial < 20; ++trial) {
    VectorX q = model.DefaultPositions();
    for (int i = 0; i < q.size(); ++i) q[i] += unit(rng);
    model.NormalizeQuaternions(&q);
    VectorX v = VectorX::Zero(model.num_velocities());
    KinematicsCache cache(model);
    CalcKinematics(model, q, v, BodyRange::All(model), &cache);
    MatrixX M;
    CalcMassMatrix(model, cache, &M);
    smallest = std::min(smallest, Eigen::SelfAdjointEigenSolver<MatrixX>(M).eigenvalues().minCoeff());
  }
  EXPECT_GT(smallest, 0);
  std::printf("smallest eigenvalue of M over 20 random states: %.3e\n", smallest);
  EXPECT_EQ(sim.actuator_names(), (std::vector<std::string>{"m/hip_servo", "m/rootx_damper"}));
  for (int i = 0; i < 100; ++i) ASSERT_EQ(sim.Step().status, StepStatus::kSuccess);
  EXPECT_TRUE(sim.positions().allFinite());
}

// dm_control's finger keeps <option gravity> as written and disables it with
// a flag: MuJoCo's dynamics then have no gravity, and neither must the scene
// that takes the file's options (the MuJoCo cross-validation compares the
// bias of this file).
TEST_F(MjcfImporterTest, AFlagThatDisablesGravityLeavesTheFileWithoutGravity) {
  std::string path = STICTION_SOURCE_DIR;
  path.append("/tests/scene/data/gravity_disabled.xml");
  EXPECT_EQ(ImportMjcf(path).gravity, Vector3::Zero());
  const SceneDescription scene =
      LoadSceneString("robots:\n  - file: " + path + "\n    use_file_options: true\n", "scene.yaml", dir_.string());
  EXPECT_EQ(scene.gravity, Vector3::Zero());
}

// MuJoCo filters contacts between a body and its parent (unless the parent
// is the world); the joint frames between them must not hide that pair from
// Stiction's joint filter, which would otherwise see the torso as the
// thigh's grandparent.
TEST_F(MjcfImporterTest, ABodyWithSeveralJointsDoesNotCollideWithItsParent) {
  const SceneDescription scene =
      LoadSceneString("robots:\n  - file: " + MultijointModel() + "\n", "scene.yaml", dir_.string());
  const CompiledScene compiled = CompileScene(scene);
  const MultibodyModel& model = *compiled.multibody.model;
  const CollisionFilter& filter = compiled.collision->filter();
  const int torso = model.FindBody("torso"), thigh = model.FindBody("thigh");
  const int shin = model.FindBody("shin"), foot = model.FindBody("foot");
  ASSERT_GT(torso, 0);
  EXPECT_TRUE(filter.Excludes(torso, thigh));
  EXPECT_TRUE(filter.Excludes(thigh, shin));
  EXPECT_TRUE(filter.Excludes(shin, foot));
  // Grandparents and the world still collide, as in MuJoCo.
  EXPECT_FALSE(filter.Excludes(torso, shin));
  EXPECT_FALSE(filter.Excludes(thigh, foot));
  EXPECT_FALSE(filter.Excludes(torso, foot));
  EXPECT_FALSE(filter.Excludes(0, torso));
}

TEST_F(MjcfImporterTest, AJointFrameNameTakenByABodyIsRefused) {
  const std::string path = Write("clash.xml", R"(<mujoco>
  <worldbody>
    <body name="gimbal">
      <joint name="a" axis="1 0 0"/><joint name="b" axis="0 1 0"/>
      <geom type="sphere" size="0.1"/>
    </body>
    <body name="gimbal [a]"><geom type="sphere" size="0.1"/></body>
  </worldbody>
</mujoco>
)");
  EXPECT_THAT(MessageOf(path), HasSubstr("clash.xml: body 'gimbal' has 2 joints, and the name 'gimbal [a]' for the "
                                         "frame between joints 'a' and 'b' is taken by another body"));
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

// ------------------------------------------------------------------ meshes

// A 0.4 x 0.2 x 0.1 m box as an inline mesh whose vertices sit far from the
// mesh origin (x in [1, 1.4], y in [1, 1.2], z in [0.5, 0.6]) and whose
// longest side is along x: MuJoCo's compiler moves the vertices to the
// centroid and turns them onto the principal axes (longest inertia axis
// first), compensating in geom_pos/geom_quat. The same corners as a file
// (an OBJ written beside the model) on a second geom with a pose of its own.
constexpr char kBoxVertices[] =
    "1 1 0.5  1.4 1 0.5  1 1.2 0.5  1.4 1.2 0.5  1 1 0.6  1.4 1 0.6  1 1.2 0.6  1.4 1.2 0.6";
// Outward, counter-clockwise; vertex k has bits (x, y, z) = (k&1, k&2, k&4).
constexpr char kBoxFaces[] = "0 2 3  0 3 1  4 5 7  4 7 6  0 1 5  0 5 4  2 6 7  2 7 3  0 4 6  0 6 2  1 3 7  1 7 5";

std::vector<Vector3> BoxCorners() {
  std::vector<Vector3> out;
  for (int k = 0; k < 8; ++k) out.emplace_back(k & 1 ? 1.4 : 1.0, k & 2 ? 1.2 : 1.0, k & 4 ? 0.6 : 0.5);
  return out;
}

std::string BoxObj() {
  std::string obj;
  for (const Vector3& p : BoxCorners()) {
    obj += "v " + std::to_string(p.x()) + " " + std::to_string(p.y()) + " " + std::to_string(p.z()) + "\n";
  }
  std::istringstream faces(kBoxFaces);
  int a = 0, b = 0, c = 0;
  while (faces >> a >> b >> c) obj += "f " + std::to_string(a + 1) + " " + std::to_string(b + 1) + " " + std::to_string(c + 1) + "\n";
  return obj;
}

std::string MeshModel() {
  return std::string(R"(<mujoco model="meshes">
  <asset>
    <mesh name="slab" vertex=")") + kBoxVertices + R"(" face=")" + kBoxFaces + R"("/>
    <mesh name="slab_file" file="slab.obj"/>
  </asset>
  <worldbody>
    <body name="holder" pos="0.3 -0.2 1" euler="20 -35 50">
      <freejoint/>
      <geom name="inline" type="mesh" mesh="slab" density="1000"/>
      <geom name="from_file" type="mesh" mesh="slab_file" pos="0 0 -2" euler="0 90 0" density="1000" group="3"/>
    </body>
  </worldbody>
</mujoco>
)";
}

const GeometryDescription& Geometry(const RobotDescription& r, const std::string& name) {
  for (const BodyDescription& b : r.bodies) {
    for (const GeometryDescription& g : b.geometries) {
      if (g.name == name) return g;
    }
  }
  throw std::runtime_error("no geometry " + name);
}

RigidTransform FromEuler(const Vector3& degrees) {
  // MJCF's default eulerseq "xyz": rotations about the moving axes, in order.
  const Vector3 r = degrees * (M_PI / 180);
  RigidTransform X;
  X.R = (Eigen::AngleAxisd(r.x(), Vector3::UnitX()) * Eigen::AngleAxisd(r.y(), Vector3::UnitY()) *
         Eigen::AngleAxisd(r.z(), Vector3::UnitZ()))
            .toRotationMatrix();
  return X;
}

TEST_F(MjcfImporterTest, MeshGeomsCarryMuJoCosCompiledVerticesAndPoses) {
  Write("slab.obj", BoxObj());
  const std::string path = Write("meshes.xml", MeshModel());
  const RobotDescription r = ImportMjcf(path);
  // No note about a mesh (each note starts with the file's path, which has "mesh" in it).
  for (const std::string& note : r.notes) EXPECT_THAT(note.substr(path.size()), Not(HasSubstr("mesh"))) << note;
  ASSERT_EQ(r.bodies.size(), 1u);
  ASSERT_EQ(r.bodies[0].geometries.size(), 2u);

  // The compiled body pose (a free body: its initial pose), for the check
  // against the file's own corners below.
  const JointDescription& free = r.joints.at(0);
  ASSERT_EQ(free.initial_q.size(), 7u);
  RigidTransform X_WB;
  X_WB.R = Quaternion(free.initial_q[0], free.initial_q[1], free.initial_q[2], free.initial_q[3]).toRotationMatrix();
  X_WB.p = Vector3(free.initial_q[4], free.initial_q[5], free.initial_q[6]);
  RigidTransform X_WB_file = FromEuler(Vector3(20, -35, 50));
  X_WB_file.p = Vector3(0.3, -0.2, 1);
  // The file's Euler angles against MuJoCo's compiled quaternion (a check of
  // FromEuler's convention, so that the comparison below means something).
  ASSERT_TRUE(X_WB.R.isApprox(X_WB_file.R, 1e-12)) << X_WB.R << "\n" << X_WB_file.R;

  // MuJoCo's own world-frame vertices: geom_xpos + geom_xmat v for the
  // compiled vertices v of each mesh geom.
  std::array<char, 1000> error{};
  mjModel* m = mj_loadXML(path.c_str(), nullptr, error.data(), static_cast<int>(error.size()));
  ASSERT_NE(m, nullptr) << error.data();
  mjData* d = mj_makeData(m);
  mj_kinematics(m, d);

  const RigidTransform X_BG_file_geom = [] {
    RigidTransform X = FromEuler(Vector3(0, 90, 0));
    X.p = Vector3(0, 0, -2);
    return X;
  }();
  for (const std::string name : {"inline", "from_file"}) {
    SCOPED_TRACE(name);
    const GeometryDescription& g = Geometry(r, name);
    ASSERT_EQ(g.shape.type, ShapeType::kMesh);
    ASSERT_NE(g.shape.mesh_data, nullptr);
    EXPECT_TRUE(g.shape.mesh_file.empty());
    EXPECT_EQ(g.shape.mesh_data->name, (name == "inline" ? "mesh 'slab' of " : "mesh 'slab_file' of ") + path);
    const std::vector<Vector3>& v_G = g.shape.mesh_data->vertices_G;
    // Inline: the 8 corners as written. From the OBJ file, MuJoCo 2.2's
    // reader gives each triangle three vertices of its own (36).
    ASSERT_EQ(v_G.size(), name == "inline" ? 8u : 36u);
    EXPECT_EQ(g.shape.mesh_data->triangles.size(), 12u);
    // The compiled geom frame is the mesh's inertial frame, not the file's
    // geom frame: the centroid (1.2, 1.1, 0.55) of the file's corners moved
    // into the pose, the vertices now surround G's origin. (Were the file's
    // vertices used with this pose, the checks below would fail by about a
    // metre.)
    const RigidTransform X_BG_in_file = name == "inline" ? RigidTransform::Identity() : X_BG_file_geom;
    EXPECT_GT((g.X_BG.p - X_BG_in_file.p).norm(), 1.0);
    Vector3 lo = v_G[0], hi = v_G[0];
    for (const Vector3& p : v_G) lo = lo.cwiseMin(p), hi = hi.cwiseMax(p);
    EXPECT_LT((lo + hi).norm(), 1e-6);  // Single-precision vertices.

    const int id = mj_name2id(m, mjOBJ_GEOM, name.c_str());
    ASSERT_GE(id, 0);
    const int mesh = m->geom_dataid[id];
    ASSERT_EQ(m->mesh_vertnum[mesh], static_cast<int>(v_G.size()));
    const mjtNum* xpos = d->geom_xpos + 3 * id;
    const mjtNum* xmat = d->geom_xmat + 9 * id;
    Matrix3 R_WG_mj;
    R_WG_mj << xmat[0], xmat[1], xmat[2], xmat[3], xmat[4], xmat[5], xmat[6], xmat[7], xmat[8];
    const RigidTransform X_WG = X_WB * g.X_BG;
    const std::vector<Vector3> corners = BoxCorners();
    std::vector<int> hits(8, 0);
    for (size_t k = 0; k < v_G.size(); ++k) {
      const float* v = m->mesh_vert + 3 * (m->mesh_vertadr[mesh] + k);
      const Vector3 p_W_mj = Vector3(xpos[0], xpos[1], xpos[2]) + R_WG_mj * Vector3(v[0], v[1], v[2]);
      const Vector3 p_W = X_WG * v_G[k];
      // The same compiled (float) vertex through two compositions of the
      // same double-precision poses: only rounding of ~1 m lever arms.
      EXPECT_LT((p_W - p_W_mj).norm(), 1e-12) << "vertex " << k;
      // Against the file's corners through the file's poses: MuJoCo stored
      // the moved vertices in single precision (a relative 6e-8 of
      // coordinates up to 1.4 m, ~1e-7 m), hence 1e-6 m. The inline mesh
      // keeps its vertex order; the OBJ's vertices are matched to the
      // nearest corner, and every corner must be hit.
      int nearest = 0;
      for (int c = 1; c < 8; ++c) {
        if ((p_W - X_WB_file * (X_BG_in_file * corners[c])).norm() <
            (p_W - X_WB_file * (X_BG_in_file * corners[nearest])).norm()) {
          nearest = c;
        }
      }
      if (name == "inline") {
        EXPECT_EQ(nearest, static_cast<int>(k));
      }
      ++hits[nearest];
      const Vector3 corner_W = X_WB_file * (X_BG_in_file * corners[nearest]);
      EXPECT_LT((p_W - corner_W).norm(), 1e-6) << "vertex " << k << ": " << p_W.transpose() << " vs "
                                               << corner_W.transpose();
    }
    for (int c = 0; c < 8; ++c) EXPECT_GT(hits[c], 0) << "corner " << c;
  }
  // One MeshData per mesh, however many geoms use it; equal corners in the
  // two meshes (inline, file) still give two.
  EXPECT_NE(Geometry(r, "inline").shape.mesh_data, Geometry(r, "from_file").shape.mesh_data);

  // Mass properties come from MuJoCo's compiled body inertia, which
  // integrated the meshes: two 0.4 x 0.2 x 0.1 m slabs at 1000 kg/m³, 8 kg
  // each; the inline one's centroid (1.2, 1.1, 0.55) and the file one's
  // (0.55, 1.1, -3.2) after its 90° turn about y and 2 m drop.
  EXPECT_NEAR(r.bodies[0].mass, 16, 16 * 1e-6);  // MuJoCo's float vertices.
  const Vector3 c1(1.2, 1.1, 0.55), c2 = X_BG_file_geom * Vector3(1.2, 1.1, 0.55);
  EXPECT_LT((r.bodies[0].com_B - 0.5 * (c1 + c2)).norm(), 1e-6);

  mj_deleteData(d);
  mj_deleteModel(m);
}

// A mesh of MuJoCo's that Stiction would draw and collide wrongly is refused
// by name: a slab whose corners are so far out that the compiler's inertia
// overflows single precision compiles, in MuJoCo 2.2, to NaN vertices (the
// body's explicit inertial keeps MuJoCo itself from objecting). MuJoCo's own
// refusal of a bad mesh (a flat one) keeps its message, which names the mesh
// and the line. (Not tested: a face index out of range, which MuJoCo 2.2.2
// refuses only after writing past a buffer; valgrind shows it.)
TEST_F(MjcfImporterTest, BadMeshesAreRefusedNamingTheGeomAndMesh) {
  const std::string overflow = Write("overflow.xml", R"(<mujoco>
  <asset>
    <mesh name="huge" vertex="-3e38 0 0  3e38 0 0  0 3e38 0  0 0 3e38"/>
  </asset>
  <worldbody>
    <body name="b">
      <freejoint/>
      <inertial pos="0 0 0" mass="1" diaginertia="1 1 1"/>
      <geom name="g" type="mesh" mesh="huge"/>
    </body>
  </worldbody>
</mujoco>
)");
  const std::string message = MessageOf(overflow);
  EXPECT_THAT(message, HasSubstr("overflow.xml: geom 'g' (body 'b'): mesh 'huge': vertex 0 is not finite"));
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;

  const std::string flat = Write("flat.xml", R"(<mujoco>
  <asset>
    <mesh name="sheet" vertex="0 0 0  1 0 0  0 1 0  1 1 0"/>
  </asset>
  <worldbody>
    <body name="b"><freejoint/><geom type="mesh" mesh="sheet" mass="1"/></body>
  </worldbody>
</mujoco>
)");
  EXPECT_THAT(MessageOf(flat), AllOf(HasSubstr("flat.xml: MuJoCo refused the model"),
                                     HasSubstr("sheet"), HasSubstr("line = 3")));
}

// libmujoco 2.2.2 throws a C++ exception out of mj_loadXML for a mesh file
// name under 3 characters (found by robot_fuzz_test): an InputError naming
// the file, not a crash.
// MuJoCo's own warning handler appends to MUJOCO_LOG.TXT in the working
// directory; an import must leave the user's directory alone and keep the
// warning in its notes (found by fuzzing: a NaN in the XML warns).
TEST_F(MjcfImporterTest, MuJoCoWarningsGoToTheNotesNotToALogFileInTheWorkingDirectory) {
  const std::string path = Write("nan.xml", R"(<mujoco>
  <worldbody>
    <body name="arm" pos="0 0 0.5">
      <joint name="j" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.02" rgba="NaN 1 1 1"/>
    </body>
  </worldbody>
</mujoco>
)");
  const std::filesystem::path cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir_);
  std::string notes;
  try {
    for (const std::string& note : ImportMjcf(path).notes) notes += note + "\n";
  } catch (const InputError& e) {
    notes = e.what();  // Refused is fine too; what matters is where the warning went.
  }
  std::filesystem::current_path(cwd);
  EXPECT_FALSE(std::filesystem::exists(dir_ / "MUJOCO_LOG.TXT"));
  EXPECT_THAT(notes, HasSubstr("NaN")) << notes;
}

TEST_F(MjcfImporterTest, AnExceptionFromMuJoCosCompilerBecomesAnInputError) {
  const std::string path = Write("short.xml", R"(<mujoco>
  <asset><mesh name="m" file="0"/></asset>
  <worldbody><body name="b"><freejoint/><geom type="mesh" mesh="m" mass="1"/></body></worldbody>
</mujoco>
)");
  const std::string message = MessageOf(path);
  EXPECT_THAT(message, HasSubstr(path + ": MuJoCo could not compile the model: its compiler failed with '"));
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

// The slab falls 5 cm onto a plane beside a primitive box of the same size
// and density. Its compiled pose has the long side along the mesh frame's z
// (principal axes); resting on its largest face, its centroid sits at half
// the 0.1 m height, not at 0.1 or 0.2 m as it would on another face, less
// the compliant contact's penetration: at most mg/k = 78 µm for 8 kg on one
// contact at the default k = 1e6 N/m (spread over the corners it is less),
// hence 0.1 mm. Against the primitive box, whose contact manifold is
// computed from the same polytope faces, only MuJoCo's single-precision
// vertices (and so its mass, to ~1e-7) differ: 1 µm.
TEST_F(MjcfImporterTest, AMeshSlabComesToRestOnItsLargestFace) {
  const std::string path = Write("drop.xml", std::string(R"(<mujoco>
  <asset>
    <mesh name="slab" vertex=")") + kBoxVertices + R"(" face=")" + kBoxFaces + R"("/>
  </asset>
  <worldbody>
    <geom name="floor" type="plane" size="0 0 1"/>
    <body name="mesh_slab" pos="-1.2 -1.1 -0.45">
      <freejoint/>
      <geom type="mesh" mesh="slab" density="1000"/>
    </body>
    <body name="box_slab" pos="0 1 0.1">
      <freejoint/>
      <geom type="box" size="0.2 0.1 0.05" density="1000"/>
    </body>
  </worldbody>
</mujoco>
)");
  const SceneDescription scene = LoadSceneString("time_step: 0.005\nrobots:\n  - file: " + path + "\n    name: m\n",
                                                 "scene.yaml", dir_.string());
  const GeometryDescription* slab = nullptr;
  const BodyDescription* slab_body = nullptr;
  for (const BodyDescription& b : scene.bodies) {
    for (const GeometryDescription& g : b.geometries) {
      if (g.shape.type == ShapeType::kMesh) slab = &g, slab_body = &b;
    }
  }
  ASSERT_NE(slab, nullptr);
  Simulation sim(scene);
  auto heights = [&](double* lowest, double* highest) {
    const RigidTransform X_WG = sim.CalcFramePose(slab_body->name, slab->X_BG);
    *lowest = 1e9, *highest = -1e9;
    for (const Vector3& p : slab->shape.mesh_data->vertices_G) {
      *lowest = std::min(*lowest, (X_WG * p).z());
      *highest = std::max(*highest, (X_WG * p).z());
    }
  };
  double lowest = 0, highest = 0;
  heights(&lowest, &highest);
  EXPECT_NEAR(lowest, 0.05, 1e-6);  // Dropped from 5 cm (the file's corners at z = 0.5 + (−0.45)).
  for (int i = 0; i < 300; ++i) ASSERT_EQ(sim.Step().status, StepStatus::kSuccess);  // 1.5 s.
  heights(&lowest, &highest);
  const Vector3 centroid_W = sim.CalcFramePose(slab_body->name, slab->X_BG).p;
  const Vector3 box_W = sim.CalcFramePose("m/box_slab").p;
  std::printf("slab at rest: centroid z %.6f m, lowest vertex %.3e m, box z %.6f m, max |v| %.2e\n",
              centroid_W.z(), lowest, box_W.z(), sim.velocities().cwiseAbs().maxCoeff());
  EXPECT_LT(sim.velocities().cwiseAbs().maxCoeff(), 1e-3);  // At rest.
  EXPECT_NEAR(centroid_W.z(), 0.05, 1e-4);
  EXPECT_NEAR(highest - lowest, 0.1, 1e-6);  // Flat on its largest face: no tilt.
  EXPECT_NEAR(lowest, 0, 1e-4);
  EXPECT_NEAR(centroid_W.z(), box_W.z(), 1e-6);
  // It fell straight: the centroid stayed above where it started.
  EXPECT_LT(centroid_W.head<2>().norm(), 1e-3);
}

// rest_on_ground places a robot by its lowest collision point: for an
// in-memory mesh its lowest vertex (here of two slabs on a turned body, the
// file one 2 m below the body's origin).
TEST_F(MjcfImporterTest, RestOnGroundPlacesMeshesByTheirLowestVertex) {
  Write("slab.obj", BoxObj());
  const std::string path = Write("meshes.xml", MeshModel());
  const SceneDescription scene = LoadSceneString(
      "robots:\n  - file: " + path + "\n    name: m\n    rest_on_ground: true\n", "scene.yaml", dir_.string());
  const Simulation sim(scene);
  ASSERT_EQ(scene.bodies.size(), 1u);
  double lowest = 1e9;
  for (const GeometryDescription& g : scene.bodies[0].geometries) {
    ASSERT_NE(g.shape.mesh_data, nullptr);
    const RigidTransform X_WG = sim.CalcFramePose(scene.bodies[0].name, g.X_BG);
    for (const Vector3& p : g.shape.mesh_data->vertices_G) lowest = std::min(lowest, (X_WG * p).z());
  }
  // The same poses composed in another order: rounding only.
  EXPECT_NEAR(lowest, 0, 1e-9);
}

}  // namespace
}  // namespace stiction
