// The island module (engine/solvers/islands.h): connected components of the
// trees through the constraints, numbered by their smallest tree; an island
// extracted as a problem of its own; results merged back by tree and row.
#include "engine/solvers/islands.h"

#include <gtest/gtest.h>

#include "tests/solvers/test_problems.h"

namespace stiction {
namespace {

// Seven trees: constraints couple {0, 3}, {3, 5} (one island {0, 3, 5}),
// {2} alone (a tree against the world) and {4, 6}; tree 1 has none.
ContactProblem ChainProblem() {
  ContactProblem p = test::RandomProblem(1, /*trees=*/7, /*contacts=*/0);
  auto add = [&](int ta, int tb) {
    Constraint c;
    c.blocks.push_back({ta, MatrixX::Constant(3, 6, 0.1 * (ta + 1))});
    if (tb >= 0) c.blocks.push_back({tb, MatrixX::Constant(3, 6, -0.1 * (tb + 1))});
    c.cone = {0.5, 1e-6, 1e-3, 0.0};
    c.key = static_cast<std::uint64_t>(p.constraints.size());
    p.constraints.push_back(c);
  };
  add(4, 6);   // 0
  add(3, 5);   // 1
  add(2, -1);  // 2
  add(0, 3);   // 3
  add(6, -1);  // 4
  return p;
}

TEST(IslandsTest, FindsConnectedComponentsNumberedBySmallestTree) {
  const ContactProblem p = ChainProblem();
  Islands islands;
  ASSERT_EQ(islands.Find(p), 3);
  EXPECT_EQ(islands.constraints(0), (std::vector<int>{1, 3}));  // Trees {0, 3, 5}.
  EXPECT_EQ(islands.constraints(1), (std::vector<int>{2}));     // Tree {2}.
  EXPECT_EQ(islands.constraints(2), (std::vector<int>{0, 4}));  // Trees {4, 6}.
  // Storage is reused: a second, smaller problem replaces the first.
  ContactProblem q = p;
  q.constraints.resize(1);
  ASSERT_EQ(islands.Find(q), 1);
  EXPECT_EQ(islands.constraints(0), (std::vector<int>{0}));
}

TEST(IslandsTest, ExtractRenumbersTreesAndKeepsConstraintOrder) {
  const ContactProblem p = ChainProblem();
  Islands islands;
  islands.Find(p);
  const VectorX guess = VectorX::LinSpaced(p.num_velocities(), 0, 1);
  IslandProblem out;
  islands.Extract(p, 0, guess, &out);
  EXPECT_EQ(out.trees, (std::vector<int>{0, 3, 5}));
  ASSERT_EQ(out.problem.num_trees(), 3);
  EXPECT_EQ(out.problem.num_velocities(), 18);
  for (int t = 0; t < 3; ++t) {
    const int g = out.trees[t];
    EXPECT_EQ(out.problem.A[t], p.A[g]);
    EXPECT_EQ(out.problem.v_star.segment(6 * t, 6), p.v_star.segment(p.tree_v_start[g], 6));
    EXPECT_EQ(out.v_guess.segment(6 * t, 6), guess.segment(p.tree_v_start[g], 6));
  }
  ASSERT_EQ(out.problem.constraints.size(), 2u);
  EXPECT_EQ(out.problem.constraints[0].key, 1u);  // Problem order: constraint 1, then 3.
  EXPECT_EQ(out.problem.constraints[1].key, 3u);
  // Constraint 1 couples global trees 3, 5 → island trees 1, 2.
  EXPECT_EQ(out.problem.constraints[0].blocks[0].tree, 1);
  EXPECT_EQ(out.problem.constraints[0].blocks[1].tree, 2);
  EXPECT_EQ(out.problem.constraints[0].blocks[1].J, p.constraints[1].blocks[1].J);
}

TEST(IslandsTest, MergeScattersByTreeAndRowAndCombinesStatistics) {
  const ContactProblem p = ChainProblem();
  Islands islands;
  const int n = islands.Find(p);
  std::vector<IslandSolve> solves(n);
  for (int i = 0; i < n; ++i) {
    IslandProblem out;
    islands.Extract(p, i, p.v_star, &out);
    IslandSolve& s = solves[i];
    s.trees = out.trees;
    // Each island "solves" to v = island index + tree position, γ = row ids.
    s.result.v = VectorX::Constant(out.problem.num_velocities(), 10.0 * (i + 1));
    s.result.gamma = VectorX::LinSpaced(out.problem.num_rows(), 100.0 * (i + 1), 100.0 * (i + 1) + out.problem.num_rows() - 1);
    s.result.usable = true;
    s.result.iterations = i + 2;
    s.result.line_search_iterations = 5;
    s.result.momentum_error = 1e-3 * (i + 1);
  }
  solves[1].status = SolverStatus::kMaxIterations;
  solves[1].result.message = "capped";
  SolverResult r;
  EXPECT_EQ(MergeIslandSolves(p, islands, solves, &r), SolverStatus::kMaxIterations);
  EXPECT_EQ(r.message, "capped (island 2 of 3)");
  EXPECT_TRUE(r.usable);
  EXPECT_EQ(r.iterations, 4);                     // The largest.
  EXPECT_EQ(r.line_search_iterations, 15);        // The sum.
  EXPECT_DOUBLE_EQ(r.momentum_error, 3e-3);       // The largest.
  EXPECT_EQ(r.v.segment(0, 6), VectorX::Constant(6, 10.0));    // Tree 0: island 1.
  EXPECT_EQ(r.v.segment(6, 6), p.v_star.segment(6, 6));        // Tree 1: no constraint.
  EXPECT_EQ(r.v.segment(12, 6), VectorX::Constant(6, 20.0));   // Tree 2: island 2.
  EXPECT_EQ(r.v.segment(24, 6), VectorX::Constant(6, 30.0));   // Tree 4: island 3.
  // Rows: constraint 0 (island 3's first) → 300.., constraint 1 (island 1's
  // first) → 100.., constraint 3 (island 1's second) → 103...
  EXPECT_EQ(r.gamma[0], 300.0);
  EXPECT_EQ(r.gamma[3], 100.0);
  EXPECT_EQ(r.gamma[9], 103.0);
  EXPECT_EQ(r.gamma[12], 303.0);
  solves[2].result.usable = false;
  MergeIslandSolves(p, islands, solves, &r);
  EXPECT_FALSE(r.usable);
}

}  // namespace
}  // namespace stiction
