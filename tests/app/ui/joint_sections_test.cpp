// The Joints and Control sections in the viewer (docs/viewer.md, "Joints
// and Control"): a robot file opened by itself is moved through the same
// functions the sliders call (app/ui/joint_control.h), running (its PD
// targets) and paused (posed kinematically); the filter, a 64-joint robot
// in a scrolling table, and a reload that starts the sliders over. A real
// hidden window under Xvfb (tests/app/run_under_xvfb.sh), as app_test.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "app/app.h"
#include "app/ui/joint_control.h"
#include "tests/support/scratch_dir.h"

namespace stiction::app {
namespace {

namespace fs = std::filesystem;

AppOptions Options(const std::string& scene, bool paused) {
  AppOptions o;
  o.scene_path = scene;
  o.width = 1280;
  o.height = 720;
  o.visible = false;
  o.vsync = false;
  o.paused = paused;
  o.steps_per_frame = 10;  // 0.1 s per frame at the robot scene's δt = 10 ms: exact step counts.
  return o;
}

fs::path WriteTempFile(const std::string& name, const std::string& text) {
  const fs::path dir = test::TempPath("stiction-joint-sections-test");
  fs::create_directories(dir);
  const fs::path file = dir / name;
  std::ofstream(file) << text;
  return file;
}

std::string Link(const std::string& name, double mass, const std::string& extra = "") {
  return "  <link name=\"" + name + "\"><inertial><mass value=\"" + std::to_string(mass) +
         "\"/><inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.01\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/></inertial>\n"
         "    <visual><geometry><box size=\"0.1 0.1 0.1\"/></geometry></visual>" + extra + "</link>\n";
}

// A base on the ground with a turret spinning about z (limits ±2 rad), a
// carriage lifted along z (0–0.3 m) and a continuous wheel joint (no
// limits). Only the base collides, so nothing but the PD and gravity acts.
fs::path TurretUrdf() {
  return WriteTempFile(
      "turret.urdf",
      "<robot name=\"turret\">\n" +
          Link("base", 5, "<collision><geometry><box size=\"0.4 0.4 0.1\"/></geometry></collision>") +
          Link("turret", 1) + Link("carriage", 0.5) + Link("wheel", 0.2) +
          "  <joint name=\"spin\" type=\"revolute\"><parent link=\"base\"/><child link=\"turret\"/>"
          "<origin xyz=\"0 0 0.1\"/><axis xyz=\"0 0 1\"/><limit lower=\"-2\" upper=\"2\" effort=\"100\" velocity=\"1\"/></joint>\n"
          "  <joint name=\"lift\" type=\"prismatic\"><parent link=\"turret\"/><child link=\"carriage\"/>"
          "<origin xyz=\"0 0 0.1\"/><axis xyz=\"0 0 1\"/><limit lower=\"0\" upper=\"0.3\" effort=\"100\" velocity=\"1\"/></joint>\n"
          "  <joint name=\"wheel_spin\" type=\"continuous\"><parent link=\"carriage\"/><child link=\"wheel\"/>"
          "<origin xyz=\"0 0 0.1\"/><axis xyz=\"0 0 1\"/></joint>\n"
          "</robot>\n");
}

// The row of the joint whose name ends with `suffix` (robot joints may be
// prefixed with the robot's name).
const JointRow& Row(App& app, const std::string& suffix) {
  for (const JointRow& row : app.ui().joint_controls.joints) {
    if (row.name.size() >= suffix.size() && row.name.compare(row.name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      return row;
    }
  }
  ADD_FAILURE() << "no joint row named *" << suffix;
  static const JointRow none;
  return none;
}

double Q(App& app, const JointRow& row) { return app.simulation().positions()[app.simulation().model().joint(row.joint).q_start]; }

TEST(JointSectionsTest, ARunningRobotFollowsTheJointSlidersThroughItsPd) {
  App app(Options(TurretUrdf().string(), /*paused=*/false));
  ASSERT_FALSE(app.ui().message_is_error) << app.ui().message;
  const JointControls& c = app.ui().joint_controls;
  ASSERT_EQ(c.joints.size(), 3u);
  ASSERT_EQ(c.actuators.size(), 3u);  // joint_pd on every joint.
  const JointRow& spin = Row(app, "spin");
  const JointRow& lift = Row(app, "lift");
  const JointRow& wheel = Row(app, "wheel_spin");
  EXPECT_TRUE(spin.revolute);
  EXPECT_FALSE(lift.revolute);
  EXPECT_EQ(lift.range.lower, 0.0);
  EXPECT_EQ(lift.range.upper, 0.3);
  EXPECT_FALSE(wheel.range.lower_is_limit || wheel.range.upper_is_limit);  // Continuous: ±180 deg.
  app.Frame();
  const double spin0 = Q(app, spin), lift0 = Q(app, lift);
  ASSERT_LT(std::abs(spin0), 0.05);

  // The sliders' call, running: the actuators' targets, nothing else.
  ASSERT_TRUE(ApplyJointSlider(c, spin, 1.0, app.physics().paused(), &app.ui(), &app)) << app.ui().message;
  ASSERT_TRUE(ApplyJointSlider(c, lift, 0.2, app.physics().paused(), &app.ui(), &app)) << app.ui().message;
  EXPECT_EQ(app.simulation().actuator(c.actuators[spin.actuator].name).target_position, 1.0);
  EXPECT_EQ(JointSliderValue(c, lift, app.simulation()), 0.2);
  EXPECT_EQ(Q(app, spin), spin0) << "running, a slider must not teleport the joint";
  for (int i = 0; i < 10; ++i) app.Frame();  // 1 s.
  // kp 100 N m/rad, kd 10 on about 0.03 kg m² about z: settled within 1 s.
  EXPECT_NEAR(Q(app, spin), 1.0, 0.02);
  // The carriage and wheel (0.7 kg) reach the target: gravity compensation
  // (a robot file opened on its own) holds their weight, which would sag
  // them by m g / kp = 0.07 m under the lift's PD alone.
  EXPECT_GT(Q(app, lift), lift0 + 0.1);
  EXPECT_NEAR(Q(app, lift), 0.2, 0.01);

  // A value beyond the limits moves the target to the limit.
  ASSERT_TRUE(ApplyJointSlider(c, spin, 5.0, false, &app.ui(), &app));
  EXPECT_EQ(app.simulation().actuator(c.actuators[spin.actuator].name).target_position, 2.0);
  // NaN is refused with a message and changes nothing.
  EXPECT_FALSE(ApplyJointSlider(c, spin, std::nan(""), false, &app.ui(), &app));
  EXPECT_TRUE(app.ui().message_is_error);
  EXPECT_EQ(app.simulation().actuator(c.actuators[spin.actuator].name).target_position, 2.0);
}

TEST(JointSectionsTest, APausedRobotIsPosedExactlyAtRestAndHoldsThePose) {
  App app(Options(TurretUrdf().string(), /*paused=*/true));
  app.Frame();
  const JointControls& c = app.ui().joint_controls;
  const JointRow& spin = Row(app, "spin");
  const JointRow& lift = Row(app, "lift");
  const double spin0 = Q(app, spin);
  ASSERT_TRUE(app.physics().paused());
  ASSERT_TRUE(ApplyJointSlider(c, lift, 0.15, app.physics().paused(), &app.ui(), &app)) << app.ui().message;
  EXPECT_EQ(Q(app, lift), 0.15);  // Exactly: set, not simulated.
  EXPECT_EQ(Q(app, spin), spin0);  // The other joints stay.
  EXPECT_TRUE(app.simulation().velocities().isZero(0.0));
  // Its actuator's target moved with it: the slider shows the pose.
  EXPECT_EQ(JointSliderValue(c, lift, app.simulation()), 0.15);
  for (int i = 0; i < 3; ++i) app.Frame();
  EXPECT_EQ(Q(app, lift), 0.15) << "paused frames must not move the pose";
  EXPECT_EQ(app.snapshot().time, 0.0);

  // Run: the PD holds the new pose (it sags by m g / kp = 0.07 m at most)
  // instead of pulling the carriage back to 0.
  app.TogglePause();
  for (int i = 0; i < 10; ++i) app.Frame();
  EXPECT_GT(Q(app, lift), 0.15 - 0.08);
}

// A joint without an actuator: read-only while running (its value is
// shown), settable while paused.
TEST(JointSectionsTest, AJointWithoutActuatorIsReadOnlyWhileRunning) {
  App app(Options(STICTION_SOURCE_DIR "/assets/scenes/pendulum.yaml", /*paused=*/false));
  app.Frame();
  const JointControls& c = app.ui().joint_controls;
  ASSERT_EQ(c.joints.size(), 1u);
  const JointRow& hinge = c.joints[0];
  EXPECT_EQ(hinge.actuator, -1);
  EXPECT_TRUE(c.actuators.empty());
  EXPECT_EQ(JointSliderValue(c, hinge, app.simulation()), Q(app, hinge));  // It shows the position.
  const double q = Q(app, hinge);
  EXPECT_FALSE(ApplyJointSlider(c, hinge, 0.1, app.physics().paused(), &app.ui(), &app));
  EXPECT_TRUE(app.ui().message_is_error);
  EXPECT_NE(app.ui().message.find("pause"), std::string::npos) << app.ui().message;
  EXPECT_EQ(Q(app, hinge), q);
  app.TogglePause();
  ASSERT_TRUE(ApplyJointSlider(c, hinge, 0.1, app.physics().paused(), &app.ui(), &app)) << app.ui().message;
  EXPECT_EQ(Q(app, hinge), 0.1);
  EXPECT_EQ(app.simulation().velocities()[0], 0.0);
}

// The Control section: one slider per actuator through the same call as
// the Joints section (both show the new target), and Reset targets.
TEST(JointSectionsTest, ControlSlidersShareTheTargetsAndResetToTheScene) {
  App app(Options(TurretUrdf().string(), /*paused=*/false));
  app.Frame();
  const JointControls& c = app.ui().joint_controls;
  const JointRow& spin = Row(app, "spin");
  const ActuatorRow& motor = c.actuators[spin.actuator];
  ASSERT_TRUE(ApplyActuatorSlider(motor, -1.25, &app.ui(), &app)) << app.ui().message;
  EXPECT_EQ(app.simulation().actuator(motor.name).target_position, -1.25);
  EXPECT_EQ(JointSliderValue(c, spin, app.simulation()), -1.25);
  ASSERT_TRUE(ApplyActuatorSlider(motor, -10, &app.ui(), &app));  // Clamped to the joint's limit.
  EXPECT_EQ(app.simulation().actuator(motor.name).target_position, -2.0);
  EXPECT_FALSE(ApplyActuatorSlider(motor, std::nan(""), &app.ui(), &app));
  EXPECT_EQ(app.simulation().actuator(motor.name).target_position, -2.0);
  for (const ActuatorRow& a : c.actuators) ASSERT_TRUE(ApplyActuatorSlider(a, 0.1, &app.ui(), &app));
  ASSERT_TRUE(ResetActuatorTargets(c, &app.ui(), &app));
  EXPECT_NE(app.ui().message.find("3 actuator targets"), std::string::npos) << app.ui().message;
  for (const ActuatorRow& a : c.actuators) {
    EXPECT_EQ(app.simulation().actuator(a.name).target_position, a.scene_position) << a.name;
    EXPECT_NE(a.scene_position, 0.1) << a.name;
  }
}

// An MJCF arm on a horizontal hinge driven by a motor (gear 2, ctrl in
// [−1, 1]) and a second motor whose control is not limited, opened as a
// user drops it on the window: the Control section has a slider per motor,
// and moving one turns the arm under that torque.
TEST(JointSectionsTest, MotorSlidersSetTheControlAndTheArmTurnsUnderIt) {
  const fs::path file = WriteTempFile("motor_arm.xml", R"(<mujoco model="motor_arm">
  <option gravity="0 0 0"/>
  <worldbody>
    <body name="arm">
      <joint name="hinge" axis="0 0 1"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" mass="1"/>
    </body>
  </worldbody>
  <actuator>
    <motor name="drive" joint="hinge" gear="2" ctrllimited="true" ctrlrange="-1 1"/>
    <motor name="free_drive" joint="hinge"/>
  </actuator>
</mujoco>
)");
  App app(Options(file.string(), /*paused=*/false));
  app.Frame();
  const JointControls& c = app.ui().joint_controls;
  ASSERT_EQ(c.motors.size(), 2u);
  const MotorRow& drive = c.motors[0];
  EXPECT_EQ(drive.name, "drive");
  EXPECT_EQ(drive.joints, "hinge");
  EXPECT_EQ(drive.range.lower, -1);
  EXPECT_TRUE(drive.range.upper_is_limit);
  EXPECT_FALSE(c.motors[1].range.lower_is_limit);  // Unlimited: the slider spans ±1.
  EXPECT_EQ(c.motors[1].range.upper, kUnlimitedCtrlHalfRange);
  const double q0 = app.simulation().positions()[0];
  ASSERT_TRUE(ApplyMotorSlider(drive, 0.5, &app.ui(), &app)) << app.ui().message;
  EXPECT_EQ(app.simulation().motor("drive").ctrl, 0.5);
  ASSERT_TRUE(ApplyMotorSlider(drive, 7, &app.ui(), &app));  // Clamped to the range.
  EXPECT_EQ(app.simulation().motor("drive").ctrl, 1.0);
  EXPECT_FALSE(ApplyMotorSlider(drive, std::nan(""), &app.ui(), &app));
  EXPECT_EQ(app.simulation().motor("drive").ctrl, 1.0);
  const double t0 = app.simulation().time();
  for (int i = 0; i < 3; ++i) app.Frame();
  // 2 N m on the arm alone: it turns the positive way, faster and faster.
  const double t = app.simulation().time() - t0;
  ASSERT_GT(t, 0);
  EXPECT_GT(app.simulation().positions()[0] - q0, 0);
  EXPECT_GT(app.simulation().velocities()[0], 0);
  ASSERT_TRUE(ResetActuatorTargets(c, &app.ui(), &app));
  EXPECT_EQ(app.simulation().motor("drive").ctrl, 0.0);  // The scene's.
}

// A chain of 64 revolute joints: j00 … j63.
fs::path ChainUrdf() {
  std::string urdf = "<robot name=\"chain\">\n" +
                     Link("l00", 1, "<collision><geometry><box size=\"0.4 0.4 0.1\"/></geometry></collision>");
  for (int i = 0; i < 64; ++i) {
    char parent[8], child[8], joint[8];
    std::snprintf(parent, sizeof parent, "l%02d", i);
    std::snprintf(child, sizeof child, "l%02d", i + 1);
    std::snprintf(joint, sizeof joint, "j%02d", i);
    urdf += Link(child, 0.1);
    urdf += std::string("  <joint name=\"") + joint + "\" type=\"revolute\"><parent link=\"" + parent +
            "\"/><child link=\"" + child + "\"/><origin xyz=\"0 0 0.1\"/><axis xyz=\"" + (i % 2 ? "0 1 0" : "1 0 0") +
            "\"/><limit lower=\"-1\" upper=\"1\" effort=\"10\" velocity=\"1\"/></joint>\n";
  }
  return WriteTempFile("chain.urdf", urdf + "</robot>\n");
}

int DrawnJointSliders(App& app) {
  int n = 0;
  for (const auto& [id, rect] : app.ui().field_rects) n += id.rfind("joint.", 0) == 0 ? 1 : 0;
  return n;
}

// 64 joints stay usable: the table scrolls instead of lengthening the column
// (only the rows in view are drawn), and the filter box narrows it. A
// reload starts the sliders over: no filter, the scene's targets and pose.
TEST(JointSectionsTest, ALargeRobotScrollsFiltersAndAReloadStartsOver) {
  AppOptions o = Options(ChainUrdf().string(), /*paused=*/true);
  App app(o);
  app.ui().settings.sections["Joints"] = true;
  app.ui().settings.sections["Plots"] = false;
  app.Frame();
  app.Frame();
  JointControls& c = app.ui().joint_controls;
  ASSERT_EQ(c.joints.size(), 64u);
  const int drawn = DrawnJointSliders(app);
  EXPECT_GE(drawn, 5);
  EXPECT_LE(drawn, 13) << "the joint table does not scroll";
  EXPECT_EQ(app.ui().field_rects.count("filter.joints"), 1u) << "no filter box";

  c.joint_filter = "J6";  // Any case: j60 … j63.
  app.Frame();
  EXPECT_EQ(DrawnJointSliders(app), 4);
  for (const char* name : {"joint.j60", "joint.j61", "joint.j62", "joint.j63"}) {
    EXPECT_EQ(app.ui().field_rects.count(name), 1u) << name;
  }
  EXPECT_EQ(app.ui().field_rects.count("joint.j00"), 0u);

  // Pose j61 (paused) and move j10's target, then reload.
  ASSERT_TRUE(ApplyJointSlider(c, Row(app, "j61"), 0.5, true, &app.ui(), &app));
  ASSERT_TRUE(ApplyActuatorSlider(c.actuators[Row(app, "j10").actuator], -0.5, &app.ui(), &app));
  ASSERT_EQ(Q(app, Row(app, "j61")), 0.5);
  ASSERT_TRUE(app.ReloadScene());
  app.Frame();
  const JointControls& fresh = app.ui().joint_controls;
  EXPECT_EQ(fresh.joint_filter, "");
  EXPECT_EQ(fresh.joints.size(), 64u);
  EXPECT_GE(DrawnJointSliders(app), 5);
  for (const ActuatorRow& a : fresh.actuators) {
    ASSERT_EQ(app.simulation().actuator_commanded_position(a.name), a.scene_position) << a.name;
  }
  EXPECT_NE(Q(app, Row(app, "j61")), 0.5);
  EXPECT_EQ(JointSliderValue(fresh, Row(app, "j10"), app.simulation()), fresh.actuators[Row(app, "j10").actuator].scene_position);
}

}  // namespace
}  // namespace stiction::app
