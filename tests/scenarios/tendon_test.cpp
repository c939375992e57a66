// Tendon limits and equalities (engine/contact/tendon_constraints.h) from
// MJCF files: a fixed tendon L = Σ c_i q_i held equal to a value
// (<equality><tendon>) or within its range (<fixed limited range>), against
// closed forms:
//  * two discs on vertical hinges without gravity, a motor torque τ on the
//    first and the equality q1 + 2 q2 = 0: the reduced model turns the
//    first with v1 = τ t/(I1 + I2/4) and the second with v2 = −v1/2;
//  * the same discs with a range on L = q1 − q2 and the motor pushing L
//    into its upper end: L stops there (within the near-rigid row's
//    violation) and both discs then turn together, v1 = v2 = τ t'/(I1 + I2);
//  * the importer's mapping (MuJoCo's range minus the length at qpos0, a
//    second tendon folded into the row), and a tendon over three separate
//    chains refused.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "engine/common/error.h"
#include "engine/scene/mjcf_importer.h"
#include "engine/scene/scene_loader.h"
#include "tests/scenarios/scenario_helpers.h"
#include "tests/support/scratch_dir.h"

namespace stiction {
namespace {

double JointQ(const Simulation& sim, const std::string& joint) {
  return sim.positions()[sim.model().joint(sim.model().FindJoint(joint)).q_start];
}
double JointV(const Simulation& sim, const std::string& joint) {
  return sim.velocities()[sim.model().joint(sim.model().FindJoint(joint)).v_start];
}

// Discs: a (izz = I1 = 0.02 kg m²) and b (I2 = 0.05), on vertical hinges
// from the world; `tendon` and `equality` are spliced in.
std::string Discs(const std::string& tendon, const std::string& equality) {
  return R"(<mujoco model="discs">
  <compiler angle="radian"/>
  <option gravity="0 0 0" timestep="0.01"/>
  <worldbody>
    <body name="a"><joint name="ja" axis="0 0 1"/>
      <inertial pos="0 0 0" mass="1" diaginertia="0.01 0.01 0.02"/></body>
    <body name="b" pos="1 0 0"><joint name="jb" axis="0 0 1" ref="0.3"/>
      <inertial pos="0 0 0" mass="1" diaginertia="0.03 0.03 0.05"/></body>
  </worldbody>
  <tendon>)" + tendon + R"(</tendon>
  <equality>)" + equality + R"(</equality>
  <actuator><motor name="drive" joint="ja" gear="0.3"/></actuator>
</mujoco>
)";
}

class TendonTest : public test::ScratchDirTest {
 protected:
  Simulation Load(const std::string& xml) {
    const std::string file = Write("discs.xml", xml);
    Simulation sim(LoadSceneString("robots:\n  - file: " + file + "\n    use_file_options: true\n", "t.yaml", "."));
    sim.SetMotorControl("drive", 1);  // τ = 0.3 N m on a.
    return sim;
  }
};

TEST_F(TendonTest, AnEqualityMovesTheDiscsAsTheReducedModel) {
  Simulation sim = Load(Discs(R"(<fixed name="sum"><joint joint="ja" coef="1"/><joint joint="jb" coef="2"/></fixed>)",
                              R"(<tendon name="hold" tendon1="sum"/>)"));
  const double tau = 0.3, I1 = 0.02, I2 = 0.05;
  double max_violation = 0;
  test::Run(&sim, 1.0, [&] {
    max_violation = std::max(max_violation, std::abs(JointQ(sim, "ja") + 2 * JointQ(sim, "jb")));
  });
  const double v1 = tau * sim.time() / (I1 + I2 / 4);
  std::printf("equality: v1 %.9g (reduced %.9g) rad/s, v2/v1 %.9g, max |q1 + 2 q2| %.3g rad\n", JointV(sim, "ja"), v1,
              JointV(sim, "jb") / JointV(sim, "ja"), max_violation);
  EXPECT_NEAR(JointV(sim, "ja"), v1, 1e-5 * v1);
  EXPECT_NEAR(JointV(sim, "jb"), -v1 / 2, 1e-5 * v1);
  // Near-rigid: the row's steady violation is tiny next to the motion (≈ 5 rad turned).
  EXPECT_LT(max_violation, 1e-4);
}

TEST_F(TendonTest, ALimitStopsTheTendonAtItsEndThenTheDiscsTurnTogether) {
  // L_mj = q1 − q2 with q2's qpos0 = 0.3: at qpos0 L_mj = −0.3; range up to
  // 0.2, i.e. L = q1 − q2 (ours) ≤ 0.5.
  Simulation sim = Load(Discs(R"(<fixed name="diff" limited="true" range="-1 0.2"><joint joint="ja" coef="1"/><joint joint="jb" coef="-1"/></fixed>)",
                              ""));
  double max_L = -1, t_stop = -1;
  test::Run(&sim, 2.0, [&] {
    const double L = JointQ(sim, "ja") - JointQ(sim, "jb");
    max_L = std::max(max_L, L);
    if (t_stop < 0 && L > 0.5 - 1e-3) t_stop = sim.time();
  });
  const double L = JointQ(sim, "ja") - JointQ(sim, "jb");
  std::printf("limit: L %.6g rad (upper 0.5), max L %.6g, reached at %.3f s; v1 %.6g v2 %.6g rad/s\n", L, max_L,
              t_stop, JointV(sim, "ja"), JointV(sim, "jb"));
  // Free until L = 0.5: L = τ t²/(2 I1), t = sqrt(2 · 0.5 · 0.02/0.3) = 0.258 s.
  ASSERT_GT(t_stop, 0);
  EXPECT_NEAR(t_stop, std::sqrt(2 * 0.5 * 0.02 / 0.3), 0.02);
  // A near-rigid row lets an impact through for a fraction of a step (its
  // dissipation time τd = β δt/π, [SAP] Sec. V-B), as a joint limit does:
  // less than half a step's travel at the impact speed v = τ t_stop/I1.
  const double v_impact = std::sqrt(2 * 0.3 * 0.5 / 0.02);
  EXPECT_LT(max_L - 0.5, 0.5 * v_impact * 0.01);
  EXPECT_NEAR(L, 0.5, 1e-3);
  // Then b is pushed by the tendon: both turn together, with the momentum
  // the torque gave them: (I1 + I2) v = τ t.
  EXPECT_NEAR(JointV(sim, "ja"), JointV(sim, "jb"), 1e-3 * JointV(sim, "ja"));
  EXPECT_NEAR(0.02 * JointV(sim, "ja") + 0.05 * JointV(sim, "jb"), 0.3 * sim.time(), 1e-6);
}

TEST_F(TendonTest, TheImporterFoldsMuJoCosOffsetsAndASecondTendonIntoTheRow) {
  const std::string file = Write("discs.xml", Discs(
      R"(<fixed name="diff" limited="true" range="-1 0.2"><joint joint="ja" coef="1"/><joint joint="jb" coef="-1"/></fixed>
         <fixed name="single"><joint joint="jb" coef="0.5"/></fixed>)",
      R"(<tendon name="pair" tendon1="diff" tendon2="single" polycoef="0.1 2 0 0 0"/>)"));
  const RobotDescription r = ImportMjcf(file);
  ASSERT_EQ(r.tendons.size(), 2u);
  const auto named = [&](const std::string& name) -> const TendonDescription& {
    return r.tendons[r.tendons[0].name == name ? 0 : 1];
  };
  const TendonDescription& limit = named("diff");
  EXPECT_EQ(limit.name, "diff");
  EXPECT_NEAR(limit.lower, -1 + 0.3, 1e-15);  // MuJoCo's range minus L(qpos0) = −0.3.
  EXPECT_NEAR(limit.upper, 0.2 + 0.3, 1e-15);
  // (q1 − q2) − 2 (0.5 q2) = 0.1: q1 − 2 q2 = 0.1.
  const TendonDescription& eq = named("pair");
  EXPECT_EQ(eq.name, "pair");
  ASSERT_EQ(eq.joints.size(), 2u);
  EXPECT_EQ(eq.joints[0].joint, "ja");
  EXPECT_DOUBLE_EQ(eq.joints[0].coefficient, 1);
  EXPECT_DOUBLE_EQ(eq.joints[1].coefficient, -2);
  EXPECT_DOUBLE_EQ(eq.lower, 0.1);
  EXPECT_DOUBLE_EQ(eq.upper, 0.1);
}

TEST_F(TendonTest, ATendonOverThreeSeparateChainsIsRefusedNamingIt) {
  const std::string file = Write("three.xml", R"(<mujoco model="three">
  <worldbody>
    <body name="a"><joint name="ja" axis="0 0 1"/><geom type="sphere" size="0.1" mass="1"/></body>
    <body name="b" pos="1 0 0"><joint name="jb" axis="0 0 1"/><geom type="sphere" size="0.1" mass="1"/></body>
    <body name="c" pos="2 0 0"><joint name="jc" axis="0 0 1"/><geom type="sphere" size="0.1" mass="1"/></body>
  </worldbody>
  <tendon><fixed name="all" limited="true" range="-1 1">
    <joint joint="ja" coef="1"/><joint joint="jb" coef="1"/><joint joint="jc" coef="1"/></fixed></tendon>
</mujoco>
)");
  try {
    Simulation sim(LoadSceneString("robots:\n  - file: " + file + "\n", "t.yaml", "."));
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("tendon 'all' spans 3 separate bodies' chains"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace stiction
