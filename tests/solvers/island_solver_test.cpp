// Solving island by island (engine/solvers/island_solver.h): for SAP the
// same minimizer as the whole problem, bit-identical results on one or two
// threads; CANAL and SubADMM (islands off by default) give the same answer
// with islands on, to their tolerance.
#include "engine/solvers/island_solver.h"

#include <gtest/gtest.h>

#include <cmath>

#include "tests/solvers/test_problems.h"

namespace stiction {
namespace {

using test::AddPairedCones;
using test::RandomProblem;

TEST(IslandSolverTest, SapIslandsSolvedSeparatelyGiveTheSameSolution) {
  // Trees {0, 1} and {2, 3} are coupled only within their pair; tree 4 has
  // no constraint. ℓ_p is a sum over the two islands, so solving them
  // separately must give the minimizer of the whole (strictly convex)
  // problem: the same v and γ as one Newton iteration over everything, to
  // the solvers' tolerance. Constraints alternate between the islands so
  // that the impulse rows must be scattered back in problem order.
  for (unsigned seed = 0; seed < 5; ++seed) {
    ContactProblem p = RandomProblem(seed, /*trees=*/5, /*contacts=*/0);
    AddPairedCones(&p, seed + 100, /*count=*/10, /*pairs=*/2, /*single_every=*/3);
    SolverSettings settings;
    settings.sap.relative_tolerance = 1e-12;
    SolverResult split, whole;
    IslandSolver split_solver(settings);
    ASSERT_EQ(split_solver.Solve(p, VectorX::Zero(p.num_velocities()), &split), SolverStatus::kConverged);
    EXPECT_EQ(split_solver.last_num_islands(), 2);
    EXPECT_TRUE(split.usable);
    settings.sap.islands.enabled = false;
    IslandSolver whole_solver(settings);
    ASSERT_EQ(whole_solver.Solve(p, VectorX::Zero(p.num_velocities()), &whole), SolverStatus::kConverged);
    EXPECT_EQ(whole_solver.last_num_islands(), 1);
    // Both stop at e_m ≤ 1e-12 of the momentum scale (~1 here); the
    // minimizer is then known to ~1e-9 given H's conditioning (Rt = 1e-6).
    EXPECT_LT((split.v - whole.v).lpNorm<Eigen::Infinity>(), 1e-8) << "seed " << seed;
    EXPECT_LT((split.gamma - whole.gamma).lpNorm<Eigen::Infinity>(), 1e-8) << "seed " << seed;
    // The unconstrained tree keeps its free motion exactly.
    EXPECT_EQ(split.v.segment(24, 6), p.v_star.segment(24, 6));
    EXPECT_NEAR(split.cost, whole.cost, 1e-10 * std::abs(whole.cost));
  }
}

TEST(IslandSolverTest, SapIslandsOnTwoThreadsGiveBitIdenticalResults) {
  // Six islands of two trees each (constraints interleaved in problem
  // order) solved by one thread and split over two: each island is solved by
  // the same code on its own scratch and merged in island order, so v, γ and
  // every statistic must be identical, not merely close.
  for (unsigned seed = 0; seed < 3; ++seed) {
    ContactProblem p = RandomProblem(seed, /*trees=*/12, /*contacts=*/0);
    AddPairedCones(&p, seed + 200, /*count=*/30, /*pairs=*/6, /*single_every=*/4);
    SolverSettings settings;
    SolverResult one, two;
    IslandSolver serial(settings);
    ASSERT_EQ(serial.Solve(p, VectorX::Zero(p.num_velocities()), &one), SolverStatus::kConverged);
    EXPECT_EQ(serial.last_num_threads(), 1);
    settings.sap.islands.parallel = true;
    settings.sap.islands.parallel_min_velocities = 0;
    IslandSolver parallel(settings);
    for (int repeat = 0; repeat < 3; ++repeat) {  // The worker is reused across solves.
      ASSERT_EQ(parallel.Solve(p, VectorX::Zero(p.num_velocities()), &two), SolverStatus::kConverged);
      EXPECT_EQ(parallel.last_num_islands(), 6);
      EXPECT_EQ(parallel.last_num_threads(), 2);
      EXPECT_EQ(two.v, one.v) << "seed " << seed;
      EXPECT_EQ(two.gamma, one.gamma) << "seed " << seed;
      EXPECT_EQ(two.iterations, one.iterations);
      EXPECT_EQ(two.line_search_iterations, one.line_search_iterations);
      EXPECT_EQ(two.cost, one.cost);
      EXPECT_EQ(two.momentum_error, one.momentum_error);
    }
  }
}

// Islands serve every solver: CANAL and SubADMM on two islands reach the
// answer they reach on the whole problem, to their own tolerances.
TEST(IslandSolverTest, CanalAndSubAdmmGiveTheSameAnswerWithIslands) {
  for (const SolverType type : {SolverType::kCanal, SolverType::kSubAdmm}) {
    for (unsigned seed = 0; seed < 3; ++seed) {
      ContactProblem p = RandomProblem(seed, /*trees=*/5, /*contacts=*/0);
      AddPairedCones(&p, seed + 300, /*count=*/8, /*pairs=*/2, /*single_every=*/3);
      for (Constraint& c : p.constraints) c.mu = c.cone.mu;  // The exact solvers read μ here.
      SolverSettings settings;
      settings.type = type;
      settings.canal.tolerance = 1e-10;
      settings.canal.max_iterations = 100;
      settings.subadmm.tolerance = 1e-10;
      settings.subadmm.max_iterations = 20000;
      SolverResult whole, split;
      IslandSolver whole_solver(settings);
      ASSERT_EQ(whole_solver.Solve(p, VectorX::Zero(p.num_velocities()), &whole), SolverStatus::kConverged)
          << whole.message;
      EXPECT_EQ(whole_solver.last_num_islands(), 1);  // Off by default for the AL solvers.
      settings.canal.islands.enabled = settings.subadmm.islands.enabled = true;
      IslandSolver split_solver(settings);
      ASSERT_EQ(split_solver.Solve(p, VectorX::Zero(p.num_velocities()), &split), SolverStatus::kConverged)
          << split.message;
      EXPECT_EQ(split_solver.last_num_islands(), 2);
      EXPECT_TRUE(split.usable);
      // Both within 1e-10 of the NCP solution in their residuals; velocities
      // agree to 1e-6 given A's conditioning (eigenvalues in [0.5, ~10]) and
      // the penalty's amplification of the residual.
      EXPECT_LT((split.v - whole.v).lpNorm<Eigen::Infinity>(), 1e-6) << SolverTypeName(type) << " seed " << seed;
      EXPECT_EQ(split.v.segment(24, 6), p.v_star.segment(24, 6));
      // CANAL's slack z is merged back in problem order (SubADMM has none).
      EXPECT_EQ(split.slack.size(), whole.slack.size());
      if (type == SolverType::kCanal) {
        ASSERT_EQ(split.slack.size(), p.num_rows());
        EXPECT_LT((split.slack - whole.slack).lpNorm<Eigen::Infinity>(), 1e-6);
      }
    }
  }
}

}  // namespace
}  // namespace stiction
