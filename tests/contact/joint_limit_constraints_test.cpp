// The joint-limit family ([SAP] Sec. VII with the near-rigid
// regularization of Sec. V-B): which limits enter the problem (those within
// the margin plus twice the distance v* covers in δt), the row's sign (J v
// = dφ/dt for φ = q − q_lower and φ = q_upper − q), R = max(β²/(4π²),
// 1e-12) (A⁻¹)_jj with A⁻¹ from an independent LU inverse, v̂ = −φ/(δt + τd),
// τd = β δt/π, impulse bounds [0, ∞), φ0 and keys.
#include "engine/contact/joint_limit_constraints.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>

#include "engine/multibody/kinematics.h"
#include "tests/contact/family_test_helpers.h"

namespace stiction {
namespace {

constexpr double kTestPi = std::numbers::pi;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kDt = 2e-3;

// A free body first (so that the limited joints do not start at v = 0), a
// slider with an elbow on it (one 2-DOF tree: the elbow is column 1), and a
// hinge with only an upper limit (one 1-DOF tree).
struct LimitModel {
  MultibodyModel model;
  int slide = 0, elbow = 0, half = 0;  // Joint indices.
};

LimitModel MakeLimitModel(double slide_upper = 0.2) {
  LimitModel m;
  const Body b = test::BoxBody("free", 1.0, Vector3(0.1, 0, 0.05), Vector3(0.2, 0.2, 0.2));
  test::AddFreeBody(&m.model, b);
  const test::SliderElbow arm = test::AddSliderElbow(&m.model, b, {-0.1, slide_upper}, {-1.0, 0.5});
  // The hinge: no lower limit.
  const int door =
      test::AddRevoluteChain(&m.model, b, {{"door", Vector3::UnitZ(), Vector3(2, 0, 0), {.upper = 1.5}}})[0];
  m.model.Finalize();
  m.slide = m.model.body(arm.slider).joint;
  m.elbow = m.model.body(arm.forearm).joint;
  m.half = m.model.body(door).joint;
  return m;
}

class JointLimitConstraintsTest : public ::testing::Test {
 protected:
  JointLimitConstraintsTest() : m_(MakeLimitModel()), cache_(m_.model) {
    const MultibodyModel& model = m_.model;
    q0_ = model.DefaultPositions();
    v0_ = VectorX::Zero(model.num_velocities());
    std::mt19937 rng(17);
    problem_ = test::RandomSpdProblem(model, kDt, &rng);  // v* = 0.
    // Mid-range positions: every limit far away.
    q(m_.slide) = 0.05;
    q(m_.elbow) = -0.25;
    q(m_.half) = -3.0;
  }

  const Joint& joint(int j) const { return m_.model.joint(j); }
  double& q(int j) { return q0_[joint(j).q_start]; }
  double& v_star(int j) { return problem_.v_star[joint(j).v_start]; }
  int tree(int j) const { return test::TreeOfJoint(m_.model, j); }
  int column(int j) const { return test::ColumnInTree(m_.model, j); }
  // (A⁻¹)_jj of the joint's tree, by LU (independent of the assembly's LLT).
  double InverseADiagonal(int j) const { return problem_.A[tree(j)].inverse()(column(j), column(j)); }

  void Build(double margin = 1e-3) {
    CalcKinematics(m_.model, q0_, v0_, BodyRange::All(m_.model), &cache_);
    ConstraintAssembly assembly(m_.model);
    assembly.Begin(cache_, q0_, v0_, margin, nullptr, &problem_);
    AddJointLimitConstraints(params_, &assembly);
  }

  // Checks one limit row against [SAP] Sec. VII / V-B.
  void ExpectLimitRow(const Constraint& c, int j, int side, double phi, double beta) const {
    ASSERT_EQ(c.kind, ConstraintKind::kClamped);
    EXPECT_EQ(c.num_rows, 1);
    EXPECT_EQ(c.origin, ConstraintOrigin::kJointLimit);
    ASSERT_EQ(c.blocks.size(), 1u);
    EXPECT_EQ(c.blocks[0].tree, tree(j));
    // J v = dφ/dt: +v for φ = q − q_lower, −v for φ = q_upper − q; zero on
    // the tree's other columns.
    MatrixX J = MatrixX::Zero(1, problem_.tree_nv[tree(j)]);
    J(0, column(j)) = side == 0 ? 1.0 : -1.0;
    EXPECT_EQ(c.blocks[0].J, J);
    // φ0 from the positions (one subtraction, exact to 1 ulp of q).
    EXPECT_NEAR(c.phi0, phi, 1e-15);
    // R = max(β²/(4π²), 1e-12) (A⁻¹)_jj; LU vs LLT round-off with cond(A) ≤ 2:
    // 1e-13 relative.
    const double R = std::max(beta * beta / (4 * kTestPi * kTestPi), 1e-12) * InverseADiagonal(j);
    EXPECT_NEAR(c.clamped.R, R, 1e-13 * R);
    // v̂ = −φ/(δt + τd), τd = β δt/π: a few operations, 1e-14 relative.
    const double v_hat = -phi / (kDt + beta * kDt / kTestPi);
    EXPECT_NEAR(c.clamped.v_hat, v_hat, 1e-14 * std::abs(v_hat));
    // A limit only pushes: γ ∈ [0, ∞).
    EXPECT_EQ(c.clamped.lower, 0.0);
    EXPECT_EQ(c.clamped.upper, kInf);
    EXPECT_EQ(c.key, MakeConstraintKey(ConstraintOrigin::kJointLimit, static_cast<std::uint64_t>(j),
                                       static_cast<std::uint64_t>(side), 0));
  }

