// ConstraintAssembly, the shared state of the constraint families: A_t⁻¹
// per tree (for the Delassus estimates of [SAP] Sec. V-B) against an
// independent LU inverse, on the fixed-size 6-DOF path and the dynamic one;
// its caching within a step; constraint storage recycled across Begin()
// calls without reallocation and with default fields; which bodies have a
// moving tree; the Delassus block J A⁻¹ Jᵀ and the tree frame Jacobian.
#include "engine/contact/constraint_assembly.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "engine/multibody/kinematics.h"
#include "engine/multibody/spatial_algebra.h"
#include "tests/contact/family_test_helpers.h"

namespace stiction {
namespace {

// A forest with one tree of each kind: a free body (6 DOF, the fixed-size
// path), a two-link revolute arm (2 DOF, the dynamic path) and a body welded
// to the world (a tree without velocities).
struct Forest {
  MultibodyModel model;
  int free_body = 0, link0 = 0, link1 = 0, post = 0;
};

Forest MakeForest() {
  Forest f;
  const Body b = test::BoxBody("free", 2.0, Vector3(0.02, -0.01, 0.05), Vector3(0.1, 0.2, 0.3));
  f.free_body = test::AddFreeBody(&f.model, b, "free_joint");
  const std::vector<int> arm = test::AddRevoluteChain(
      &f.model, b,
      {{.name = "link0", .axis_F = Vector3::UnitY(), .p_PF = Vector3(1, 0, 0.5), .joint_name = "hinge0"},
       {.name = "link1",
        .axis_F = Vector3(1, 0, 1).normalized(),
        .p_PF = Vector3(0, 0, -0.4),
        .joint_name = "hinge1"}});
  f.link0 = arm[0];
  f.link1 = arm[1];
  f.post = test::AddWeldedBody(&f.model, b, "post", Vector3(-1, 0, 0), "weld");
  f.model.Finalize();
  return f;
}

// A problem with the forest's trees, random SPD A per tree and random v*
// (drawn after the A's).
ContactProblem MakeProblem(const MultibodyModel& model, unsigned seed) {
  std::mt19937 rng(seed);
  ContactProblem p = test::RandomSpdProblem(model, 1e-3, &rng);
  std::uniform_real_distribution<double> u(-1, 1);
  p.v_star = VectorX::NullaryExpr(model.num_velocities(), [&] { return u(rng); });
  return p;
}

class ConstraintAssemblyTest : public ::testing::Test {
 protected:
  ConstraintAssemblyTest() : forest_(MakeForest()), cache_(forest_.model) {
    test::RandomState(forest_.model, 3, &q_, &v_);
    CalcKinematics(forest_.model, q_, v_, BodyRange::All(forest_.model), &cache_);
    problem_ = MakeProblem(forest_.model, 11);
  }
  const MultibodyModel& model() const { return forest_.model; }

