// Joint couplers q_b = ρ q_a + Δ (engine/contact/joint_coupler_constraints.h)
// in whole scenes, against closed forms:
//  * the reduced 1-DoF model: a coupler exchanges γ on b for −ργ on a, so
//    the reduced momentum p = I_a v_a + ρ I_b v_b gains exactly τ δt per
//    step whatever the constraint's compliance, and once ġ settles
//    v_a = τ t/(I_a + ρ² I_b);
//  * the steady violation of a near-rigid row carrying γ per step, at rest
//    relative to the coupling (v_c = 0): g = −γ R (δt + τd) with
//    R = β²/(4π²) w/λ (near_rigid.h), w = 1/I_b + ρ²/I_a;
//  * a URDF gripper whose second finger mimics the first, and an MJCF joint
//    equality checked against MuJoCo and against the reduced model.
#include <gtest/gtest.h>
#include <mujoco/mujoco.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <numbers>
#include <string>
#include <tuple>
#include <vector>

#include "engine/scene/scene_loader.h"
#include "tests/scenarios/scenario_helpers.h"
#include "tests/support/scratch_dir.h"

namespace stiction {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kDt = 0.01;
constexpr double kStandardGravity = 9.80665;  // near_rigid.h's a in a scene without gravity.

double JointQ(const Simulation& sim, const std::string& joint) {
  return sim.positions()[sim.model().joint(sim.model().FindJoint(joint)).q_start];
}
double JointV(const Simulation& sim, const std::string& joint) {
  return sim.velocities()[sim.model().joint(sim.model().FindJoint(joint)).v_start];
}

/// The steady violation g = −γ R (δt + τd) of a coupler row carrying the
/// impulse γ [N m s] each step, R = β²/(4π²) w/λ at β = 1, with the
/// carried-load factor λ = clamp(w |γ| ℓ/(a δt), 1, 1e4) and ℓ = 1/√(w m)
/// for a revolute follower (joint_coupler_constraints.cpp).
double SteadyViolation(double gamma, double w, double subtree_mass, double a, bool load_aware) {
  const double factor = 1 / (4 * kPi * kPi);
  const double tau_d = kDt / kPi;
  const double length = 1 / std::sqrt(w * subtree_mass);
  const double lambda = load_aware ? std::clamp(w * std::abs(gamma) * length / (a * kDt), 1.0, 1e4) : 1.0;
  return -gamma * factor * (w / lambda) * (kDt + tau_d);
}

// Two discs on vertical hinges, no gravity: a (I_a = 0.02 kg m²) driven by
// an actuator saturated at `torque` (kd with an unreachable target
// velocity: exactly its effort limit), b (I_b = 0.05 kg m²) coupled
// b = −2 a + 0.3.
std::string DiscsScene(double torque, bool load_aware) {
  return R"(time_step: 0.01
gravity: [0, 0, 0]
solver: {load_aware_regularization: )" + std::string(load_aware ? "true" : "false") + R"(}
bodies:
  - {name: a, mass: 1, inertia: {ixx: 0.01, iyy: 0.01, izz: 0.02}}
  - {name: b, mass: 1, inertia: {ixx: 0.03, iyy: 0.03, izz: 0.05}}
joints:
  - {name: ja, type: revolute, parent: world, child: a, axis: [0, 0, 1]}
  - {name: jb, type: revolute, parent: world, child: b, axis: [0, 0, 1]}
actuators:
  - {name: motor, joint: ja, kd: 1000, effort_limit: )" + test::Num(torque) + R"(, target: {velocity: 1e6}}
couplers:
  - {joint: jb, to: ja, ratio: -2, offset: 0.3}
)";
}

class CoupledDiscsTest : public ::testing::TestWithParam<std::tuple<double, bool>> {};

