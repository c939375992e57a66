#include "engine/multibody/tree_cholesky.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include <Eigen/Cholesky>

#include "engine/multibody/dynamics.h"
#include "engine/multibody/kinematics.h"
#include "tests/multibody/test_models.h"

namespace stiction {
namespace {

// A free base with two legs (hip and knee hinges, a foot welded to the
// shin) and a ball-jointed arm: three branches, a joint with no
// velocities between two that have them, and dense 6 × 6 and 3 × 3 blocks.
// Velocities: base 0–5, left hip 6, left knee 7, right hip 8, right knee 9,
// arm 10–12, left ankle 13 (below the welded foot).
MultibodyModel MakeWalker() {
  MultibodyModel model;
  Body base;
  base.name = "base";
  base.mass = 5;
  base.com_B = Vector3(0.02, -0.01, 0.03);
  base.I_Bcm_B = test::BoxInertia(5, Vector3(0.4, 0.3, 0.2));
  Joint free;
  free.name = "free";
  free.type = JointType::kFree;
  const int b_base = model.AddBody(base, free);
  auto add_hinge = [&](const std::string& name, int parent, const Vector3& offset, const Vector3& axis) {
    Body link;
    link.name = name;
    link.mass = 0.8;
    link.com_B = Vector3(0, 0, -0.15);
    link.I_Bcm_B = test::BoxInertia(0.8, Vector3(0.05, 0.05, 0.3));
    Joint j;
    j.name = name + "_joint";
    j.type = JointType::kRevolute;
    j.parent = parent;
    j.axis_F = axis.normalized();
    j.X_PF.p = offset;
    return model.AddBody(link, j);
  };
  const int hip_l = add_hinge("hip_l", b_base, Vector3(0, 0.1, -0.1), Vector3(0, 1, 0));
  const int shin_l = add_hinge("shin_l", hip_l, Vector3(0, 0, -0.3), Vector3(0, 1, 0.2));
  const int hip_r = add_hinge("hip_r", b_base, Vector3(0, -0.1, -0.1), Vector3(1, 0, 0));
  add_hinge("shin_r", hip_r, Vector3(0, 0, -0.3), Vector3(0, 1, 0));
  Body arm;
  arm.name = "arm";
  arm.mass = 1.2;
  arm.com_B = Vector3(0.1, 0, 0);
  arm.I_Bcm_B = test::BoxInertia(1.2, Vector3(0.3, 0.05, 0.05));
  Joint ball;
  ball.name = "shoulder";
  ball.type = JointType::kBall;
  ball.parent = b_base;
  ball.X_PF.p = Vector3(0.2, 0, 0.1);
  model.AddBody(arm, ball);
  Body foot;
  foot.name = "foot_l";
  foot.mass = 0.3;
  foot.I_Bcm_B = test::BoxInertia(0.3, Vector3(0.1, 0.05, 0.02));
  Joint weld;
  weld.name = "foot_weld";
  weld.type = JointType::kFixed;
  weld.parent = shin_l;
  weld.X_PF.p = Vector3(0, 0, -0.3);
  const int foot_l = model.AddBody(foot, weld);
  add_hinge("toe_l", foot_l, Vector3(0.1, 0, 0), Vector3(0, 1, 0));
  model.Finalize();
  return model;
}

// A = M(q) + a positive diagonal (the θ-method's δt θ D + δt² θ θ_vq K).
MatrixX LinearizedMassMatrix(const MultibodyModel& model, unsigned seed) {
  VectorX q, v;
  test::RandomState(model, seed, &q, &v);
  KinematicsCache cache(model);
  CalcKinematics(model, q, v, BodyRange::All(model), &cache);
  MatrixX M;
  CalcTreeMassMatrix(model, cache, 0, &M);
  for (int k = 0; k < M.rows(); ++k) M(k, k) += 0.01 * (k % 3);
  return M;
}

TEST(TreeCholeskyTest, VelocityParentsFollowTheBranchesAndSkipWeldedBodies) {
  const MultibodyModel model = MakeWalker();
  ASSERT_EQ(model.num_trees(), 1);
  const std::vector<int> expected = {-1, 0, 1, 2, 3, 4, 5, 6, 5, 8, 5, 10, 11, 7};
  EXPECT_EQ(TreeCholesky::VelocityParents(model, 0), expected);
}

TEST(TreeCholeskyTest, TheMassMatrixHasTheTreesPatternSoTheFactorIsSparse) {
  // The premise: M_ij = 0 exactly when neither velocity is the other's
  // ancestor (CRBA writes only ancestor blocks), so no fill-in.
  const MultibodyModel model = MakeWalker();
  const MatrixX A = LinearizedMassMatrix(model, 3);
  TreeCholesky factor(TreeCholesky::VelocityParents(model, 0));
  ASSERT_TRUE(factor.Factor(A));
  EXPECT_TRUE(factor.sparse());
  EXPECT_EQ(A(9, 7), 0.0);   // Right knee against left knee.
  EXPECT_EQ(A(12, 13), 0.0);  // Arm against the left toe.
  EXPECT_NE(A(13, 6), 0.0);  // The toe against its hip, through the weld.
}

// Solve, the inverse's diagonal and J A⁻¹ Jᵀ against Eigen's dense LLT.
void ExpectMatchesDenseCholesky(const MatrixX& A, const TreeCholesky& factor) {
  const Eigen::LLT<MatrixX> llt(A);
  ASSERT_EQ(llt.info(), Eigen::Success);
  const MatrixX A_inv = llt.solve(MatrixX::Identity(A.rows(), A.cols()));
  const double scale = A_inv.norm();
  const VectorX b = VectorX::LinSpaced(A.rows(), -1.0, 2.0);
  VectorX x = b;
  factor.Solve(x);
  EXPECT_LT((x - llt.solve(b)).norm(), 1e-12 * scale * b.norm());
  for (int k = 0; k < A.rows(); ++k) EXPECT_NEAR(factor.InverseDiagonal(k), A_inv(k, k), 1e-12 * scale);
  MatrixX inverse;
  factor.Inverse(&inverse);
  EXPECT_LT((inverse - A_inv).norm(), 1e-12 * scale);
  // A contact on the left toe: its Jacobian touches the base, the left hip,
  // knee and toe only; one touching everything; one row.
  Eigen::Matrix<double, 3, Eigen::Dynamic> J_toe = Eigen::Matrix<double, 3, Eigen::Dynamic>::Zero(3, A.cols());
  for (int col : {0, 1, 2, 3, 4, 5, 6, 7, 13}) J_toe.col(col) = Vector3(0.3 * col - 1, 0.5, std::sin(col));
  const MatrixX J_all = MatrixX::NullaryExpr(3, A.cols(), [](Eigen::Index i, Eigen::Index j) {
    return std::cos(1.0 + i + 2.0 * j);
  });
  for (const MatrixX& J : {MatrixX(J_toe), J_all}) {
    Matrix3 W = Matrix3::Zero();
    factor.AddDelassus(J, &W);
    EXPECT_LT((W - J * A_inv * J.transpose()).norm(), 1e-12 * scale * J.squaredNorm());
  }
  const MatrixX row = J_all.topRows(1);
  Eigen::Matrix<double, 1, 1> w = Eigen::Matrix<double, 1, 1>::Zero();
  factor.AddDelassus(row, &w);
  EXPECT_NEAR(w(0, 0), (row * A_inv * row.transpose())(0, 0), 1e-12 * scale * row.squaredNorm());
}

// Factors A, checks which pattern the factor used, and its answers.
void ExpectFactorsAsTheDenseCholesky(const MatrixX& A, bool sparse, TreeCholesky* factor) {
  ASSERT_TRUE(factor->Factor(A));
  EXPECT_EQ(factor->sparse(), sparse);
  ExpectMatchesDenseCholesky(A, *factor);
}

TEST(TreeCholeskyTest, SolvesAsTheDenseCholeskyDoes) {
  const MultibodyModel model = MakeWalker();
  TreeCholesky factor(TreeCholesky::VelocityParents(model, 0));
  for (unsigned seed = 0; seed < 5; ++seed) {
    SCOPED_TRACE(seed);
    ExpectFactorsAsTheDenseCholesky(LinearizedMassMatrix(model, seed), true, &factor);
  }
}

TEST(TreeCholeskyTest, AnEntryOffThePatternIsFactoredDense) {
  // A coupling between the two knees (a constraint across branches) would
  // fill in: the factor then treats every earlier velocity as an ancestor.
  const MultibodyModel model = MakeWalker();
  MatrixX A = LinearizedMassMatrix(model, 7);
  A(9, 7) = A(7, 9) = 0.1 * std::sqrt(A(7, 7) * A(9, 9));
  TreeCholesky factor(TreeCholesky::VelocityParents(model, 0));
  ExpectFactorsAsTheDenseCholesky(A, false, &factor);
  // Without parents (a tree numbered children first) it is dense as well.
  TreeCholesky no_parents(std::vector<int>{});
  ExpectFactorsAsTheDenseCholesky(A, false, &no_parents);
}

TEST(TreeCholeskyTest, AMatrixThatIsNotPositiveDefiniteFailsAndSolvesToNaN) {
  const MultibodyModel model = MakeWalker();
  MatrixX A = LinearizedMassMatrix(model, 1);
  A(10, 10) = -1;
  TreeCholesky factor(TreeCholesky::VelocityParents(model, 0));
  EXPECT_FALSE(factor.Factor(A));
  VectorX x = VectorX::Ones(A.rows());
  factor.Solve(x);
  EXPECT_FALSE(x.allFinite());
}

}  // namespace
}  // namespace stiction
