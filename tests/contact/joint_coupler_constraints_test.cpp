// The joint-coupler family: one bilateral row ġ = v_b − ρ v_a for
// g = q_b − ρ q_a − Δ, near-rigid ([SAP] Sec. V-B). Checked against an
// independent dense build: the row equals e_bᵀ − ρ e_aᵀ (one block within
// a tree, b's tree first across two), R = β²/(4π²) J A⁻¹ Jᵀ with A⁻¹ from
// an LU of the whole block-diagonal A, v̂ = −g(q0)/(δt + τd) with
// τd = β δt/π, the carried-load estimate's λ from the previous impulse, and
// the keys.
#include "engine/contact/joint_coupler_constraints.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include "engine/contact/constraint_history.h"
#include "engine/multibody/kinematics.h"
#include "tests/contact/family_test_helpers.h"

namespace stiction {
namespace {

constexpr double kDt = 1e-2;
constexpr double kFactor = 1 / (4 * std::numbers::pi * std::numbers::pi);  // β²/(4π²) at β = 1.

// A three-link revolute arm (tree 0) and a slider carrying an elbow (tree 1).
struct CouplerScene {
  MultibodyModel model;
  int link0 = 0, link2 = 0, slider = 0, elbow = 0;  // Joint indices.
};

CouplerScene MakeCouplerScene() {
  CouplerScene s;
  const Body body = test::BoxBody("b", 0.7, Vector3(0.01, 0.02, 0.1), Vector3(0.1, 0.05, 0.3));
  test::AddRevoluteChain(&s.model, body, test::kThreeSkewedLinks);
  test::AddSliderElbow(&s.model, body);
  s.model.Finalize();
  s.link0 = s.model.FindJoint("link0");
  s.link2 = s.model.FindJoint("link2");
  s.slider = s.model.FindJoint("slider");
  s.elbow = s.model.FindJoint("forearm");
  return s;
}

class JointCouplerConstraintsTest : public ::testing::Test {
 protected:
  JointCouplerConstraintsTest() : s_(MakeCouplerScene()), cache_(s_.model) {
    std::mt19937 rng(7);
    problem_ = test::RandomSpdProblem(s_.model, kDt, &rng);
    A_inverse_ = test::BlockDiagonalA(problem_).inverse();
    q0_ = VectorX::Zero(s_.model.num_positions());
    for (int i = 0; i < q0_.size(); ++i) q0_[i] = 0.1 * (i + 1);
    v0_ = VectorX::Zero(s_.model.num_velocities());
    couplers_ = {{s_.link2, s_.link0, -1.5, 0.2},    // Within tree 0.
                 {s_.slider, s_.link0, 0.3, -0.1},   // b on tree 1, a on tree 0.
                 {s_.elbow, s_.slider, 2.0, 0.05}};  // Within tree 1, a before b.
  }

  void Build(const ConstraintHistory* history = nullptr) {
    CalcKinematics(s_.model, q0_, v0_, BodyRange::All(s_.model), &cache_);
    ConstraintAssembly assembly(s_.model);
    assembly.Begin(cache_, q0_, v0_, 1e-3, history, &problem_);
    AddJointCouplerConstraints(couplers_, params_, &assembly);
  }

  // e_bᵀ − ρ e_aᵀ over all velocities.
  MatrixX ExpectedRow(const JointCoupler& c) const {
    MatrixX J = MatrixX::Zero(1, s_.model.num_velocities());
    J(0, s_.model.joint(c.joint).v_start) += 1;
    J(0, s_.model.joint(c.leader).v_start) -= c.ratio;
    return J;
  }

  CouplerScene s_;
  KinematicsCache cache_;
  ContactProblem problem_;
  MatrixX A_inverse_;
  VectorX q0_, v0_;
  ContactModelParameters params_;
  std::vector<JointCoupler> couplers_;
};

TEST_F(JointCouplerConstraintsTest, RowRegularizationAndBias) {
  Build();
  ASSERT_EQ(problem_.constraints.size(), couplers_.size());
  const double tau_d = kDt / std::numbers::pi;
  for (std::size_t i = 0; i < couplers_.size(); ++i) {
    SCOPED_TRACE(i);
    const Constraint& c = problem_.constraints[i];
    const JointCoupler& k = couplers_[i];
    EXPECT_EQ(c.kind, ConstraintKind::kBilateral);
    EXPECT_EQ(c.origin, ConstraintOrigin::kCoupler);
    EXPECT_EQ(c.num_rows, 1);
    EXPECT_EQ(c.key, MakeConstraintKey(ConstraintOrigin::kCoupler, i, 0, 0));
    const MatrixX J = test::DenseJacobian(c, problem_, 1);
    EXPECT_EQ((J - ExpectedRow(k)).cwiseAbs().maxCoeff(), 0.0);
    // b's tree first (AppendRelative's order), one block within a tree.
    const int tree_b = test::TreeOfJoint(s_.model, k.joint);
    const int tree_a = test::TreeOfJoint(s_.model, k.leader);
    ASSERT_EQ(c.blocks.size(), tree_a == tree_b ? 1u : 2u);
    EXPECT_EQ(c.blocks[0].tree, tree_b);
    const double w = (J * A_inverse_ * J.transpose())(0, 0);
    EXPECT_NEAR(c.bilateral.R[0], kFactor * w, 1e-13 * kFactor * w);
    const double g = q0_[s_.model.joint(k.joint).q_start] - k.ratio * q0_[s_.model.joint(k.leader).q_start] - k.offset;
    EXPECT_NEAR(CalcJointCouplerError(s_.model, k, q0_), g, 1e-15);
    EXPECT_NEAR(c.bilateral.v_hat[0], -g / (kDt + tau_d), 1e-15);
  }
}

TEST_F(JointCouplerConstraintsTest, CarriedLoadStiffensTheRowAsAWeldRow) {
  // The slider follower (prismatic, ℓ = 1) carried 50 times the impulse of
  // its effective mass's weight: λ = w γ/(g δt) = 50, R divided by 50. The
  // revolute follower link2 with ℓ² = 1/(w m), m = the arm's 3 links.
  Build();
  const double w1 = problem_.constraints[1].bilateral.R[0] / kFactor;
  const double w0 = problem_.constraints[0].bilateral.R[0] / kFactor;
  const double g = s_.model.gravity().norm();
  const double gamma1 = 50 * g * kDt / w1;
  const double length0 = 1 / std::sqrt(w0 * 3 * 0.7);
  const double gamma0 = -20 * g * kDt / (w0 * length0);  // Sign does not matter: a bilateral load.
  ConstraintHistory history;
  problem_.dt = kDt;
  history.Save(problem_, VectorX(Vector3(gamma0, gamma1, 0.0)), VectorX());
  Build(&history);
  EXPECT_NEAR(problem_.constraints[1].bilateral.R[0], kFactor * w1 / 50, 1e-9 * kFactor * w1);
  EXPECT_NEAR(problem_.constraints[0].bilateral.R[0], kFactor * w0 / 20, 1e-9 * kFactor * w0);
  EXPECT_NEAR(problem_.constraints[2].bilateral.R[0] / kFactor,
              (test::DenseJacobian(problem_.constraints[2], problem_, 1) * A_inverse_ *
               test::DenseJacobian(problem_.constraints[2], problem_, 1).transpose())(0, 0),
              1e-12);
}

}  // namespace
}  // namespace stiction
