// The weld/ball family ([SAP] Sec. VII with the near-rigid regularization
// of Sec. V-B). The rows are [ω_B − ω_A; v_Fb − v_Fa] (weld) or v_Fb − v_Fa
// (ball), each 3-row block rotated into the principal axes of its Delassus
// block W_kk = Σ_t J A_t⁻¹ Jᵀ. Checked here against the relative velocity
// computed independently from the bodies' spatial velocities (an orthogonal
// change of basis per block), the diagonal W blocks in the rows produced,
// R_i = max(max(β²/(4π²), 1e-12) λ_i, 1e-12) per axis, v̂ = −e/(δt + τd)
// for pairs displaced and rotated by a known error, one block for a pair
// within one tree, skipped pairs and keys.
#include "engine/contact/weld_constraints.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <vector>

#include "engine/multibody/kinematics.h"
#include "engine/multibody/spatial_algebra.h"
#include "tests/contact/family_test_helpers.h"

namespace stiction {
namespace {

constexpr double kTestPi = std::numbers::pi;
constexpr double kDt = 1e-3;

// Two free bodies (trees 0, 1), a three-link revolute arm (tree 2) and a
// body welded to the world (tree 3, no velocities).
struct WeldScene {
  MultibodyModel model;
  int a = 0, b = 0, link0 = 0, link1 = 0, link2 = 0, post = 0;
};

WeldScene MakeWeldScene() {
  WeldScene s;
  Body body = test::BoxBody("a", 1.2, Vector3(0.02, -0.03, 0.05), Vector3(0.3, 0.2, 0.1));
  s.a = test::AddFreeBody(&s.model, body);
  body.mass = 0.4;
  body.I_Bcm_B = test::BoxInertia(0.4, Vector3(0.1, 0.1, 0.5));
  body.name = "b";
  s.b = test::AddFreeBody(&s.model, body);
  const std::vector<int> links = test::AddRevoluteChain(&s.model, body, test::kThreeSkewedLinks);
  s.link0 = links[0];
  s.link1 = links[1];
  s.link2 = links[2];
  s.post = test::AddWeldedBody(&s.model, body, "post", Vector3(-1, 0, 0));
  s.model.Finalize();
  return s;
}

BodyConstraint Make(BodyConstraintKind kind, int body_a, int body_b, const RigidTransform& X_AFa,
                    const RigidTransform& X_BFb) {
  BodyConstraint bc;
  bc.kind = kind;
  bc.body_a = body_a;
  bc.body_b = body_b;
  bc.X_AFa = X_AFa;
  bc.X_BFb = X_BFb;
  return bc;
}

class WeldConstraintsTest : public ::testing::Test {
 protected:
  WeldConstraintsTest() : s_(MakeWeldScene()), cache_(s_.model), scratch_(s_.model) {
    std::mt19937 rng(29);
    problem_ = test::RandomSpdProblem(s_.model, kDt, &rng);  // v* = 0.
    A_inverse_ = test::BlockDiagonalA(problem_).inverse();  // LU, independent of the assembly's LLT.
  }

  void Build(const std::vector<BodyConstraint>& body_constraints) {
    body_constraints_ = body_constraints;
    CalcKinematics(s_.model, q0_, v0_, BodyRange::All(s_.model), &cache_);
    ConstraintAssembly assembly(s_.model);
    assembly.Begin(cache_, q0_, v0_, 1e-3, nullptr, &problem_);
    AddWeldConstraints(body_constraints_, params_, &assembly);
  }

  // [ω_B − ω_A; v_Fb − v_Fa] (or the last three for a ball) in world at the
  // positions q0 and velocities v, from the spatial velocities of
  // CalcKinematics (not from any Jacobian); the world's entry is at rest.
  VectorX RelativeVelocity(const BodyConstraint& bc, const VectorX& v) {
    CalcKinematics(s_.model, q0_, v, BodyRange::All(s_.model), &scratch_);
    const Vector3 p_WFa = scratch_.X_WB[bc.body_a] * bc.X_AFa.p;
    const Vector3 p_WFb = scratch_.X_WB[bc.body_b] * bc.X_BFb.p;
    const Vector6& V_A = scratch_.V_WB[bc.body_a];
    const Vector6& V_B = scratch_.V_WB[bc.body_b];
    const Vector3 dv = PointVelocity(V_B, p_WFb) - PointVelocity(V_A, p_WFa);
    if (bc.kind == BodyConstraintKind::kBall) return dv;
    VectorX u(6);
    u << V_B.head<3>() - V_A.head<3>(), dv;
    return u;
  }

