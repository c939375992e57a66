// Motors (scene `motors:`, MJCF <motor> and <general> without bias,
// engine/multibody/joint_motors.h): an explicit effort
// u = clamp(gain · clamp(ctrl, range), ±effort_limit), applied as c · u to
// each joint of the motor. Checked against
//  * the closed form of a disc on a hinge under a constant torque without
//    gravity, θ(t) = c u t²/(2 I), which the midpoint rule integrates exactly;
//  * MuJoCo 2.2.2 on the same MJCF file: a two-link arm driven by a joint
//    motor with a force range and by a <general> actuator on a fixed tendon
//    of both joints, its trajectory against MuJoCo's RK4 at two steps.
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "engine/common/error.h"
#include "engine/scene/scene_loader.h"
#include "tests/scenarios/scenario_helpers.h"
#include "tests/support/scratch_dir.h"

namespace stiction {
namespace {

double JointQ(const Simulation& sim, const std::string& joint) {
  return sim.positions()[sim.model().joint(sim.model().FindJoint(joint)).q_start];
}

// Two discs on vertical hinges, no gravity: one motor on a, one on both
// (a: +1, b: −0.5).
constexpr char kDiscs[] = R"(time_step: 0.01
gravity: [0, 0, 0]
integrator: midpoint
bodies:
  - {name: a, mass: 1, inertia: {ixx: 0.01, iyy: 0.01, izz: 0.02}}
  - {name: b, mass: 1, inertia: {ixx: 0.03, iyy: 0.03, izz: 0.05}}
joints:
  - {name: ja, type: revolute, parent: world, child: a, axis: [0, 0, 1]}
  - {name: jb, type: revolute, parent: world, child: b, axis: [0, 0, 1]}
motors:
  - {name: drive, joint: ja, gain: 2, ctrl_range: [-1, 1], ctrl: 0.25, effort_limit: 1.2}
  - {name: pair, joints: {ja: 1, jb: -0.5}, gain: 0.4}
)";

TEST(MotorTest, ADiscUnderAConstantTorqueTurnsAsTheClosedForm) {
  Simulation sim(LoadSceneString(kDiscs, "discs.yaml", "."));
  ASSERT_EQ(sim.motor_names(), (std::vector<std::string>{"drive", "pair"}));
  EXPECT_DOUBLE_EQ(sim.motor("drive").ctrl, 0.25);
  EXPECT_DOUBLE_EQ(sim.motor("pair").ctrl, 0.0);  // Not given: 0.
  sim.SetMotorControl("pair", 1.5);
  test::Run(&sim, 1.0, [] {});
  // u_drive = 2 · 0.25 = 0.5 N m, u_pair = 0.6 N m.
  const double t = sim.time();
  const double tau_a = 0.5 + 0.6, tau_b = -0.5 * 0.6;
  std::printf("after %.2f s: q_a %.12g (closed form %.12g), q_b %.12g (%.12g) rad\n", t, JointQ(sim, "ja"),
              tau_a * t * t / (2 * 0.02), JointQ(sim, "jb"), tau_b * t * t / (2 * 0.05));
  EXPECT_NEAR(JointQ(sim, "ja"), tau_a * t * t / (2 * 0.02), 1e-9 * tau_a * t * t / (2 * 0.02));
  EXPECT_NEAR(JointQ(sim, "jb"), tau_b * t * t / (2 * 0.05), 1e-9 * std::abs(tau_b) * t * t / (2 * 0.05));
}

TEST(MotorTest, ControlIsClampedToItsRangeAndTheEffortToItsLimit) {
  Simulation sim(LoadSceneString(kDiscs, "discs.yaml", "."));
  sim.SetMotorControl("drive", 5);  // Clamped to 1: u = min(2, 1.2) = 1.2 N m.
  EXPECT_DOUBLE_EQ(sim.motor("drive").ctrl, 1.0);
  EXPECT_DOUBLE_EQ(MotorEffort(sim.motor("drive")), 1.2);
  sim.SetMotorControl("drive", -0.3);
  EXPECT_DOUBLE_EQ(MotorEffort(sim.motor("drive")), -0.6);
  EXPECT_THROW(sim.SetMotorControl("drive", std::nan("")), InputError);
  EXPECT_THROW(sim.SetMotorControl("nope", 0), InputError);
  EXPECT_DOUBLE_EQ(sim.motor("drive").ctrl, -0.3);  // A refused value changes nothing.
  // Reset keeps the controls (as it keeps actuator targets).
  test::Run(&sim, 0.1, [] {});
  sim.Reset();
  EXPECT_DOUBLE_EQ(sim.motor("drive").ctrl, -0.3);
}

// A two-link arm on hinges about y, hanging from gravity pointing up (a
// regular swing, as in robot_cross_validation_test.cpp): a joint motor with a
// force range that caps it, and a <general> actuator on a fixed tendon
// (shoulder − 0.5 elbow) with a limited ctrl.
constexpr char kArm[] = R"(<mujoco model="motor_arm">
  <option gravity="0 0 9.81"/>
  <worldbody>
    <body name="upper" pos="0 0 0">
      <joint name="shoulder" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" mass="1" contype="0" conaffinity="0"/>
      <body name="lower" pos="0.3 0 0">
        <joint name="elbow" type="hinge" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0.25 0 0" size="0.025" mass="0.6" contype="0" conaffinity="0"/>
      </body>
    </body>
  </worldbody>
  <tendon>
    <fixed name="both"><joint joint="shoulder" coef="1"/><joint joint="elbow" coef="-0.5"/></fixed>
  </tendon>
  <actuator>
    <motor name="elbow_motor" joint="elbow" gear="3" forcelimited="true" forcerange="-0.2 0.2"/>
    <general name="tendon_motor" tendon="both" gainprm="0.8" ctrllimited="true" ctrlrange="-1 1"/>
  </actuator>
</mujoco>
)";