  Forest forest_;
  KinematicsCache cache_;
  VectorX q_, v_;
  ContactProblem problem_;
};

TEST_F(ConstraintAssemblyTest, ForestHasOneTreeOfEachKind) {
  // The fixture's premise: tree 0 is 6-DOF, tree 1 is 2-DOF, tree 2 welded.
  ASSERT_EQ(model().num_trees(), 3);
  EXPECT_EQ(model().tree(model().body(forest_.free_body).tree).nv, 6);
  EXPECT_EQ(model().tree(model().body(forest_.link1).tree).nv, 2);
  EXPECT_EQ(model().tree(model().body(forest_.post).tree).nv, 0);
}

TEST_F(ConstraintAssemblyTest, InverseAIsTheInverseOfA) {
  ConstraintAssembly assembly(model());
  assembly.Begin(cache_, q_, v_, 1e-3, nullptr, &problem_);
  for (int t = 0; t < 2; ++t) {  // The 6-DOF (fixed-size LLT) and 2-DOF trees.
    const MatrixX& A = problem_.A[t];
    const MatrixX& A_inv = assembly.InverseA(t);
    ASSERT_EQ(A_inv.rows(), A.rows());
    ASSERT_EQ(A_inv.cols(), A.cols());
    // Independent: Eigen's LU inverse. cond(A) ≤ 2 and entries of A⁻¹ are
    // ≤ 1/n, so both agree to a few ulp of 1; 1e-13 absolute.
    const MatrixX expected = A.inverse();
    EXPECT_LT((A_inv - expected).cwiseAbs().maxCoeff(), 1e-13) << "tree " << t;
    EXPECT_LT((A * A_inv - MatrixX::Identity(A.rows(), A.cols())).cwiseAbs().maxCoeff(), 1e-13) << "tree " << t;
  }
}

TEST_F(ConstraintAssemblyTest, InverseAIsFactoredOncePerStepAndRefreshedByBegin) {
  ConstraintAssembly assembly(model());
  assembly.Begin(cache_, q_, v_, 1e-3, nullptr, &problem_);
  for (int t = 0; t < 2; ++t) {
    const MatrixX first = assembly.InverseA(t);
    // Within a step A does not change; a second call returns the cached
    // inverse (it does not refactor, so an edit of A is not seen).
    problem_.A[t] *= 2.0;
    EXPECT_EQ(assembly.InverseA(t), first) << "tree " << t;
    // The next step's Begin invalidates the cache: the new A = 2 A_old is
    // inverted, A⁻¹ = A_old⁻¹/2 (1e-13 as above).
    assembly.Begin(cache_, q_, v_, 1e-3, nullptr, &problem_);
    EXPECT_LT((assembly.InverseA(t) - 0.5 * first).cwiseAbs().maxCoeff(), 1e-13) << "tree " << t;
  }
}

TEST_F(ConstraintAssemblyTest, AppendRecyclesStorageInOrderWithDefaultFields) {
  ConstraintAssembly assembly(model());
  assembly.Begin(cache_, q_, v_, 1e-3, nullptr, &problem_);
  EXPECT_EQ(assembly.num_constraints(), 0);

  // Step 1: two constraints of different shapes, every field non-default.
  Constraint& c0 = assembly.Append(2);
  EXPECT_EQ(&c0, &problem_.constraints.back());
  ASSERT_EQ(c0.blocks.size(), 2u);
  c0.blocks[0].tree = 0;
  c0.blocks[0].J.setOnes(3, 6);
  c0.blocks[1].tree = 1;
  c0.blocks[1].J.setOnes(3, 2);
  c0.kind = ConstraintKind::kHuntCrossley;
  c0.num_rows = 7;
  c0.cone.mu = 0.3;
  c0.cone.Rn = 2;
  c0.clamped.lower = -5;
  c0.clamped.R = 3;
  c0.hc.k = 9;
  c0.bilateral.R.setOnes(6);
  c0.origin = ConstraintOrigin::kWeld;
  c0.phi0 = -0.2;
  c0.mu = 0.9;
  c0.key = 42;
  c0.warm_gamma.setOnes(3);
  c0.warm_slack.setOnes(3);
  const double* J00 = c0.blocks[0].J.data();
  const double* J01 = c0.blocks[1].J.data();
  Constraint& c1 = assembly.Append(1);
  ASSERT_EQ(c1.blocks.size(), 1u);
  c1.blocks[0].tree = 0;
  c1.blocks[0].J.setOnes(6, 6);
  c1.kind = ConstraintKind::kBilateral;
  const double* J10 = problem_.constraints[1].blocks[0].J.data();
  EXPECT_EQ(assembly.num_constraints(), 2);

  // Step 2, same shapes: constraint i gets constraint i's storage back (the
  // data of its J blocks survive), nothing else of it.
  assembly.Begin(cache_, q_, v_, 1e-3, nullptr, &problem_);
  EXPECT_EQ(assembly.num_constraints(), 0);
  EXPECT_TRUE(problem_.constraints.empty());
  Constraint& d0 = assembly.Append(2);
  ASSERT_EQ(d0.blocks.size(), 2u);
  d0.blocks[0].J.resize(3, 6);  // Same shape: no reallocation.
  d0.blocks[1].J.resize(3, 2);
  EXPECT_EQ(d0.blocks[0].J.data(), J00);
  EXPECT_EQ(d0.blocks[1].J.data(), J01);
  const Constraint defaults;
  EXPECT_EQ(d0.kind, defaults.kind);
  EXPECT_EQ(d0.num_rows, defaults.num_rows);
  EXPECT_EQ(d0.cone.mu, defaults.cone.mu);
  EXPECT_EQ(d0.cone.Rn, defaults.cone.Rn);
  EXPECT_EQ(d0.clamped.lower, defaults.clamped.lower);
  EXPECT_EQ(d0.clamped.R, defaults.clamped.R);
  EXPECT_EQ(d0.hc.k, defaults.hc.k);
  EXPECT_EQ(d0.bilateral.R.size(), 0);
  EXPECT_EQ(d0.origin, defaults.origin);
  EXPECT_EQ(d0.phi0, defaults.phi0);
  EXPECT_EQ(d0.mu, defaults.mu);
  EXPECT_EQ(d0.key, defaults.key);
  EXPECT_EQ(d0.warm_gamma.size(), 0);
  EXPECT_EQ(d0.warm_slack.size(), 0);
  Constraint& d1 = assembly.Append(1);
  ASSERT_EQ(d1.blocks.size(), 1u);
  d1.blocks[0].J.resize(6, 6);
  EXPECT_EQ(d1.blocks[0].J.data(), J10);
  EXPECT_EQ(d1.kind, defaults.kind);
  // More constraints than the pool holds, and more blocks than a recycled
  // constraint had: fresh storage of the asked size.
  EXPECT_EQ(assembly.Append(3).blocks.size(), 3u);
  EXPECT_EQ(assembly.num_constraints(), 3);
}

TEST_F(ConstraintAssemblyTest, MovingTreeOfWorldMovingAndWeldedBodies) {
  ConstraintAssembly assembly(model());
  assembly.Begin(cache_, q_, v_, 1e-3, nullptr, &problem_);
  EXPECT_EQ(assembly.MovingTree(0), -1);  // The world.
  EXPECT_EQ(assembly.MovingTree(forest_.free_body), 0);
  EXPECT_EQ(assembly.MovingTree(forest_.link0), 1);
  EXPECT_EQ(assembly.MovingTree(forest_.link1), 1);
  EXPECT_EQ(assembly.MovingTree(forest_.post), -1);  // Welded: nv = 0.
}

TEST_F(ConstraintAssemblyTest, DelassusBlockAddsJAInverseJTransposed) {
  ConstraintAssembly assembly(model());
  assembly.Begin(cache_, q_, v_, 1e-3, nullptr, &problem_);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int t = 0; t < 2; ++t) {  // 6 columns (fixed-size kernel) and 2.
    ConstraintJacobianBlock b;
    b.tree = t;
    b.J = MatrixX::NullaryExpr(3, problem_.tree_nv[t], [&] { return u(rng); });
    const Matrix3 W0 = Matrix3::NullaryExpr([&] { return u(rng); });
    Matrix3 W = W0;
    assembly.AddDelassusBlock(b, &W);
    // Independent: J (LU inverse of A) Jᵀ, added to what W held. Entries are
    // O(1) sums of ≤ 36 products of O(1) numbers: 1e-13 absolute.
    const Matrix3 expected = W0 + b.J * problem_.A[t].inverse() * b.J.transpose();
    EXPECT_LT((W - expected).cwiseAbs().maxCoeff(), 1e-13) << "tree " << t;
  }
}

TEST_F(ConstraintAssemblyTest, TreeJacobianGivesTheFrameVelocityOfAPoint) {
  ConstraintAssembly assembly(model());
  assembly.Begin(cache_, q_, v_, 1e-3, nullptr, &problem_);
  const Vector3 p_W(0.3, -0.2, 0.7);
  for (const int body : {forest_.free_body, forest_.link1}) {
    const int t = model().body(body).tree;
    const Matrix6X& J = assembly.TreeJacobian(body, p_W);
    ASSERT_EQ(J.cols(), problem_.tree_nv[t]);
    const Vector6 V = J * v_.segment(problem_.tree_v_start[t], problem_.tree_nv[t]);
    // Independent: the body's spatial velocity from CalcKinematics, shifted
    // to the point. Velocities are O(1): 1e-13 absolute.
    EXPECT_LT((V.head<3>() - cache_.V_WB[body].head<3>()).norm(), 1e-13) << body;
    EXPECT_LT((V.tail<3>() - PointVelocity(cache_.V_WB[body], p_W)).norm(), 1e-13) << body;
  }
}

}  // namespace
}  // namespace stiction