TEST_P(CoupledDiscsTest, MovesAsTheReducedModelWithTheRegularizationsSteadyViolation) {
  const double torque = std::get<0>(GetParam());
  const bool load_aware = std::get<1>(GetParam());
  const double I_a = 0.02, I_b = 0.05, rho = -2, offset = 0.3;
  Simulation sim(LoadSceneString(DiscsScene(torque, load_aware), "discs.yaml", "."));
  // b starts on its coupling, with a note saying so.
  EXPECT_DOUBLE_EQ(JointQ(sim, "jb"), offset);
  const std::vector<std::string> notes = sim.load_notes();
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("joint 'jb' starts at 0.3 rad, where its coupler to 'ja'"), std::string::npos) << notes[0];
  double max_p_error = 0, max_g = 0;
  test::Run(&sim, 1.0, [&] {
    const double p = I_a * JointV(sim, "ja") + rho * I_b * JointV(sim, "jb");
    max_p_error = std::max(max_p_error, std::abs(p - torque * sim.time()));
    max_g = std::max(max_g, std::abs(JointQ(sim, "jb") - rho * JointQ(sim, "ja") - offset));
  });
  const double alpha = torque / (I_a + rho * rho * I_b);  // The reduced model.
  const double g = JointQ(sim, "jb") - rho * JointQ(sim, "ja") - offset;
  // b's acceleration ρα comes from the coupler alone: γ = I_b ρ α δt.
  const double g_expected = SteadyViolation(I_b * rho * alpha * kDt, 1 / I_b + rho * rho / I_a, 2.0,
                                            kStandardGravity, load_aware);
  std::printf("torque %g N m (load-aware %d): v_a(1 s) %.9g vs reduced %.9g rad/s; g %.6g vs %.6g rad; "
              "max |g| %.3g rad, max reduced-momentum error %.2g N m s\n",
              torque, load_aware, JointV(sim, "ja"), alpha * sim.time(), g, g_expected, max_g, max_p_error);
  // The reduced momentum is exact up to round-off (the coupler's impulses
  // cancel in it; the actuator applies exactly τ δt per step).
  EXPECT_LT(max_p_error, 1e-10 * torque);
  // Once ġ has settled, v_a is the reduced model's; the settling transient
  // is a few near-rigid periods (β δt), over long before 1 s.
  EXPECT_NEAR(JointV(sim, "ja"), alpha * sim.time(), 1e-6 * alpha * sim.time());
  // The violation is the regularization's, to the SAP tolerance (ε_r = 1e-6
  // on the momentum): 1e-4 relative leaves room for that and nothing else.
  EXPECT_NEAR(g, g_expected, 1e-4 * std::abs(g_expected));
  // The transient: the first steps have no carried-load history (λ = 1),
  // so g heads for the un-stiffened row's steady value, and the midpoint
  // rule overshoots it (θ_vq = ½ where v̂ assumes q = q0 + δt v,
  // contact-model.md): by 24% measured. 1.5× bounds it.
  const double g_unstiffened = SteadyViolation(I_b * rho * alpha * kDt, 1 / I_b + rho * rho / I_a, 2.0,
                                               kStandardGravity, false);
  EXPECT_LT(max_g, 1.5 * std::abs(g_unstiffened));
}

// 0.5 N m: λ = 1 (the row's own inertia carries it); 5 N m: λ ≈ 2.4, the
// carried-load estimate stiffens the row; and the same without it.
INSTANTIATE_TEST_SUITE_P(Torques, CoupledDiscsTest,
                         ::testing::Values(std::make_tuple(0.5, true), std::make_tuple(5.0, true),
                                           std::make_tuple(5.0, false)));

TEST(JointCouplerTest, HoldsAGravityTorqueWithTheRegularizationsViolation) {
  // Leader a: a disc on a vertical hinge held by a stiff PD at 0. Follower
  // b = −a, a horizontal pendulum (1 kg, COM 0.2 m out along x, hinge
  // along y) whose gravity torque about +y, τ = 0.2 m g cos θ_b, the
  // coupler alone holds: γ = −τ δt at rest.
  const std::string scene = R"(time_step: 0.01
bodies:
  - {name: a, mass: 1, inertia: {ixx: 0.01, iyy: 0.01, izz: 0.02}}
  - {name: b, mass: 1, com: [0.2, 0, 0], inertia: {ixx: 0.01, iyy: 0.01, izz: 0.01}}
joints:
  - {name: ja, type: revolute, parent: world, child: a, axis: [0, 0, 1]}
  - {name: jb, type: revolute, parent: world, child: b, axis: [0, 1, 0]}
actuators:
  - {name: hold, joint: ja, kp: 10000, kd: 200}
couplers:
  - {joint: jb, to: ja, ratio: -1}
)";
  Simulation sim(LoadSceneString(scene, "hold.yaml", "."));
  test::Run(&sim, 2.0, [] {});
  const double theta_b = JointQ(sim, "jb");
  const double tau = 0.2 * 1 * 9.81 * std::cos(theta_b);
  const double I_b = 0.01 + 1 * 0.2 * 0.2, I_a = 0.02;
  const double g = JointQ(sim, "jb") + JointQ(sim, "ja");
  const double g_expected = SteadyViolation(-tau * kDt, 1 / I_b + 1 / I_a, 2.0, 9.81, true);
  std::printf("held pendulum: θ_a %.6g, θ_b %.6g rad, g %.6g vs %.6g rad, |v| %.2g\n", JointQ(sim, "ja"), theta_b, g,
              g_expected, sim.velocities().norm());
  // At rest, to the solver's tolerance: ε_r = 1e-6 of a momentum ~ I_b v*
  // = 0.05 × 0.39 N m s leaves |v| ≲ 4e-7 rad/s.
  EXPECT_LT(sim.velocities().norm(), 1e-6);
  EXPECT_NEAR(g, g_expected, 1e-3 * std::abs(g_expected));
  EXPECT_GT(std::abs(g), 0.0);
}