  // The map v ↦ RelativeVelocity as a matrix, column by column (unit v).
  MatrixX IndependentJacobian(const BodyConstraint& bc) {
    const int nv = s_.model.num_velocities();
    MatrixX J(bc.kind == BodyConstraintKind::kWeld ? 6 : 3, nv);
    for (int i = 0; i < nv; ++i) J.col(i) = RelativeVelocity(bc, VectorX::Unit(nv, i));
    return J;
  }

  // The family's rows as one rows × nv matrix.
  MatrixX FullJacobian(const Constraint& c) const { return test::DenseJacobian(c, problem_, c.num_rows); }

  // The rotation Q_k with J_code_k = Q_kᵀ J_ind_k (least squares; exact
  // when the family's rows are a change of basis of the independent ones).
  static Matrix3 RecoverRotation(const MatrixX& J_code_k, const MatrixX& J_ind_k) {
    const Matrix3 Qt = J_code_k * J_ind_k.transpose() * (J_ind_k * J_ind_k.transpose()).inverse();
    return Qt.transpose();
  }

  WeldScene s_;
  KinematicsCache cache_, scratch_;
  VectorX q0_, v0_;
  ContactProblem problem_;
  MatrixX A_inverse_;
  ContactModelParameters params_;
  std::vector<BodyConstraint> body_constraints_;
};

// Welds and balls between two free bodies, with the world on either side,
// within the arm's tree, and between the arm and a free body.
std::vector<BodyConstraint> MixedConstraints(const WeldScene& s, unsigned seed) {
  std::mt19937 rng(seed);
  auto X = [&] { return test::RandomPose(&rng); };
  return {
      Make(BodyConstraintKind::kWeld, s.a, s.b, X(), X()),
      Make(BodyConstraintKind::kBall, s.a, s.b, X(), X()),
      Make(BodyConstraintKind::kWeld, 0, s.b, X(), X()),
      Make(BodyConstraintKind::kBall, s.a, 0, X(), X()),
      Make(BodyConstraintKind::kWeld, s.link0, s.link2, X(), X()),
      Make(BodyConstraintKind::kBall, s.link1, s.a, X(), X()),
  };
}

TEST_F(WeldConstraintsTest, RowsAreARotationOfTheRelativeVelocityPerBlock) {
  for (const unsigned seed : {1u, 2u, 3u}) {
    test::RandomState(s_.model, seed, &q0_, &v0_);
    Build(MixedConstraints(s_, seed + 10));
    ASSERT_EQ(problem_.constraints.size(), body_constraints_.size());
    for (size_t i = 0; i < body_constraints_.size(); ++i) {
      const BodyConstraint& bc = body_constraints_[i];
      const Constraint& c = problem_.constraints[i];
      const int rows = bc.kind == BodyConstraintKind::kWeld ? 6 : 3;
      ASSERT_EQ(c.num_rows, rows) << i;
      EXPECT_EQ(c.kind, ConstraintKind::kBilateral) << i;
      EXPECT_EQ(c.origin, ConstraintOrigin::kWeld) << i;
      const MatrixX J_code = FullJacobian(c);
      const MatrixX J_ind = IndependentJacobian(bc);
      for (int k = 0; k < rows / 3; ++k) {
        // J_code_k = Q_kᵀ J_ind_k for an orthogonal Q_k ⇔ equal Gram
        // matrices (‖J_code_k v‖ = ‖J_ind_k v‖ for every v); this also
        // holds for the rank-deficient pair within one tree. Entries O(1–10)
        // after ~100 flops: 1e-12 absolute.
        const MatrixX Gc = J_code.middleRows(3 * k, 3).transpose() * J_code.middleRows(3 * k, 3);
        const MatrixX Gi = J_ind.middleRows(3 * k, 3).transpose() * J_ind.middleRows(3 * k, 3);
        EXPECT_LT((Gc - Gi).cwiseAbs().maxCoeff(), 1e-12) << "seed " << seed << " constraint " << i << " block " << k;
      }
    }
  }
}

TEST_F(WeldConstraintsTest, RotatedBackRowsEqualTheRelativeVelocity) {
  // Pairs with full-rank blocks (free bodies, world): Q_k is determined;
  // it must be orthogonal, reproduce the rows exactly, and map J v back to
  // [ω_B − ω_A; v_Fb − v_Fa] for random velocities.
  test::RandomState(s_.model, 4, &q0_, &v0_);
  Build(MixedConstraints(s_, 14));
  std::mt19937 rng(31);
  std::uniform_real_distribution<double> u(-2, 2);
  for (const size_t i : {0u, 1u, 2u, 3u, 5u}) {
    const BodyConstraint& bc = body_constraints_[i];
    const Constraint& c = problem_.constraints[i];
    const MatrixX J_code = FullJacobian(c);
    const MatrixX J_ind = IndependentJacobian(bc);
    for (int k = 0; k < c.num_rows / 3; ++k) {
      const Matrix3 Q = RecoverRotation(J_code.middleRows(3 * k, 3), J_ind.middleRows(3 * k, 3));
      // Orthogonal (1e-12: the least squares of O(1) well-conditioned rows).
      EXPECT_LT((Q.transpose() * Q - Matrix3::Identity()).norm(), 1e-12) << i << " " << k;
      EXPECT_LT((Q.transpose() * J_ind.middleRows(3 * k, 3) - J_code.middleRows(3 * k, 3)).cwiseAbs().maxCoeff(),
                1e-12)
          << i << " " << k;
      for (int sample = 0; sample < 3; ++sample) {
        const VectorX v = VectorX::NullaryExpr(s_.model.num_velocities(), [&] { return u(rng); });
        const Vector3 back = Q * (J_code.middleRows(3 * k, 3) * v);
        const Vector3 expected = RelativeVelocity(bc, v).segment<3>(3 * k);
        // Velocities ≲ 20 m/s: 1e-12 absolute.
        EXPECT_LT((back - expected).norm(), 1e-12) << i << " " << k << ": " << back.transpose() << " vs "
                                                   << expected.transpose();
      }
    }
  }
}

TEST_F(WeldConstraintsTest, DelassusBlocksAreDiagonalAndEachAxisIsRegularized) {
  for (const double beta : {1.0, 0.4, 0.0}) {
    params_.near_rigid_threshold = beta;
    test::RandomState(s_.model, 5, &q0_, &v0_);
    Build(MixedConstraints(s_, 15));
    bool floored = false;
    for (size_t i = 0; i < body_constraints_.size(); ++i) {
      const Constraint& c = problem_.constraints[i];
      const MatrixX J_code = FullJacobian(c);
      const MatrixX J_ind = IndependentJacobian(body_constraints_[i]);
      const MatrixX W = J_code * A_inverse_ * J_code.transpose();
      ASSERT_EQ(c.bilateral.R.size(), c.num_rows);
      for (int k = 0; k < c.num_rows / 3; ++k) {
        const Matrix3 Wk = W.block<3, 3>(3 * k, 3 * k);
        // Diagonal in the rows produced: off-diagonals at round-off of the
        // block's scale (eigenvectors of a symmetric 3 × 3 to ~1e-15).
        Matrix3 off = Wk;
        off.diagonal().setZero();
        EXPECT_LT(off.cwiseAbs().maxCoeff(), 1e-12 * Wk.norm()) << i << " " << k;
        // Its diagonal holds the eigenvalues of the independent block.
        const Matrix3 Wk_ind = (J_ind * A_inverse_ * J_ind.transpose()).block<3, 3>(3 * k, 3 * k);
        const Vector3 lambda = Eigen::SelfAdjointEigenSolver<Matrix3>(Wk_ind).eigenvalues();
        Vector3 diagonal = Wk.diagonal();
        std::sort(diagonal.data(), diagonal.data() + 3);
        EXPECT_LT((diagonal - lambda).cwiseAbs().maxCoeff(), 1e-12 * Wk.norm()) << i << " " << k;
        for (int r = 0; r < 3; ++r) {
          // Sec. V-B per axis, with both floors (the factor for β = 0, and
          // R for an axis without mobility, λ ≈ 0). Round-off of λ is
          // ~1e-15 ‖W_k‖; relative 1e-12 plus that, scaled by the factor.
          const double factor = std::max(beta * beta / (4 * kTestPi * kTestPi), 1e-12);
          const double R = std::max(factor * Wk(r, r), 1e-12);
          floored |= R == 1e-12;
          EXPECT_NEAR(c.bilateral.R[3 * k + r], R, 1e-12 * R + factor * 1e-13 * Wk.norm())
              << "beta " << beta << " constraint " << i << " row " << 3 * k + r;
          EXPECT_GT(c.bilateral.R[3 * k + r], 0);
        }
      }
    }
    // The weld within the arm's tree has axes without relative mobility
    // (joint 0 moves both links): R's own floor is exercised.
    EXPECT_TRUE(floored) << beta;
  }
}

TEST_F(WeldConstraintsTest, StabilizationVelocityRemovesAKnownError) {
  // Fb displaced from Fa by d and rotated by θ about an axis (both given in
  // Fa): e = [R_WFa θ â; R_WFa d] and v̂ = −e/(δt + τd), τd = β δt/π, in the
  // original (unrotated) rows.
  std::mt19937 rng(37);
  const Vector3 axis_Fa = Vector3(1, -2, 0.5).normalized();
  const double theta = 0.7;
  const Vector3 d_Fa(0.02, -0.01, 0.03);
  RigidTransform X_FaFb;
  X_FaFb.R = Eigen::AngleAxisd(theta, axis_Fa).toRotationMatrix();
  X_FaFb.p = d_Fa;
  const RigidTransform X_AFa = test::RandomPose(&rng), X_BFb = test::RandomPose(&rng);
  const RigidTransform X_WA = test::RandomPose(&rng);
  // b's pose puts Fb at X_WA X_AFa X_FaFb; a's free joint holds X_WA.
  const RigidTransform X_WFa_ab = X_WA * X_AFa;
  const RigidTransform X_WB = X_WFa_ab * X_FaFb * X_BFb.inverse();
  // The world-to-b weld uses Fa = X_WFa_ab in the world, so the same error.
  auto set_free = [&](int body, const RigidTransform& X) {
    const Joint& j = s_.model.joint(s_.model.body(body).joint);
    const Quaternion quat(X.R);
    q0_.segment<4>(j.q_start) << quat.w(), quat.x(), quat.y(), quat.z();
    q0_.segment<3>(j.q_start + 4) = X.p;
  };
  q0_ = s_.model.DefaultPositions();
  v0_ = VectorX::Zero(s_.model.num_velocities());
  set_free(s_.a, X_WA);
  set_free(s_.b, X_WB);
  Vector6 e;
  e << X_WFa_ab.R * (theta * axis_Fa), X_WFa_ab.R * d_Fa;
  for (const double beta : {1.0, 0.5}) {
    params_.near_rigid_threshold = beta;
    Build({Make(BodyConstraintKind::kWeld, s_.a, s_.b, X_AFa, X_BFb),
           Make(BodyConstraintKind::kBall, s_.a, s_.b, X_AFa, X_BFb),
           Make(BodyConstraintKind::kWeld, 0, s_.b, X_WFa_ab, X_BFb)});
    ASSERT_EQ(problem_.constraints.size(), 3u);
    const double denominator = kDt + beta * kDt / kTestPi;
    for (size_t i = 0; i < 3; ++i) {
      const Constraint& c = problem_.constraints[i];
      const MatrixX J_code = FullJacobian(c);
      const MatrixX J_ind = IndependentJacobian(body_constraints_[i]);
      ASSERT_EQ(c.bilateral.v_hat.size(), c.num_rows);
      const VectorX e_rows = c.num_rows == 6 ? VectorX(e) : VectorX(e.tail<3>());
      for (int k = 0; k < c.num_rows / 3; ++k) {
        const Matrix3 Q = RecoverRotation(J_code.middleRows(3 * k, 3), J_ind.middleRows(3 * k, 3));
        const Vector3 expected = -e_rows.segment<3>(3 * k) / denominator;
        // v̂ ~ 50 m/s from errors ~0.03 over 1.3 ms; the pose round trip and
        // the rotation's log keep ~1e-14 relative; Q adds ~1e-12.
        EXPECT_LT((Q * c.bilateral.v_hat.segment<3>(3 * k) - expected).norm(), 1e-10 * expected.norm())
            << "beta " << beta << " constraint " << i << " block " << k;
      }
    }
  }
}

TEST_F(WeldConstraintsTest, PairWithinOneTreeGivesOneBlock) {
  // A weld from link0 to link2 whose Fb sits at a known offset from Fa:
  // rotated by θ = 0.6 rad and displaced by d (‖d‖ = 5 cm) in Fa.
  test::RandomState(s_.model, 6, &q0_, &v0_);
  CalcKinematics(s_.model, q0_, v0_, BodyRange::All(s_.model), &cache_);
  std::mt19937 rng(43);
  const double theta = 0.6;
  const Vector3 d_Fa(0.03, 0.0, -0.04);
  RigidTransform X_FaFb;
  X_FaFb.R = Eigen::AngleAxisd(theta, Vector3(2, 1, -1).normalized()).toRotationMatrix();
  X_FaFb.p = d_Fa;
  const RigidTransform X_AFa = test::RandomPose(&rng);
  const RigidTransform X_BFb = cache_.X_WB[s_.link2].inverse() * cache_.X_WB[s_.link0] * X_AFa * X_FaFb;
  Build({Make(BodyConstraintKind::kWeld, s_.link0, s_.link2, X_AFa, X_BFb)});
  ASSERT_EQ(problem_.constraints.size(), 1u);
  const Constraint& c = problem_.constraints[0];
  ASSERT_EQ(c.blocks.size(), 1u);
  EXPECT_EQ(c.blocks[0].tree, s_.model.body(s_.link0).tree);
  EXPECT_EQ(c.blocks[0].J.rows(), 6);
  EXPECT_EQ(c.blocks[0].J.cols(), 3);
  // The block is J_B − J_A: joint 0 turns both links together, so its
  // column vanishes in the rotation rows (rows 0–2, rotated among
  // themselves only); 1e-12: O(1) entries after a subtraction.
  EXPECT_LT(c.blocks[0].J.topRows(3).col(0).norm(), 1e-12);
  EXPECT_GT(c.blocks[0].J.bottomRows(3).col(0).norm(), 1e-3);  // ω0 × (p_Fb − p_Fa) ≠ 0.
  // Each block of e is rotated (by axes the test does not know here: the
  // pair's blocks are rank-deficient), so its norm is kept: ‖v̂_R‖ = θ/(δt +
  // τd), ‖v̂_p‖ = ‖d‖/(δt + τd). The pose round trip and the rotation's log
  // carry ~1e-15 relative; 1e-12.
  const double denominator = kDt + params_.near_rigid_threshold * kDt / kTestPi;
  EXPECT_NEAR(c.bilateral.v_hat.head<3>().norm(), theta / denominator, 1e-12 * theta / denominator);
  EXPECT_NEAR(c.bilateral.v_hat.tail<3>().norm(), 0.05 / denominator, 1e-12 * 0.05 / denominator);
}

TEST_F(WeldConstraintsTest, PairsWithoutAMovingTreeAreSkippedAndKeysNameTheInputIndex) {
  test::RandomState(s_.model, 7, &q0_, &v0_);
  std::mt19937 rng(41);
  Build({Make(BodyConstraintKind::kWeld, 0, s_.post, test::RandomPose(&rng), test::RandomPose(&rng)),
         Make(BodyConstraintKind::kWeld, s_.a, s_.b, test::RandomPose(&rng), test::RandomPose(&rng)),
         Make(BodyConstraintKind::kBall, s_.post, s_.b, test::RandomPose(&rng), test::RandomPose(&rng))});
  ASSERT_EQ(problem_.constraints.size(), 2u);
  EXPECT_EQ(problem_.constraints[0].key, MakeConstraintKey(ConstraintOrigin::kWeld, 1, 0, 0));
  EXPECT_EQ(problem_.constraints[1].key, MakeConstraintKey(ConstraintOrigin::kWeld, 2, 0, 0));
  EXPECT_EQ(problem_.constraints[1].num_rows, 3);
  // The welded body contributes no block; b's tree alone.
  ASSERT_EQ(problem_.constraints[1].blocks.size(), 1u);
  EXPECT_EQ(problem_.constraints[1].blocks[0].tree, s_.model.body(s_.b).tree);
}

}  // namespace
}  // namespace stiction
