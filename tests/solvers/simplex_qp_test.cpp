// SolveSimplexQp (engine/solvers/simplex_qp.h), the QP of [NMDP] Eq. (8)
// (docs/nmdp.md Sec. 4): against the exact optimum found by brute force
// over every active set on small random problems, on a projection with a
// known answer, warm-started, and on bad input.
#include <gtest/gtest.h>

#include <limits>
#include <random>

#include <Eigen/LU>

#include "engine/common/error.h"
#include "engine/solvers/simplex_qp.h"

namespace stiction {
namespace {

SimplexQpProblem RandomProblem(std::mt19937* rng, const std::vector<int>& groups) {
  int n = 0;
  for (int g : groups) n += g;
  std::normal_distribution<double> normal(0.0, 1.0);
  const MatrixX G = MatrixX::NullaryExpr(n, n, [&]() { return normal(*rng); });
  SimplexQpProblem p;
  // Condition numbers up to ~1e3, as P^T M P + I/α in NMDP.
  p.H = G * G.transpose() / n + 1e-3 * MatrixX::Identity(n, n);
  p.h = 2.0 * VectorX::NullaryExpr(n, [&]() { return normal(*rng); });
  p.group_sizes = groups;
  return p;
}

// The optimum by enumeration: the minimizer of a strictly convex QP is the
// minimizer of the equality-constrained QP of its active set, so the
// feasible EQP solution of least objective over all 2^(n + groups)
// candidate sets is the optimum.
VectorX BruteForce(const SimplexQpProblem& p) {
  const int n = static_cast<int>(p.h.size());
  const int groups = static_cast<int>(p.group_sizes.size());
  const int m_all = n + groups;
  std::vector<int> start;
  for (int g = 0, s = 0; g < groups; s += p.group_sizes[g], ++g) start.push_back(s);
  double best = std::numeric_limits<double>::infinity();
  VectorX best_w;
  for (int mask = 0; mask < (1 << m_all); ++mask) {
    std::vector<VectorX> rows;
    std::vector<double> values;  // a_i w = values.
    // With equality caps every candidate set holds all of them.
    if (p.equality && (mask >> n) != (1 << groups) - 1) continue;
    for (int i = 0; i < m_all; ++i) {
      if (!(mask & (1 << i))) continue;
      VectorX a = VectorX::Zero(n);
      if (i < n) {
        a[i] = 1;
        values.push_back(0);
      } else {
        a.segment(start[i - n], p.group_sizes[i - n]).setOnes();
        values.push_back(1);
      }
      rows.push_back(a);
    }
    const int m = static_cast<int>(rows.size());
    MatrixX K = MatrixX::Zero(n + m, n + m);
    VectorX rhs = VectorX::Zero(n + m);
    K.topLeftCorner(n, n) = p.H;
    rhs.head(n) = -p.h;
    for (int k = 0; k < m; ++k) {
      K.block(0, n + k, n, 1) = rows[k];
      K.block(n + k, 0, 1, n) = rows[k].transpose();
      rhs[n + k] = values[k];
    }
    const Eigen::FullPivLU<MatrixX> lu(K);
    if (!lu.isInvertible()) continue;  // Dependent constraints (a group at zero and at its cap).
    const VectorX w = lu.solve(rhs).head(n);
    bool feasible = (w.array() >= -1e-12).all();
    for (int g = 0; g < groups; ++g) feasible = feasible && w.segment(start[g], p.group_sizes[g]).sum() <= 1 + 1e-12;
    if (!feasible) continue;
    const double f = 0.5 * w.dot(p.H * w) + p.h.dot(w);
    if (f < best) {
      best = f;
      best_w = w;
    }
  }
  return best_w;
}

TEST(SimplexQpTest, MatchesTheBruteForceOptimumOnRandomProblems) {
  std::mt19937 rng(3);
  const std::vector<std::vector<int>> shapes = {{1}, {3}, {4, 4}, {2, 3, 3}, {1, 1, 1, 1}, {8}};
  int checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const std::vector<int>& groups = shapes[static_cast<std::size_t>(trial) % shapes.size()];
    const SimplexQpProblem p = RandomProblem(&rng, groups);
    const SimplexQpResult r = SolveSimplexQp(p);
    ASSERT_TRUE(r.converged) << r.message;
    const VectorX expected = BruteForce(p);
    ASSERT_EQ(expected.size(), p.h.size());
    // The optimum is unique (H ≻ 0); both are exact up to the round-off of
    // KKT solves with condition numbers ~1e3-1e4.
    EXPECT_LT((r.w - expected).cwiseAbs().maxCoeff(), 1e-9) << "trial " << trial;
    EXPECT_NEAR(r.objective, 0.5 * expected.dot(p.H * expected) + p.h.dot(expected), 1e-10);
    ++checked;
  }
  EXPECT_EQ(checked, 300);
}

TEST(SimplexQpTest, WithEqualityCapsMatchesTheBruteForceOptimum) {
  // Each group a probability simplex (Σ w = 1): the NMDP polytope whose
  // normal force is fixed (docs/nmdp.md Sec. 2). Warm and cold alike.
  std::mt19937 rng(5);
  const std::vector<std::vector<int>> shapes = {{1}, {3}, {4, 4}, {2, 3, 3}, {8}};
  for (int trial = 0; trial < 200; ++trial) {
    SimplexQpProblem p = RandomProblem(&rng, shapes[static_cast<std::size_t>(trial) % shapes.size()]);
    p.equality = true;
    const SimplexQpResult r = SolveSimplexQp(p);
    ASSERT_TRUE(r.converged) << r.message;
    const VectorX expected = BruteForce(p);
    ASSERT_EQ(expected.size(), p.h.size());
    // As above: exact up to the KKT solves' round-off.
    EXPECT_LT((r.w - expected).cwiseAbs().maxCoeff(), 1e-9) << "trial " << trial;
    int start = 0;
    for (int size : p.group_sizes) {
      EXPECT_NEAR(r.w.segment(start, size).sum(), 1.0, 1e-12);
      start += size;
    }
    EXPECT_GE(r.w.minCoeff(), 0.0);
  }
}

TEST(SimplexQpTest, WithTheIdentityItIsTheProjectionOntoTheCappedSimplex) {
  // min ½‖w − y‖²: y = (2, 0.5, −1) projects onto the face Σ w = 1 at
  // (1, 0, 0) (shift τ = 1: max(y − 1, 0)); y = (0.2, 0.3, −1) is inside
  // the cap and projects to (0.2, 0.3, 0).
  SimplexQpProblem p;
  p.H = MatrixX::Identity(3, 3);
  p.group_sizes = {3};
  p.h = -Vector3(2, 0.5, -1);
  SimplexQpResult r = SolveSimplexQp(p);
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_LT((r.w - Vector3(1, 0, 0)).norm(), 1e-14);
  EXPECT_TRUE(r.working_set.at_cap[0]);
  p.h = -Vector3(0.2, 0.3, -1);
  r = SolveSimplexQp(p);
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_LT((r.w - Vector3(0.2, 0.3, 0)).norm(), 1e-14);
  EXPECT_FALSE(r.working_set.at_cap[0]);
  EXPECT_TRUE(r.working_set.at_zero[2]);
}

TEST(SimplexQpTest, AWarmStartFromANearbyProblemTakesFewerSteps) {
  // NMDP's outer iterations solve a sequence of nearby QPs: warm-started
  // from the previous answer and working set, the solver needs fewer
  // working-set changes than from zero, and finds the same optimum.
  std::mt19937 rng(5);
  std::normal_distribution<double> normal(0.0, 1.0);
  int cold_total = 0, warm_total = 0;
  for (int trial = 0; trial < 50; ++trial) {
    SimplexQpProblem p = RandomProblem(&rng, {8, 8, 8, 8});
    const SimplexQpResult first = SolveSimplexQp(p);
    ASSERT_TRUE(first.converged) << first.message;
    p.h += 1e-3 * VectorX::NullaryExpr(p.h.size(), [&]() { return normal(rng); });
    const SimplexQpResult cold = SolveSimplexQp(p);
    const SimplexQpResult warm = SolveSimplexQp(p, &first.w, &first.working_set);
    ASSERT_TRUE(cold.converged && warm.converged) << cold.message << warm.message;
    EXPECT_LT((cold.w - warm.w).cwiseAbs().maxCoeff(), 1e-9);
    cold_total += cold.iterations;
    warm_total += warm.iterations;
  }
  SCOPED_TRACE(testing::Message() << "iterations over 50 problems: cold " << cold_total << ", warm " << warm_total);
  EXPECT_LT(2 * warm_total, cold_total);
}

TEST(SimplexQpTest, AnInfeasibleStartIsProjectedFirst) {
  std::mt19937 rng(9);
  const SimplexQpProblem p = RandomProblem(&rng, {3, 2});
  const VectorX start = (VectorX(5) << -1, 2, 2, 0.5, 0.25).finished();
  const SimplexQpResult r = SolveSimplexQp(p, &start);
  ASSERT_TRUE(r.converged) << r.message;
  EXPECT_LT((r.w - BruteForce(p)).cwiseAbs().maxCoeff(), 1e-9);
}

TEST(SimplexQpTest, BadInputIsRefusedWithAMessage) {
  SimplexQpProblem p;
  p.H = MatrixX::Identity(3, 3);
  p.h = VectorX::Zero(3);
  p.group_sizes = {2};
  EXPECT_THROW(SolveSimplexQp(p), InputError);  // Groups hold 2 of 3 weights.
  p.group_sizes = {3, 0};
  EXPECT_THROW(SolveSimplexQp(p), InputError);  // An empty group.
  p.group_sizes = {3};
  p.h[1] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(SolveSimplexQp(p), InputError);
  p.h[1] = 0;
  p.H = MatrixX::Identity(2, 2);
  EXPECT_THROW(SolveSimplexQp(p), InputError);  // H and h disagree.
  p.H = MatrixX::Identity(3, 3);
  const VectorX start = VectorX::Zero(2);
  EXPECT_THROW(SolveSimplexQp(p, &start), InputError);
}

TEST(SimplexQpTest, AnIndefiniteHessianIsReportedNotLooped) {
  // Not a QP this solver takes: with H = −I the working-set KKT system at
  // the vertex 0 after dropping a bound is singular or the method runs to
  // its cap; either way it reports it and returns a feasible point.
  SimplexQpProblem p;
  p.H = -MatrixX::Identity(2, 2);
  p.h = VectorX::Zero(2);
  p.h[0] = -1;
  p.group_sizes = {2};
  const SimplexQpResult r = SolveSimplexQp(p, nullptr, nullptr, 20);
  // Traced by hand: bound 0 is dropped at the vertex 0, the working set's
  // stationary point is a maximum along w0, the step blocks at once on the
  // same bound, and the method cycles to its cap.
  EXPECT_FALSE(r.converged);
  EXPECT_FALSE(r.message.empty());
  EXPECT_TRUE((r.w.array() >= 0).all());
  EXPECT_LE(r.w.sum(), 1 + 1e-15);
}

}  // namespace
}  // namespace stiction