TEST(JointCouplerTest, NmdpSteppingRefusesCouplers) {
  Simulation sim(LoadSceneString(DiscsScene(0.5, true) + "stepping: nmdp_pgm\n", "discs.yaml", "."));
  const VectorX q0 = sim.positions();
  const StepResult r = sim.Step();
  EXPECT_NE(r.status, StepStatus::kSuccess);
  EXPECT_NE(r.message.find("joint couplers"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("stepping: theta_method supports them"), std::string::npos) << r.message;
  EXPECT_TRUE(sim.positions() == q0);
}

// A parallel gripper: a fixed palm and two prismatic fingers, the right one
// mirroring the left through <mimic>, as the Panda's and the Robotiq's.
constexpr const char* kGripperUrdf = R"(<?xml version="1.0"?>
<robot name="gripper">
  <link name="palm">
    <inertial><mass value="0.5"/><inertia ixx="1e-3" iyy="1e-3" izz="1e-3" ixy="0" ixz="0" iyz="0"/></inertial>
  </link>
  <link name="left">
    <inertial><mass value="0.05"/><inertia ixx="1e-5" iyy="1e-5" izz="1e-5" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="0.01 0.01 0.04"/></geometry></collision>
  </link>
  <link name="right">
    <inertial><mass value="0.05"/><inertia ixx="1e-5" iyy="1e-5" izz="1e-5" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="0.01 0.01 0.04"/></geometry></collision>
  </link>
  <joint name="left_joint" type="prismatic">
    <parent link="palm"/><child link="left"/><origin xyz="0 0.02 0"/><axis xyz="0 1 0"/>
    <limit lower="0" upper="0.04" effort="20" velocity="0.2"/>
  </joint>
  <joint name="right_joint" type="prismatic">
    <parent link="palm"/><child link="right"/><origin xyz="0 -0.02 0"/><axis xyz="0 -1 0"/>
    <limit lower="0" upper="0.04" effort="20" velocity="0.2"/>
    <mimic joint="left_joint" multiplier="1" offset="0"/>
  </joint>
</robot>
)";

class JointCouplerFileTest : public test::ScratchDirTest {};

