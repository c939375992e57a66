#include "engine/solvers/sap_solver.h"

#include <gtest/gtest.h>

#include "tests/solvers/test_problems.h"

#include <cmath>
#include <random>

namespace stiction {
namespace {

using test::Cost;
using test::RandomProblem;

TEST(SapSolverTest, ConvergesToTheMinimizerWithTheRequestedMomentumError) {
  for (unsigned seed = 0; seed < 20; ++seed) {
    const ContactProblem p = RandomProblem(seed);
    SapSolverParameters params;
    params.relative_tolerance = 1e-8;
    SapSolver solver(params);
    SolverResult r;
    ASSERT_EQ(solver.Solve(p, VectorX::Zero(p.num_velocities()), &r), SolverStatus::kConverged)
        << r.message;
    EXPECT_LE(r.momentum_error, 1e-8) << "seed " << seed;  // Eq. (26) is the stop test.
    // A certificate independent of the solver: no nearby point is cheaper
    // (strong convexity; the cost is C¹, so first-order changes vanish and
    // second-order ones are positive).
    std::mt19937 gen(seed);
    std::normal_distribution<double> n(0, 1);
    const double c0 = Cost(p, r.v);
    EXPECT_NEAR(c0, r.cost, 1e-12 * std::abs(c0));
    for (int k = 0; k < 20; ++k) {
      const VectorX d = 1e-4 * VectorX::NullaryExpr(p.num_velocities(), [&] { return n(gen); });
      EXPECT_GE(Cost(p, r.v + d), c0 - 1e-12 * std::abs(c0));
    }
  }
}

TEST(SapSolverTest, BacktrackingReachesTheSameSolution) {
  const ContactProblem p = RandomProblem(3);
  SapSolverParameters params;
  params.relative_tolerance = 1e-10;
  SapSolver exact(params);
  params.line_search = LineSearchKind::kBacktracking;
  SapSolver backtracking(params);
  SolverResult a, b;
  ASSERT_EQ(exact.Solve(p, VectorX::Zero(p.num_velocities()), &a), SolverStatus::kConverged);
  ASSERT_EQ(backtracking.Solve(p, VectorX::Zero(p.num_velocities()), &b), SolverStatus::kConverged);
  // Unique minimizer (strong convexity); both meet e_m ≤ 1e-10.
  EXPECT_LT((a.v - b.v).norm(), 1e-7 * (1 + a.v.norm()));
  EXPECT_LE(a.iterations, b.iterations);  // The exact search is never worse here.
}

TEST(SapSolverTest, LineSearchDerivativesMatchFiniteDifferences) {
  const ContactProblem p = RandomProblem(5);
  SapSolver solver;
  std::mt19937 gen(1);
  std::normal_distribution<double> n(0, 1);
  const VectorX v = VectorX::NullaryExpr(p.num_velocities(), [&] { return n(gen); });
  const VectorX dv = VectorX::NullaryExpr(p.num_velocities(), [&] { return n(gen); });
  for (double alpha : {0.1, 0.7, 1.3}) {
    const double h = 1e-6;
    const auto s = solver.SampleAlong(p, v, dv, alpha);
    const auto sp = solver.SampleAlong(p, v, dv, alpha + h);
    const auto sm = solver.SampleAlong(p, v, dv, alpha - h);
    // Central differences: O(h²) truncation, round-off ~ε|ℓ|/h.
    EXPECT_NEAR(s.d_cost, (sp.cost - sm.cost) / (2 * h), 1e-6 * (1 + std::abs(s.d_cost)));
    EXPECT_NEAR(s.d2_cost, (sp.d_cost - sm.d_cost) / (2 * h), 1e-5 * (1 + std::abs(s.d2_cost)));
    EXPECT_NEAR(s.cost, Cost(p, v + alpha * dv), 1e-12 * std::abs(s.cost));
  }
}

TEST(SapSolverTest, ExactLineSearchFindsTheMinimizerAlongTheLine) {
  // Along the Newton direction from a cold start the minimizer of ℓ(α) is
  // found to round-off: dℓ/dα(α*) ≈ 0 relative to dℓ/dα(0), and no α on a
  // fine grid gives a lower cost.
  for (unsigned seed = 0; seed < 10; ++seed) {
    const ContactProblem p = RandomProblem(seed);
    SapSolver solver;
    const VectorX v = VectorX::Zero(p.num_velocities());
    // A descent direction: the negative gradient-like direction v* − v.
    const VectorX dv = p.v_star - v;
    const auto s0 = solver.SampleAlong(p, v, dv, 0);
    if (!(s0.d_cost < 0)) continue;
    const double alpha = solver.LineSearchAlong(p, v, dv);
    const auto s = solver.SampleAlong(p, v, dv, alpha);
    if (alpha < 1.5) {
      EXPECT_LE(std::abs(s.d_cost), 1e-10 * std::abs(s0.d_cost)) << "seed " << seed;
    }
    for (int k = 0; k <= 300; ++k) {
      const double a = 1.5 * k / 300.0;
      EXPECT_GE(solver.SampleAlong(p, v, dv, a).cost, s.cost - 1e-14 * std::abs(s.cost));
    }
  }
}

TEST(SapSolverTest, NewtonConvergesQuadraticallyNearTheOptimum) {
  // Where ℓ_p is twice differentiable around the solution, Newton's method
  // converges quadratically ([SAP] Sec. IV): e_{k+1} ≤ C e_k². We check
  // C ≤ 200 for every iterate with 1e-9 ≤ e_k ≤ 1e-4 whose successor is above
  // the round-off floor (~4e-11 for these stiff problems, Rt/Rn = 1e-3).
  // A linearly converging method with ratio r would need
  // C = r/e_k ≥ 100·r·1e2, i.e. it fails for any r > 0.02. Observed C ≤ 50.
  int checked = 0;
  for (unsigned seed = 0; seed < 20; ++seed) {
    const ContactProblem p = RandomProblem(seed);
    SapSolverParameters params;
    params.relative_tolerance = 1e-14;
    params.record_history = true;
    // SapSolver runs Alg. 2 on the whole problem: one Newton iteration over
    // every island at once (an IslandSolver's history would mix islands).
    SapSolver solver(params);
    SolverResult r;
    solver.Solve(p, VectorX::Zero(p.num_velocities()), &r);
    const std::vector<double>& e = r.momentum_error_history;
    for (size_t k = 0; k + 1 < e.size(); ++k) {
      if (e[k] <= 1e-4 && e[k] >= 1e-9 && e[k + 1] > 1e-10) {
        EXPECT_LE(e[k + 1], 200 * e[k] * e[k]) << "seed " << seed << " k " << k;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 5);  // The regime was actually observed.
}

TEST(SapSolverTest, IterationCapReturnsAStatusAndAMessage) {
  const ContactProblem p = RandomProblem(2);
  SapSolverParameters params;
  params.max_iterations = 1;
  params.relative_tolerance = 1e-15;
  SapSolver solver(params);
  SolverResult r;
  EXPECT_EQ(solver.Solve(p, VectorX::Zero(p.num_velocities()), &r), SolverStatus::kMaxIterations);
  EXPECT_NE(r.message.find("did not converge"), std::string::npos);
}

TEST(SapSolverTest, ANewtonMatrixThatIsNotPositiveDefiniteHasItsOwnStatus) {
  // A with a positive diagonal (so the scaling of Eq. 25 is finite) but an
  // eigenvalue of −1e9 on every tree: H = A + JᵀGJ, with JᵀGJ no larger
  // than ~1e6 here (1/Rt), cannot be factored. That is not bad data (nothing
  // is NaN), so it must not be reported as kNonFinite, and the result must
  // not advance a step.
  ContactProblem p = RandomProblem(3, /*trees=*/2, /*contacts=*/4);
  for (MatrixX& A : p.A) {
    A = MatrixX::Identity(6, 6);
    A(0, 1) = A(1, 0) = 1e9;  // Eigenvalues 1 ± 1e9 in the (e0, e1) plane.
  }
  SapSolver solver;
  SolverResult r;
  EXPECT_EQ(solver.Solve(p, VectorX::Zero(p.num_velocities()), &r), SolverStatus::kNotPositiveDefinite);
  EXPECT_FALSE(r.usable);
  EXPECT_NE(r.message.find("not positive definite"), std::string::npos) << r.message;
}

TEST(SapSolverTest, TreesWithoutConstraintsKeepTheirFreeMotion) {
  ContactProblem p = RandomProblem(4, 3, 0);
  SapSolver solver;
  SolverResult r;
  ASSERT_EQ(solver.Solve(p, VectorX::Zero(p.num_velocities()), &r), SolverStatus::kConverged);
  EXPECT_EQ(r.v, p.v_star);
  EXPECT_EQ(r.iterations, 0);
}

TEST(SapSolverTest, ComplementarityHoldsExactly) {
  // SAP's impulses come from the projection, so g·γ = 0 per contact up to
  // round-off (the paper omits SAP from its Fig. 20 for this reason).
  const ContactProblem p = RandomProblem(9);
  SapSolver solver;
  SolverResult r;
  ASSERT_EQ(solver.Solve(p, VectorX::Zero(p.num_velocities()), &r), SolverStatus::kConverged);
  EXPECT_LT(r.complementarity_error, 1e-10);
}

}  // namespace
}  // namespace stiction

namespace stiction {
namespace {

TEST(SapSolverTest, DenseAndSparseFactorizationsGiveTheSameIterates) {
  const ContactProblem p = RandomProblem(7);
  SapSolverParameters params;
  params.linear_solver = LinearSolverKind::kDense;
  SapSolver dense(params);
  params.linear_solver = LinearSolverKind::kSparse;
  SapSolver sparse(params);
  SolverResult a, b;
  ASSERT_EQ(dense.Solve(p, VectorX::Zero(p.num_velocities()), &a), SolverStatus::kConverged);
  ASSERT_EQ(sparse.Solve(p, VectorX::Zero(p.num_velocities()), &b), SolverStatus::kConverged);
  EXPECT_EQ(a.iterations, b.iterations);
  // Two Cholesky orderings of the same SPD matrix: agreement to round-off
  // amplified by H's conditioning (Rt ~ 1e-6).
  EXPECT_LT((a.v - b.v).norm(), 1e-8 * (1 + a.v.norm()));
}

}  // namespace
}  // namespace stiction
