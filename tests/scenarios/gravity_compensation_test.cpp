// Gravity compensation (robots key `gravity_compensation`,
// engine/multibody/gravity_compensation.h): the joints of a two-link arm
// stretched out horizontally get −τ_g(q), so the arm held by its joint PD
// stays exactly where it starts (without it, it sags by τ_g/kp); a floating
// robot still falls freely (only joint coordinates are compensated).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "engine/scene/scene_loader.h"
#include "tests/scenarios/scenario_helpers.h"
#include "tests/support/scratch_dir.h"

namespace stiction {
namespace {

// Two 1 kg links of 0.5 m along x, hinged about y at the base and at the
// elbow: horizontal at q = 0, so gravity's torques are largest there.
constexpr char kArm[] = R"(<robot name="arm">
  <link name="base"><inertial><mass value="3"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="upper"><inertial><origin xyz="0.25 0 0"/><mass value="1"/><inertia ixx="0.001" iyy="0.02" izz="0.02" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="lower"><inertial><origin xyz="0.25 0 0"/><mass value="1"/><inertia ixx="0.001" iyy="0.02" izz="0.02" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="100" velocity="1"/></joint>
  <joint name="elbow" type="revolute"><parent link="upper"/><child link="lower"/><origin xyz="0.5 0 0"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="100" velocity="1"/></joint>
</robot>
)";

class GravityCompensationTest : public test::ScratchDirTest {
 protected:
  Simulation Load(const std::string& extra) {
    const std::string file = Write("arm.urdf", kArm);
    return Simulation(LoadSceneString(
        "time_step: 0.01\nrobots:\n  - file: " + file + "\n    joint_pd: {kp: 100, kd: 10}\n" + extra, "g.yaml", "."));
  }
};

TEST_F(GravityCompensationTest, AHorizontalArmHeldByItsPdStaysWhereItStarts) {
  Simulation held = Load("    gravity_compensation: true\n");
  Simulation sagging = Load("");
  test::Run(&held, 1.0, [] {});
  test::Run(&sagging, 1.0, [] {});
  const double shoulder_held = held.positions()[0], shoulder_sag = sagging.positions()[0];
  std::printf("after 1 s: shoulder %.3e rad with compensation, %.4f rad without (τ_g/kp = %.4f)\n", shoulder_held,
              shoulder_sag, (1 * 9.81 * 0.25 + 1 * 9.81 * 0.75) / 100);
  // Exactly held: the compensation is −τ_g at the start configuration, which
  // does not move.
  EXPECT_LT(held.positions().cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT(held.velocities().cwiseAbs().maxCoeff(), 1e-12);
  // Without it the arm sags: the PD holds it where kp·Δq balances gravity,
  // Δq ≈ τ_g/kp = 0.098 rad at the shoulder (to first order; it sags down,
  // a positive rotation about y).
  EXPECT_GT(std::abs(shoulder_sag), 0.05);
}

// A skewed arm with a light tip, 30 m from the origin, held exactly still
// by its compensation: every step's free motion is v ≈ 0 with k = 0 up to
// the round-off of gravity minus compensation, which the generic path sums
// as moments about the world origin (m|p| g), and with no momentum change
// to measure stage 1's residual against. Its round-off floor counts those
// forces (theta_method.cpp, ResidualConverged); before it did, Atlas and an
// xArm opened on their own failed a step "did not converge" at 1.8e-18 N s,
// and this arm its 13th at 5.7e-16 N s, Newton circling at the round-off.
TEST_F(GravityCompensationTest, AnArmHeldExactlyStillStepsWithoutFailing) {
  const std::string file = Write("skewed.urdf", R"(<robot name="skewed">
  <link name="base"><inertial><mass value="4"/><inertia ixx="0.02" iyy="0.02" izz="0.02" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="l1"><inertial><origin xyz="0.11 0.03 0.21" rpy="0.3 0.1 0.7"/><mass value="2.7"/><inertia ixx="0.031" iyy="0.027" izz="0.011" ixy="0.001" ixz="0.002" iyz="-0.003"/></inertial></link>
  <link name="l2"><inertial><origin xyz="0.19 -0.05 0.04" rpy="-0.4 0.9 0.2"/><mass value="1.9"/><inertia ixx="0.021" iyy="0.017" izz="0.009" ixy="-0.001" ixz="0.001" iyz="0.002"/></inertial></link>
  <link name="l3"><inertial><origin xyz="0.07 0.02 -0.13" rpy="1.1 -0.2 0.5"/><mass value="0.8"/><inertia ixx="0.004" iyy="0.006" izz="0.003" ixy="0.0004" ixz="-0.0003" iyz="0.0002"/></inertial></link>
  <link name="tip"><inertial><origin xyz="0.01 0.002 0.003"/><mass value="0.001"/><inertia ixx="2e-8" iyy="3e-8" izz="1e-8" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/><origin xyz="0.01 0.02 0.33" rpy="0.2 -0.1 0.4"/><axis xyz="0.1 0.3 0.95"/>
    <limit lower="-3" upper="3" effort="300" velocity="2"/></joint>
  <joint name="j2" type="revolute"><parent link="l1"/><child link="l2"/><origin xyz="0.21 0.05 0.3" rpy="-0.6 0.3 0.1"/><axis xyz="0.2 0.9 -0.1"/>
    <limit lower="-3" upper="3" effort="300" velocity="2"/></joint>
  <joint name="j3" type="revolute"><parent link="l2"/><child link="l3"/><origin xyz="0.31 -0.07 0.02" rpy="0.5 0.7 -0.3"/><axis xyz="-0.4 0.2 0.8"/>
    <limit lower="-3" upper="3" effort="300" velocity="2"/></joint>
  <joint name="j4" type="revolute"><parent link="l3"/><child link="tip"/><origin xyz="0.12 0.01 -0.02" rpy="0.2 0.1 0.4"/><axis xyz="0.3 -0.5 0.8"/>
    <limit lower="-1" upper="1" effort="30" velocity="1"/></joint>
</robot>
)");
  Simulation sim(LoadSceneString("time_step: 0.01\nrobots:\n  - file: " + file +
                                     "\n    pose: {position: [23.7, -18.9, 1.3], rpy: [0.1, 0.2, 0.3]}\n"
                                     "    initial: {j1: 0.4, j2: -0.9, j3: 1.3}\n"
                                     "    joint_pd: {kp: 100, kd: 10}\n    gravity_compensation: true\n",
                                 "g.yaml", "."));
  const VectorX q0 = sim.positions();
  // Velocities at round-off, as a step that resolved a contact or a coupler
  // leaves them (the xArm's gripper: 2e-14 rad/s).
  sim.SetState(q0, VectorX::Constant(sim.model().num_velocities(), 2e-14));
  for (int k = 0; k < 200; ++k) {
    const StepResult r = sim.Step();
    ASSERT_EQ(r.status, StepStatus::kSuccess) << "step " << k << ": " << r.message;
  }
  EXPECT_LT((sim.positions() - q0).cwiseAbs().maxCoeff(), 1e-9);  // 2e-14 rad/s for 2 s, then held.
}

TEST_F(GravityCompensationTest, AFloatingRobotStillFallsFreely) {
  Simulation sim = Load("    fixed_base: false\n    gravity_compensation: true\n");
  test::Run(&sim, 0.2, [] {});
  // No ground: the compensation torques act between the links (action and
  // reaction), so the robot's momentum changes by gravity alone and its
  // centre of mass falls at g: v_z = −g t. The torques also swing the arm
  // relative to the base (a base in free fall carries no weight), and the
  // θ-method's momentum, taken with M at the step's configurations, then
  // departs from the exact value by O(δt) of that motion: 1.2e-6 relative
  // measured, 1e-5 allowed. A floating base wrongly compensated would not
  // fall at all.
  const MultibodyModel& model = sim.model();
  double mass = 0, momentum_z = 0;
  const std::vector<BodyState> states = sim.CalcBodyStates();
  for (int b = 1; b < model.num_bodies(); ++b) {
    const BodyState& s = states[static_cast<size_t>(b - 1)];
    const Vector3 v_com = s.linear_velocity + s.angular_velocity.cross(s.orientation * model.body(b).com_B);
    mass += model.body(b).mass;
    momentum_z += model.body(b).mass * v_com.z();
  }
  std::printf("floating robot after %.2f s: COM v_z %.9f m/s (−g t = %.9f)\n", sim.time(), momentum_z / mass,
              -9.81 * sim.time());
  EXPECT_NEAR(momentum_z / mass, -9.81 * sim.time(), 1e-5 * 9.81 * sim.time());
}

}  // namespace
}  // namespace stiction