TEST_F(JointCouplerFileTest, UrdfMimicFingerFollowsTheDrivenOne) {
  const std::string urdf = Write("gripper.urdf", kGripperUrdf);
  // No ground: the fingers only meet each other's coupling. joint_pd gives
  // the driven finger its PD; the mimic finger gets none (its leader drives
  // it through the coupler).
  const std::string scene = "gravity: [0, 0, -9.81]\nrobots:\n  - {name: g, file: " + urdf +
                            ", joint_pd: {kp: 200, kd: 10}}\n";
  Simulation sim(LoadSceneString(scene, "gripper.yaml", dir_.string()));
  for (const std::string& note : sim.load_notes()) {
    EXPECT_EQ(note.find("mimic"), std::string::npos) << note;
  }
  ASSERT_EQ(sim.scene().couplers.size(), 1u);
  EXPECT_EQ(sim.scene().couplers[0].joint, "g/right_joint");
  EXPECT_EQ(sim.scene().couplers[0].to, "g/left_joint");
  ASSERT_EQ(sim.scene().actuators.size(), 1u);
  EXPECT_EQ(sim.scene().actuators[0].joint, "g/left_joint");
  sim.SetActuatorTarget("g/left_joint", 0.03, 0);
  double max_gap = 0;
  test::Run(&sim, 1.5, [&] {
    max_gap = std::max(max_gap, std::abs(JointQ(sim, "g/right_joint") - JointQ(sim, "g/left_joint")));
  });
  std::printf("gripper: left %.6g m, right %.6g m, largest |right - left| while moving %.3g m\n",
              JointQ(sim, "g/left_joint"), JointQ(sim, "g/right_joint"), max_gap);
  // Both fingers open to the target (the PD's gravity-free axis: exact at
  // rest), together.
  EXPECT_NEAR(JointQ(sim, "g/left_joint"), 0.03, 1e-6);
  EXPECT_NEAR(JointQ(sim, "g/right_joint"), 0.03, 1e-6);
  // While moving, the coupler carries the right finger's inertial force,
  // at most m_r · kp e0/(m_l + m_r) = 0.05 kg × 200 N/m × 0.03 m/0.1 kg =
  // 3 N (the PD's largest pull, at the start): without the carried-load
  // stiffening (the first steps have no history) a row carrying γ = 3 N δt
  // settles at β²/(4π²) w γ (δt + τd) = 4.0e-4 m, w = 1/m_l + 1/m_r =
  // 40 kg⁻¹; the stiffened row holds less. The bound.
  EXPECT_LT(max_gap, 4.0e-4);
}

// Two pendulums on hinges about y (COM 0.3 m and 0.2 m out along x),
// b = c0 + c1 a by a linear MJCF joint equality (polycoef "c0 c1 0 0 0"
// about qpos0 = 0). MuJoCo's equality is soft too (solref time constant
// 0.002 s, the smallest its docs advise at this step).
constexpr const char* kCoupledPendulumsXml = R"(<mujoco model="coupled_pendulums">
  <option timestep="0.001" gravity="0 0 -9.81" integrator="RK4"/>
  <worldbody>
    <body name="arm_a">
      <joint name="a" type="hinge" axis="0 1 0"/>
      <inertial pos="0.3 0 0" mass="1" diaginertia="0.01 0.01 0.01"/>
    </body>
    <body name="arm_b" pos="1 0 0">
      <joint name="b" type="hinge" axis="0 1 0"/>
      <inertial pos="0.2 0 0" mass="0.5" diaginertia="0.005 0.005 0.005"/>
    </body>
  </worldbody>
  <equality>
    <joint joint1="b" joint2="a" polycoef="0.1 -0.5 0 0 0" solref="0.002 1"/>
  </equality>
</mujoco>
)";

/// The exact reduced model of kCoupledPendulumsXml: θ = q_a, q_b = c0 + c1 θ,
/// J θ̈ = m_a g r_a cos θ + c1 m_b g r_b cos(c0 + c1 θ), J = I_a + c1² I_b
/// (hinge inertias), by RK4 at 1e-5 s. Returns θ at each multiple of
/// `every` [s] up to `duration`.
std::vector<double> ReducedPendulums(double duration, double every) {
  const double c0 = 0.1, c1 = -0.5, g = 9.81;
  const double ma = 1, ra = 0.3, mb = 0.5, rb = 0.2;
  const double J = (0.01 + ma * ra * ra) + c1 * c1 * (0.005 + mb * rb * rb);
  auto accel = [&](double th) { return (ma * g * ra * std::cos(th) + c1 * mb * g * rb * std::cos(c0 + c1 * th)) / J; };
  const double h = 1e-5;
  const int per_sample = static_cast<int>(std::lround(every / h));
  const int samples = static_cast<int>(std::lround(duration / every));
  std::vector<double> out = {0.0};
  double th = 0, w = 0;
  for (int s = 0; s < samples; ++s) {
    for (int i = 0; i < per_sample; ++i) {
      const double k1x = w, k1v = accel(th);
      const double k2x = w + 0.5 * h * k1v, k2v = accel(th + 0.5 * h * k1x);
      const double k3x = w + 0.5 * h * k2v, k3v = accel(th + 0.5 * h * k2x);
      const double k4x = w + h * k3v, k4v = accel(th + h * k3x);
      th += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
      w += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
    }
    out.push_back(th);
  }
  return out;
}