/// Largest joint-position difference over 1 s between Stiction at `dt` and
/// MuJoCo's RK4 at the same step, both from rest at (0.4, −0.3) rad with
/// ctrl (0.5, 2): the elbow motor saturates at 0.2 · 3 = 0.6 N m and the
/// tendon's ctrl is clamped to 1.
double ArmDifference(const std::string& file, double dt) {
  SceneDescription scene = LoadSceneString("robots:\n  - file: " + file + "\n    use_file_options: true\n"
                                           "    initial: {shoulder: 0.4, elbow: -0.3}\n",
                                           "arm.yaml", ".");
  scene.time_step = dt;
  Simulation sim(scene);
  sim.SetMotorControl("elbow_motor", 0.5);
  sim.SetMotorControl("tendon_motor", 2);
  char error[1000] = "";
  std::unique_ptr<mjModel, void (*)(mjModel*)> m(mj_loadXML(file.c_str(), nullptr, error, sizeof(error)),
                                                 mj_deleteModel);
  if (!m) throw std::runtime_error(error);
  m->opt.timestep = dt;
  m->opt.integrator = mjINT_RK4;
  std::unique_ptr<mjData, void (*)(mjData*)> d(mj_makeData(m.get()), mj_deleteData);
  d->qpos[0] = 0.4;
  d->qpos[1] = -0.3;
  d->ctrl[0] = 0.5;
  d->ctrl[1] = 2;
  double worst = 0;
  const int steps = static_cast<int>(std::lround(1.0 / dt));
  for (int k = 0; k < steps; ++k) {
    if (sim.Step().status != StepStatus::kSuccess) return INFINITY;
    mj_step(m.get(), d.get());
    worst = std::max({worst, std::abs(JointQ(sim, "shoulder") - d->qpos[0]), std::abs(JointQ(sim, "elbow") - d->qpos[1])});
  }
  return worst;
}

class MotorArmTest : public test::ScratchDirTest {};

TEST_F(MotorArmTest, JointAndTendonMotorsMoveTheArmAsMuJoCosDo) {
  const std::string file = Write("motor_arm.xml", kArm);
  // Both actuators are motors (none became a PD actuator), with MuJoCo's
  // gains, ranges and limits.
  Simulation sim(LoadSceneString("robots:\n  - file: " + file + "\n", "arm.yaml", "."));
  ASSERT_EQ(sim.motor_names(), (std::vector<std::string>{"elbow_motor", "tendon_motor"}));
  EXPECT_TRUE(sim.actuator_names().empty());
  EXPECT_DOUBLE_EQ(sim.motor("elbow_motor").gain, 3);
  EXPECT_DOUBLE_EQ(sim.motor("elbow_motor").effort_limit, 0.6);
  EXPECT_EQ(sim.motor("tendon_motor").velocities.size(), 2u);
  EXPECT_DOUBLE_EQ(sim.motor("tendon_motor").ctrl_max, 1);
  const double coarse = ArmDifference(file, 2e-3), fine = ArmDifference(file, 1e-3);
  std::printf("arm with motors vs MuJoCo RK4: max |dq| %.3e rad at dt 2 ms, %.3e at 1 ms, ratio %.2f\n", coarse, fine,
              coarse / fine);
  // The same model and forces: the difference is the midpoint rule's
  // O(δt²) error (ratio ≈ 4); a wrong gain, sign or clamp would not shrink.
  EXPECT_GT(coarse / fine, 3.0);
  EXPECT_LT(coarse / fine, 5.0);
  EXPECT_LT(fine, 1e-3);
}

