// The Joints and Control sections' rows without a window
// (app/ui/joint_control.h): slider ranges from joint limits, units, the
// filter, and the rows of a robot file opened by itself.
#include "app/ui/joint_control.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <string>

#include "engine/simulation.h"

namespace stiction::app {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

Joint MakeJoint(JointType type, double lower, double upper) {
  Joint j;
  j.type = type;
  j.lower_limit = lower;
  j.upper_limit = upper;
  return j;
}

TEST(JointControlTest, SliderSpansTheLimitsOrADefaultWhereThereIsNone) {
  SliderRange r = JointSliderRange(MakeJoint(JointType::kRevolute, -1.5, 2.0));
  EXPECT_EQ(r.lower, -1.5);
  EXPECT_EQ(r.upper, 2.0);
  EXPECT_TRUE(r.lower_is_limit && r.upper_is_limit);

  r = JointSliderRange(MakeJoint(JointType::kRevolute, -kInf, kInf));  // A continuous joint.
  EXPECT_DOUBLE_EQ(r.lower, -std::numbers::pi);
  EXPECT_DOUBLE_EQ(r.upper, std::numbers::pi);
  EXPECT_FALSE(r.lower_is_limit || r.upper_is_limit);

  r = JointSliderRange(MakeJoint(JointType::kPrismatic, -kInf, kInf));
  EXPECT_EQ(r.lower, -1.0);
  EXPECT_EQ(r.upper, 1.0);

  // One side: the default span reaches from the limit that exists, so a
  // lower limit beyond +180 deg still leaves an interval.
  r = JointSliderRange(MakeJoint(JointType::kRevolute, 4.0, kInf));
  EXPECT_EQ(r.lower, 4.0);
  EXPECT_DOUBLE_EQ(r.upper, 4.0 + 2 * std::numbers::pi);
  EXPECT_TRUE(r.lower_is_limit);
  EXPECT_FALSE(r.upper_is_limit);
  r = JointSliderRange(MakeJoint(JointType::kPrismatic, -kInf, -0.5));
  EXPECT_EQ(r.upper, -0.5);
  EXPECT_EQ(r.lower, -2.5);

  // NaN limits count as none; equal limits still give a usable slider.
  r = JointSliderRange(MakeJoint(JointType::kPrismatic, std::nan(""), std::nan("")));
  EXPECT_EQ(r.lower, -1.0);
  EXPECT_EQ(r.upper, 1.0);
  r = JointSliderRange(MakeJoint(JointType::kRevolute, 0.3, 0.3));
  EXPECT_LT(r.lower, 0.3);
  EXPECT_GT(r.upper, 0.3);
}

TEST(JointControlTest, RevoluteShowsDegreesAndPrismaticMetres) {
  EXPECT_DOUBLE_EQ(ToShown(true, std::numbers::pi / 2), 90.0);
  EXPECT_DOUBLE_EQ(FromShown(true, 90.0), std::numbers::pi / 2);
  EXPECT_EQ(ToShown(false, 0.25), 0.25);
  EXPECT_EQ(FromShown(false, 0.25), 0.25);
  EXPECT_STREQ(ShownUnit(true), "deg");
  EXPECT_STREQ(ShownUnit(false), "m");
}

TEST(JointControlTest, FilterMatchesAnyPartOfTheNameInAnyCase) {
  EXPECT_TRUE(MatchesFilter("iiwa_joint_4", ""));
  EXPECT_TRUE(MatchesFilter("iiwa_joint_4", "JOINT_4"));
  EXPECT_TRUE(MatchesFilter("dog/FL_calf_joint", "fl_"));
  EXPECT_FALSE(MatchesFilter("dog/FL_calf_joint", "fr_"));
  EXPECT_FALSE(MatchesFilter("a", "ab"));
}

// A robot file opened by itself gets joint PD on every joint
// (engine/scene/robot_file_scene.cpp): each joint row finds its actuator,
// whose row carries the joint's range and the scene's target.
TEST(JointControlTest, ARobotFileGetsOneSliderPerJointAndPerActuator) {
  const Simulation sim = Simulation::FromFile(STICTION_SOURCE_DIR "/assets/robots/iiwa14.urdf");
  JointControls c = BuildJointControls(sim);
  ASSERT_EQ(c.joints.size(), 7u);
  ASSERT_EQ(c.actuators.size(), 7u);
  EXPECT_EQ(c.other_joints, 0);
  for (const JointRow& row : c.joints) {
    SCOPED_TRACE(row.name);
    const Joint& joint = sim.model().joint(row.joint);
    EXPECT_EQ(joint.name, row.name);
    EXPECT_TRUE(row.revolute);
    EXPECT_EQ(row.range.lower, joint.lower_limit);
    EXPECT_EQ(row.range.upper, joint.upper_limit);
    ASSERT_GE(row.actuator, 0);
    const ActuatorRow& a = c.actuators[row.actuator];
    EXPECT_EQ(a.joint, row.joint);
    EXPECT_EQ(a.joint_name, row.name);
    EXPECT_FALSE(a.gripper_driven);
    EXPECT_EQ(a.scene_position, sim.actuator(a.name).target_position);
    // The slider holds the actuator's target, the joint's position is beside it.
    EXPECT_EQ(JointSliderValue(c, row, sim), sim.actuator(a.name).target_position);
    EXPECT_EQ(JointPosition(row.joint, sim), sim.positions()[joint.q_start]);
    EXPECT_TRUE(JointSliderEditable(c, row, /*paused=*/false));
  }
  c.joint_filter = "_4";
  ASSERT_EQ(FilteredJoints(c).size(), 1u);
  EXPECT_NE(c.joints[FilteredJoints(c)[0]].name.find("_4"), std::string::npos);
  c.joint_filter = "no such joint";
  EXPECT_TRUE(FilteredJoints(c).empty());
  // The Control filter also matches the actuator's joint name.
  c.actuator_filter = c.joints[2].name;
  ASSERT_EQ(FilteredActuators(c).size(), 1u);
  EXPECT_EQ(c.actuators[FilteredActuators(c)[0]].joint, c.joints[2].joint);
}

// A gripper's actuators are set by the gripper before every step: their
// sliders are read-only while running, the joints without actuator too.
TEST(JointControlTest, GripperActuatorsAndBareJointsAreReadOnlyWhileRunning) {
  const Simulation sim = Simulation::FromFile(STICTION_SOURCE_DIR "/assets/scenes/grasp_box.yaml");
  const JointControls c = BuildJointControls(sim);
  int gripper = 0;
  for (const ActuatorRow& a : c.actuators) gripper += a.gripper_driven ? 1 : 0;
  EXPECT_GE(gripper, 4) << "the gantry's x, y, z, yaw";
  for (const JointRow& row : c.joints) {
    const bool driven = row.actuator >= 0 && c.actuators[row.actuator].gripper_driven;
    EXPECT_EQ(JointSliderEditable(c, row, /*paused=*/false), row.actuator >= 0 && !driven) << row.name;
    EXPECT_TRUE(JointSliderEditable(c, row, /*paused=*/true)) << row.name;
  }
  const JointControls pendulum =
      BuildJointControls(Simulation::FromFile(STICTION_SOURCE_DIR "/assets/scenes/pendulum.yaml"));
  ASSERT_EQ(pendulum.joints.size(), 1u);
  EXPECT_EQ(pendulum.joints[0].actuator, -1);
  EXPECT_FALSE(JointSliderEditable(pendulum, pendulum.joints[0], /*paused=*/false));
}

}  // namespace
}  // namespace stiction::app