TEST_F(JointCouplerFileTest, MjcfJointEqualityMatchesMuJoCoAndTheReducedModel) {
  const std::string xml = Write("pendulums.xml", kCoupledPendulumsXml);
  const double duration = 1.0, dt = 1e-3, c0 = 0.1, c1 = -0.5;
  // MuJoCo, from b on its coupling (MuJoCo itself would start b at qpos0,
  // 0.1 rad off it; Stiction moves it there and notes so).
  char error[1000] = "";
  std::unique_ptr<mjModel, void (*)(mjModel*)> m(mj_loadXML(xml.c_str(), nullptr, error, sizeof(error)), mj_deleteModel);
  ASSERT_TRUE(m) << error;
  std::unique_ptr<mjData, void (*)(mjData*)> d(mj_makeData(m.get()), mj_deleteData);
  const int qa = m->jnt_qposadr[mj_name2id(m.get(), mjOBJ_JOINT, "a")];
  const int qb = m->jnt_qposadr[mj_name2id(m.get(), mjOBJ_JOINT, "b")];
  d->qpos[qb] = c0;
  // Stiction, at MuJoCo's δt.
  Simulation sim(LoadSceneString("time_step: 0.001\ngravity: [0, 0, -9.81]\nrobots:\n  - {file: " + xml + "}\n",
                                 "pendulums.yaml", dir_.string()));
  ASSERT_EQ(sim.scene().couplers.size(), 1u);
  EXPECT_EQ(sim.scene().couplers[0].ratio, c1);
  EXPECT_EQ(sim.scene().couplers[0].offset, c0);
  EXPECT_DOUBLE_EQ(JointQ(sim, "b"), c0);
  const std::vector<double> reduced = ReducedPendulums(duration, dt);
  double ours_vs_reduced = 0, mujoco_vs_reduced = 0, ours_vs_mujoco = 0, ours_g = 0, mujoco_g = 0;
  for (std::size_t i = 1; i < reduced.size(); ++i) {
    ASSERT_EQ(sim.Step().status, StepStatus::kSuccess);
    mj_step(m.get(), d.get());
    const double a = JointQ(sim, "a"), b = JointQ(sim, "b");
    const double a_mj = d->qpos[qa], b_mj = d->qpos[qb];
    ours_vs_reduced = std::max({ours_vs_reduced, std::abs(a - reduced[i]), std::abs(b - (c0 + c1 * reduced[i]))});
    mujoco_vs_reduced =
        std::max({mujoco_vs_reduced, std::abs(a_mj - reduced[i]), std::abs(b_mj - (c0 + c1 * reduced[i]))});
    ours_vs_mujoco = std::max({ours_vs_mujoco, std::abs(a - a_mj), std::abs(b - b_mj)});
    ours_g = std::max(ours_g, std::abs(b - c0 - c1 * a));
    mujoco_g = std::max(mujoco_g, std::abs(b_mj - c0 - c1 * a_mj));
  }
  std::printf("pendulums over %g s (θ_a ends at %.4g rad): max |q - reduced| Stiction %.3g, MuJoCo %.3g rad; "
              "Stiction vs MuJoCo %.3g rad; max |g| Stiction %.3g, MuJoCo %.3g rad\n",
              duration, reduced.back(), ours_vs_reduced, mujoco_vs_reduced, ours_vs_mujoco, ours_g, mujoco_g);
  // Stiction against the exact reduced model: its coupler's violation (the
  // near-rigid floor at δt = 1 ms, 2.2e-6 rad measured) and the midpoint
  // rule's O(δt²) phase error over one swing (θ_a reaches 1.7 rad): 2e-5 rad.
  EXPECT_LT(ours_vs_reduced, 2e-5);
  // MuJoCo's equality is softer: solref 2 ms, and solimp's impedance
  // d = 0.9–0.95 lets 5–10% of the constraint's acceleration through (its
  // g reaches 2.8e-5 rad); RK4 adds nothing visible. Each is within 1e-4 rad
  // of the reduced model and of the other: a wrong ratio, sign or offset
  // would put them ~0.1–1 rad apart.
  EXPECT_LT(mujoco_vs_reduced, 1e-4);
  EXPECT_LT(ours_vs_mujoco, 1e-4);
}

}  // namespace
}  // namespace stiction