  LimitModel m_;
  KinematicsCache cache_;
  VectorX q0_, v0_;
  ContactProblem problem_;
  ContactModelParameters params_;
};

TEST_F(JointLimitConstraintsTest, LimitsOutOfReachAreNotAdded) {
  // The slider is 0.15 m from both limits; even at 10 m/s the reach is
  // 1e-3 + 2 · 2e-3 · 10 = 0.041 m.
  v_star(m_.slide) = 10;
  v_star(m_.elbow) = -10;
  // The step-start velocity is not what decides (it would reach: 2·δt·1e3 = 4).
  v0_.setConstant(1e3);
  Build();
  EXPECT_TRUE(problem_.constraints.empty());
}

TEST_F(JointLimitConstraintsTest, ReachIsTheMarginPlusTwiceTheFreeMotionDistance) {
  // Within margin + 2 δt |v*| (either direction of v*: the bound is
  // conservative) a limit is added; just beyond, not. The relative offset
  // 1e-9 is far above the round-off of φ and of the reach (~1e-16).
  const double margin = 1.5e-3;
  for (const double speed : {0.0, 3.0, -3.0}) {
    v_star(m_.slide) = speed;
    const double reach = margin + 2 * kDt * std::abs(speed);
    q(m_.slide) = -0.1 + reach * (1 - 1e-9);  // Lower limit within reach.
    Build(margin);
    ASSERT_EQ(problem_.constraints.size(), 1u) << speed;
    EXPECT_EQ(problem_.constraints[0].key, MakeConstraintKey(ConstraintOrigin::kJointLimit,
                                                             static_cast<std::uint64_t>(m_.slide), 0, 0));
    q(m_.slide) = -0.1 + reach * (1 + 1e-9);
    Build(margin);
    EXPECT_TRUE(problem_.constraints.empty()) << speed;
    q(m_.slide) = 0.2 - reach * (1 - 1e-9);  // Upper limit within reach.
    Build(margin);
    ASSERT_EQ(problem_.constraints.size(), 1u) << speed;
    EXPECT_EQ(problem_.constraints[0].key, MakeConstraintKey(ConstraintOrigin::kJointLimit,
                                                             static_cast<std::uint64_t>(m_.slide), 1, 0));
    q(m_.slide) = 0.2 - reach * (1 + 1e-9);
    Build(margin);
    EXPECT_TRUE(problem_.constraints.empty()) << speed;
  }
}

TEST_F(JointLimitConstraintsTest, LowerAndUpperRowsFollowSecVII) {
  for (const double beta : {1.0, 0.3}) {
    params_.near_rigid_threshold = beta;
    q(m_.slide) = -0.1 + 4e-4;  // 0.4 mm above its lower limit.
    q(m_.elbow) = 0.5 + 0.01;   // 10 mrad beyond its upper limit (φ < 0).
    q(m_.half) = 1.5 - 2e-4;    // Within reach of its only limit.
    Build();
    // Joints in model order: slide, elbow, half.
    ASSERT_EQ(problem_.constraints.size(), 3u) << beta;
    ExpectLimitRow(problem_.constraints[0], m_.slide, 0, q(m_.slide) + 0.1, beta);
    ExpectLimitRow(problem_.constraints[1], m_.elbow, 1, 0.5 - q(m_.elbow), beta);
    ExpectLimitRow(problem_.constraints[2], m_.half, 1, 1.5 - q(m_.half), beta);
    // A violated limit pushes back: v̂ > 0 along dφ/dt.
    EXPECT_GT(problem_.constraints[1].clamped.v_hat, 0);
    EXPECT_LT(problem_.constraints[0].clamped.v_hat, 0);
  }
}

TEST_F(JointLimitConstraintsTest, BetaZeroFloorsTheRegularization) {
  // β = 0: R = 1e-12 (A⁻¹)_jj (still > 0) and v̂ = −φ/δt.
  params_.near_rigid_threshold = 0;
  q(m_.elbow) = -1.0 + 3e-4;
  Build();
  ASSERT_EQ(problem_.constraints.size(), 1u);
  ExpectLimitRow(problem_.constraints[0], m_.elbow, 0, q(m_.elbow) + 1.0, 0.0);
  EXPECT_GT(problem_.constraints[0].clamped.R, 0);
}

TEST_F(JointLimitConstraintsTest, BothSidesOfANarrowRangeLowerFirst) {
  // The slider's range squeezed to 0.5 mm, [−0.1, −0.0995]: from its middle
  // both limits are within the 1 mm margin, so both rows, lower first,
  // with distinct keys.
  m_ = MakeLimitModel(-0.0995);
  q(m_.slide) = -0.09975;  // 0.25 mm from each limit.
  Build();
  ASSERT_EQ(problem_.constraints.size(), 2u);
  ExpectLimitRow(problem_.constraints[0], m_.slide, 0, 2.5e-4, 1.0);
  ExpectLimitRow(problem_.constraints[1], m_.slide, 1, 2.5e-4, 1.0);
  EXPECT_NE(problem_.constraints[0].key, problem_.constraints[1].key);
}

}  // namespace
}  // namespace stiction