// A pendulum under gravity held by a servo with an offset, as dm_control's
// rodent writes them (<general biastype="affine">: force = gain·ctrl + b0 −
// kp·gear·q − kv·gear·v, here gear 2, ref 0.1): at rest where MuJoCo's
// comes to rest, for the ctrl = 0 the file starts with. The settled angle
// does not depend on the integrator (MuJoCo's servo is explicit, ours an
// implicit PD row), only on the import of gains, offset, gear and ref.
TEST_F(MotorArmTest, AServoWithAnOffsetHoldsWhereMuJoCosHolds) {
  const std::string file = Write("servo.xml", R"(<mujoco model="servo">
  <compiler angle="radian"/>
  <worldbody>
    <body name="arm">
      <joint name="hinge" axis="0 1 0" ref="0.1"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" mass="1" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
  <actuator>
    <general name="servo" joint="hinge" gear="2" gainprm="3" biastype="affine" biasprm="1.5 -20 -2"/>
  </actuator>
</mujoco>
)");
  Simulation sim(LoadSceneString("robots:\n  - file: " + file + "\n    use_file_options: true\n", "s.yaml", "."));
  test::Run(&sim, 5.0, [] {});
  char error[1000] = "";
  std::unique_ptr<mjModel, void (*)(mjModel*)> m(mj_loadXML(file.c_str(), nullptr, error, sizeof(error)),
                                                 mj_deleteModel);
  ASSERT_TRUE(m) << error;
  std::unique_ptr<mjData, void (*)(mjData*)> d(mj_makeData(m.get()), mj_deleteData);
  for (int k = 0; k < 2500; ++k) mj_step(m.get(), d.get());
  const double ours = JointQ(sim, "hinge") + 0.1;  // MuJoCo's qpos = ours + qpos0.
  std::printf("servo with offset at rest: q_mj %.9f (Stiction) vs %.9f (MuJoCo), v %.2e, %.2e rad/s\n", ours,
              d->qpos[0], sim.velocities()[0], d->qvel[0]);
  ASSERT_LT(std::abs(d->qvel[0]), 1e-6);  // Both at rest.
  ASSERT_LT(std::abs(sim.velocities()[0]), 1e-6);
  EXPECT_NEAR(ours, d->qpos[0], 1e-6);
  // Without gravity's torque the servo would sit at b0/(kp gear) = 1.5/40.
  EXPECT_GT(std::abs(d->qpos[0] - 1.5 / 40), 1e-2);
}

// A pendulum held by a position servo on a fixed tendon L = 2 q (a
// dm_control quadruped-style servo, here on one joint so that the servo
// alone sets the rest pose; ref 0.2, gear 1.5, ctrl from a keyframe): it
// settles where MuJoCo's does. This checks the tendon servo's import: the
// coefficient, gear, gains, the tendon's length at qpos0 and the keyframe's
// ctrl.
TEST_F(MotorArmTest, ATendonServoHoldsWhereMuJoCosHolds) {
  const std::string file = Write("tendon_servo.xml", R"(<mujoco model="tendon_servo">
  <compiler angle="radian"/>
  <worldbody>
    <body name="arm">
      <joint name="hinge" axis="0 1 0" ref="0.2" damping="0.5"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" mass="1" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
  <tendon><fixed name="double"><joint joint="hinge" coef="2"/></fixed></tendon>
  <actuator>
    <position name="servo" tendon="double" kp="30" gear="1.5" ctrllimited="true" ctrlrange="-1 1"/>
  </actuator>
  <keyframe><key name="hold" ctrl="0.4"/></keyframe>
</mujoco>
)");
  Simulation sim(LoadSceneString("robots:\n  - file: " + file + "\n    use_file_options: true\n    keyframe: hold\n",
                                 "t.yaml", "."));
  ASSERT_TRUE(sim.actuator_names().empty());  // A tendon servo, not a joint's PD actuator.
  test::Run(&sim, 10.0, [] {});
  char error[1000] = "";
  std::unique_ptr<mjModel, void (*)(mjModel*)> m(mj_loadXML(file.c_str(), nullptr, error, sizeof(error)),
                                                 mj_deleteModel);
  ASSERT_TRUE(m) << error;
  std::unique_ptr<mjData, void (*)(mjData*)> d(mj_makeData(m.get()), mj_deleteData);
  mj_resetDataKeyframe(m.get(), d.get(), 0);
  for (int k = 0; k < 5000; ++k) mj_step(m.get(), d.get());
  const double ours = JointQ(sim, "hinge") + 0.2;  // MuJoCo's qpos = ours + qpos0.
  std::printf("tendon servo at rest: q_mj %.9f (Stiction) vs %.9f (MuJoCo)\n", ours, d->qpos[0]);
  ASSERT_LT(std::abs(d->qvel[0]), 1e-6);  // Both at rest.
  ASSERT_LT(std::abs(sim.velocities()[0]), 1e-6);
  EXPECT_NEAR(ours, d->qpos[0], 1e-6);
  // Without gravity the servo would hold 2 q_mj = ctrl/gear: gravity's
  // 1.47 N m against its 270 N m/rad sags it by 5.4e-3 rad, which both see.
  EXPECT_GT(std::abs(d->qpos[0] - 0.4 / 1.5 / 2), 2e-3);
}

}  // namespace
}  // namespace stiction
